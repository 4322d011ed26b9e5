/// Values read from a document arriving from an asynchronous byte source, as an
/// `AsyncSequence`: records, `Decodable` values, or whatever your handlers yield.
///
/// Make one from a record (``XMLRecord/stream(bytes:chunkSize:source:safety:diagnostics:)``),
/// a decoder (``XMLRecordDecoder/stream(_:at:bytes:chunkSize:source:safety:)``) or your
/// own handlers (``init(bytes:chunkSize:source:handlers:)``), over an `AsyncSequence`
/// of bytes (`URLSession.AsyncBytes`), of byte chunks (`[UInt8]`, `Data`), or a file:
///
/// ```swift
/// for try await page in XMLRecordDecoder().stream(Page.self, at: "/mediawiki/page", bytes: bytes) {
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
/// value that cannot be built (``XMLRecordError``, `DecodingError`), the source's own
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
public struct XMLStream<Element, Chunks: AsyncSequence>: AsyncSequence where Chunks.Element: Sequence<UInt8> {
    public typealias Failure = any Error

    @usableFromInline let chunks: Chunks
    @usableFromInline let recipe: XMLStreamRecipe<Element>

    init(chunks: Chunks, recipe: XMLStreamRecipe<Element>) {
        self.chunks = chunks
        self.recipe = recipe
    }

    @inlinable
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), pump: StreamPump(recipe))
    }

    /// Parses on demand: each `next()` parses until the next value is ready, pulling
    /// chunks from the source only as the parser needs them.
    public struct AsyncIterator: AsyncIteratorProtocol {
        /// The source; `nil` once the iteration ended, so that it is released (a file closed) then.
        @usableFromInline var chunks: Chunks.AsyncIterator?
        /// The iteration's parser and values; `nil` once it ended.
        @usableFromInline var pump: StreamPump<Element>?

        @usableFromInline
        init(chunks: Chunks.AsyncIterator, pump: StreamPump<Element>) {
            self.chunks = chunks
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
                        do { pump.accept(try await chunks?.next()) } catch { pump.sourceFailed(error) }
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
                        do { pump.accept(try await chunks?.next(isolation: actor)) } catch { pump.sourceFailed(error) }
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
            chunks = nil
            return nil
        }
    }
}

extension XMLStream: Sendable where Chunks: Sendable {}

@available(*, unavailable)
extension XMLStream.AsyncIterator: Sendable {}

extension XMLStream {
    /// The values your handlers yield while a document arrives as byte chunks
    /// (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, …).
    ///
    /// `handlers` registers handlers on a fresh dispatcher for each iteration; they pass
    /// values to the consumer through the output:
    ///
    /// ```swift
    /// let prices = XMLStream<Decimal, _>(chunks: body) { dispatcher, output in
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
    ///   - chunks: The document, in pieces of any size.
    ///   - source: A name for the input in error descriptions.
    ///   - handlers: Registers the handlers; what it throws is thrown by the first `next()`.
    public init(
        chunks: Chunks, source: String? = nil,
        handlers: @escaping @Sendable (inout Dispatcher, XMLStreamOutput<Element>) throws -> Void
    ) {
        self.init(
            chunks: chunks,
            recipe: XMLStreamRecipe(source: source) { output in
                var dispatcher = Dispatcher()
                try handlers(&dispatcher, output)
                return dispatcher
            })
    }

    /// The values your handlers yield while a document arrives as an asynchronous
    /// sequence of bytes, such as `URLSession.AsyncBytes`, gathered into chunks of
    /// `chunkSize` bytes. See ``init(chunks:source:handlers:)``.
    public init<Bytes>(
        bytes: Bytes, chunkSize: Int = Dispatcher.defaultChunkSize, source: String? = nil,
        handlers: @escaping @Sendable (inout Dispatcher, XMLStreamOutput<Element>) throws -> Void
    ) where Chunks == AsyncByteChunks<Bytes> {
        self.init(chunks: AsyncByteChunks(bytes, chunkSize: chunkSize), source: source, handlers: handlers)
    }

    /// The values your handlers yield while a file is read in chunks of `chunkSize`
    /// bytes. See ``init(chunks:source:handlers:)`` and ``AsyncFileChunks``; a file that
    /// cannot be opened or read is an ``XMLInputError`` from `next()`.
    public init(
        contentsOfFile path: String, chunkSize: Int = Dispatcher.defaultChunkSize,
        handlers: @escaping @Sendable (inout Dispatcher, XMLStreamOutput<Element>) throws -> Void
    ) where Chunks == AsyncFileChunks {
        self.init(chunks: AsyncFileChunks(path: path, chunkSize: chunkSize), source: path, handlers: handlers)
    }
}
