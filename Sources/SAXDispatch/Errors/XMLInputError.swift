#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The input could not be read (a file that cannot be opened, a failed read).
public struct XMLInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path of the file, when the input is one.
    public var path: String?
    /// The C `errno` value.
    public var errorNumber: Int32
    /// What failed, such as `cannot open file: No such file or directory`.
    public var message: String

    /// Creates an input error; the parser makes these.
    public init(path: String?, errorNumber: Int32, message: String) {
        self.path = path
        self.errorNumber = errorNumber
        self.message = message
    }

    /// A file that could not be opened: `cannot open file: <the system's reason>`.
    public static func cannotOpen(path: String?, errorNumber: Int32) -> XMLInputError {
        XMLInputError(path: path, errorNumber: errorNumber, message: "cannot open file: \(reason(errorNumber))")
    }

    /// A read that failed: `read failed: <the system's reason>`.
    public static func readFailed(path: String?, errorNumber: Int32) -> XMLInputError {
        XMLInputError(path: path, errorNumber: errorNumber, message: "read failed: \(reason(errorNumber))")
    }

    private static func reason(_ errorNumber: Int32) -> String {
        String(cString: strerror(errorNumber))
    }

    /// `PATH: error: MESSAGE`, like the tool prints it.
    public var description: String {
        "\(path ?? "<input>"): error: \(message)"
    }
}
