#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Many inputs parsed concurrently, a bounded number at a time, with each input's
/// result handed back in the order of the inputs: a directory of `.xml.gz` files, a
/// dump split into parts, a list of downloads.
///
/// You give the inputs and a synchronous body that parses one of them and returns what
/// it found (a count, a model, a summary). ``parse(isolation:_:results:)-(_,(XMLInput)->Value,_)`` runs the body
/// for ``jobs`` inputs at a time, each on a thread of its own, and calls its `results`
/// closure once per input, in input order, with what the body returned or threw:
///
/// ```swift
/// let inputs = paths.map { XMLInput.file($0) }
/// let batch = XMLInputBatch(inputs, jobs: 4)
/// var total = 0
/// try await batch.parse { input in
///     var pages = 0
///     var dispatcher = Dispatcher()
///     dispatcher.onStart("page") { _ in pages += 1 }
///     try dispatcher.parse(input)
///     return pages
/// } results: { outcome in
///     switch outcome.result {
///     case .success(let pages): total += pages
///     case .failure(let error): print(error)      // zoo-3.xml:12:9: error: …
///     }
/// }
/// ```
///
/// Compressed inputs are inputs like any other: pass `.decompressing(.file(path))` from
/// the `SAXDispatchCompression` product, and each one decompresses on its own thread
/// beside its parse. bzip2 inputs decompress on several threads each where the machine
/// has four processors or more; with many jobs, give each its share
/// (`.decompressing(.file(path), threads: 1)`).
///
/// One input that fails does not stop the others unless ``failurePolicy`` says so. A failed
/// input's result is its error alone: what its handlers did before the error (rows written,
/// values handed on) stays done, and a count that the body keeps is lost with the value it
/// would have returned. A body that must say what a failed input contributed carries it in
/// the error it throws (the command line's `extract` counts the rows a failed file wrote
/// that way, so that its summary counts what is in its output). Memory
/// is bounded by the number of jobs: at most ``jobs`` bodies run at once, and a result
/// waits for the inputs before it to be delivered only while at most ``jobs`` more are
/// started, so no more than twice ``jobs`` results are held at a time however many inputs
/// there are.
public struct XMLInputBatch: Sendable {
    /// The inputs, in the order their results are delivered.
    public var inputs: [XMLInput]

    /// How many inputs are parsed at once: at least 1 (smaller values become 1);
    /// ``defaultJobs`` unless set. With 1, each input is parsed after the one before it
    /// was delivered, strictly one after another.
    public var jobs: Int {
        get { storedJobs }
        set { storedJobs = Swift.max(1, newValue) }
    }
    private var storedJobs: Int

    /// What a failed input does to the inputs after it: ``FailurePolicy/continue`` unless set.
    public var failurePolicy: FailurePolicy

    /// What one input's failure does to the rest of the batch.
    public enum FailurePolicy: Sendable, Hashable {
        /// The other inputs are parsed all the same; each failure is delivered as its
        /// input's result.
        case `continue`
        /// No input starts after one has failed. Those already started are parsed to
        /// their end and delivered in order, the failed one among them; the rest are
        /// counted in ``Summary/notStarted``.
        case stop
    }

    /// The number of processors available to the process: one job per processor keeps
    /// every core parsing.
    ///
    /// The corresponding Foundation property is `ProcessInfo.activeProcessorCount`.
    public static var defaultJobs: Int {
        Swift.max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// A batch of `inputs`, parsed `jobs` at a time.
    ///
    /// ```swift
    /// let batch = XMLInputBatch(paths.map { .decompressing(.file($0)) }, jobs: 2, failurePolicy: .stop)
    /// ```
    public init(_ inputs: some Sequence<XMLInput>, jobs: Int = XMLInputBatch.defaultJobs, failurePolicy: FailurePolicy = .continue) {
        self.inputs = Array(inputs)
        storedJobs = Swift.max(1, jobs)
        self.failurePolicy = failurePolicy
    }

    /// One input's result, delivered in input order.
    public struct Outcome<Value: Sendable>: Sendable {
        /// The input's position among ``XMLInputBatch/inputs``, from 0.
        public var index: Int
        /// The input's name (``XMLInput/name``), as its errors give it.
        public var name: String
        /// What the body returned, or the error it threw: an ``XMLParseError`` for a
        /// malformed document, an ``XMLInputError`` for a file that cannot be read, any
        /// error of your handlers, unchanged.
        public var result: Result<Value, any Error>

        /// A result for input number `index`, named `name`.
        public init(index: Int, name: String, result: Result<Value, any Error>) {
            self.index = index
            self.name = name
            self.result = result
        }
    }

    /// How a batch ended.
    public struct Summary: Sendable, Hashable {
        /// Inputs whose body returned a value.
        public var succeeded = 0
        /// Inputs whose body threw.
        public var failed = 0
        /// Inputs never started, because one failed under ``FailurePolicy/stop``.
        public var notStarted = 0

        /// A summary with these counts.
        public init(succeeded: Int = 0, failed: Int = 0, notStarted: Int = 0) {
            self.succeeded = succeeded
            self.failed = failed
            self.notStarted = notStarted
        }
    }
}
