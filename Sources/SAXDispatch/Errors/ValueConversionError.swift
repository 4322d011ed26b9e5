#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a text could not become a value, thrown by the standard conversions.
public struct ValueConversionError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was expected, in words (`expected true, false, 1 or 0`).
    public var reason: String

    /// Creates an error saying what was expected, in words.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// The ``reason``.
    public var description: String { reason }
}
