/// Drives one iteration of an ``XMLStream``: feeds the parser the chunks its iterator
/// pulls, resumes it when the consumer has taken every value, and turns the parser's
/// end into the iteration's end.
///
/// The parser only ever runs inside the consumer's call to `next()`, and pauses after
/// each value a handler yields, so parsing never gets ahead of the consumer by more
/// than the values of an event or two (expat still reports the end of an empty element
/// paused at its start).
@usableFromInline
final class StreamPump<Element> {
    // `step()` and `accept(_:)` run per value and per chunk: inlinable, so that they
    // are specialized for the element type where the stream is iterated.

    @usableFromInline
    enum Step {
        /// A value for the consumer.
        case value(Element)
        /// The parser is done with its input: pull another chunk and ``accept(_:)`` it.
        case needsInput
        /// The document is complete, or a handler stopped the parse.
        case finished
    }

    @usableFromInline let recipe: XMLStreamRecipe<Element>
    @usableFromInline let output = XMLStreamOutput<Element>()
    // Used from one task at a time: no dynamic exclusivity checks per value.
    @exclusivity(unchecked) @usableFromInline var parser: PushParser?
    /// An error that comes after the values already yielded.
    @exclusivity(unchecked) @usableFromInline var pendingError: (any Error)?
    @exclusivity(unchecked) @usableFromInline var inputEnded = false
    /// What the chunk source threw: it comes after the values of the input that arrived.
    @exclusivity(unchecked) @usableFromInline var sourceError: (any Error)?
    @exclusivity(unchecked) @usableFromInline var heldInputFlushed = false
    @exclusivity(unchecked) @usableFromInline var isFinished = false

    @usableFromInline
    init(_ recipe: XMLStreamRecipe<Element>) {
        self.recipe = recipe
    }

    /// The most values that waited for the consumer at once.
    var mostWaiting: Int { output.mostWaiting }

    /// Parses until a value is ready, more input is needed, or the parse is over.
    ///
    /// - Throws: `CancellationError` when the consuming task is cancelled, the parse's
    ///   error after the values yielded before it, or what building the dispatcher threw.
    @inlinable
    func step() throws -> Step {
        while true {
            if Task.isCancelled {
                close()
                throw CancellationError()
            }
            if let value = output.take() { return .value(value) }
            if let error = pendingError {
                close()
                throw error
            }
            if isFinished { return .finished }
            let parser = try self.parser ?? start()
            do {
                if parser.isSuspended {
                    if try parser.resume() != nil { isFinished = true }
                } else if inputEnded || parser.isStopped {
                    if try parser.finishUnlessSuspended() != nil { isFinished = true }
                } else if let sourceError {
                    // What the parser held back of the input that did arrive goes through
                    // first (its whole elements become values); then the source's error.
                    guard heldInputFlushed else {
                        heldInputFlushed = true
                        try parser.flushHeldInput()
                        continue
                    }
                    close()
                    throw sourceError
                } else {
                    return .needsInput
                }
            } catch {
                pendingError = recipe.mapError(error)
            }
        }
    }

    /// Feeds the next chunk.
    @inlinable
    func accept(_ chunk: UnsafeRawBufferPointer) {
        guard let parser, !isFinished else { return }
        do {
            try parser.feed(chunk)
        } catch {
            pendingError = recipe.mapError(error)
        }
    }

    /// Notes the end of the input.
    @inlinable
    func acceptEnd() {
        guard parser != nil, !isFinished else { return }
        inputEnded = true
    }

    /// Notes that the chunk source threw `error`: the values of the input that arrived
    /// are still delivered, then ``step()`` throws it.
    @inlinable
    func sourceFailed(_ error: any Error) {
        if parser == nil || isFinished {
            pendingError = pendingError ?? error
        } else {
            sourceError = error
        }
    }

    /// Releases the parser, its handlers and any values waiting.
    @usableFromInline
    func close() {
        isFinished = true
        parser = nil
        output.close()
    }

    @usableFromInline
    func start() throws -> PushParser {
        let dispatcher: Dispatcher
        do {
            dispatcher = try recipe.makeDispatcher(output)
        } catch {
            close()
            throw error
        }
        let parser = PushParser(
            streaming: dispatcher, source: recipe.source, encoding: recipe.encoding,
            readsConcatenatedDocuments: recipe.readsConcatenatedDocuments)
        output.parser = parser
        self.parser = parser
        return parser
    }
}

/// What an ``XMLStream`` parses with: how to build its dispatcher around an output,
/// the input's name and encoding, and how parse errors surface.
@usableFromInline
struct XMLStreamRecipe<Element>: Sendable {
    var source: String?
    var encoding: String?
    var readsConcatenatedDocuments = false
    var makeDispatcher: @Sendable (XMLStreamOutput<Element>) throws -> Dispatcher
    @usableFromInline var mapError: @Sendable (any Error) -> any Error = { $0 }
}
