import ArgumentParser
import SAXDispatch

/// `--jobs`, on the commands that read many files at once: `check`, `stats`, `paths`
/// and `extract`.
struct ManyFilesOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Parse N files at once, or one file on N threads (default: the number of processors); 1 reads them one "
                + "after another. Output comes in the order the files were given, the same as with 1.",
            valueName: "n"))
    var jobs: Int?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// How many files are parsed at once.
    var jobCount: Int { jobs ?? XMLInputBatch.defaultJobs }

    /// Checks that standard input is read at most once: `-` twice would read what the
    /// first left, which is nothing.
    static func validate(files: [String]) throws {
        if files.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("'-' (standard input) can be read only once")
        }
    }
}

/// `--on-error continue|stop` on `check`, `stats` and `paths`: what a file that fails
/// does to the files after it.
struct FileFailureOption: ParsableArguments {
    @Option(
        name: .customLong("on-error"),
        help: ArgumentHelp(
            "What a file that fails does to the others: continue (the default: every file is read, each "
                + "failure reported) or stop (no file starts after it; those already read are written).",
            valueName: "mode"))
    var mode: FileFailureMode = .continue

    var policy: XMLInputBatch.FailurePolicy { mode == .stop ? .stop : .continue }
}

/// What a failed file does to the run.
enum FileFailureMode: String, ExpressibleByArgument, CaseIterable {
    case `continue`, stop
}
