/// Warnings about the document itself, found while it is read (a declared XML version
/// expat does not implement), rather than once it ends: they reach the `onWarning`
/// handlers at once, so that a document that then fails to parse has had its warning.
extension DispatchEngine {
    /// How many warnings found while reading ``PushParser/warnings`` keeps: an endless
    /// input of documents, each with its warning, must not grow memory.
    static let keptWarningCount = 64

    /// Delivers `warning` to the `onWarning` handlers, with the input's name, and keeps it
    /// for the parse's ``PushParser/warnings``.
    func warn(_ warning: ParseWarning) {
        var warning = warning
        warning.source = source
        if readingWarnings.count < Self.keptWarningCount { readingWarnings.append(warning) }
        for handler in warningHandlers { handler(warning) }
    }
}
