import ArgumentParser
import SAXDispatchTools

struct CanonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "canon",
        abstract: "Print the canonical XML form of a document.",
        discussion: """
            Writes the canonical form used by the W3C XML conformance suite's out/ \
            files (James Clark's canonical XML, plus Sun's notation block when the DTD \
            declares notations): UTF-8, no XML declaration or comments, attributes \
            sorted, empty elements written out, text escaped, no trailing newline. \
            It is built from the dispatcher's events, so it shows exactly what handlers see.

            Examples:
              saxdispatch canon doc.xml
              saxdispatch canon doc.xml --chunk-size 1    # feed one byte at a time
            """
    )

    @Argument(help: "The document to read; '-' reads standard input.")
    var file: String

    @Option(name: .customLong("chunk-size"), help: "Feed the input N bytes at a time instead of in 64 KiB reads.")
    var chunkSize: Int?

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
    }

    func run() throws {
        do {
            try CanonicalXML(chunkSize: chunkSize).write(contentsOfFile: file) { bytes in
                bytes.withUnsafeBytes { Output.standardOutput($0) }
            }
        } catch {
            throw DocumentFailure(error, path: file)
        }
    }
}
