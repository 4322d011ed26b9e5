/// Where a splitter (``Bzip2BlockSplitter``, ``ZstdFrameSplitter``) puts the pieces it
/// cuts, in input order; one piece is open at a time.
protocol CompressedPieceSink {
    /// Begins a piece whose decompressor counts compressed offsets from `offset`; false
    /// when the parse is done and nothing more is wanted.
    mutating func begin(at offset: Int) -> Bool
    /// Adds bytes to the open piece; false when the parse is done.
    mutating func add(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Ends the open piece.
    mutating func end()
}

/// Cuts compressed input, as it is read, into pieces that decompress on their own, so
/// that several threads decompress one file (``ParallelStreams``).
///
/// What must stay true: the pieces, joined, are the input, byte for byte; a piece
/// decompresses to exactly the bytes a sequential read gives for it, or to an error.
protocol CompressedPieceSplitter {
    /// Cuts what it can of the next bytes of input into pieces; false when the sink wants
    /// nothing more.
    mutating func append(_ bytes: UnsafeRawBufferPointer, to sink: inout some CompressedPieceSink) -> Bool
    /// Cuts the rest at the end of the input and ends the open piece (unless the input
    /// failed: its error then follows the open piece's bytes).
    mutating func finish(to sink: inout some CompressedPieceSink, endingOpenPiece: Bool)
}
