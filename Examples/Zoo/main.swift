// Parses the zoo document into immutable `Zoo` and `Animal` values.
//
//     swift run ZooExample [FILE]
//
// Without FILE it reads the fixture the tests use.
import Foundation

let path = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures/zoo.xml").standardized.path

do {
    let zoo = try ZooRecords.read(contentsOfFile: path)
    print("Zoo with \(zoo.animals.count) animals")
    for animal in zoo.animals {
        print("  \(animal.kind): \"\(animal.name)\" <\(animal.url)>")
    }
    print("toilets: \(zoo.toiletCount), disabled parking: \(zoo.disabledParking), drainage: \(zoo.drainage)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
