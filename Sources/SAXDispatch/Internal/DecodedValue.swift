/// What a coding path leads to in a captured subtree.
enum DecodedValue {
    /// One element. `mayBeWrapper`: read as a list, it may be a wrapper whose children are
    /// the items (it was found by name, or is the matched element).
    case element(Int, mayBeWrapper: Bool)
    /// Several elements (repeated children, or what a path leads to).
    case elements([Int])
    /// An attribute's value, an element's own text, or one token of a list in text;
    /// `owner` is the element it belongs to.
    case string(String, owner: Int)
    /// Nothing: the last key of the coding path names nothing in element `owner`. It reads
    /// as an empty list; anything else throws the `keyNotFound` error that names the key.
    case absent(owner: Int)
}
