// Streams the <page> elements of a MediaWiki export as Decodable values from an
// asynchronous byte source, printing each title with its text length.
//
//     swift run WikiDumpExample [FILE]
//
// Without FILE it reads the 10,000-line English Wikipedia sample in
// ../shared/corpus/real/camchenry+wikidump (MIT licence, Cameron McHenry; the page
// texts are Wikipedia's, CC BY-SA) beside the package.
import Foundation

let samplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml").standardized.path

guard let path = CommandLine.arguments.dropFirst().first ?? (FileManager.default.fileExists(atPath: samplePath) ? samplePath : nil)
else {
    FileHandle.standardError.write(Data("usage: WikiDumpExample FILE (the sample \(samplePath) is absent)\n".utf8))
    exit(2)
}

do {
    let summary = try await WikiDump.summarize(WikiDump.pages(from: .file(path)))
    print("\(summary.pages) pages, \(summary.redirects) redirects, \(summary.characters) characters of wikitext")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
