import SAXDispatch
import Testing

/// A document whose DOCTYPE names a well-known DTD (XHTML 1.x, XHTML Basic, RSS 0.91) gets
/// its character entities from a built-in table, in content and attribute values, in every
/// split; ``SafetyProfile/readsKnownDTDEntities`` turns that off, and
/// ``SafetyProfile/undeclaredEntities`` decides what other undeclared entities do.
@Suite("Entities of well-known DTDs, and the policy for undeclared entities")
struct KnownDTDEntitiesTests {
    static let page = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"
          "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
        <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="de" lang="de">
        <head><title>M&auml;rz&nbsp;2024</title></head>
        <body>
        <p class="note" title="&copy; Jos&eacute; &laquo;1&raquo;">&laquo;Gr&uuml;&szlig;e&raquo; &mdash; &euro;&nbsp;5 &amp; &apos;x&apos;</p>
        <a href="a.html?x=1&amp;y=2" title="&auml;&hellip;">&larr;&nbsp;back</a>
        </body>
        </html>
        """

    /// The transcript's last lines, the same fed whole and in pieces of 1, 7 and 4096 bytes.
    static func transcript(_ bytes: [UInt8], profile: SafetyProfile = .default) -> [String] {
        let whole = Transcript.record(bytes, splits: [bytes.count], profile: profile)
        for size in [1, 7, 4096] {
            let split = Transcript.record(bytes, splits: repeatElement(size, count: bytes.count), profile: profile)
            #expect(split == whole, "pieces of \(size)")
        }
        return whole
    }

    @Test("an XHTML 1.0 Transitional page reads the right characters in content and attributes")
    func xhtmlPage() {
        let lines = Self.transcript(Array(Self.page.utf8))
        #expect(lines.last == "outcome completed")
        #expect(lines.contains { $0.hasPrefix("end[any] title text=\"März\u{A0}2024\"") })
        #expect(lines.contains { $0.contains(#"title="© José «1»""#) })
        #expect(lines.contains { $0.hasPrefix("end[named] p text=\"«Grüße» — €\u{A0}5 & \\'x\\'\"") })
        #expect(lines.contains { $0.contains(#"href="a.html?x=1&y=2" title="ä…""#) })
        #expect(lines.contains { $0.hasPrefix("end[any] a text=\"←\u{A0}back\"") })
    }

    @Test("the same page in UTF-16")
    func utf16Page() {
        let page = Self.page.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let bytes: [UInt8] = [0xFF, 0xFE] + page.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let lines = Self.transcript(bytes)
        #expect(lines.last == "outcome completed")
        #expect(lines.contains { $0.contains(#"title="© José «1»""#) })
        #expect(lines.contains { $0.hasPrefix("end[named] p text=\"«Grüße» — €\u{A0}5 & \\'x\\'\"") })
    }

    @Test("every known public identifier, and the 253 entities")
    func publicIdentifiers() {
        for identifier in [
            "-//W3C//DTD XHTML 1.0 Strict//EN", "-//W3C//DTD XHTML 1.0 Frameset//EN", "-//W3C//DTD XHTML 1.1//EN",
            "-//W3C//DTD XHTML Basic 1.0//EN", "-//W3C//DTD XHTML Basic 1.1//EN",
            "-//Netscape Communications//DTD RSS 0.91//EN",
        ] {
            let document = "<!DOCTYPE r PUBLIC \"\(identifier)\" \"r.dtd\"><r a=\"&yuml;\">&thetasym;&zwj;&Yuml;</r>"
            let lines = Transcript.record(Array(document.utf8), splits: [1000])
            #expect(lines.contains { $0.contains(#"[a="ÿ"]"#) }, "\(identifier)")
            #expect(lines.contains { $0.hasPrefix("end[any] r text=\"\u{3D1}\u{200D}Ÿ\"") }, "\(identifier)")
        }
    }

    @Test("the document's own declaration comes first")
    func internalSubsetWins() {
        let document = """
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd" [<!ENTITY copy "(c)">]>
            <html title="&copy;&reg;">&copy;&reg;</html>
            """
        let lines = Self.transcript(Array(document.utf8))
        #expect(lines.contains { $0.contains(#"[title="(c)®"]"#) })
        #expect(lines.contains { $0.hasPrefix("end[any] html text=\"(c)®\"") })
    }

    @Test("turned off, or with an unknown public identifier, the references are undeclared")
    func offAndUnknown() {
        var off = SafetyProfile.default
        off.readsKnownDTDEntities = false
        #expect(Self.transcript(Array(Self.page.utf8), profile: off).last == "error undefinedEntity 5:15+245 html/head/title")
        let unknown = Self.page.replacingOccurrences(of: "XHTML 1.0 Transitional", with: "XHTML 9.0 Transitional")
        #expect(Self.transcript(Array(unknown.utf8)).last == "error undefinedEntity 5:15+245 html/head/title")
        // In an attribute value first.
        let attribute = #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"><html title="&nbsp;"/>"#
        #expect(Self.transcript(Array(attribute.utf8), profile: off).last == "error undefinedEntity 1:79+78 (document)")
        // Strict forbids an internal subset, not these entities.
        #expect(Self.transcript(Array(Self.page.utf8), profile: .strict).last == "outcome completed")
    }

    @Test("an entity the table does not have stays undeclared")
    func notInTheTable() {
        let document = #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "x.dtd"><html>&nbsp;&bogus;</html>"#
        #expect(Self.transcript(Array(document.utf8)).last == "error undefinedEntity 1:71+70 html")
    }

    @Test("skipping with a warning leaves the reference out, in content and attribute values")
    func skipWithWarning() throws {
        var profile = SafetyProfile.default
        profile.undeclaredEntities = .skipWithWarning
        let document = """
            <!DOCTYPE r SYSTEM "r.dtd">
            <r a="(&foo;)">x&foo;y<s b="&bar;&lt;"/>&foo;</r>
            """
        let lines = Self.transcript(Array(document.utf8), profile: profile)
        #expect(lines.last == "outcome completed")
        #expect(lines.contains { $0.contains(#"[a="()"]"#) })
        #expect(lines.contains { $0.contains(#"[b="<"]"#) })
        #expect(lines.contains { $0.hasPrefix(#"end[any] r text="xy""#) })

        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        var received: [String] = []
        dispatcher.onWarning { received.append($0.message) }
        let parser = PushParser(dispatcher, source: "page.xml")
        try parser.feed(document)
        try parser.finish()
        #expect(
            parser.warnings.map(\.description) == [
                "page.xml: warning: entity &foo; is not declared in the document (a declaration in an external DTD or"
                    + " after a parameter entity reference is not read): its 3 references were left out, the first at"
                    + " line 2, column 8",
                "page.xml: warning: entity &bar; is not declared in the document (a declaration in an external DTD or"
                    + " after a parameter entity reference is not read): its reference was left out, the first at"
                    + " line 2, column 29",
            ])
        #expect(received == parser.warnings.map(\.message))
        // Without an external subset expat itself still reports the undeclared entity.
        #expect(Self.transcript(Array("<r>&foo;</r>".utf8), profile: profile).last == "error undefinedEntity 1:4+3 r")
    }
}
