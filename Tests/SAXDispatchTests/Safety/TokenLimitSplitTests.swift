import Foundation
import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The token limit holds every kind of token to the same bound, and the outcome depends on
/// the document alone: fed whole, in pieces of any size, or read from a file in chunks.
@Suite("Token limit: every kind of token, every split")
struct TokenLimitSplitTests {
    /// Documents whose token of interest is exactly `k` bytes long (in UTF-8).
    static let kinds: [(name: String, make: @Sendable (Int) -> String)] = [
        ("end tag", { "<r></r" + String(repeating: " ", count: $0 - 4) + ">" }),
        ("start tag", { "<r" + String(repeating: " ", count: $0 - 3) + "></r>" }),
        ("XML declaration", { "<?xml version=\"1.0\"" + String(repeating: " ", count: $0 - 21) + "?><r/>" }),
        ("entity value", { "<!DOCTYPE r [<!ENTITY e \"\(pad($0 - 2))\">]><r/>" }),
        ("attribute default", { "<!DOCTYPE r [<!ATTLIST r a CDATA \"\(pad($0 - 2))\">]><r/>" }),
        ("DOCTYPE system id", { "<!DOCTYPE r SYSTEM \"\(pad($0 - 2))\"><r/>" }),
        ("DOCTYPE public id", { "<!DOCTYPE r PUBLIC \"\(pad($0 - 2))\" \"s\"><r/>" }),
        ("NOTATION system id", { "<!DOCTYPE r [<!NOTATION n SYSTEM \"\(pad($0 - 2))\">]><r/>" }),
        ("NOTATION public id", { "<!DOCTYPE r [<!NOTATION n PUBLIC \"\(pad($0 - 2))\">]><r/>" }),
        ("external entity system id", { "<!DOCTYPE r [<!ENTITY e SYSTEM \"\(pad($0 - 2))\">]><r/>" }),
        ("external entity public id", { "<!DOCTYPE r [<!ENTITY e PUBLIC \"\(pad($0 - 2))\" \"s\">]><r/>" }),
        ("character reference", { "<r>&#x" + String(repeating: "0", count: $0 - 6) + "41;</r>" }),
        ("comment", { "<r><!--\(pad($0 - 7))--></r>" }),
        ("processing instruction", { "<r><?p \(pad($0 - 6))?></r>" }),
        ("entity reference", { "<!DOCTYPE r [<!ENTITY \(pad($0 - 2)) \"v\">]><r>&\(pad($0 - 2));</r>" }),
        ("a name in the DTD", { "<!DOCTYPE r [<!ELEMENT \(pad($0)) ANY>]><r/>" }),
    ]

    static func pad(_ count: Int) -> String { String(repeating: "x", count: max(0, count)) }

    static func profile(tokenLimit: Int) -> SafetyProfile {
        var profile = SafetyProfile.default
        profile.maximumTokenBytes = .atMost(tokenLimit)
        profile.maximumNameBytes = .unlimited
        return profile
    }

    /// The outcome as a line: `ok`, or the error's code and position.
    static func outcome(_ body: (Dispatcher) throws -> Void, profile: SafetyProfile) -> String {
        var dispatcher = Dispatcher()
        dispatcher.safety = profile
        dispatcher.onAnyEnd { _, _ in }
        do {
            try body(dispatcher)
            return "ok"
        } catch let error as XMLParseError {
            return "\(error.code) \(error.line):\(error.column)+\(error.byteOffset)"
        } catch {
            return "\(error)"
        }
    }

    /// Every way of feeding `bytes`, each giving one outcome line.
    static func outcomes(_ bytes: [UInt8], profile: SafetyProfile) -> [String: String] {
        var results: [String: String] = [:]
        results["whole"] = outcome({ try $0.parse(.bytes(bytes)) }, profile: profile)
        for size in [1, 2, 3, 7, 64, 1000] {
            results["pieces of \(size)"] = outcome(
                { dispatcher in
                    let parser = PushParser(dispatcher)
                    try parser.feed(bytes, inPiecesOf: size)
                    try parser.finish()
                }, profile: profile)
        }
        let path = FileManagerTemp.write(Data(bytes), name: "token-limit-split-\(UUID().uuidString).xml")
        for chunk in [1, 5, 4096] {
            results["file in chunks of \(chunk)"] = outcome(
                { try $0.parse(.file(path).chunked(chunk)) }, profile: profile)
        }
        return results
    }

    @Test(
        "each kind of token: at the limit it passes, one byte over it fails, whatever the split",
        arguments: [40, 1025, 3000])
    func boundaries(limit: Int) throws {
        let profile = Self.profile(tokenLimit: limit)
        for kind in Self.kinds {
            for excess in [-1, 0, 1, 2] {
                let bytes = Array(kind.make(limit + excess).utf8)
                let results = Self.outcomes(bytes, profile: profile)
                let whole = try #require(results["whole"])
                for (split, result) in results where result != whole {
                    Issue.record("\(kind.name), limit \(limit), token \(limit + excess): whole \(whole), \(split) \(result)")
                }
                if excess <= 0 {
                    #expect(!whole.hasPrefix("tokenLimitExceeded"), "\(kind.name) of \(limit + excess) bytes, limit \(limit)")
                } else {
                    #expect(whole.hasPrefix("tokenLimitExceeded"), "\(kind.name) of \(limit + excess) bytes, limit \(limit): \(whole)")
                }
            }
        }
    }

    @Test("UTF-16 documents: the limit counts input bytes, the same whatever the split")
    func utf16() throws {
        let limit = 200
        let profile = Self.profile(tokenLimit: limit)
        for kind in Self.kinds {
            // In UTF-16 every character here is two bytes: a token of k characters is 2k bytes.
            for characters in [limit / 2, limit / 2 + 1] {
                let units = kind.make(characters).utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
                let bytes: [UInt8] = [0xFF, 0xFE] + units
                let results = Self.outcomes(bytes, profile: profile)
                let whole = try #require(results["whole"])
                for (split, result) in results where result != whole {
                    Issue.record("UTF-16 \(kind.name), \(characters) characters: whole \(whole), \(split) \(result)")
                }
                #expect(
                    whole.hasPrefix("tokenLimitExceeded") == (characters * 2 > limit),
                    "UTF-16 \(kind.name) of \(characters * 2) bytes, limit \(limit): \(whole)")
            }
        }
    }

    @Test("a token over the limit before an unpaired UTF-16 surrogate: the same error fed whole and read from a file")
    func overLimitBeforeSurrogate() throws {
        // Found by fuzzing: a descriptor read gave expat everything before the surrogate at once.
        let text = Array("<r><!--\(Self.pad(30))".utf16) + [0xD800] + Array("x--></r>".utf16)
        let bytes: [UInt8] = [0xFF, 0xFE] + text.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let results = Self.outcomes(bytes, profile: Self.profile(tokenLimit: 40))
        let whole = try #require(results["whole"])
        #expect(whole.hasPrefix("tokenLimitExceeded"), "\(whole)")
        for (split, result) in results { #expect(result == whole, "\(split)") }
    }

    @Test("a document that ends inside a token over the limit: the limit's error, not a truncation, however split")
    func endsInsideTokenOverLimit() throws {
        // Found by fuzzing: the last call into expat, which also ended the document, reported
        // the unfinished token as a truncation before its size could be checked.
        for document in ["<!DOCTYPE r [<!BBBBBBBBBBBBBnnn", "<r><!--" + Self.pad(30), "<r>&" + Self.pad(30)] {
            let results = Self.outcomes(Array(document.utf8), profile: Self.profile(tokenLimit: 17))
            for (split, result) in results {
                #expect(result.hasPrefix("tokenLimitExceeded"), "\(document) \(split): \(result)")
            }
            #expect(Set(results.values).count == 1, "\(document): \(results)")
        }
    }

    @Test("a line break after the root element counts once wherever the token limit cuts the input")
    func lineBreakAtSliceEnd() throws {
        // Found by fuzzing: a call cut short by the token limit could end between CR and LF,
        // which expat 2.5.0 counts as two line breaks after the root element.
        for utf16 in [false, true] {
            for spaces in 50..<70 {
                let text = "<r/>" + String(repeating: " ", count: spaces) + "\r\n\r\n x"
                let bytes = utf16 ? text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] } : Array(text.utf8)
                let results = Self.outcomes(bytes, profile: Self.profile(tokenLimit: 64))
                let whole = try #require(results["whole"])
                #expect(whole.contains(" 3:"), "utf16 \(utf16), \(spaces) spaces: \(whole)")
                for (split, result) in results where result != whole {
                    Issue.record("utf16 \(utf16), \(spaces) spaces: whole \(whole), \(split) \(result)")
                }
            }
        }
    }

    @Test("saxdispatch check gives the same answer fed whole and a byte at a time")
    func commandLine() throws {
        for kind in Self.kinds.prefix(12) {
            let path = FileManagerTemp.write(kind.make(101), name: "token-limit-cli-\(UUID().uuidString).xml")
            let whole = try CommandRunner.run("saxdispatch", ["check", "--limit", "token-bytes=100", "--limit", "name-bytes=unlimited", path])
            let bytewise = try CommandRunner.run(
                "saxdispatch", ["check", "--limit", "token-bytes=100", "--limit", "name-bytes=unlimited", "--chunk-size", "1", path])
            #expect(whole.status == 1 && bytewise.status == 1, "\(kind.name)")
            #expect(whole.error == bytewise.error, "\(kind.name)")
            #expect(whole.error.contains("maximumTokenBytes"), "\(kind.name): \(whole.error)")
        }
    }
}
