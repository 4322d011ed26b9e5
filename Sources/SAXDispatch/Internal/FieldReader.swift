/// How a field is read from its slot when its record ends.
///
/// The standard fields (text, the standard numbers and `Bool`, lists of them) are read by
/// code of their own, called directly from the record's loop over its fields, and their
/// reader is a plain value. Other fields keep their reading in a closure: calling a closure
/// stored in a record's field list costs a retain and a release of its context, and a
/// reabstraction thunk, per field of every record.
struct FieldReader: Sendable {
    enum Kind: UInt8, Sendable {
        /// A required `String`: the text or attribute value as captured.
        case text
        /// A required `Double`, `Int` or `Bool`.
        case double, int, bool
        /// Every occurrence, as `[String]`, `[Int]` or `[Double]`.
        case strings, ints, doubles
        /// Anything else: ``FieldReader/closure``.
        case closure
    }

    let kind: Kind
    /// The reading of a ``Kind/closure`` field.
    let closure: FieldExtract?

    static let text = FieldReader(kind: .text)
    static let double = FieldReader(kind: .double)
    static let int = FieldReader(kind: .int)
    static let bool = FieldReader(kind: .bool)
    static let strings = FieldReader(kind: .strings)
    static let ints = FieldReader(kind: .ints)
    static let doubles = FieldReader(kind: .doubles)

    static func closure(_ extract: @escaping FieldExtract) -> FieldReader {
        FieldReader(kind: .closure, closure: extract)
    }

    private init(kind: Kind, closure: FieldExtract? = nil) {
        self.kind = kind
        self.closure = closure
    }

    /// Reads a field of a standard kind: initializes `out` (memory for the field's value)
    /// and returns `nil`, or returns the failures and leaves `out` uninitialized. A
    /// ``Kind/closure`` field is read by its closure instead.
    static func read(_ kind: Kind, _ slot: FieldSlot, _ site: FieldSite, into out: UnsafeMutableRawPointer)
        -> FieldFailures?
    {
        switch kind {
        case .text: FieldExtraction.required(slot, site, into: out) { $0 }
        case .double: FieldExtraction.required(slot, site, into: out, Double.init(xmlText:))
        case .int: FieldExtraction.required(slot, site, into: out, Int.init(xmlText:))
        case .bool: FieldExtraction.required(slot, site, into: out, Bool.init(xmlText:))
        case .strings: FieldExtraction.many(slot, site, into: out) { $0 }
        case .ints: FieldExtraction.many(slot, site, into: out, Int.init(xmlText:))
        case .doubles: FieldExtraction.many(slot, site, into: out, Double.init(xmlText:))
        // A closure field always has its closure (``closure(_:)``); were it missing, the
        // field would fail rather than leave its value unwritten.
        case .closure: FieldFailures([site.failure(.missing, at: nil)])
        }
    }

    /// The reading as a closure, for fields made from other fields (``RecordField/map(_:)``,
    /// ``RecordField/optional(_:)``).
    var extract: FieldExtract {
        if let closure { return closure }
        let kind = kind
        return { Self.read(kind, $0, $1, into: $2) }
    }
}
