import Foundation
import SAXDispatchTestSupport
import Testing

/// `--encoding` on the built tool: a document in Shift_JIS without a declaration, and one
/// in windows-1251 that declares ISO-8859-1, read with and without the override.
@Suite("saxdispatch --encoding")
struct EncodingOptionTests {
    let undeclared = TestPaths.fixture("shift_jis-undeclared.xml").path
    let mislabelled = TestPaths.fixture("windows-1251-mislabelled.xml").path
    let fields = ["--record", "item", "--field", "name=.", "--field", "price=@price:int"]

    @Test("without a declaration, Shift_JIS is invalid UTF-8 at its first byte; --encoding Shift_JIS reads it")
    func undeclaredShiftJIS() throws {
        let plain = try CommandRunner.run("saxdispatch", ["extract", undeclared] + fields)
        #expect(plain.status == 1)
        #expect(plain.output.isEmpty)
        #expect(plain.error == "\(undeclared):2:21: error: not well-formed (invalid token): byte 0x96 (in menu/item)\n")

        let overridden = try CommandRunner.run("saxdispatch", ["extract", undeclared, "--encoding", "Shift_JIS"] + fields)
        #expect(overridden.status == 0)
        #expect(overridden.error.isEmpty)
        #expect(overridden.output == #"{"name":"抹茶ラテ","price":350}"# + "\n" + #"{"name":"おにぎり ｶﾀｶﾅ","price":120}"# + "\n")
    }

    @Test("the override wins over the declaration: windows-1251 declared as ISO-8859-1")
    func overrideWinsOverDeclaration() throws {
        let declared = try CommandRunner.run("saxdispatch", ["events", mislabelled])
        #expect(declared.status == 0)
        #expect(declared.output.contains(#"{"event":"end","name":"greeting","depth":1,"text":"Ïðèâåò"}"#))

        let overridden = try CommandRunner.run("saxdispatch", ["events", mislabelled, "--encoding", "windows-1251"])
        #expect(overridden.status == 0)
        #expect(
            overridden.output
                == #"{"event":"start","name":"greeting","depth":1,"line":2,"column":1,"attributes":{}}"# + "\n"
                + #"{"event":"end","name":"greeting","depth":1,"text":"Привет"}"# + "\n")
    }

    @Test("standard input with --encoding; check succeeds only with the override")
    func standardInputAndCheck() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: undeclared))
        let fromStandardInput = try CommandRunner.run("saxdispatch", ["extract", "-", "--encoding", "shift_jis"] + fields, input: bytes)
        #expect(fromStandardInput.status == 0)
        #expect(fromStandardInput.output.hasPrefix(#"{"name":"抹茶ラテ","price":350}"#))
        #expect(try CommandRunner.run("saxdispatch", ["check", undeclared]).status == 1)
        #expect(try CommandRunner.run("saxdispatch", ["check", undeclared, "--encoding", "Shift_JIS"]).status == 0)
    }

    @Test("an encoding nobody reads is an error naming it, exit 1")
    func unknownEncoding() throws {
        let result = try CommandRunner.run("saxdispatch", ["check", undeclared, "--encoding", "x-klingon"])
        #expect(result.status == 1)
        #expect(result.error == "\(undeclared):1:1: error: unknown encoding \"x-klingon\"\n")
    }
}
