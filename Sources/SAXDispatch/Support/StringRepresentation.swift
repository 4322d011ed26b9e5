/// A first test of two strings' equality by how they are stored, for lookups that compare
/// a name given as a literal with the names met before: such a name has the same bits
/// every time, and equal bits mean equal strings. Unequal bits say nothing (a string built
/// from bytes is equal to a literal stored otherwise), so a lookup compares the contents
/// next.
extension String {
    /// Whether `self` and `other` have the same representation (then they are equal). Where
    /// a string is not two 64-bit words (32-bit targets), this compares their contents.
    @inline(__always)
    func isStoredAlike(_ other: String) -> Bool {
        // Decided when compiled: the cast below runs only where the sizes agree.
        guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return self == other }
        return unsafeBitCast(self, to: (UInt64, UInt64).self) == unsafeBitCast(other, to: (UInt64, UInt64).self)
    }
}
