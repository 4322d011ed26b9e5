#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The leading-dot constructors of record fields. Each one is constrained on the field's
// value type, so `$0…$n` in a record's build closure get the declared types.

extension RecordField where Value == String {
    /// The text of the element at `path` (or the attribute value, for a path ending in
    /// `@name`); required.
    ///
    /// - Parameter whitespace: How to shape element text; trimmed by default.
    public static func text(_ path: String, whitespace: WhitespacePolicy = .trim) -> RecordField<String> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(whitespace))) { slot, site in
            FieldExtraction.required(slot, site) { $0 }
        }
    }
}

extension RecordField where Value: XMLTextConvertible {
    /// The text or attribute at `path`, converted to `Value`; required.
    ///
    /// ```swift
    /// .value("facilities/toilet", as: Int.self)
    /// .value("link/@href", as: URL.self)
    /// ```
    public static func value(_ path: String, as type: Value.Type) -> RecordField<Value> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site in
            FieldExtraction.required(slot, site, Value.init(xmlText:))
        }
    }
}

extension RecordField where Value: XMLTextConvertible & Sendable {
    /// The text or attribute at `path`, converted to `Value`, or `defaultValue` when it is
    /// absent or marked nil. Text that does not convert is still a failure.
    ///
    /// ```swift
    /// .value("facilities/disabled_parking", as: Bool.self, default: false)
    /// ```
    public static func value(_ path: String, as type: Value.Type, default defaultValue: Value) -> RecordField<Value> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site in
            FieldExtraction.optional(slot, site, emptyAsNil: false, Value.init(xmlText:)).map { $0 ?? defaultValue }
        }
    }
}

extension RecordField {
    /// The text or attribute at `path`, converted to `Wrapped`, or `nil` when it is absent
    /// or marked nil (`nil="nil"`, `xsi:nil="true"`).
    ///
    /// - Parameter emptyAsNil: Whether an empty element (`<x/>`) is `nil` too, instead of
    ///   being converted (which fails for numbers).
    ///
    /// ```swift
    /// .value("company_name", as: String?.self)
    /// .value("rating", as: Int?.self, emptyAsNil: true)
    /// ```
    public static func value<Wrapped: XMLTextConvertible>(
        _ path: String, as type: Wrapped?.Type, emptyAsNil: Bool = false
    ) -> RecordField<Wrapped?> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site in
            FieldExtraction.optional(slot, site, emptyAsNil: emptyAsNil, Wrapped.init(xmlText:))
        }
    }

    /// The text or attribute at `path`, converted by your own function; required. Throw
    /// from `parse` to reject the text: the failure names the text, the type, the
    /// element and your error.
    ///
    /// ```swift
    /// .value("size") { try Size(parsing: $0) }
    /// ```
    public static func value(
        _ path: String, whitespace: WhitespacePolicy = .trim, parse: @escaping @Sendable (String) throws -> Value
    ) -> RecordField<Value> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(whitespace))) { slot, site in
            FieldExtraction.required(slot, site, parse)
        }
    }

    /// Every text or attribute value at `path`, in document order, converted to
    /// `Element`; `[]` when there are none. Occurrences marked nil are left out.
    ///
    /// ```swift
    /// .many("tag", as: String.self)
    /// .many("nd/@ref", as: Int.self)
    /// ```
    public static func many<Element: XMLTextConvertible>(_ path: String, as type: Element.Type) -> RecordField<[Element]> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .items(.trim))) { slot, site in
            FieldExtraction.many(slot, site, Element.init(xmlText:))
        }
    }

    /// A nested record built from the element at `path` (the first, if several); required.
    /// The nested record's own pattern is not used: `path` says where it is.
    ///
    /// ```swift
    /// .record("author", user)
    /// ```
    public static func record<Model>(_ path: String, _ record: Record<Model>) -> RecordField<Model> {
        let name = record.node.name
        return .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .record(record.node))) { slot, site in
            guard case .records(let values) = slot, let first = values.first else {
                return .failure(FieldFailures([site.failure(.missing, at: nil)]))
            }
            guard let model = first as? Model else {
                return .failure(FieldFailures([site.failure(.builder(underlying: ValueConversionError("\(name) built the wrong type")), at: nil)]))
            }
            return .success(model)
        }
    }

    /// A list of nested records, one for each element at `path`, in document order;
    /// `[]` when there are none. Records skipped by their failure policy are left out.
    ///
    /// ```swift
    /// .many("animals/animal", animal)
    /// ```
    public static func many<Model>(_ path: String, _ record: Record<Model>) -> RecordField<[Model]> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .records(record.node))) { slot, _ in
            guard case .records(let values) = slot else { return .success([]) }
            return .success(values.compactMap { $0 as? Model })
        }
    }

    /// Any field made optional: `nil` where the field would fail because its element or
    /// attribute is absent or marked nil. Conversion failures still fail.
    ///
    /// ```swift
    /// .optional(.record("media", media))
    /// .optional(.date("published", format: .rfc822))
    /// ```
    public static func optional<Wrapped>(_ field: RecordField<Wrapped>) -> RecordField<Wrapped?> {
        .init(spec: field.spec) { slot, site in
            switch field.extract(slot, site) {
            case .success(let value):
                return .success(value)
            case .failure(let failures):
                let absent = failures.failures.allSatisfy {
                    switch $0.reason {
                    case .missing, .markedNil: true
                    default: false
                    }
                }
                return absent ? .success(nil) : .failure(failures)
            }
        }
    }
}

extension RecordField where Value == Date {
    /// The text or attribute at `path` read as a date in `format` (ISO 8601 unless said); required.
    ///
    /// ```swift
    /// .date("pubDate", format: .rfc822)
    /// ```
    public static func date(_ path: String, format: DateFormat = .iso8601) -> RecordField<Date> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site in
            FieldExtraction.required(slot, site, format.date(from:))
        }
    }
}

extension RecordField where Value == Date? {
    /// The text or attribute at `path` read as a date in `format`, or `nil` when it is
    /// absent or marked nil (and, with `emptyAsNil`, when it is empty). Text that is not
    /// a date in `format` still fails.
    ///
    /// ```swift
    /// .date("published", as: Date?.self, format: .rfc822)
    /// ```
    public static func date(
        _ path: String, as type: Date?.Type, format: DateFormat = .iso8601, emptyAsNil: Bool = false
    ) -> RecordField<Date?> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site in
            FieldExtraction.optional(slot, site, emptyAsNil: emptyAsNil, format.date(from:))
        }
    }
}

extension RecordField where Value == [Date] {
    /// Every text or attribute value at `path` read as a date in `format`, in document
    /// order; `[]` when there are none.
    ///
    /// ```swift
    /// .many("history/changed", as: Date.self, format: .rfc822)
    /// ```
    public static func many(_ path: String, as type: Date.Type, format: DateFormat) -> RecordField<[Date]> {
        .init(spec: FieldSpec(path: FieldPath(stringLiteral: path), capture: .items(.trim))) { slot, site in
            FieldExtraction.many(slot, site, format.date(from:))
        }
    }
}

/// The conversions shared by the field constructors.
enum FieldExtraction {
    static func required<Value>(_ slot: FieldSlot, _ site: FieldSite, _ parse: (String) throws -> Value)
        -> Result<Value, FieldFailures>
    {
        switch slot {
        case .text(let text, let occurrence):
            return site.convert(text, at: occurrence, parse)
        case .markedNil(let occurrence):
            return .failure(FieldFailures([site.failure(.markedNil, at: occurrence)]))
        case .empty, .pending, .items, .records:
            return .failure(FieldFailures([site.failure(.missing, at: nil)]))
        }
    }

    static func optional<Value>(
        _ slot: FieldSlot, _ site: FieldSite, emptyAsNil: Bool, _ parse: (String) throws -> Value
    ) -> Result<Value?, FieldFailures> {
        switch slot {
        case .text(let text, let occurrence):
            if emptyAsNil && text.isEmpty { return .success(nil) }
            return site.convert(text, at: occurrence, parse).map { $0 }
        case .empty, .pending, .markedNil, .items, .records:
            return .success(nil)
        }
    }

    static func many<Element>(_ slot: FieldSlot, _ site: FieldSite, _ parse: (String) throws -> Element)
        -> Result<[Element], FieldFailures>
    {
        guard case .items(let items) = slot else { return .success([]) }
        var values: [Element] = []
        values.reserveCapacity(items.count)
        var failures: [FieldFailure] = []
        for item in items where !item.isNil {
            guard let text = item.text else { continue }
            switch site.convert(text, at: item.occurrence, parse) {
            case .success(let value): values.append(value)
            case .failure(let failed): failures += failed.failures
            }
        }
        return failures.isEmpty ? .success(values) : .failure(FieldFailures(failures))
    }
}
