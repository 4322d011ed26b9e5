import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Write a document to standard output with elements dropped, kept, renamed or stripped of attributes.",
        discussion: """
            Copies the document through as a stream, in constant memory: with no \
            option the output has the original's canonical content (UTF-8 with an XML \
            declaration; entities expanded, CDATA written as text, no DOCTYPE; names, \
            prefixes and namespace declarations as written). Each option adds a rule, \
            matched by pattern as in extract:

              --drop PATTERN              leave out each match with its subtree
              --keep PATTERN              inside the root element, keep only the matches
                                          with their subtrees (repeat: any of them)
              --rename PATTERN=NAME       rename each match: NAME keeps the element's
                                          namespace; prefix:local or {uri}local sets it
              --strip-attribute NAME      remove the attribute from every element

            A drop wins over the other rules; the others apply in the order given. \
            Names match by namespace URI: bind prefixes with -N PREFIX=URI. A rule \
            that matches nothing is a warning on standard error. On an error the \
            output so far stays written and the exit status is 1.

            Examples:
              saxdispatch filter dump.xml.gz --keep page --drop 'revision/text' > pages.xml
              saxdispatch filter feed.atom -N a=http://www.w3.org/2005/Atom --drop a:entry/a:content
              saxdispatch filter doc.xml --rename 'item[@kind=old]=legacy' --strip-attribute style
            """
    )

    @Argument(help: "The document to read; '-' reads standard input.")
    var file: String

    @Option(help: ArgumentHelp("Leave out each element PATTERN matches, with its subtree (repeat it).", valueName: "pattern"))
    var drop: [String] = []

    @Option(
        help: ArgumentHelp(
            "Keep, inside the root element, only the elements PATTERN matches, with their subtrees (repeat it).",
            valueName: "pattern"))
    var keep: [String] = []

    @Option(help: ArgumentHelp("Rename each element PATTERN matches to NAME (repeat it).", valueName: "pattern=name"))
    var rename: [String] = []

    @Option(
        name: .customLong("strip-attribute"),
        help: ArgumentHelp("Remove the attribute NAME from every element (repeat it).", valueName: "name"))
    var stripAttributes: [String] = []

    @Option(
        name: [.customShort("N"), .customLong("namespace")],
        help: ArgumentHelp("Bind PREFIX to a namespace URI for the patterns and names (repeat it).", valueName: "prefix=uri"))
    var namespaceArguments: [String] = []

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption
    @OptionGroup var options: DocumentOptions

    func validate() throws {
        _ = try filter()
    }

    /// The filter the options describe.
    func filter() throws -> DocumentFilter {
        let namespaces: NamespaceBindings
        do {
            namespaces = try NamespaceArguments.bindings(namespaceArguments)
        } catch {
            throw ValidationError(error.description)
        }
        do {
            let filter = try DocumentFilter(
                drop: drop, keep: keep, rename: rename, stripAttributes: stripAttributes, namespaces: namespaces,
                processesNamespaces: namespaceProcessing.processesNamespaces)
            try filter.transform.validate()
            return filter
        } catch let error as XMLWriterError {
            throw ValidationError("--rename: \(error.message)")
        } catch {
            throw ValidationError("\(error)")
        }
    }

    func run() throws {
        let filter = try filter()
        do {
            try filter.write(
                options.input(file), safety: try options.profile(), progress: options.progressMeter(reading: file),
                to: .standardOutput
            ) { warning in Output.standardError("\(warning)\n") }
        } catch {
            throw DocumentFailure(error, path: file)
        }
    }
}
