import SAXDispatch

/// What `saxdispatch filter` does: a document written through an ``XMLTransform`` whose
/// rules come from the command line.
///
/// ```swift
/// var filter = try DocumentFilter(drop: ["revision/text"], keep: ["page"])
/// try filter.write(.file("dump.xml"), to: .standardOutput)
/// ```
public struct DocumentFilter {
    /// The transform the arguments describe.
    public var transform = XMLTransform()

    /// A filter from command-line arguments.
    ///
    /// - Parameters:
    ///   - drop: Patterns of elements left out with their subtrees.
    ///   - keep: Patterns of the elements the root element keeps, with their subtrees.
    ///   - rename: `PATTERN=NAME` arguments (the first `=` outside `[…]` and `{…}` ends the pattern).
    ///   - stripAttributes: Names of attributes removed from every element.
    /// - Throws: ``XMLPatternError`` for a pattern that does not parse;
    ///   ``DocumentFilterArgumentError`` for a rename that is not `PATTERN=NAME`.
    public init(
        drop: [String] = [], keep: [String] = [], rename: [String] = [], stripAttributes: [String] = [],
        namespaces: NamespaceBindings = NamespaceBindings(), processesNamespaces: Bool = true
    ) throws {
        transform.namespaces = namespaces
        transform.processesNamespaces = processesNamespaces
        for pattern in keep { transform.keep(try ElementPattern(pattern)) }
        for pattern in drop { transform.drop(try ElementPattern(pattern)) }
        for argument in rename {
            guard let (pattern, name) = Self.split(renaming: argument) else {
                throw DocumentFilterArgumentError(argument: argument, message: "not PATTERN=NAME (for example --rename title=name)")
            }
            transform.rename(try ElementPattern(pattern), to: name)
        }
        for name in stripAttributes { transform.removeAttribute(name) }
    }

    /// Splits `PATTERN=NAME` at the first `=` outside brackets and braces.
    static func split(renaming argument: String) -> (pattern: String, name: String)? {
        var depth = 0
        for index in argument.indices {
            switch argument[index] {
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case "=" where depth == 0:
                let pattern = argument[..<index]
                let name = argument[argument.index(after: index)...]
                guard !pattern.isEmpty, !name.isEmpty else { return nil }
                return (String(pattern), String(name))
            default: break
            }
        }
        return nil
    }

    /// Writes `input` filtered to `output`, its bytes read shown by `meter`, and finishes it.
    ///
    /// - Throws: What ``XMLTransform/run(_:to:options:)`` throws; what was written before
    ///   an error stays written.
    public func write(
        _ input: XMLInput, safety: SafetyProfile = .default, progress meter: ProgressMeter? = nil, to output: XMLOutput,
        warnings: @escaping (ParseWarning) -> Void = { _ in }
    ) throws {
        var transform = transform
        transform.safety = safety
        transform.onWarning(warnings)
        let progress = ReadProgress(meter: meter)
        defer { progress.finish() }
        try transform.run(progress.reading(input), to: output)
    }
}

/// A `filter` argument that is not what its option takes.
public struct DocumentFilterArgumentError: Error, CustomStringConvertible, Sendable {
    /// The argument as given.
    public var argument: String
    /// What is wrong with it.
    public var message: String

    /// `--rename 'ARGUMENT': MESSAGE`.
    public var description: String { "--rename '\(argument)': \(message)" }
}
