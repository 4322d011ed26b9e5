extension XMLRecordDecoder {
    /// Decodes each element matching `pattern` as a `T` and calls `body` with it, in
    /// document order, as ``forEach(_:at:in:safety:onWarning:_:)`` does, reading the
    /// document on `workers` threads: one document of any size on every core.
    ///
    /// ```swift
    /// try XMLRecordDecoder().forEach(Page.self, at: "/mediawiki/page", in: .file("dump.xml"), workers: 8) { page in
    ///     print(page.title)
    /// }
    /// ```
    ///
    /// The document is read in ranges, as ``XMLRecord/forEach(in:workers:rangeBytes:safety:diagnostics:_:)``
    /// reads it: cut at the start tags of elements with the pattern's last name, each range
    /// decoded by a worker as a document of its own, the values delivered on the calling
    /// thread range after range. A range whose parse fails (an element that does not decode
    /// included) or that ends inside a matched element, and everything after it, is read by
    /// one sequential parse from where it begins, so the values and the first error are those
    /// of ``forEach(_:at:in:safety:onWarning:_:)``, with the same line and column.
    ///
    /// - Parameters:
    ///   - type: The type to decode each element as.
    ///   - pattern: Which elements (any ``ElementPattern``).
    ///   - input: The document (``XMLInput``).
    ///   - workers: How many threads decode ranges; below 2, the document is read on the
    ///     calling thread.
    ///   - rangeBytes: About how large each range is: 1 MiB unless given. The last ranges are
    ///     smaller when the input's length is known (a file, bytes in memory), so that the
    ///     workers end together.
    ///   - safety: The limits the document must keep (``SafetyProfile/default`` unless said).
    ///   - onWarning: Receives the warnings every range gave, once the document has been read.
    ///   - body: Receives each value, in document order, on the calling thread; an error it
    ///     throws ends the parse and is rethrown as it is.
    /// - Returns: How many values were decoded.
    /// - Throws: As ``forEach(_:at:in:safety:onWarning:_:)``.
    @discardableResult
    public func forEach<T: Decodable & Sendable>(
        _ type: T.Type, at pattern: ElementPattern, in input: XMLInput, workers: Int, rangeBytes: Int = 1 << 20,
        safety: SafetyProfile = .default, onWarning: ((ParseWarning) -> Void)? = nil, _ body: (T) throws -> Void
    ) throws -> Int {
        guard let parallel = ParallelRangeParse(input: input, pattern: pattern, workers: workers, rangeBytes: rangeBytes)
        else {
            return try forEach(T.self, at: pattern, in: input, safety: safety, onWarning: onWarning, body)
        }
        let decoder = self
        var count = 0
        var warnings = RangeWarnings()
        do {
            _ = try withoutActuallyEscaping(body) { body in
                try parallel.run(
                    parse: { job in decoder.parseRange(job, as: T.self, at: pattern, safety: safety) },
                    deliver: { (range: RangeValues<T>) in
                        try range.values.drain { _, value in
                            count += 1
                            try body(value)
                        }
                        warnings.add(range.warnings)
                    },
                    dropsDelivered: true,
                    sequential: { start in
                        warnings.beginSequential(at: start)
                        var again = RepeatedDeliveries(start, delivered: count)
                        var dispatcher = decoder.dispatcherOwningDocument(T.self, at: pattern, safety: safety) { value in
                            guard again.isNew() else { return }
                            count += 1
                            try body(value)
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

    /// Decodes one range's document on a worker; `nil` when it does not verify: a parse
    /// error, an element that does not decode, or a value delivered while the range's
    /// closing tags were read.
    func parseRange<T: Decodable & Sendable>(
        _ job: RangeJob, as type: T.Type, at pattern: ElementPattern, safety: SafetyProfile
    ) -> RangeValues<T>? {
        var range = RangeValues<T>()
        let values = range.values
        var dispatcher = dispatcherOwningDocument(T.self, at: pattern, safety: safety) { values.append($0) }
        dispatcher.onWarning { range.warnings.append($0) }
        guard job.parseVerifying(with: dispatcher, delivered: { values.count }) else { return nil }
        return range
    }
}
