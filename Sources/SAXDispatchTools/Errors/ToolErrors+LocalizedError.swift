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

    /// The shape a `--limit` setting has.
    public var recoverySuggestion: String? {
        "Write --limit NAME=VALUE, with a count, a size such as 16M, or unlimited (see 'saxdispatch check --help')."
    }
}

extension ExtractFieldError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }

    /// The shape a `--field` argument has.
    public var recoverySuggestion: String? {
        "Write --field [NAME=]RELPATH[:TYPE], with RELPATH relative to the record element (see 'saxdispatch extract --help')."
    }
}

extension NamespaceArgumentError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }

    /// The shape a `-N` argument has.
    public var recoverySuggestion: String? { "Write -N PREFIX=URI." }
}
