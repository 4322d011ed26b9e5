import ArgumentParser
import SAXDispatch
import SAXDispatchTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "Print byte ranges of one document, each beginning at a record, for tasks that read a range each.",
        discussion: """
            A fast framing pass reads FILE once (comments, CDATA sections, processing \
            instructions, the DOCTYPE and its internal subset and quoted attribute values \
            are told apart from markup; nothing is parsed) and prints --parts ranges of \
            about equal size as JSON Lines, each beginning where the start tag of an \
            element named --record begins (at the depth of the first one) and ending \
            where the next begins: \
            {"start":S,"end":E,"line":L,"column":C,"records":R,"context":"…","closing":"…"}. \
            The last range's end is null. Every byte of the document is in one range, so \
            tasks that each read one range read every record once.

            context is what a range needs before its bytes to be a document of its own: \
            the bytes before the root element (XML declaration, DOCTYPE), then the start \
            tags of the elements open at its start; closing is the end tags of those open \
            at its end. They are JSON strings when UTF-8, otherwise context_base64 and \
            closing_base64. line and column are where the range begins, as a parse counts.

            A document in another encoding than UTF-8, US-ASCII or ISO-8859-1, or whose \
            prolog or an ancestor's start tag is larger than the framing pass keeps, \
            is one range from the last boundary found.

            Examples:
              saxdispatch split enwiki-pages-articles.xml --record page --parts 64
              saxdispatch split planet.osm --record node --parts 8
            """
    )

    @Argument(help: "The document to split: a file.")
    var file: String

    @Option(name: .customLong("record"), help: ArgumentHelp("The records' local name, without a prefix.", valueName: "name"))
    var recordName: String

    @Option(help: ArgumentHelp("How many ranges to print at most.", valueName: "n"))
    var parts: Int = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    func validate() throws {
        guard file != "-" else { throw ValidationError("split reads a file, not standard input: ranges are offsets into it") }
        guard parts >= 1 else { throw ValidationError("--parts must be 1 or more") }
        guard !recordName.isEmpty, !recordName.utf8.contains(UInt8(ascii: ":")), !recordName.contains("/") else {
            throw ValidationError("--record takes an element's local name, such as page (not a path or a prefixed name)")
        }
    }

    func run() throws {
        var status = stat()
        guard stat(file, &status) == 0 else {
            throw DocumentFailure(XMLInputError.cannotOpen(path: file, errorNumber: errno), path: file)
        }
        let ranges: [XMLDocumentRange]
        do {
            ranges = try XMLDocumentRange.split(.file(file), record: recordName, parts: parts, size: Int(status.st_size))
        } catch {
            throw DocumentFailure(error, path: file)
        }
        Output.standardOutput(ranges.map(RangeLine.line).joined(separator: "\n") + "\n")
    }
}
