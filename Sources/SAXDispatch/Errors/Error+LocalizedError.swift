#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Every public error is a `LocalizedError` whose `errorDescription` is its `description`,
// so `error.localizedDescription` in an app shows the compiler-style line (file, line,
// column, element path) instead of "The operation could not be completed".

extension XMLParseError: LocalizedError {
    /// The same text as ``description``: `SOURCE:LINE:COLUMN: error: MESSAGE (in PATH)`.
    public var errorDescription: String? { description }
}

extension XMLInputError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension HandlerError: LocalizedError {
    /// The same text as ``description``: where the handler threw, then its error's description.
    public var errorDescription: String? { description }
}

extension XMLRecordError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension XMLDecodingError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension ValueConversionError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension XMLPatternError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
