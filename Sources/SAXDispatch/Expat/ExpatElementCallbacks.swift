/// The element and text events as C functions that expat calls directly, provided by the
/// layer above when it connects to the driver (``ExpatDriver/connect(to:elementCallbacks:events:)``).
///
/// The per-event path must cost no more than a direct call: these functions are the
/// callbacks themselves, so the layer above inlines its own handling into them, and the
/// driver only decides which of them expat calls (the skipping pair while a subtree is
/// skipped; the character-data callback only while the innermost element wants text).
/// Each receives the driver as its user data (``withDriver(_:_:)``) and finds the object
/// it reports to through ``ExpatDriver/eventTarget``.
struct ExpatElementCallbacks {
    /// A start tag: the user data, the element's name and its attributes, name and value
    /// in turn, ending with a null pointer (expat's `XML_StartElementHandler`).
    typealias Start = @convention(c) (
        UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Void
    /// An end tag: the user data and the element's name (`XML_EndElementHandler`).
    typealias End = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void
    /// A piece of character data, not NUL-terminated (`XML_CharacterDataHandler`).
    typealias Characters = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void

    /// Start and end tags outside skipped subtrees.
    let start: Start
    let end: End
    /// Start and end tags inside a skipped subtree, which only count its depth and check
    /// the limits.
    let skippedStart: Start
    let skippedEnd: End
    /// Start and end tags inside a subtree skipped while watching for elements that may
    /// start a match of the pattern a handler set is mounted at, which keep the stack of
    /// open elements and dispatch only those.
    let watchedStart: Start
    let watchedEnd: End
    /// Start tags inside a subtree that passes through: one whose elements no pattern can
    /// match but those named as some pattern names something, which are dispatched; the
    /// others are pushed with nothing listening. Its end tags go to ``watchedEnd``.
    let passThroughStart: Start
    /// Character data of an element whose handlers want text.
    let characters: Characters
    /// Character data where few elements need more (whole text, inner markup, text that is
    /// counted): kept apart so that ``characters`` tests none of it.
    let charactersRarely: Characters
}
