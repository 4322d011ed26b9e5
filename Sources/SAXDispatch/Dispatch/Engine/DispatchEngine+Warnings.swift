/// Warnings about the document itself, found while it is read (a declared XML version
/// expat does not implement), rather than once it ends: they reach the `onWarning`
/// handlers at once, so that a document that then fails to parse has had its warning.
extension DispatchEngine {
    /// How many warnings found while reading one input are delivered and kept: an endless
    /// input of documents, each with its warning, must not grow the memory of whoever
    /// collects them (``PushParser/warnings``, a record summary, the command line).
    static let readingWarningLimit = 64

    /// Delivers `warning` to the `onWarning` handlers, with the input's name, and keeps it
    /// for the parse's ``PushParser/warnings``; past ``readingWarningLimit`` warnings of
    /// one input, drops it.
    func warn(_ warning: ParseWarning) {
        guard readingWarnings.count < Self.readingWarningLimit else { return }
        var warning = warning
        warning.source = source
        readingWarnings.append(warning)
        for handler in warningHandlers { handler(warning) }
    }
}
