import SAXDispatch

/// Reads the `-N PREFIX=URI` arguments of a command line (as xmlstarlet takes them) into
/// the ``NamespaceBindings`` that patterns and field paths resolve their prefixes through.
///
/// ```swift
/// let bindings = try NamespaceArguments.bindings(["atom=http://www.w3.org/2005/Atom"])
/// ```
public enum NamespaceArguments {
    /// The bindings `arguments` declare, in order. The URI is everything after the first
    /// `=`, so it may hold `=` itself (a query string); the prefix cannot.
    ///
    /// - Throws: ``NamespaceArgumentError`` for the first argument that is not
    ///   `PREFIX=URI`, whose prefix is empty, not a name or `xmlns`, whose URI is empty, or
    ///   that binds a prefix an earlier argument bound to another URI.
    public static func bindings(_ arguments: [String]) throws(NamespaceArgumentError) -> NamespaceBindings {
        var bindings = NamespaceBindings()
        for argument in arguments {
            guard let equals = argument.firstIndex(of: "=") else {
                throw NamespaceArgumentError(
                    argument: argument, message: "not PREFIX=URI (for example -N atom=http://www.w3.org/2005/Atom)")
            }
            let prefix = String(argument[..<equals])
            let uri = String(argument[argument.index(after: equals)...])
            if !prefix.isEmpty, let problem = PatternNames.problem(inName: prefix, attribute: false) {
                throw NamespaceArgumentError(argument: argument, message: "the prefix " + problem.replacing("an element name", with: "a name"))
            }
            if let earlier = bindings.uri(for: prefix), earlier != uri, prefix != "xml" {
                throw NamespaceArgumentError(
                    argument: argument,
                    message: "the prefix '\(prefix)' is already bound to '\(earlier)' by an earlier -N; a prefix has one URI")
            }
            do {
                try bindings.bind(prefix, to: uri)
            } catch {
                throw NamespaceArgumentError(argument: argument, message: error.message)
            }
        }
        return bindings
    }
}
