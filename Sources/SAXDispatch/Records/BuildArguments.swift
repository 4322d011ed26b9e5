/// Conversion to the model: the values of one record's fields, read into
/// ``BuildArgumentLayout``'s buffer at the record's end, for the build closure to take
/// out one by one in field order as its arguments.
struct BuildArguments {
    private let base: UnsafeMutableRawPointer
    private let offsets: UnsafeBufferPointer<Int>
    private var index = 0

    init(base: UnsafeMutableRawPointer, offsets: UnsafeBufferPointer<Int>) {
        self.base = base
        self.offsets = offsets
    }

    /// Moves the next field's value out; `type` must be that field's value type.
    @inline(__always)
    mutating func take<Value>(_ type: Value.Type) -> Value {
        defer { index += 1 }
        return (base + offsets[index]).assumingMemoryBound(to: Value.self).move()
    }
}
