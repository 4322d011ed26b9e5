/// Conversion to the model: how a field's value is read from its ``CapturedField`` when its
/// record ends. Chosen once when the ``RecordField`` is declared (a standard kind, or a
/// closure); run by ``BuildArgumentLayout/readFields(_:_:_:)`` for every record.
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

        /// Whether a single attribute field of this kind converts its value as it reads it,
        /// without making a `String` first (``FieldReader/convert(_:_:)``).
        var converts: Bool { self == .double || self == .int || self == .bool }
    }

    /// Reads a field from what its slot captured: initializes `out` (memory for the
    /// field's value) and returns `nil`, or returns the failures and leaves `out`
    /// uninitialized.
    typealias Closure = @Sendable (CapturedField, FieldReadContext, _ out: UnsafeMutableRawPointer) -> FieldFailures?

    let kind: Kind
    /// The reading of a ``Kind/closure`` field.
    let closure: Closure?

    static let text = FieldReader(kind: .text)
    static let double = FieldReader(kind: .double)
    static let int = FieldReader(kind: .int)
    static let bool = FieldReader(kind: .bool)
    static let strings = FieldReader(kind: .strings)
    static let ints = FieldReader(kind: .ints)
    static let doubles = FieldReader(kind: .doubles)

    static func closure(_ read: @escaping Closure) -> FieldReader {
        FieldReader(kind: .closure, closure: read)
    }

    private init(kind: Kind, closure: Closure? = nil) {
        self.kind = kind
        self.closure = closure
    }

    /// Reads a field of a standard kind: initializes `out` (memory for the field's value)
    /// and returns `nil`, or returns the failures and leaves `out` uninitialized. A
    /// ``Kind/closure`` field is read by its closure instead. The slot is consumed: a
    /// text field's `String` moves into `out` (a copy would cost a retain and a release).
    static func read(_ kind: Kind, _ slot: consuming CapturedField, _ site: FieldReadContext, into out: UnsafeMutableRawPointer)
        -> FieldFailures?
    {
        if case .converted(let bits, _) = slot {
            switch kind {
            case .double: out.initialize(as: Double.self, to: Double(bitPattern: bits))
            case .int: out.initialize(as: Int.self, to: Int(truncatingIfNeeded: Int64(bitPattern: bits)))
            case .bool: out.initialize(as: Bool.self, to: bits != 0)
            // Only the kinds above convert as they read (``converts``).
            default: return FieldFailures([site.failure(.missing, at: nil)])
            }
            return nil
        }
        return switch kind {
        case .text: moveText(consume slot, site, into: out)
        case .double: FieldReader.required(slot, site, into: out, Double.init(xmlText:))
        case .int: FieldReader.required(slot, site, into: out, Int.init(xmlText:))
        case .bool: FieldReader.required(slot, site, into: out, Bool.init(xmlText:))
        case .strings: FieldReader.many(slot, site, into: out) { $0 }
        case .ints: FieldReader.many(slot, site, into: out, Int.init(xmlText:))
        case .doubles: FieldReader.many(slot, site, into: out, Double.init(xmlText:))
        // A closure field always has its closure (``closure(_:)``); were it missing, the
        // field would fail rather than leave its value unwritten.
        case .closure: FieldFailures([site.failure(.missing, at: nil)])
        }
    }

    /// Moves a text field's `String` into `out`.
    private static func moveText(_ slot: consuming CapturedField, _ site: FieldReadContext, into out: UnsafeMutableRawPointer)
        -> FieldFailures?
    {
        switch consume slot {
        case .text(let text, _):
            out.initialize(as: String.self, to: text)
            return nil
        case let other:
            return FieldReader.required(other, site, into: out) { $0 }
        }
    }

    /// An attribute value of a ``converts`` kind, converted from its bytes exactly as its
    /// `init(xmlText:)` converts the `String`: the value's bits, or `nil` when the bytes
    /// need the `String` path — a failure, which reports the text, and for `Double` any
    /// number beyond the exact fast path of ``DecimalSyntax`` or spelled `INF` or `NaN`.
    static func convert(_ kind: Kind, _ bytes: UnsafeRawBufferPointer) -> UInt64? {
        switch kind {
        case .double:
            guard case .exact(let value) = DecimalSyntax.scan(bytes.assumingMemoryBound(to: UInt8.self)) else { return nil }
            return value.bitPattern
        case .int:
            return integer(bytes).map { UInt64(bitPattern: Int64($0)) }
        case .bool:
            switch bytes.count {
            case 1 where bytes[0] == UInt8(ascii: "1"): return 1
            case 1 where bytes[0] == UInt8(ascii: "0"): return 0
            case 4 where bytes.elementsEqual("true".utf8): return 1
            case 5 where bytes.elementsEqual("false".utf8): return 0
            default: return nil
            }
        default:
            return nil
        }
    }

    /// What `Int(_:radix: 10)` reads: an optional sign and decimal digits, `nil` past
    /// `Int`'s range.
    private static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard index < bytes.count else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (scaled, overflowed) = value.multipliedReportingOverflow(by: 10)
            // A negative number is built downwards, so that `Int.min` fits.
            let (next, overflowedAgain) =
                negative ? scaled.subtractingReportingOverflow(Int(digit)) : scaled.addingReportingOverflow(Int(digit))
            guard !overflowed && !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The reading as a closure, for fields made from other fields (``RecordField/map(_:)``,
    /// ``RecordField/optional(_:)``).
    var asClosure: Closure {
        if let closure { return closure }
        let kind = kind
        return { Self.read(kind, $0, $1, into: $2) }
    }
}
