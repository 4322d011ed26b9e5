#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SAXDispatch

/// One cell of an extracted row: a field's converted value, ready to be written as
/// JSON, CSV or TSV.
public enum ExtractedValue: Sendable, Hashable {
    case null
    case string(String)
    case integer(Int)
    case number(Double)
    case decimal(Decimal)
    case boolean(Bool)
    case date(Date)
    case list([ExtractedValue])
}

extension ExtractField {
    /// The record field that reads this column and converts it to an ``ExtractedValue``.
    var recordField: RecordField<ExtractedValue> {
        let path = self.path.description
        switch type {
        case .string: return column(path, String.self) { .string($0) }
        case .int: return column(path, Int.self) { .integer($0) }
        case .double: return column(path, Double.self) { .number($0) }
        case .decimal: return column(path, Decimal.self) { .decimal($0) }
        case .bool: return column(path, Bool.self) { .boolean($0) }
        case .url: return column(path, URL.self) { .string($0.absoluteString) }
        case .date: return dateColumn(path, .iso8601)
        case .rfc822Date: return dateColumn(path, .rfc822)
        case .epochDate: return dateColumn(path, .secondsSince1970)
        }
    }

    private func column<Value: XMLTextConvertible>(
        _ path: String, _ type: Value.Type, _ wrap: @escaping @Sendable (Value) -> ExtractedValue
    ) -> RecordField<ExtractedValue> {
        switch arity {
        case .required:
            RecordField.value(path, as: type).textScope(scope).map(wrap).named(name)
        case .optional:
            RecordField<Value?>.value(path, as: Value?.self).textScope(scope).map { $0.map(wrap) ?? .null }
                .named(name)
        case .list:
            RecordField<[Value]>.many(path, as: type).textScope(scope).map { .list($0.map(wrap)) }.named(name)
        }
    }

    private func dateColumn(_ path: String, _ format: DateFormat) -> RecordField<ExtractedValue> {
        switch arity {
        case .required:
            RecordField.date(path, format: format).textScope(scope).map { .date($0) }.named(name)
        case .optional:
            RecordField<Date?>.date(path, as: Date?.self, format: format).textScope(scope)
                .map { $0.map { .date($0) } ?? .null }.named(name)
        case .list:
            RecordField<[Date]>.many(path, as: Date.self, format: format).textScope(scope).map { .list($0.map { .date($0) }) }
                .named(name)
        }
    }
}
