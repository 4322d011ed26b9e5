#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The start of a document type declaration, `<!DOCTYPE name … [`.
public struct DoctypeDeclaration: Sendable, Hashable {
    /// The declared name of the root element.
    public var name: String
    /// The system identifier of the external subset, if one is named.
    public var systemID: String?
    /// The public identifier of the external subset, if one is named.
    public var publicID: String?
    /// Whether the declaration has an internal subset (`[…]`).
    public var hasInternalSubset: Bool

    /// Creates a declaration value; the parser makes these.
    public init(name: String, systemID: String?, publicID: String?, hasInternalSubset: Bool) {
        self.name = name
        self.systemID = systemID
        self.publicID = publicID
        self.hasInternalSubset = hasInternalSubset
    }
}

/// A notation declared in the DTD, `<!NOTATION name SYSTEM "…">`.
public struct NotationDeclaration: Sendable, Hashable {
    /// The notation's name.
    public var name: String
    /// The system identifier, if the declaration has one.
    public var systemID: String?
    /// The public identifier, if the declaration has one.
    public var publicID: String?

    /// Creates a declaration value; the parser makes these.
    public init(name: String, systemID: String?, publicID: String?) {
        self.name = name
        self.systemID = systemID
        self.publicID = publicID
    }
}

/// How a parse that did not throw ended.
public enum ParseOutcome: Sendable, Hashable {
    /// The whole document was read and was well-formed.
    case completed
    /// A handler called ``ElementContext/stopParsing()`` or ``PushParser/stop()``;
    /// the rest of the input was not read.
    case stopped
}

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
