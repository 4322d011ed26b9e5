import Foundation
import SAXDispatchTestSupport
import Testing

/// `extract` when --record or a --field matched nothing: a warning on standard error that
/// names the closest names the document had, and exit status 3, in every --on-error mode;
/// and the hint to bind a prefix with -N when a record fails for a prefixed field.
@Suite("saxdispatch: patterns that matched nothing")
struct UnmatchedPatternCommandTests {
    func saxdispatch(_ arguments: [String], input: String? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: input.map { Data($0.utf8) })
    }

    @Test(
        "extract --record itme on the zoo: the warning with the closest name, exit 3",
        arguments: [[], ["--on-error", "skip"], ["--no-namespaces"]])
    func recordMatchedNothing(_ mode: [String]) throws {
        let path = TestPaths.fixture("zoo.xml").path
        let result = try saxdispatch(["extract", path, "--record", "itme", "--field", "kind"] + mode)
        #expect(result.status == 3)
        #expect(result.output.isEmpty)
        #expect(
            result.error
                == "\(path): warning: record pattern `itme` matched no element; this document has `name` (2 times)\n")
        let aminal = try saxdispatch(["extract", path, "--record", "aminal", "--field", "kind"] + mode)
        #expect(aminal.status == 3)
        #expect(
            aminal.error
                == "\(path): warning: record pattern `aminal` matched no element; this document has `animal` (2 times)\n")
    }

    @Test("a field that matched nothing in any record: its rows, the warning, exit 3")
    func fieldMatchedNothing() throws {
        let path = TestPaths.fixture("zoo.xml").path
        let result = try saxdispatch(["extract", path, "--record", "animal", "--field", "kind", "--field", "nme:string?"])
        #expect(result.status == 3)
        #expect(result.output == "{\"kind\":\"cat\",\"nme\":null}\n{\"kind\":\"dog\",\"nme\":null}\n")
        #expect(
            result.error
                == "\(path): warning: field `nme` of record `animal` matched no element in any record;"
                + " this document has `name` (2 times)\n")
        // Everything matched: status 0, nothing on standard error.
        let matched = try saxdispatch(["extract", path, "--record", "animal", "--field", "kind"])
        #expect(matched.status == 0)
        #expect(matched.error.isEmpty)
    }

    @Test("two fields on one path: the field's warning alone; the record's alone when the record matched nothing")
    func twoFieldsOnOnePath() throws {
        let path = TestPaths.fixture("zoo.xml").path
        let fields = ["--field", "a=zz:string?", "--field", "b=zz:int?"]
        let result = try saxdispatch(["extract", path, "--record", "animal"] + fields)
        #expect(result.status == 3)
        #expect(result.error.components(separatedBy: "warning:").count == 2, "\(result.error)")
        #expect(result.error.contains("warning: field `zz` of record `animal` matched no element in any record"))
        #expect(!result.error.contains("pattern `animal/zz`"))
        let missing = try saxdispatch(["extract", path, "--record", "aminal"] + fields)
        #expect(missing.status == 3)
        #expect(
            missing.error
                == "\(path): warning: record pattern `aminal` matched no element; this document has `animal` (2 times)\n")
    }

    @Test("many files: a failed file exits 1 before a pattern that matched nothing exits 3")
    func manyFiles() throws {
        let zoo = TestPaths.fixture("zoo.xml").path
        let bad = FileManagerTemp.write(Data("<zoo><animal>".utf8), name: "truncated-zoo.xml")
        let both = try saxdispatch(["extract", zoo, bad, "--record", "itme", "--field", "kind", "--jobs", "1"])
        #expect(both.status == 1)
        let twice = try saxdispatch(["extract", zoo, zoo, "--record", "itme", "--field", "kind", "--jobs", "1"])
        #expect(twice.status == 3)
        #expect(twice.error.components(separatedBy: "warning: record pattern `itme`").count == 3)
    }

    @Test("a record that fails for a field with an unbound prefix says to bind it with -N, in the default mode too")
    func bindHintInDefaultMode() throws {
        let document = "<feed><item><x>a</x></item><item/></feed>"
        let failed = try saxdispatch(["extract", "-", "--record", "item", "--field", "dc:title"], input: document)
        #expect(failed.status == 1)
        #expect(
            failed.error == """
                -:1:7: error: record item has no dc:title
                -:1:7: note: the prefix 'dc' of --field 'dc:title' is bound by no -N, so it matches only elements \
                written with that prefix: bind it with -N dc=URI, or write the name in Clark notation ('{URI}local')

                """)
        let skipped = try saxdispatch(
            ["extract", "-", "--record", "item", "--field", "dc:title", "--on-error", "skip"], input: document)
        #expect(skipped.error.contains("bind it with -N dc=URI"))
    }
}
