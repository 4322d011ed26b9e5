import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct EventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the dispatcher's event stream as JSON Lines, for debugging handlers.",
        discussion: """
            One object per event, with an "event" key: start (name, depth, line, column, \
            attributes), end (name, depth, and the element's own text, coalesced and \
            shaped by --whitespace, as an onEnd handler receives it), \
            processingInstruction (target, data), comment (text), doctype (name, \
            publicID, systemID, internalSubset). With --text-pieces, text events show \
            the pieces an onText handler receives; they depend on --chunk-size, the end \
            text does not.

            Names are shown as written. Namespaces are processed, as by a dispatcher's \
            default: xmlns declarations are not attributes, and a prefix no declaration \
            binds is an error; --no-namespaces reads names as written, with xmlns \
            declarations as attributes.

            Examples:
              saxdispatch events feed.xml
              saxdispatch events feed.xml --chunk-size 1 --text-pieces
              saxdispatch events feed.xml | grep '"name":"title"'
            """
    )

    @Argument(help: "The document to read; '-' reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("How end text is shaped: preserve, trim or collapse.", valueName: "policy"))
    var whitespace: WhitespaceOption = .trim

    @Flag(name: .customLong("text-pieces"), help: "Also print the text pieces, as text events.")
    var textPieces = false

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    enum WhitespaceOption: String, ExpressibleByArgument, CaseIterable {
        case preserve, trim, collapse

        var policy: WhitespacePolicy {
            switch self {
            case .preserve: .preserve
            case .trim: .trim
            case .collapse: .collapse
            }
        }
    }

    func run() throws {
        let log = EventLog(
            safety: try options.profile(), whitespace: whitespace.policy, includesTextPieces: textPieces,
            processesNamespaces: namespaceProcessing.processesNamespaces)
        do {
            try log.write(
                options.input(file), progress: options.progressMeter(reading: file),
                onWarning: { Output.standardError($0.description + "\n") }
            ) { Output.standardOutput($0) }
        } catch {
            throw DocumentFailure(error, path: file)
        }
    }
}
