import Foundation
import SAXDispatch
import SAXDispatchCompression
import SAXDispatchTestSupport
import Testing

/// Compressed output: what an `XMLWriter` writes through `XMLOutput.compressed(_:level:)`
/// decompresses to the same bytes, by the package and by the system's tools, whatever the
/// level, the chunk size and the size of the document.
@Suite("Compression: compressed output")
struct CompressedOutputTests {
    final class Collected: XMLOutputWriter, @unchecked Sendable {
        var bytes: [UInt8] = []
        var closed = 0
        var largestWrite = 0
        func write(_ buffer: UnsafeRawBufferPointer) throws {
            bytes += buffer
            largestWrite = max(largestWrite, buffer.count)
        }
        func close() throws { closed += 1 }
    }

    /// A document of `records` records, written by `write` into `writer`.
    static func writeRecords(_ records: Int, into writer: XMLWriter) throws {
        try writer.startElement("records", attributes: ["count": "\(records)"])
        for index in 0..<records {
            try writer.startElement("record", attributes: ["id": "\(index)"])
            try writer.element("name", text: "record \(index) \u{E9}\u{1F600} <&>")
            try writer.element("value", text: String(index * 7919 % 1000))
            try writer.endElement()
        }
        try writer.endElement()
    }

    /// The plain document and its compressed form, written at `level` in pieces of `chunkSize`.
    static func written(_ format: CompressionFormat, level: Int?, records: Int, chunkSize: Int) throws -> (
        plain: [UInt8], compressed: [UInt8], largestWrite: Int
    ) {
        let plain = Collected()
        let plainWriter = try XMLWriter(to: .writer(name: "plain") { plain })
        try writeRecords(records, into: plainWriter)
        try plainWriter.finish()
        let collected = Collected()
        var output = XMLOutput.writer(name: "memory") { collected }
        output.chunkSize = chunkSize
        let writer = try XMLWriter(to: output.compressed(format, level: level))
        try writeRecords(records, into: writer)
        try writer.finish()
        #expect(collected.closed == 1)
        return (plain.bytes, collected.bytes, collected.largestWrite)
    }

    static func decompressed(_ bytes: [UInt8]) throws -> [UInt8] {
        var result: [UInt8] = []
        var reader = try XMLInput.decompressing(.bytes(bytes)).makeReader()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            result += buffer[..<count]
        }
        return result
    }

    @Test(
        "every format, level and chunk size decompresses to what was written, read by the package",
        arguments: CompressionFormat.all)
    func roundTrips(_ format: CompressionFormat) throws {
        let levels: [Int?] = format == .zstd ? [nil, 1, 19] : format == .xz ? [nil, 0, 9] : [nil, 1, 9]
        for level in levels {
            for (records, chunkSize) in [(0, 64), (3, 1), (2_000, 4096), (20_000, 65536)] {
                let written = try Self.written(format, level: level, records: records, chunkSize: chunkSize)
                #expect(written.compressed.count < written.plain.count || records < 10)
                #expect(try Self.decompressed(written.compressed) == written.plain, "\(format) \(level ?? -1) \(records)")
                // Constant memory: the compressor's writes are bounded by its own buffer.
                #expect(written.largestWrite <= 64 * 1024)
            }
        }
    }

    @Test("the system's tools read what the writer compressed", arguments: CompressionFormat.all)
    func systemToolsRead(_ format: CompressionFormat) throws {
        guard let tool = Compressed.tool(format) else { return }
        let written = try Self.written(format, level: nil, records: 5_000, chunkSize: 8192)
        let path = FileManagerTemp.write(Data(written.compressed), name: "compressed-output-\(format)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-d", "-c", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect([UInt8](data) == written.plain)
    }

    @Test("a level the format does not have is a CompressionError when the writer is made, naming the output")
    func invalidLevel() throws {
        #expect {
            _ = try XMLWriter(to: XMLOutput.writer(name: "out.gz") { Collected() }.compressed(.gzip, level: 10))
        } throws: { error in
            guard let error = error as? CompressionError else { return false }
            return error.format == .gzip && error.name == "out.gz" && error.message == "gzip has no level 10: 1 to 9"
        }
    }

    @Test("a transform writes a compressed file that reads back as the filtered document")
    func transformToCompressedFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("transform-\(getpid()).xml.zst").path
        defer { unlink(path) }
        var transform = XMLTransform()
        transform.drop("animal")
        try transform.run(.file(Compressed.zooPath), to: XMLOutput.file(path).compressed(.zstd))
        var names: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { names.append($0.name) }
        try dispatcher.parse(.decompressing(.file(path)))
        #expect(!names.isEmpty && !names.contains("animal"))
    }
}
