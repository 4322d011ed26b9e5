import SAXDispatch

/// A MediaWiki export filtered as a stream: only the pages of one namespace (articles are
/// namespace 0), without their revisions' wikitext.
enum WikiFilter {
    /// The transform: each `<page>` is held until its `<ns>` is known, and kept when it is
    /// `namespace`; every `<text>` of a `<revision>` is dropped unread.
    static func transform(namespace: String) -> XMLTransform {
        var transform = XMLTransform()
        transform.keep("page") { page in page.childText("ns") == namespace }
        transform.drop("revision/text")
        return transform
    }
}
