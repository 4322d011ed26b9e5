/// Bytes gathered for a sink and handed to it in pieces of about 64 KiB: the buffering
/// that the tool's streamed outputs (extracted rows, the event log) share.
struct OutputBuffer {
    /// What is written and not yet handed on; append to it directly.
    var bytes: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) -> Void
    /// The size from which ``flushIfFull()`` hands the bytes on.
    static let flushThreshold = 1 << 16

    init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        bytes.reserveCapacity(Self.flushThreshold + 4096)
    }

    /// Hands the bytes on once they pass the threshold.
    @inline(__always)
    mutating func flushIfFull() {
        if bytes.count >= Self.flushThreshold { flush() }
    }

    /// Hands everything written so far to the sink.
    mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { sink($0) }
        bytes.removeAll(keepingCapacity: true)
    }
}
