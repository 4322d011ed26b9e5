@testable import SAXDispatch
import Testing

/// The driver's pause as one state machine: a pause is asked only while a parse call that
/// may pause runs, a paused call keeps what it owes through a resume, and a stop is final.
@Suite("Pause state")
struct PauseStateTests {
    @Test("a pause is asked only inside a parse call, and once")
    func requestOnlyInsideACall() {
        var pause = ExpatDriverPauseState.idle
        pause.request(deferred: false)
        #expect(pause == .idle)
        pause.beginCall()
        #expect(pause.acceptsRequest)
        pause.request(deferred: false)
        #expect(pause == .requested)
        #expect(!pause.acceptsRequest)
        pause.request(deferred: true)
        #expect(pause == .requested)
        pause.endCall(pausedOwing: nil)
        #expect(pause == .idle)
    }

    @Test("a pause asked inside an entity waits, and is asked again at the document's event")
    func deferredPause() {
        var pause = ExpatDriverPauseState.running
        pause.request(deferred: true)
        #expect(pause.isDeferred && pause.acceptsRequest)
        pause.request(deferred: false)
        #expect(pause.isRequested)
    }

    @Test("a paused call keeps what it owes through a resume that pauses again")
    func owedSurvivesResume() {
        var pause = ExpatDriverPauseState.requested
        pause.endCall(pausedOwing: .init(callIsFinal: true, callEndsDocument: false, unsentBytes: 5))
        pause.addOwed(unsentBytes: 3, surrogateFound: true)
        #expect(pause.isPaused && pause.unsentBytes == 8)
        let owed = pause.resume()
        #expect(owed == .init(callIsFinal: true, callEndsDocument: false, unsentBytes: 8, surrogateFound: true))
        #expect(pause == .running && pause.unsentBytes == 0)
        pause.endCall(pausedOwing: owed)
        #expect(pause.resume() == owed)
    }

    @Test("a stop is final: no call, pause or resume leaves it")
    func stopIsFinal() {
        var pause = ExpatDriverPauseState.paused(.init(unsentBytes: 2))
        pause.stop()
        pause.beginCall()
        pause.request(deferred: false)
        pause.endCall(pausedOwing: .init())
        #expect(pause.resume() == nil)
        #expect(pause.isStopped && !pause.isPaused)
    }

    @Test("a new document drops a pause asked in the one that ended")
    func newDocumentDropsRequest() {
        var pause = ExpatDriverPauseState.deferred
        pause.beginDocument()
        #expect(pause == .running)
    }
}
