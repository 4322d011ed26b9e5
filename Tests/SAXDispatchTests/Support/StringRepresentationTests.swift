import Testing

@testable import SAXDispatch

/// `isStoredAlike` is a first test before comparing contents: never true for different
/// strings, true for a literal and its copies, and allowed to be false for equal strings
/// stored otherwise.
@Suite("Strings compared by how they are stored")
struct StringRepresentationTests {
    @Test("a literal and its copies are stored alike; different strings never are")
    func alikeOnlyWhenEqual() {
        let short = "lat", long = "a key name longer than fifteen bytes"
        let copies = [short, long]
        #expect(copies[0].isStoredAlike(short))
        #expect(copies[1].isStoredAlike(long))
        for (a, b) in [("lat", "lon"), ("", "x"), (long, long + "!"), ("é", "e")] {
            #expect(!a.isStoredAlike(b), "\(a) and \(b)")
        }
    }

    @Test("equal strings stored otherwise may differ, and lookups then compare contents")
    func equalContentsStoredOtherwise() {
        let literal = "a key name longer than fifteen bytes"
        let built = String(decoding: Array(literal.utf8), as: UTF8.self)
        #expect(built == literal)
        // Either answer is allowed here: what must hold is that `true` implies equality.
        if built.isStoredAlike(literal) { #expect(built == literal) }
    }
}
