import Foundation
import SAXDispatchTestSupport
import Testing

/// `--concatenated` on the commands that read a document: documents one after another,
/// read in turn, an error in one of them named with its number and its place in the input.
@Suite("saxdispatch: documents one after another")
struct ConcatenatedCommandTests {
    static let log = """
        <?xml version="1.0"?>
        <e id="1"><m>a</m></e>
        <?xml version="1.0"?>
        <e id="2"><m>b</m></e>
        <e id="3"><m>c</m></e>

        """

    func saxdispatch(_ arguments: [String], input: String) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: Data(input.utf8))
    }

    @Test("extract reads every document's records in turn")
    func extract() throws {
        let result = try saxdispatch(
            ["extract", "-", "--concatenated", "--record", "e", "--field", "id=@id:int", "--field", "m=m"], input: Self.log)
        #expect(result.error.isEmpty)
        #expect(result.status == 0)
        #expect(result.output == "{\"id\":1,\"m\":\"a\"}\n{\"id\":2,\"m\":\"b\"}\n{\"id\":3,\"m\":\"c\"}\n")
    }

    @Test("without --concatenated the second document is junk after the first")
    func withoutTheFlag() throws {
        let result = try saxdispatch(["check", "-"], input: Self.log)
        #expect(result.status == 1)
        #expect(result.error == "-:3:1: error: junk after document element\n")
    }

    @Test("an error names the document and its line in the input")
    func errorInLaterDocument() throws {
        let broken = Self.log.replacingOccurrences(of: "<m>c</m>", with: "<m>c</x>")
        let result = try saxdispatch(["check", "-", "--concatenated"], input: broken)
        #expect(result.status == 1)
        #expect(result.error == "-:5:17: error: mismatched tag (in document 3, at e/m)\n")
    }
}
