extension XMLInputBatch {
    /// Parses every input with `body`, ``jobs`` at a time, and hands each one's result to
    /// `results` in input order.
    ///
    /// `body` runs once per input, on a thread of its own (a synchronous parse blocks its
    /// thread, and must not block the cooperative pool's), with the input it parses. It
    /// may throw: its error becomes that input's result, and the other inputs go on
    /// (unless ``failurePolicy`` is ``FailurePolicy/stop``). `results` runs on the calling
    /// task, in its isolation, one outcome at a time, as soon as the outcomes of all the
    /// inputs before it were delivered; while it runs, other inputs go on parsing.
    ///
    /// ```swift
    /// let batch = XMLInputBatch(paths.map { .decompressing(.file($0)) }, jobs: 2)
    /// let summary = try await batch.parse { input in
    ///     try Page.record.all(in: input).count
    /// } results: { outcome in
    ///     if case .failure(let error) = outcome.result { print(error) }
    /// }
    /// // summary.succeeded, summary.failed
    /// ```
    ///
    /// Cancelling the calling task starts no more inputs and ends the running parses at
    /// their next read (each with `CancellationError`, which is not delivered); the call
    /// then throws `CancellationError`. Inputs in memory (``XMLInput/string(_:)``,
    /// ``XMLInput/bytes(_:)``) are parsed in one piece and end on their own.
    ///
    /// - Parameters:
    ///   - isolation: The actor `results` runs on: the caller's, unless given.
    ///   - body: Parses one input and returns what it found. It receives the input with
    ///     its name and options, read through a reader that ends it on cancellation.
    ///   - results: Receives each input's outcome, in input order.
    /// - Returns: How many inputs succeeded, failed, and were never started.
    /// - Throws: `CancellationError` when the task was cancelled, or what `results`
    ///   throws, which ends the batch as a cancellation does (the running parses end at
    ///   their next read, and no more outcomes are delivered). A body's error is never
    ///   thrown here: it is its input's result.
    @discardableResult
    public func parse<Value: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (XMLInput) throws -> Value,
        results: (Outcome<Value>) async throws -> Void
    ) async throws -> Summary {
        try await parse(isolation: isolation, { input, _ in try body(input) }, results: results)
    }

    /// Parses every input with `body`, which also receives the input's position among
    /// ``inputs``, ``jobs`` at a time, and hands each one's result to `results` in input
    /// order: for a body that writes to something of its own per input (an output
    /// buffer, a progress line), found by that position.
    ///
    /// ```swift
    /// let logs = paths.map { Log(for: $0) }
    /// try await batch.parse { input, index in
    ///     try logs[index].record(Page.record.all(in: input))
    /// } results: { outcome in
    ///     logs[outcome.index].close()
    /// }
    /// ```
    ///
    /// Everything else is as ``parse(isolation:_:results:)-(_,(XMLInput)->Value,_)`` says.
    ///
    /// - Parameters:
    ///   - isolation: The actor `results` runs on: the caller's, unless given.
    ///   - body: Parses the input at the index it is given and returns what it found.
    ///   - results: Receives each input's outcome, in input order.
    /// - Returns: How many inputs succeeded, failed, and were never started.
    /// - Throws: `CancellationError` when the task was cancelled, or what `results` throws.
    @discardableResult
    public func parse<Value: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (_ input: XMLInput, _ index: Int) throws -> Value,
        results: (Outcome<Value>) async throws -> Void
    ) async throws -> Summary {
        let flag = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await run(body, results: results, flag: flag)
        } onCancel: {
            flag.set()
        }
    }

    /// The scheduling loop: starts inputs while fewer than `jobs` run and fewer than
    /// `2 × jobs` wait to be delivered, and delivers finished ones in input order.
    private func run<Value: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: @escaping @Sendable (XMLInput, Int) throws -> Value,
        results: (Outcome<Value>) async throws -> Void,
        flag: CancellationFlag
    ) async throws -> Summary {
        try await withThrowingTaskGroup(of: (Int, Result<Value, any Error>).self, returning: Summary.self) { group in
            var next = 0
            var delivered = 0
            var running = 0
            var stopping = false
            var finished: [Int: Result<Value, any Error>] = [:]
            var summary = Summary()

            func startInputs(_ group: inout ThrowingTaskGroup<(Int, Result<Value, any Error>), any Error>) {
                // The window (next - delivered) bounds what is held: results that wait
                // for a slow input before them, and the output their bodies buffer.
                while !stopping && !flag.isSet && !Task.isCancelled && running < jobs && next < inputs.count
                    && next - delivered < 2 * jobs
                {
                    let index = next
                    let input = inputs[index].cancellable(by: flag)
                    group.addTask { (index, await runDetached { try body(input, index) }) }
                    next += 1
                    running += 1
                }
            }

            startInputs(&group)
            while let (index, result) = try await group.next() {
                running -= 1
                if case .failure = result, failurePolicy == .stop { stopping = true }
                finished[index] = result
                while !flag.isSet && !Task.isCancelled, let result = finished.removeValue(forKey: delivered) {
                    switch result {
                    case .success: summary.succeeded += 1
                    case .failure: summary.failed += 1
                    }
                    do {
                        try await results(Outcome(index: delivered, name: inputs[delivered].name, result: result))
                    } catch {
                        // Set before the group waits for its running parses, so that they
                        // end at their next read rather than at their input's end.
                        flag.set()
                        throw error
                    }
                    delivered += 1
                }
                startInputs(&group)
            }
            if flag.isSet || Task.isCancelled { throw CancellationError() }
            summary.notStarted = inputs.count - next
            return summary
        }
    }
}
