/// A compression format the package decompresses, recognized by the magic bytes its
/// streams begin with.
///
/// Formats are an open set of values, like an error code: a later release may read more.
///
/// ```swift
/// let format = CompressionFormat(detecting: [0x1F, 0x8B, 0x08])   // .gzip
/// print(format?.name ?? "not compressed")
/// ```
public struct CompressionFormat: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The format's usual name in messages: `gzip`, `bzip2`, `xz`, `zstd`.
    public var rawValue: String

    /// Creates a format from its name; the package decompresses only its static members.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// gzip (RFC 1952): bytes `1F 8B`; a file may hold several members, read one after another.
    public static let gzip = CompressionFormat(rawValue: "gzip")
    /// bzip2: bytes `BZh`; a file may hold several streams (as `pbzip2` writes), read one after another.
    public static let bzip2 = CompressionFormat(rawValue: "bzip2")
    /// xz: bytes `FD 37 7A 58 5A 00`; concatenated streams and stream padding are read.
    public static let xz = CompressionFormat(rawValue: "xz")
    /// Zstandard: bytes `28 B5 2F FD` (or a skippable frame); every frame of a file is read.
    public static let zstd = CompressionFormat(rawValue: "zstd")

    /// The formats the package decompresses.
    public static let all: [CompressionFormat] = [.gzip, .bzip2, .xz, .zstd]

    /// The format's name, as in messages.
    public var name: String { rawValue }

    /// The same as ``name``.
    public var description: String { rawValue }

    /// The longest prefix ``init(detecting:)`` looks at: hand it at least this many bytes
    /// when the input has them.
    public static let magicLength = 6

    /// The format whose magic bytes `prefix` begins with, or `nil` when it begins with none
    /// of them (an XML document never does: its first byte is `<`, whitespace or a byte
    /// order mark).
    ///
    /// ```swift
    /// CompressionFormat(detecting: Array("BZh91AY&SY".utf8))   // .bzip2
    /// CompressionFormat(detecting: Array("<zoo/>".utf8))       // nil
    /// ```
    public init?(detecting prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(Self.magicLength))
        if bytes.starts(with: [0x1F, 0x8B]) {
            self = .gzip
        } else if bytes.starts(with: [0x42, 0x5A, 0x68]) {
            self = .bzip2
        } else if bytes.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) {
            self = .xz
        } else if bytes.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) || Self.isSkippableZstdFrame(bytes) {
            self = .zstd
        } else {
            return nil
        }
    }

    /// The format whose magic bytes `prefix` is the beginning of, but not all: the whole
    /// input when it ends that soon (a well-formed document never begins so).
    init?(beginningOfMagic prefix: some Collection<UInt8>) {
        let bytes = Array(prefix)
        let magics: [(CompressionFormat, [UInt8])] = [
            (.gzip, [0x1F, 0x8B]), (.bzip2, [0x42, 0x5A, 0x68]), (.xz, [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
            (.zstd, [0x28, 0xB5, 0x2F, 0xFD]),
        ]
        guard !bytes.isEmpty,
            let match = magics.first(where: { bytes.count < $0.1.count && $0.1.starts(with: bytes) })
        else { return nil }
        self = match.0
    }

    /// A zstd skippable frame's magic number, `0x184D2A50` to `0x184D2A5F`, little-endian.
    private static func isSkippableZstdFrame(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && bytes[0] & 0xF0 == 0x50 && bytes[1] == 0x2A && bytes[2] == 0x4D && bytes[3] == 0x18
    }
}
