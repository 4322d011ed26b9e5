import SAXDispatch
import Testing

/// An entity reference in an attribute value that expat cannot expand (declared nowhere,
/// or only in an external DTD or after a parameter entity reference, neither of which is
/// read) is the same typed error as in content, at the reference, in every split. Expat
/// itself drops such a reference from the value and calls no handler.
@Suite("Undeclared entities in attribute values")
struct UndeclaredEntityInAttributeTests {
    /// The last line of the transcript, the same fed whole and in pieces of 1, 7 and 4096 bytes.
    static func outcome(_ bytes: [UInt8], profile: SafetyProfile = .default) -> String? {
        let whole = Transcript.record(bytes, splits: [bytes.count], profile: profile)
        for size in [1, 7, 4096] {
            let split = Transcript.record(bytes, splits: repeatElement(size, count: bytes.count), profile: profile)
            #expect(split == whole, "pieces of \(size)")
        }
        return whole.last
    }

    static func outcome(_ document: String, profile: SafetyProfile = .default) -> String? {
        outcome(Array(document.utf8), profile: profile)
    }

    @Test("a reference to an entity of an unread external DTD")
    func externalSubset() {
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd"><r a="(&copy;)"/>"#) == "error undefinedEntity 1:35+34 (document)")
        // On a later line, after other attributes, in single quotes.
        #expect(
            Self.outcome("<!DOCTYPE r SYSTEM \"x.dtd\">\n<r>\n <e b=\"1\"\n   c='x&y;'/></r>")
                == "error undefinedEntity 4:8+49 r")
    }

    @Test("a declaration after an unread parameter entity reference is not processed")
    func afterParameterEntityReference() {
        #expect(
            Self.outcome(#"<!DOCTYPE r [ %pe; <!ENTITY lang "en"> ]><r a="x&lang;y"/>"#)
                == "error undefinedEntity 1:49+48 (document)")
        // Declared before the reference, it is read.
        let transcript = Transcript.record(
            Array(#"<!DOCTYPE r [ <!ENTITY lang "en"> %pe; ]><r a="x&lang;y"/>"#.utf8), splits: [100])
        #expect(transcript.contains { $0.contains(#"[a="xeny"]"#) })
        #expect(transcript.last == "outcome completed")
    }

    @Test("a namespace declaration, which expat does not pass on as an attribute")
    func namespaceDeclaration() {
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd"><r xmlns:p="urn:&copy;"/>"#)
                == "error undefinedEntity 1:44+43 (document)")
    }

    @Test("a reference inside the replacement text of a declared entity")
    func insideReplacementText() {
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd" [<!ENTITY e "x&copy;y">]><r a="&e;"/>"#)
                == "error undefinedEntity 1:59+58 (document)")
        // Nested twice, the other way round.
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd" [<!ENTITY f "&e;"><!ENTITY e "&nope;">]><r><s a="-&f;"/></r>"#)
                == "error undefinedEntity 1:78+77 r")
    }

    @Test("a start tag from an internal entity's replacement text")
    func startTagFromEntity() {
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd" [<!ENTITY e "<s a='&copy;'/>">]><r>&e;</r>"#)
                == "error undefinedEntity 1:63+62 r")
    }

    @Test("an attribute default declared in the internal subset")
    func attributeDefault() {
        #expect(
            Self.outcome(#"<!DOCTYPE r SYSTEM "x.dtd" [<!ATTLIST r a CDATA "(&copy;)">]><r/>"#)
                == "error undefinedEntity 1:51+50 (document)")
    }

    @Test("UTF-16 input")
    func utf16() {
        let document = #"<!DOCTYPE r SYSTEM "x.dtd"><r a="(&copy;)"/>"#
        let littleEndian: [UInt8] = [0xFF, 0xFE] + document.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(Self.outcome(littleEndian) == "error undefinedEntity 1:36+70 (document)")
        let bigEndian: [UInt8] = [0xFE, 0xFF] + document.utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(Self.outcome(bigEndian) == "error undefinedEntity 1:36+70 (document)")
        let content = "<!DOCTYPE r SYSTEM \"x.dtd\"><r>(&copy;)</r>"
        let contentLE: [UInt8] = [0xFF, 0xFE] + content.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(Self.outcome(contentLE) == "error undefinedEntity 1:33+64 r")
    }

    @Test("input transcoded ahead of expat, and a single-byte encoding")
    func otherEncodings() {
        let latin1: [UInt8] =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE r SYSTEM "x.dtd"><r b=""#.utf8) + [0xE9]
            + Array(#"" a="&nope;"/>"#.utf8)
        #expect(Self.outcome(latin1) == "error undefinedEntity 1:83+82 (document)")
        let eucJP: [UInt8] =
            Array(#"<?xml version="1.0" encoding="EUC-JP"?><!DOCTYPE r SYSTEM "x.dtd"><r b=""#.utf8) + [0xC6, 0xFC]
            + Array(#"" a="&nope;"/>"#.utf8)
        #expect(Self.outcome(eucJP) == "error undefinedEntity 1:79+79 (document)")
        let eucContent: [UInt8] =
            Array(#"<?xml version="1.0" encoding="EUC-JP"?><!DOCTYPE r SYSTEM "x.dtd"><r>"#.utf8) + [0xC6, 0xFC]
            + Array(#"&nope;</r>"#.utf8)
        #expect(Self.outcome(eucContent) == "error undefinedEntity 1:71+71 r")
        // UTF-32 goes through the transcoder: expat reads UTF-8, and so does the check.
        let utf32 = "<?xml version=\"1.0\" encoding=\"UTF-32LE\"?><!DOCTYPE r SYSTEM \"x.dtd\"><r b=\"é\" a=\"&nope;\"/>"
        let utf32Bytes = utf32.unicodeScalars.flatMap { scalar -> [UInt8] in
            (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
        }
        #expect(Self.outcome(utf32Bytes) == "error undefinedEntity 1:81+81 (document)")
        let utf32Content = "<?xml version=\"1.0\" encoding=\"UTF-32LE\"?><!DOCTYPE r SYSTEM \"x.dtd\"><r>é&nope;</r>"
        let utf32ContentBytes = utf32Content.unicodeScalars.flatMap { scalar -> [UInt8] in
            (0..<4).map { UInt8((scalar.value >> (8 * $0)) & 0xFF) }
        }
        #expect(Self.outcome(utf32ContentBytes) == "error undefinedEntity 1:73+73 r")
        let latinContent: [UInt8] =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><!DOCTYPE r SYSTEM "x.dtd"><r>"#.utf8) + [0xE9, 0xB0]
            + Array(#"&nope;</r>"#.utf8)
        #expect(Self.outcome(latinContent) == "error undefinedEntity 1:76+75 r")
    }

    @Test("what expat expands itself stays accepted")
    func declaredReferences() {
        let transcript = Transcript.record(
            Array(#"<!DOCTYPE r SYSTEM "x.dtd" [<!ENTITY c "C&#38;#60;"><!ATTLIST r d CDATA "&c;">]><r a="&c;&amp;&#38;&#x41;"/>"#.utf8),
            splits: [1000])
        #expect(transcript.contains { $0.contains(#"[a="C<&&A" d="C<"]"#) })
        #expect(transcript.last == "outcome completed")
        // A standalone document, or one without a DOCTYPE: expat's own error, moved from the
        // start tag to the reference (``withoutDTD()``).
        #expect(Self.outcome(#"<r a="(&copy;)"/>"#) == "error undefinedEntity 1:8+7 (document)")
    }

    @Test("the second of concatenated documents")
    func concatenated() throws {
        let input = "<r a=\"1\"/>\n" + #"<!DOCTYPE r SYSTEM "x.dtd"><r a="(&copy;)"/>"#
        var dispatcher = Dispatcher()
        dispatcher.onAnyStart { _ in }
        for size in [input.utf8.count, 1, 7, 4096] {
            let error = #expect(throws: XMLParseError.self) {
                try dispatcher.parse(XMLInput.pieces(input, of: size).concatenatedDocuments())
            }
            #expect(error?.code == .undefinedEntity)
            #expect(error.map { "\($0.line):\($0.column)+\($0.byteOffset)" } == "2:35+45")
        }
    }

    @Test("the message names the reference and the element")
    func message() {
        let error = #expect(throws: XMLParseError.self) {
            try Dispatcher().parse(.string(#"<!DOCTYPE r SYSTEM "x.dtd"><r a="(&copy;)"/>"#))
        }
        #expect(error?.message.contains("&copy;") == true)
        #expect(error?.message.contains("attribute value") == true)
    }

    @Test("in an 8-bit encoding a byte is a column, and a declared name above ASCII is found in the document's encoding")
    func eightBitEncodings() {
        let prolog = Array("<!DOCTYPE r SYSTEM \"x.dtd\"".utf8)
        func document(_ encoding: String, _ subset: [UInt8], _ tag: [UInt8]) -> [UInt8] {
            Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n".utf8) + prolog + subset + Array(">".utf8) + tag
        }
        // C3 A9 are two characters in ISO-8859-1 (Ã©), though they would be one in UTF-8: the
        // reference is at column 41, where expat puts its own errors.
        let latin1 = document("ISO-8859-1", [], Array("<r b=\"".utf8) + [0xC3, 0xA9] + Array("\" a=\"&u;\"/>".utf8))
        #expect(Self.outcome(latin1) == "error undefinedEntity 2:41+84 (document)")
        var expats = latin1
        expats.replaceSubrange((expats.count - 6)..<(expats.count - 3), with: Array("<".utf8))
        #expect(Self.outcome(expats)?.hasPrefix("error invalidToken 2:41") == true)
        // &xй; declared in windows-1251 (0xE9 is й) is read, not reported.
        let cyrillic = document(
            "windows-1251", Array(" [<!ENTITY x".utf8) + [0xE9] + Array(" \"OK\">]".utf8),
            Array("<r a=\"(&x".utf8) + [0xE9] + Array(";)\"/>".utf8))
        #expect(Self.outcome(cyrillic) == "outcome completed")
    }

    @Test("JOHAB: a second byte that looks like '<' or ';' is part of its character, not the end of the name")
    func johabSecondBytes() {
        let header = Array("<?xml version=\"1.0\" encoding=\"JOHAB\"?>\n<!DOCTYPE r SYSTEM \"x.dtd\"".utf8)
        // x followed by E0 3C (暇): undeclared, it was left out of the value without an error.
        let undeclared = header + Array("><r a=\"(&x".utf8) + [0xE0, 0x3C] + Array(";)\">".utf8) + [0xE0, 0x3C] + Array("</r>".utf8)
        #expect(Self.outcome(undeclared) == "error undefinedEntity 2:35+73 (document)")
        // Declared, it is read.
        let declared = header + Array(" [<!ENTITY x".utf8) + [0xE0, 0x3C] + Array(" \"OK\">]><r a=\"(&x".utf8) + [0xE0, 0x3C]
            + Array(";)\"/>".utf8)
        #expect(Self.outcome(declared) == "outcome completed")
    }

    @Test("without a DTD, expat's own error names the reference and is at it, not at the start tag")
    func withoutDTD() throws {
        #expect(Self.outcome("<r>\n<x b=\"1\"\n   a=\"(&u;)\"/></r>") == "error undefinedEntity 3:8+20 r")
        let units = Array("<r>\n<x b=\"1\"\n   a=\"(&u;)\"/></r>".utf16)
        let utf16: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(Self.outcome(utf16) == "error undefinedEntity 3:8+42 r")
        // Declared entities are passed over; the first undeclared one is named.
        let error = try #require(
            #expect(throws: XMLParseError.self) {
                try Dispatcher().parse(.string(#"<!DOCTYPE r [<!ENTITY e "x">]><r a="&e;&f;"/>"#))
            })
        #expect(error.message == "undefined entity &f; in an attribute value")
        #expect([error.line, error.column] == [1, 40])
    }
}
