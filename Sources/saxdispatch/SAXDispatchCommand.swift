import ArgumentParser
import SAXDispatch

@main
struct SAXDispatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saxdispatch",
        abstract: "Stream XML through libexpat and a selector-style dispatcher.",
        discussion: """
            Reads documents of any size in constant memory. Every command reads \
            standard input when FILE is '-', decompresses gzip, bzip2, xz and zstd \
            input (told by its first bytes, not its name), keeps the safety limits \
            of 'check' (change them with --strict and --limit), feeds the input in --chunk-size pieces, and \
            shows progress on standard error for long runs when it is a terminal \
            (--progress). Every command but canon processes namespaces, so a prefix \
            that no declaration binds is an error; --no-namespaces reads names as \
            written. check, stats, paths and extract read many files, --jobs N at a \
            time, their output in the order given (--on-error continue or stop). \
            Exit status: 0 on success, 1 when a document is malformed, \
            breaks a limit or cannot be read, 2 on a usage error, 3 when extract's \
            --record or a --field matched nothing. Errors are printed to \
            standard error as FILE:LINE:COLUMN: error: message.

            Examples:
              saxdispatch stats                       # the built-in 200 MB sample
              saxdispatch paths map.osm --sort count
              saxdispatch extract map.osm --record node --field id=@id:int
              saxdispatch check dump.xml.gz           # compressed: told by its bytes
              saxdispatch check --jobs 2 parts/*.xml.gz
              curl -s https://example.com/feed.xml.gz | saxdispatch check -
            """,
        version: "0.1.0",
        subcommands: [
            StatsCommand.self, PathsCommand.self, ExtractCommand.self, CheckCommand.self, CanonCommand.self,
            EventsCommand.self, SplitCommand.self, FilterCommand.self,
        ]
    )

    /// Runs the command, with usage errors exiting 2 instead of ArgumentParser's 64.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as DocumentFailure {
            Output.standardError(failure.message + "\n")
            Output.terminate(1)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // Help and version text: written through Output, not ArgumentParser's
                // print, so that a failed write ends the run with status 1.
                let text = fullMessage(for: error)
                if !text.isEmpty { Output.standardOutput(text + "\n") }
                Output.terminate(0)
            }
            if code == .validationFailure {
                Output.standardError(fullMessage(for: error) + "\n")
                Output.standardError("Run 'saxdispatch --help' for usage.\n")
                Output.terminate(2)
            }
            exit(withError: error)
        }
    }
}

/// An error already rendered for standard error, as a file's failure is written.
protocol RenderedFailure: Error {
    var message: String { get }
}

/// A document error already rendered as `FILE:LINE:COLUMN: message`; exits 1.
struct DocumentFailure: RenderedFailure {
    var message: String
    /// The records the command wrote from the document before it failed (`extract`): they
    /// stay in the output, and the summary of many files counts them.
    var recordsWritten = 0

    /// Renders an error from parsing `path` for standard error.
    init(_ error: any Error, path: String) {
        switch error {
        case let error as XMLParseError where error.code == .unboundPrefix:
            // Legacy documents use prefixes they never declare: say how to read them anyway.
            message =
                error.description + "\n\(error.source ?? path):\(error.line):\(error.column): note: no declaration binds"
                + " this prefix; --no-namespaces reads the document with names as written"
        case let error as CustomStringConvertible:
            message = error.description
        default:
            message = "\(path): error: \(error)"
        }
    }
}
