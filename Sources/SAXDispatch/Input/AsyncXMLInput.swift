/// A document that arrives asynchronously: a network response's bytes, a sequence of
/// byte chunks, a file read chunk by chunk as the parse needs it, or any ``XMLInput``;
/// with the name that errors print.
///
/// Every asynchronous verb takes one (``Dispatcher/parse(_:)-(AsyncXMLInput)``,
/// ``XMLRecord/stream(from:safety:diagnostics:)``,
/// ``XMLRecordDecoder/stream(_:at:from:safety:)``, ``XMLStream/init(from:handlers:)``):
///
/// ```swift
/// let (bytes, _) = try await URLSession.shared.bytes(from: url)
/// for try await item in Item.record.stream(from: .bytes(bytes).named(url.absoluteString)) {
///     print(item.title)
/// }
/// ```
///
/// An input only describes where the bytes come from: each parse, and each iteration of
/// a stream, asks its source for a fresh iterator and reads from there.
public struct AsyncXMLInput: Sendable {
    /// The name errors give the input, before the line and column: a file's path,
    /// `<bytes>` for a sequence unless changed with ``named(_:)``.
    public var name: String

    /// How many bytes of a ``bytes(_:)`` sequence are gathered before the parser sees
    /// them, and how many bytes are read at a time from a file or an ``XMLInput``: at
    /// least 1 (smaller values become 1), ``XMLInput/defaultChunkSize`` unless set. The
    /// chunks of a ``chunks(_:)`` sequence are parsed as they come, whatever their size.
    ///
    /// A chunk is parsed only when full (or at the end), so for a slow interactive source
    /// whose values should arrive as soon as their bytes do, choose a small size.
    public var chunkSize: Int {
        didSet { chunkSize = Swift.max(1, chunkSize) }
    }

    @usableFromInline var source: Source
    /// The encoding the input is read in whatever its byte order mark and XML declaration
    /// say, as a transport's charset wins over the declaration (RFC 7303); `nil`, unless
    /// set, lets the document say. ``XMLInput/encoding(_:)`` lists the names.
    public var encoding: String?
    /// Whether the input may hold documents one after another, each parsed in turn
    /// (``XMLInput/readsConcatenatedDocuments`` says how they are told apart); `false`
    /// unless set, or as the ``XMLInput`` it was made from says.
    public var readsConcatenatedDocuments = false

    @usableFromInline
    enum Source: Sendable {
        case sequence(AsyncChunkSequence)
        case input(XMLInput)
        case producer(capacity: Int, produce: @Sendable (Writer) async throws -> Void)
    }

    @usableFromInline
    init(name: String, sequence: AsyncChunkSequence) {
        self.name = name
        source = .sequence(sequence)
        encoding = nil
        chunkSize = XMLInput.defaultChunkSize
    }

    /// Any synchronous input, read up to ``chunkSize`` bytes at a time (its own chunk size
    /// unless changed) on a thread of its own, under its name.
    ///
    /// A file, a descriptor, standard input or a reader of your own is read on a dedicated
    /// thread, never on the cooperative pool, so a pipe that waits or a slow network file
    /// system holds no task's thread. The thread reads at most one chunk ahead of the
    /// parser and then waits for it (back-pressure), so memory stays at a few chunks
    /// however fast the source is. A file is opened when the parse first reads it and
    /// closed at its end, after an error, or when the parse ends early. When the parse
    /// ends early (a handler stops it, the task is cancelled, a stream's iteration is
    /// dropped), the thread ends too: at once if it waits for the parser, and within a
    /// tenth of a second if it waits on a descriptor with nothing to read. A cancelled
    /// task's parse throws `CancellationError`.
    ///
    /// Strings and bytes in memory are parsed in place, as synchronously.
    ///
    /// ```swift
    /// for try await page in decoder.stream(Page.self, at: "page", from: AsyncXMLInput(.file(dumpURL))) {
    ///     print(page.title)
    /// }
    /// ```
    public init(_ input: XMLInput) {
        name = input.name
        source = .input(input)
        encoding = input.encoding
        readsConcatenatedDocuments = input.readsConcatenatedDocuments
        chunkSize = input.chunkSize
    }

    /// The file at `path`, read chunk by chunk as the parse needs it: `AsyncXMLInput(.file(path))`.
    ///
    /// A file that cannot be opened or read is an ``XMLInputError``, after the values
    /// of what was read before.
    public static func file(_ path: String) -> AsyncXMLInput {
        AsyncXMLInput(.file(path))
    }

    /// Everything readable from an open file descriptor (a pipe, a socket, a file), read
    /// on a thread of its own; named `<file descriptor N>`. The descriptor is not closed.
    ///
    /// For a `FileHandle`, use `SAXDispatchFoundation`'s `AsyncXMLInput.fileHandle(_:)`,
    /// which keeps the handle alive while it is read.
    ///
    /// A read that fails is an ``XMLInputError``, after the events of what was read before.
    public static func fileDescriptor(_ descriptor: Int32) -> AsyncXMLInput {
        AsyncXMLInput(.fileDescriptor(descriptor))
    }

    /// Everything readable from an open file descriptor that `owner` owns and closes when
    /// it is released, read on a thread of its own; named `<file descriptor N>`. The input
    /// and its reading thread keep `owner` alive; the descriptor is not closed
    /// (``XMLInput/fileDescriptor(_:owner:)``).
    ///
    /// ```swift
    /// for try await entry in Entry.record.stream(from: .fileDescriptor(socket.descriptor, owner: socket)) { … }
    /// ```
    ///
    /// A read that fails is an ``XMLInputError``, after the events of what was read before.
    public static func fileDescriptor(_ descriptor: Int32, owner: some AnyObject & Sendable) -> AsyncXMLInput {
        AsyncXMLInput(.fileDescriptor(descriptor, owner: owner))
    }

    /// The process's standard input, read on a thread of its own; named `<stdin>`. It is
    /// not closed.
    public static var standardInput: AsyncXMLInput {
        AsyncXMLInput(.standardInput)
    }

    /// Bytes that your own task writes, with back-pressure: ``Writer/write(_:)`` suspends
    /// while `bufferedChunks` chunks wait for the parser, so a producer faster than the
    /// parse holds no more than that in memory; named `<bytes>`.
    ///
    /// ```swift
    /// let produced = AsyncXMLInput.producer { writer in
    ///     try await writer.write(Array("<zoo><animal>cat</animal>".utf8))
    ///     try await writer.write(Array("<animal>dog</animal></zoo>".utf8))
    /// }
    /// try await dispatcher.parse(produced)
    /// ```
    ///
    /// Each parse, and each iteration of a stream, runs `produce` in a task of its own
    /// when it asks for its first chunk; the input ends when `produce` returns. What
    /// `produce` throws is rethrown by the parse as it is, after the events of the bytes
    /// written before. When the parse ends early, `produce`'s task is cancelled and its
    /// next `write` throws `CancellationError`.
    ///
    /// Unlike an `AsyncStream` of chunks, whose continuation never waits (it buffers every
    /// chunk, or drops some), nothing is lost and nothing piles up.
    ///
    /// - Parameters:
    ///   - bufferedChunks: How many written chunks may wait for the parser (at least 1).
    ///   - produce: Writes the document's bytes, in chunks of any size.
    public static func producer(
        bufferedChunks: Int = 2, _ produce: @escaping @Sendable (Writer) async throws -> Void
    ) -> AsyncXMLInput {
        var input = AsyncXMLInput(.bytes([]))
        input.source = .producer(capacity: Swift.max(1, bufferedChunks), produce: produce)
        return input
    }

    /// An asynchronous sequence of bytes, such as `URLSession.AsyncBytes` or
    /// `FileHandle.AsyncBytes`, gathered into chunks of ``chunkSize`` bytes; named `<bytes>`.
    ///
    /// The bytes that came before an error the sequence throws are parsed first; the
    /// error is then rethrown as it is.
    @inlinable
    public static func bytes<Bytes: AsyncSequence & Sendable>(_ bytes: Bytes) -> AsyncXMLInput
    where Bytes.Element == UInt8 {
        AsyncXMLInput(name: "<bytes>", sequence: .gathering(bytes))
    }

    /// An asynchronous sequence of byte chunks (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, …),
    /// each parsed as it comes; named `<bytes>`.
    ///
    /// ```swift
    /// try await dispatcher.parse(.chunks(download).named("feed.xml"))
    /// ```
    ///
    /// An error the sequence throws is rethrown as it is, after the events of the chunks before it.
    @inlinable
    public static func chunks<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) -> AsyncXMLInput
    where Chunks.Element: Sequence<UInt8> {
        AsyncXMLInput(name: "<bytes>", sequence: .feeding(chunks))
    }

    /// The same input read in `encoding` whatever it declares; `nil` lets the document say.
    ///
    /// ```swift
    /// try await dispatcher.parse(.chunks(download).encoding("GB18030"))
    /// ```
    public func encoding(_ encoding: String?) -> AsyncXMLInput {
        var copy = self
        copy.encoding = encoding
        return copy
    }

    /// The same input read as documents one after another
    /// (``XMLInput/readsConcatenatedDocuments``), or, for `false`, as one document.
    ///
    /// ```swift
    /// try await dispatcher.parse(.bytes(socketBytes).concatenatedDocuments())
    /// ```
    public func concatenatedDocuments(_ reads: Bool = true) -> AsyncXMLInput {
        var copy = self
        copy.readsConcatenatedDocuments = reads
        return copy
    }

    /// The same input under another name, which errors print instead.
    public func named(_ name: String) -> AsyncXMLInput {
        var input = self
        input.name = name
        return input
    }
}

extension AsyncXMLInput {
    /// A pass over the input for a stream's iteration, a chunk at a time.
    @usableFromInline
    func makeChunkIterator() -> AsyncChunkIterator {
        switch source {
        case .sequence(let sequence): sequence.makeIterator(chunkSize)
        case .input(let input) where input.isInMemory:
            AsyncChunkIterator(InputReading(input, chunkSize: chunkSize))
        case .input, .producer:
            AsyncChunkIterator(makeChannelReading()!)
        }
    }

    /// The pass of an input read through a channel (any ``XMLInput`` not in memory, a
    /// producer), or `nil`.
    func makeChannelReading() -> ChannelReading? {
        switch source {
        case .sequence: nil
        case .input(let input): input.isInMemory ? nil : ChannelReading(input, chunkSize: chunkSize)
        case .producer(let capacity, let produce):
            ChannelReading(capacity: capacity) { channel in
                Task {
                    do {
                        try await produce(Writer(channel: channel))
                        channel.finish()
                    } catch {
                        channel.finish(throwing: error)
                    }
                }
            }
        }
    }
}

extension AsyncXMLInput {
    /// Writes the bytes of an ``AsyncXMLInput/producer(bufferedChunks:_:)`` input, waiting
    /// while the parser is behind.
    public struct Writer: Sendable {
        let channel: ChunkChannel

        /// Hands `bytes` to the parser as one chunk, suspending first while the input's
        /// `bufferedChunks` chunks wait for it. An empty chunk is skipped.
        ///
        /// ```swift
        /// try await writer.write(Array("<zoo/>".utf8))
        /// ```
        ///
        /// - Throws: `CancellationError` once the parse no longer reads (it ended early,
        ///   or its task was cancelled): stop producing.
        public func write(_ bytes: some Sequence<UInt8>) async throws {
            let chunk = Array(bytes)
            guard !chunk.isEmpty else { return }
            guard await channel.send(chunk) else { throw CancellationError() }
        }
    }
}
