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

        struct ZooReader: ElementHandlers {
            var animals: [Animal] = []
            var toilets = 0
            private var kind = "", name = ""

            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onEnd("kind") { zoo, _, text in zoo.kind = text }
                handlers.onEnd("nested_nonsense/name") { zoo, _, text in zoo.name = text }
                handlers.onEnd("animal") { zoo, _ in zoo.animals.append(Animal(kind: zoo.kind, name: zoo.name)) }
                handlers.onEnd("toilet") { zoo, _, text in
                    guard let count = Int(text) else { throw BadValue(text: text) }
                    zoo.toilets = count
                }
            }
        }

        var zoo = ZooReader()
        try zoo.parse(.file(zooPath))
        // --- end of the quick start ---
        #expect(zoo.animals == [Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing")])
        #expect(zoo.toilets == 42)

        // --- README: the same with closures that capture variables ---
        var animals: [Animal] = []
        var kind = "", name = ""

        var dispatcher = Dispatcher()
        dispatcher.onEnd("kind") { _, text in kind = text }
        dispatcher.onEnd("nested_nonsense/name") { _, text in name = text }
        dispatcher.onEnd("animal") { _ in animals.append(Animal(kind: kind, name: name)) }
        try dispatcher.parse(.file(zooPath))
        // --- end ---
        #expect(animals == zoo.animals)
    }

    @Test("a value that does not convert stops the quick start's reader with the handler's error")
    func quickStartError() throws {
        struct BadValue: Error { let text: String }
        struct ToiletReader: ElementHandlers {
            var toilets = 0
            static func registerHandlers(_ handlers: inout HandlerRegistry<Self>) {
                handlers.onEnd("toilet") { zoo, _, text in
                    guard let count = Int(text) else { throw BadValue(text: text) }
                    zoo.toilets = count
                }
            }
        }
        var reader = ToiletReader()
        #expect(throws: HandlerError.self) {
            try reader.parse(.string("<zoo><facilities><toilet>4x2</toilet></facilities></zoo>"))
        }
    }
}
