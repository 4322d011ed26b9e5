import Foundation
import SAXDispatchTestSupport
import Testing

@Suite("saxdispatch events")
struct EventsCommandTests {
    func events(_ arguments: [String], input: String) throws -> CommandRunner.Result {
        try CommandRunner.run("saxdispatch", ["events", "-"] + arguments, input: Data(input.utf8))
    }

    static let document = """
        <?xml version="1.0"?>
        <!DOCTYPE doc [<!ENTITY amp2 "&#38;#38;">]>
        <?style href="a.css"?>
        <doc lang="en" note='say "hi"'>
          <!-- one -->
          <p>a <b>bold</b> c &amp2; <![CDATA[<raw>]]></p>
          <e/>
        </doc>
        """

    @Test("every kind of event, in document order, as JSON Lines")
    func eventStream() throws {
        let result = try events([], input: Self.document)
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        #expect(
            result.output == """
                {"event":"doctype","name":"doc","publicID":null,"systemID":null,"internalSubset":true}
                {"event":"processingInstruction","target":"style","data":"href=\\"a.css\\""}
                {"event":"start","name":"doc","depth":1,"line":4,"column":1,"attributes":{"lang":"en","note":"say \\"hi\\""}}
                {"event":"comment","text":" one "}
                {"event":"start","name":"p","depth":2,"line":6,"column":3,"attributes":{}}
                {"event":"start","name":"b","depth":3,"line":6,"column":8,"attributes":{}}
                {"event":"end","name":"b","depth":3,"text":"bold"}
                {"event":"end","name":"p","depth":2,"text":"a  c & <raw>"}
                {"event":"start","name":"e","depth":2,"line":7,"column":3,"attributes":{}}
                {"event":"end","name":"e","depth":2,"text":""}
                {"event":"end","name":"doc","depth":1,"text":""}

                """)
        for line in result.output.split(separator: "\n") {
            #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: Data(line.utf8)) }
        }
    }

    @Test("end text does not depend on the chunk size; --whitespace shapes it")
    func chunkSizeAndWhitespace() throws {
        let whole = try events([], input: Self.document)
        let bytewise = try events(["--chunk-size", "1"], input: Self.document)
        #expect(bytewise.status == 0)
        #expect(bytewise.output == whole.output)
        let preserved = try events(["--whitespace", "preserve"], input: "<a> x  <b/>\n y </a>")
        #expect(preserved.output.hasSuffix(#"{"event":"end","name":"a","depth":1,"text":" x  \n y "}"# + "\n"))
        let collapsed = try events(["--whitespace", "collapse"], input: "<a> x  <b/>\n y </a>")
        #expect(collapsed.output.hasSuffix(#"{"event":"end","name":"a","depth":1,"text":"x y"}"# + "\n"))
    }

    @Test("--text-pieces shows the pieces an onText handler gets, which follow the chunk size")
    func textPieces() throws {
        let document = "<a>hello <b/>world</a>"
        let whole = try events(["--text-pieces"], input: document)
        #expect(
            whole.output.split(separator: "\n").filter { $0.contains(#""event":"text""#) } == [
                #"{"event":"text","name":"a","depth":1,"text":"hello "}"#,
                #"{"event":"text","name":"a","depth":1,"text":"world"}"#,
            ])
        let bytewise = try events(["--text-pieces", "--chunk-size", "2"], input: document)
        let pieces = try bytewise.output.split(separator: "\n").compactMap { line -> String? in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return object["event"] as? String == "text" ? object["text"] as? String : nil
        }
        #expect(pieces.count > 2)
        #expect(pieces.joined() == "hello world")
    }

    @Test("a malformed document: the events before the error, then FILE:LINE:COLUMN and exit 1")
    func malformed() throws {
        let result = try events([], input: "<a>\n<b>x</b>\n<c></a>")
        #expect(result.status == 1)
        #expect(
            result.output == """
                {"event":"start","name":"a","depth":1,"line":1,"column":1,"attributes":{}}
                {"event":"start","name":"b","depth":2,"line":2,"column":1,"attributes":{}}
                {"event":"end","name":"b","depth":2,"text":"x"}
                {"event":"start","name":"c","depth":2,"line":3,"column":1,"attributes":{}}

                """)
        #expect(result.error == "-:3:6: error: mismatched tag (in a/c)\n")
    }
}
