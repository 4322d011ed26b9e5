import SAXDispatch

/// The progress line of many files read at once: files done of all, bytes read of all
/// the files' sizes (compressed bytes for compressed files), throughput, and for
/// compressed input the throughput of the document they decompress to, redrawn in place
/// on standard error from whichever parse reads next.
///
/// ```
/// [====>       ]  38%  3 / 8 files  76.0 / 200.0 MB  38.1 MB/s  (412.9 MB/s decompressed)  912,004 records  0:02 elapsed, 0:03 left
/// ```
///
/// Each file's parse reports to its own ``File`` (a ``ProgressDisplay``), on its own
/// thread; the line is drawn under a lock, at most ten times a second, once a few
/// megabytes are read in all (unless told to always draw). Anything else written to the
/// same stream goes through ``withLineCleared(_:)``.
public final class BatchProgress: @unchecked Sendable {
    // Every stored `var` is guarded by `lock`.
    private let lock = Lock()
    private let fileCount: Int
    private let totalBytes: Int?
    private let unit: ProgressMeter.Unit
    private let threshold: Int
    private let write: @Sendable (String) -> Void
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var isShowing = false
    private var filesDone = 0
    /// The figures of the files being read, by index, and of those done, added up.
    private var running: [Int: Figures] = [:]
    private var done = Figures()

    /// What one file has read and produced.
    struct Figures {
        var bytes = 0
        var documentBytes = 0
        var count = 0

        static func + (left: Figures, right: Figures) -> Figures {
            Figures(
                bytes: left.bytes + right.bytes, documentBytes: left.documentBytes + right.documentBytes,
                count: left.count + right.count)
        }
    }

    /// A line for `files` files, or `nil` when `mode` says it would never be drawn.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether the stream `write` goes to is a terminal (`auto` draws only then).
    ///   - totalBytes: The files' sizes added up, when every one is known.
    ///   - unit: What the count counts.
    ///   - write: Writes text to that stream.
    public init?(
        mode: ProgressMeter.Mode, isTerminal: Bool, files: Int, totalBytes: Int?, unit: ProgressMeter.Unit,
        write: @escaping @Sendable (String) -> Void
    ) {
        guard let threshold = ProgressMeter.threshold(mode: mode, isTerminal: isTerminal) else { return nil }
        self.threshold = threshold
        fileCount = files
        self.totalBytes = totalBytes
        self.unit = unit
        self.write = write
        started = clock.now
    }

    /// The display file number `index` (from 0) reports to.
    public func file(_ index: Int) -> File {
        File(batch: self, index: index)
    }

    /// Runs `body`, which writes to the line's stream, with the line erased and not drawn
    /// until it returns.
    public func withLineCleared(_ body: () -> Void) {
        lock.withLock {
            clearLocked()
            body()
        }
    }

    /// Erases the line at the end of the run.
    public func finish() {
        withLineCleared {}
    }

    fileprivate func update(_ index: Int, _ figures: Figures, finished: Bool) {
        lock.withLock {
            if finished {
                running[index] = nil
                done = done + figures
                filesDone += 1
            } else {
                running[index] = figures
            }
            let all = running.values.reduce(done, +)
            guard all.bytes >= threshold else { return }
            let now = clock.now
            if !finished, let lastDraw, lastDraw.duration(to: now) < .milliseconds(100) { return }
            lastDraw = now
            write(
                "\r\u{1B}[K"
                    + Self.line(
                        filesDone: filesDone, files: fileCount, bytes: all.bytes, total: totalBytes,
                        documentBytes: all.documentBytes, count: all.count, unit: unit, elapsed: started.duration(to: now)))
            isShowing = true
        }
    }

    fileprivate func clear() {
        lock.withLock { clearLocked() }
    }

    private func clearLocked() {
        guard isShowing else { return }
        write("\r\u{1B}[K")
        isShowing = false
        lastDraw = nil
    }

    /// The text of the line: ``ProgressMeter/line(bytes:total:count:unit:elapsed:)`` with
    /// the files done of all after the percentage, and the decompressed throughput after
    /// the throughput when the files decompressed to more than was read.
    public static func line(
        filesDone: Int, files: Int, bytes: Int, total: Int?, documentBytes: Int, count: Int, unit: ProgressMeter.Unit,
        elapsed: Duration
    ) -> String {
        var parts = ProgressMeter.lineParts(
            bytes: bytes, total: total, documentBytes: documentBytes, count: count, unit: unit, elapsed: elapsed)
        let filesText = "\(filesDone) / \(files) files"
        // After the bar and percentage when there is a total, first otherwise.
        parts.insert(filesText, at: total.map { $0 > 0 } == true ? 2 : 0)
        return parts.joined(separator: "  ")
    }

    /// One file's share of the line: the ``ProgressDisplay`` its parse reports to.
    public final class File: ProgressDisplay, @unchecked Sendable {
        private let batch: BatchProgress
        private let index: Int

        fileprivate init(batch: BatchProgress, index: Int) {
            self.batch = batch
            self.index = index
        }

        public func update(bytes: Int, documentBytes: Int, count: Int) {
            batch.update(index, Figures(bytes: bytes, documentBytes: documentBytes, count: count), finished: false)
        }

        /// Counts the file as done, with its final figures.
        public func finish(bytes: Int, documentBytes: Int, count: Int) {
            batch.update(index, Figures(bytes: bytes, documentBytes: documentBytes, count: count), finished: true)
        }

        public func clear() {
            batch.clear()
        }
    }
}
