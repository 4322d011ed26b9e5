/// An error thrown by one of your handlers, with where in the document it happened.
///
/// The parse call throws this instead of your error, so that a message names the
/// element whose handler failed; your error stays reachable as ``underlying``. Its
/// `description` reads like a compiler diagnostic, your error's description last:
///
/// ```text
/// zoo.xml:12:9: error: in the end handler of zoo/animals/animal/url: not a URL: "::"
/// ```
///
/// ```swift
/// do {
///     try dispatcher.parse(.file(path))
/// } catch let error as HandlerError {
///     if let bad = error.underlying as? BadValue { … }   // your own error
///     print(error)                                        // with file, line, column and path
/// }
/// ```
///
/// For start, end and text handlers the position is the element's start tag; for the
/// other handlers it is the processing instruction, comment or declaration.
public struct HandlerError: Error, CustomStringConvertible {
    /// Which kind of handler threw.
    public enum Event: String, Sendable, Hashable {
        /// A start handler (``Dispatcher/onStart(_:_:)``, ``Dispatcher/onAnyStart(_:)``).
        case start
        /// An end handler, with or without text (``Dispatcher/onEnd(_:_:)``,
        /// ``Dispatcher/onEnd(_:text:whitespace:_:)``, ``Dispatcher/onAnyEnd(_:)``), or a record or
        /// decoded value built at an element's end.
        case end
        /// A text chunk handler (``Dispatcher/onText(_:_:)``, ``Dispatcher/onAnyText(_:)``).
        case text
        /// A processing instruction handler (``Dispatcher/onProcessingInstruction(_:)``).
        case processingInstruction = "processing instruction"
        /// A comment handler (``Dispatcher/onComment(_:)``).
        case comment
        /// A document type declaration handler (``Dispatcher/onDoctype(_:)``).
        case doctype
        /// A notation declaration handler (``Dispatcher/onNotationDeclaration(_:)``).
        case notation
    }

    /// The error your handler threw, unchanged.
    public var underlying: any Error
    /// The kind of handler that threw.
    public var event: Event
    /// For element handlers, the path from the root to the element; for the others, the
    /// elements open at the event.
    public var elementPath: ElementPath
    /// 1-based line of the element's start tag (or of the event, for other handlers).
    public var line: Int
    /// 1-based column, in characters.
    public var column: Int
    /// 0-based offset in bytes from the start of the input.
    public var byteOffset: Int
    /// Where the input came from (a file path), when known; used in `description`.
    public var source: String?

    /// Creates an error value; the parser makes these, tests and wrappers may too.
    public init(
        underlying: any Error, event: Event, elementPath: ElementPath, line: Int, column: Int, byteOffset: Int,
        source: String? = nil
    ) {
        self.underlying = underlying
        self.event = event
        self.elementPath = elementPath
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.source = source
    }

    /// `SOURCE:LINE:COLUMN: error: in the EVENT handler of PATH: UNDERLYING`, with `<input>`
    /// when the source is unknown; for a record, a decoded value or a captured element
    /// that failed (``XMLRecordError``, ``XMLDecodingError``, an ``XMLParseError`` with
    /// ``XMLParseError/Code/recordSizeLimitExceeded``), whose description names its own
    /// position, that description alone, so that the location is stated once.
    public var description: String {
        if let located = underlying as? any LocatedError { return located.description }
        // A record's size limit is the document's limit, found by the record's handlers.
        if let limit = underlying as? XMLParseError, limit.code == .recordSizeLimitExceeded { return limit.description }
        let place: String
        switch event {
        case .start, .end, .text: place = "in the \(event.rawValue) handler of \(elementPath.abbreviated())"
        default:
            place = "in the \(event.rawValue) handler" + (elementPath.isEmpty ? "" : " (in \(elementPath.abbreviated()))")
        }
        return "\(source ?? "<input>"):\(line):\(column): error: \(place): \(underlying)"
    }
}
