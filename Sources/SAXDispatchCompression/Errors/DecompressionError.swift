#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A compressed input that cannot be decompressed: truncated, corrupt, followed by bytes
/// that start no stream, or needing a library or more memory than it may have.
///
/// A parse throws it after the events of everything decoded before the failure:
///
/// ```swift
/// do {
///     try dispatcher.parse(.decompressing(.file("dump.xml.gz")))
/// } catch let error as DecompressionError {
///     print(error)   // dump.xml.gz: error: truncated gzip input: it ends inside a member (compressed byte 48213)
/// }
/// ```
public struct DecompressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name of the input, as errors of the parse print it.
    public var name: String
    /// The format being decompressed.
    public var format: CompressionFormat
    /// What went wrong, as a code to match on.
    public var code: Code
    /// What went wrong, in words, such as `invalid block type` (from the library where it says).
    public var message: String
    /// How many compressed bytes of the input come before the failure, where the library
    /// says: the position the decompressor had reached; the input's length for a truncated one.
    public var compressedOffset: Int?

    /// Creates an error; the decompressing readers make these.
    public init(name: String, format: CompressionFormat, code: Code, message: String, compressedOffset: Int?) {
        self.name = name
        self.format = format
        self.code = code
        self.message = message
        self.compressedOffset = compressedOffset
    }

    /// `NAME: error: MESSAGE (compressed byte N)`, like the tool prints it.
    public var description: String {
        let offset = compressedOffset.map { " (compressed byte \($0))" } ?? ""
        return "\(name): error: \(message)\(offset)"
    }

    /// What kind of failure a ``DecompressionError`` is: an open set, as the libraries may
    /// report new failures.
    ///
    /// ```swift
    /// if error.code == .truncated { print("the download stopped early") }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The input ends inside a stream (a member, a frame, a block).
        public static let truncated = Code(rawValue: "truncated")
        /// The compressed bytes are not valid: bad headers, a bad block, a failed checksum.
        public static let corrupt = Code(rawValue: "corrupt")
        /// Bytes follow the last stream that do not start another one of the same format.
        public static let trailingData = Code(rawValue: "trailingData")
        /// The stream needs more memory to decode than the decompressor allows (an xz
        /// dictionary or a zstd window larger than the library's limit), or memory ran out.
        public static let memoryLimit = Code(rawValue: "memoryLimit")
        /// The library for the format cannot be loaded (zstd needs libzstd at run time).
        public static let libraryUnavailable = Code(rawValue: "libraryUnavailable")

        /// The same as ``rawValue``.
        public var description: String { rawValue }
    }
}

extension DecompressionError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// What kind of failure the ``code`` is, in a sentence.
    public var failureReason: String? {
        switch code {
        case .truncated: "The compressed input ends before its last stream does."
        case .corrupt: "The compressed bytes are damaged."
        case .trailingData: "Bytes that start no compressed stream follow the last one."
        case .memoryLimit: "Decompressing the input needs more memory than the decompressor may use."
        case .libraryUnavailable: "The library that decompresses this format cannot be loaded."
        default: nil
        }
    }

    /// What to do about a truncated or damaged input, or a missing library.
    public var recoverySuggestion: String? {
        switch code {
        case .truncated, .corrupt: "Download or copy the file again: it was cut short or changed on the way."
        case .libraryUnavailable: "Install the format's library (libzstd for zstd) where the program can load it."
        default: nil
        }
    }
}
