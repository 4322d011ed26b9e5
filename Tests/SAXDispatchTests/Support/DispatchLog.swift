import SAXDispatch
import Testing

/// Parses `document` fed whole, by 1 and by 3 bytes with the handlers `configure`
/// registers (they append to the log they are given), checks that every feeding
/// gives the same log, and returns it.
func dispatchLog(_ document: String, _ configure: (inout Dispatcher, Log) -> Void) throws -> [String] {
    var logs: [[String]] = []
    for chunk in [document.utf8.count, 1, 3] {
        let log = Log()
        var dispatcher = Dispatcher()
        configure(&dispatcher, log)
        let parser = PushParser(dispatcher)
        try parser.feed(Array(document.utf8), inPiecesOf: chunk)
        _ = try parser.finish()
        logs.append(log.lines)
    }
    #expect(logs[1] == logs[0], "fed by 1 byte")
    #expect(logs[2] == logs[0], "fed by 3 bytes")
    return logs[0]
}

final class Log {
    var lines: [String] = []
    func callAsFunction(_ line: String) { lines.append(line) }
}
