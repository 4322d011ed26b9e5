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

    @usableFromInline let source: Source
    /// The encoding the input is read in whatever its byte order mark and XML declaration
    /// say, as a transport's charset wins over the declaration (RFC 7303); `nil`, unless
    /// set, lets the document say. ``XMLInput/encoding(_:)`` lists the names.
    public var encoding: String?

    @usableFromInline
    enum Source: Sendable {
        case sequence(AsyncChunkSequence)
        case input(XMLInput)
    }

    @usableFromInline
    init(name: String, sequence: AsyncChunkSequence) {
        self.name = name
        source = .sequence(sequence)
        encoding = nil
        chunkSize = XMLInput.defaultChunkSize
    }

    /// Any synchronous input, read ``chunkSize`` bytes at a time (its own chunk size unless
    /// changed) as the parse needs them, under its name.
    ///
    /// A file is opened when the parse first reads it and closed at its end, after an
    /// error, or when a stream's iteration is dropped. Reads are ordinary blocking reads of
    /// one chunk: short for local files, so they do not hold a task's thread for long; for
    /// a pipe or a network file system, prefer an asynchronous byte source. Between chunks,
    /// a cancelled task's parse throws `CancellationError`.
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
        chunkSize = input.chunkSize
    }

    /// The file at `path`, read chunk by chunk as the parse needs it: `AsyncXMLInput(.file(path))`.
    ///
    /// A file that cannot be opened or read is an ``XMLInputError``, after the values
    /// of what was read before.
    public static func file(_ path: String) -> AsyncXMLInput {
        AsyncXMLInput(.file(path))
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
        case .input(let input): AsyncChunkIterator(InputReading(input, chunkSize: chunkSize))
        }
    }
}
