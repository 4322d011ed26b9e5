/// Which elements a handler is for: a name, or a path of names that the element and
/// its ancestors must match.
///
/// | pattern | matches |
/// |---|---|
/// | `title` | every `<title>` |
/// | `section/title` | a `<title>` whose parent is a `<section>` (anything above) |
/// | `/doc/section` | a `<section>` whose parent is the root element `<doc>` |
/// | `section//para` | a `<para>` with a `<section>` somewhere above it |
/// | `*` and `section/*` | any element; any child of a `<section>` |
/// | `animal[@type]` | an `<animal>` with a `type` attribute |
/// | `border[@type='internal']/path` | a `<path>` in a `<border type="internal">` |
/// | `.` | the element a handler set is mounted at (see ``Dispatcher/mount(_:at:)``) |
/// | `atom:link` | a `link` in the namespace the dispatcher binds `atom` to (``NamespaceBindings``) |
/// | `{http://www.w3.org/2005/Atom}link` | a `link` in that namespace, written with any prefix or none |
/// | `*:customer` | a `customer` in any namespace or none, written with any prefix or none |
/// | `link[@xml:lang='en']` | a `<link>` whose `xml:lang` attribute is `en` |
///
/// A pattern is compiled once, when it is created: a string literal where a pattern
/// is expected is checked when the handler is registered, and an invalid literal
/// stops the program with the ``XMLPatternError``: only a literal written in code
/// traps. Build patterns from run-time text with ``init(_:)``, which throws instead.
///
/// ```swift
/// dispatcher.onEnd("nested_nonsense/name") { _, text in names.append(text) }
/// let custom = try ElementPattern(userSuppliedPath)   // throws XMLPatternError
/// ```
///
/// Attribute values in tests are compared exactly as expat reports them (after
/// entity expansion and attribute-value normalization).
///
/// Names match by namespace, not by the prefix a document happens to use (see
/// <doc:XMLNamespaces>): a `prefix:local` name whose prefix is bound
/// (``Dispatcher/namespaces``) matches `local` in the bound namespace, whatever prefix
/// the document wrote, a default namespace included; Clark notation `{uri}local` needs no
/// binding; a prefix nobody bound matches the prefix as the document wrote it; an
/// unprefixed name matches unprefixed elements, whatever default namespace is in scope;
/// and `*:local` matches the local name in any namespace or none, however it is written
/// (SOAP bodies and feeds whose vendors choose their own URIs). Matching `*:` costs
/// nothing per element for documents whose patterns do not use it.
/// With namespace processing off (``Dispatcher/processesNamespaces``), every name is
/// compared as written, and Clark names match nothing.
public struct ElementPattern: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a pattern: an element name (or any name) with attribute tests.
    struct Step: Sendable, Hashable {
        /// The element name as written in the pattern (`atom:link`, or `link` for a Clark
        /// name); `nil` for `*`.
        var name: String?
        /// The namespace URI the name is in: a Clark name's, or a bound prefix's once
        /// resolved (``resolvingPrefixes(_:)``); `nil` for an unprefixed or unbound name.
        var namespace: String? = nil
        var tests: [AttributeTest]
        /// Whether any number of elements may stand between this step and the one before (`//`).
        var followsDescendantAxis: Bool
    }

    /// `[@name]` or `[@name='value']`.
    struct AttributeTest: Sendable, Hashable {
        var name: String
        /// As ``Step/namespace``.
        var namespace: String? = nil
        var value: String?
    }

    /// The steps, outermost first; the last one is the element itself.
    let steps: [Step]
    /// Whether the first step must be the root element (`/a/b`).
    let isAnchored: Bool

    /// Compiles `text` as a pattern.
    ///
    /// - Throws: ``XMLPatternError`` naming the position of the first thing that is wrong.
    public init(_ text: String) throws(XMLPatternError) {
        var syntax = PatternSyntax(text)
        (steps, isAnchored) = try syntax.parse()
    }

    /// Compiles a literal pattern; an invalid literal is a programming error and stops the
    /// program, in every build configuration, with the ``XMLPatternError`` message
    /// (the literal, the column, what is wrong there).
    public init(stringLiteral text: String) {
        do {
            try self.init(text)
        } catch {
            stopForInvalidLiteral(
                error, literal: "the string literal \(text.debugDescription) is not an ElementPattern",
                initializer: "try ElementPattern(_:)")
        }
    }

    /// A pattern that matches elements named `name` exactly, whatever characters it holds.
    public init(name: String) {
        steps = [Step(name: name, tests: [], followsDescendantAxis: false)]
        isAnchored = false
    }

    /// Every element (`*`).
    public static let any = ElementPattern(steps: [Step(name: nil, tests: [], followsDescendantAxis: false)], anchored: false)

    init(steps: [Step], anchored: Bool) {
        self.steps = steps
        self.isAnchored = anchored
    }

    /// The element a handler set is mounted at (`.`); see ``Dispatcher/mount(_:at:)``.
    ///
    /// In a dispatcher that parses a document itself, nothing is mounted, and handlers
    /// registered for `.` never run.
    public static let mountPoint = ElementPattern(steps: [], anchored: false)

    /// The local name the pattern's last step names (`page` for `/mediawiki/page` or
    /// `mw:page`), or `nil` for a last step that names no element (`*`, `*:*`) or no step.
    var lastStepLocalName: String? {
        guard let name = steps.last?.name, !name.isEmpty else { return nil }
        // Split in the UTF-8: a colon can share a grapheme with the character before it.
        let local = name.utf8.lastIndex(of: UInt8(ascii: ":")).map { String(name[name.utf8.index(after: $0)...]) } ?? name
        return local.isEmpty || local == "*" ? nil : local
    }

    /// Whether this is ``mountPoint``.
    var isMountPoint: Bool { steps.isEmpty }

    /// This pattern, written relative to a handler set's mount point, as seen from the
    /// set that mounts it at `mountPoint`: `.` becomes the mount point itself, `/a` a
    /// child `a` of it, and `a` an `a` anywhere below it.
    func mounted(at mountPoint: ElementPattern) -> ElementPattern {
        guard var first = steps.first else { return mountPoint }
        if mountPoint.isMountPoint { return self }
        first.followsDescendantAxis = !isAnchored
        return ElementPattern(steps: mountPoint.steps + [first] + steps.dropFirst(), anchored: mountPoint.isAnchored)
    }

    /// The pattern in its canonical spelling: `/a//b[@k='v']/*`.
    public var description: String {
        if isMountPoint { return "." }
        var text = isAnchored ? "/" : ""
        for (index, step) in steps.enumerated() {
            if index > 0 { text += step.followsDescendantAxis ? "//" : "/" }
            text += step.name.map { QualifiedName.patternText(name: $0, namespace: step.namespace) } ?? "*"
            for test in step.tests {
                let name = QualifiedName.patternText(name: test.name, namespace: test.namespace)
                if let value = test.value {
                    let quote = value.contains("'") ? "\"" : "'"
                    text += "[@\(name)=\(quote)\(value)\(quote)]"
                } else {
                    text += "[@\(name)]"
                }
            }
        }
        return text
    }

    /// This pattern with each `prefix:local` name whose prefix `bindings` binds (and
    /// `xml`) tied to that namespace; other names stay as they are.
    func resolvingPrefixes(_ bindings: NamespaceBindings) -> ElementPattern {
        let resolved = steps.map { step in
            var step = step
            step.namespace = bindings.namespace(ofName: step.name, resolved: step.namespace)
            step.tests = step.tests.map { test in
                var test = test
                test.namespace = bindings.namespace(ofName: test.name, resolved: test.namespace)
                return test
            }
            return step
        }
        return ElementPattern(steps: resolved, anchored: isAnchored)
    }

    /// The prefixes of names that no binding resolved, in order of first use.
    var unboundPrefixes: [String] {
        var prefixes: [String] = []
        for step in steps {
            let names = [
                step.name.flatMap { step.namespace == nil && QualifiedName.anyNamespaceLocalName(of: $0) == nil ? $0 : nil }
            ]
                + step.tests.map { $0.namespace == nil ? $0.name : nil }
            for case let name? in names {
                if let prefix = QualifiedName.prefix(of: name), !prefixes.contains(prefix) { prefixes.append(prefix) }
            }
        }
        return prefixes
    }

    /// This pattern with every element name written without a prefix and not in Clark
    /// notation matching its local name in any namespace (`customer` as `*:customer`): what
    /// ``XMLRecord/matchingAnyNamespace(_:)`` and the decoder's
    /// ``XMLRecordDecoder/matchesUnprefixedNamesInAnyNamespace`` read unprefixed names as.
    func matchingUnprefixedNamesInAnyNamespace() -> ElementPattern {
        let steps = steps.map { step in
            var step = step
            if let name = step.name, step.namespace == nil, QualifiedName.prefix(of: name) == nil,
                QualifiedName.anyNamespaceLocalName(of: name) == nil
            {
                step.name = QualifiedName.anyNamespacePrefix + name
            }
            return step
        }
        return ElementPattern(steps: steps, anchored: isAnchored)
    }

    /// Orders patterns most specific first: more named steps, then more steps, then more
    /// attribute tests, then anchored before floating. Equal keys keep registration order.
    var specificity: (names: Int, steps: Int, tests: Int, anchored: Int) {
        (
            steps.count(where: { $0.name != nil }), steps.count, steps.reduce(0) { $0 + $1.tests.count },
            isAnchored ? 1 : 0
        )
    }
}
