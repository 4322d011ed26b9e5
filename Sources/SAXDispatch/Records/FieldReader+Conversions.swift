// The conversions from captured text shared by the field constructors and the standard
// kinds' readers. Each writes the field's value into `out` (uninitialized memory for it)
// or returns the failures and leaves `out` as it was.
extension FieldReader {
    static func required<Value>(
        _ slot: CapturedField, _ site: FieldReadContext, into out: UnsafeMutableRawPointer, _ parse: (String) throws -> Value
    ) -> FieldFailures? {
        switch slot {
        case .text(let text, let occurrence):
            return site.convert(text, at: occurrence, into: out, parse)
        case .markedNil(let occurrence):
            return FieldFailures([site.failure(.markedNil, at: occurrence)])
        // A converted value is read by its kind's reader (``FieldReader/read(_:_:_:into:)``)
        // and never comes here.
        case .empty, .pending, .items, .records, .converted:
            return FieldFailures([site.failure(.missing, at: nil)])
        }
    }

    /// Reads a required `Value`. The standard numeric types, `Bool` and `String` get code
    /// of their own (``FieldReader``), which converts directly instead of through the
    /// protocol and a closure.
    static func required<Value: XMLTextConvertible>(_ type: Value.Type) -> FieldReader {
        if Value.self == Double.self { return .double }
        if Value.self == Int.self { return .int }
        if Value.self == Bool.self { return .bool }
        if Value.self == String.self { return .text }
        return .closure { required($0, $1, into: $2, Value.init(xmlText:)) }
    }

    static func optional<Value>(
        _ slot: CapturedField, _ site: FieldReadContext, emptyAsNil: Bool, into out: UnsafeMutableRawPointer,
        _ parse: (String) throws -> Value
    ) -> FieldFailures? {
        guard case .text(let text, let occurrence) = slot, !(emptyAsNil && text.isEmpty) else {
            out.initialize(as: Value?.self, to: nil)
            return nil
        }
        if text.isEmpty {
            // Present but empty: the type's value for empty text, or nil when it has none.
            out.initialize(as: Value?.self, to: try? parse(text))
            return nil
        }
        do {
            out.initialize(as: Value?.self, to: try parse(text))
            return nil
        } catch {
            return FieldFailures([site.conversionFailure(text, as: Value.self, error, at: occurrence)])
        }
    }

    /// Reads a list of `Element`. The standard element types get code of their own
    /// (``FieldReader``): the generic code asks the runtime for `[Element]`'s metadata for
    /// every record.
    static func many<Element: XMLTextConvertible>(_ type: Element.Type) -> FieldReader {
        if Element.self == String.self { return .strings }
        if Element.self == Int.self { return .ints }
        if Element.self == Double.self { return .doubles }
        return .closure { many($0, $1, into: $2, Element.init(xmlText:)) }
    }

    static func many<Element>(
        _ slot: CapturedField, _ site: FieldReadContext, into out: UnsafeMutableRawPointer, _ parse: (String) throws -> Element
    ) -> FieldFailures? {
        var values: [Element] = []
        var failures: [FieldFailure] = []
        if case .items(let items) = slot {
            values.reserveCapacity(items.count)
            for item in items where !item.isNil {
                guard let text = item.text else { continue }
                do {
                    values.append(try parse(text))
                } catch {
                    failures.append(site.conversionFailure(text, as: Element.self, error, at: item.occurrence))
                }
            }
        }
        guard failures.isEmpty else { return FieldFailures(failures) }
        out.initialize(as: [Element].self, to: values)
        return nil
    }
}
