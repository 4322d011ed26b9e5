import Testing

@testable import SAXDispatch

/// With ``XMLRecordDecoder/KeyPruning/probe`` the decoder captures only what the type asks
/// for and leaves every other child out; with ``XMLRecordDecoder/KeyPruning/off`` it
/// captures everything. What is left out must never change what the type reads.
@Suite("Decodable: what the probe leaves out does not change what is read")
struct KeyPruningLeftOutTests {
    struct Item: Decodable, Equatable {
        var meta: Meta?
        var x: String?
        var deep: [Deep]?

        struct Meta: Decodable, Equatable {
            var x: String?
            var deep: Deep?
        }

        struct Deep: Decodable, Equatable {
            var x: String?
        }
    }

    /// What a decode gave: the values, or the error's description; both modes must agree on it.
    enum Outcome: Equatable {
        case values([Item])
        case error(String)
    }

    static func outcome(_ pruning: XMLRecordDecoder.KeyPruning, _ document: String) -> Outcome {
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = pruning
        do {
            return .values(try decoder.all(Item.self, at: "item", in: .string(document)))
        } catch {
            return .error(String(describing: error))
        }
    }

    @Test("an element at the record's pattern nested in the record and left out does not end the record")
    func nestedPatternElementLeftOut() {
        let document = "<r><item><item><x>a</x></item><x>b</x></item></r>"
        let expected = Outcome.values([Item(meta: nil, x: "b", deep: nil)])
        #expect(Self.outcome(.probe, document) == expected)
        #expect(Self.outcome(.off, document) == expected)
    }
}
