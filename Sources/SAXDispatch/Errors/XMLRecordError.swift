/// A record that could not be built: every field that failed, with where and why.
///
/// Each failure renders like a compiler diagnostic on its own line:
///
/// ```text
/// zoo.xml:12:9: error: cannot convert "4x2" to Int at zoo/facilities/toilet (in record Zoo, field toiletCount): expected an integer
/// zoo.xml:3:5: error: record Zoo has no facilities/disabled_parking (field disabledParking)
/// ```
///
/// Thrown by a record's parse calls (and, wrapped in a ``HandlerError``, by a dispatcher
/// a record was registered on) unless the record's ``RecordFailurePolicy`` skips or
/// replaces it; then the same value is reported as a diagnostic.
public struct XMLRecordError: Error, CustomStringConvertible, Sendable {
    /// The record's name: its model type unless ``XMLRecord/named(_:)`` gave another.
    public var recordName: String
    /// The path from the root to the record's element.
    public var recordPath: ElementPath
    /// 1-based line of the record element's start tag.
    public var line: Int
    /// 1-based column of the record element's start tag, counted in characters.
    public var column: Int
    /// Every field that failed, in field order; never empty.
    public var failures: [FieldFailure]
    /// Where the input came from (a file path), when known.
    public var source: String?

    /// Creates an error value; the record layer makes these, tests and wrappers may too.
    public init(
        recordName: String, recordPath: ElementPath, line: Int, column: Int, failures: [FieldFailure],
        source: String? = nil
    ) {
        self.recordName = recordName
        self.recordPath = recordPath
        self.line = line
        self.column = column
        self.failures = failures
        self.source = source
    }

    /// One diagnostic line per failure.
    public var description: String {
        failures.map { "\(source ?? "<input>"):\($0.line):\($0.column): error: \($0.message)" }.joined(separator: "\n")
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

/// A record's parse call found no element matching the record's pattern.
public struct RecordNotFoundError: Error, CustomStringConvertible, Sendable {
    /// The record's name: its model type unless ``XMLRecord/named(_:)`` gave another.
    public var recordName: String
    /// The record's pattern, which no element matched, in its canonical spelling.
    public var pattern: String
    /// Where the input came from (a file path), when known.
    public var source: String?
    /// How many elements did match but were set aside by the record's failure policy
    /// (``XMLRecord/onFailure(_:)``); 0 when none matched at all.
    public var skipped: Int = 0

    /// `SOURCE: error: no element matches PATTERN (record NAME)`, or, when matching
    /// elements were all skipped by the failure policy, `SOURCE: error: no element
    /// matching PATTERN could be built: the failure policy skipped all N (record NAME)`;
    /// `<input>` when the source is unknown.
    public var description: String {
        let what =
            skipped == 0
            ? "no element matches \(pattern)"
            : "no element matching \(pattern) could be built: the failure policy skipped all \(skipped)"
        return "\(source ?? "<input>"): error: \(what) (record \(recordName))"
    }
}
