import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a built product with its standard error on a pseudo-terminal, so that it behaves
/// as it does in a terminal, and captures what it writes there.
public enum PseudoTerminal {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        /// What was written to the terminal (standard error).
        public var terminal: String
    }

    /// - Parameter standardOutputToo: Whether standard output goes to the terminal as well
    ///   (then ``Result/terminal`` holds both, and ``Result/output`` nothing).
    public static func run(_ product: String, _ arguments: [String], standardOutputToo: Bool = false) throws -> Result {
        let executable = TestPaths.productsDirectory.appendingPathComponent(product)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the package first: swift build")
        var controller: Int32 = -1
        var terminal: Int32 = -1
        try #require(openpty(&controller, &terminal, nil, nil, nil) == 0, "openpty failed: errno \(errno)")
        // Not inherited by processes other tests start meanwhile (the child gets a dup).
        _ = fcntl(controller, F_SETFD, FD_CLOEXEC)
        _ = fcntl(terminal, F_SETFD, FD_CLOEXEC)
        var terminalOpen = true
        defer {
            if terminalOpen { close(terminal) }
            close(controller)
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let terminalHandle = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardOutput = standardOutputToo ? terminalHandle : output
        process.standardError = terminalHandle
        process.standardInput = FileHandle.nullDevice
        // Read the terminal while the process runs, so it never blocks on a full buffer.
        let reader = TerminalReader(descriptor: controller)
        let thread = Thread { reader.readUntilClosed() }
        thread.start()
        do {
            try process.run()
        } catch {
            // Closing both sides ends the reader thread.
            close(terminal)
            terminalOpen = false
            reader.finished.wait()
            throw error
        }
        close(terminal)
        terminalOpen = false
        let outputData = standardOutputToo ? Data() : output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        reader.finished.wait()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            terminal: String(decoding: reader.bytes, as: UTF8.self))
    }

    /// Reads a pseudo-terminal's controller side until the other side is closed.
    final class TerminalReader: @unchecked Sendable {
        let descriptor: Int32
        var bytes: [UInt8] = []
        let finished = DispatchSemaphore(value: 0)

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        func readUntilClosed() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                // Linux reports EIO once every terminal-side descriptor is closed.
                if count <= 0 { break }
                bytes += buffer[0..<count]
            }
            finished.signal()
        }
    }
}
