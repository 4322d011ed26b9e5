extension Dispatcher {
    /// Adds the handlers of another dispatcher, a *handler set*, for the elements at and
    /// below every element matching `mountPoint`.
    ///
    /// A handler set is an ordinary `Dispatcher`, written and tested on its own, whose
    /// patterns are relative to the element it is mounted at:
    ///
    /// | pattern in the set | matches, mounted at `post/author` |
    /// |---|---|
    /// | `.` (``ElementPattern/mountPoint``) | the `<author>` of a `<post>` itself |
    /// | `/name` | a `<name>` child of that `<author>` |
    /// | `name` | a `<name>` anywhere inside that `<author>` |
    /// | `address/city` | a `<city>` in an `<address>` anywhere inside it |
    /// | its catch-all handlers | elements inside it that none of the set's patterns match |
    ///
    /// The same set can be mounted at several points, and a set can mount other sets
    /// (its mount points are then relative too). Each mount adds the set's handlers as
    /// they are now; registering more on the set afterwards does not change this
    /// dispatcher. Handlers that name no whitespace policy keep the set's
    /// ``whitespace``, so a set behaves as it did when tested alone; its ``safety`` is
    /// not used (the dispatcher that parses decides). Precedence and
    /// ``ElementContext/stopHandlerChain()`` work across sets as across patterns: a set's
    /// handlers are ordered by the specificity of their patterns as mounted.
    ///
    /// ```swift
    /// func userHandlers(_ users: Collector) -> Dispatcher {
    ///     var set = Dispatcher()
    ///     set.onStart(.mountPoint) { element in users.begin(id: element.attributes["id"]) }
    ///     set.onEnd("/name") { _, text in users.current.name = text }
    ///     set.onEnd(.mountPoint) { _ in users.finish() }
    ///     return set
    /// }
    /// dispatcher.mount(userHandlers(authors), at: "post/author")
    /// dispatcher.mount(userHandlers(commenters), at: "comment/author")
    /// ```
    ///
    /// To test a set on its own, mount it in a dispatcher at the root element's name
    /// (`/user`); parsed directly, its `.` handlers have no element to run for.
    ///
    /// - Precondition: `handlers` has no processing-instruction, comment, doctype or
    ///   notation handlers and no ``skipAll(except:)-(ElementPattern...)`` list: those
    ///   concern the whole document, so only the dispatcher that parses may have them.
    public mutating func mount(_ handlers: Dispatcher, at mountPoint: ElementPattern) {
        precondition(
            !handlers.hasDocumentHandlers,
            "a mounted handler set cannot have processing-instruction, comment, doctype or notation handlers")
        precondition(handlers.keptSubtrees == nil, "a mounted handler set cannot use skipAll(except:)")
        for (prefix, uri) in handlers.namespaces.pairs {
            if let bound = namespaces.uri(for: prefix) {
                precondition(
                    bound == uri,
                    "the mounted set binds the prefix '\(prefix)' to '\(uri)', which this dispatcher binds to '\(bound)'")
            }
        }
        let base = addGroups(handlers.groupParents)
        deferringHandlerCount += handlers.defersDelivery ? handlers.handlerCount : handlers.deferringHandlerCount
        for entry in handlers.entries {
            let route = entry.route.resolvingWhitespace(handlers.whitespace)
            // The set's own bindings resolve its names; what they leave unbound, this
            // dispatcher's bindings resolve when it parses.
            let pattern = entry.pattern.resolvingPrefixes(handlers.namespaces).mounted(at: mountPoint)
            modifyRoute(pattern, group: base + entry.group, isCatchAll: entry.isCatchAll) {
                $0.append(route)
            }
        }
        addWatches(handlers.watches, bindings: handlers.namespaces, at: mountPoint)
        if handlers.fallback.flags.isListened {
            let route = handlers.fallback.resolvingWhitespace(handlers.whitespace)
            modifyRoute(ElementPattern.any.mounted(at: mountPoint), group: base, isCatchAll: true) { $0.append(route) }
        }
    }
}
