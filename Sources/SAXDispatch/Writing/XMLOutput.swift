/// Where ``XMLWriter`` writes: a file, a file descriptor, standard output, or a writer of
/// your own, the twin of ``XMLInput``.
///
/// ```swift
/// let writer = try XMLWriter(to: .file("feed.xml"))
/// let piped = try XMLWriter(to: .standardOutput)
/// ```
///
/// Compressed output goes through a writer of the compression product's.
public struct XMLOutput: Sendable {
    /// The output's name in errors: a file's path, `<stdout>`, or the name given.
    public let name: String
    /// About how many bytes the writer gathers before it hands them to the output (64 KiB
    /// unless set): the writer's memory, whatever the size of the document.
    public var chunkSize = 64 * 1024

    enum Destination: Sendable {
        case path(String)
        case descriptor(Int32)
        case writer(@Sendable () throws -> any XMLOutputWriter)
    }

    let destination: Destination

    /// The file at `path`, created, or emptied if it exists, when the writer is made.
    ///
    /// Making the writer throws ``XMLWriterError`` (``XMLWriterError/Code/outputFailed``)
    /// when the file cannot be created.
    public static func file(_ path: String) -> XMLOutput {
        XMLOutput(name: path, destination: .path(path))
    }

    /// An open file descriptor (a pipe, a socket, a file), which the writer leaves open.
    public static func fileDescriptor(_ descriptor: Int32) -> XMLOutput {
        XMLOutput(name: "<fd \(descriptor)>", destination: .descriptor(descriptor))
    }

    /// The process's standard output, left open.
    public static var standardOutput: XMLOutput {
        XMLOutput(name: "<stdout>", destination: .descriptor(1))
    }

    /// A writer of your own (``XMLOutputWriter``), made when the ``XMLWriter`` is.
    ///
    /// - Parameters:
    ///   - name: The name errors give the output.
    ///   - makeWriter: Makes the writer; what it throws, making the ``XMLWriter`` rethrows.
    public static func writer(name: String, _ makeWriter: @escaping @Sendable () throws -> any XMLOutputWriter) -> XMLOutput {
        XMLOutput(name: name, destination: .writer(makeWriter))
    }

    /// This output with its bytes passed through a writer that `wrap` makes around the
    /// output's own, when the ``XMLWriter`` is made: a compressor, a counter, a tee. The name
    /// and chunk size stay.
    ///
    /// ```swift
    /// let counted = XMLOutput.file("out.xml").writingThrough { base in CountingWriter(base) }
    /// ```
    ///
    /// - Parameter wrap: Makes the writer around the output's; what it throws, making the
    ///   ``XMLWriter`` rethrows. Its ``XMLOutputWriter/close()`` must close the one it wraps.
    public func writingThrough(
        _ wrap: @escaping @Sendable (any XMLOutputWriter) throws -> any XMLOutputWriter
    ) -> XMLOutput {
        let base = self
        var output = XMLOutput(name: name, destination: .writer { try wrap(try base.makeWriter()) })
        output.chunkSize = chunkSize
        return output
    }

    /// A writer of the output's bytes.
    func makeWriter() throws -> any XMLOutputWriter {
        switch destination {
        case .path(let path): try DescriptorWriter(creating: path, name: name)
        case .descriptor(let descriptor): DescriptorWriter(borrowing: descriptor, name: name)
        case .writer(let make): try make()
        }
    }
}
