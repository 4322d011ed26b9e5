/// What the driver keeps of the document's DTD to enforce the safety profile: the
/// declarations counted, the entities declared and what they cost, the defaulted attribute
/// values counted towards amplification, and the undeclared references left out.
///
/// Per document: ``reset()`` when the next document of a concatenated input starts, except
/// ``skippedEntities``, which the warnings at the end of the input report for all of them.
struct ExpatDriverDTDGuard {
    /// Entity declarations seen so far, and the external ones by system identifier.
    var entityDeclarationCount = 0
    var externalEntityNames: [String: String] = [:]
    /// Attribute declarations per element name; set once any ATTLIST is seen, after which
    /// start tags may carry defaulted attributes beyond the ones written.
    var attributeDeclarationCounts: [String: Int] = [:]
    var hasAttributeDeclarations = false
    /// Bytes of attribute values that start tags took from the DTD's defaults so far: expat
    /// expands a default once and copies it to every element without counting it towards
    /// its amplification limit, so the driver counts it (``ExpatDriver/admitsDefaultedAttributes(_:from:to:)``).
    var defaultedAttributeBytes = 0
    /// The general entities declared so far (`+Entities`), and the bytes of their names
    /// charged to expat's heap budget, given back when the next document starts.
    var declaredEntities = DeclaredEntities()
    var declaredEntityBytes = 0
    /// Set once expat would drop an undeclared entity reference from an attribute value
    /// without a word: the start tags' references are then checked (`+Entities`).
    var checksAttributeEntityReferences = false
    /// Whether the DOCTYPE named a DTD whose entities are built in, until they are declared.
    var namesKnownDTD = false
    /// True while expat parses the built-in entities' declarations.
    var readsBuiltInEntities = false
    /// The undeclared entity references left out, for the warnings; kept across documents.
    var skippedEntities = SkippedEntityLog()

    /// Whether a start tag may hold a reference to an entity other than the predefined
    /// ones, which expat reports expanded or leaves out: one was declared (a known DTD's
    /// built-in ones included), or expat skips undeclared ones.
    var mayHaveEntityReferencesInTags: Bool {
        entityDeclarationCount > 0 || !declaredEntities.isEmpty || checksAttributeEntityReferences
    }

    /// Forgets the document's DTD for the next document of the input, keeping the skipped
    /// entities. The caller gives back ``declaredEntityBytes`` to the heap budget first.
    mutating func reset() {
        let skipped = skippedEntities
        self = ExpatDriverDTDGuard()
        skippedEntities = skipped
    }
}
