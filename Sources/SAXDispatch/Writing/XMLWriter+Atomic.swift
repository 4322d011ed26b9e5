/// Calls that are written whole or not at all.
extension XMLWriter {
    /// Runs `body`, a series of calls on this writer, so that a refusal in any of them
    /// leaves the writer and its output as they were before `body` began: what the calls
    /// gathered is kept from the output until `body` returns (an element encoded whole is
    /// bounded as a record is), and dropped with the names it declared if one is refused.
    ///
    /// - Throws: What `body` throws; after an ``XMLWriterError`` other than
    ///   ``XMLWriterError/Code/outputFailed``, nothing of `body` is written.
    func atomically<Result>(_ body: () throws -> Result) throws -> Result {
        guard !holdsBuffer else { return try body() }
        let hold = beginHold()
        let result: Result
        do {
            result = try body()
        } catch let error as XMLWriterError where error.code != .outputFailed {
            takeBack(hold)
            holdsBuffer = false
            throw error
        } catch {
            holdsBuffer = false
            throw error
        }
        try endHold(hold, keeps: true)
        return result
    }
}
