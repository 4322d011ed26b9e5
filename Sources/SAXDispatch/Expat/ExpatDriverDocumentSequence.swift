/// Which document of the input the driver reads, and where it started: one document, or
/// documents one after another (``XMLInput/readsConcatenatedDocuments``, `+Documents`).
///
/// What must stay true: positions count from the start of the input, so expat's, which
/// count from the start of the document, are moved by ``documentStart`` from the second on.
struct ExpatDriverDocumentSequence {
    /// Whether the input may hold documents one after another.
    var readsConcatenatedDocuments = false
    /// Which document of the input is being parsed, from 1.
    var documentNumber = 1
    /// Where the document being parsed starts in the input: the 1-based line and column
    /// and the 0-based byte offset that expat's positions are moved by.
    var documentStart = (line: 1, column: 1, byteOffset: 0)
    /// Where the document, a range of a larger one read on its own, sits in that one
    /// (``XMLInput/range(_:of:)``): positions are reported as the larger one counts them.
    var rangeOrigin: RangePositionOrigin? {
        didSet { movesPositions = rangeOrigin != nil || documentNumber > 1 }
    }
    /// Whether expat's positions are moved: in a later document of a concatenated input, or
    /// in a range. The one test that positions cost otherwise.
    private(set) var movesPositions = false
    /// The first bytes (up to three) of the document being parsed, when it is not the
    /// input's first: what its XML declaration is checked against
    /// (``ExpatDriverInputEncoding/leadingBytes`` for the first).
    var laterDocumentLeadingBytes: [UInt8] = []
    /// The version the document's XML declaration names when it is not 1.0, for the note
    /// on its errors: expat reads every document by XML 1.0's rules.
    var declaredXMLVersion: String?

    /// A position expat reports, as the input counts it (see ``movesPositions``).
    func moved(_ position: (line: Int, column: Int, byteOffset: Int)) -> (line: Int, column: Int, byteOffset: Int) {
        if let rangeOrigin { return rangeOrigin.map(position) }
        return ExpatDriver.position(position, inDocumentStartingAt: documentStart)
    }

    /// Begins the next document, which starts at `start` with `leadingBytes`.
    mutating func beginNext(at start: (line: Int, column: Int, byteOffset: Int), leadingBytes: [UInt8]) {
        documentStart = start
        documentNumber += 1
        movesPositions = true
        declaredXMLVersion = nil
        laterDocumentLeadingBytes = Array(leadingBytes.prefix(3))
    }
}
