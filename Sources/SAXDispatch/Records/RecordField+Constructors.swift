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
    /// ```swift
    /// .text("title")                              // <title>'s own text
    /// .text("description", scope: .whole)        // with its descendants' text, in order
    /// .text(".", scope: .whole)                   // the record element's whole text
    /// ```
    ///
    /// A whole text counts against ``SafetyProfile/maximumTextBytes``; a longer one ends the
    /// parse with ``XMLParseError/Code/textLimitExceeded`` at its element's start tag.
    ///
    /// - Parameters:
    ///   - path: Where the text is, relative to the record's element (a ``RecordFieldPath``).
    ///   - whitespace: How to shape element text; trimmed by default.
    ///   - scope: The element's own text (the default) or its whole text (``TextScope``).
    public static func text(
        _ path: String, whitespace: WhitespacePolicy = .trim, scope: TextScope = .own
    ) -> RecordField<String> {
        var plan = FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(whitespace))
        plan.content = ElementContent(scope)
        return .init(plan: plan, reader: .text)
    }

    /// The inner markup of the element at `path`: its content between its start and end
    /// tags, serialized as XML that can be parsed on its own; required.
    ///
    /// ```swift
    /// // <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div></content>
    /// .markup("content")   // <div xmlns="http://www.w3.org/1999/xhtml">A <b>bold</b> move</div>
    /// ```
    ///
    /// Child elements are written with their attributes (defaults from the DTD included),
    /// text with `&amp;`, `&lt;` and `&gt;` (attribute values with `&quot;`, and tabs, line
    /// ends and carriage returns as character references), and CDATA sections as escaped
    /// text; entity references are written as their replacement. Comments and processing
    /// instructions are left out. An element without content is written `<name/>`.
    /// Namespace declarations are written where the fragment needs them to stand alone.
    ///
    /// The markup counts against ``SafetyProfile/maximumTextBytes`` (escaped, tags
    /// included) and ``SafetyProfile/maximumCollectedTextBytes``; longer markup ends the
    /// parse with ``XMLParseError/Code/textLimitExceeded`` at the element's start tag.
    ///
    /// - Parameters:
    ///   - path: The element, relative to the record's element (a ``RecordFieldPath``); `.` is
    ///     the record element itself. An attribute path reads the attribute's value.
    ///   - whitespace: `.preserve` keeps the content exactly; `.trim` (the default) and
    ///     `.collapse` remove whitespace at its two ends only: inside markup, whitespace may
    ///     be significant (`<pre>`) and is always kept.
    public static func markup(_ path: String, whitespace: WhitespacePolicy = .trim) -> RecordField<String> {
        var plan = FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(whitespace))
        plan.content = .innerMarkup
        return .init(plan: plan, reader: .text)
    }

    /// The element at `path` serialized with its own tags and attributes: its outer
    /// markup, a fragment that stands alone, as ``markup(_:whitespace:)`` writes inner
    /// markup (namespace declarations included on the element where it needs them).
    ///
    /// ```swift
    /// .outerMarkup(".")   // <entry xmlns="http://www.w3.org/2005/Atom"><title>A</title></entry>
    /// ```
    ///
    /// The markup counts against the same limits as inner markup.
    ///
    /// - Parameter path: The element, relative to the record's element (a ``RecordFieldPath``);
    ///   `.` is the record element itself.
    public static func outerMarkup(_ path: String) -> RecordField<String> {
        var plan = FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.preserve))
        plan.content = .outerMarkup
        return .init(plan: plan, reader: .text)
    }
}

extension RecordField {
    /// The same field reading the whole text (``TextScope/whole``) or the own text of its
    /// element: for fields of any type read from text.
    ///
    /// ```swift
    /// .value("price", as: Decimal.self).textScope(.whole)   // <price>12<sup>.50</sup></price> → 12.50
    /// .many("para", as: String.self).textScope(.whole)
    /// ```
    ///
    /// Fields reading an attribute, and nested records, are unchanged.
    public func textScope(_ scope: TextScope) -> RecordField<Value> {
        var copy = self
        if case .text = plan.capture { copy.plan.content = ElementContent(scope) }
        if case .items = plan.capture { copy.plan.content = ElementContent(scope) }
        return copy
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
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.trim)), reader: FieldReader.required(Value.self))
    }
}

extension RecordField where Value: XMLTextConvertible & Sendable {
    /// The text or attribute at `path`, converted to `Value`, or `defaultValue` when it is
    /// absent, marked nil, or empty and `Value` has no value for empty text (an `Int`, a
    /// `Bool`; a `String` reads `""`). Text that does not convert is still a failure.
    /// <doc:EmptyValues> states the rule.
    ///
    /// ```swift
    /// .value("facilities/disabled_parking", as: Bool.self, default: false)   // <disabled_parking/> → false
    /// ```
    public static func value(_ path: String, as type: Value.Type, default defaultValue: Value) -> RecordField<Value> {
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site, out in
            if let failures = FieldReader.required(slot, site, into: out, Value.init(xmlText:)) {
                guard failures.areAbsencesOrEmptyText else { return failures }
                out.initialize(as: Value.self, to: defaultValue)
            }
            return nil
        }
    }
}

extension RecordField {
    /// The text or attribute at `path`, converted to `Wrapped`, or `nil` when it is absent,
    /// marked nil (`nil="nil"`, `xsi:nil="true"`), or empty and `Wrapped` has no value for
    /// empty text.
    ///
    /// An empty element (`<rating/>`, or only whitespace under the field's trimming) or an
    /// empty attribute value is `nil` for a type whose `init(xmlText:)` rejects empty text
    /// (numbers, `Bool`, `Date`, `URL`, `Decimal`, most enums), and that type's value for
    /// empty text otherwise (`""` for `String?`). <doc:EmptyValues> states the rule, which
    /// the `Decodable` decoder and `saxdispatch extract` follow too. Text that is not empty
    /// and does not convert is still a failure.
    ///
    /// - Parameters:
    ///   - path: Where the text is, relative to the record's element (a ``RecordFieldPath``).
    ///   - type: The optional type to convert to, such as `Int?.self`.
    ///   - emptyAsNil: Whether empty text is `nil` for every type, `String?` included.
    ///     Without it (the default), `<note/>` is `""` for a `String?` and `nil` for an `Int?`.
    ///
    /// ```swift
    /// .value("company_name", as: String?.self)            // <company_name/> → ""
    /// .value("rating", as: Int?.self)                     // <rating/> → nil
    /// .value("nickname", as: String?.self, emptyAsNil: true)   // <nickname/> → nil
    /// ```
    public static func value<Wrapped: XMLTextConvertible>(
        _ path: String, as type: Wrapped?.Type, emptyAsNil: Bool = false
    ) -> RecordField<Wrapped?> {
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site, out in
            FieldReader.optional(slot, site, emptyAsNil: emptyAsNil, into: out, Wrapped.init(xmlText:))
        }
    }

    /// The text or attribute at `path`, converted by your own function; required. Throw
    /// from `parse` to reject the text: the failure names the text, the type, the
    /// element and your error.
    ///
    /// ```swift
    /// .value("size") { @Sendable in try Size(parsing: $0) }
    /// ```
    ///
    /// Mark the closure `@Sendable` when you write it inside an ``XMLRecord``'s field list:
    /// Swift 6.3 does not infer it there and reports a non-`Sendable` conversion.
    public static func value(
        _ path: String, whitespace: WhitespacePolicy = .trim, parse: @escaping @Sendable (String) throws -> Value
    ) -> RecordField<Value> {
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(whitespace))) { slot, site, out in
            FieldReader.required(slot, site, into: out, parse)
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
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .items(.trim)), reader: FieldReader.many(Element.self))
    }

    /// A nested record built from the element at `path` (the first, if several); required.
    /// The nested record's own pattern is not used: `path` says where it is.
    ///
    /// ```swift
    /// .record("author", user)
    /// ```
    public static func record<Model>(_ path: String, _ record: XMLRecord<Model>) -> RecordField<Model> {
        let name = record.plan.name
        return .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .record(record.plan))) { slot, site, out in
            guard case .records(let values) = slot, let first = values.first else {
                return FieldFailures([site.failure(.missing, at: nil)])
            }
            guard let model = first as? Model else {
                let wrongType = ValueConversionError("\(name) built the wrong type")
                return FieldFailures([site.failure(.builder(underlying: wrongType), at: nil)])
            }
            out.initialize(as: Model.self, to: model)
            return nil
        }
    }

    /// A list of nested records, one for each element at `path`, in document order;
    /// `[]` when there are none. Records skipped by their failure policy are left out.
    ///
    /// ```swift
    /// .many("animals/animal", animal)
    /// ```
    public static func many<Model>(_ path: String, _ record: XMLRecord<Model>) -> RecordField<[Model]> {
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .records(record.plan))) { slot, _, out in
            var models: [Model] = []
            if case .records(let values) = slot { models = values.compactMap { $0 as? Model } }
            out.initialize(as: [Model].self, to: models)
            return nil
        }
    }

    /// Any field made optional: `nil` where the field would fail because its element or
    /// attribute is absent, marked nil, or empty (its type has no value for empty text, as
    /// <doc:EmptyValues> says). Conversion failures of other text still fail.
    ///
    /// ```swift
    /// .optional(.record("media", media))
    /// .optional(.date("published", format: .rfc822))
    /// ```
    public static func optional<Wrapped>(_ field: RecordField<Wrapped>) -> RecordField<Wrapped?> {
        let read = field.readClosure
        return .init(plan: field.plan) { slot, site, out in
            withUnsafeTemporaryAllocation(of: Wrapped.self, capacity: 1) { value in
                guard let base = value.baseAddress else { preconditionFailure("a temporary allocation of at least one byte has an address") }
                if let failures = read(slot, site, UnsafeMutableRawPointer(base)) {
                    guard failures.areAbsencesOrEmptyText else { return failures }
                    out.initialize(as: Wrapped?.self, to: nil)
                } else {
                    out.initialize(as: Wrapped?.self, to: base.move())
                }
                return nil
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
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site, out in
            FieldReader.required(slot, site, into: out, format.date(from:))
        }
    }
}

extension RecordField where Value == Date? {
    /// The text or attribute at `path` read as a date in `format`, or `nil` when it is
    /// absent, marked nil or empty (<doc:EmptyValues>). Text that is not empty and not a
    /// date in `format` still fails.
    ///
    /// `emptyAsNil` is kept for source compatibility: no date is empty text, so an empty
    /// element is `nil` whatever it says.
    ///
    /// ```swift
    /// .date("published", as: Date?.self, format: .rfc822)   // <published/> → nil
    /// ```
    public static func date(
        _ path: String, as type: Date?.Type, format: DateFormat = .iso8601, emptyAsNil: Bool = false
    ) -> RecordField<Date?> {
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .text(.trim))) { slot, site, out in
            FieldReader.optional(slot, site, emptyAsNil: emptyAsNil, into: out, format.date(from:))
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
        .init(plan: FieldPlan(path: RecordFieldPath(stringLiteral: path), capture: .items(.trim))) { slot, site, out in
            FieldReader.many(slot, site, into: out, format.date(from:))
        }
    }
}
