import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The code and the table of EmptyValues.md.
@Suite("Article: Empty and nil values")
struct EmptyValuesArticleTests {
    @Test("the record fields the article shows, on empty elements")
    func fields() throws {
        let record = XMLRecord(
            "r",
            .value("nickname", as: String?.self),  // <nickname/> → ""
            .value("nickname", as: String?.self, emptyAsNil: true),  // <nickname/> → nil
            .value("rating", as: Int?.self)  // <rating/> → nil
        ) { ($0, $1, $2) }
        let value = try record.first(in: .string("<r><nickname/><rating/></r>"))
        #expect(value.0 == "")
        #expect(value.1 == nil)
        #expect(value.2 == nil)
    }

    @Test("the message of a required value that is empty")
    func requiredMessage() throws {
        struct Item { let count: Int }
        let item = XMLRecord("item", .value("count", as: Int.self)) { Item(count: $0) }.named("Item")
        let path = FileManagerTemp.write("<feed>\n  <item>\n    <count/>\n  </item>\n</feed>\n", name: "feed.xml")
        do {
            _ = try item.first(in: .file(path))
            Issue.record("an empty count was read")
        } catch let error as XMLRecordError {
            #expect(
                error.description.contains(
                    #"feed.xml:3:5: error: cannot convert "" to Int at feed/item/count (in record Item, field count): expected an integer, found empty text"#
                ))
        }
    }

    @Test("extract: null for an empty int?, \"\" for an empty string?")
    func extract() throws {
        let path = FileManagerTemp.write("<r><e><n/><s/><d/></e></r>", name: "empty-values.xml")
        let result = try CommandRunner.run(
            "saxdispatch", ["extract", path, "--record", "e", "--field", "n:int?", "--field", "s:string?", "--field", "d:date?"])
        #expect(result.status == 0)
        #expect(result.output == #"{"n":null,"s":"","d":null}"# + "\n")
        let required = try CommandRunner.run("saxdispatch", ["extract", path, "--record", "e", "--field", "n:int"])
        #expect(required.status == 1)
        #expect(required.error.contains(#"cannot convert "" to Int at r/e/n"#))
    }
}
