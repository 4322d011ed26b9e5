/// The distinct names a parser interned for its whole life, logged while a range of a
/// document is parsed on its own, so that what one parse of the whole document would hold
/// can be bounded from the ranges' logs (``InternedNames``).
///
/// Expat keeps every distinct element name, attribute name and namespace prefix it met
/// until the parser is freed, and the dispatcher's name table keeps each element name it
/// dispatched; nothing else a parse holds grows with the document. The element names of
/// dispatched start tags are the dispatcher's table already: the log keeps those of
/// skipped subtrees, which the dispatcher does not intern, every attribute name and every
/// declared prefix.
///
/// The driver hands the log only the start tags before which expat allocated: expat
/// allocates an entry for every name it interns for the first time at a start tag, so a
/// tag with no allocation since the last one logged holds only names the parser knew,
/// which a tag logged before held (``ExpatDriver/admitsStartTag(_:_:skipped:)``). Names
/// the DTD declared are interned before any tag and may never be logged: a range repeats
/// the prolog, so they are in its parser's peak (``InternedNames/peakBytes``), which the
/// bound counts. With namespace processing, a prefixed name is logged expanded as it was
/// first met; expat keeps one entry for its qualified name whatever URI the prefix is
/// later bound to, which the expanded name is never shorter than.
final class InternedNameLog {
    /// Element names of start tags in skipped subtrees.
    let skippedElements = NameTable(capacity: 16)
    let attributes = NameTable(capacity: 16)
    let prefixes = NameTable(capacity: 16)

    /// How many start tags the driver handed over, for tests of what it leaves out.
    private(set) var tagsLogged = 0

    init() {}

    /// Logs a start tag's attribute names (`attributes`: name and value in turn, ending
    /// with a null pointer), and its own name when the dispatcher does not intern it.
    func logStartTag(
        _ name: UnsafePointer<CChar>, _ attributeList: UnsafeMutablePointer<UnsafePointer<CChar>?>, skipped: Bool
    ) {
        tagsLogged += 1
        if skipped { _ = skippedElements.intern(name) }
        var index = 0
        while let attribute = attributeList[index] {
            _ = attributes.intern(attribute)
            index += 2
        }
    }

    /// Logs a namespace declaration's prefix (`nil` for the default namespace).
    func logPrefix(_ prefix: UnsafePointer<CChar>?) {
        if let prefix { _ = prefixes.intern(prefix) }
    }

    /// The names logged with the element names of `dispatched` (the dispatcher's table),
    /// and the most bytes the parser held at once.
    func names(dispatched: NameTable, peakBytes: Int) -> InternedNames {
        func all(_ table: NameTable) -> [[UInt8]] {
            (0..<Int32(table.count)).map { Array(table.bytes($0)) }
        }
        return InternedNames(
            elements: all(dispatched) + all(skippedElements), attributes: all(attributes), prefixes: all(prefixes),
            peakBytes: peakBytes)
    }
}

/// The distinct names one parse interned, as bytes (element and attribute names expanded
/// when namespaces are processed, which is never shorter than the qualified names expat
/// keeps), and the most bytes its parser held at once.
struct InternedNames: Sendable {
    var elements: [[UInt8]]
    var attributes: [[UInt8]]
    var prefixes: [[UInt8]]
    var peakBytes: Int
}
