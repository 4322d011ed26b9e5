/// The driver's input on its way to expat: what it holds back, how much the next call needs,
/// and what it gave so far (see ``ExpatDriver`` for why input is held back).
///
/// What must stay true: `held` is every byte received and not yet given to expat, so
/// `bytesGiven + held.count` is every byte received; `holdUntil` is set after every call
/// into expat (``ExpatDriver/concludeCall()``), so a held-back feed costs a copy and a comparison.
struct ExpatDriverHoldback: ~Copyable {
    /// Input held back because expat still has more unparsed bytes than ``holdUntil``, or a
    /// line break held at the end of a feed, or what a pause left unsent.
    var held = TextBuffer()
    /// How many bytes a feed (or the held-back input) must reach before expat gets
    /// them: the size of expat's unfinished token when that exceeds the threshold, else 0.
    var holdUntil = 0
    /// Total bytes passed to expat so far.
    var bytesGiven = 0
    /// How many times expat was asked to parse; tests use it to check the holdback.
    var parseCallCount = 0
    /// Expat's `int` length parameter bounds one call; larger inputs go in slices.
    /// (A variable so that tests can make slices small.)
    var maximumSlice = 1 << 30

    /// Every byte received: given to expat or held back.
    var byteCount: Int { bytesGiven + held.count }
}
