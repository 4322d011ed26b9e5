// Writes a MediaWiki export to standard output with only the pages of one namespace, and
// without their revisions' text: a dump filtered in constant memory.
//
//     swift run WikiFilterExample [--namespace N] [FILE] > articles.xml
//
// N is 0 (articles) unless given. Without FILE it reads the English Wikipedia sample in
// ../shared/corpus/real/camchenry+wikidump beside the package (see WikiDumpExample).
import Foundation
import SAXDispatch

let samplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../../shared/corpus/real/camchenry+wikidump/benches/enwiki-10k.xml").standardized.path

var arguments = Array(CommandLine.arguments.dropFirst())
var namespace = "0"
if let index = arguments.firstIndex(of: "--namespace"), index + 1 < arguments.count {
    namespace = arguments[index + 1]
    arguments.removeSubrange(index...(index + 1))
}
guard let path = arguments.first ?? (FileManager.default.fileExists(atPath: samplePath) ? samplePath : nil) else {
    FileHandle.standardError.write(Data("usage: WikiFilterExample [--namespace N] FILE (the sample \(samplePath) is absent)\n".utf8))
    exit(2)
}

do {
    try WikiFilter.transform(namespace: namespace).run(.file(path), to: .standardOutput)
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
