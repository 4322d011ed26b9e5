extension XMLRecord where Model: Sendable {
    /// Calls `body` with each record's model and its number in document order, on the
    /// worker that read it, as soon as it may: one document on every core, with the work
    /// `body` does spread over the workers too.
    ///
    /// ```swift
    /// let index = Index()   // guards its own state
    /// try Page.record.forEachAsCompleted(in: .file("enwiki-pages-articles.xml"), workers: 8) { number, page in
    ///     index.add(page, at: number)
    /// }
    /// ```
    ///
    /// The document is read in ranges as ``forEach(in:workers:rangeBytes:safety:diagnostics:_:)``
    /// reads it, and the same records come out: each exactly once, numbered from 0 in
    /// document order (the `n`th model ``forEach(in:safety:diagnostics:_:)`` would deliver
    /// has number `n`), so sorting by number gives the order of a sequential parse. What
    /// changes is who calls `body` and when: the worker that parsed a range delivers its
    /// models, in order among themselves, once every range before it has been parsed and
    /// verified (not delivered), so ranges are delivered side by side; the rest of a
    /// document read sequentially (after a range that does not verify) is delivered on
    /// the calling thread. A model is never delivered before it is known to belong to the
    /// sequential result: the first error comes after every model before it was delivered,
    /// and no model after it is.
    ///
    /// `body` runs on several threads at once, so what it shares it must guard. When it
    /// throws, the other workers stop at their next model and its error is rethrown: models
    /// numbered after the failing one may have been delivered by then, and models before it
    /// in other ranges not.
    ///
    /// - Parameters:
    ///   - input: The document (``XMLInput``).
    ///   - workers: How many threads parse and deliver ranges; below 2 (or for any input
    ///     ``forEach(in:workers:rangeBytes:safety:diagnostics:_:)`` reads sequentially), the
    ///     document is read on the calling thread, which then calls `body` in order.
    ///   - rangeBytes: About how large each range is: 1 MiB unless given. The last ranges are
    ///     smaller when the input's length is known (a file, bytes in memory), so that the
    ///     workers end together.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said),
    ///     as for ``forEach(in:workers:rangeBytes:safety:diagnostics:_:)``.
    ///   - diagnostics: Receives, in document order and on the calling thread, the errors of
    ///     records that the failure policy skipped or replaced.
    ///   - body: Receives each model with its number.
    /// - Returns: As ``forEach(in:workers:rangeBytes:safety:diagnostics:_:)``.
    /// - Throws: As ``forEach(in:workers:rangeBytes:safety:diagnostics:_:)``: the first
    ///   error of the document, or the first error `body` threw, as it is.
    @discardableResult
    public func forEachAsCompleted(
        in input: XMLInput, workers: Int, rangeBytes: Int = 1 << 20, safety: SafetyProfile = .default,
        diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: @Sendable (_ number: Int, _ model: Model) throws -> Void
    ) throws -> RecordParseSummary {
        guard let parallel = ParallelRangeParse(input: input, pattern: pattern, workers: workers, rangeBytes: rangeBytes)
        else {
            var number = 0
            return try forEach(in: input, safety: safety, diagnostics: diagnostics) { model in
                try body(number, model)
                number += 1
            }
        }
        var summary = RecordParseSummary()
        var warnings = RangeWarnings()
        let record = self
        let gate = CompletionGate(memory: parallel.memory)
        defer { gate.stop() }
        let report: ParallelRangeParse.Report
        do {
            report = try withoutActuallyEscaping(body) { body in
                func setAside(_ error: XMLRecordError) { summary.setAside(error, diagnostics: diagnostics) }
                // The workers reach `body` through a box emptied before this closure returns
                // (every worker stopped by then), so that none keeps it past the call.
                let lent = LockedValue<(@Sendable (Int, Model) throws -> Void)?>(body)
                defer { lent.withLock { $0 = nil } }
                return try parallel.run(
                    parse: { job -> DeliveredRange? in
                        guard let range = record.parseRange(job, safety: safety) else {
                            _ = gate.awaitTurn(of: job.index, values: nil, names: nil)
                            return nil
                        }
                        return DeliveredRange(range, gate: gate, job: job, body: lent.withLock { $0 })
                    },
                    deliver: { range in
                        summary.delivered += range.delivered
                        range.failures.forEach(setAside)
                        warnings.add(range.warnings)
                        if let error = range.error { throw error }
                    },
                    dropping: { gate.drop($0) },
                    dropsDelivered: true,
                    sequential: { start in
                        warnings.beginSequential(at: start)
                        var modelsAgain = RepeatedDeliveries(start, delivered: summary.delivered)
                        var failuresAgain = RepeatedDeliveries(start, delivered: summary.failed)
                        var number = summary.delivered
                        let report: (XMLRecordError) -> Void = { if failuresAgain.isNew() { setAside($0) } }
                        var dispatcher = record.dispatcherOwningDocument(safety: safety, report: report) { model in
                            guard modelsAgain.isNew() else { return }
                            summary.delivered += 1
                            try body(number, model)
                            number += 1
                        }
                        dispatcher.onWarning { warnings.addSequential($0) }
                        return dispatcher
                    })
            }
        } catch let error as HandlerError {
            throw Self.unwrapped(error)
        }
        summary.rangesReadInParallel = report.rangesReadInParallel
        summary.sequentialFrom = report.sequentialFrom
        summary.warnings = warnings.common
        return summary
    }

    /// What a worker did with one verified range: the models it delivered, and what it
    /// leaves to the calling thread.
    struct DeliveredRange: Sendable {
        var delivered = 0
        let failures: [XMLRecordError]
        let warnings: [ParseWarning]
        /// What `body` threw, which ends the read.
        var error: (any Error)?

        /// Delivers `range`'s models to `body`, numbered, when its turn comes.
        init(_ range: RangeRecords, gate: CompletionGate, job: RangeJob, body: (@Sendable (Int, Model) throws -> Void)?) {
            failures = range.failures.map(\.error)
            warnings = range.warnings
            guard let first = gate.awaitTurn(of: job.index, values: range.models.count, names: job.internedNames), let body else { return }
            var delivered = 0
            do {
                try range.models.drain { index, model in
                    if gate.isStopped { throw CompletionGate.Stopped() }
                    try body(first + index, model)
                    delivered += 1
                }
            } catch is CompletionGate.Stopped {
                // Another worker's body threw: its error is the one the read ends with.
            } catch {
                gate.stop()
                self.error = error
            }
            self.delivered = delivered
        }
    }
}
