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

    /// The types of the generated comparison: nested records, single and repeated text, and
    /// no array of records, whose reading of a lone element with children of one name as a
    /// wrapper depends on whether the decoder knows what the item type reads (documented at
    /// ``XMLRecordDecoder``), so that the two modes must agree on every document.
    struct Entry: Decodable, Equatable {
        var meta: Meta?
        var x: [String]?
        var deep: Meta?

        struct Meta: Decodable, Equatable {
            var x: String?
            var deep: Leaf?
            var meta: Leaf?
        }

        struct Leaf: Decodable, Equatable {
            var x: String?
        }
    }

    enum EntryOutcome: Equatable {
        case values([Entry])
        case error(String)
    }

    static func entries(_ pruning: XMLRecordDecoder.KeyPruning, _ document: String) -> EntryOutcome {
        var decoder = XMLRecordDecoder()
        decoder.keyPruning = pruning
        do {
            return .values(try decoder.all(Entry.self, at: "item", in: .string(document)))
        } catch {
            return .error(String(describing: error))
        }
    }

    /// Whether `entry` read a value anywhere.
    static func readsAValue(_ entry: Entry) -> Bool {
        entry.x != nil || entry.meta?.x != nil || entry.deep?.x != nil || entry.deep?.deep?.x != nil
    }

    @Test("on generated documents, what the probe leaves out never changes what is read")
    func generatedDocumentsAgree() {
        var generator = PrunedRecordAgreementTests.Generator(state: 4_600)
        var decoded = 0
        var valuesRead = 0
        for _ in 0..<800 {
            let document = "<r>" + (0..<3).map { _ in
                PrunedRecordAgreementTests.element(&generator, depth: 1)
            }.joined() + "</r>"
            let probe = Self.entries(XMLRecordDecoder.KeyPruning.probe, document)
            #expect(probe == Self.entries(XMLRecordDecoder.KeyPruning.off, document), "\(document)")
            if case .values(let entries) = probe {
                decoded += entries.count
                valuesRead += entries.filter(Self.readsAValue).count
            }
        }
        // The comparison is not vacuous: records were decoded, and many read values.
        #expect(decoded > 500)
        #expect(valuesRead > 150)
    }
}
