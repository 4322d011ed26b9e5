#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Every public error is a `LocalizedError` whose `errorDescription` is its `description`,
// so `error.localizedDescription` in an app shows the compiler-style line (file, line,
// column, element path) instead of "The operation could not be completed". Where there is
// something to add, `failureReason` says what kind of failure it is and
// `recoverySuggestion` what to change. `XMLParseError`'s are in its own file.

extension XMLInputError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// `The input could not be read.`
    public var failureReason: String? { "The input could not be read." }

    /// For a file that does not exist or may not be read, to check its path or permissions.
    public var recoverySuggestion: String? {
        switch errorNumber {
        case ENOENT, ENOTDIR: "Check the path: no file exists there."
        case EACCES, EPERM: "Check the file's permissions."
        default: nil
        }
    }
}

extension HandlerError: LocalizedError {
    /// The same text as ``description``: where the handler threw, then its error's description.
    public var errorDescription: String? { description }

    /// The underlying error's reason when it gives one, otherwise that a handler threw.
    public var failureReason: String? {
        (underlying as? any LocalizedError)?.failureReason ?? "A \(event.rawValue) handler threw an error."
    }

    /// The underlying error's suggestion, when it gives one.
    public var recoverySuggestion: String? { (underlying as? any LocalizedError)?.recoverySuggestion }
}

extension XMLRecordError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// How many fields failed, or that no element matched.
    public var failureReason: String? {
        switch kind {
        case .fieldsFailed:
            failures.count == 1
                ? "A field of record \(recordName) could not be filled."
                : "\(failures.count) fields of record \(recordName) could not be filled."
        case .notFound(let pattern, 0):
            "The document has no element matching \(pattern)."
        case .notFound(let pattern, let skipped):
            "All \(skipped) elements matching \(pattern) failed, and the failure policy skipped them."
        }
    }

    /// What to change in the record: its fields, its failure policy, or its pattern.
    public var recoverySuggestion: String? {
        switch kind {
        case .fieldsFailed:
            "Make the fields that may be absent optional, or set a failure policy (onFailure(.skip)) to go past records that do not fit."
        case .notFound:
            "Check the record's pattern against the document's element names (saxdispatch paths lists them)."
        }
    }
}

extension XMLDecodingError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// What the standard error says in words: a key with no element or attribute, a value
    /// marked nil, or a text that does not convert.
    public var failureReason: String? {
        switch underlying {
        case .keyNotFound: "A property of the type has no element or attribute in the document."
        case .valueNotFound: "A property that is not optional has no value in the document."
        case .typeMismatch, .dataCorrupted: "A value in the document does not convert to the property's type."
        @unknown default: nil
        }
    }

    /// For a missing key or value, to make the property optional.
    public var recoverySuggestion: String? {
        switch underlying {
        case .keyNotFound, .valueNotFound: "Declare the property optional if the document may leave it out."
        default: nil
        }
    }
}

extension ValueConversionError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

extension XMLPatternError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// What the text was meant to be.
    public var failureReason: String? {
        switch kind {
        case .elementPattern: "The text is not a valid element pattern."
        case .fieldPath: "The text is not a valid record field path."
        case .namespaceBinding: "The namespace binding breaks a rule of XML namespaces."
        }
    }

    /// The shape the text must have.
    public var recoverySuggestion: String? {
        switch kind {
        case .elementPattern:
            "Write element names separated by '/', with '//' for any depth, '*' for any name and a leading '/' to start at the root."
        case .fieldPath:
            "Write element names relative to the record, separated by '/', optionally ending in '@attribute'; '.' is the record element."
        case .namespaceBinding:
            "Bind each prefix once, to a non-empty URI; 'xml' and 'xmlns' are reserved."
        }
    }
}
