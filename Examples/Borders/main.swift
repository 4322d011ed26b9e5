// Files each <path> of a map under the border it belongs to, routed by path pattern
// to the methods of a handler object.
//
//     swift run BordersExample [FILE]
import Foundation

let path = CommandLine.arguments.dropFirst().first
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/ExamplesTests/Fixtures/borders.xml").standardized.path

do {
    let map = try BordersReader.read(contentsOfFile: path)
    for kind in BorderKind.allCases {
        let paths = map.paths[kind] ?? []
        print("\(kind.rawValue) (\(paths.count)):")
        for path in paths { print("  \(path)") }
    }
    print("ignored paths outside borders: \(map.ignoredPaths)")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
