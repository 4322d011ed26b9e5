import Foundation
import SAXDispatch
import Testing

/// Shapes met in real API answers that the decoder must read as their producers mean them.
@Suite("Decoding: shapes from real data")
struct RoughEdgeDecodingTests {
    struct Adjustment: Decodable, Equatable {
        let description: String
        let amount: Int
    }
    struct Account: Decodable {
        let code: String
        let adjustments: [Adjustment]
    }

    /// Recurly's shape: the list's wrapper carries a link and a type.
    static let account = """
        <account href="https://api.example.com/accounts/1">
          <code>1</code>
          <adjustments href="https://api.example.com/accounts/1/adjustments" type="array">
            <adjustment><description>Setup</description><amount>500</amount></adjustment>
            <adjustment><description>Credit</description><amount>-200</amount></adjustment>
          </adjustments>
        </account>
        """

    @Test("a wrapper with attributes is a list when the type asks for one", arguments: [XMLRecordDecoder.KeyPruning.probe])
    func wrapperWithAttributes(_ pruning: XMLRecordDecoder.KeyPruning) throws {
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = pruning
        let account = try decoder.decode(Account.self, from: .string(Self.account))
        #expect(account.adjustments == [Adjustment(description: "Setup", amount: 500), Adjustment(description: "Credit", amount: -200)])
    }

    @Test("an empty element with attributes stays one item")
    func emptyWithAttributes() throws {
        struct Tagged: Decodable { let tag: [String] }
        let tagged = try XMLRecordDecoder().decode(Tagged.self, from: .string(#"<r><tag id="1"/></r>"#))
        #expect(tagged.tag == [""])
    }

    @Test("a DecodingError numbers positions one way: 1-based line, column and item; codingPath stays Swift's")
    func numbering() throws {
        struct Animal: Decodable { let legs: Int }
        struct Zoo: Decodable { let animal: [Animal] }
        let document = "<zoo>\n  <animal><legs>4</legs></animal>\n  <animal><legs>2</legs></animal>\n  <animal><legs>4x2</legs></animal>\n</zoo>"
        do {
            _ = try XMLRecordDecoder().decode(Zoo.self, from: .string(document))
            Issue.record("expected a DecodingError")
        } catch let error as XMLDecodingError {
            guard case .dataCorrupted(let context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription == #"<string>:4:11: cannot convert "4x2" to Int at zoo/animal[3]/legs (decoding Zoo): expected an integer"#)
            #expect(context.codingPath.map(\.stringValue) == ["animal", "Index 2", "legs"])
        }
    }
}
