#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A fast lexical pass over a document's bytes that proposes where records begin, so that
/// ranges of one document can be parsed apart (on many cores, or by the tasks of a
/// distributed engine).
///
/// It knows just enough XML to find start tags: comments, CDATA sections, processing
/// instructions, the DOCTYPE and its internal subset, quoted attribute values, and the
/// depth. It proposes a boundary at the `<` of every start tag at the depth where the
/// first element with the record's local name was found, from that one on (its siblings
/// too: an extract's ways after its nodes), with the line and column a
/// parse counts there and the start tags of the elements open around it; it keeps the
/// bytes before the root element (the prolog) that every range repeats.
///
/// A proposal is only that: the framer checks no well-formedness, expands no entity and
/// reads no DTD. A range's parse verifies it (the range must end in the elements the
/// framer said are open where the next range begins), and whatever does not verify is
/// read by the sequential parse. When the framer meets what it does not model (another
/// encoding, a prolog or ancestor tag too large to repeat, markup a well-formed document
/// cannot have there) it stops proposing (``stop``), and the rest is one range.
///
/// ```swift
/// var framer = DocumentFramer(recordName: Array("page".utf8))
/// framer.scan(chunk) { boundary in ranges.append(boundary) }
/// ```
package struct DocumentFramer {
    /// The bounds past which the framer stops proposing boundaries rather than keep bytes.
    package struct Limits: Sendable {
        package var maximumPrologBytes = 4 << 20
        package var maximumTagBytes = 1 << 20
        package var maximumDepth = 1024

        package init() {}
    }

    /// The local name of the record elements.
    let recordName: [UInt8]
    let limits: Limits

    /// The bytes before the root element's start tag, as written; complete once
    /// ``rootStarted``.
    package internal(set) var prolog: [UInt8] = []
    package internal(set) var rootStarted = false
    /// The depth of the records: that of the first element with the record's name.
    package internal(set) var recordDepth: Int?
    /// Whether the internal subset declares an internal entity or an attribute default,
    /// which make expat's amplification limits count over the whole document (see
    /// ``anyDeclarationAmplifies``); known once ``rootStarted``.
    package internal(set) var declaresAmplification = false
    /// Why the framer proposes no more boundaries, if it stopped.
    package private(set) var stop: FramingStop?
    /// The offset of the last end tag that closed an element above the records' depth once
    /// that depth was known: where the elements around one record stop being those around
    /// the next (revisions each in a page of their own), which a cut found by looking ahead
    /// for a start tag would assume they are.
    package internal(set) var lastAncestorClose: Int?
    /// Whether the document's columns count UTF-8 characters (rather than a byte each, as
    /// in ISO-8859-1).
    package var countsUTF8: Bool { position.countsUTF8 }
    /// How many bytes were scanned.
    package private(set) var offset = 0
    /// How many elements are open after the bytes scanned.
    package var openElements: Int { depth }

    var state = State.content
    /// The start tags of the open elements above the records' depth (all of them until it
    /// is known), outermost first; ``depth`` counts every open element.
    var open: [FramedTag] = []
    var depth = 0
    /// The tag being read (start or end), from its `<`, and where it began.
    var tag: [UInt8] = []
    var tagStart = 0
    /// The position of the `<` of a tag that an earlier call ended inside, and where it is.
    private var tagPosition: FramePosition
    private var straddlingTagStart = -1
    /// The quote that closes the literal being read.
    var quote: UInt8 = 0
    /// How many of a terminator's leading bytes were just seen: `-` of `-->`, `]` of `]]>`,
    /// `?` of `?>`; or how many bytes of a keyword matched.
    private var run = 0
    private var keyword: StaticString = ""
    var position: FramePosition
    /// The offset up to which ``position`` counted.
    private var counted = 0
    /// Whether the encoding was checked (at the first bytes, then at the XML declaration).
    var checkedStart = false
    /// Where the markup declarations of the internal subset are in the prolog, and where
    /// the one being read began.
    var declarations: [Range<Int>] = []
    private var declarationStart = 0

    /// No boundary before this offset is proposed (see ``scanForCuts(_:propose:)``).
    package var proposalsFrom = 0

    /// Whether the bytes are read as UTF-8 whatever the document declares (an input whose
    /// encoding is set to UTF-8).
    let readsUTF8: Bool

    /// - Parameters:
    ///   - recordName: The records' local name; empty with `recordDepth`.
    ///   - readsUTF8: Read the bytes as UTF-8 whatever the XML declaration says, as a
    ///     parse does for an input whose encoding is set to UTF-8 (a string).
    ///   - recordDepth: The depth of the boundaries (2: the root's children), when every
    ///     element there begins one rather than the records and their siblings.
    package init(recordName: [UInt8], readsUTF8: Bool = false, recordDepth: Int? = nil, limits: Limits = Limits()) {
        self.recordName = recordName
        self.recordDepth = recordDepth
        self.readsUTF8 = readsUTF8
        self.limits = limits
        position = FramePosition(utf8: true)
        tagPosition = position
    }

    /// A framer that goes on from `boundary`, a boundary another framer of the same
    /// document proposed (and a range's parse verified), as that framer was there: in
    /// content, inside `boundary`'s ancestors, with the records at `recordDepth`. It is fed
    /// the document's bytes from `boundary`'s offset on, and proposes as that framer would.
    ///
    /// - Parameters:
    ///   - prolog: The document's bytes before its root element.
    ///   - countsUTF8: Whether columns count UTF-8 characters (``countsUTF8``).
    package init(
        resumingAt boundary: FrameBoundary, prolog: [UInt8], recordName: [UInt8], recordDepth: Int?, countsUTF8: Bool,
        readsUTF8: Bool = false, limits: Limits = Limits()
    ) {
        self.init(recordName: recordName, readsUTF8: readsUTF8, recordDepth: recordDepth, limits: limits)
        self.prolog = prolog
        rootStarted = true
        checkedStart = true
        open = boundary.ancestors
        depth = boundary.ancestors.count
        offset = boundary.offset
        counted = boundary.offset
        proposalsFrom = boundary.offset
        position = FramePosition(line: boundary.line, column: boundary.column, utf8: countsUTF8)
        tagPosition = position
    }

    enum State: UInt8 {
        case content, markupOpen, startTag, attributeValue, emptyTagEnd, endTag
        case bang, commentOpen, comment, keyword, cdata, processingInstruction
        case doctype, doctypeLiteral, subset, subsetLiteral, subsetMarkupOpen, subsetBang
        case subsetCommentOpen, subsetComment, subsetInstruction, subsetDeclaration
        case subsetDeclarationLiteral, afterSubset
        /// Stopped: nothing more is read.
        case stopped
    }

    /// Whether the framer reads the current bytes as part of a tag, whose bytes it keeps.
    private var readsTag: Bool {
        switch state {
        case .markupOpen, .startTag, .attributeValue, .emptyTagEnd, .endTag: true
        default: false
        }
    }

    /// Scans the next bytes of the document, calling `propose` with each boundary found.
    package mutating func scan(_ bytes: UnsafeRawBufferPointer, propose: (FrameBoundary) -> Void) {
        scanForCuts(bytes) { boundary in
            propose(boundary)
            return 0
        }
    }

    /// Scans the next bytes of the document, calling `propose` with each boundary found at
    /// or after ``proposalsFrom``; what `propose` returns is the new ``proposalsFrom``.
    ///
    /// A caller that cuts a range every megabyte wants one boundary in thousands: the
    /// others cost neither their position nor their ancestors.
    package mutating func scanForCuts(_ bytes: UnsafeRawBufferPointer, propose: (FrameBoundary) -> Int) {
        guard state != .stopped, let base = bytes.baseAddress, bytes.count > 0 else {
            offset += bytes.count
            return
        }
        let start = base.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        if !checkedStart {
            checkStart(start, count, at: offset)
            if state == .stopped { return }
        }
        var index = 0
        // Where the kept bytes of this call begin: the tag's, and the prolog's.
        var tagSlice = readsTag ? 0 : -1
        let chunkOffset = offset
        if counted < chunkOffset {
            // The bytes of a tag that began in the last call, kept: counted now.
            tag.withUnsafeBytes { position.count(UnsafeRawBufferPointer(rebasing: $0[(counted - tagStart)...])) }
            counted = chunkOffset
        }
        while index < count && state != .stopped {
            let byte = start[index]
            switch state {
            case .content:
                // Text and the tags that end in these bytes, on to the first markup that is
                // not a start or end tag, or the tag these bytes end in.
                index = scanTags(start, count, from: index, chunkOffset, tagSlice: &tagSlice, propose: propose)
                continue
            case .markupOpen:
                switch byte {
                case UInt8(ascii: "/"): state = .endTag
                case UInt8(ascii: "!"):
                    state = .bang
                    tagSlice = -1
                case UInt8(ascii: "?"):
                    state = .processingInstruction
                    run = 0
                    tagSlice = -1
                default: state = .startTag
                }
            case .startTag:
                var next = index
                while next < count {
                    let b = start[next]
                    if b == UInt8(ascii: ">") || b == UInt8(ascii: "\"") || b == UInt8(ascii: "'")
                        || b == UInt8(ascii: "/")
                    {
                        break
                    }
                    next += 1
                }
                if next == count {
                    index = count
                    continue
                }
                index = next
                switch start[next] {
                case UInt8(ascii: ">"):
                    withTag(start, from: tagSlice, through: next) { framer, bytes in
                        framer.endStartTag(empty: false, bytes, start, chunkOffset, propose: propose)
                    }
                    tagSlice = -1
                case UInt8(ascii: "/"): state = .emptyTagEnd
                default:
                    quote = start[next]
                    state = .attributeValue
                }
            case .attributeValue:
                guard let found = memchr(start + index, Int32(quote), count - index) else {
                    index = count
                    continue
                }
                index = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
                state = .startTag
            case .emptyTagEnd:
                guard byte == UInt8(ascii: ">") else { return halt(.unexpectedMarkup(offset: chunkOffset + index)) }
                withTag(start, from: tagSlice, through: index) { framer, bytes in
                    framer.endStartTag(empty: true, bytes, start, chunkOffset, propose: propose)
                }
                tagSlice = -1
            case .endTag:
                guard let found = memchr(start + index, Int32(UInt8(ascii: ">")), count - index) else {
                    index = count
                    continue
                }
                index = start.distance(to: found.assumingMemoryBound(to: UInt8.self))
                withTag(start, from: tagSlice, through: index) { framer, bytes in framer.endEndTag(bytes) }
                tagSlice = -1
            case .bang:
                switch byte {
                case UInt8(ascii: "-"): state = .commentOpen
                case UInt8(ascii: "[") where rootStarted:
                    beginKeyword("[CDATA[")
                case UInt8(ascii: "D") where !rootStarted:
                    beginKeyword("DOCTYPE")
                default: return halt(.unexpectedMarkup(offset: chunkOffset + index))
                }
            case .commentOpen:
                guard byte == UInt8(ascii: "-") else { return halt(.unexpectedMarkup(offset: chunkOffset + index)) }
                run = 0
                state = .comment
            case .comment, .subsetComment:
                // On to `-->`.
                guard let end = Self.close(start, from: index, count, after: UInt8(ascii: "-"), times: 2, run: &run) else {
                    index = count
                    continue
                }
                index = end
                state = state == .comment ? .content : .subset
            case .keyword:
                guard byte == keyword.utf8Start[run] else { return halt(.unexpectedMarkup(offset: chunkOffset + index)) }
                run += 1
                if run == keyword.utf8CodeUnitCount {
                    if keyword.utf8Start[0] == UInt8(ascii: "[") {
                        state = .cdata
                    } else {
                        state = .doctype
                    }
                    run = 0
                }
            case .cdata:
                // On to `]]>`.
                guard let end = Self.close(start, from: index, count, after: UInt8(ascii: "]"), times: 2, run: &run) else {
                    index = count
                    continue
                }
                index = end
                state = .content
            case .processingInstruction, .subsetInstruction:
                // On to `?>`.
                guard let end = Self.close(start, from: index, count, after: UInt8(ascii: "?"), times: 1, run: &run) else {
                    index = count
                    continue
                }
                index = end
                if state == .processingInstruction {
                    state = .content
                    if !rootStarted && !readsUTF8 { checkDeclaredEncoding(start, chunkOffset, end: end) }
                } else {
                    state = .subset
                }
            case .doctype:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    quote = byte
                    state = .doctypeLiteral
                case UInt8(ascii: "["): state = .subset
                case UInt8(ascii: ">"): state = .content
                default: break
                }
            case .doctypeLiteral:
                if byte == quote { state = .doctype }
            case .subset:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    quote = byte
                    state = .subsetLiteral
                case UInt8(ascii: "<"): state = .subsetMarkupOpen
                case UInt8(ascii: "]"): state = .afterSubset
                default: break
                }
            case .subsetLiteral:
                if byte == quote { state = .subset }
            case .subsetMarkupOpen:
                switch byte {
                case UInt8(ascii: "!"): state = .subsetBang
                case UInt8(ascii: "?"):
                    run = 0
                    state = .subsetInstruction
                default: return halt(.unexpectedMarkup(offset: chunkOffset + index))
                }
            case .subsetBang:
                if byte == UInt8(ascii: "-") {
                    state = .subsetCommentOpen
                } else {
                    state = .subsetDeclaration
                    declarationStart = chunkOffset + index - 2
                }
            case .subsetCommentOpen:
                guard byte == UInt8(ascii: "-") else { return halt(.unexpectedMarkup(offset: chunkOffset + index)) }
                run = 0
                state = .subsetComment
            case .subsetDeclaration:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    quote = byte
                    state = .subsetDeclarationLiteral
                case UInt8(ascii: ">"):
                    state = .subset
                    declarations.append(declarationStart..<(chunkOffset + index + 1))
                default: break
                }
            case .subsetDeclarationLiteral:
                if byte == quote { state = .subsetDeclaration }
            case .afterSubset:
                switch byte {
                case UInt8(ascii: ">"): state = .content
                case 0x20, 0x09, 0x0A, 0x0D: break
                default: return halt(.unexpectedMarkup(offset: chunkOffset + index))
                }
            case .stopped:
                break
            }
            index += 1
        }
        guard state != .stopped else { return }
        if tagSlice >= 0 && readsTag { keepTag(start, from: tagSlice, through: count - 1) }
        if !rootStarted {
            prolog.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
            if prolog.count > limits.maximumPrologBytes { return halt(.prologTooLarge) }
        }
        if tag.count > limits.maximumTagBytes { return halt(.tagTooLarge) }
        if readsTag {
            // A tag goes on in the next call: its position is taken now, and its bytes
            // here, kept, are counted at the next call's start.
            advancePosition(start, chunkOffset, to: max(0, tagStart - chunkOffset))
            if straddlingTagStart != tagStart {
                tagPosition = position
                straddlingTagStart = tagStart
            }
        } else {
            advancePosition(start, chunkOffset, to: count)
        }
        offset = chunkOffset + count
    }

    // MARK: Steps

    /// The index of the `>` that closes a comment (`-->`), a CDATA section (`]]>`) or a
    /// processing instruction (`?>`): the first `>` after `times` or more `mark` bytes in a
    /// row, or `nil` when these bytes end first. `run` carries the marks just seen from one
    /// call's bytes to the next.
    private static func close(
        _ start: UnsafePointer<UInt8>, from index: Int, _ count: Int, after mark: UInt8, times: Int, run: inout Int
    ) -> Int? {
        var next = index
        var marks = run
        while next < count {
            let byte = start[next]
            if byte == UInt8(ascii: ">") && marks >= times {
                run = 0
                return next
            }
            marks = byte == mark ? marks + 1 : 0
            next += 1
        }
        run = marks
        return nil
    }

    mutating func halt(_ reason: FramingStop) {
        stop = reason
        state = .stopped
    }

    private mutating func beginKeyword(_ word: StaticString) {
        keyword = word
        run = 1
        state = .keyword
    }

    /// Appends the tag's bytes of this call, from `from` through `through`.
    private mutating func keepTag(_ start: UnsafePointer<UInt8>, from: Int, through: Int) {
        guard from >= 0, through >= from else { return }
        tag.append(contentsOf: UnsafeBufferPointer(start: start + from, count: through - from + 1))
    }

    /// Runs `body` with the bytes of the tag that just ended at `through` (from its `<`): in
    /// this call's bytes when it began in them, or kept when it began in an earlier call.
    mutating func withTag(
        _ start: UnsafePointer<UInt8>, from: Int, through: Int,
        _ body: (inout DocumentFramer, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        if tag.isEmpty && from >= 0 {
            body(&self, UnsafeBufferPointer(start: start + from, count: through - from + 1))
            return
        }
        keepTag(start, from: max(0, from), through: through)
        let kept = tag
        kept.withUnsafeBufferPointer { body(&self, $0) }
    }

    /// Counts the bytes of this call up to `end` (exclusive), from where counting stopped.
    private mutating func advancePosition(_ start: UnsafePointer<UInt8>, _ chunkOffset: Int, to end: Int) {
        let from = counted - chunkOffset
        guard end > from, from >= 0 else { return }
        position.count(UnsafeRawBufferPointer(start: start + from, count: end - from))
        counted = chunkOffset + end
    }

    /// The position of the tag that just ended: counted up to its `<` when it began in this
    /// call, or taken when an earlier call ended inside it.
    mutating func positionOfTag(_ start: UnsafePointer<UInt8>, _ chunkOffset: Int) -> FramePosition {
        if straddlingTagStart == tagStart { return tagPosition }
        advancePosition(start, chunkOffset, to: tagStart - chunkOffset)
        return position
    }
}
