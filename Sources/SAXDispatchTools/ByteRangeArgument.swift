/// A range of a file's bytes as written on a command line: `START-END` (END excluded) or
/// `START-` (to the end of the file), in bytes from the file's start, as
/// `saxdispatch split` prints them.
///
/// ```swift
/// ByteRangeArgument.parse("1048576-2097152")   // 1048576..<2097152
/// ByteRangeArgument.parse("5000-")             // 5000..<Int.max
/// ```
public enum ByteRangeArgument {
    /// The offsets `text` names, or `nil` when it is not `START-END` or `START-` with
    /// START at most END.
    public static func parse(_ text: String) -> Range<Int>? {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].allSatisfy(\.isASCIIDigit), let start = Int(parts[0]) else { return nil }
        if parts[1].isEmpty { return start..<Int.max }
        guard parts[1].allSatisfy(\.isASCIIDigit), let end = Int(parts[1]), start <= end else { return nil }
        return start..<end
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
