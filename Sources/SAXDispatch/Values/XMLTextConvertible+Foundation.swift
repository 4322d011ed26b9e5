#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL: XMLTextConvertible {
    /// Accepts any text `URL(string:)` accepts, except empty text.
    ///
    /// - Throws: ``ValueConversionError`` for empty text or text `URL(string:)` rejects.
    public init(xmlText: String) throws {
        guard !xmlText.isEmpty, let url = URL(string: xmlText) else {
            throw ValueConversionError(xmlText.isEmpty ? "expected a URL, found empty text" : "expected a URL")
        }
        self = url
    }
}

extension Date: XMLTextConvertible {
    /// Reads ISO 8601, as ``DateFormat/iso8601`` describes.
    ///
    /// - Throws: ``ValueConversionError`` for text that is not an ISO 8601 date, or that
    ///   names no real day or time of day (`2024-02-30`, `24:30`).
    public init(xmlText: String) throws {
        self = try DateFormat.iso8601.date(from: xmlText)
    }
}
