import ArgumentParser
import SAXDispatch
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

            Names are read as written, without namespace processing, as the suite's \
            out/ files are: xmlns declarations are written as attributes, and a prefix \
            that no declaration binds (<x:y/> alone) is accepted. The other commands \
            process namespaces unless given --no-namespaces, and reject such a prefix \
            with its line and column.

            Examples:
              saxdispatch canon doc.xml
              saxdispatch canon doc.xml --chunk-size 1    # feed one byte at a time
            """
    )

    @Argument(help: "The document to read; '-' reads standard input.")
    var file: String

    @OptionGroup var options: DocumentOptions

    func run() throws {
        let canonical = CanonicalXML(safety: try options.profile())
        do {
            try canonical.write(options.input(file), progress: options.progressMeter(reading: file)) { bytes in
                bytes.withUnsafeBytes { Output.standardOutput($0) }
            }
        } catch {
            throw DocumentFailure(error, path: file)
        }
    }
}
