import Foundation
import SAXDispatchTestSupport
import Testing

@testable import SAXDispatch

@Suite("Async streams: values on demand, back-pressure, errors, cancellation")
struct StreamTests {
    struct Animal: Decodable, Equatable, Sendable {
        let kind: String
        let name: String

        enum CodingKeys: String, CodingKey {
            case kind
            case name = "nested_nonsense/name"
        }
    }

    static let animal = XMLRecord("animal", .text("kind"), .text("nested_nonsense/name")) { Animal(kind: $0, name: $1) }

    static let zooAnimals = [
        Animal(kind: "cat", name: "grumpy"), Animal(kind: "dog", name: "i have no idea what i'm doing"),
    ]

    /// `count` items, `<item n="i"><name>item i</name></item>`, in one root.
    static func items(_ count: Int, tail: String = "</items>") -> String {
        "<items>" + (0..<count).map { "<item n=\"\($0)\"><name>item \($0)</name><skip>x</skip></item>" }.joined() + tail
    }

    struct Item: Decodable, Equatable, Sendable {
        let n: Int
        let name: String
    }

    func collect<S: AsyncSequence>(_ stream: S) async throws -> [S.Element] {
        var values: [S.Element] = []
        for try await value in stream { values.append(value) }
        return values
    }

    // MARK: Sources

    @Test("records, Decodable values and handler values stream from a file, bytes and chunks alike")
    func sources() async throws {
        let path = TestPaths.fixture("zoo.xml").path
        let bytes = try TestPaths.fixtureBytes("zoo.xml")
        #expect(try await collect(Self.animal.stream(from: .file(path))) == Self.zooAnimals)
        #expect(try await collect(Self.animal.stream(from: .file(path).chunked(7))) == Self.zooAnimals)
        #expect(try await collect(Self.animal.stream(from: .chunks(ChunkSource(bytes, chunkSize: 5)))) == Self.zooAnimals)
        let byteStream = AsyncStream<UInt8> { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
        #expect(try await collect(Self.animal.stream(from: .bytes(byteStream).chunked(100))) == Self.zooAnimals)

        let decoder = XMLRecordDecoder()
        #expect(try await collect(decoder.stream(Animal.self, at: "animals/animal", from: .file(path))) == Self.zooAnimals)
        #expect(
            try await collect(decoder.stream(Animal.self, at: "/zoo/animals/animal", from: .chunks(ChunkSource(bytes, chunkSize: 3))))
                == Self.zooAnimals)

        let kinds = XMLStream(from: .file(path)) { dispatcher, output in
            dispatcher.onEnd("animal/kind") { element, text in output.yield("\(element.line): \(text)") }
        }
        #expect(try await collect(kinds) == ["4: cat", "9: dog"])
        // A stream iterates again from the start of its source.
        #expect(try await collect(kinds) == ["4: cat", "9: dog"])
    }

    @Test("pausing after every event gives the events and errors of a parse fed whole, however the input is split")
    func pausingIsTransparent() async throws {
        var documents: [(String, [UInt8])] = []
        for name in ["zoo.xml", "mixed.xml", "crlf.xml", "utf16le.xml", "latin1.xml", "attributes.xml", "deep.xml"] {
            documents.append((name, try TestPaths.fixtureBytes(name)))
        }
        documents.append(("malformed", Array("<a>\r\n<b x='1'>t</b>\r\n<c>&amp;</a>".utf8)))
        documents.append(("crlf tail", Array("\u{FEFF}<a><b/>\r\n<b/></a>\r\n\r\n<!-- end -->\r\n".utf8)))
        documents.append(("truncated", Array("<a><b>one</b><b>two".utf8)))
        // UTF-16LE with an unpaired surrogate after a few elements.
        func utf16LE(_ text: String) -> [UInt8] { text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        let utf16: [UInt8] = [0xFF, 0xFE] + utf16LE("<a><b>x</b><b>y") + [0x00, 0xD8] + utf16LE("</b></a>")
        documents.append(("unpaired surrogate", utf16))

        let register = Self.logEvents
        for (name, document) in documents {
            var expected: [String] = []
            var dispatcher = Dispatcher()
            register(&dispatcher) { expected.append($0) }
            var expectedError: String?
            do { try dispatcher.parse(.bytes(document)) } catch { expectedError = "\(error)" }
            #expect(!expected.isEmpty, "\(name)")
            #expect((expectedError != nil) == ["malformed", "truncated", "unpaired surrogate"].contains(name), "\(name)")

            for chunkSize in [document.count, 1, 3, 64] {
                let stream = XMLStream<String>(from: .chunks(ChunkSource(document, chunkSize: chunkSize))) {
                    dispatcher, output in register(&dispatcher, output.yield)
                }
                var events: [String] = []
                var error: String?
                do {
                    for try await event in stream { events.append(event) }
                } catch let thrown {
                    error = "\(thrown)"
                }
                #expect(events == expected, "\(name) in chunks of \(chunkSize)")
                #expect(error == expectedError, "\(name) in chunks of \(chunkSize)")
            }
        }
    }

    /// Handlers that emit a line for every start (twice), end and comment.
    @Sendable static func logEvents(_ dispatcher: inout Dispatcher, _ emit: @escaping (String) -> Void) {
        dispatcher.onAnyStart { element in
            let attributes = element.attributes.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            emit("start \(element.name) \(attributes) \(element.line):\(element.column)")
            emit("inside \(element.name)")
        }
        dispatcher.onAnyEnd { element, text in emit("end \(element.name) \(text.debugDescription)") }
        dispatcher.onComment { emit("comment \($0)") }
    }

    @Test("a pause inside a feed larger than one expat call, or inside the final call, goes on with the rest in order")
    func pausesAcrossSlices() throws {
        // A long comment makes the driver hold input back, so that finishing parses a lot at once.
        let body = "<r>\r\n" + (0..<40).map { "<a n='\($0)'/>\r\n" }.joined() + "<!--" + String(repeating: "x", count: 3000)
            + "-->" + (0..<40).map { "<b>\($0)</b>" }.joined()
        for text in [body + "</r>\r\n<!-- after -->", body] {
            let document = Array(text.utf8)
            var expected: [String] = []
            var expectedError: String?
            var dispatcher = Dispatcher()
            Self.logEvents(&dispatcher) { expected.append($0) }
            do { try dispatcher.parse(.bytes(document).named("<input>")) } catch { expectedError = "\(error)" }
            #expect((expectedError == nil) == (text != body))

            for chunkSize in [document.count, 1000, 37] {
                for slice in [7, 64] {
                    var log: [String] = []
                    weak var pausing: PushParser?
                    var dispatcher = Dispatcher()
                    Self.logEvents(&dispatcher) { line in
                        log.append(line)
                        pausing?.requestSuspension()
                    }
                    let parser = PushParser(dispatcher)
                    pausing = parser
                    parser.driver.holdback.maximumSlice = slice
                    var pauses = 0
                    var error: String?
                    do {
                        var offset = 0
                        while offset < document.count {
                            let end = min(document.count, offset + chunkSize)
                            try parser.feed(document[offset..<end])
                            offset = end
                            while parser.isSuspended {
                                pauses += 1
                                _ = try parser.resume()
                            }
                        }
                        var outcome = try parser.finishUnlessSuspended()
                        while outcome == nil {
                            pauses += 1
                            outcome = try parser.resume()
                        }
                        #expect(outcome == .completed)
                    } catch let thrown {
                        error = "\(thrown)"
                    }
                    let label = "\(text == body ? "truncated" : "whole") in chunks of \(chunkSize), slices of \(slice)"
                    #expect(log == expected, "\(label)")
                    #expect(error == expectedError, "\(label)")
                    // A pause at every <a/> (its end follows its start in the same token), at the
                    // start and end of every <b>, at the comment.
                    #expect(pauses >= 40 + 80 + 1, "\(label)")
                    #expect(parser.driver.holdback.parseCallCount > document.count / slice, "\(label)")
                }
            }
        }
    }

    @Test("a file that cannot be opened is an XMLInputError from the first next(); a decoder streams async bytes")
    func inputs() async throws {
        await #expect(throws: XMLInputError.self) {
            for try await _ in Self.animal.stream(from: .file("/nonexistent/zoo.xml")) {}
        }
        let bytes = try TestPaths.fixtureBytes("zoo.xml")
        let trickle = AsyncStream<UInt8> { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
        let animals = XMLRecordDecoder().stream(Animal.self, at: "animals/animal", from: .bytes(trickle).chunked(10))
        #expect(try await collect(animals) == Self.zooAnimals)
    }

    // MARK: Back-pressure

    @Test("a slow consumer over a source with thousands of records per chunk: the parser waits, one record at a time")
    func backPressure() async throws {
        let document = Self.items(5000)
        let pulls = Shared(0)
        let produced = Shared(0)
        let source = ChunkSource(document, chunkSize: document.utf8.count / 2 + 1, pulls: pulls)
        #expect(source.chunks.count == 2)
        let stream = XMLStream<Int>(from: .chunks(source)) {
            dispatcher, output in
            dispatcher.onStart("item") { element in
                produced.value += 1
                output.yield(Int(element.attributes["n"] ?? "") ?? -1)
            }
        }
        var iterator = stream.makeAsyncIterator()
        var received: [Int] = []
        var mostAhead = 0
        while let value = try await iterator.next() {
            received.append(value)
            mostAhead = max(mostAhead, produced.value - received.count)
            #expect(iterator.pump?.mostWaiting ?? 0 <= 1)
            if received.count == 10 {
                // Each chunk holds 2,500 records; after ten, only the first chunk was read.
                #expect(pulls.value == 1)
                #expect(produced.value == 10)
            }
            await Task.yield()
        }
        #expect(received == Array(0..<5000))
        #expect(mostAhead == 0)
        #expect(pulls.value == 3, "two chunks, then the end")
    }

    @Test("records and Decodable values are built one ahead of the consumer at most")
    func backPressureForModels() async throws {
        final class Counted: Decodable {
            let n: Int
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                n = try container.decode(Int.self, forKey: .n)
                (decoder.userInfo[.built] as? Shared<Int>)?.value += 1
            }
            enum CodingKeys: String, CodingKey { case n }
        }
        let document = Self.items(3000)
        let built = Shared(0)
        var decoder = XMLRecordDecoder()
        decoder.userInfo[.built] = built
        var iterator = decoder.stream(Counted.self, at: "item", from: .chunks(ChunkSource(document, chunkSize: 1 << 20)))
            .makeAsyncIterator()
        var received = 0
        var probeBuilds: Int?
        while let value = try await iterator.next() {
            #expect(value.n == received)
            received += 1
            // The key probe builds one value before the first element.
            probeBuilds = probeBuilds ?? built.value - 1
            #expect(built.value - (probeBuilds ?? 0) - received == 0)
            #expect(iterator.pump?.mostWaiting ?? 0 <= 1)
        }
        #expect(received == 3000)

        // Decoded values from a handler stream: its parser never holds records to decode
        // in a row, as a dispatcher whose only handlers are decodes otherwise does.
        built.value = 0
        let counting = decoder
        var handlerStream = XMLStream<Counted>(from: .chunks(ChunkSource(document, chunkSize: 1 << 20))) {
            dispatcher, output in
            dispatcher.onDecoded(Counted.self, at: "item", using: counting) { output.yield($0) }
        }.makeAsyncIterator()
        var streamed = 0
        while let value = try await handlerStream.next() {
            #expect(value.n == streamed)
            streamed += 1
            #expect(built.value - 1 - streamed == 0)
            #expect(handlerStream.pump?.mostWaiting ?? 0 <= 1)
        }
        #expect(streamed == 3000)

        let assembled = Shared(0)
        let item = XMLRecord("item", .value("@n", as: Int.self)) { (n: Int) -> Int in
            assembled.value += 1
            return n
        }
        var records = item.stream(from: .chunks(ChunkSource(document, chunkSize: 1 << 20))).makeAsyncIterator()
        var taken = 0
        while let n = try await records.next() {
            #expect(n == taken)
            taken += 1
            #expect(assembled.value == taken)
        }
        #expect(taken == 3000)
    }

    @Test("an empty element paused at its start still delivers its end: a few values may wait, never more")
    func callbacksAfterAPause() async throws {
        let document = "<r>" + String(repeating: "<e/>", count: 100) + "</r>"
        let stream = XMLStream<String>(from: .chunks(ChunkSource(document, chunkSize: 1 << 16))) {
            dispatcher, output in
            dispatcher.onStart("e") { _ in output.yield("start") }
            dispatcher.onEnd("e") { _ in output.yield("end") }
        }
        var iterator = stream.makeAsyncIterator()
        var values: [String] = []
        while let value = try await iterator.next() {
            values.append(value)
            #expect(iterator.pump?.mostWaiting ?? 0 <= 2)
        }
        #expect(values == Array(repeating: ["start", "end"], count: 100).flatMap { $0 })
        #expect(iterator.pump == nil)
    }

    @Test("text far longer than a chunk handler's slice comes out a slice per value, not all at once")
    func longTextPausesBetweenSlices() async throws {
        // Without line breaks, expat reports the whole chunk's text in one callback.
        let text = String(repeating: "A", count: 4 << 20) + "é" + String(repeating: "B", count: 100_000)
        let document = Array("<r><blob>\(text)</blob><tail/></r>".utf8)
        let stream = XMLStream<String>(from: .chunks(ChunkSource(document, chunkSize: document.count))) {
            dispatcher, output in
            dispatcher.onText("blob") { _, chunk in output.yield(chunk.string) }
            dispatcher.onStart("tail") { _ in output.yield("tail") }
        }
        var iterator = stream.makeAsyncIterator()
        var pieces: [String] = []
        while let value = try await iterator.next() {
            pieces.append(value)
            #expect(iterator.pump?.mostWaiting ?? 0 <= 2)
        }
        #expect(pieces.last == "tail")
        #expect(pieces.dropLast().joined() == text)
        #expect(pieces.count > 60 && pieces.dropLast().allSatisfy { $0.utf8.count <= 64 * 1024 })
    }

    // MARK: Errors

    @Test("a malformed document: every record before the error, then the error with its position, then the end")
    func parseErrorMidStream() async throws {
        let document = Self.items(50, tail: "<item n=\"50\"><name>oops</item></items>")
        var iterator = XMLRecordDecoder().stream(Item.self, at: "item", from: .chunks(ChunkSource(document, chunkSize: 4096)))
            .makeAsyncIterator()
        var received: [Int] = []
        await #expect(throws: XMLParseError.self) {
            while let item = try await iterator.next() { received.append(item.n) }
        }
        #expect(received == Array(0..<50))
        do {
            _ = try await XMLRecordDecoder().stream(Item.self, at: "item", from: .chunks(ChunkSource(document, chunkSize: 7)))
                .reduce(0) { $0 + $1.n }
            Issue.record("expected an error")
        } catch let error as XMLParseError {
            #expect(error.code == .tagMismatch)
            #expect(error.line == 1)
            #expect(error.column == document.count - "</item></items>".count + 3)
        }
        #expect(try await iterator.next() == nil)
    }

    @Test("a record that cannot be built ends the stream after the ones before it, with the decoding error")
    func decodingErrorMidStream() async throws {
        let document = "<items><item n='1'><name>a</name></item><item n='x2'><name>b</name></item><item n='3'/></items>"
        var names: [String] = []
        do {
            for try await item in XMLRecordDecoder().stream(Item.self, at: "item", from: .chunks(ChunkSource(document, chunkSize: 5))) {
                names.append(item.name)
            }
            Issue.record("expected an error")
        } catch let error as XMLDecodingError {
            guard case let .dataCorrupted(context) = error.underlying else { Issue.record("\(error)"); return }
            #expect(context.debugDescription.hasSuffix("1:41: cannot convert \"x2\" to Int at items/item/n (decoding Item): expected an integer"))
        }
        #expect(names == ["a"])

        var models: [Int] = []
        let item = XMLRecord("item", .value("@n", as: Int.self)) { $0 }
        do {
            for try await n in item.stream(from: .chunks(ChunkSource(document, chunkSize: 5)).named("items.xml")) { models.append(n) }
            Issue.record("expected an error")
        } catch let error as XMLRecordError {
            #expect("\(error)" == "items.xml:1:41: error: cannot convert \"x2\" to Int at items/item/@n (in record Int, field @n): expected an integer")
        }
        #expect(models == [1])
    }

    @Test("a record the failure policy skips goes to diagnostics and the stream goes on")
    func skippedRecords() async throws {
        let document = "<items><item n='1'/><item n='x2'/><item n='3'/></items>"
        let item = XMLRecord("item", .value("@n", as: Int.self)) { $0 }.onFailure(.skip)
        let diagnostics = Shared<[String]>([])
        let values = try await collect(
            item.stream(from: .chunks(ChunkSource(document, chunkSize: 4))) { diagnostics.value.append("\($0.line)") })
        #expect(values == [1, 3])
        #expect(diagnostics.value == ["1"])
    }

    @Test("the source's error comes after the values of the chunks it delivered")
    func sourceErrorMidStream() async throws {
        let document = Array(Self.items(100).utf8)
        let source = ChunkSource(document, chunkSize: document.count / 4, failure: (after: 2, error: SourceFailure()))
        var received = 0
        await #expect(throws: SourceFailure.self) {
            for try await _ in XMLRecordDecoder().stream(Item.self, at: "item", from: .chunks(source)) { received += 1 }
        }
        // The first two chunks hold at least 48 whole items (about 25 per quarter).
        #expect(received >= 48 && received < 52)
    }

    @Test("records inside nested internal entities all come out, none lost at a pause")
    func recordsInNestedEntities() async throws {
        let record = XMLRecord("a", .value("@n", as: Int.self)) { $0 }
        // expat 2.5.0, paused inside `inner`, resumes without the rest of `outer`: the
        // stream waits for the document's own next event before pausing.
        for (outer, expected) in [("&inner;<a n='3'/>", [1, 2, 3]), ("<a n='3'/>&inner;", [3, 1, 2])] {
            let xml = """
                <!DOCTYPE r [<!ENTITY inner "<a n='1'/><a n='2'/>"><!ENTITY outer "\(outer)">]>
                <r>&outer;<a n='4'/>&outer;</r>
                """
            #expect(try record.all(in: .string(xml)) == expected + [4] + expected)
            let utf16: [UInt8] = [0xFF, 0xFE] + xml.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            for document in [Array(xml.utf8), utf16] {
                var numbers: [Int] = []
                for try await number in record.stream(from: .chunks(ChunkSource(document, chunkSize: 4096))) {
                    numbers.append(number)
                }
                #expect(numbers == expected + [4] + expected, "\(outer), \(document.count) bytes")
            }
        }
    }

    @Test("one entity reference expanding to more values than may wait fails the stream after the values before it")
    func entityBacklog() async throws {
        // `&e4;` expands to 100,000 `<t>` elements: the stream cannot pause inside it.
        var declarations = #"<!ENTITY e0 "<t>x</t><t>x</t><t>x</t><t>x</t><t>x</t><t>x</t><t>x</t><t>x</t><t>x</t><t>x</t>">"#
        for level in 1...4 {
            declarations += "<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">"
        }
        let xml = "<!DOCTYPE r [\(declarations)]><r><t>first</t>&e4;</r>"
        let titles = XMLStream<String>(from: .chunks(ChunkSource(Array(xml.utf8), chunkSize: 4096))) { dispatcher, output in
            dispatcher.onEnd("t") { _, text in output.yield(text) }
        }
        var received = 0
        do {
            for try await _ in titles { received += 1 }
            Issue.record("streamed 100,000 values from one entity reference")
        } catch let error as XMLParseError {
            #expect(error.code == .streamBacklogExceeded)
            #expect(error.limit == XMLStreamOutput<String>.maximumWaitingValues)
            #expect(error.elementPath.description == "r/t", "\(error.elementPath)")
        }
        // The value before the reference, and every value that was let wait.
        #expect(received == 1 + XMLStreamOutput<String>.maximumWaitingValues)
        // Synchronous handlers need no waiting: the same document parses.
        var count = 0
        var dispatcher = Dispatcher()
        dispatcher.onEnd("t") { _, _ in count += 1 }
        try dispatcher.parse(.string(xml))
        #expect(count == 100_001)
    }

    @Test("a handler that yields more values for one event than may wait in an entity: all of them come out")
    func manyValuesFromOneEvent() async throws {
        let count = XMLStreamOutput<String>.maximumWaitingValues + 4_464
        let xml = "<r><list>" + String(repeating: "a,", count: count) + "</list></r>"
        let words = XMLStream<String>(from: .chunks(ChunkSource(Array(xml.utf8), chunkSize: 4096))) { dispatcher, output in
            dispatcher.onEnd("list") { _, text in
                for word in text.split(separator: ",") { output.yield(String(word)) }
            }
        }
        var received = 0
        for try await _ in words { received += 1 }
        #expect(received == count)
    }

    @Test("a source's error comes after the values of every byte it delivered: a partial chunk, held-back input")
    func sourceErrorAfterItsBytes() async throws {
        let record = XMLRecord("item", .value("@n", as: Int.self)) { $0 }
        // A byte source that fails in the middle of what would be its first chunk.
        let bytes = AsyncThrowingStream<UInt8, any Error> { continuation in
            for byte in #"<items><item n="1"/><item n="2"/><item n="3"#.utf8 { continuation.yield(byte) }
            continuation.finish(throwing: SourceFailure())
        }
        var numbers: [Int] = []
        await #expect(throws: SourceFailure.self) {
            for try await number in record.stream(from: .bytes(bytes)) { numbers.append(number) }
        }
        #expect(numbers == [1, 2])

        // The first chunk ends inside a long comment, so the parser holds the second chunk
        // back waiting for more; the source fails instead: its items still come out.
        let first = Array(#"<items><item n="0"/><!--\#(String(repeating: "c", count: 8000))"#.utf8)
        let second = Array(#"--><item n="1"/><item n="2"/>"#.utf8)
        let source = ChunkSource(first + second, chunkSize: first.count, failure: (after: 2, error: SourceFailure()))
        numbers = []
        await #expect(throws: SourceFailure.self) {
            for try await number in record.stream(from: .chunks(source)) { numbers.append(number) }
        }
        #expect(numbers == [0, 1, 2])
    }

    @Test("a handler's error surfaces as a HandlerError; a handler that stops ends the stream quietly")
    func handlerErrorsAndStops() async throws {
        struct Refused: Error {}
        let failing = XMLStream<String>(from: .chunks(ChunkSource(Self.items(5), chunkSize: 9))) { dispatcher, output in
            dispatcher.onEnd("item/name") { element, text in
                if text == "item 3" { throw Refused() }
                output.yield(text)
            }
        }
        var names: [String] = []
        do {
            for try await name in failing { names.append(name) }
            Issue.record("expected an error")
        } catch let error as HandlerError {
            #expect(error.underlying is Refused)
            #expect(error.elementPath.description == "items/item/name")
        }
        #expect(names == ["item 0", "item 1", "item 2"])

        let pulls = Shared(0)
        let stopping = XMLStream<String>(from: .chunks(ChunkSource(Self.items(500), chunkSize: 64, pulls: pulls))) {
            dispatcher, output in
            dispatcher.onEnd("item/name") { element, text in
                output.yield(text)
                if text == "item 2" { element.stopParsing() }
            }
        }
        #expect(try await collect(stopping) == ["item 0", "item 1", "item 2"])
        #expect(pulls.value < 10)

        struct SetupFailure: Error {}
        let broken = XMLStream<String>(from: .chunks(ChunkSource("<a/>", chunkSize: 4))) { _, _ in throw SetupFailure() }
        await #expect(throws: SetupFailure.self) { _ = try await collect(broken) }
    }

    // MARK: Cancellation

    @Test("cancelling the consuming task ends the stream with CancellationError and releases the parser")
    func cancellation() async throws {
        let document = Self.items(10_000)
        let pulls = Shared(0)
        let handlersHold = Shared(WeakSentinel())
        let stream = XMLStream<Int>(from: .chunks(ChunkSource(document, chunkSize: 1024, pulls: pulls))) {
            dispatcher, output in
            let held = Sentinel()
            handlersHold.value.sentinel = held
            dispatcher.onStart("item") { element in
                _ = held
                output.yield(Int(element.attributes["n"] ?? "") ?? -1)
            }
        }
        let task = Task {
            var iterator = stream.makeAsyncIterator()
            var received = 0
            do {
                while try await iterator.next() != nil {
                    received += 1
                    #expect(handlersHold.value.sentinel != nil, "the handlers are alive while the stream runs")
                    if received == 10 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (received, "ended", false, false)
            } catch is CancellationError {
                // The iterator is still alive here, and has let go of the parse and its handlers.
                return (received, "cancelled", iterator.pump == nil, handlersHold.value.sentinel == nil)
            }
        }
        let (received, how, releasedParse, releasedHandlers) = try await task.value
        #expect(received == 10)
        #expect(how == "cancelled")
        #expect(releasedParse)
        #expect(releasedHandlers, "the handlers (and what they hold) are released")
        #expect(pulls.value == 1, "no chunk read after the cancellation")
    }

    @Test("cancellation while the source waits for input ends the stream")
    func cancellationWhileWaiting() async throws {
        let (chunks, input) = AsyncStream<[UInt8]>.makeStream()
        let (progress, reached) = AsyncStream<Int>.makeStream()
        input.yield(Array("<items><item n='1'/>".utf8))
        let stream = XMLRecord("item", .value("@n", as: Int.self)) { $0 }.stream(from: .chunks(chunks))
        let task = Task {
            var received = 0
            do {
                for try await _ in stream {
                    received += 1
                    reached.yield(received)
                }
                return "ended after \(received)"
            } catch is CancellationError {
                return "cancelled after \(received)"
            } catch {
                return "\(error)"
            }
        }
        // Once the first record is taken, the stream has nothing more to parse and
        // waits on the source (or is about to).
        for await count in progress where count == 1 { break }
        task.cancel()
        #expect(await task.value == "cancelled after 1")
        input.finish()
    }

    // MARK: Concurrency

    @Test("two documents parse concurrently on two tasks, and one stream iterates on two tasks, without interference")
    func concurrentParses() async throws {
        let first = Self.items(2000)
        let second = "<zoo>" + (0..<1500).map { "<animal><kind>k\($0)</kind><nested_nonsense><name>n\($0)</name></nested_nonsense></animal>" }.joined() + "</zoo>"
        let decoder = XMLRecordDecoder()
        let items = decoder.stream(Item.self, at: "item", from: .chunks(ChunkSource(first, chunkSize: 333)))
        let animals = Self.animal.stream(from: .chunks(ChunkSource(second, chunkSize: 517)))
        async let a = collect(items)
        async let b = collect(animals)
        async let c = collect(items)
        let (itemValues, animalValues, itemsAgain) = try await (a, b, c)
        #expect(itemValues.map(\.n) == Array(0..<2000))
        #expect(itemValues == itemsAgain)
        #expect(animalValues.count == 1500)
        #expect(animalValues.last == Animal(kind: "k1499", name: "n1499"))
    }
}

final class Sentinel {}

/// Observes whether a ``Sentinel`` is still alive.
struct WeakSentinel {
    weak var sentinel: Sentinel?
}

extension CodingUserInfoKey {
    static let built = CodingUserInfoKey(rawValue: "built")!
}
