#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

/// Reads a file (or standard input, for `-`) in pieces of a fixed size.
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
    /// - Throws: ``XMLInputError`` if the file cannot be opened or read, or what `body` throws.
    public static func forEach(
        path: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try withDescriptor(path: path) { descriptor in
            try forEach(descriptor: descriptor, path: path, chunkSize: chunkSize, body)
        }
    }

    private static func forEach(
        descriptor: Int32, path: String, chunkSize: Int, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let size = max(1, chunkSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, size)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                let number = errno
                throw XMLInputError.readFailed(path: path, errorNumber: number)
            }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}
