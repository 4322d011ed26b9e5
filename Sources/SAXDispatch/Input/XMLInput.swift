#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A document to parse: a file, a string, bytes in memory, a file descriptor, standard
/// input, or a reader of your own; with the name that errors print and the size of the
/// reads.
///
/// Every synchronous verb takes one (``Dispatcher/parse(_:)-(XMLInput)``,
/// ``XMLRecord/forEach(in:safety:diagnostics:_:)``,
/// ``XMLRecordDecoder/forEach(_:at:in:safety:onWarning:_:)``, …), so a source is named the
/// same way everywhere:
///
/// ```swift
/// try dispatcher.parse(.file("zoo.xml"))
/// try dispatcher.parse(.string("<zoo><animal>cat</animal></zoo>"))
/// let zoo = try Zoo.record.first(in: .bytes(data))
/// try dispatcher.parse(.standardInput.named("-"))
/// ```
///
/// An input only describes where the bytes are: nothing is opened or read until a parse
/// reads it, and each parse reads it from its start (a file is opened again; a file
/// descriptor, standard input included, goes on from where the last read left it).
///
/// Files and descriptors are read ``chunkSize`` bytes at a time (1 KiB or more) straight
/// into expat's own buffer, so the document is never held whole. Strings and bytes in memory are
/// parsed in place, in one piece.
public struct XMLInput: Sendable {
    /// The name errors give the input, before the line and column
    /// (`zoo.xml:3:7: error: …`): a file's path unless changed with ``named(_:)``.
    public var name: String

    /// How many bytes a parse reads at a time from a file, a descriptor or a reader: at
    /// least 1 (smaller values become 1), ``defaultChunkSize`` unless set. Memory use
    /// does not grow with the document, only with this (and the largest token).
    ///
    /// Below 1 KiB it is the size of the pieces expat is handed, and a read takes what the
    /// source has, up to 64 KiB: pieces that small are for seeing the events of finely
    /// split input, and a system call per piece would cost more than the parse.
    public var chunkSize: Int {
        didSet { chunkSize = Swift.max(1, chunkSize) }
    }

    /// The chunk size unless one is set: 64 KiB.
    public static let defaultChunkSize = 64 * 1024

    /// Where the bytes come from.
    let source: Source
    /// What owns a descriptor the input reads (``fileDescriptor(_:owner:)``): kept alive
    /// by the input and by every reader made from it, so the descriptor stays open.
    private(set) var owner: (any AnyObject & Sendable)?
    /// The encoding the input is read in whatever its byte order mark and XML declaration
    /// say, as a transport's charset (an HTTP `Content-Type`) wins over the declaration
    /// (RFC 7303); `nil`, unless set, lets the document say. A string is always read as
    /// its UTF-8 (`"UTF-8"`), whatever is set here.
    ///
    /// Any name that a document may declare is accepted (``encoding(_:)`` has the list); an
    /// encoding that cannot be read is an ``XMLParseError`` with the code
    /// ``XMLParseError/Code/unknownEncoding`` when the parse starts.
    public var encoding: String? {
        didSet { if case .string = source { encoding = "UTF-8" } }
    }

    /// Whether the input may hold documents one after another, each parsed in turn with
    /// its own events: a log of XML records, a stream of messages, files joined with
    /// `cat`. `false` unless set (``concatenatedDocuments(_:)``): markup after a root
    /// element is then an error, as XML says.
    ///
    /// A document ends after its root element, with the space, comments and processing
    /// instructions that follow it; the next begins at the first markup that cannot belong
    /// to the one before: its XML declaration, its root element (or the comment, doctype
    /// or processing instruction before it, when no space separates them from the
    /// previous root), or a byte order mark. Each document is parsed by an expat parser
    /// reset for it: its own XML declaration, DTD and entities, its own limits
    /// (``SafetyProfile``), its own root element; handlers and records see each
    /// document's elements in turn, and ``ElementContext/documentNumber`` says which
    /// document an element is in. Nothing of an earlier document is kept (the element
    /// names it brought are dropped at its end; the names the patterns use stay), so memory
    /// does not grow with their number.
    ///
    /// Positions count from the start of the input, not of each document: an error's line
    /// and column are where the input has it, and its ``XMLParseError/documentNumber``
    /// says which document failed. A document that fails ends the parse: where it would
    /// have ended cannot be known, so the documents after it are not read. Text after a
    /// root element (not markup) stays the error it is in a single document.
    ///
    /// Each document may declare its own encoding among those expat reads itself or
    /// through its map (UTF-8, UTF-16, the single-byte encodings, Shift_JIS, EUC-JP, Big5,
    /// GBK…). A document in an encoding that goes through the transcoder (GB18030,
    /// ISO-2022, UTF-32…) makes the documents after it read in that encoding too; an
    /// ``encoding`` set on the input applies to every document.
    ///
    /// ```swift
    /// try dispatcher.parse(.file("events.log").concatenatedDocuments())
    /// ```
    public var readsConcatenatedDocuments = false

    /// Where the document, a range of a larger one (``range(_:of:)``), sits in that one:
    /// a parse reports positions as the larger document counts them.
    var rangeOrigin: RangePositionOrigin?

    enum Source: Sendable {
        case path(String)
        case url(URL)
        case string(String)
        case bytes(any Sequence<UInt8> & Sendable)
        case descriptor(Int32)
        case reader(@Sendable () throws -> any XMLInputReader)
    }

    /// The bytes of an input in memory, which a parse hands expat in pieces as large as its
    /// token limit allows; `nil` for an input read through a reader, in pieces of
    /// ``chunkSize``, and for bytes whose count a sequence does not tell.
    var inMemoryByteCount: Int? {
        switch source {
        case .string(let text): text.utf8.count
        case .bytes(let bytes): (bytes as? any Collection)?.count
        case .path, .url, .descriptor, .reader: nil
        }
    }

    /// How many bytes the input will most likely give, when that is known without reading
    /// it: the bytes of an input in memory, or the size of a regular file named by a path.
    /// A hint only (a file may change while it is read): nothing may depend on it but how
    /// work is divided.
    var expectedByteCount: Int? {
        func regularFileSize(_ path: String) -> Int? {
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            return Int(status.st_size)
        }
        switch source {
        case .path(let path): return regularFileSize(path)
        case .url(let url): return url.isFileURL ? regularFileSize(url.path) : nil
        case .string, .bytes: return inMemoryByteCount
        case .descriptor, .reader: return nil
        }
    }

    /// Whether the bytes are in memory already (a string, bytes), so that reading them never waits.
    var isInMemory: Bool {
        switch source {
        case .string, .bytes: true
        case .path, .url, .descriptor, .reader: false
        }
    }

    private init(name: String, source: Source, encoding: String? = nil) {
        self.name = name
        self.source = source
        self.encoding = encoding
        chunkSize = Self.defaultChunkSize
        switch source {
        case .path, .url, .string, .bytes: canBeReadAgain = true
        case .descriptor, .reader: canBeReadAgain = false
        }
    }

    /// Whether a second reader of the input reads the same bytes from the start: a file,
    /// a string, bytes, and what reads through one of those (``readingThrough(_:)``), but
    /// not a descriptor, whose bytes a read consumes, nor a reader of your own.
    package internal(set) var canBeReadAgain: Bool

    /// The file at `path`, named by its path.
    ///
    /// A parse throws ``XMLInputError`` when the file cannot be opened or read; the
    /// events of what was read before a failed read are delivered first.
    public static func file(_ path: String) -> XMLInput {
        XMLInput(name: path, source: .path(path))
    }

    /// The local file a `file:` URL names, named by its path.
    ///
    /// A parse throws ``XMLInputError`` when `url` is not a `file:` URL (an `https:` URL is
    /// not downloaded: use `URLSession.bytes(from:)` and ``AsyncXMLInput/bytes(_:)``), or
    /// when the file cannot be opened or read.
    public static func file(_ url: URL) -> XMLInput {
        XMLInput(name: url.isFileURL ? url.path : url.absoluteString, source: .url(url))
    }

    /// A document held in a string, named `<string>`, parsed as its UTF-8 bytes.
    ///
    /// The encoding named in the XML declaration is ignored, whatever it is: a string
    /// holds Unicode text, so a declared encoding describes bytes it no longer has
    /// (`encoding="ISO-8859-1"` would turn `é` into `Ã©`). Parse ``bytes(_:)`` to have
    /// the declaration decide.
    ///
    /// ```swift
    /// try dispatcher.parse(.string("<zoo><animal>cat</animal></zoo>"))
    /// ```
    public static func string(_ text: String) -> XMLInput {
        XMLInput(name: "<string>", source: .string(text), encoding: "UTF-8")
    }

    /// A document held in memory as bytes (`[UInt8]`, `Data`, an `ArraySlice<UInt8>`, …),
    /// named `<bytes>`; its byte order mark and XML declaration decide its encoding.
    ///
    /// Bytes in contiguous storage (arrays, slices, `Data`) are parsed where they are,
    /// not copied; any other sequence is gathered into an array first.
    public static func bytes(_ bytes: some Sequence<UInt8> & Sendable) -> XMLInput {
        XMLInput(name: "<bytes>", source: .bytes(bytes))
    }

    /// Everything readable from an open file descriptor (a pipe, a socket, a file),
    /// named `<file descriptor N>`. The descriptor is not closed.
    ///
    /// A parse throws ``XMLInputError`` when a read fails, after the events of what was
    /// read before.
    public static func fileDescriptor(_ descriptor: Int32) -> XMLInput {
        XMLInput(name: "<file descriptor \(descriptor)>", source: .descriptor(descriptor))
    }

    /// Everything readable from an open file descriptor that `owner` owns and closes when
    /// it is released (a `FileHandle`, a socket of your own), named `<file descriptor N>`.
    ///
    /// The input, every parse of it, and a reader made from it keep `owner` alive, so the
    /// descriptor stays open while it is read even when nothing else holds the owner. The
    /// descriptor is not closed. `SAXDispatchFoundation`'s `XMLInput.fileHandle(_:)` is
    /// this input for a `FileHandle`.
    ///
    /// ```swift
    /// let socket = MySocket(connectingTo: server)
    /// try dispatcher.parse(.fileDescriptor(socket.descriptor, owner: socket))
    /// ```
    ///
    /// A parse throws ``XMLInputError`` when a read fails, after the events of what was
    /// read before.
    public static func fileDescriptor(_ descriptor: Int32, owner: some AnyObject & Sendable) -> XMLInput {
        var input = XMLInput(name: "<file descriptor \(descriptor)>", source: .descriptor(descriptor))
        input.owner = owner
        return input
    }

    /// The process's standard input, named `<stdin>`; it is not closed.
    ///
    /// ```swift
    /// // cat feed.xml | my-tool
    /// try dispatcher.parse(.standardInput)
    /// ```
    public static var standardInput: XMLInput {
        XMLInput(name: "<stdin>", source: .descriptor(STDIN_FILENO))
    }

    /// The bytes a reader of your own produces: a socket, a decompressor, a wrapper
    /// around another input that reports progress.
    ///
    /// Each parse calls `makeReader` for a fresh reader, reads it to its end (or to a
    /// stop) into expat's own buffer, and drops it: a class reader can close what it
    /// opened in `deinit`.
    ///
    /// ```swift
    /// try dispatcher.parse(.reader(name: "socket") { SocketReader(descriptor) })
    /// ```
    ///
    /// - Parameters:
    ///   - name: The name errors give the input.
    ///   - makeReader: Makes a reader that reads the document from its start; what it
    ///     throws, a parse rethrows as it is. What the reader's `read(into:)` throws is
    ///     rethrown as it is too, after the events of the bytes it read before.
    public static func reader(
        name: String, _ makeReader: @escaping @Sendable () throws -> any XMLInputReader
    ) -> XMLInput {
        XMLInput(name: name, source: .reader(makeReader))
    }

    /// The same input read in `encoding` whatever it declares, as a transport's charset
    /// wins over the XML declaration; `nil` lets the document say again.
    ///
    /// Names are those documents declare, in any case: UTF-8, UTF-16, UTF-32 (with or
    /// without a byte order mark) and their byte orders, ISO-8859-1 to -16, windows-1250
    /// to -1258, KOI8-R and KOI8-U, IBM855 and IBM866, the Mac encodings, TIS-620,
    /// Shift_JIS and windows-31j (CP932), EUC-JP, ISO-2022-JP, EUC-KR, CP949 and Johab,
    /// Big5, GB2312, GBK, GB18030, EUC-TW, and any other the platform's iconv converts. A
    /// string is always read as its UTF-8.
    ///
    /// ```swift
    /// try dispatcher.parse(.bytes(body).encoding("Shift_JIS"))
    /// ```
    public func encoding(_ encoding: String?) -> XMLInput {
        var copy = self
        copy.encoding = encoding
        return copy
    }

    /// The same input read as documents one after another (``readsConcatenatedDocuments``),
    /// or, for `false`, as one document.
    ///
    /// ```swift
    /// for try await entry in Entry.record.stream(from: AsyncXMLInput(.standardInput.concatenatedDocuments())) {
    ///     print(entry)
    /// }
    /// ```
    public func concatenatedDocuments(_ reads: Bool = true) -> XMLInput {
        var copy = self
        copy.readsConcatenatedDocuments = reads
        return copy
    }

    /// The same input under another name, which errors print instead.
    ///
    /// ```swift
    /// try dispatcher.parse(.bytes(body).named("https://example.com/feed.xml"))
    /// ```
    public func named(_ name: String) -> XMLInput {
        var input = self
        input.name = name
        return input
    }

    /// The same input, with its name and every option (chunk size, encoding, concatenated
    /// documents), read through a reader that wraps the one the input makes: one that
    /// decompresses it, counts what was read, or logs it.
    ///
    /// ```swift
    /// let counted = XMLInput.file(path).encoding("Shift_JIS").readingThrough { CountingReader(base: $0) }
    /// try dispatcher.parse(counted)   // read as Shift_JIS, through the counting reader
    /// ```
    ///
    /// - Parameter wrap: Makes the wrapping reader from the input's own, once per parse;
    ///   what it throws, a parse rethrows as it is.
    public func readingThrough(_ wrap: @escaping @Sendable (any XMLInputReader) throws -> any XMLInputReader) -> XMLInput {
        var wrapped = XMLInput.reader(name: name) { [self] in try wrap(try makeReader()) }
        wrapped.chunkSize = chunkSize
        wrapped.encoding = encoding
        wrapped.readsConcatenatedDocuments = readsConcatenatedDocuments
        wrapped.rangeOrigin = rangeOrigin
        wrapped.canBeReadAgain = canBeReadAgain
        return wrapped
    }

    /// Opens the input for reading its bytes yourself, as a parse would: for a reader
    /// that wraps another input (decompressing it, counting what was read) and is then
    /// parsed as ``reader(name:_:)``.
    ///
    /// ```swift
    /// let counted = XMLInput.reader(name: path) { CountingReader(base: try XMLInput.file(path).makeReader()) }
    /// ```
    ///
    /// A string's bytes come as its UTF-8, but without the encoding override it has when
    /// parsed as itself.
    ///
    /// - Throws: ``XMLInputError`` when a file cannot be opened or a URL is not a `file:`
    ///   URL, or what a ``reader(name:_:)`` input's `makeReader` throws.
    public func makeReader() throws -> any XMLInputReader {
        try makeReader(stoppingWhen: nil)
    }

    /// A reader of the input; a descriptor's reads wait for it to be readable first,
    /// asking `stopped`, and throw `CancellationError` once it says so (for a reading thread).
    func makeReader(stoppingWhen stopped: (@Sendable () -> Bool)?) throws -> any XMLInputReader {
        switch source {
        case .path(let path):
            let reader = try DescriptorReader(opening: path, name: name)
            reader.stopsWhen = stopped
            return reader
        case .url(let url):
            guard url.isFileURL else {
                throw XMLInputError(path: name, errorNumber: EINVAL, message: "not a file URL")
            }
            let reader = try DescriptorReader(opening: url.path, name: name)
            reader.stopsWhen = stopped
            return reader
        case .string(let text):
            return MemoryReader(Array(text.utf8))
        case .bytes(let bytes):
            return MemoryReader(Array(bytes))
        case .descriptor(let descriptor):
            let reader = DescriptorReader(borrowing: descriptor, name: name)
            reader.owner = owner
            reader.stopsWhen = stopped
            return reader
        case .reader(let makeReader):
            return try makeReader()
        }
    }
}

/// Bytes in memory, read in pieces.
struct MemoryReader: XMLInputReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}
