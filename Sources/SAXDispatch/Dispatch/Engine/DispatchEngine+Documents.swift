/// The end of one document of a concatenated input (``XMLInput/readsConcatenatedDocuments``),
/// before the next one starts: what the engine kept for it alone goes.
extension DispatchEngine {
    /// The document's root element ended and another document follows. The names it brought
    /// are dropped from the name table, and their charge to the parser's memory budget given
    /// back, so that the table holds what the patterns need and the next document's own
    /// names, whatever the number of documents before it.
    ///
    /// What must stay true: nothing keeps an id of a dropped name. The open elements'
    /// frames, kept attributes and matches are gone with the root element; deliveries put
    /// off (``DeferredDelivery``) name their element paths by id, so they are made first;
    /// route keys, compiled patterns and the path match cache use the keys of the
    /// patterns' names, which stay.
    func endDocument() {
        deliverDeferred()
        guard !isHalted, names.count > names.baseCount else { return }
        // Which pattern prefixes the dropped names were written with, for the warning about
        // the ones no element had (``unseenPatternPrefixes()``).
        if !unboundPatternPrefixes.isEmpty {
            let unseen = unseenPatternPrefixes()
            for prefix in unboundPatternPrefixes where !unseen.contains(prefix) && !prefixesSeenInEarlierDocuments.contains(prefix) {
                prefixesSeenInEarlierDocuments.append(prefix)
            }
        }
        // What the names to be dropped say about the watched patterns, for the warnings at
        // the end of the input (their parts made from their bytes: the table's cache of
        // parts would keep room for them).
        if !watched.isEmpty {
            for id in Int32(names.baseCount)..<Int32(keys.decidedNameCount) where keys.count(of: id) > 0 {
                earlierDocumentNames.add(QualifiedName.parts(of: names.bytes(id)), key: keys.key(of: id), count: keys.count(of: id), keyCount: keys.keyCount)
            }
        }
        names.dropNamesAfterBase()
        keys.dropKeysOfDroppedNames()
        chargedNameCount = names.count
        let held = names.heldBytes
        if chargedNameBytes > held {
            releaseParserMemory(bytes: chargedNameBytes - held)
            chargedNameBytes = held
        }
    }
}
