import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// The code of CompressedInput.md, verbatim; `path` is the gzip zoo fixture and
/// `download` its bytes.
@Suite("Article: Compressed input")
struct CompressedInputArticleTests {
    struct Animal: RecordModel, Equatable {
        let name: String
        static let record = XMLRecord("animal", .text("nested_nonsense/name")) { Animal(name: $0) }
    }

    /// Counts the bytes another reader hands over.
    final class CountingReader: XMLInputReader, @unchecked Sendable {
        private var base: any XMLInputReader
        private(set) var count = 0

        init(_ base: any XMLInputReader) {
            self.base = base
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let read = try base.read(into: buffer)
            count += read
            return read
        }
    }

    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/SAXDispatchCompressionTests/Fixtures")
    let path = fixtures.appendingPathComponent("zoo.xml.gz").path

    @Test("a compressed file and compressed bytes parse as the document")
    func reading() throws {
        let download = try Data(contentsOf: URL(fileURLWithPath: path))
        var animalCount = 0
        var dispatcher = Dispatcher()
        dispatcher.onStart("animal") { _ in animalCount += 1 }

        try dispatcher.parse(.decompressing(.file(path)))       // zoo.xml.gz, .bz2, .xz, .zst, or zoo.xml itself
        let animals = try Animal.record.all(in: .decompressing(.bytes(download)))

        try dispatcher.parse(.decompressing(.file(path), inBackground: false))   // one thread

        #expect(animalCount == 4)
        #expect(animals.map(\.name) == ["grumpy", "i have no idea what i'm doing"])
    }

    @Test("a truncated file: the events before, then the error the article shows")
    func errors() throws {
        let download = try Data(contentsOf: URL(fileURLWithPath: path))
        var dispatcher = Dispatcher()
        var message = ""

        var animalsBefore = 0
        dispatcher.onEnd("animal") { _ in animalsBefore += 1 }
        do {
            try dispatcher.parse(.decompressing(.bytes(download.dropLast(10)).named("zoo.xml.gz")))
        } catch let error as DecompressionError {
            message = error.description
        }

        #expect(animalsBefore == 2)
        #expect(try DocumentationCatalog.textBlocks(of: "CompressedInput.md") == [message])
    }

    @Test("a reader of your own under the decompressor sees the compressed bytes")
    func readersOfYourOwn() throws {
        let dispatcher = Dispatcher()

        let counting = CountingReader(try XMLInput.file(path).makeReader())
        let input = XMLInput.reader(name: path) { DecompressingReader(counting, name: path) }
        try dispatcher.parse(input)
        // counting.count: the compressed bytes read

        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(counting.count == size)
    }
}
