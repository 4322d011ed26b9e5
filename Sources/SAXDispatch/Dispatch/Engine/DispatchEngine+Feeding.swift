/// The engine's surface for the ``PushParser`` that owns it: input in, pauses, and the
/// error expat stopped with. The parser talks to the engine only; the engine forwards to
/// its ``ExpatDriver``, which is the only one to touch expat.
extension DispatchEngine {
    /// Whether expat could create its parser.
    var isAvailable: Bool { driver.isAvailable }

    /// The number of input bytes received so far: given to expat or held back.
    var byteCount: Int { driver.byteCount }

    /// Parses the next piece of the input (see ``ExpatDriver/feed(_:)``).
    @inline(__always)
    func feed(_ bytes: UnsafeRawBufferPointer) -> ExpatDriver.FeedResult {
        driver.feed(bytes)
    }

    /// Parses the input held back so far, without ending the document.
    func flushHeldInput() -> ExpatDriver.FeedResult {
        driver.flushHeld()
    }

    /// Parses whatever is held back and tells expat the input is complete.
    func finishInput() -> ExpatDriver.FeedResult {
        driver.finish()
    }

    /// Goes on after a pause (``requestSuspension()``).
    func resumeInput() -> ExpatDriver.FeedResult {
        driver.resume()
    }

    /// Reads an input to its end straight into expat's buffer (see
    /// ``ExpatDriver/parse(reading:chunkSize:afterRead:)``).
    func parse(
        reading reader: inout some XMLInputReader, chunkSize: Int, afterRead: () -> Bool
    ) throws -> ExpatDriver.FeedResult {
        try driver.parse(reading: &reader, chunkSize: chunkSize, afterRead: afterRead)
    }

    /// Reads the input as `name` whatever the document declares, if no input arrived yet.
    func overrideEncoding(_ name: String) {
        driver.overrideEncoding(name)
    }

    // MARK: Pauses

    /// Whether a handler paused the parse with input left to parse.
    var isSuspended: Bool { driver.isSuspended }

    /// Asks expat to pause after the current callback (see ``ExpatDriver/suspend()``).
    func requestSuspension() {
        driver.suspend()
    }

    /// Whether a pause asked inside an internal entity waits for the document's own next event.
    var isPauseDeferred: Bool { driver.isPauseDeferred }

    // MARK: Errors

    /// The error expat stopped with, at the current element path.
    func parseError(source: String?) -> XMLParseError {
        var error = driver.currentError(elementPath: currentPath, rootStarted: rootStarted, source: source)
        if readsConcatenatedDocuments { error.documentNumber = documentNumber }
        return error
    }

    /// The error of a parser that expat could not create.
    func creationError(source: String?) -> XMLParseError {
        driver.currentError(elementPath: [], rootStarted: false, source: source)
    }
}
