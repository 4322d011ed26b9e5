#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The error a record's parse call threw when it found no element matching the record's
/// pattern: no longer thrown.
///
/// A record that could not be built, for want of an element or because its fields failed,
/// is one error, ``XMLRecordError``: this case is its ``XMLRecordError/Kind/notFound(pattern:skipped:)``,
/// with the same description. A `catch` of this type catches nothing: catch
/// ``XMLRecordError`` instead.
@available(*, deprecated, message: "no longer thrown: a record not found is an XMLRecordError of kind .notFound")
public struct RecordNotFoundError: Error, CustomStringConvertible, Sendable, LocalizedError {
    /// The record's name: its model type unless ``XMLRecord/named(_:)`` gave another.
    public var recordName: String
    /// The record's pattern, which no element matched, in its canonical spelling.
    public var pattern: String
    /// Where the input came from (a file path), when known.
    public var source: String?
    /// How many elements did match but were set aside by the record's failure policy
    /// (``XMLRecord/onFailure(_:)``); 0 when none matched at all.
    public var skipped: Int = 0

    /// The same text as ``XMLRecordError``'s for ``XMLRecordError/Kind/notFound(pattern:skipped:)``.
    public var description: String {
        XMLRecordError(recordName: recordName, notFound: pattern, skipped: skipped, source: source).description
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
