/// Threads that parse ranges (``RangeJob``) as they come, and keep each result until the
/// caller takes it, in document order.
///
/// What must stay true: at most ``capacity`` jobs are queued or running and not yet taken
/// (or dropped), so memory is bounded by the workers and the ranges' size; a result is
/// taken once; a dropped job's result is never kept; once ``stop()`` returns no job runs or
/// starts, and the workers end.
final class RangeWorkers<Result: Sendable>: @unchecked Sendable {
    // Every stored `var` is guarded by `lock`.
    private let lock = Lock()
    private let changed = Condition()
    private var queued: [RangeJob] = []
    private var results: [Int: Result] = [:]
    /// Jobs handed in and not yet taken back as results.
    private var outstanding = 0
    /// Jobs a worker is parsing now, by index.
    private var parsing: Set<Int> = []
    /// Jobs being parsed when they were dropped: their results are thrown away.
    private var discarded: Set<Int> = []
    private var stopped = false
    /// How many jobs may be handed in and not yet taken.
    let capacity: Int
    /// How many threads started: none when the system had none to give.
    private(set) var running = 0

    /// Starts `count` threads running `parse` on each job; `false` from `started` when no
    /// thread could be started (the caller then reads sequentially).
    init(count: Int, capacity: Int, parse: @escaping @Sendable (RangeJob) -> Result) {
        self.capacity = max(1, capacity)
        for _ in 0..<count {
            let started = startThread { [self] in
                // The job (its bytes) is gone before its result is published: once the
                // caller has the result, no worker holds the range's reads.
                while let (index, result) = nextJob().map({ job in (job.index, parse(job)) }) {
                    lock.withLock {
                        parsing.remove(index)
                        if discarded.remove(index) != nil {
                            outstanding -= 1
                        } else if !stopped {
                            results[index] = result
                        }
                        changed.broadcast()
                    }
                }
            }
            if !started { break }
            running += 1
        }
    }

    /// Hands in a job, waiting while ``capacity`` jobs are outstanding.
    func submit(_ job: RangeJob) {
        lock.lock()
        while outstanding >= capacity && !stopped { changed.wait(on: lock) }
        if !stopped {
            queued.append(job)
            outstanding += 1
            changed.broadcast()
        }
        lock.unlock()
    }

    /// Whether a job may be handed in without waiting.
    var hasRoom: Bool { lock.withLock { outstanding < capacity } }

    /// The result of job `index`, waiting for it when `waits`; `nil` when it is not ready
    /// (or the workers stopped).
    func take(_ index: Int, waits: Bool) -> Result? {
        lock.lock()
        defer { lock.unlock() }
        while results[index] == nil && waits && !stopped { changed.wait(on: lock) }
        guard let result = results.removeValue(forKey: index) else { return nil }
        outstanding -= 1
        changed.broadcast()
        return result
    }

    /// Drops the jobs whose indices are in `indices`: queued ones are not parsed, the results
    /// of finished ones are thrown away, and so are those of the ones being parsed when they
    /// finish. Each stops counting against ``capacity`` once it is thrown away.
    func drop(_ indices: Range<Int>) {
        lock.withLock {
            let before = queued.count
            queued.removeAll { indices.contains($0.index) }
            outstanding -= before - queued.count
            for index in indices {
                if results.removeValue(forKey: index) != nil {
                    outstanding -= 1
                } else if parsing.contains(index) {
                    discarded.insert(index)
                }
            }
            changed.broadcast()
        }
    }

    /// Drops the queued jobs and waits until no worker parses one: the workers end, and
    /// none of their work (the handlers of a range's parse) goes on after the caller's.
    func stop() {
        lock.lock()
        stopped = true
        queued.removeAll()
        results.removeAll()
        changed.broadcast()
        while !parsing.isEmpty { changed.wait(on: lock) }
        lock.unlock()
    }

    private func nextJob() -> RangeJob? {
        lock.lock()
        defer { lock.unlock() }
        while queued.isEmpty && !stopped { changed.wait(on: lock) }
        if stopped { return nil }
        let job = queued.removeFirst()
        parsing.insert(job.index)
        return job
    }
}
