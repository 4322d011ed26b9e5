import SAXDispatch

/// Writes the canonical form of a document that the W3C XML conformance suite's
/// `out/` files use, built from the dispatcher's events.
///
/// James Clark's form (`xmltest/canonxml.html`): UTF-8, no XML declaration, no
/// comments, processing instructions kept, CDATA as text, empty elements as
/// `<a></a>`, attributes sorted by name in code point order, text and attribute
/// values escaped as `&amp; &lt; &gt; &quot; &#9; &#10; &#13;`, no trailing newline.
/// When the DTD declares notations, Sun's second form (`sun/cxml.html`) adds a
/// `<!DOCTYPE root [ … ]>` block listing them in name order, written just before
/// the root element. Processing instructions are written where expat reports them,
/// including those inside the internal DTD subset, as the IBM collection expects.
///
/// Names are read as written, without namespace processing, as the suite's `out/` files
/// are (``Dispatcher/processesNamespaces`` off): `xmlns` attributes are written like any
/// other, and a prefix that no declaration binds is not an error here.
public struct CanonicalXML {
    /// How the input is fed: `nil` in 64 KiB pieces (a document in memory: whole), or
    /// `N` bytes per feed.
    public var chunkSize: Int?
    /// The limits the document must keep.
    public var safety: SafetyProfile

    /// A writer feeding `chunkSize` bytes at a time, under `safety`.
    public init(chunkSize: Int? = nil, safety: SafetyProfile = .default) {
        self.chunkSize = chunkSize
        self.safety = safety
    }

    /// Writes the canonical form of `input` to `sink`, in pieces of about 64 KiB, as the
    /// document streams past; `progress`, if given, counts elements. On an error, all the
    /// output before it is handed to `sink` before the error is thrown.
    ///
    /// - Throws: ``XMLParseError`` (with the input's name as its source) for a malformed
    ///   document, ``XMLInputError`` if the input cannot be read, ``DecompressionError``
    ///   if it is compressed and cannot be decompressed, or what `sink` throws.
    public func write(
        _ input: XMLInput, progress meter: ProgressMeter? = nil, to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        let writer = Writer(sink: sink)
        var elements = 0
        var dispatcher = writer.dispatcher()
        dispatcher.safety = safety
        dispatcher.onAnyStart { _ in elements += 1 }
        let progress = ReadProgress(meter: meter) { elements }
        defer { progress.finish() }
        do {
            try dispatcher.parse(progress.reading(input))
        } catch {
            // Everything written before the error is handed on before it is reported.
            try writer.flush()
            throw error
        }
        try writer.flush()
    }

    /// The canonical form of a document, read ``chunkSize`` bytes at a time when set.
    ///
    /// - Throws: ``XMLParseError`` for a malformed document, ``XMLInputError`` if the
    ///   input cannot be read.
    public func canonicalize(_ input: XMLInput) throws -> [UInt8] {
        var output: [UInt8] = []
        var input = input
        if let chunkSize { input.chunkSize = chunkSize }
        try write(input) { output += $0 }
        return output
    }

    /// The canonical form of a document in memory.
    public func canonicalize(_ document: [UInt8]) throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = Writer { output += $0 }
        let parser = PushParser(writer.dispatcher())
        let step = max(1, chunkSize ?? document.count)
        var offset = 0
        while offset < document.count {
            let end = min(document.count, offset + step)
            try parser.feed(document[offset..<end])
            offset = end
        }
        try parser.finish()
        try writer.flush()
        return output
    }

    /// Collects the canonical bytes from the events of one parse.
    private final class Writer {
        let sink: ([UInt8]) throws -> Void
        var output: [UInt8] = []
        var doctypeName: String?
        var notations: [NotationDeclaration] = []
        var rootStarted = false

        init(sink: @escaping ([UInt8]) throws -> Void) {
            self.sink = sink
        }

        func flush() throws {
            guard !output.isEmpty else { return }
            try sink(output)
            output.removeAll(keepingCapacity: true)
        }

        /// Hands the output on once it reaches 64 KiB, after every event that adds to it:
        /// text and processing instructions can be any length, inside one element or between two.
        private func flushIfFull() throws {
            if output.count >= Self.pieceSize { try flush() }
        }

        static let pieceSize = 1 << 16
        static let textSlice = 1 << 13

        func dispatcher() -> Dispatcher {
            var dispatcher = Dispatcher()
            dispatcher.processesNamespaces = false
            dispatcher.onDoctype { [unowned self] in doctypeName = $0.name }
            dispatcher.onNotationDeclaration { [unowned self] in notations.append($0) }
            dispatcher.onProcessingInstruction { [unowned self] target, data in
                output.append(contentsOf: "<?\(target) \(data)?>".utf8)
                try flushIfFull()
            }
            dispatcher.onAnyStart { [unowned self] element in
                if !rootStarted { startDocument() }
                output.append(UInt8(ascii: "<"))
                output.append(contentsOf: element.name.utf8)
                let attributes = element.attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                for attribute in attributes {
                    output.append(UInt8(ascii: " "))
                    output.append(contentsOf: attribute.name.utf8)
                    output.append(contentsOf: "=\"".utf8)
                    escape(attribute.value.utf8)
                    output.append(UInt8(ascii: "\""))
                }
                output.append(UInt8(ascii: ">"))
                try flushIfFull()
            }
            dispatcher.onAnyText { [unowned self] _, chunk in
                // In slices: escaping can make a chunk of text six times longer.
                try chunk.withUnsafeBytes { bytes in
                    var start = 0
                    while start < bytes.count {
                        let end = min(bytes.count, start + Self.textSlice)
                        escape(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                        try flushIfFull()
                        start = end
                    }
                }
            }
            dispatcher.onAnyEnd { [unowned self] element in
                output.append(contentsOf: "</".utf8)
                output.append(contentsOf: element.name.utf8)
                output.append(UInt8(ascii: ">"))
                try flushIfFull()
            }
            return dispatcher
        }

        private func startDocument() {
            rootStarted = true
            if !notations.isEmpty {
                output.append(contentsOf: "<!DOCTYPE \(doctypeName ?? "") [\n".utf8)
                for notation in notations.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                    output.append(contentsOf: "<!NOTATION \(notation.name) ".utf8)
                    switch (notation.publicID, notation.systemID) {
                    case (let publicID?, let systemID?):
                        output.append(contentsOf: "PUBLIC '\(publicID)' '\(systemID)'".utf8)
                    case (let publicID?, nil):
                        output.append(contentsOf: "PUBLIC '\(publicID)'".utf8)
                    case (nil, let systemID):
                        output.append(contentsOf: "SYSTEM '\(systemID ?? "")'".utf8)
                    }
                    output.append(contentsOf: ">\n".utf8)
                }
                output.append(contentsOf: "]>\n".utf8)
            }
        }

        private func escape(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
                case 0x09: output.append(contentsOf: "&#9;".utf8)
                case 0x0A: output.append(contentsOf: "&#10;".utf8)
                case 0x0D: output.append(contentsOf: "&#13;".utf8)
                default: output.append(byte)
                }
            }
        }
    }
}
