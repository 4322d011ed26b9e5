import Foundation
import SAXDispatch
import SAXDispatchFoundation
import SAXDispatchTestSupport
import Testing

/// `XMLInput.fileHandle(_:)` and `AsyncXMLInput.fileHandle(_:)` from SAXDispatchFoundation.
@Suite("FileHandle inputs")
struct FileHandleInputTests {
    static let document = AsyncSourceTests.zoo(animals: 2000)

    /// A pipe whose write end a thread of its own fills with `bytes` and then closes.
    static func filledPipe(_ bytes: [UInt8]) -> Pipe {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread {
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + 1000, bytes.count)
                writer.write(Data(bytes[offset..<end]))
                offset = end
            }
            try? writer.close()
        }.start()
        return pipe
    }

    @Test("a pipe's FileHandle gives the same events as the bytes, synchronously and on a thread of its own")
    func pipe() async throws {
        let expected = try XMLInputTests.events(XMLInput.bytes(Self.document))
        #expect(expected.count == 4002)
        let synchronous = Self.filledPipe(Self.document)
        #expect(try XMLInputTests.events(XMLInput.fileHandle(synchronous.fileHandleForReading)) == expected)
        let asynchronous = Self.filledPipe(Self.document)
        #expect(try await XMLInputTests.events(AsyncXMLInput.fileHandle(asynchronous.fileHandleForReading)) == expected)
    }

    @Test("a file's FileHandle is read from where it is, and is not closed")
    func file() async throws {
        let path = FileManagerTemp.write("<skip/>" + String(decoding: Self.document, as: UTF8.self), name: "file-handle.xml")
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: 7)
        let events = try XMLInputTests.events(XMLInput.fileHandle(handle))
        #expect(events == (try XMLInputTests.events(XMLInput.bytes(Self.document))))
        // Still open: read again from the start.
        try handle.seek(toOffset: 7)
        #expect(try await XMLInputTests.events(AsyncXMLInput.fileHandle(handle)) == events)
        #expect(try handle.offset() == UInt64(7 + Self.document.count))
    }

    @Test("a handle nothing else holds stays open while it is parsed")
    func keptAlive() async throws {
        let path = FileManagerTemp.write(String(decoding: Self.document, as: UTF8.self), name: "file-handle-alive.xml")
        var input = XMLInput.fileHandle(try #require(FileHandle(forReadingAtPath: path)))
        input.chunkSize = 1024
        #expect(try XMLInputTests.events(input).count == 4002)
        var asyncInput = AsyncXMLInput.fileHandle(try #require(FileHandle(forReadingAtPath: path)))
        asyncInput.chunkSize = 1024
        #expect(try await XMLInputTests.events(asyncInput).count == 4002)
    }

    @Test("errors name the handle by its descriptor, or by the name given")
    func names() throws {
        let pipe = Self.filledPipe(Array("<zoo>\n  <animal>cat</zoo>".utf8))
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        let input = XMLInput.fileHandle(pipe.fileHandleForReading)
        #expect(input.name == "<file handle \(descriptor)>")
        do {
            _ = try XMLInputTests.events(input)
            Issue.record("a malformed document was read")
        } catch let error as XMLParseError {
            #expect(error.description.hasPrefix("<file handle \(descriptor)>:2:16: error: mismatched tag (in zoo/animal)"))
        }
        let named = Self.filledPipe(Array("<zoo>".utf8))
        do {
            _ = try XMLInputTests.events(XMLInput.fileHandle(named.fileHandleForReading).named("converter output"))
            Issue.record("a truncated document was read")
        } catch let error as XMLParseError {
            #expect(error.description.hasPrefix("converter output:1:6: error:"))
        }
        #expect(AsyncXMLInput.fileHandle(pipe.fileHandleForReading).name == "<file handle \(descriptor)>")
    }

    /// A handle open for writing only: its read fails (EBADF). Not a closed handle: tests
    /// run at once, and another test may open a file under the closed descriptor's number,
    /// which the read would then take from it.
    @Test("a handle that cannot be read: its read fails with an XMLInputError naming it")
    func unreadableHandle() throws {
        let path = FileManagerTemp.write("<a/>", name: "file-handle-write-only.xml")
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let input = XMLInput.fileHandle(handle)
        do {
            _ = try XMLInputTests.events(input)
            Issue.record("a write-only handle was read")
        } catch let error as XMLInputError {
            #expect(error.description.hasPrefix(input.name))
        }
    }
}
