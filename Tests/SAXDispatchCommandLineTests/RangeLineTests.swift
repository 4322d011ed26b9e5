import Foundation
import SAXDispatch
import SAXDispatchTools
import Testing

/// A line of `saxdispatch split`'s output reads back as the range it was made from.
@Suite("RangeLine: split's JSON lines, written and read back")
struct RangeLineTests {
    @Test("ranges of UTF-8 and ISO-8859-1 documents, with escapes and base64, read back as they were")
    func roundTrip() throws {
        let utf8 = "<?xml version=\"1.0\"?>\n<m a=\"x\\\\ \t é 東 😀 &quot;\">" + (0..<20).map { "<page n='\($0)'/>\r\n" }.joined() + "</m>"
        let latin1: [UInt8] = Array("<?xml version='1.0' encoding='ISO-8859-1'?><m a='".utf8) + [0xE9, 0x22]
            + Array("'>".utf8) + (0..<20).flatMap { Array("<page n='\($0)'/>".utf8) } + Array("</m>".utf8)
        for input in [XMLInput.string(utf8), .bytes(latin1)] {
            let ranges = try XMLDocumentRange.split(input, record: "page", parts: 4)
            #expect(ranges.count == 4)
            for range in ranges {
                let line = RangeLine.line(range)
                #expect(RangeLine.range(parsing: line) == range, "\(line)")
            }
        }
    }

    @Test("what is not a range reads as nil")
    func notRanges() {
        for text in ["", "{}", "{\"start\":1}", "[1]", "{\"start\":1,\"line\":1,\"column\":1,\"context\":\"a\"", "{\"start\":\"x\",\"line\":1,\"column\":1,\"context\":\"\"}",
            "{\"start\":1,\"line\":1,\"column\":1,\"context\":\"\\ud800\"}", "{\"start\":1,\"line\":1,\"column\":1,\"context_base64\":\"*\"}"]
        {
            #expect(RangeLine.range(parsing: text) == nil, "\(text)")
        }
        #expect(RangeLine.range(parsing: "{\"start\":1,\"end\":null,\"line\":1,\"column\":2,\"context\":\"\"}")?.column == 2)
    }
}
