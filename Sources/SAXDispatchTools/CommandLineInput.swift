#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SAXDispatch

extension XMLInput {
    /// The document a command line names: the file at `path`, or standard input for `-`,
    /// which errors then call `-`.
    public static func commandLine(_ path: String) -> XMLInput {
        path == "-" ? .standardInput.named("-") : .file(path)
    }

    /// The size of the document a command line names (`-`: standard input), when it is a
    /// regular file; `nil` for a pipe, a terminal or anything else whose size is not known
    /// in advance.
    public static func commandLineSize(_ path: String) -> Int? {
        var status = stat()
        let found = path == "-" ? fstat(STDIN_FILENO, &status) : stat(path, &status)
        guard found == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
