#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension String: XMLTextConvertible {
    public init(xmlText: String) {
        self = xmlText
    }
}

extension Bool: XMLTextConvertible {
    /// Accepts exactly `true`, `false`, `1` and `0`.
    ///
    /// - Throws: ``ValueConversionError`` for any other text.
    public init(xmlText: String) throws {
        switch xmlText {
        case "true", "1": self = true
        case "false", "0": self = false
        default: throw ValueConversionError("expected true, false, 1 or 0")
        }
    }
}
