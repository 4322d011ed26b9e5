/// The framer's reading of start and end tags: the common case of text and tags that end
/// in the bytes at hand, read without the byte-at-a-time state machine of
/// ``DocumentFramer/scanForCuts(_:propose:)``, and what a tag that ended changes.
///
/// What must stay true: the fast path leaves ``DocumentFramer/state``, ``DocumentFramer/tagStart``
/// and the kept tag's start exactly as the state machine would at the byte where it hands
/// back, so that feeding the same bytes in pieces of any size proposes the same boundaries.
extension DocumentFramer {
    /// Reads text and the start and end tags in it from `index` (in text), as long as each
    /// tag ends in these bytes; returns the index where the state machine goes on: the
    /// bytes' end (in text, or in a tag whose bytes from `tagSlice` are kept), the byte after
    /// `<` of other markup (`<!`, `<?`), or where the framer stopped.
    mutating func scanTags(
        _ start: UnsafePointer<UInt8>, _ count: Int, from index: Int, _ chunkOffset: Int, tagSlice: inout Int,
        propose: (FrameBoundary) -> Int
    ) -> Int {
        // A tag kept from an earlier call ended before this text.
        if !tag.isEmpty { tag.removeAll(keepingCapacity: true) }
        // What the loop reads at every tag, in locals: what only the calls below change is
        // read again after each of them, and the depth is stored before each and on return.
        var depth = self.depth
        var fast = FastDepths(self)
        var index = index
        while true {
            let open = ByteScan.first(UInt8(ascii: "<"), start, from: index, count)
            guard open < count else {
                self.depth = depth
                tagSlice = -1
                return count
            }
            tagStart = chunkOffset + open
            let kind = open + 1
            guard kind < count else { return handBack(count, .markupOpen, tag: open, &tagSlice, depth) }
            switch start[kind] {
            case UInt8(ascii: "/"):
                let close = ByteScan.first(UInt8(ascii: ">"), start, from: kind + 1, count)
                guard close < count else { return handBack(count, .endTag, tag: open, &tagSlice, depth) }
                if depth > fast.keptDepth {
                    // Inside a record: the element's start tag was not kept, nothing to check.
                    depth -= 1
                } else {
                    self.depth = depth
                    endEndTag(UnsafeBufferPointer(start: start + open, count: close - open + 1))
                    if state == .stopped { return close + 1 }
                    depth = self.depth
                    fast = FastDepths(self)
                }
                index = close + 1
            case UInt8(ascii: "!"), UInt8(ascii: "?"):
                // A comment, CDATA section or processing instruction in content that ends in
                // these bytes is passed over whole; any other (the prolog's, one that goes
                // on past these bytes, markup that is none of them) is the state machine's.
                guard rootStarted, let end = Self.endOfMarkup(start, at: open, count) else {
                    return handBack(kind, .markupOpen, tag: open, &tagSlice, depth)
                }
                index = end + 1
            default:
                // A start tag: its name's first byte is read as the state machine reads it
                // (whatever it is), then on to `>` or `/>` outside quoted values.
                var next = kind + 1
                while true {
                    next = ByteScan.firstInStartTag(start, from: next, count)
                    guard next < count else { return handBack(count, .startTag, tag: open, &tagSlice, depth) }
                    let byte = start[next]
                    guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else { break }
                    let close = ByteScan.first(byte, start, from: next + 1, count)
                    guard close < count else {
                        quote = byte
                        return handBack(count, .attributeValue, tag: open, &tagSlice, depth)
                    }
                    next = close + 1
                }
                let empty = start[next] == UInt8(ascii: "/")
                if empty {
                    // `/`, which only `>` may follow.
                    guard next + 1 < count else { return handBack(count, .emptyTagEnd, tag: open, &tagSlice, depth) }
                    guard start[next + 1] == UInt8(ascii: ">") else {
                        halt(.unexpectedMarkup(offset: chunkOffset + next + 1))
                        return next + 1
                    }
                    next += 1
                }
                if fast.changesDepthOnly(startTagAt: depth + 1, tagStart) {
                    if !empty { depth += 1 }
                } else {
                    self.depth = depth
                    endStartTag(
                        empty: empty, UnsafeBufferPointer(start: start + open, count: next - open + 1), start,
                        chunkOffset, propose: propose)
                    if state == .stopped { return next + 1 }
                    depth = self.depth
                    fast = FastDepths(self)
                }
                index = next + 1
            }
        }
    }

    /// The index of the `>` that ends the comment (`<!--`), CDATA section (`<![CDATA[`) or
    /// processing instruction (`<?`) whose `<` is at `open`, when it is one of these and ends
    /// before `count`; `nil` otherwise. It ends where the state machine finds its end: the
    /// first `-->`, `]]>` or `?>` whose marks all follow the opening.
    @inline(__always)
    private static func endOfMarkup(_ start: UnsafePointer<UInt8>, at open: Int, _ count: Int) -> Int? {
        let body: Int
        let mark: UInt8
        let times: Int
        if start[open + 1] == UInt8(ascii: "?") {
            (body, mark, times) = (open + 2, UInt8(ascii: "?"), 1)
        } else if open + 4 <= count && start[open + 2] == UInt8(ascii: "-") && start[open + 3] == UInt8(ascii: "-") {
            (body, mark, times) = (open + 4, UInt8(ascii: "-"), 2)
        } else if open + 9 <= count && Self.opensCDATA(start + open) {
            (body, mark, times) = (open + 9, UInt8(ascii: "]"), 2)
        } else {
            return nil
        }
        var from = body + times
        while true {
            let close = ByteScan.first(UInt8(ascii: ">"), start, from: from, count)
            guard close < count else { return nil }
            if start[close - 1] == mark && (times == 1 || start[close - 2] == mark) { return close }
            from = close + 1
        }
    }

    /// Whether the nine bytes at `markup` are `<![CDATA[`.
    @inline(__always)
    private static func opensCDATA(_ markup: UnsafePointer<UInt8>) -> Bool {
        // `<![CDATA` as one little-endian word, then `[`.
        let word = UInt64(littleEndian: UnsafeRawPointer(markup).loadUnaligned(as: UInt64.self))
        return word == 0x4154_4144_435B_213C && markup[8] == UInt8(ascii: "[")
    }

    /// Leaves the loop inside a tag (from `tag`, kept from there) or after `<` of other
    /// markup: the state machine goes on at `index` in `state`.
    @inline(__always)
    private mutating func handBack(_ index: Int, _ state: State, tag: Int, _ tagSlice: inout Int, _ depth: Int) -> Int {
        self.state = state
        self.depth = depth
        tagSlice = tag
        return index
    }

    /// What decides, at every tag, whether it changes nothing but the depth; it changes only
    /// when a tag is read by ``endStartTag(empty:_:_:_:propose:)`` or ``endEndTag(_:)``.
    struct FastDepths {
        /// How many open elements' start tags are kept: an end tag deeper closes one not kept.
        let keptDepth: Int
        /// The records' depth, or `Int.max` before the root or the first record.
        let recordDepth: Int
        let proposalsFrom: Int
        let maximumDepth: Int

        init(_ framer: DocumentFramer) {
            keptDepth = framer.open.count
            recordDepth = framer.rootStarted ? framer.recordDepth ?? Int.max : Int.max
            proposalsFrom = framer.proposalsFrom
            maximumDepth = framer.limits.maximumDepth
        }

        /// Whether a start tag at `elementDepth` beginning at `offset` changes nothing but the
        /// depth, as ``DocumentFramer/endStartTag(empty:_:_:_:propose:)`` would find: inside
        /// the root, below the records (not kept) or at their depth before ``proposalsFrom``
        /// (not proposed), and not too deep.
        @inline(__always)
        func changesDepthOnly(startTagAt elementDepth: Int, _ offset: Int) -> Bool {
            guard elementDepth > 1, elementDepth <= maximumDepth else { return false }
            return elementDepth > recordDepth || (elementDepth == recordDepth && offset < proposalsFrom)
        }
    }

    /// Reads a start tag that just ended (`bytes`, from its `<`, began at ``tagStart``):
    /// proposes a boundary there when it is at the records' depth and at or past
    /// ``proposalsFrom``, and keeps it when it is above the records.
    mutating func endStartTag(
        empty: Bool, _ bytes: UnsafeBufferPointer<UInt8>, _ start: UnsafePointer<UInt8>, _ chunkOffset: Int,
        propose: (FrameBoundary) -> Int
    ) {
        state = .content
        if !rootStarted {
            rootStarted = true
            if prolog.count > tagStart {
                prolog.removeSubrange(tagStart...)
            } else {
                // The rest of the prolog is in this call's bytes.
                let from = prolog.count - chunkOffset
                let end = tagStart - chunkOffset
                if from >= 0 && end > from {
                    prolog.append(contentsOf: UnsafeBufferPointer(start: start + from, count: end - from))
                }
            }
            if prolog.count > limits.maximumPrologBytes { return halt(.prologTooLarge) }
            declaresAmplification = anyDeclarationAmplifies
        } else if depth == 0 {
            // A second root element: the parse reports it.
            return halt(.unexpectedMarkup(offset: tagStart))
        }
        let elementDepth = depth + 1
        if recordDepth.map({ $0 == elementDepth && tagStart >= proposalsFrom }) ?? true {
            let isRecord = Self.hasName(bytes, recordName)
            if isRecord && recordDepth == nil {
                recordDepth = elementDepth
                if open.count > elementDepth - 1 { open.removeSubrange((elementDepth - 1)...) }
            }
            if elementDepth == recordDepth && tagStart >= proposalsFrom {
                // Every element at the records' depth from the first record on begins a
                // boundary: ways and relations after an extract's nodes split as well.
                let at = positionOfTag(start, chunkOffset)
                proposalsFrom = propose(
                    FrameBoundary(
                        offset: tagStart, line: at.line, column: at.column, ancestors: open,
                        contextBytes: open.reduce(prolog.count) { $0 + $1.bytes.count }, isRecord: isRecord,
                        insideRecord: open.contains { $0.localName.elementsEqual(recordName) }))
            }
        }
        guard !empty else { return }
        depth = elementDepth
        if depth > limits.maximumDepth { return halt(.tooDeep) }
        if elementDepth < (recordDepth ?? Int.max) {
            if bytes.count > limits.maximumTagBytes { return halt(.tagTooLarge) }
            open.append(FramedTag(offset: tagStart, bytes: Array(bytes)))
        }
    }

    /// Whether the tag `bytes` (from its `<`) has the local name `name`.
    static func hasName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        var end = 1
        var localStart = 1
        while end < bytes.count, !FramedTag.endsName(bytes[end]) {
            if bytes[end] == UInt8(ascii: ":") { localStart = end + 1 }
            end += 1
        }
        guard end - localStart == name.count else { return false }
        for index in 0..<name.count where bytes[localStart + index] != name[index] { return false }
        return true
    }

    /// Reads an end tag that just ended (`bytes`, from its `<`).
    mutating func endEndTag(_ bytes: UnsafeBufferPointer<UInt8>) {
        state = .content
        guard depth > 0 else { return halt(.unexpectedMarkup(offset: tagStart)) }
        if open.count == depth {
            // The element's start tag is kept: its end tag must name it.
            var end = bytes.count - 1
            while end > 2, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[end - 1]) { end -= 1 }
            let name = open[depth - 1].name
            guard end - 2 == name.count, zip(bytes[2..<end], name).allSatisfy({ $0 == $1 }) else {
                return halt(.unexpectedMarkup(offset: tagStart))
            }
            if recordDepth != nil { lastAncestorClose = tagStart }
            open.removeLast()
        }
        depth -= 1
    }
}
