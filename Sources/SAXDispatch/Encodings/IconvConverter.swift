#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One conversion descriptor of the platform's iconv (glibc's on Linux, libiconv on Apple
/// platforms) from an encoding to UTF-8. The corresponding C functions are `iconv_open`,
/// `iconv` and `iconv_close`.
///
/// Only what both implementations share is used: `iconv_t` is a pointer in both (an
/// invalid descriptor is `(iconv_t)-1`), the conversion reports `E2BIG`, `EINVAL` and
/// `EILSEQ` through `errno`, and a call with no input returns to the initial shift state.
/// On Apple platforms iconv is a library of its own, which Package.swift links.
///
/// Used by the encodings expat does not read itself (``EncodingCatalog``): to fill an
/// unknown-encoding map and convert its multi-byte sequences, and by the
/// ``EncodingTranscoder`` that converts whole documents ahead of expat.
final class IconvConverter {
    /// What one call of ``convert(_:into:)`` ended with.
    enum Status {
        /// All input was converted.
        case complete
        /// The output buffer is full; call again with the rest of the input.
        case outputFull
        /// The input ends inside a character (or an escape sequence): the rest is incomplete.
        case incomplete
        /// The input holds a sequence that is not valid in the encoding.
        case invalid
    }

    private let descriptor: iconv_t

    /// Opens a converter from `encoding` (a name iconv knows) to `target`, or nil when
    /// iconv does not know it.
    init?(from encoding: String, to target: String = "UTF-8") {
        let opened = iconv_open(target, encoding)
        guard let opened, opened != iconv_t(bitPattern: -1) else { return nil }
        descriptor = opened
    }

    deinit { iconv_close(descriptor) }

    /// Whether iconv can convert `encoding` to UTF-8.
    static func knows(_ encoding: String) -> Bool { IconvConverter(from: encoding) != nil }

    /// Returns the converter to its initial shift state (stateful encodings such as ISO-2022-JP).
    func reset() {
        _ = iconv(descriptor, nil, nil, nil, nil)
    }

    /// Converts from the start of `input` into the start of `output`.
    /// - Returns: How the call ended, how many input bytes it consumed and how many
    ///   output bytes it wrote.
    func convert(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        -> (status: Status, consumed: Int, written: Int)
    {
        guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else {
            return (input.isEmpty ? .complete : .outputFull, 0, 0)
        }
        var source: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: inputBase)
            .assumingMemoryBound(to: CChar.self)
        var sourceLeft = input.count
        var target: UnsafeMutablePointer<CChar>? = outputBase.assumingMemoryBound(to: CChar.self)
        var targetLeft = output.count
        let result = iconv(descriptor, &source, &sourceLeft, &target, &targetLeft)
        let consumed = input.count - sourceLeft
        let written = output.count - targetLeft
        // `errno` is read before anything else can change it.
        let error = errno
        guard result == -1 else { return (.complete, consumed, written) }
        switch error {
        case E2BIG: return (.outputFull, consumed, written)
        case EINVAL: return (.incomplete, consumed, written)
        default: return (.invalid, consumed, written)
        }
    }

    /// The one Unicode scalar value that `bytes` encode whole, or nil when they are
    /// invalid, incomplete, or encode anything else. Leaves the converter in its initial state.
    func scalar(of bytes: UnsafeRawBufferPointer) -> UInt32? {
        var output: (UInt64, UInt64) = (0, 0)
        let (status, consumed, written) = withUnsafeMutableBytes(of: &output) { convert(bytes, into: $0) }
        reset()
        guard status == .complete, consumed == bytes.count, written > 0 else { return nil }
        return withUnsafeBytes(of: &output) { utf8 in
            var decoder = UTF8()
            var iterator = utf8[..<written].makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator), iterator.next() == nil else {
                return nil
            }
            return scalar.value
        }
    }
}
