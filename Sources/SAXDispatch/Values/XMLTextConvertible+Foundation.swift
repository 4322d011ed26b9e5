#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension URL: XMLTextConvertible {
    /// Reads a URL strictly: text with a space, a character outside ASCII, or any other
    /// character a URL cannot hold unencoded is rejected, not percent-encoded.
    ///
    /// `<link>not a url with spaces</link>` is a conversion failure, as it is for
    /// `URL(string:encodingInvalidCharacters: false)`: newer Foundation releases would
    /// otherwise read it as `not%20a%20url%20with%20spaces`. For documents that write
    /// such text and mean a URL, read it with ``init(xmlText:encodingInvalidCharacters:)``.
    ///
    /// ```swift
    /// .value("link", as: URL.self)   // <link>https://example.org/a b</link> fails
    /// ```
    ///
    /// - Throws: ``ValueConversionError`` for empty text or text that is not a URL.
    public init(xmlText: String) throws {
        try self.init(xmlText: xmlText, encodingInvalidCharacters: false)
    }

    /// Reads a URL, percent-encoding the characters a URL cannot hold when
    /// `encodingInvalidCharacters` is `true` (`https://example.org/a b` reads as
    /// `https://example.org/a%20b`, `ü` as `%C3%BC`), or rejecting them when it is `false`
    /// (what ``init(xmlText:)`` does).
    ///
    /// The lenient reading is Foundation's `URL(string:encodingInvalidCharacters: true)`.
    /// On Apple releases before macOS 14, iOS 17, tvOS 17 and watchOS 10, which lack it,
    /// both readings are strict. Text that stays no URL after encoding (`http://[::1`) is
    /// still rejected.
    ///
    /// Use it in a record field of your own, or in a `Decodable` type through
    /// ``XMLRecordDecoder/encodesInvalidCharactersInURLs``:
    ///
    /// ```swift
    /// .value("link") { @Sendable in try URL(xmlText: $0, encodingInvalidCharacters: true) }
    /// ```
    ///
    /// - Throws: ``ValueConversionError`` for empty text or text that is not a URL.
    public init(xmlText: String, encodingInvalidCharacters: Bool) throws {
        guard !xmlText.isEmpty else { throw ValueConversionError("expected a URL, found empty text") }
        let url: URL?
        if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
            url = URL(string: xmlText, encodingInvalidCharacters: encodingInvalidCharacters)
        } else {
            // Before these releases `URL(string:)` is strict itself.
            url = URL(string: xmlText)
        }
        guard let url else {
            throw ValueConversionError(
                encodingInvalidCharacters
                    ? "expected a URL" : "expected a URL, with spaces and characters outside ASCII percent-encoded")
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
