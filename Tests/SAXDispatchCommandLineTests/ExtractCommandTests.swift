import Foundation
import SAXDispatch
import SAXDispatchTools
import SAXDispatchTestSupport
import Testing

@Suite("saxdispatch extract")
struct ExtractCommandTests {
    let catalog = TestPaths.fixture("catalog.xml").path

    /// Every type, an attribute of the record and of a child, an optional and a list.
    let everyType = [
        "--field", "id=@id:int", "--field", "title", "--field", "price:decimal", "--field", "currency=price/@currency",
        "--field", "ratio:double", "--field", "active:bool", "--field", "date=dc:date:date",
        "--field", "published:date-rfc822", "--field", "stamp:date-epoch", "--field", "note:string?",
        "--field", "tags=tag:string[]", "--field", "href=@href:url",
    ]

    func extract(_ arguments: [String], input: Data? = nil) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", ["extract"] + arguments, input: input)
    }

    @Test("JSON Lines: one object per record, typed values, keys in field order")
    func jsonLines() throws {
        let result = try extract([catalog, "--record", "item"] + everyType)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5)
        #expect(lines.last == "")
        #expect(
            lines[0] == #"{"id":1,"title":"Plain","price":3.5,"currency":"EUR","ratio":0.25,"active":true,"#
                + #""date":"2024-03-01T11:30:05.250Z","published":"2003-06-10T04:00:00Z","stamp":"2023-11-14T22:13:20Z","#
                + #""note":null,"tags":["a","b,c"],"href":"http://example.org/items/1"}"#)
        #expect(
            lines[1] == #"{"id":2,"title":"Comma, \"quotes\" and\n  a line break","price":10,"currency":"USD","#
                + #""ratio":1000.0,"active":false,"date":"1969-12-31T00:00:00Z","published":"1999-12-31T23:00:00Z","#
                + #""stamp":"1970-01-01T00:00:00.500Z","note":"tab\tand back\\slash","tags":[],"href":"http://example.org/items/2"}"#)
        // Non-finite doubles are strings; an xsi:nil element and an empty one are null; <tag/> is "".
        #expect(
            lines[2] == #"{"id":3,"title":"Ünïcode ✓ 🐘","price":0.1,"currency":"GBP","ratio":"INF","active":true,"#
                + #""date":"2000-02-29T23:59:59Z","published":"2000-02-29T04:59:59Z","stamp":"1969-12-31T23:59:59Z","#
                + #""note":null,"tags":[""],"href":"http://example.org/items/3"}"#)
        #expect(lines[3].hasPrefix(#"{"id":4,"title":"Last","price":2,"currency":"EUR","ratio":-0.0,"active":false,"#))
        // An empty <note/> read as string? is "", as a String? record field reads it.
        #expect(lines[3].contains(#""note":"","tags":[],"#))
    }

    @Test("JSON Lines round-trip through a JSON parser with their types")
    func jsonRoundTrip() throws {
        let result = try extract([catalog, "--record", "item"] + everyType)
        let objects = try result.output.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count == 4)
        #expect(objects.map { $0["id"] as? Int } == [1, 2, 3, 4])
        #expect(objects[1]["title"] as? String == "Comma, \"quotes\" and\n  a line break")
        #expect(objects[1]["note"] as? String == "tab\tand back\\slash")
        #expect(objects[0]["price"] as? Double == 3.5)
        #expect(objects[0]["active"] as? Bool == true)
        #expect(objects[0]["note"] is NSNull)
        #expect(objects[0]["tags"] as? [String] == ["a", "b,c"])
        #expect(objects[2]["title"] as? String == "Ünïcode ✓ 🐘")
        #expect(objects[2]["ratio"] as? String == "INF")
        #expect(objects.allSatisfy { $0.count == 12 })
    }

    @Test("CSV: a header row, RFC 4180 quoting of commas, quotes and line breaks, lists as JSON arrays")
    func csv() throws {
        let result = try extract([
            catalog, "--record", "item", "--format", "csv", "--field", "id=@id:int", "--field", "title",
            "--field", "ratio:double", "--field", "note:string?", "--field", "tags=tag:string[]",
        ])
        #expect(result.status == 0)
        let expected = [
            "id,title,ratio,note,tags",
            #"1,Plain,0.25,,"[""a"",""b,c""]""#,
            #"2,"Comma, ""quotes"" and"#,
            "  a line break\",1000.0,tab\tand back\\slash,[]",
            #"3,Ünïcode ✓ 🐘,INF,,"[""""]""#,
            "4,Last,-0.0,,[]",
        ]
        #expect(result.output == expected.joined(separator: "\n") + "\n")
    }

    @Test("TSV: a header row; tab, line break and backslash escaped")
    func tsv() throws {
        let result = try extract([
            catalog, "--record", "item", "--format", "tsv", "--field", "id=@id:int", "--field", "title",
            "--field", "note:string?",
        ])
        #expect(result.status == 0)
        #expect(
            result.output == "id\ttitle\tnote\n1\tPlain\t\n2\tComma, \"quotes\" and\\n  a line break\ttab\\tand back\\\\slash\n"
                + "3\tÜnïcode ✓ 🐘\t\n4\tLast\t\n")
    }

    @Test("--on-error fail: the rows before the bad record, then its diagnostic, exit 1")
    func failMode() throws {
        let result = try extract([catalog, "--record", "item", "--field", "id=@id:int", "--field", "count:int"])
        #expect(result.status == 1)
        #expect(result.output == "{\"id\":1,\"count\":7}\n{\"id\":2,\"count\":-3}\n")
        #expect(
            result.error == "\(catalog):30:5: error: cannot convert \"x12\" to Int at catalog/item/count "
                + "(in record item, field count): expected an integer\n")
    }

    @Test("--on-error skip: the bad record is left out with its diagnostic, the rest written, exit 0")
    func skipMode() throws {
        let result = try extract([
            catalog, "--record", "item", "--on-error", "skip", "--field", "id=@id:int", "--field", "count:int",
            "--field", "note",
        ])
        #expect(result.status == 0)
        #expect(
            result.output == "{\"id\":2,\"count\":-3,\"note\":\"tab\\tand back\\\\slash\"}\n"
                + "{\"id\":4,\"count\":4,\"note\":\"\"}\n")
        let diagnostics = result.error.split(separator: "\n").map(String.init)
        #expect(
            diagnostics == [
                "\(catalog):12:5: error: note of record item is nil but required",
                "\(catalog):30:5: error: cannot convert \"x12\" to Int at catalog/item/count (in record item, field count): "
                    + "expected an integer",
                "\(catalog):36:5: error: note of record item is nil but required",
                "saxdispatch: skipped 2 of 4 records that could not be built",
            ])
    }

    @Test("a malformed document: the rows before the error are written, then FILE:LINE:COLUMN, exit 1")
    func malformed() throws {
        let xml = "<a>\n<item id='1'/>\n<item id='2'/>\n<item id='3'></a>"
        let result = try extract(["-", "--record", "item", "--field", "@id:int"], input: Data(xml.utf8))
        #expect(result.status == 1)
        #expect(result.output == "{\"@id\":1}\n{\"@id\":2}\n")
        #expect(result.error == "-:4:16: error: mismatched tag (in a/item)\n")
    }

    @Test("dates beyond the year 9999 in ISO 8601's expanded form; seconds beyond 10^14 are an error")
    func farDates() throws {
        let xml = #"<r><i e="1e12"/><i e="-62198755200"/><i e="1e14"/><i e="253402300799"/></r>"#
        let result = try extract(
            ["-", "--record", "i", "--field", "v=@e:date-epoch", "--on-error", "skip"], input: Data(xml.utf8))
        #expect(result.status == 0)
        #expect(
            result.output == #"{"v":"+33658-09-27T01:46:40Z"}"# + "\n" + #"{"v":"-0001-01-01T00:00:00Z"}"# + "\n"
                + #"{"v":"9999-12-31T23:59:59Z"}"# + "\n")
        #expect(result.error.contains("seconds since 1970 beyond 10^14"))
    }

    @Test("FILE '-' reads standard input")
    func standardInput() throws {
        let xml = try String(contentsOfFile: catalog, encoding: .utf8)
        let piped = try extract(["-", "--record", "item", "--field", "title", "--format", "csv"], input: Data(xml.utf8))
        let direct = try extract([catalog, "--record", "item", "--field", "title", "--format", "csv"])
        #expect(piped.status == 0)
        #expect(piped.output == direct.output)
        #expect(piped.output.hasPrefix("title\nPlain\n"))
    }

    @Test("usage errors exit 2 with the reason")
    func usageErrors() throws {
        let cases: [([String], String)] = [
            ([catalog, "--record", "item"], "give at least one --field"),
            ([catalog, "--record", "item[", "--field", "title"], "--record: invalid pattern \"item[\" at column 6"),
            ([catalog, "--record", "item", "--field", "/title"], "paths are relative to the record"),
            ([catalog, "--record", "item", "--field", "=title"], "the name before '=' is empty"),
            ([catalog, "--record", "item", "--field", "a=title", "--field", "a=price"], "two fields are named 'a'"),
            ([catalog, "--record", "item", "--field", "title", "--format", "xml"], "--format"),
            ([catalog, "--record", "item", "--field", "title", "--on-error", "ignore"], "--on-error"),
            ([catalog, "--record", "item", "--field", "title", "--limit", "depth=deep"], "--limit"),
        ]
        for (arguments, message) in cases {
            let result = try extract(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
            #expect(result.output.isEmpty)
        }
    }

    @Test("safety limits apply: a document deeper than --limit depth fails")
    func safetyLimits() throws {
        let result = try extract([catalog, "--record", "item", "--field", "title", "--limit", "depth=2"])
        #expect(result.status == 1)
        #expect(result.error == "\(catalog):4:5: error: elements nest deeper than maximumDepth (2) (in catalog/item)\n")
        #expect(result.output.isEmpty)
    }

    @Test("progress: drawn on standard error with --progress always, never when it is not a terminal")
    func progress() throws {
        let arguments = [catalog, "--record", "item", "--field", "title"]
        let always = try extract(arguments + ["--progress", "always"])
        let auto = try extract(arguments)
        #expect(always.status == 0 && auto.status == 0)
        #expect(always.output == auto.output)
        #expect(auto.error.isEmpty)
        #expect(always.error.hasPrefix("\r\u{1B}[K["))
        #expect(always.error.contains(" MB/s  4 records  0:00 elapsed"))
        #expect(always.error.hasSuffix("\r\u{1B}[K"))
    }

    @Test("--field arguments: names, paths with colons and brackets, types and arities")
    func fieldArguments() throws {
        let cases: [(String, String, String, String)] = [
            ("kind", "kind", "kind", "string"),
            ("name=nested_nonsense/name", "name", "nested_nonsense/name", "string"),
            ("id=@id:int", "id", "@id", "int"),
            ("creator=dc:creator", "creator", "dc:creator", "string"),
            ("when=dc:date:date?", "when", "dc:date", "date?"),
            ("dc:date:string", "dc:date", "dc:date", "string"),
            ("tags=tag:string[]", "tags", "tag", "string[]"),
            ("link[@rel='alternate']/@href:url", "link[@rel='alternate']/@href", "link[@rel='alternate']/@href", "url"),
            ("self=link[@rel='a=b']/@href", "self", "link[@rel='a=b']/@href", "string"),
            ("day=pubDate:date-rfc822", "day", "pubDate", "date-rfc822"),
        ]
        for (argument, name, path, type) in cases {
            let field = try ExtractField(parsing: argument)
            #expect(field.name == name, "\(argument)")
            #expect(field.path.description == path, "\(argument)")
            #expect(field.typeDescription == type, "\(argument)")
        }
        #expect(throws: ExtractFieldError.self) { try ExtractField(parsing: "x=a[") }
        #expect(throws: ExtractFieldError.self) { try ExtractField(parsing: "x=@") }
        // Prefixed names that are no type's spelling stay names; an explicit type keeps a name
        // that looks like one.
        for (argument, path) in [("t=svg:text", "svg:text"), ("n=x:integer:string", "x:integer"), ("s=osm:timestamp", "osm:timestamp")] {
            #expect(try ExtractField(parsing: argument).path.description == path, "\(argument)")
        }
    }

    /// Malformed `--field` arguments, each with what its usage error must say.
    static let malformedFields: [(String, String)] = [
        ("@@x", "'@x' is not an attribute name: a name cannot start with '@'"),
        ("t?", "'t?' is not an element name: '?' cannot be part of a name (an optional field's type ends in '?'"),
        ("?", "'?' is not an element name: a name cannot start with '?'"),
        ("@", "'@' must be followed by an attribute name"),
        ("a/@", "'@' must be followed by an attribute name"),
        ("@x/y", "a step name or '*' was expected, not '@'"),
        ("a[", "'@' and an attribute name were expected after '['"),
        ("a[@k='v'", "']' was expected to close the '[' at column 3"),
        ("a[@k?='v']/@h", "'k?' is not an attribute name: '?' cannot be part of a name"),
        ("//", "a pattern cannot be empty"),
        ("a//", "a step name or '*' was expected, not the end"),
        ("name=", "the path is empty"),
        ("=a", "the name before '=' is empty"),
        (":int", "the path is empty"),
        ("a:", "nothing follows the last ':'; write a type after it or leave the ':' out"),
        ("a::int", "'a:' is not an element name: a name holds at most one ':', between a prefix and a local name"),
        (":a", "':a' is not an element name: a name holds at most one ':'"),
        ("x:y:z", "'x:y:z' is not an element name: a name holds at most one ':'"),
        ("a/@:b", "':b' is not an attribute name"),
        ("a/1b", "'1b' is not an element name: a name cannot start with '1'"),
        ("[]", "a step name or '*' was expected, not '['"),
        ("a[]", "'@' and an attribute name were expected after '['"),
        ("a:?", "unknown type '' in '?'"),
        ("price:strng", "unknown type 'strng': did you mean 'string'?"),
        ("price:integr", "unknown type 'integr': did you mean 'int'?"),
        ("price:itn", "unknown type 'itn': did you mean 'int'?"),
        ("price:doubel", "unknown type 'doubel': did you mean 'double'?"),
        ("day:date-rfc2822", "unknown type 'date-rfc2822': did you mean 'date-rfc822'?"),
        ("price:Int", "unknown type 'Int': did you mean 'int'?"),
    ]

    /// Every form `saxdispatch extract --help` shows, and names that only look unusual.
    static let validFields = [
        "kind", "a/b", "//name", ".", "@id", "link/@href", "link[@rel='alternate']/@href", "name=nested_nonsense/name",
        "id=@id:int", "lat=@lat:double", "name=tag[@k='name']/@v:string?", "title", "id:int", "dc:date:string",
        "price:integer:string", "p:decimal", "b:bool", "u:url", "d:date", "r:date-rfc822", "e:date-epoch", "o:int?",
        "l:string[]", "dc:creator", "h:strong", "x:uri", "x:book", "svg:text", "a/@xml:lang", "./a", "*", "a/*",
        "a-b.c_d", "été/名前", "link[@rel='a?b']/@href", "x=a[@k]//b/@c:int[]",
    ]

    @Test("every malformed --field is a usage error, exit 2, naming what is wrong; every valid form still parses")
    func malformedFields() throws {
        let input = Data("<zoo/>".utf8)
        for (field, message) in Self.malformedFields {
            let result = try extract(["-", "--record", "animal", "--field", field], input: input)
            #expect(result.status == 2, "\(field)")
            #expect(result.error.hasPrefix("Error: --field '\(field)': "), "\(field): \(result.error)")
            #expect(result.error.contains(message), "\(field): \(result.error)")
            #expect(result.output.isEmpty, "\(field)")
        }
        for field in Self.validFields {
            let result = try extract(["-", "--record", "animal", "--field", field], input: input)
            // `<zoo/>` has no animal: the warning says so, with exit 3.
            #expect(result.status == 3, "\(field): \(result.error)")
            var lines = result.error.split(separator: "\n")
            #expect(lines.last == "-: warning: record pattern `animal` matched no element; no element name in this document is close to `animal`")
            lines.removeLast()
            // A prefix that `<zoo/>` never writes is warned about, and nothing else.
            #expect(lines.allSatisfy { $0.hasPrefix("-: warning: the prefix ") }, "\(field): \(result.error)")
            let path = try ExtractField(parsing: field).path.description
            #expect(lines.isEmpty == (!path.contains(":") || path.contains("xml:")), "\(field): \(result.error)")
        }
    }

    @Test("a --record pattern with a name no element can have is a usage error, exit 2, at its column")
    func malformedRecordPatterns() throws {
        let cases: [(String, String)] = [
            ("item?", "--record: invalid pattern \"item?\" at column 1: 'item?' is not an element name: '?' cannot be part of a name"),
            ("feed/x:", "--record: invalid pattern \"feed/x:\" at column 6: 'x:' is not an element name"),
            ("a[@k?]", "--record: invalid pattern \"a[@k?]\" at column 4: 'k?' is not an attribute name"),
            ("a/-b", "--record: invalid pattern \"a/-b\" at column 3: '-b' is not an element name: a name cannot start with '-'"),
        ]
        for (pattern, message) in cases {
            let result = try extract(["-", "--record", pattern, "--field", "kind"], input: Data("<zoo/>".utf8))
            #expect(result.status == 2, "\(pattern)")
            #expect(result.error.contains(message), "\(pattern): \(result.error)")
        }
        for pattern in ["animal", "/zoo/animal", "zoo//animal", "x:animal[@k='?']", "zoo/*"] {
            let result = try extract(["-", "--record", pattern, "--field", "kind"], input: Data("<zoo/>".utf8))
            // Valid, and matching nothing in `<zoo/>`: the warning's status.
            #expect(result.status == 3, "\(pattern): \(result.error)")
        }
    }

    @Test("--field with a mistyped type: a usage error naming the type meant, not a path that never matches")
    func mistypedTypes() throws {
        let cases: [(String, String)] = [
            ("price=price:integer", "did you mean 'int'?"),
            ("price=price:Int", "did you mean 'int'?"),
            ("ok=@ok:boolean?", "did you mean 'bool?'?"),
            ("when=updated:DateTime", "did you mean 'date'?"),
            ("tags=tag:strings[]", "unknown type 'strings' in 'strings[]'"),
            ("price=price:integr?", "unknown type 'integr' in 'integr?'"),
        ]
        for (argument, message) in cases {
            #expect("\(argument)") {
                try ExtractField(parsing: argument)
            } throws: { error in
                (error as? ExtractFieldError)?.message.contains(message) == true
            }
        }
        let result = try extract(["-", "--record", "item", "--field", "price=price:integer"], input: Data("<r/>".utf8))
        #expect(result.status == 2)
        #expect(result.error.contains("--field 'price=price:integer': unknown type 'integer': did you mean 'int'?"))
        #expect(result.output.isEmpty)
    }

    @Test("the progress line's text")
    func progressLine() {
        #expect(
            ProgressMeter.line(bytes: 483_200_000, total: 1_073_700_000, count: 2_301_442, elapsed: .seconds(2))
                == "[=====>      ]   45%  483.2 / 1073.7 MB  241.6 MB/s  2,301,442 records  0:02 elapsed, 0:02 left")
        #expect(
            ProgressMeter.line(bytes: 12_345_678, total: nil, count: 1, unit: .elements, elapsed: .seconds(3725))
                == "12.3 MB  0.0 MB/s  1 element  1:02:05 elapsed")
        // Compressed input: what the bytes decompressed to, per second, after the file's own rate.
        #expect(
            ProgressMeter.line(
                bytes: 1_600_000, total: 13_200_000, documentBytes: 12_400_000, count: 9_210, unit: .elements,
                elapsed: .seconds(4))
                == "[=>          ]   12%  1.6 / 13.2 MB  0.4 MB/s  (3.1 MB/s decompressed)  9,210 elements  0:04 elapsed, 0:29 left")
    }
}
