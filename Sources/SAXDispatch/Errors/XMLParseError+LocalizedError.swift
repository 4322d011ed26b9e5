#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// An app that shows `localizedDescription` shows the compiler-style line; one that shows
// an alert's reason and suggestion gets what kind of failure it is and, for a limit, the
// setting that bounds it. The texts are built from the code alone, so they hold for every
// way a parse can end.

extension XMLParseError: LocalizedError {
    /// The same text as ``description``: `SOURCE:LINE:COLUMN: error: MESSAGE (in PATH)`.
    public var errorDescription: String? { description }

    /// What kind of failure it is: a broken limit, a forbidden construct, an input that
    /// ended too early, or a document that is not well-formed XML.
    public var failureReason: String? {
        switch code {
        case .truncated:
            "The input ended before the document was complete."
        case .externalEntityForbidden:
            "The document refers to an external entity, and external entities are never read."
        case .internalSubsetForbidden:
            "The document's DOCTYPE has an internal subset, which the safety profile does not allow."
        case .streamBacklogExceeded:
            "One entity reference expanded to more values than a stream's consumer may leave waiting."
        case .noMemory, .memoryLimitExceeded:
            "The parser needed more memory than it may use."
        case _ where isLimit:
            "The document breaks a limit that bounds the memory a parse may use."
        default:
            "The document is not well-formed XML."
        }
    }

    /// For a limit, the setting to raise if the input is trusted (named in the message);
    /// for a truncated input, to check that all of it was read; `nil` otherwise.
    public var recoverySuggestion: String? {
        switch code {
        case .truncated:
            return "Check that the whole input was read: a download or a copy may have been cut short."
        case .internalSubsetForbidden:
            return "If the input is trusted, set SafetyProfile.allowsInternalSubset."
        case _ where isLimit:
            guard let setting = limitSetting else { return nil }
            return "If the input is trusted, raise \(setting)\(limit.map { " (now \($0))" } ?? "")."
        default:
            return nil
        }
    }

    /// Whether the code is one of the library's `…LimitExceeded` codes.
    private var isLimit: Bool {
        code == .depthLimitExceeded || code == .attributeLimitExceeded || code == .nameLimitExceeded
            || code == .tokenLimitExceeded || code == .textLimitExceeded || code == .entityLimitExceeded
            || code == .memoryLimitExceeded || code == .streamBacklogExceeded || code == .recordSizeLimitExceeded
    }

    /// The setting a limit's message names (`maximumDepth`, `maximumRecordBytes`, …).
    private var limitSetting: String? {
        message.split(whereSeparator: { !$0.isLetter }).first { $0.hasPrefix("maximum") }.map(String.init)
    }
}
