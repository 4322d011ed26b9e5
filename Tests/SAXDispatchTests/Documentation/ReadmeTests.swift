import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The README's quick start, verbatim, so it cannot silently rot.
@Suite("README")
struct ReadmeTests {
    @Test("the quick start runs and gives what the README says")
    func quickStart() throws {
        let zooPath = TestPaths.fixture("zoo.xml").path
        // --- README quick start (with "zoo.xml" replaced by the fixture's path) ---
        struct Animal: Equatable { let kind: String; let name: String }
        struct BadValue: Error { let text: String }

        var animals: [Animal] = []
        var kind = "", name = ""
        var toilets = 0

        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, text in kind = text }
        dispatcher.onEnd("nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal") { _ in animals.append(Animal(kind: kind, name: name)) }
        dispatcher.onEnd("toilet") { _, text in
            guard let count = Int(text) else { throw BadValue(text: text) }
            toilets = count
        }
        try dispatcher.parse(.file(zooPath))
        // --- end of the quick start ---
        #expect(animals == [Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing")])
        #expect(toilets == 42)
    }
}
