/// A document that is not well-formed XML, or that the parser could not read.
///
/// Carries the error code (expat's, or one of the library's own for safety limits
/// and rules), a human message, the 1-based line and column
/// (counted in characters), the byte offset from the start of the input and the
/// path of elements open at that point. Its `description` reads like a compiler
/// diagnostic:
///
/// ```text
/// zoo.xml:4:7: error: mismatched tag (in zoo/animals/animal)
/// ```
///
/// Errors thrown by handlers are not of this type: the parse call throws them wrapped
/// in a ``HandlerError``.
public struct XMLParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as expat's error code.
    public var code: Code
    /// A human-readable message, such as `mismatched tag`.
    public var message: String
    /// 1-based line of the error.
    public var line: Int
    /// 1-based column of the error, counted in characters.
    public var column: Int
    /// 0-based offset of the error in bytes from the start of the input.
    public var byteOffset: Int
    /// The elements open when the error happened, root first.
    public var elementPath: ElementPath
    /// Where the input came from (a file path), when known; used in `description`.
    public var source: String?
    /// For the codes that report a ``SafetyProfile`` limit (``Code/depthLimitExceeded``
    /// and the other `…LimitExceeded` codes), the limit's value; `nil` otherwise.
    public var limit: Int?
    /// In an input read as documents one after another
    /// (``XMLInput/readsConcatenatedDocuments``), which document failed, from 1; `nil`
    /// for an input of one document. ``line``, ``column`` and ``byteOffset`` count from the
    /// start of the input all the same.
    public var documentNumber: Int?

    /// Creates an error value; the parser makes these, tests and wrappers may too.
    public init(
        code: Code, message: String, line: Int, column: Int, byteOffset: Int,
        elementPath: ElementPath = [], limit: Int? = nil, source: String? = nil
    ) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.elementPath = elementPath
        self.source = source
        self.limit = limit
    }

    /// `SOURCE:LINE:COLUMN: error: MESSAGE (in PATH)`, with `<input>` when the source is unknown
    /// and the middle of a path deeper than nine elements shortened (see ``ElementPath/abbreviated(keepingAtEachEnd:)``);
    /// in a concatenated input, `(in document N, at PATH)`.
    public var description: String {
        var text = "\(source ?? "<input>"):\(line):\(column): error: \(message)"
        switch (documentNumber, elementPath.isEmpty) {
        case (let number?, true): text += " (in document \(number))"
        case (let number?, false): text += " (in document \(number), at \(elementPath.abbreviated()))"
        case (nil, false): text += " (in \(elementPath.abbreviated()))"
        case (nil, true): break
        }
        return text
    }
}

extension XMLParseError {
    /// The message of ``Code/recordSizeLimitExceeded``: `<NAME> holds more than
    /// maximumRecordBytes (LIMIT bytes) of CONTENTS`, where the contents are what the limit
    /// counts (a decoded element's names, attributes and text, or a typed record's list
    /// values and nested records), the name cut as every message cuts it.
    static func recordSizeMessage(element name: String, limit: Int, contents: String) -> String {
        "<\(MessageText.name(name))> holds more than maximumRecordBytes (\(limit) bytes) of \(contents)"
    }
}
