import Foundation
import SAXDispatch
import Testing

/// The code of SafetyProfiles.md, verbatim, and its rendered errors.
@Suite("Article: Safety profiles and limits")
struct SafetyProfilesArticleTests {
    let rendered: [String]

    init() throws {
        rendered = try DocumentationCatalog.textBlocks(of: "SafetyProfiles.md")
    }

    @Test("an external entity is an error that names it")
    func externalEntity() throws {
        let hostile = """
            <!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <r>&x;</r>
            """
        var message = ""
        do {
            try Dispatcher().parse(.string(hostile))
        } catch let error as XMLParseError {
            message = error.description          // error.code == .externalEntityForbidden
        }

        #expect(rendered.count == 2)
        #expect(rendered.first == message)
        let error = #expect(throws: XMLParseError.self) { try Dispatcher().parse(.string(hostile)) }
        #expect(error?.code == .externalEntityForbidden)
        // An entity declared only in an external DTD, which is never read, is an error too.
        let undeclared = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.string("<!DOCTYPE r SYSTEM \"r.dtd\">\n<r>&e;</r>"))
        }
        #expect(undeclared?.code == .undefinedEntity)
    }

    @Test("undeclared entities skipped with a warning, and the entities of known DTDs turned off")
    func undeclaredEntities() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety.undeclaredEntities = .skipWithWarning   // leave them out, and say so
        dispatcher.safety.readsKnownDTDEntities = false           // &nbsp; in XHTML is then undeclared too
        var warnings: [ParseWarning] = []
        dispatcher.onWarning { warnings.append($0) }
        try dispatcher.parse(.string(#"<!DOCTYPE p SYSTEM "p.dtd"><p title="&nbsp;">&copy;</p>"#))
        // warnings: &nbsp; and &copy;, each left out once

        #expect(warnings.count == 2)
        #expect(warnings.first?.message.hasPrefix("entity &nbsp; is not declared") == true)
        #expect(warnings.last?.message.hasPrefix("entity &copy; is not declared") == true)
        #expect(warnings.allSatisfy { $0.message.contains("its reference was left out") })
    }

    @Test("a custom profile, its limits and its errors")
    func customProfile() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety = .strict
        dispatcher.safety.maximumDepth = 64
        dispatcher.safety.maximumTextBytes = .atMost(1 << 30)    // 1 GiB of text in one element
        dispatcher.safety.maximumAttributes = .unlimited         // spelled out, never implied

        var messages: [String] = []
        do {
            try dispatcher.parse(.string(String(repeating: "<a>", count: 65)))
        } catch let error as XMLParseError {
            messages.append(error.description)   // error.code == .depthLimitExceeded, error.limit == 64
        }
        do {
            try dispatcher.parse(.string("<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"))
        } catch let error as XMLParseError {
            messages.append(error.description)   // error.code == .internalSubsetForbidden
        }

        #expect(rendered.last == messages.joined(separator: "\n"))
        let deep = #expect(throws: XMLParseError.self) { try dispatcher.parse(.string(String(repeating: "<a>", count: 65))) }
        #expect(deep?.code == .depthLimitExceeded)
        #expect(deep?.limit == 64)
        #expect(dispatcher.safety.maximumAttributes.value == nil)
        var profile = SafetyProfile.default
        profile[limitNamed: "depth"] = 64
        #expect(profile.maximumDepth == 64)
        #expect(SafetyProfile.limitNames.count == 8)
    }

    @Test("the defaults the table lists")
    func defaults() {
        let profile = SafetyProfile.default
        #expect(profile.allowsInternalSubset)
        #expect(!SafetyProfile.strict.allowsInternalSubset)
        #expect(profile.maximumEntityDeclarations == 256)
        #expect(profile.maximumDepth == 256)
        #expect(profile.maximumAttributes == 1024)
        #expect(profile.maximumNameBytes == 50_000)
        #expect(profile.maximumTokenBytes == .atMost(10 << 20))
        #expect(profile.maximumTextBytes == .atMost(10 << 20))
        #expect(profile.maximumCollectedTextBytes == .atMost(32 << 20))
        #expect(profile.maximumParserMemoryBytes == .atMost(64 << 20))
        #expect(profile.maximumAmplification == 100)
        #expect(profile.amplificationActivationBytes == 8 << 20)
    }

    @Test("each limit raises the code the table names")
    func codes() {
        func code(_ change: (inout SafetyProfile) -> Void, _ document: String, text: Bool = false) -> XMLParseError.Code? {
            var dispatcher = Dispatcher()
            change(&dispatcher.safety)
            if text { dispatcher.onEnd("a") { _, _ in } }
            do {
                try dispatcher.parse(.string(document))
                return nil
            } catch let error as XMLParseError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(code({ $0.maximumEntityDeclarations = 1 }, "<!DOCTYPE r [<!ENTITY a 'x'><!ENTITY b 'y'>]><r/>") == .entityLimitExceeded)
        #expect(code({ $0.maximumAttributes = 2 }, "<a x='1' y='2' z='3'/>") == .attributeLimitExceeded)
        #expect(code({ $0.maximumNameBytes = 8 }, "<averyveryverylongname/>") == .nameLimitExceeded)
        #expect(code({ $0.maximumTokenBytes = 100 }, "<a><!--" + String(repeating: "x", count: 200) + "--></a>") == .tokenLimitExceeded)
        #expect(code({ $0.maximumTextBytes = 10 }, "<a>" + String(repeating: "x", count: 20) + "</a>", text: true) == .textLimitExceeded)
        #expect(code({ $0.maximumParserMemoryBytes = .atMost(64 << 10) }, "<r " + (0..<1000).map { "a\($0)='\($0)'" }.joined(separator: " ") + "/>") == .memoryLimitExceeded)
        var laughs = "<!DOCTYPE r [<!ENTITY e0 'lol'>"
        for level in 1...9 { laughs += "<!ENTITY e\(level) '" + String(repeating: "&e\(level - 1);", count: 10) + "'>" }
        laughs += "]><r>&e9;</r>"
        #expect(code({ _ in }, laughs) == .amplificationLimitBreach)
    }

    @Test("records take the profile as a parameter")
    func records() throws {
        let title = XMLRecord("item", .text("title")) { $0 }
        let titles = try title.all(in: .string("<rss><item><title>Hello</title></item></rss>"), safety: .strict)
        // titles == ["Hello"]

        #expect(titles == ["Hello"])
        #expect(throws: XMLParseError.self) {
            try title.all(in: .string("<!DOCTYPE rss [<!ENTITY t 'x'>]><rss><item><title>&t;</title></item></rss>"), safety: .strict)
        }
    }

    @Test("the table's --limit names are the profile's limit names")
    func limitNames() throws {
        let article = try DocumentationCatalog.text(of: "SafetyProfiles.md")
        let names = article.split(separator: "\n").filter { $0.hasPrefix("| ``SafetyProfile/") }
            .compactMap { row -> String? in
                let cells = row.split(separator: "|", omittingEmptySubsequences: false)
                let name = cells[cells.count - 2].trimmingCharacters(in: .whitespaces)
                return name.hasPrefix("`") && !name.hasPrefix("`--") ? name.trimmingCharacters(in: ["`"]) : nil
            }
        #expect(names == SafetyProfile.limitNames)
    }

    @Test("an unlimited limit is off; text past the text limit fails coalesced and streams in pieces")
    func unlimitedAndStreamedText() throws {
        var dispatcher = Dispatcher()
        dispatcher.safety = .strict
        dispatcher.safety.maximumAttributes = .unlimited
        #expect(dispatcher.safety.maximumEntityDeclarations == SafetyProfile.default.maximumEntityDeclarations)
        let manyAttributes = (0..<2000).map { "a\($0)='1'" }.joined(separator: " ")
        try dispatcher.parse(.string("<r \(manyAttributes)/>"))

        let text = String(repeating: "t", count: 11 << 20)
        var coalescing = Dispatcher()
        coalescing.onEnd("r") { _, _ in }
        let bigText = #expect(throws: XMLParseError.self) { try coalescing.parse(.string("<r>\(text)</r>")) }
        #expect(bigText?.description == "<string>:1:1: error: the text of <r> is longer than maximumTextBytes (10485760) (in r)")
        var streamed = 0
        var streaming = Dispatcher()
        streaming.onText("r") { _, chunk in streamed += chunk.count }
        try streaming.parse(.string("<r>\(text)</r>"))
        #expect(streamed == text.utf8.count)
    }
}
