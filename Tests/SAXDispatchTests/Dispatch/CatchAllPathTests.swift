@testable import SAXDispatch
import SAXDispatchTestSupport
import Testing

/// The catch-all path (`DispatchEngine+CatchAll`) against the general one: the same
/// registrations, the same bytes in the same pieces, the same transcript.
@Suite("Catch-all path")
struct CatchAllPathTests {
    /// The limits the generated documents are parsed under, one per seed in turn.
    static let profiles: [SafetyProfile] = {
        var depth = SafetyProfile.default
        depth.maximumDepth = .atMost(5)
        var attributes = SafetyProfile.default
        attributes.maximumAttributes = .atMost(2)
        var names = SafetyProfile.default
        names.maximumNameBytes = .atMost(6)
        var tokens = SafetyProfile.default
        tokens.maximumTokenBytes = .atMost(40)
        var memory = SafetyProfile.default
        memory.maximumParserMemoryBytes = .atMost(40_000)
        return [.default, depth, attributes, names, tokens, .default, memory]
    }()

    static let pieceSizes = [Int.max, 1, 3]

    @Test("generated documents: every registration set, action and split gives the general path's transcript")
    func generatedDocumentsMatchTheGeneralPath() {
        var generator = GeneratedDocuments(seed: 46)
        var errors = 0
        var chunks = 0
        for seed in 0..<160 {
            var document = generator.document(namespaces: seed % 2 == 1)
            if seed % 3 == 2 { document = generator.broken(document) }
            let concatenated = seed % 8 == 5
            if concatenated { document += "\n" + generator.document(namespaces: seed % 4 == 1) }
            let bytes = Array(document.utf8)
            let profile = Self.profiles[seed % Self.profiles.count]
            let action = CatchAllTranscript.Action.allCases[seed % CatchAllTranscript.Action.allCases.count]
            let event = 1 + generator.below(40)
            for registrations in CatchAllTranscript.Registrations.allCases {
                for size in Self.pieceSizes {
                    let general = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: registrations, action: action, at: event,
                        profile: profile, concatenated: concatenated, general: true)
                    let catchAll = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: registrations, action: action, at: event,
                        profile: profile, concatenated: concatenated, general: false)
                    #expect(!general.tookCatchAllPath)
                    #expect(catchAll.tookCatchAllPath)
                    #expect(
                        catchAll.lines == general.lines,
                        "seed \(seed), \(registrations), \(action) at \(event), pieces of \(size):\n\(document)")
                    if catchAll.lines != general.lines { return }
                    if size == 1 {
                        if general.lines.last?.hasPrefix("outcome") == false { errors += 1 }
                        chunks += general.lines.count { $0.hasPrefix("text ") }
                    }
                }
            }
        }
        // The documents exercise what they are meant to.
        #expect(errors > 150)
        #expect(chunks > 2000)
    }

    @Test("the fixtures, whole, by one byte and by three")
    func fixturesMatchTheGeneralPath() throws {
        for name in ["zoo.xml", "mixed.xml", "attributes.xml", "doctype.xml", "crlf.xml", "utf16le.xml", "deep.xml", "atom-prefixed.xml"] {
            let bytes = try TestPaths.fixtureBytes(name)
            for size in Self.pieceSizes {
                for registrations in CatchAllTranscript.Registrations.allCases {
                    let general = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: registrations, action: .keepingRoot, at: 0, general: true)
                    let catchAll = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: registrations, action: .keepingRoot, at: 0, general: false)
                    #expect(catchAll.tookCatchAllPath)
                    #expect(catchAll.lines == general.lines, "\(name), \(registrations), pieces of \(size)")
                    #expect(general.lines.last == "outcome completed", "\(name)")
                }
            }
        }
    }

    @Test("a handler that throws at each event in turn: the same error, position and events before it")
    func throwingAtEveryEvent() {
        let bytes = Array("<a x='1'>\n  <b>one &amp; two</b>\n  <c><![CDATA[x]]>y</c>\n  <d/>\n</a>".utf8)
        for event in 1...14 {
            for action in [CatchAllTranscript.Action.throwing, .stopping, .skipping] {
                for size in Self.pieceSizes {
                    let general = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: .startTextAndEnd, action: action, at: event, general: true)
                    let catchAll = CatchAllTranscript.record(
                        bytes, pieceSize: size, registrations: .startTextAndEnd, action: action, at: event, general: false)
                    #expect(catchAll.lines == general.lines, "\(action) at \(event), pieces of \(size)")
                }
            }
        }
        let thrown = CatchAllTranscript.record(
            bytes, pieceSize: 1, registrations: .startAndText, action: .throwing, at: 4, general: false)
        #expect(thrown.lines.last == "handler error text 2:3+12 a/b failure at event 4")
    }

    @Test("the name table's growth is charged to the memory limit as on the general path")
    func namesAreChargedToTheMemoryLimit() {
        let names = (0..<3000).map { "<element-with-a-long-name-\($0)/>" }.joined()
        let bytes = Array("<root>\(names)</root>".utf8)
        var brokenByNames = (general: 0, catchAll: 0)
        for limit in stride(from: 100_000, through: 1_000_000, by: 100_000) {
            var profile = SafetyProfile.default
            profile.maximumParserMemoryBytes = .atMost(limit)
            let general = CatchAllTranscript.record(
                bytes, pieceSize: 4096, registrations: .startOnly, action: .none, at: 0, profile: profile, general: true)
            let catchAll = CatchAllTranscript.record(
                bytes, pieceSize: 4096, registrations: .startOnly, action: .none, at: 0, profile: profile, general: false)
            // Where the budget runs out, and whether expat's allocation or the names' charge
            // is the one that breaks it, moves a little from one parse of the same document to
            // the next, on either path: the same limit must break at about the same element.
            let outcome = { (lines: [String]) in lines.last?.split(separator: " ").prefix(2).joined(separator: " ") }
            #expect(outcome(catchAll.lines) == outcome(general.lines), "limit \(limit)")
            #expect(abs(catchAll.lines.count - general.lines.count) <= general.lines.count / 50, "limit \(limit)")
            if general.lines.last?.contains("distinct elements") == true { brokenByNames.general += 1 }
            if catchAll.lines.last?.contains("distinct elements") == true { brokenByNames.catchAll += 1 }
        }
        #expect(brokenByNames.general > 2)
        #expect(brokenByNames.catchAll > 2)
    }

    @Test("registration sets the catch-all path does not take, and their parse stays correct")
    func otherRegistrationsTakeTheGeneralPath() throws {
        var sets: [(String, Dispatcher)] = []
        func add(_ name: String, _ register: (inout Dispatcher) throws -> Void) rethrows {
            var dispatcher = Dispatcher()
            dispatcher.onAnyStart { _ in }
            try register(&dispatcher)
            sets.append((name, dispatcher))
        }
        add("a pattern") { $0.onStart("b") { _ in } }
        add("own text at the end") { $0.onAnyEnd { _, _ in } }
        add("whole text") { $0.onAnyEnd(text: .whole) { _, _ in } }
        add("two start handlers") { $0.onAnyStart { _ in } }
        add("two text handlers") { d in d.onAnyText { _, _ in }; d.onAnyText { _, _ in } }
        add("kept attributes") { $0.retainAttributes("id", of: "*") }
        add("counted text") { $0.limitsAllText = true }
        try add("a subtree filter") { try $0.skipAll(except: "b") }
        add("a mounted set") { d in
            var set = Dispatcher()
            set.onAnyStart { _ in }
            d.mount(set, at: "a")
        }
        let bytes = Array("<a><b id='1'>x</b><c>y</c></a>".utf8)
        for (name, dispatcher) in sets {
            #expect(!PushParser(dispatcher).engine.takesCatchAllPath, "\(name)")
        }
        #expect(PushParser(sets[0].1).engine.takesCatchAllPath == false)
        // Where the path is not taken, what it would have left out is there: own text at
        // the end, and a pattern's handler before the catch-all's.
        var texts: [String] = []
        var dispatcher = Dispatcher()
        dispatcher.onAnyText { _, chunk in texts.append("chunk " + chunk.string) }
        dispatcher.onAnyEnd { element, text in texts.append("\(element.name) \(text)") }
        _ = try dispatcher.parse(.bytes(bytes))
        #expect(texts == ["chunk x", "b x", "chunk y", "c y", "a "])
        var starts: [String] = []
        var routed = Dispatcher()
        routed.onStart("b") { starts.append("b: \($0.name)") }
        routed.onAnyStart { starts.append("any: \($0.name)") }
        _ = try routed.parse(.bytes(bytes))
        #expect(starts == ["any: a", "b: b", "any: c"])
        var plain = Dispatcher()
        plain.onAnyStart { _ in }
        plain.onAnyText { _, _ in }
        plain.onAnyEnd { _ in }
        #expect(PushParser(plain).engine.takesCatchAllPath)
    }

    @Test("a stream that pauses at every event gives the general path's values, by one byte and by three")
    func pausingStreams() async throws {
        var generator = GeneratedDocuments(seed: 7)
        var values = 0
        for seed in 0..<12 {
            var document = generator.document(namespaces: seed % 2 == 0)
            if seed % 4 == 3 { document = generator.broken(document) }
            for size in [1, 3] {
                var transcripts: [[String]] = []
                for general in [true, false] {
                    let stream = XMLStream(from: .chunks(ChunkSource(document, chunkSize: size))) { dispatcher, output in
                        dispatcher.allowsCatchAllPath = !general
                        dispatcher.onAnyStart { output.yield("start \($0.path) \($0.line):\($0.column)+\($0.byteOffset)") }
                        dispatcher.onAnyText { output.yield("text \($1.string.debugDescription) \($0.line):\($0.column)") }
                    }
                    var collected: [String] = []
                    do {
                        for try await value in stream { collected.append(value) }
                    } catch {
                        collected.append("error \(error)")
                    }
                    transcripts.append(collected)
                }
                #expect(transcripts[0] == transcripts[1], "seed \(seed), pieces of \(size)")
                values += transcripts[0].count
            }
        }
        #expect(values > 200)
    }
}
