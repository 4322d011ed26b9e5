/// What a parse does with a reference to an entity that the document does not declare
/// where it is read (``SafetyProfile/undeclaredEntities``): an entity declared only in an
/// external DTD, which is never read, or after a parameter entity reference, whose
/// declarations XML 1.0 says must not be processed.
///
/// The same rule holds in content and in attribute values. A document without an external
/// subset or parameter entity references must declare every entity it uses, and an
/// undeclared one is always expat's own ``XMLParseError/Code/undefinedEntity`` error; so is
/// one in a standalone document.
///
/// ```swift
/// var dispatcher = Dispatcher()
/// dispatcher.safety.undeclaredEntities = .skipWithWarning
/// dispatcher.onWarning { print($0) }   // <input>: warning: entity &copy; is not declared …
/// ```
public enum UndeclaredEntityPolicy: String, Sendable, Hashable, CaseIterable {
    /// The parse ends with an ``XMLParseError`` whose code is
    /// ``XMLParseError/Code/undefinedEntity``, at the reference. The default.
    case error
    /// The reference is left out (the text or attribute value reads as if it were not
    /// there, as expat itself does), and the parse reports a ``ParseWarning`` naming the
    /// entity, how often it was skipped and where first, once the document has been read.
    case skipWithWarning
}
