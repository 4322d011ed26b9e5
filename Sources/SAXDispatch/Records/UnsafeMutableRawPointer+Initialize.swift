extension UnsafeMutableRawPointer {
    /// Initializes the memory here with one value of type `T`: what
    /// `initializeMemory(as:repeating:count: 1)` does, without the loop that generic code
    /// otherwise calls out of line for every field of every record.
    @inline(__always)
    func initialize<T>(as type: T.Type, to value: consuming T) {
        bindMemory(to: T.self, capacity: 1).initialize(to: value)
    }
}
