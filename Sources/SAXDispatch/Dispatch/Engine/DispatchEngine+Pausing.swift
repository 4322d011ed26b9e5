/// The engine's side of a stream's pause (the pause itself is the driver's
/// ``ExpatDriverPauseState``): what waits for the document's next event, a pause asked
/// inside an internal entity or text a pause left undelivered, and the slices of that text
/// delivered at the resumes.
///
/// What must stay true: the per-event cost is the one test of ``pauseAwaitsEvent`` in
/// `startElement`, `endElement` and the character-data callbacks.
extension DispatchEngine {
    /// A pause was asked inside an internal entity: the next event of the document itself
    /// makes it (``ExpatDriver/suspendIfDeferred()``).
    func awaitEventForPause() {
        pauseAwaitsEvent = true
    }

    /// At an event, what a pause left waiting: a pause asked inside an internal entity is
    /// made now if the event is the document's own; undelivered text goes out first.
    /// Called by the per-event check of ``pauseAwaitsEvent``.
    func resolvePauseAtEvent() {
        pauseAwaitsEvent = false
        suspendIfDeferred()
        if text.hasDeferredText { deliverDeferredTextSlice(all: true) }
    }

    /// Whether text a pause left undelivered waits for the next resume.
    var hasDeferredText: Bool { text.hasDeferredText }

    /// Delivers the next slice of the text a pause left undelivered (or, with `all`, the
    /// rest of it: an event came before the resume), to the innermost element's handlers.
    func deliverDeferredTextSlice(all: Bool = false) {
        repeat {
            deliverTextChunk(text.nextDeferredSlice())
        } while all && text.hasDeferredText && !isHalted
        if !text.hasDeferredText || isHalted { text.dropDeferredText() }
    }
}
