import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that documents are well-formed and within the safety limits.",
        discussion: """
            Parses each document to its end under the default safety profile (or the \
            strict one), keeping nothing. Prints nothing and exits 0 when every document \
            is well-formed and within the profile (a document that declares XML 1.1, \
            which is read by XML 1.0's rules, gets FILE: warning: ... on standard error); \
            otherwise prints \
            FILE:LINE:COLUMN: error: message to standard error for each one that is not, \
            then, when more than one document was given, a summary line \
            (saxdispatch check: 3 files read, 1 failed), and exits 1. Nothing but the input is ever read: no external entity, no \
            external DTD.

            Documents are checked --jobs N at a time (default: the number of \
            processors), each error reported in the order the documents were given. \
            --on-error stop starts no document after one fails (those already \
            started are still reported); the default, continue, checks them all. \
            One document is checked in one parse, every limit held to the byte; with \
            --jobs N given, on N threads: a fast framing pass cuts it into ranges at \
            the root's children, each parsed on a thread of its own, with the same \
            first error at the same line and column (a file whose names fill \
            expat's memory budget is checked again in one parse, which says where).

            Namespaces are processed: a prefix that no declaration binds (<x:y/> alone), \
            a rebound xml or xmlns prefix or an empty prefixed URI is an error with its \
            line and column. --no-namespaces checks a legacy document that is \
            well-formed XML 1.0 but not namespace-well-formed, with names as written.

            A document whose DOCTYPE names XHTML 1.x, XHTML Basic or RSS 0.91 gets \
            that DTD's character entities (&nbsp;, &copy;, &auml;, ...) from a built-in \
            table (--no-known-dtd-entities: not). Any other entity the document does \
            not declare where it is read is an error at the reference, in content and \
            attribute values alike; --undeclared-entities skip leaves it out with a \
            warning on standard error.

            Limits (--limit NAME=VALUE, VALUE a number, a size such as 16M, or unlimited):
              entities      entity declarations (default 256)
              depth         element nesting depth (default 256)
              attributes    attributes per element (default 1024)
              name-bytes    bytes in one name (default 50000)
              token-bytes   bytes in one tag, comment or processing instruction (default 10M)
              text-bytes    bytes of text in one element (default 10M)
              collected-text-bytes
                            bytes of text of all open elements together (default 32M)
              memory-bytes  bytes expat may allocate (default 64M)

            Examples:
              saxdispatch check upload.xml
              saxdispatch check feeds/*.xml
              saxdispatch check --jobs 4 --on-error stop pubmed/*.xml.gz
              saxdispatch check --strict --limit depth=64 response.xml
              saxdispatch check --no-namespaces legacy.xml
              curl -s https://example.com/feed.xml | saxdispatch check -
            """
    )

    @Argument(help: "The documents to read; '-' reads standard input.")
    var files: [String]

    @OptionGroup var options: DocumentOptions

    @OptionGroup var namespaceProcessing: NamespaceProcessingOption

    @OptionGroup var undeclaredEntities: UndeclaredEntitiesOption

    @OptionGroup var manyFiles: ManyFilesOptions

    @OptionGroup var onError: FileFailureOption

    func validate() throws {
        try ManyFilesOptions.validate(files: files)
    }

    func run() async throws {
        let check = DocumentCheck(
            profile: undeclaredEntities.applied(to: try options.profile()),
            processesNamespaces: namespaceProcessing.processesNamespaces)
        let run = FileRun(
            files: files, options: options, jobs: manyFiles.jobCount, failurePolicy: onError.policy, unit: .elements,
            streamsOutput: false)
        // One file is read on the cores, in ranges; many files a file per job. Standard
        // input is read once: what only the whole document decides cannot be read again.
        // A check reads one parse unless asked for threads.
        let workers = files.count == 1 && files[0] != "-" && manyFiles.jobs != nil ? manyFiles.jobCount : 1
        let summary = try await run.run { file in
            // Written as they come, so that a document that then fails has its warnings too.
            _ = try check.run(file.input, workers: workers, progress: file.meter()) { warning in
                file.output.write(warning.description + "\n", to: .error)
            }
        } delivered: { _, _, _ in }
        guard summary.failed > 0 else { return }
        if files.count > 1 {
            // After many files the errors scroll away: say how many failed, last. A check
            // that finds nothing wrong says nothing, as it does for one file.
            Output.standardError(FileRun.summaryLine(command: "check", summary))
        }
        throw ExitCode.failure
    }
}
