#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The tools' public errors read the same through `localizedDescription` as through
// `description`, like the library's.

extension LimitSettingError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension PathCensus.TooManyPaths: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension ExtractFieldError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension NamespaceArgumentError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
