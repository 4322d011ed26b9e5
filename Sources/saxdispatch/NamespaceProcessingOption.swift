import ArgumentParser

/// `--no-namespaces`, on every command that reads a document but `canon`, which always
/// reads names as written, as the W3C suite's canonical forms do.
struct NamespaceProcessingOption: ParsableArguments {
    @Flag(
        name: .customLong("no-namespaces"),
        help: ArgumentHelp(
            "Read names as written, without namespace processing: for legacy documents that are well-formed XML 1.0 "
                + "but use a prefix no declaration binds. Names then match as written, prefix included."))
    var readsNamesAsWritten = false

    /// Whether the command resolves prefixes to namespace URIs (the default).
    var processesNamespaces: Bool { !readsNamesAsWritten }
}
