#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Dispatcher {
    /// The size of the pieces read from files and gathered from byte streams: 64 KiB.
    public static let defaultChunkSize = 64 * 1024

    /// Parses a whole document held in memory (`[UInt8]`, `Data`, a slice, …).
    ///
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a handler stopped.
    /// - Throws: ``XMLParseError`` for a malformed document, or a ``HandlerError`` wrapping a handler's error.
    @discardableResult
    public func parse(_ bytes: some Sequence<UInt8>) throws -> ParseOutcome {
        let parser = PushParser(self)
        try parser.feed(bytes)
        return try parser.finish()
    }

    /// Parses a whole document held in a string, as UTF-8.
    ///
    /// The encoding named in the XML declaration is ignored, whatever it is: a string
    /// holds Unicode text, so a declared encoding describes bytes it no longer has
    /// (`encoding="ISO-8859-1"` would turn `é` into `Ã©`). Parse bytes to have the
    /// declaration decide.
    ///
    /// ```swift
    /// try dispatcher.parse("<zoo><animal>cat</animal></zoo>")
    /// ```
    ///
    /// - Throws: ``XMLParseError`` for a malformed document or a broken ``SafetyProfile``
    ///   limit, or a ``HandlerError`` wrapping a handler's error.
    @discardableResult
    public func parse(_ text: String) throws -> ParseOutcome {
        let parser = PushParser(self, source: nil, encoding: "UTF-8")
        try parser.feed(text)
        return try parser.finish()
    }

    /// Parses a file, streaming it in fixed-size chunks read straight into expat's
    /// buffer; the file is never held in memory whole.
    ///
    /// - Throws: ``XMLInputError`` if the file cannot be opened or read,
    ///   ``XMLParseError`` for a malformed document (with the path as its source), or
    ///   a ``HandlerError`` wrapping a handler's error.
    @discardableResult
    public func parse(contentsOfFile path: String, chunkSize: Int = defaultChunkSize) throws -> ParseOutcome {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let number = errno
            throw XMLInputError.cannotOpen(path: path, errorNumber: number)
        }
        defer { close(descriptor) }
        return try PushParser(self, source: path).parse(fileDescriptor: descriptor, chunkSize: max(1, chunkSize))
    }

    /// Parses a local file named by a `file:` URL. See ``parse(contentsOfFile:chunkSize:)``.
    ///
    /// - Throws: ``XMLInputError`` if `url` is not a `file:` URL or the file cannot be
    ///   opened or read, ``XMLParseError`` for a malformed document or a broken
    ///   ``SafetyProfile`` limit (with the path as its source), or a ``HandlerError``
    ///   wrapping a handler's error.
    @discardableResult
    public func parse(contentsOf url: URL, chunkSize: Int = defaultChunkSize) throws -> ParseOutcome {
        guard url.isFileURL else {
            throw XMLInputError(path: url.absoluteString, errorNumber: EINVAL, message: "not a file URL")
        }
        return try parse(contentsOfFile: url.path, chunkSize: chunkSize)
    }

    /// Parses everything readable from an open file descriptor (standard input, a pipe,
    /// a file), in fixed-size chunks. The descriptor is not closed.
    ///
    /// - Parameters:
    ///   - fileDescriptor: An open descriptor to read.
    ///   - source: A name for the input in error descriptions.
    ///   - chunkSize: How many bytes to read at a time (at least 1).
    /// - Returns: ``ParseOutcome/completed``, or ``ParseOutcome/stopped`` if a handler stopped.
    /// - Throws: ``XMLInputError`` if a read fails, ``XMLParseError`` for a malformed
    ///   document, or a ``HandlerError`` wrapping a handler's error.
    @discardableResult
    public func parse(fileDescriptor: Int32, source: String? = nil, chunkSize: Int = defaultChunkSize) throws
        -> ParseOutcome
    {
        try PushParser(self, source: source).parse(fileDescriptor: fileDescriptor, chunkSize: max(1, chunkSize))
    }

    /// Parses a document arriving as an asynchronous sequence of bytes, such as
    /// `URLSession.AsyncBytes` or `FileHandle.bytes`, gathering them into chunks.
    ///
    /// Runs on the caller's executor; handlers run synchronously between awaits.
    ///
    /// - Throws: ``XMLParseError`` for a malformed document or a broken ``SafetyProfile``
    ///   limit, a ``HandlerError`` wrapping a handler's error, or the error `bytes` throws,
    ///   as it is.
    @discardableResult
    nonisolated(nonsending) public func parse<Bytes: AsyncSequence>(
        bytes: Bytes, chunkSize: Int = defaultChunkSize
    ) async throws -> ParseOutcome where Bytes.Element == UInt8 {
        let parser = PushParser(self)
        var chunk: [UInt8] = []
        chunk.reserveCapacity(max(1, chunkSize))
        for try await byte in bytes {
            chunk.append(byte)
            if chunk.count >= chunkSize {
                try parser.feed(chunk)
                if parser.isStopped { return try parser.finish() }
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try parser.feed(chunk)
        return try parser.finish()
    }

    /// Parses a document arriving as an asynchronous sequence of byte chunks
    /// (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, …), feeding each as it comes.
    ///
    /// Stops reading the sequence as soon as a handler stops or an error occurs.
    ///
    /// - Throws: ``XMLParseError`` for a malformed document or a broken ``SafetyProfile``
    ///   limit, a ``HandlerError`` wrapping a handler's error, or the error `chunks` throws,
    ///   as it is.
    @discardableResult
    nonisolated(nonsending) public func parse<Chunks: AsyncSequence>(
        chunks: Chunks
    ) async throws -> ParseOutcome where Chunks.Element: Sequence<UInt8> {
        let parser = PushParser(self)
        for try await chunk in chunks {
            try parser.feed(chunk)
            if parser.isStopped { break }
        }
        return try parser.finish()
    }
}
