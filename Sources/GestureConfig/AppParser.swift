import YAML

extension Reader {
    /// `app: GLOB`, `app: [GLOB, …]` or `app: none`. Only a `gestured listen` config may say it:
    /// the system daemon runs outside the user's session and cannot see the focused window.
    mutating func readApp(_ node: Node, key: Mark) -> AppMatch? {
        guard purpose == .listen else {
            error(key, "app: belongs in the listen config, not the daemon's",
                  hint: "the system daemon cannot see which window has the focus; move this binding to "
                      + "~/.config/gestured/config.yaml (run by `gestured listen` in your session) and check it "
                      + "with `gestured check --listen`")
            return nil
        }
        guard let list = oneOrList(node, "app", { r, n in r.appPattern(n) }) else { return nil }
        var m = AppMatch(patterns: [])
        for item in list {
            if let p = item { m.patterns.append(p) } else { m.matchesNothingFocused = true }
        }
        return m
    }

    /// One pattern; nil inside the optional for `none`.
    private mutating func appPattern(_ node: Node) -> String?? {
        guard let (s, quoted) = scalar(node, "app", expected: "an application id glob like \"firefox\" or none") else {
            return nil
        }
        if !quoted && (s == "none" || s == "None") { return .some(nil) }
        let t = s.trimmingSpaces
        guard !t.isEmpty else {
            error(node.mark, "app must not be empty",
                  hint: "an application id glob (`gestured listen --print-app` shows them), or none for no focused window")
            return nil
        }
        guard t == s else {
            error(node.mark, "app '\(s)' has spaces around it", hint: "application ids have none; write '\(t)'")
            return nil
        }
        return .some(s)
    }
}
