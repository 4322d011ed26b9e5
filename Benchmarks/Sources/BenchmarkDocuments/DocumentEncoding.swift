#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The encodings a benchmark document can be written in. Every document is generated in
/// UTF-8 and converted chunk by chunk, so the twins of one document hold the same
/// characters and a reader of any of them must report the same counts and UTF-8 lengths.
public enum DocumentEncoding: String, CaseIterable, Sendable {
    case utf8 = "UTF-8"
    case shiftJIS = "Shift_JIS"
    case eucJP = "EUC-JP"
    case gb18030 = "GB18030"

    /// The name the XML declaration gives: the IANA name, which is also the raw value.
    public var declaredName: String { rawValue }

    /// The name of the encoding for iconv. The Japanese text avoids `\` and `~`, which
    /// glibc's SHIFT_JIS reads as `¥` and `‾`, so the bytes below 0x80 are ASCII in every
    /// twin, as a reader through expat's map takes them.
    var iconvName: String {
        switch self {
        case .utf8: return "UTF-8"
        case .shiftJIS: return "SHIFT_JIS"
        case .eucJP: return "EUC-JP"
        case .gb18030: return "GB18030"
        }
    }

    /// `encoding` by its declared name, in any case.
    public init?(named name: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = match
    }
}

/// Converts generated UTF-8 chunks to another encoding. A chunk always ends after a whole
/// record, so it never ends inside a character, and each is converted on its own.
final class ChunkConverter {
    private let descriptor: iconv_t
    private let encoding: DocumentEncoding
    private var output: [UInt8] = []

    init?(to encoding: DocumentEncoding) {
        let opened = iconv_open(encoding.iconvName, "UTF-8")
        guard let opened, opened != iconv_t(bitPattern: -1) else { return nil }
        descriptor = opened
        self.encoding = encoding
    }

    deinit { iconv_close(descriptor) }

    struct ConversionError: Error, CustomStringConvertible {
        let encoding: DocumentEncoding
        let offset: Int
        var description: String { "a generated character has no \(encoding.rawValue) form (chunk offset \(offset))" }
    }

    /// The chunk in the target encoding; throws when a character has no form in it.
    func convert(_ chunk: [UInt8]) throws -> [UInt8] {
        // No target encoding here spends more than four bytes on a character, nor UTF-8 fewer than one.
        if output.count < chunk.count * 4 { output = [UInt8](repeating: 0, count: chunk.count * 4) }
        let written: Int = try chunk.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { out in
                var source: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
                    mutating: input.baseAddress!.assumingMemoryBound(to: CChar.self))
                var sourceLeft = input.count
                var target: UnsafeMutablePointer<CChar>? = out.baseAddress!.assumingMemoryBound(to: CChar.self)
                var targetLeft = out.count
                let result = iconv(descriptor, &source, &sourceLeft, &target, &targetLeft)
                if result == -1 || sourceLeft != 0 {
                    throw ConversionError(encoding: encoding, offset: input.count - sourceLeft)
                }
                return out.count - targetLeft
            }
        }
        return Array(output[..<written])
    }
}
