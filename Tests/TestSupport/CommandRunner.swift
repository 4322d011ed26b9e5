import Foundation
import Testing

/// Runs a built product of this package (next to the test bundle) and captures its output.
public enum CommandRunner {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var error: String
    }

    public static func run(
        _ product: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
    ) throws -> Result {
        let executable = TestPaths.productsDirectory.appendingPathComponent(product)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "build the package first: swift build")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        // Standard error is read on its own thread while standard output is read here: a
        // process that fills both pipes must not block on one while the other is drained.
        let errorData = Collected()
        let errorRead = DispatchSemaphore(value: 0)
        let errorHandle = error.fileHandleForReading
        Thread.detachNewThread {
            errorData.data = errorHandle.readDataToEndOfFile()
            errorRead.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.data, as: UTF8.self))
    }

    /// Bytes one thread writes and another reads after a semaphore orders the two.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}
