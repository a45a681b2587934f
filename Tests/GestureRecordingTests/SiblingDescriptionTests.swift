import GestureRecording
import Testing

/// `RecordingLoader.siblingDescription`: an evtest `.events` file finds the `.desc` beside it,
/// by the longest matching stem, with the source suffix after `__` having to match too.
@Suite struct SiblingDescriptionTests {
    @Test func test_eventsFile_findsTheDescWithItsStemAndSource() {
        let events = Fixtures.directory + "touchpad-synaptics-hp8470p-1finger-right-edge-swipe-down__whot-evemu-devices.events"
        #expect(RecordingLoader.siblingDescription(for: events)
                == Fixtures.directory + "touchpad-synaptics-hp8470p__whot-evemu-devices.desc")
    }

    @Test func test_sameStemFromAnotherSource_isNotTaken() {
        // The stem matches the hp8470p .desc, but the `__elsewhere` source does not.
        let events = Fixtures.directory + "touchpad-synaptics-hp8470p-1finger__elsewhere.events"
        #expect(RecordingLoader.siblingDescription(for: events) == nil)
    }
}
