/// An attribute of an open element, kept so that handlers of the elements inside it
/// can read it (``ElementContext/ancestorAttribute(_:of:)``).
struct RetainedAttribute {
    /// The depth of the element that carries it: 1 for the root.
    var depth: Int
    /// The interned name of the element that carries it.
    var element: Int32
    var name: String
    var value: String
}
