/// One field of an ``XMLRecord``: a path relative to the record's element, what to capture
/// there, and the type the build closure receives.
///
/// Fields are made with the leading-dot constructors, listed in the order the build
/// closure takes their values:
///
/// ```swift
/// let animal = XMLRecord("animal",
///     .text("kind"),                                  // String: the text of <kind>
///     .text("nested_nonsense/name"),                  // a descendant's text
///     .value("url", as: URL.self),                    // converted; required
///     .value("legs", as: Int?.self),                  // optional: nil when absent or nil-marked
///     .value("@id", as: Int.self),                    // the record element's attribute
///     .many("tag", as: String.self)                   // every <tag>, [] when none
/// ) { Animal(kind: $0, name: $1, url: $2, legs: $3, id: $4, tags: $5) }
/// ```
///
/// Paths: `.` is the record element itself (its own text), `kind` a child, `a/b` a
/// grandchild, `//name` a `name` anywhere inside the record, `@href` an attribute of
/// the record element, `link/@href` an attribute of a child; steps may test
/// attributes (`link[@rel='alternate']/@href`). A path is part of the program: an
/// invalid one stops it with a message, like an invalid pattern literal.
///
/// Nil conventions: an absent element or attribute is `nil` for an optional field and
/// a ``FieldFailure/Reason/missing`` failure for a required one; an element marked
/// `nil="nil"`, `nil="true"` or `xsi:nil="true"` is `nil` too (``FieldFailure/Reason/markedNil``
/// when required); an element that is present but empty (`<x/>`, or only whitespace under
/// trimming) or an empty attribute value is `""` for `String`, `nil` for an optional whose
/// type reads nothing from empty text (`Int?`, `Date?`, `URL?`), the default of a field
/// with one, and a conversion failure naming the element for a required number, date or
/// URL (<doc:EmptyValues>); a repeated field with no occurrences is `[]`. A single field
/// whose element occurs several times takes the first.
public struct RecordField<Value>: Sendable {
    var plan: FieldPlan
    /// Reads the field from what its slot captured: initializes `out` (memory for a
    /// `Value`) and returns `nil`, or returns the failures and leaves `out` uninitialized.
    /// The value goes through memory rather than a `Result<Value, …>` so that generic code
    /// assembling a record never asks the runtime for `Result` or `Optional` metadata.
    let reader: FieldReader

    init(plan: FieldPlan, read: @escaping FieldReader.Closure) {
        self.init(plan: plan, reader: .closure(read))
    }

    init(plan: FieldPlan, reader: FieldReader) {
        self.plan = plan
        self.reader = reader
    }

    var readClosure: FieldReader.Closure { reader.asClosure }

    /// The same field with a name for error messages (`field toiletCount` instead of
    /// `field facilities/toilet`).
    ///
    /// ```swift
    /// .value("facilities/toilet", as: Int.self).named("toiletCount")
    /// ```
    public func named(_ name: String) -> RecordField<Value> {
        var copy = self
        copy.plan.name = name
        return copy
    }

    /// The same field with its value transformed once it is read, for example to one
    /// enum for fields of several types:
    ///
    /// ```swift
    /// let count: RecordField<Cell> = RecordField.value("count", as: Int.self).map { .number($0) }
    /// ```
    public func map<NewValue>(_ transform: @escaping @Sendable (Value) -> NewValue) -> RecordField<NewValue> {
        let read = readClosure
        return RecordField<NewValue>(plan: plan) { slot, site, out in
            withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { value in
                guard let base = value.baseAddress else { preconditionFailure("a temporary allocation of at least one byte has an address") }
                if let failures = read(slot, site, UnsafeMutableRawPointer(base)) { return failures }
                out.initialize(as: NewValue.self, to: transform(base.move()))
                return nil
            }
        }
    }
}
