#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch
import SAXDispatchTools

/// One command's work over the files it was given: each file parsed by the command's
/// body, `jobs` at a time (``XMLInputBatch``), its output and errors written in the
/// order of the files (``OrderedOutput``), and one progress line for them all.
///
/// With one file, what the command prints is what it always printed: the output streams
/// straight through, the progress line is the one-file meter, and no summary follows.
struct FileRun {
    var files: [String]
    var options: DocumentOptions
    var jobs: Int
    var failurePolicy: XMLInputBatch.FailurePolicy
    /// What the progress line counts.
    var unit: ProgressMeter.Unit
    /// Whether the command writes to standard output while it reads (see
    /// ``DocumentOptions/progressMeter(reading:counting:streamsOutput:)``).
    var streamsOutput: Bool

    /// What a file's body is given.
    struct File: Sendable {
        /// The file's position among the files, from 0.
        var index: Int
        /// The file as the command line names it (`-`: standard input).
        var path: String
        /// The file as the options read it, ending at its next read when the run is cancelled.
        var input: XMLInput
        /// Where the file's output and diagnostics go.
        var output: OrderedOutput.Channel
        /// The progress display to report to, if any: made on the file's own thread.
        var meter: @Sendable () -> (any ProgressDisplay)?
    }

    /// How the run ended.
    struct Summary {
        var read = 0
        var failed = 0
        var notStarted = 0
    }

    /// Runs `body` for every file and hands each result to `delivered`, in file order,
    /// with the file's channel, before the file's output is closed. A body's error is
    /// written to the file's standard error (rendered as ``DocumentFailure`` renders it)
    /// and counted as a failure; `failed` sees it first, for what a failed file still
    /// gives (the paths before a malformed element).
    func run<Value: Sendable>(
        _ body: @escaping @Sendable (File) throws -> Value,
        delivered: (Value, _ index: Int, OrderedOutput.Channel) -> Void,
        failed: (any Error, _ index: Int) -> Void = { _, _ in }
    ) async throws -> Summary {
        let batchProgress = files.count > 1 ? makeBatchProgress() : nil
        if batchProgress != nil { Output.erasesLineOnInterrupt() }
        // Text for a terminal the progress line is drawn on is written with the line erased.
        let outputSharesLine = batchProgress != nil && isatty(1) != 0
        let output = OrderedOutput { stream, bytes in
            switch stream {
            case .output:
                if outputSharesLine, let batchProgress {
                    batchProgress.withLineCleared { Output.standardOutput(bytes) }
                } else {
                    Output.standardOutput(bytes)
                }
            case .error:
                if let batchProgress {
                    batchProgress.withLineCleared { Output.standardError(bytes) }
                } else {
                    Output.standardError(bytes)
                }
            }
        }
        let single = files.count == 1
        // Files parsed at once share the processors.
        let concurrent = min(jobs, files.count)
        if concurrent > 1 {
            ReadProgress.decompressionThreads = ReadProgress.decompressionThreads(
                processors: XMLInputBatch.defaultJobs, inputsAtOnce: concurrent)
        }
        let (options, unit, streamsOutput) = (options, unit, streamsOutput)
        let batch = XMLInputBatch(files.map(options.input), jobs: jobs, failurePolicy: failurePolicy)
        let files = files
        let summary = try await batch.parse { input, index in
            let path = files[index]
            let file = File(index: index, path: path, input: input, output: output.channel(index)) {
                if let batchProgress { return batchProgress.file(index) }
                guard single else { return nil }
                return options.progressMeter(reading: path, counting: unit, streamsOutput: streamsOutput)
            }
            return try body(file)
        } results: { outcome in
            let channel = output.channel(outcome.index)
            switch outcome.result {
            case .success(let value):
                delivered(value, outcome.index, channel)
            case .failure(let error):
                failed(error, outcome.index)
                let message = (error as? any RenderedFailure)?.message ?? DocumentFailure(error, path: files[outcome.index]).message
                channel.write(message + "\n", to: .error)
            }
            output.finish(outcome.index)
        }
        batchProgress?.finish()
        return Summary(
            read: summary.succeeded + summary.failed, failed: summary.failed, notStarted: summary.notStarted)
    }

    /// The line for many files, when the options and standard error call for one.
    private func makeBatchProgress() -> BatchProgress? {
        let isTerminal = isatty(2) != 0 && !(streamsOutput && isatty(1) != 0)
        let sizes = files.map(XMLInput.commandLineSize)
        let total: Int? = sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        return BatchProgress(
            mode: options.progress, isTerminal: isTerminal, files: files.count, totalBytes: total, unit: unit
        ) { Output.standardError($0) }
    }

    /// The summary line of a run of many files, such as
    /// `saxdispatch extract: 8 files read, 1 failed, 2 not started, 1,204 records`.
    static func summaryLine(command: String, _ summary: Summary, count: (Int, ProgressMeter.Unit)? = nil) -> String {
        var parts = ["\(summary.read) file\(summary.read == 1 ? "" : "s") read", "\(summary.failed) failed"]
        if summary.notStarted > 0 { parts.append("\(summary.notStarted) not started") }
        if let (count, unit) = count {
            parts.append(ProgressMeter.grouped(count) + " " + (count == 1 ? unit.singular : unit.plural))
        }
        return "saxdispatch \(command): " + parts.joined(separator: ", ") + "\n"
    }
}
