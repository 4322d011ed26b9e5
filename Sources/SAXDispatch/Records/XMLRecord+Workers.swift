extension XMLRecord where Model: Sendable {
    /// Calls `body` with each record's model, in document order, as ``forEach(in:safety:diagnostics:_:)``
    /// does, reading the document on `workers` threads: one document of any size on
    /// every core.
    ///
    /// ```swift
    /// try Page.record.forEach(in: .file("enwiki-pages-articles.xml"), workers: 8) { page in
    ///     index.add(page)
    /// }
    /// ```
    ///
    /// A fast framing pass on the calling thread reads the document and cuts it into
    /// ranges of about `rangeBytes` at the start tags of elements with the record pattern's
    /// last name, and each worker parses a range as a document of its own: the bytes before
    /// the root element, the start tags of the elements open around the range, the range,
    /// and the end tags that close them (``XMLDocumentRange``). `body` runs on the calling
    /// thread, each range's models after those of every range before it, so the models,
    /// the diagnostics and the first error are those of ``forEach(in:safety:diagnostics:_:)``,
    /// with the same line and column, whatever the document:
    ///
    /// - A range whose parse fails, or that ends inside a record (a record element around
    ///   the range's boundaries), and everything after it, is read by one sequential parse
    ///   from where it begins; so is the rest of a document the framing pass stops reading
    ///   (another encoding than UTF-8, US-ASCII or ISO-8859-1, a record over 16 MiB).
    /// - Memory stays bounded: at most `2 × workers` ranges are handed to the workers and
    ///   not yet delivered.
    /// - To have the workers call `body` too, each range as soon as it may, with each
    ///   model's number in document order: ``forEachAsCompleted(in:workers:rangeBytes:safety:diagnostics:_:)``.
    /// - With `workers` below 2, a pattern whose last step names no element (`*`), an
    ///   input whose encoding is set to another than UTF-8 (``XMLInput/encoding(_:)``) or that holds documents
    ///   one after another, the document is read on the calling thread, as
    ///   ``forEach(in:safety:diagnostics:_:)`` reads it.
    ///
    /// - Parameters:
    ///   - input: The document (``XMLInput``).
    ///   - workers: How many threads parse ranges (the calling thread frames and delivers).
    ///   - rangeBytes: About how large each range is (a range ends at the first record
    ///     boundary past it): 1 MiB unless given. The last ranges are smaller when the input's
    ///     length is known (a file, bytes in memory), so that the workers end together.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said),
    ///     over the whole document as in one parse. Expat's memory budget is held so: once
    ///     the distinct names of the ranges read could fill it in one parse of the whole,
    ///     the document is read again in one parse, which delivers only what the ranges did
    ///     not (an input that cannot be read again, a descriptor or a reader of your own,
    ///     is read on from there with the budget charged for those names, which may end it
    ///     earlier than one parse would). A document whose internal subset declares an
    ///     entity with replacement text or an attribute default is read in one parse, so
    ///     that the amplification ratios count from its first byte.
    ///   - diagnostics: Receives, in document order, the errors of records that the failure
    ///     policy skipped or replaced.
    ///   - body: Receives each model, in document order, on the calling thread; an error it
    ///     throws ends the parse and is rethrown as it is.
    /// - Returns: How many records were delivered and how many failed; the warnings every
    ///   range's parse gave (the names a pattern that matched nothing may have meant are
    ///   counted in the first range); how many ranges the workers read, and where a
    ///   sequential parse took over, if one did.
    /// - Throws: As ``forEach(in:safety:diagnostics:_:)``.
    @discardableResult
    public func forEach(
        in input: XMLInput, workers: Int, rangeBytes: Int = 1 << 20, safety: SafetyProfile = .default,
        diagnostics: ((XMLRecordError) -> Void)? = nil, _ body: (Model) throws -> Void
    ) throws -> RecordParseSummary {
        guard let parallel = ParallelRangeParse(input: input, pattern: pattern, workers: workers, rangeBytes: rangeBytes)
        else {
            return try forEach(in: input, safety: safety, diagnostics: diagnostics, body)
        }
        var summary = RecordParseSummary()
        var warnings = RangeWarnings()
        let record = self
        let report: ParallelRangeParse.Report
        do {
            report = try withoutActuallyEscaping(body) { body in
                // What the workers' ranges and a sequential parse deliver alike.
                func deliver(_ model: Model) throws {
                    summary.delivered += 1
                    try body(model)
                }
                func setAside(_ error: XMLRecordError) { summary.setAside(error, diagnostics: diagnostics) }
                return try parallel.run(
                    parse: { job in record.parseRange(job, safety: safety) },
                    deliver: { range in
                        // The records set aside go between the models, where they failed.
                        var failures = 0
                        try range.models.drain { index, model in
                            while failures < range.failures.count && range.failures[failures].before == index {
                                setAside(range.failures[failures].error)
                                failures += 1
                            }
                            try deliver(model)
                        }
                        for failure in range.failures[failures...] { setAside(failure.error) }
                        warnings.add(range.warnings)
                    },
                    dropsDelivered: true,
                    sequential: { start in
                        warnings.beginSequential(at: start)
                        var modelsAgain = RepeatedDeliveries(start, delivered: summary.delivered)
                        var failuresAgain = RepeatedDeliveries(start, delivered: summary.failed)
                        var dispatcher = record.dispatcherOwningDocument(
                            safety: safety, report: { if failuresAgain.isNew() { setAside($0) } },
                            deliver: { if modelsAgain.isNew() { try deliver($0) } })
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

    /// What a worker makes of one range: the models, in document order; the records set
    /// aside, each with how many models came before it; and the warnings of its parse.
    struct RangeRecords: Sendable {
        let models = DeliveryBuffer<Model>()
        var failures: [(before: Int, error: XMLRecordError)] = []
        var warnings: [ParseWarning] = []
    }

    /// Parses one range's document; `nil` when it does not verify: a parse error, a
    /// handler's error, or a record delivered while the range's closing tags were read.
    func parseRange(_ job: RangeJob, safety: SafetyProfile) -> RangeRecords? {
        var range = RangeRecords()
        let models = range.models
        var dispatcher = dispatcherMovingModels(
            safety: safety, report: { range.failures.append((models.count, $0)) },
            deliver: { models.append(movingFrom: $0.assumingMemoryBound(to: Model.self)) })
        dispatcher.onWarning { range.warnings.append($0) }
        guard job.parseVerifying(with: dispatcher, delivered: { models.count + range.failures.count }) else { return nil }
        return range
    }
}
