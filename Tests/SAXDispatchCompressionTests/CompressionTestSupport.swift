import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// Fixtures, event transcripts and readers the compression tests share.
enum Compressed {
    static let fixtures = TestPaths.packageRoot.appendingPathComponent("Tests/SAXDispatchCompressionTests/Fixtures")

    /// The file extension of each format's fixtures.
    static let extensions: [CompressionFormat: String] = [.gzip: "gz", .bzip2: "bz2", .xz: "xz", .zstd: "zst"]

    static func path(_ stem: String, _ format: CompressionFormat) -> String {
        fixtures.appendingPathComponent("\(stem).\(extensions[format] ?? "")").path
    }

    static func bytes(_ stem: String, _ format: CompressionFormat) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(stem, format))))
    }

    static var zooPath: String { TestPaths.fixture("zoo.xml").path }

    /// The system's command for a format, when it is installed (zstd often is not).
    static func tool(_ format: CompressionFormat) -> String? {
        let name = ["gzip": "gzip", "bzip2": "bzip2", "xz": "xz", "zstd": "zstd"][format.name] ?? format.name
        return ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"]
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `bytes` compressed by the system's command for `format`.
    static func compress(_ bytes: [UInt8], _ format: CompressionFormat, options: [String] = []) throws -> [UInt8] {
        let command = try #require(Self.tool(format))
        let input = FileManagerTemp.write(Data(bytes), name: "compress-input-\(format)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: input) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = ["-c", "-q"] + options + [input]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return [UInt8](data)
    }

    /// A transcript of a parse: every start (with its position) and end (with its own
    /// text), then the error that ended it, if one did.
    static func transcript(_ input: XMLInput, safety: SafetyProfile = .default) -> (events: [String], error: (any Error)?) {
        final class Lines: @unchecked Sendable { var value: [String] = [] }
        let lines = Lines()
        var dispatcher = Dispatcher()
        dispatcher.safety = safety
        dispatcher.onAnyStart { element in lines.value.append("start \(element.name) \(element.line):\(element.column)") }
        dispatcher.onAnyEnd(whitespace: .preserve) { element, text in lines.value.append("end \(element.name) \(text.debugDescription)") }
        do {
            try dispatcher.parse(input)
            return (lines.value, nil)
        } catch {
            return (lines.value, error)
        }
    }

    /// Everything a reader produces, read into buffers of `size` bytes.
    static func drain(_ reader: inout some XMLInputReader, bufferSize size: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: size)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { return result }
            result += buffer[..<count]
        }
    }
}

/// Hands over another reader's bytes at most `limit` at a time, and counts them.
/// Unchecked `Sendable`: a test that counts reads captures one in its input, used by one parse at a time.
final class TrickleReader: XMLInputReader, @unchecked Sendable {
    private var base: any XMLInputReader
    private let limit: Int
    private(set) var count = 0

    init(_ base: any XMLInputReader, limit: Int = 1) {
        self.base = base
        self.limit = limit
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let read = try base.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(limit)))
        count += read
        return read
    }
}

/// Bytes in memory, handed over a piece at a time, then an error.
struct FailingReader: XMLInputReader {
    struct Failure: Error, Equatable {}

    var bytes: ArraySlice<UInt8>

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !bytes.isEmpty else { throw Failure() }
        let count = min(buffer.count, bytes.count, 7)
        buffer.copyBytes(from: bytes.prefix(count))
        bytes = bytes.dropFirst(count)
        return count
    }
}
