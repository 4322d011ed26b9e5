/// Where a field's value was found: its element's start tag.
struct FieldOccurrence {
    var line: Int
    var column: Int
    /// The element's name in the parse's name table, for messages: error paths name it as
    /// the document wrote it. -1 when unknown.
    var nameID: Int32 = -1

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Where `element`'s start tag is (one lookup of its frame for both numbers).
    init(_ element: ElementContext) {
        let position = element.engine.position(depth: element.depth, serial: element.serial)
        self.init(line: position.line, column: position.column)
        nameID = element.nameID
    }
}

/// One occurrence of a repeated field: its text (or attribute value) once its element
/// ended, or `nil` while it is open or when it was marked nil.
struct FieldItem {
    var text: String?
    var isNil: Bool
    var occurrence: FieldOccurrence
    /// The element's depth while its text is awaited; 0 once complete.
    var openDepth: Int
}

/// What one field of an open record has captured so far.
enum FieldSlot {
    case empty
    /// The field's element started; its text comes at its end.
    case pending(FieldOccurrence, isNil: Bool, depth: Int)
    /// Text or an attribute value (the first occurrence: later ones are ignored).
    case text(String, FieldOccurrence)
    /// An attribute value converted as it was read, for a single field of a standard
    /// number or `Bool` kind (``FieldReader/convert(_:_:)``): the value's bits. A value that
    /// does not convert is kept as ``text(_:_:)`` instead, for its failure to show it.
    case converted(UInt64, FieldOccurrence)
    /// The element was there, marked `nil="nil"` or `xsi:nil="true"`.
    case markedNil(FieldOccurrence)
    /// Every occurrence of a repeated text or attribute field, in document order.
    case items([FieldItem])
    /// Nested records, built, in document order.
    case records([Any])
}

extension FieldSlot {
    /// A field's element started: a single field remembers its first occurrence, a
    /// repeated one adds an occurrence; the text comes with ``complete(depth:text:)``.
    mutating func open(_ occurrence: FieldOccurrence, isNil: Bool, depth: Int, isList: Bool) {
        if isList {
            append(FieldItem(text: nil, isNil: isNil, occurrence: occurrence, openDepth: depth))
        } else if case .empty = self {
            self = .pending(occurrence, isNil: isNil, depth: depth)
        }
    }

    /// An attribute value: the first for a single field, one more for a repeated one.
    /// Returns whether a repeated field's list grew (a single field holds one value at
    /// most, which the text limits bound; a list can grow without end).
    @discardableResult
    mutating func capture(_ value: String, _ occurrence: FieldOccurrence, isList: Bool) -> Bool {
        if isList {
            append(FieldItem(text: value, isNil: false, occurrence: occurrence, openDepth: 0))
            return true
        } else if case .empty = self {
            self = .text(value, occurrence)
        }
        return false
    }

    /// An attribute value converted as it was read (see ``converted(_:_:)``): the first for
    /// a single field, later ones ignored, as for text.
    mutating func capture(converted bits: UInt64, _ occurrence: FieldOccurrence) {
        if case .empty = self { self = .converted(bits, occurrence) }
    }

    /// Gives the occurrence opened at `depth` its text. Returns whether a repeated field's
    /// list took it (see ``capture(_:_:isList:)``).
    @discardableResult
    mutating func complete(depth: Int, text: String) -> Bool {
        switch self {
        case .items(var items):
            self = .empty  // `items` is now the only reference: no copy below
            var kept = false
            if let last = items.lastIndex(where: { $0.openDepth == depth }) {
                if !items[last].isNil {
                    items[last].text = text
                    kept = true
                }
                items[last].openDepth = 0
            }
            self = .items(items)
            return kept
        case .pending(let occurrence, let isNil, let pendingDepth) where pendingDepth == depth:
            self = isNil ? .markedNil(occurrence) : .text(text, occurrence)
            return false
        default:
            return false
        }
    }

    /// Adds a nested record's model.
    mutating func appendRecord(_ model: Any) {
        guard case .records(var models) = self else {
            self = .records([model])
            return
        }
        self = .empty
        models.append(model)
        self = .records(models)
    }

    private mutating func append(_ item: FieldItem) {
        guard case .items(var items) = self else {
            self = .items([item])
            return
        }
        self = .empty
        items.append(item)
        self = .items(items)
    }
}

/// What a field's extraction knows about the record it belongs to, to build failures.
///
/// It is made for every record and pointed at each field in turn, and used only when a
/// field fails, so it refers to the record and the field declarations without holding
/// them: it is valid only during the record's assembly (``FieldValueLayout/extract(_:_:_:)``),
/// which keeps both alive.
struct FieldSite {
    private let recordSite: UnsafePointer<RecordSite>
    unowned(unsafe) let specs: FieldSpecTable
    var index: Int

    init(record: UnsafePointer<RecordSite>, specs: FieldSpecTable, index: Int) {
        recordSite = record
        self.specs = specs
        self.index = index
    }

    var record: RecordSite { recordSite.pointee }
    var spec: FieldSpec { specs.specs[index] }

    func failure(_ reason: FieldFailure.Reason, at occurrence: FieldOccurrence?) -> FieldFailure {
        let place = occurrence ?? record.occurrence
        let context = record.context
        let recordPath = context.path
        let path = spec.path
        let written = occurrence.flatMap { $0.nameID >= 0 ? context.engine.names.string($0.nameID) : nil }
        return FieldFailure(
            reason: reason, recordName: record.name, fieldName: spec.displayName, fieldPath: path.text,
            elementPath: occurrence == nil ? recordPath : path.elementPath(below: recordPath, writtenAs: written),
            line: place.line, column: place.column)
    }

    /// Converts one text into `out` (uninitialized memory for a `Value`), or fails naming
    /// it, its type and its place and leaves `out` uninitialized.
    ///
    /// Generic code here touches only `Value` itself, never `Optional<Value>` or
    /// `Result<Value, …>`: those would cost a metadata lookup per field per record.
    func convert<Value>(
        _ text: String, at occurrence: FieldOccurrence, into out: UnsafeMutableRawPointer,
        _ parse: (String) throws -> Value
    ) -> FieldFailures? {
        do {
            out.initialize(as: Value.self, to: try parse(text))
            return nil
        } catch {
            return FieldFailures([conversionFailure(text, as: Value.self, error, at: occurrence)])
        }
    }

    /// The failure of `text` that did not convert to `type`.
    func conversionFailure(
        _ text: String, as type: Any.Type, _ error: any Error, at occurrence: FieldOccurrence
    ) -> FieldFailure {
        failure(.conversion(text: text, type: String(describing: type), underlying: error), at: occurrence)
    }
}

/// A record type's field declarations, shared by reference: a ``FieldSite`` refers to them
/// without copying any path.
final class FieldSpecTable: Sendable {
    let specs: [FieldSpec]

    init(_ specs: [FieldSpec]) {
        self.specs = specs
    }
}

/// The failures of one field (several for a repeated field).
struct FieldFailures: Error {
    var failures: [FieldFailure]

    init(_ failures: [FieldFailure]) {
        self.failures = failures
    }

    /// Whether every failure is an absence (missing or marked nil), which an optional or
    /// defaulted field turns into its fallback; a conversion failure is not.
    var areAbsences: Bool {
        failures.allSatisfy {
            switch $0.reason {
            case .missing, .markedNil: true
            default: false
            }
        }
    }

    /// Whether every failure is an absence or the conversion of empty text: what an
    /// optional or defaulted field turns into its fallback (the rule the EmptyValues article
    /// states).
    /// A type that reads empty text, such as `String`, never fails on it, so its empty
    /// value is kept.
    var areAbsencesOrEmptyText: Bool {
        failures.allSatisfy {
            switch $0.reason {
            case .missing, .markedNil: true
            case .conversion(let text, _, _): text.isEmpty
            default: false
            }
        }
    }
}
