extension XMLRecordDecoder {
    /// Decodes each element matching `pattern` as a `T` and calls `body` with it and its
    /// number in document order, on the worker that decoded it, as soon as it may.
    ///
    /// ```swift
    /// try XMLRecordDecoder().forEachAsCompleted(Page.self, at: "/mediawiki/page", in: .file("dump.xml"), workers: 8) {
    ///     number, page in
    ///     index.add(page, at: number)   // `index` guards its own state
    /// }
    /// ```
    ///
    /// The values are those of ``forEach(_:at:in:workers:rangeBytes:safety:onWarning:_:)``,
    /// each exactly once, numbered from 0 in document order; as with
    /// ``XMLRecord/forEachAsCompleted(in:workers:rangeBytes:safety:diagnostics:_:)``, the
    /// worker that decoded a range delivers its values once every range before it has been
    /// read and verified, so ranges are delivered side by side, and a value is never
    /// delivered before it is known to belong to the sequential result. `body` runs on
    /// several threads at once; when it throws, the other workers stop at their next value
    /// and its error is rethrown (values on either side of it, in other ranges, may or may
    /// not have been delivered).
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements (any ``ElementPattern``).
    ///   - input: The document (``XMLInput``).
    ///   - workers: How many threads decode and deliver ranges; below 2, the document is
    ///     read on the calling thread, which calls `body` in order.
    ///   - rangeBytes: About how large each range is: 1 MiB unless given. The last ranges are
    ///     smaller when the input's length is known (a file, bytes in memory), so that the
    ///     workers end together.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - onWarning: Receives the warnings every range gave, once the document has been read.
    ///   - body: Receives each value with its number.
    /// - Returns: How many values were decoded.
    /// - Throws: As ``forEach(_:at:in:workers:rangeBytes:safety:onWarning:_:)``.
    @discardableResult
    public func forEachAsCompleted<T: Decodable & Sendable>(
        _ type: T.Type, at pattern: ElementPattern, in input: XMLInput, workers: Int, rangeBytes: Int = 1 << 20,
        safety: SafetyProfile = .default, onWarning: ((ParseWarning) -> Void)? = nil,
        _ body: @Sendable (_ number: Int, _ value: T) throws -> Void
    ) throws -> Int {
        guard let parallel = ParallelRangeParse(input: input, pattern: pattern, workers: workers, rangeBytes: rangeBytes)
        else {
            var number = 0
            return try forEach(T.self, at: pattern, in: input, safety: safety, onWarning: onWarning) { value in
                try body(number, value)
                number += 1
            }
        }
        let decoder = self
        var count = 0
        var warnings = RangeWarnings()
        let gate = CompletionGate(memory: parallel.memory)
        defer { gate.stop() }
        do {
            _ = try withoutActuallyEscaping(body) { body in
                // The workers reach `body` through a box emptied before this closure returns
                // (every worker stopped by then), so that none keeps it past the call.
                let lent = LockedValue<(@Sendable (Int, T) throws -> Void)?>(body)
                defer { lent.withLock { $0 = nil } }
                try parallel.run(
                    parse: { job -> DeliveredValues? in
                        guard let range = decoder.parseRange(job, as: T.self, at: pattern, safety: safety) else {
                            _ = gate.awaitTurn(of: job.index, values: nil, names: nil)
                            return nil
                        }
                        return DeliveredValues(range, gate: gate, job: job, body: lent.withLock { $0 })
                    },
                    deliver: { (range: DeliveredValues) in
                        count += range.delivered
                        warnings.add(range.warnings)
                        if let error = range.error { throw error }
                    },
                    dropping: { gate.drop($0) },
                    dropsDelivered: true,
                    sequential: { start in
                        warnings.beginSequential(at: start)
                        var again = RepeatedDeliveries(start, delivered: count)
                        var dispatcher = decoder.dispatcherOwningDocument(T.self, at: pattern, safety: safety) { value in
                            guard again.isNew() else { return }
                            let number = count
                            count += 1
                            try body(number, value)
                        }
                        dispatcher.onWarning { warnings.addSequential($0) }
                        return dispatcher
                    })
            }
        } catch let error as HandlerError {
            throw error.underlying
        }
        if let onWarning { warnings.common.forEach(onWarning) }
        return count
    }

    /// What a worker did with one verified range: the values it delivered, its warnings,
    /// and what `body` threw, which ends the read.
    struct DeliveredValues: Sendable {
        var delivered = 0
        let warnings: [ParseWarning]
        var error: (any Error)?

        /// Delivers `range`'s values to `body`, numbered, when its turn comes.
        init<T>(_ range: RangeValues<T>, gate: CompletionGate, job: RangeJob, body: (@Sendable (Int, T) throws -> Void)?) {
            warnings = range.warnings
            guard let first = gate.awaitTurn(of: job.index, values: range.values.count, names: job.internedNames), let body else { return }
            do {
                try range.values.drain { index, value in
                    if gate.isStopped { throw CompletionGate.Stopped() }
                    try body(first + index, value)
                    delivered += 1
                }
            } catch is CompletionGate.Stopped {
                // Another worker's body threw: its error is the one the read ends with.
            } catch {
                gate.stop()
                self.error = error
            }
        }
    }
}
