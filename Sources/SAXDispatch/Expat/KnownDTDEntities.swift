/// The well-known external DTDs whose character entities the package knows without
/// reading them (``SafetyProfile/readsKnownDTDEntities``): a DOCTYPE naming one of
/// ``publicIdentifiers`` gets the entities of ``KnownDTDEntityTable``.
///
/// What must stay true: the declarations are character references only (`&#160;`), one
/// character each, so they read nothing and cannot amplify; and expat reads them after the
/// document's internal subset, whose own declarations of the same names win.
enum KnownDTDEntities {
    /// The public identifiers (as expat reports them, whitespace normalized) of the DTDs
    /// that declare XHTML 1.0's entity sets: XHTML 1.0 Strict, Transitional and Frameset,
    /// XHTML 1.1, XHTML Basic 1.0 and 1.1, and RSS 0.91.
    static let publicIdentifiers: Set<String> = [
        "-//W3C//DTD XHTML 1.0 Strict//EN",
        "-//W3C//DTD XHTML 1.0 Transitional//EN",
        "-//W3C//DTD XHTML 1.0 Frameset//EN",
        "-//W3C//DTD XHTML 1.1//EN",
        "-//W3C//DTD XHTML Basic 1.0//EN",
        "-//W3C//DTD XHTML Basic 1.1//EN",
        "-//Netscape Communications//DTD RSS 0.91//EN",
    ]

    /// The table as an external subset expat can parse: one `<!ENTITY name "&#N;">` per
    /// entity, leaving out the five that XML predefines.
    static let declarations: [UInt8] = {
        var text = ""
        for (name, scalar) in KnownDTDEntityTable.entities where !DeclaredEntities.predefined.contains(name) {
            text += "<!ENTITY \(name) \"&#\(scalar);\">\n"
        }
        return Array(text.utf8)
    }()

    /// The names the declarations declare.
    static let names: [String] = KnownDTDEntityTable.entities.map(\.name).filter {
        !DeclaredEntities.predefined.contains($0)
    }
}
