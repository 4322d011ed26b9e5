/// Copies a document from an input to an ``XMLWriter`` as a stream, in constant memory,
/// while rules registered by pattern drop, keep, rename, edit or replace the elements they
/// match; everything else passes through unchanged — start and end tags with their
/// attributes and namespace declarations as written, text, comments and processing
/// instructions.
///
/// ```swift
/// var transform = XMLTransform()
/// transform.keep("page")                        // inside the root, only the pages
/// transform.drop("revision/text")               // without their revisions' text
/// transform.rename("page/title", to: "name")
/// transform.removeAttribute("xml:space")
/// try transform.run(.file("dump.xml"), to: .file("pages.xml"))
/// ```
///
/// **Rules.** Each rule has an ``ElementPattern``, matched as a handler's is. When several
/// match one element, they apply in the order they were added: ``drop(_:)`` wins over
/// everything; ``replace(_:text:_:)`` writes in place of the element; the others edit the
/// start tag (``ElementEdit``) in turn, and ``editText(_:_:)`` the element's own text.
/// ``keep(_:)`` rules select instead of edit: once one is added, the root element holds
/// only the elements they match, each with its subtree (rules still apply inside it, and
/// only there); the root's own text and what lies between the kept elements are left out.
///
/// **What is written.** The output is UTF-8 with an XML declaration (unless the options
/// say otherwise), whatever the input's encoding. Entities are expanded, CDATA sections
/// written as text, and the DOCTYPE is not written: the copy has the original's canonical
/// content. With namespace processing (the default) each start tag keeps the declarations
/// the document wrote on it, so prefixes that only content mentions stay bound; a renamed
/// or edited name declares what it needs.
///
/// **Errors.** A malformed document, a broken safety limit or a handler's error ends the
/// run with the error the parse reports (``XMLParseError``, ``HandlerError`` with the
/// position of the element being copied); what was written before it stays written, so
/// write to a temporary file and move it into place when the run succeeds. A rule whose
/// pattern matched nothing is a ``ParseWarning`` (``onWarning(_:)``).
public struct XMLTransform {
    /// Whether names are read by namespace (``Dispatcher/processesNamespaces``): patterns
    /// match by namespace URI, and each element keeps its namespace. Without it, names and
    /// `xmlns` attributes are copied as written. Default `true`.
    public var processesNamespaces = true
    /// The prefixes the rules' patterns and names may use (``Dispatcher/namespaces``).
    public var namespaces = NamespaceBindings()
    /// The limits the document is read within (``Dispatcher/safety``).
    public var safety: SafetyProfile = .default
    /// The most output an element whose fate a condition decides may hold until its end
    /// (``keep(_:if:)``, ``drop(_:if:)``): 64 MiB unless set. A larger one ends the run with
    /// an ``XMLParseError`` whose code is ``XMLParseError/Code/recordSizeLimitExceeded``.
    public var maximumHeldBytes = 64 << 20

    enum Action {
        case drop
        case keep
        case keepIf((HeldElement) throws -> Bool)
        case dropIf((HeldElement) throws -> Bool)
        case rename(String)
        case removeAttribute(String)
        case edit((ElementContext, inout ElementEdit) throws -> Void)
        case editText((ElementContext, String) throws -> String)
        case replace(TextScope, (ElementContext, String, XMLWriter) throws -> Void)
    }

    struct Rule {
        var pattern: ElementPattern
        var action: Action
    }

    private(set) var rules: [Rule] = []
    private var warningHandlers: [(ParseWarning) -> Void] = []

    /// A transform with no rules: it copies the document through.
    public init() {}

    // MARK: Rules

    /// Leaves each element `pattern` matches out of the output, with everything in it. Its
    /// content is skipped unread by the handlers, at the cost of checking it is well-formed.
    public mutating func drop(_ pattern: ElementPattern) {
        rules.append(Rule(pattern: pattern, action: .drop))
    }

    /// Keeps, inside the root element, only the elements `pattern` matches, each with its
    /// subtree; several `keep` rules keep what any of them matches. The root element's own
    /// text, and the comments and processing instructions outside what is kept, are left
    /// out; the prolog and what follows the root are copied.
    ///
    /// ```swift
    /// transform.keep("/mediawiki/page")
    /// ```
    public mutating func keep(_ pattern: ElementPattern) {
        rules.append(Rule(pattern: pattern, action: .keep))
    }

    /// Keeps, as ``keep(_:)`` does, the elements `pattern` matches for which `condition`
    /// holds, decided once each has been read: until then it is held in memory, written
    /// but not yet output, within ``maximumHeldBytes``.
    ///
    /// ```swift
    /// transform.keep("page") { page in page.childText("ns") == "0" }   // the articles
    /// ```
    public mutating func keep(_ pattern: ElementPattern, if condition: @escaping (HeldElement) throws -> Bool) {
        rules.append(Rule(pattern: pattern, action: .keepIf(condition)))
    }

    /// Drops, as ``drop(_:)`` does, the elements `pattern` matches for which `condition`
    /// holds, decided once each has been read: until then it is held in memory within
    /// ``maximumHeldBytes``.
    ///
    /// ```swift
    /// transform.drop("page") { page in page.childText("redirect") != nil }
    /// ```
    public mutating func drop(_ pattern: ElementPattern, if condition: @escaping (HeldElement) throws -> Bool) {
        rules.append(Rule(pattern: pattern, action: .dropIf(condition)))
    }

    /// Renames each element `pattern` matches.
    ///
    /// - Parameters:
    ///   - pattern: The elements renamed.
    ///   - name: `local` keeps the element's namespace and prefix and changes its
    ///     local name; `prefix:local` names a prefix bound in ``namespaces`` or, failing that,
    ///     where the element is written; `{uri}local` puts it in that namespace, with a prefix
    ///     bound to it there or as the default namespace. Without namespace processing the
    ///     name is written as given. A name that is none of these is refused when the run
    ///     starts (``XMLWriterError/Code/invalidName``).
    public mutating func rename(_ pattern: ElementPattern, to name: String) {
        rules.append(Rule(pattern: pattern, action: .rename(name)))
    }

    /// Removes the attribute `name` from each element `pattern` matches (every element by
    /// default).
    ///
    /// - Parameters:
    ///   - name: `local` is an attribute in no namespace; `prefix:local` is by the
    ///     namespace ``namespaces`` binds the prefix to, or else the name as written;
    ///     `{uri}local` is by namespace, whatever its prefix. Without namespace processing,
    ///     the name as written.
    ///   - pattern: The elements it is removed from.
    public mutating func removeAttribute(_ name: String, from pattern: ElementPattern = .any) {
        rules.append(Rule(pattern: pattern, action: .removeAttribute(name)))
    }

    /// Calls `body` with the start tag of each element `pattern` matches, to change its
    /// name and attributes or drop it (``ElementEdit``) before it is written.
    ///
    /// ```swift
    /// transform.edit("a[@href]") { element, edit in
    ///     edit["href"] = edit["href"]?.replacingOccurrences(of: "http://", with: "https://")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - pattern: The elements edited.
    ///   - body: Called in a start handler: `element` has its attributes and ancestors;
    ///     what it throws ends the run as a ``HandlerError``.
    public mutating func edit(_ pattern: ElementPattern, _ body: @escaping (ElementContext, inout ElementEdit) throws -> Void) {
        rules.append(Rule(pattern: pattern, action: .edit(body)))
    }

    /// Replaces the text directly in each element `pattern` matches with what `body`
    /// returns: each run of character data between its tags, comments and processing
    /// instructions, whole (all of a leaf element's text at once). A run is held in memory
    /// until it ends, within ``SafetyProfile/maximumTextBytes``.
    ///
    /// ```swift
    /// transform.editText("title") { _, title in title.uppercased() }
    /// ```
    public mutating func editText(_ pattern: ElementPattern, _ body: @escaping (ElementContext, String) throws -> String) {
        rules.append(Rule(pattern: pattern, action: .editText(body)))
    }

    /// Writes what `body` writes in place of each element `pattern` matches, once the
    /// element has been read: `body` gets the element, its text (``TextScope/whole`` by
    /// default, white space kept) and the writer, positioned where the element was.
    /// Nothing of the element itself is written; `body` may write nothing.
    ///
    /// ```swift
    /// transform.replace("price") { element, text, writer in
    ///     try writer.element("cost", attributes: ["currency": "EUR"], text: text)
    /// }
    /// ```
    public mutating func replace(
        _ pattern: ElementPattern, text scope: TextScope = .whole,
        _ body: @escaping (ElementContext, String, XMLWriter) throws -> Void
    ) {
        rules.append(Rule(pattern: pattern, action: .replace(scope, body)))
    }

    /// Calls `handler` with each ``ParseWarning`` of a run: a rule whose pattern matched no
    /// element, among others (``Dispatcher/onWarning(_:)``).
    public mutating func onWarning(_ handler: @escaping (ParseWarning) -> Void) {
        warningHandlers.append(handler)
    }

    // MARK: Running

    /// Reads `input` and writes the transformed document to `output`, finished.
    ///
    /// ```swift
    /// try transform.run(.file("in.xml"), to: .standardOutput)
    /// ```
    ///
    /// - Throws: ``XMLWriterError`` when the output cannot be opened or a rule's name is
    ///   not a name; ``XMLParseError`` for a malformed document or a broken limit;
    ///   ``HandlerError`` for what a rule's closure or the writer refused, with the
    ///   element's position; what reading the input throws.
    public func run(_ input: XMLInput, to output: XMLOutput, options: XMLWriter.Options = .compact) throws {
        try checkNames(output: output.name)
        let writer = try XMLWriter(to: output, options: options)
        do {
            try runChecked(input, into: writer)
        } catch {
            // What was written before the error reaches the output (a stream's reader sees
            // how far it got); nothing held for an undecided element does.
            try? writer.flush()
            throw error
        }
        try writer.finish()
    }

    /// Reads `input` and writes the transformed document into `writer`, which the caller
    /// made (compressed output, a sink of its own) and finishes.
    ///
    /// - Throws: As ``run(_:to:options:)``.
    public func run(_ input: XMLInput, into writer: XMLWriter) throws {
        try checkNames(output: writer.output.name)
        try runChecked(input, into: writer)
    }

    /// Runs the transform, its names checked.
    private func runChecked(_ input: XMLInput, into writer: XMLWriter) throws {
        let run = TransformRun(
            rules: rules, writer: writer, processesNamespaces: processesNamespaces, namespaces: namespaces,
            maximumHeldBytes: maximumHeldBytes)
        var dispatcher = run.dispatcher()
        dispatcher.safety = safety
        dispatcher.namespaces = namespaces
        dispatcher.processesNamespaces = processesNamespaces
        for handler in warningHandlers { dispatcher.onWarning(handler) }
        do {
            defer { run.abandonHolds() }
            try dispatcher.parse(input)
        } catch let error as HandlerError {
            // A held element over its limit is the parse's limit error, as a record's is.
            if var limit = error.underlying as? XMLParseError, limit.code == .recordSizeLimitExceeded {
                limit.source = limit.source ?? error.source
                throw limit
            }
            throw error
        }
    }

    /// Checks the rules before a run: every ``rename(_:to:)`` names an element name of a
    /// form it takes. The runs check it too, before they read or write anything.
    ///
    /// - Throws: ``XMLWriterError`` with ``XMLWriterError/Code/invalidName`` for the first
    ///   rename that does not.
    public func validate() throws {
        try checkNames(output: nil)
    }

    /// Refuses a rename to something that is not a name, before anything is read.
    private func checkNames(output: String?) throws {
        for rule in rules {
            guard case .rename(let name) = rule.action else { continue }
            guard RenameTarget(name, processesNamespaces: processesNamespaces, namespaces: namespaces) != nil else {
                throw XMLWriterError(
                    code: .invalidName, message: "cannot rename \(rule.pattern) to \"\(name)\": not an XML name", output: output)
            }
        }
    }
}
