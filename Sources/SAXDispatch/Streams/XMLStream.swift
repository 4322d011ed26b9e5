/// Values read from a document that arrives asynchronously (``AsyncXMLInput``), as an
/// `AsyncSequence`: records, `Decodable` values, or whatever your handlers yield.
///
/// Make one from a record (``XMLRecord/stream(from:safety:diagnostics:)``), a decoder
/// (``XMLRecordDecoder/stream(_:at:from:safety:)``) or your own handlers
/// (``init(from:handlers:)``), over bytes (`URLSession.AsyncBytes`), byte chunks
/// (`[UInt8]`, `Data`), a file, or any ``XMLInput``:
///
/// ```swift
/// for try await page in XMLRecordDecoder().stream(Page.self, at: "/mediawiki/page", from: .bytes(bytes)) {
///     print(page.title)
/// }
/// ```
///
/// **Back-pressure.** The parser runs only inside `next()`, on the consuming task,
/// and pauses after each value (expat's resumable `XML_StopParser`), so it never
/// gets ahead of the consumer: a slow consumer holds the values of one event (or two:
/// expat still reports the end of an empty element paused at its start), even when one
/// chunk of input holds thousands of records, and the source is asked for the next
/// chunk only when the parser has used up the last one.
///
/// **Errors** surface from `next()`: a malformed document (``XMLParseError``), a
/// value that cannot be built (``XMLRecordError``, ``XMLDecodingError``), the source's own
/// error, each after the values that came before it. The iteration then ends.
///
/// **Cancellation.** When the consuming task is cancelled, its next call to `next()`
/// throws `CancellationError` and releases the parser, its handlers and the source's
/// iterator (closing a file); a source that waits (a network stream) ends its wait as
/// cancellation tells it to.
///
/// Each iteration parses the document from its own start with its own parser, so a
/// stream can be iterated more than once when its source can, and streams iterate
/// concurrently on different tasks without sharing anything.
public struct XMLStream<Element>: AsyncSequence {
    public typealias Failure = any Error

    @usableFromInline let input: AsyncXMLInput
    @usableFromInline let recipe: XMLStreamRecipe<Element>

    init(from input: AsyncXMLInput, recipe: XMLStreamRecipe<Element>) {
        self.input = input
        var recipe = recipe
        recipe.source = input.name
        recipe.encoding = input.encoding
        recipe.readsConcatenatedDocuments = input.readsConcatenatedDocuments
        self.recipe = recipe
    }

    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(input: input.makeChunkIterator(), pump: StreamPump(recipe))
    }

    /// Parses on demand: each `next()` parses until the next value is ready, pulling
    /// chunks from the source only as the parser needs them.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// The source; `nil` once the iteration ended, so that it is released (a file closed) then.
        @usableFromInline var input: AsyncChunkIterator?
        /// The iteration's parser and values; `nil` once it ended.
        @usableFromInline var pump: StreamPump<Element>?

        @usableFromInline
        init(input: AsyncChunkIterator, pump: StreamPump<Element>) {
            self.input = input
            self.pump = pump
        }

        /// The next value, or `nil` at the end of the document.
        ///
        /// - Throws: The parse's errors, the source's, or `CancellationError`.
        @inlinable
        public mutating func next() async throws -> Element? {
            guard let pump else { return nil }
            do {
                while true {
                    switch try pump.step() {
                    case .value(let value): return value
                    case .finished: return end()
                    case .needsInput:
                        // The source's error comes after the values of what it delivered.
                        do {
                            if try await input?.next({ pump.accept($0) }) != true { pump.acceptEnd() }
                        } catch {
                            pump.sourceFailed(error)
                        }
                    }
                }
            } catch {
                _ = end()
                throw error
            }
        }

        /// The next value, or `nil` at the end of the document; pulls from the source in
        /// the caller's isolation. (The same loop as ``next()``, which cannot call this one
        /// on the platforms before `next(isolation:)` existed.)
        ///
        /// - Throws: The parse's errors, the source's, or `CancellationError`.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            guard let pump else { return nil }
            do {
                while true {
                    switch try pump.step() {
                    case .value(let value): return value
                    case .finished: return end()
                    case .needsInput:
                        // The source's error comes after the values of what it delivered.
                        do {
                            if try await input?.nextInIsolation?({ pump.accept($0) }) != true { pump.acceptEnd() }
                        } catch {
                            pump.sourceFailed(error)
                        }
                    }
                }
            } catch {
                _ = end()
                throw error
            }
        }

        @usableFromInline
        mutating func end() -> Element? {
            pump?.close()
            pump = nil
            input = nil
            return nil
        }
    }
}

extension XMLStream: Sendable {}

@available(*, unavailable)
extension XMLStream.AsyncIterator: Sendable {}

extension XMLStream {
    /// The values your handlers yield while a document arrives (``AsyncXMLInput``).
    ///
    /// `handlers` registers handlers on a fresh dispatcher for each iteration; they pass
    /// values to the consumer through the output:
    ///
    /// ```swift
    /// let prices = XMLStream<Decimal>(from: .chunks(body)) { dispatcher, output in
    ///     dispatcher.safety = .strict
    ///     dispatcher.onEnd("catalog/book/price") { _, text in
    ///         if let price = Decimal(string: text) { output.yield(price) }
    ///     }
    /// }
    /// ```
    ///
    /// A handler that throws ends the stream with a ``HandlerError``, after the values
    /// yielded before it; a handler that stops the parse ends it quietly.
    ///
    /// - Parameters:
    ///   - input: The document, as it arrives.
    ///   - handlers: Registers the handlers; what it throws is thrown by the first `next()`.
    public init(
        from input: AsyncXMLInput, handlers: @escaping @Sendable (inout Dispatcher, XMLStreamOutput<Element>) throws -> Void
    ) {
        self.init(
            from: input,
            recipe: XMLStreamRecipe { output in
                var dispatcher = Dispatcher()
                try handlers(&dispatcher, output)
                return dispatcher
            })
    }
}
