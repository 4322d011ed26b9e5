import ArgumentParser
import SAXDispatch
import SAXDispatchTools

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that documents are well-formed and within the safety limits.",
        discussion: """
            Parses each document to its end under the default safety profile (or the \
            strict one), keeping nothing. Prints nothing and exits 0 when every document \
            is well-formed and within the profile; otherwise prints \
            FILE:LINE:COLUMN: error: message to standard error for each one that is not, \
            and exits 1. Nothing but the input is ever read: no external entity, no \
            external DTD.

            Limits (--limit NAME=VALUE, VALUE a number, a size such as 16M, or unlimited):
              entities      entity declarations (default 256)
              depth         element nesting depth (default 256)
              attributes    attributes per element (default 1024)
              name-bytes    bytes in one name (default 50000)
              token-bytes   bytes in one tag, comment or processing instruction (default 10M)
              text-bytes    bytes of text in one element (default 10M)
              memory-bytes  bytes expat may allocate (default 64M)

            Examples:
              saxdispatch check upload.xml
              saxdispatch check feeds/*.xml
              saxdispatch check --strict --limit depth=64 response.xml
              curl -s https://example.com/feed.xml | saxdispatch check -
            """
    )

    @Argument(help: "The documents to read; '-' reads standard input.")
    var files: [String]

    @Flag(help: "Also reject a DOCTYPE with an internal subset (no entity declarations at all).")
    var strict = false

    @Option(name: .customLong("limit"), help: ArgumentHelp("Change a limit.", valueName: "name=value"))
    var limits: [String] = []

    @Option(name: .customLong("chunk-size"), help: "Feed the input N bytes at a time instead of in 64 KiB reads.")
    var chunkSize: Int?

    func validate() throws {
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }
        _ = try profile()
    }

    /// The profile the options describe.
    func profile() throws -> SafetyProfile {
        var profile: SafetyProfile = strict ? .strict : .default
        for setting in limits {
            switch DocumentCheck.limit(from: setting) {
            case .success(let (name, limit)): profile[limitNamed: name] = limit
            case .failure(let error): throw ValidationError("--limit: \(error)")
            }
        }
        return profile
    }

    func run() throws {
        let check = DocumentCheck(profile: try profile(), chunkSize: chunkSize)
        var failed = false
        for file in files {
            do {
                _ = try check.run(path: file)
            } catch {
                Output.standardError(DocumentFailure(error, path: file).message + "\n")
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }
}
