/// Stops the program for a mistake in a literal written in code: a string literal where an
/// ``ElementPattern`` or a ``RecordFieldPath`` is expected, or a dictionary literal of
/// ``NamespaceBindings``. The message names the literal, what is wrong with it and the
/// throwing initializer that run-time text goes through.
///
/// `fatalError`, not `precondition`: an optimized build drops a precondition's message and
/// would stop with `precondition failure` alone, and this message must be there in every
/// build configuration. Input cannot reach this function: text read at run time (a command
/// line, a configuration file) goes through the throwing initializers, which throw the
/// same error as a value instead.
///
/// - Parameters:
///   - error: What is wrong, as the throwing initializer describes it.
///   - literal: How the message names the literal: `the string literal "a//" is not an ElementPattern`.
///   - initializer: The throwing way in: `try ElementPattern(_:)`.
func stopForInvalidLiteral(_ error: some Error & CustomStringConvertible, literal: String, initializer: String) -> Never {
    fatalError(invalidLiteralMessage(error, literal: literal, initializer: initializer))
}

/// The message ``stopForInvalidLiteral(_:literal:initializer:)`` stops with.
func invalidLiteralMessage(_ error: some Error & CustomStringConvertible, literal: String, initializer: String) -> String {
    "\(error) (\(literal); a literal in code is checked when it is used, and text read at run time goes through"
        + " \(initializer), which throws this error instead)"
}
