/// A record that could not be built from a well-formed document: the fields that failed,
/// with where and why, or no element to build it from.
///
/// The one error for a typed record's model: the document was read, but the model could
/// not be made from it. ``kind`` says which: ``Kind/fieldsFailed``, with every failed field
/// in ``failures``, each rendering like a compiler diagnostic on its own line,
///
/// ```text
/// zoo.xml:12:9: error: cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer
/// zoo.xml:3:5: error: record Zoo has no facilities/disabled_parking (field disabledParking)
/// ```
///
/// or ``Kind/notFound(pattern:skipped:)``, from ``XMLRecord/first(in:safety:diagnostics:)``:
///
/// ```text
/// zoo.xml: error: no element matches /zoo (record Zoo)
/// ```
///
/// Thrown by a record's parse calls (and, wrapped in a ``HandlerError``, by a dispatcher
/// a record was registered on) unless the record's ``RecordFailurePolicy`` skips or
/// replaces it; then the same value is reported as a diagnostic. A document that is not
/// well-formed, or breaks a limit (``XMLParseError/Code/recordSizeLimitExceeded``
/// included), is an ``XMLParseError`` instead; a value that ``XMLRecordDecoder`` cannot
/// decode is an ``XMLDecodingError``.
///
/// ```swift
/// do {
///     let zoo = try zooRecord.first(in: .file("zoo.xml"))
/// } catch let error as XMLRecordError {
///     switch error.kind {
///     case .fieldsFailed: for failure in error.failures { print(failure.fieldName, failure.message) }
///     case .notFound(let pattern, _): print("no \(pattern) in the document")
///     }
/// }
/// ```
public struct XMLRecordError: Error, CustomStringConvertible, Sendable {
    /// Why no model was built.
    public enum Kind: Sendable, Hashable {
        /// Elements were found, but fields failed or the record's build closure threw:
        /// ``XMLRecordError/failures`` lists each, at the record element's start tag.
        case fieldsFailed
        /// No model was built: no element matched `pattern` (the record's pattern in its
        /// canonical spelling), or the record's failure policy (``XMLRecord/onFailure(_:)``)
        /// set aside every one of the `skipped` that did (0 when none matched at all).
        /// There is no element to point at: ``XMLRecordError/line`` and
        /// ``XMLRecordError/column`` are 0, the path and ``XMLRecordError/failures`` empty.
        case notFound(pattern: String, skipped: Int)
    }

    /// Why no model was built.
    public var kind: Kind
    /// The record's name: its model type unless ``XMLRecord/named(_:)`` gave another.
    public var recordName: String
    /// The path from the root to the record's element; empty for ``Kind/notFound(pattern:skipped:)``.
    public var recordPath: ElementPath
    /// 1-based line of the record element's start tag; 0 for ``Kind/notFound(pattern:skipped:)``.
    public var line: Int
    /// 1-based column of the record element's start tag, counted in characters; 0 for
    /// ``Kind/notFound(pattern:skipped:)``.
    public var column: Int
    /// Every field that failed, in field order: never empty for ``Kind/fieldsFailed``,
    /// empty for ``Kind/notFound(pattern:skipped:)``.
    public var failures: [FieldFailure]
    /// Where the input came from (a file path), when known.
    public var source: String?

    /// Creates the error for a record whose fields failed; the record layer makes these,
    /// tests and wrappers may too.
    public init(
        recordName: String, recordPath: ElementPath, line: Int, column: Int, failures: [FieldFailure],
        source: String? = nil
    ) {
        self.kind = .fieldsFailed
        self.recordName = recordName
        self.recordPath = recordPath
        self.line = line
        self.column = column
        self.failures = failures
        self.source = source
    }

    /// Creates the error for a record that no element matched, or whose every match its
    /// failure policy skipped (`skipped` of them).
    public init(recordName: String, notFound pattern: String, skipped: Int = 0, source: String? = nil) {
        self.kind = .notFound(pattern: pattern, skipped: skipped)
        self.recordName = recordName
        self.recordPath = []
        self.line = 0
        self.column = 0
        self.failures = []
        self.source = source
    }

    /// For ``Kind/fieldsFailed``, one diagnostic line per failure:
    /// `SOURCE:LINE:COLUMN: error: MESSAGE`. For ``Kind/notFound(pattern:skipped:)``,
    /// `SOURCE: error: no element matches PATTERN (record NAME)`, or, when matching elements
    /// were all skipped by the failure policy, `SOURCE: error: no element matching PATTERN
    /// could be built: the failure policy skipped all N (record NAME)`. `<input>` when the
    /// source is unknown.
    public var description: String {
        switch kind {
        case .fieldsFailed:
            return failures.map { "\(source ?? "<input>"):\($0.line):\($0.column): error: \($0.message)" }
                .joined(separator: "\n")
        case .notFound(let pattern, let skipped):
            let what =
                skipped == 0
                ? "no element matches \(pattern)"
                : "no element matching \(pattern) could be built: the failure policy skipped all \(skipped)"
            return "\(source ?? "<input>"): error: \(what) (record \(recordName))"
        }
    }
}

/// One field of a record that could not be filled, or the record's builder failing.
public struct FieldFailure: Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// A required field's element or attribute was absent.
        case missing
        /// A required field was marked nil (`nil="nil"`, `xsi:nil="true"`).
        case markedNil
        /// The text could not be converted; `text` is the offending text, `type` the target type.
        case conversion(text: String, type: String, underlying: any Error)
        /// The record's build closure threw.
        case builder(underlying: any Error)
    }

    /// Why.
    public var reason: Reason
    /// The record's name.
    public var recordName: String
    /// The field's name (see ``RecordField/named(_:)``), or its path when it has none.
    public var fieldName: String
    /// The field's path relative to the record, as declared (`facilities/toilet`, `link/@href`).
    public var fieldPath: String
    /// The path of the element the failure is about: the field's element when it was
    /// present, otherwise the record's.
    public var elementPath: ElementPath
    /// 1-based line of that element's start tag.
    public var line: Int
    /// 1-based column of that element's start tag, counted in characters.
    public var column: Int

    /// Creates a failure value; the record layer makes these, tests and wrappers may too.
    public init(
        reason: Reason, recordName: String, fieldName: String, fieldPath: String, elementPath: ElementPath,
        line: Int, column: Int
    ) {
        self.reason = reason
        self.recordName = recordName
        self.fieldName = fieldName
        self.fieldPath = fieldPath
        self.elementPath = elementPath
        self.line = line
        self.column = column
    }

    /// The message, without position: `cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer`.
    public var message: String {
        let field = fieldName == fieldPath ? "" : " (field \(fieldName))"
        switch reason {
        case .missing:
            return "record \(recordName) has no \(fieldPath)\(field)"
        case .markedNil:
            return "\(fieldPath) of record \(recordName) is nil but required\(field)"
        case .conversion(let text, let type, let underlying):
            let place = "at \(elementPath.abbreviated()) (in record \(recordName), field \(fieldName))"
            return "cannot convert \(Self.quoted(text)) to \(type) \(place): \(underlying)"
        case .builder(let underlying):
            return "record \(recordName) could not be built: \(underlying)"
        }
    }

    /// `LINE:COLUMN: MESSAGE`.
    public var description: String { "\(line):\(column): \(message)" }

    /// The text in quotes, escaped, cut to 40 characters.
    static func quoted(_ text: String) -> String {
        let limit = 40
        guard MessageText.prefix(text, characters: limit).utf8.count < text.utf8.count else { return text.debugDescription }
        return String(MessageText.prefix(text, characters: limit - 1).debugDescription.dropLast()) + "…\""
    }
}
