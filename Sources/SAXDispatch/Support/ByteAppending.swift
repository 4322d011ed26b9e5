/// Where ``XMLEscaping`` appends bytes: an array, or a buffer such as the writer's
/// (``TextBuffer``), which appends a short piece without a call.
protocol ByteAppending: ~Copyable {
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer)
}

extension Array: ByteAppending where Element == UInt8 {
    @inline(__always)
    mutating func appendBytes(_ bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes)
    }
}

extension ByteAppending where Self: ~Copyable {
    /// Appends a literal's UTF-8 bytes.
    @inline(__always)
    mutating func appendBytes(_ literal: StaticString) {
        appendBytes(UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
