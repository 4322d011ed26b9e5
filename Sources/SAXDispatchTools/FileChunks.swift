#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

/// Reads a file (or standard input, for `-`) and hands it on in pieces of a fixed size.
public enum FileChunks {
    /// Opens the file at `path` (`-`: standard input) and calls `body` with its descriptor.
    ///
    /// - Throws: ``XMLInputError`` if the file cannot be opened, or what `body` throws.
    public static func withDescriptor<Result>(path: String, _ body: (Int32) throws -> Result) throws -> Result {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let number = errno
            throw XMLInputError.cannotOpen(path: path, errorNumber: number)
        }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        return try body(descriptor)
    }

    /// Calls `body` with each piece of the file at `path`, in order; `-` reads standard input.
    ///
    /// The file is read in blocks of at least 64 KiB, so one-byte pieces cost no system
    /// call each; every piece but the last (or the one before a read error) has `chunkSize` bytes.
    ///
    /// - Throws: ``XMLInputError`` if the file cannot be opened or read, or what `body` throws.
    public static func forEach(
        path: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try withDescriptor(path: path) { descriptor in
            try forEach(descriptor: descriptor, path: path, chunkSize: chunkSize, body)
        }
    }

    /// The size of the regular file open at `descriptor`, or `nil` for a pipe, a terminal
    /// or anything else whose size is not known in advance.
    public static func size(ofDescriptor descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }

    /// Calls `body` with each piece read from an open descriptor, in order, until its end.
    /// The descriptor is not closed.
    ///
    /// - Parameter path: Names the input in a read error.
    /// - Throws: ``XMLInputError`` if a read fails (after the bytes read before it), or what `body` throws.
    public static func forEach(
        descriptor: Int32, path: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let size = max(1, chunkSize)
        let capacity = max(size, 1 << 16)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        // Bytes in the buffer not yet handed on: always fewer than `size` between reads.
        var kept = 0
        while true {
            let count = read(descriptor, buffer.baseAddress.map { $0 + kept }, capacity - kept)
            if count < 0 {
                if errno == EINTR { continue }
                let number = errno
                // The bytes read before the failure are handed on before it is reported.
                if kept > 0 { try body(UnsafeRawBufferPointer(rebasing: buffer[0..<kept])) }
                throw XMLInputError.readFailed(path: path, errorNumber: number)
            }
            let available = kept + count
            var offset = 0
            while available - offset >= size || (count == 0 && offset < available) {
                let end = min(available, offset + size)
                try body(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                offset = end
            }
            if count == 0 { return }
            kept = available - offset
            if kept > 0 && offset > 0, let base = buffer.baseAddress {
                base.copyMemory(from: base + offset, byteCount: kept)
            }
        }
    }
}
