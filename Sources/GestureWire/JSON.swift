/// The module's JSON reader for other protocols than gestured's own (the focus backends read
/// sway's, niri's and Hyprland's IPC with it): plain Swift values, no Foundation.
public enum JSON {
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// One JSON value filling all of `bytes`: String, Double, Bool, [Any], [String: Any] or JSONNull.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> Any {
        do { return try JSONReader.parse(bytes) } catch { throw ParseError(description: error.message) }
    }
}
