import Foundation
import SAXDispatch
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

/// Namespaces on the command line: `-N PREFIX=URI` and Clark names in `extract`,
/// `--no-namespaces` on every command that reads a document, the warning for a prefix
/// that matched nothing, the `paths` legend, and how `dc:date` reads.
@Suite("saxdispatch: namespaces")
struct NamespaceCommandTests {
    static let atom = "http://www.w3.org/2005/Atom"
    static let dublinCore = "http://purl.org/dc/elements/1.1/"

    /// One feed in three spellings: a default namespace, the usual `atom:` prefix, and
    /// unusual prefixes (with an `atom:` decoy bound to another namespace).
    static let spellings = ["atom-default.xml", "atom-prefixed.xml", "atom-unusual.xml"]

    /// The rows every spelling gives; the decoy entry in another namespace is never one.
    static let feedRows = """
        {"title":"One","updated":"2024-01-02T03:04:05Z","date":"2024-01-01","href":"http://example.org/1","lang":"en"}
        {"title":"Two","updated":"2024-02-02T03:04:05Z","date":"2024-02-01","href":"http://example.org/2","lang":null}

        """

    func saxdispatch(_ arguments: [String], input: String? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", arguments, input: input.map { Data($0.utf8) })
    }

    @Test("one feed in three spellings gives the same rows with -N bindings", arguments: spellings)
    func boundPrefixes(_ fixture: String) throws {
        let result = try saxdispatch([
            "extract", TestPaths.fixture(fixture).path, "-N", "atom=\(Self.atom)", "--namespace", "dc=\(Self.dublinCore)",
            "--record", "atom:entry", "--field", "title=atom:title", "--field", "updated=atom:updated:date",
            "--field", "date=dc:date", "--field", "href=atom:link[@rel='alternate']/@href:url",
            "--field", "lang=@xml:lang:string?",
        ])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(result.output == Self.feedRows)
    }

    @Test("Clark names need no -N and give the same rows", arguments: spellings)
    func clarkNames(_ fixture: String) throws {
        let result = try saxdispatch([
            "extract", TestPaths.fixture(fixture).path, "--record", "{\(Self.atom)}entry",
            "--field", "title={\(Self.atom)}title", "--field", "updated={\(Self.atom)}updated:date",
            "--field", "date={\(Self.dublinCore)}date", "--field", "href={\(Self.atom)}link[@rel='alternate']/@href:url",
            "--field", "lang=@{\(NamespaceBindings.xmlNamespace)}lang:string?",
        ])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(result.output == Self.feedRows)
    }

    @Test("a Clark name without NAME= names its column after the whole path, URI included")
    func clarkColumnName() throws {
        let result = try saxdispatch([
            "extract", TestPaths.fixture("atom-default.xml").path, "--record", "/{\(Self.atom)}feed",
            "--field", "{\(Self.atom)}title", "--format", "csv",
        ])
        #expect(result.status == 0)
        #expect(result.output == "{\(Self.atom)}title\n\"Namespaces, three ways\"\n")
    }

    @Test("a prefix bound nowhere and never written: no rows, warnings on standard error, exit 3")
    func unseenPrefixWarning() throws {
        let path = TestPaths.fixture("atom-default.xml").path
        let result = try saxdispatch(["extract", path, "--record", "atom:entry", "--field", "atom:title"])
        #expect(result.status == 3)
        #expect(result.output.isEmpty)
        #expect(
            result.error == """
                \(path): warning: the prefix 'atom' of --record or --field is bound nowhere and no element read was \
                written with it, so its names matched nothing: bind it with -N atom=URI, or write the names in Clark \
                notation ('{URI}local')
                \(path): warning: record pattern `atom:entry` matched no element; this document has `entry` in \
                \(Self.atom) (2 times), `entry` in urn:example:decoy (once) — bind a prefix to its namespace, or match \
                any namespace with `*:entry`

                """)
        // A prefix the document writes needs no binding: it matches as written, with no warning.
        let asWritten = try saxdispatch([
            "extract", TestPaths.fixture("atom-prefixed.xml").path, "--record", "atom:entry", "--field", "atom:title",
        ])
        #expect(asWritten.status == 0)
        #expect(asWritten.error.isEmpty)
        #expect(asWritten.output == "{\"atom:title\":\"One\"}\n{\"atom:title\":\"Two\"}\n")
    }

    @Test(
        "-N arguments that cannot be bound are usage errors, exit 2, saying what is wrong",
        arguments: [
            (["-N", "atom"], "Error: -N 'atom': not PREFIX=URI (for example -N atom=http://www.w3.org/2005/Atom)"),
            (["-N", "=urn:x"], "Error: -N '=urn:x': a binding needs a prefix; unprefixed names match unprefixed elements"),
            (["-N", "atom="], "Error: -N 'atom=': the prefix 'atom' cannot be bound to the empty URI"),
            (["-N", "xmlns=urn:x"], "Error: -N 'xmlns=urn:x': the prefix 'xmlns' cannot be bound: it declares namespaces"),
            (
                ["-N", "xml=urn:x"],
                "Error: -N 'xml=urn:x': the prefix 'xml' is always bound to 'http://www.w3.org/XML/1998/namespace'"
            ),
            (["-N", "1a=urn:x"], "Error: -N '1a=urn:x': the prefix '1a' is not a name: a name cannot start with '1'"),
            (["-N", "a:b=urn:x"], "Error: -N 'a:b=urn:x': 'a:b' is not a prefix"),
            (
                ["-N", "a=urn:one", "--namespace", "a=urn:two"],
                "Error: -N 'a=urn:two': the prefix 'a' is already bound to 'urn:one' by an earlier -N; a prefix has one URI"
            ),
            (
                ["-N", "a=urn:one", "--no-namespaces"],
                "Error: -N binds prefixes to namespace URIs, which --no-namespaces does not read"
            ),
        ])
    func bindingErrors(_ options: [String], _ message: String) throws {
        let result = try saxdispatch(["extract", "-", "--record", "a:item", "--field", "title"] + options, input: "<r/>")
        #expect(result.status == 2)
        #expect(result.error.hasPrefix(message), "\(result.error)")
        #expect(result.error.contains("Usage: saxdispatch extract "))
        #expect(result.output.isEmpty)
    }

    @Test("the same prefix bound twice to the same URI, and xml to its own, are accepted; a URI may hold '='")
    func repeatedBindings() throws {
        let bindings = try NamespaceArguments.bindings([
            "a=urn:one", "a=urn:one", "xml=http://www.w3.org/XML/1998/namespace", "q=http://example.org/?k=v",
        ])
        #expect(bindings.uri(for: "a") == "urn:one")
        #expect(bindings.uri(for: "q") == "http://example.org/?k=v")
    }

    @Test("a Clark name with --no-namespaces is a usage error: it would match nothing")
    func clarkWithoutNamespaces() throws {
        let result = try saxdispatch(
            ["extract", "-", "--record", "item", "--field", "t={urn:x}title", "--no-namespaces"], input: "<r/>")
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "Error: --field 't={urn:x}title': a name in Clark notation ({URI}local) needs namespace processing"))
        // Braces inside a quoted attribute value are no Clark name: not a usage error (the
        // pattern matches nothing in `<r/>`, which the warning's status says).
        let quoted = try saxdispatch(
            ["extract", "-", "--record", "item[@k='{x}']", "--field", "t", "--no-namespaces"], input: "<r/>")
        #expect(quoted.status == 3, "\(quoted.error)")
    }

    // MARK: - Legacy documents

    /// Each command that reads a document and processes namespaces, with the arguments
    /// it needs besides FILE.
    static let readingCommands: [[String]] = [
        ["check"], ["stats"], ["paths"], ["events"], ["extract", "--record", "item", "--field", "sku:code"],
    ]

    @Test(
        "a prefix no declaration binds fails with its line and column and a note; --no-namespaces reads the document",
        arguments: readingCommands)
    func legacyDocument(_ command: [String]) throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let failed = try saxdispatch([command[0], path] + command.dropFirst())
        #expect(failed.status == 1)
        #expect(
            failed.error == """
                \(path):4:5: error: unbound prefix (in catalog/item)
                \(path):4:5: note: no declaration binds this prefix; --no-namespaces reads the document with names as written

                """)
        let legacy = try saxdispatch([command[0], path] + command.dropFirst() + ["--no-namespaces"])
        #expect(legacy.status == 0, "\(legacy.error)")
        #expect(legacy.error.isEmpty)
    }

    @Test("--no-namespaces: names as written, in extract rows, paths and events")
    func legacyOutputs() throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let rows = try saxdispatch(["extract", path, "--record", "item", "--field", "sku:code", "--no-namespaces"])
        #expect(rows.output == "{\"sku:code\":\"A-1\"}\n{\"sku:code\":\"B-2\"}\n")
        let paths = try saxdispatch(["paths", path, "--no-namespaces"])
        #expect(paths.output.contains("/catalog/item/sku:code "))
        #expect(!paths.output.contains("NAMESPACE"))
        // Without namespace processing, declarations are attributes like any other.
        let events = try saxdispatch(["events", "-", "--no-namespaces"], input: "<a xmlns:p='urn:p'><p:b/></a>")
        #expect(events.output.hasPrefix(#"{"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{"xmlns:p":"urn:p"}}"#))
        let processed = try saxdispatch(["events", "-"], input: "<a xmlns:p='urn:p'><p:b/></a>")
        #expect(processed.output.hasPrefix(#"{"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{}}"#))
    }

    @Test("canon reads names as written and takes no --no-namespaces; its help says how the modes differ")
    func canon() throws {
        let path = TestPaths.fixture("legacy-prefixes.xml").path
        let result = try saxdispatch(["canon", path])
        #expect(result.status == 0)
        #expect(result.output.contains("<sku:code>A-1</sku:code>"))
        let option = try saxdispatch(["canon", path, "--no-namespaces"])
        #expect(option.status == 2)
        let help = try saxdispatch(["canon", "--help"]).output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("Names are read as written, without namespace processing"))
        #expect(help.contains("process namespaces unless given --no-namespaces"))
    }

    // MARK: - paths

    @Test("paths: a legend of each prefix as written and its URI before the table, prefixes kept in the paths")
    func pathsLegend() throws {
        let result = try saxdispatch(["paths", TestPaths.fixture("atom-unusual.xml").path])
        #expect(result.status == 0)
        #expect(
            result.output == """
                PREFIX     NAMESPACE
                a0         http://www.w3.org/2005/Atom
                xml        http://www.w3.org/XML/1998/namespace
                purl       http://purl.org/dc/elements/1.1/
                atom       urn:example:decoy
                (default)  http://www.w3.org/2005/Atom
                dc         http://purl.org/dc/elements/1.1/

                PATH                              COUNT  DEPTH  BELOW  ATTRIBUTES
                /a0:feed                              1      1      2
                /a0:feed/a0:title                     1      2      0
                /a0:feed/a0:entry                     1      2      1  xml:lang
                /a0:feed/a0:entry/a0:title            1      3      0
                /a0:feed/a0:entry/a0:updated          1      3      0
                /a0:feed/a0:entry/purl:date           1      3      0
                /a0:feed/a0:entry/a0:link             1      3      0  rel href
                /a0:feed/atom:entry                   1      2      1
                /a0:feed/atom:entry/atom:title        1      3      0
                /a0:feed/atom:entry/atom:updated      1      3      0
                /a0:feed/entry                        1      2      1
                /a0:feed/entry/title                  1      3      0
                /a0:feed/entry/updated                1      3      0
                /a0:feed/entry/dc:date                1      3      0
                /a0:feed/entry/link                   2      3      0  rel href

                """)
    }

    @Test("paths: a prefix bound to different URIs in different places shows every binding, in both formats")
    func pathsRebinding() throws {
        let document = """
            <r xmlns:p="urn:one"><p:x p:k="1"/><s xmlns:p="urn:two"><p:x/></s><p:x xmlns:p="urn:two"/></r>
            """
        let table = try saxdispatch(["paths", "-"], input: document)
        #expect(table.status == 0)
        #expect(
            table.output == """
                PREFIX  NAMESPACE
                p       urn:one
                p       urn:two

                PATH      COUNT  DEPTH  BELOW  ATTRIBUTES
                /r            1      1      2
                /r/p:x        2      2      0  p:k
                /r/s          1      2      1
                /r/s/p:x      1      3      0

                """)
        let lines = try saxdispatch(["paths", "-", "--format", "jsonl"], input: document)
        #expect(
            lines.output == """
                {"namespaces":[{"prefix":"p","uri":"urn:one"},{"prefix":"p","uri":"urn:two"}]}
                {"path":"/r","count":1,"depth":1,"levelsBelow":2,"attributes":[],"namespaceURIs":[]}
                {"path":"/r/p:x","count":2,"depth":2,"levelsBelow":0,"attributes":["p:k"],"namespaceURIs":["urn:one","urn:two"]}
                {"path":"/r/s","count":1,"depth":2,"levelsBelow":1,"attributes":[],"namespaceURIs":[]}
                {"path":"/r/s/p:x","count":1,"depth":3,"levelsBelow":0,"attributes":[],"namespaceURIs":["urn:two"]}

                """)
    }

    @Test("paths: the default namespace shows as (default), and null in JSON Lines")
    func pathsDefaultNamespace() throws {
        let document = #"<feed xmlns="http://www.w3.org/2005/Atom"><entry/></feed>"#
        let table = try saxdispatch(["paths", "-"], input: document)
        #expect(table.output.hasPrefix("PREFIX     NAMESPACE\n(default)  http://www.w3.org/2005/Atom\n\nPATH "))
        let lines = try saxdispatch(["paths", "-", "--format", "jsonl"], input: document)
        #expect(lines.output.hasPrefix(#"{"namespaces":[{"prefix":null,"uri":"http://www.w3.org/2005/Atom"}]}"# + "\n"))
        #expect(lines.output.contains(#""path":"/feed/entry","count":1,"depth":2,"levelsBelow":0,"attributes":[],"namespaceURIs":["http://www.w3.org/2005/Atom"]}"#))
    }

    // MARK: - dc:date

    @Test("--field dc:date with dc bound reads the element dc:date; unbound, the element dc as a date")
    func prefixedTypeNames() throws {
        let bound = try NamespaceBindings([("dc", Self.dublinCore), ("x", "urn:x")])
        for (argument, path, type) in [
            ("dc:date", "dc:date", "string"), ("d=dc:date", "dc:date", "string"), ("x:int", "x:int", "string"),
            ("item/x:url", "item/x:url", "string"), ("@x:bool", "@x:bool", "string"), ("dc:date:date", "dc:date", "date"),
            ("dc:date:string?", "dc:date", "string?"), ("x:integer", "x:integer", "string"), ("id:int", "id", "int"),
            ("{\(Self.dublinCore)}date", "{\(Self.dublinCore)}date", "string"),
            ("{\(Self.dublinCore)}date:date[]", "{\(Self.dublinCore)}date", "date[]"),
        ] {
            let field = try ExtractField(parsing: argument, namespaces: bound)
            #expect(field.path.description == path, "\(argument)")
            #expect(field.typeDescription == type, "\(argument)")
            #expect(field.spellingNote == nil || argument == "id:int", "\(argument)")
        }
        for (argument, path, type) in [("dc:date", "dc", "date"), ("x:int", "x", "int"), ("@x:bool", "@x", "bool")] {
            let field = try ExtractField(parsing: argument)
            #expect(field.path.description == path, "\(argument)")
            #expect(field.typeDescription == type, "\(argument)")
        }
        #expect(
            try ExtractField(parsing: "dc:date").spellingNote
                == "'dc:date' was read as the element 'dc' converted to date; for the element 'dc:date', write"
                + " 'dc:date:string' (or 'dc:date:date' to convert it), or bind the prefix with -N dc=URI")
        // An attribute is no element: `@id:int` is as common as it is clear.
        #expect(try ExtractField(parsing: "@id:int").spellingNote == nil)
    }

    @Test("'*:' in --record and --field: a SOAP body's customers whatever prefix or namespace they are written in")
    func anyNamespace() throws {
        let path = TestPaths.fixture("soap-billing.xml").path
        let result = try saxdispatch([
            "extract", path, "--record", "*:customer", "--field", "id=@id", "--field", "*:name",
            "--field", "balance=*:balance:double",
        ])
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.output == """
                {"id":"c1","*:name":"Ada","balance":12.5}
                {"id":"c2","*:name":"Grace","balance":0.0}
                {"id":"c3","*:name":"Edsger","balance":7.0}

                """)
        let nested = try saxdispatch([
            "extract", path, "--record", "*:GetCustomersResponse", "--field", "names=*:customer/*:name:string[]",
        ])
        #expect(nested.output == "{\"names\":[\"Ada\",\"Grace\",\"Edsger\"]}\n")
        // Unprefixed, the name matches unprefixed elements only: the warning says what the document has.
        let plain = try saxdispatch(["extract", path, "--record", "GetCustomersResponse", "--field", "*:customer"])
        #expect(plain.status == 3)
        #expect(
            plain.error
                == "\(path): warning: record pattern `GetCustomersResponse` matched no element; this document has"
                + " `b:GetCustomersResponse` in urn:billing (once) — bind a prefix to its namespace, or match any"
                + " namespace with `*:GetCustomersResponse`\n")
    }

    @Test("with the prefix bound, dc:date? and dc:date[] are errors that say to write the type")
    func boundPrefixWithMarker() throws {
        let result = try saxdispatch(
            ["extract", "-", "--record", "item", "-N", "dc=\(Self.dublinCore)", "--field", "when=dc:date?"], input: "<r/>")
        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "Error: --field 'when=dc:date?': 'dc' is a bound prefix, so 'dc:date' is a name, and '?' can only follow"
                    + " a type: write 'dc:date:string?' (or 'dc:date:date?' to convert it)\n"))
        #expect(throws: ExtractFieldError.self) {
            try ExtractField(parsing: "dc:creator[]", namespaces: ["dc": Self.dublinCore])
        }
    }

    @Test("--field dc:date: bound, the dates; unbound, the error and a note that spells the element out")
    func dcDateOnTheCommandLine() throws {
        let path = TestPaths.fixture("atom-prefixed.xml").path
        let arguments = ["extract", path, "-N", "atom=\(Self.atom)", "--record", "atom:entry", "--field", "dc:date"]
        let bound = try saxdispatch(arguments + ["-N", "dc=\(Self.dublinCore)"])
        #expect(bound.status == 0)
        #expect(bound.output == "{\"dc:date\":\"2024-01-01\"}\n{\"dc:date\":\"2024-02-01\"}\n")
        let unbound = try saxdispatch(arguments)
        #expect(unbound.status == 1)
        #expect(unbound.output.isEmpty)
        #expect(
            unbound.error == """
                \(path):4:3: error: record atom:entry has no dc
                \(path):4:3: note: 'dc:date' was read as the element 'dc' converted to date; for the element \
                'dc:date', write 'dc:date:string' (or 'dc:date:date' to convert it), or bind the prefix with -N dc=URI

                """)
        // Spelled as the note says, it reads the element by its prefix as written.
        let spelled = try saxdispatch(Array(arguments.dropLast()) + ["dc:date:string"])
        #expect(spelled.status == 0)
        #expect(spelled.output == bound.output)
        // With --on-error skip, the note comes once, with the first record.
        let skipped = try saxdispatch(arguments + ["--on-error", "skip"])
        // Every record skipped, and the field `dc` found in none: the warning, exit 3.
        #expect(skipped.status == 3)
        #expect(skipped.error.contains("warning: field `dc` of record `atom:entry` matched no element in any record"))
        #expect(skipped.error.components(separatedBy: "note:").count == 2)
        #expect(skipped.error.components(separatedBy: "error:").count == 3)
    }
}
