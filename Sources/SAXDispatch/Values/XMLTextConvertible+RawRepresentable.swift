#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension XMLTextConvertible where Self: RawRepresentable, RawValue: XMLTextConvertible {
    /// Converts the text to the raw value, then to a case.
    ///
    /// - Throws: What the raw value type's `init(xmlText:)` throws for text it does not
    ///   accept, or ``ValueConversionError`` for a raw value that names no case.
    public init(xmlText: String) throws {
        guard let value = Self(rawValue: try RawValue(xmlText: xmlText)) else {
            throw ValueConversionError("expected one of the values of \(Self.self)")
        }
        self = value
    }
}
