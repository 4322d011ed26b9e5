#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
/// An attribute name costs a hash lookup the first time its address is seen: without
/// namespace processing, and for unprefixed names with it, expat hands each name over at
/// the one address where it interned it, which a small table of addresses remembers.
/// Prefixed names with namespace processing are expanded per start tag into a temporary
/// buffer (they hold the separator), so they are looked up by their bytes each time.
final class InternedNameLog {
    /// Element names of start tags in skipped subtrees.
    let skippedElements = NameTable(capacity: 16)
    let attributes = NameTable(capacity: 16)
    let prefixes = NameTable(capacity: 16)
    /// Whether names in a namespace come expanded (`URI␁local␁prefix`), built per tag.
    private let expandsNames: Bool
    /// Addresses of attribute names already logged, by their bits: a direct-mapped cache of
    /// ``knownAddressCount`` entries (a buffer, not an array: read on every attribute).
    private let knownAddresses: UnsafeMutablePointer<UnsafeRawPointer?>
    private static let knownAddressCount = 64  // the 6 bits of a slot

    init(expandsNames: Bool) {
        self.expandsNames = expandsNames
        knownAddresses = .allocate(capacity: Self.knownAddressCount)
        knownAddresses.initialize(repeating: nil, count: Self.knownAddressCount)
    }

    deinit {
        knownAddresses.deallocate()
    }

    /// Logs a start tag's attribute names (`attributes`: name and value in turn, ending
    /// with a null pointer), and its own name when the dispatcher does not intern it.
    @inline(__always)
    func logStartTag(
        _ name: UnsafePointer<CChar>, _ attributeList: UnsafeMutablePointer<UnsafePointer<CChar>?>, skipped: Bool
    ) {
        if skipped { _ = skippedElements.intern(name) }
        var index = 0
        while let attribute = attributeList[index] {
            let address = UnsafeRawPointer(attribute)
            // Names lie a few bytes apart in expat's pool: their addresses are mixed, not cut.
            let slot = Int(truncatingIfNeeded: (UInt(bitPattern: address) &* 0x9E37_79B9_7F4A_7C15) >> 58)
            if knownAddresses[slot] != address {
                _ = attributes.intern(attribute)
                // An expanded name lives in a buffer reused for the next tag's names.
                if !expandsNames || strchr(attribute, Int32(QualifiedName.separator)) == nil {
                    knownAddresses[slot] = address
                }
            }
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
