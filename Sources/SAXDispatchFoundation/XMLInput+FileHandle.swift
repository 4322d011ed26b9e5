import Foundation
import SAXDispatch

extension XMLInput {
    /// Everything readable from a `FileHandle` (a file, a pipe, a socket), from where the
    /// handle is, named `<file handle N>` after its descriptor.
    ///
    /// The bytes are read from the handle's descriptor straight into expat's buffer, as
    /// ``SAXDispatch/XMLInput/fileDescriptor(_:)`` reads them. The input, and every parse of
    /// it, keep `handle` alive, so a handle that closes its descriptor when released stays
    /// open while it is read; the handle is not closed. Give the input a better name with
    /// ``SAXDispatch/XMLInput/named(_:)``.
    ///
    /// ```swift
    /// import SAXDispatch
    /// import SAXDispatchFoundation
    ///
    /// let pipe = Pipe()
    /// // … a process writes a document into pipe.fileHandleForWriting …
    /// try dispatcher.parse(.fileHandle(pipe.fileHandleForReading).named("converter output"))
    /// ```
    ///
    /// A parse throws ``SAXDispatch/XMLInputError`` when a read fails (a handle already
    /// closed, for one), after the events of what was read before.
    public static func fileHandle(_ handle: FileHandle) -> XMLInput {
        let descriptor = handle.fileDescriptor
        return .fileDescriptor(descriptor, owner: handle).named("<file handle \(descriptor)>")
    }
}

extension AsyncXMLInput {
    /// Everything readable from a `FileHandle`, read on a thread of its own so that a
    /// handle with nothing to read (a quiet pipe) never blocks a thread of Swift's
    /// cooperative pool; named `<file handle N>` after its descriptor.
    ///
    /// The reading thread keeps `handle` alive until it is done; the handle is not closed.
    /// Cancelling the task that parses ends the read within a tenth of a second, even on a
    /// pipe that sends nothing.
    ///
    /// ```swift
    /// for try await entry in entryRecord.stream(from: .fileHandle(pipe.fileHandleForReading)) {
    ///     print(entry.title)
    /// }
    /// ```
    ///
    /// A read that fails is an ``SAXDispatch/XMLInputError``, after the events of what was
    /// read before.
    public static func fileHandle(_ handle: FileHandle) -> AsyncXMLInput {
        AsyncXMLInput(.fileHandle(handle))
    }
}
