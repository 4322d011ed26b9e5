/// Words to draw from: with `percent` chance from `other` (when there is one), otherwise
/// from `words`. Without `other`, a pick draws one random number, as the zoo always has,
/// so the zoo's documents stay what they are.
struct WordChoice {
    let words: [[UInt8]]
    let other: [[UInt8]]?
    let percent: Int

    init(_ words: [[UInt8]], or other: [[UInt8]]? = nil, percent: Int = 0) {
        self.words = words
        self.other = other
        self.percent = percent
    }

    func pick(_ random: inout SplitMix64) -> [UInt8] {
        if let other, random.percent(percent) { return other[random.below(other.count)] }
        return words[random.below(words.count)]
    }
}

/// The text of a zoo: its kinds, names and prose.
struct ZooText {
    let kinds: WordChoice
    let plainNames: WordChoice
    let escapedNames: WordChoice
    let cdataNames: WordChoice
    let prose: WordChoice

    /// The zoo's own text: ASCII with some Latin and a little Japanese.
    static let standard = ZooText(
        kinds: WordChoice(Zoo.kinds), plainNames: WordChoice(Zoo.plainNames),
        escapedNames: WordChoice(Zoo.escapedNames), cdataNames: WordChoice(Zoo.cdataNames),
        prose: WordChoice(Vocabulary.words))

    /// Each kind, name and word Japanese with `percent` chance, otherwise ASCII. Every
    /// character is in JIS X 0208 (so Shift_JIS and EUC-JP write it in two bytes) and in
    /// GBK (GB18030's two-byte part), and none is one whose mapping differs between
    /// converters (wave dash, minus, and the like).
    static func japanese(percent: Int) -> ZooText {
        ZooText(
            kinds: WordChoice(Zoo.kinds, or: utf8(["猫", "犬", "象", "キリン", "ライオン", "オカピ", "ペンギン", "シマウマ", "ヤク"]), percent: percent),
            plainNames: WordChoice(
                ascii(Zoo.plainNames),
                or: utf8(["ポチ", "タマ", "ハチ公", "さくら", "モモ", "小太郎", "クロ", "シロ", "花子", "ミケ", "山田太郎", "ソラ"]),
                percent: percent),
            escapedNames: WordChoice(
                Zoo.escapedNames, or: utf8(["トム &amp; ジェリー", "&lt;ひげ&gt; 先生", "塩 &amp; 胡椒"]), percent: percent),
            cdataNames: WordChoice(
                Zoo.cdataNames, or: utf8(["<![CDATA[鮭 & <茶漬け>]]>", "<![CDATA[魚 & 芋]]>"]), percent: percent),
            prose: WordChoice(
                ascii(Vocabulary.words),
                or: utf8([
                    "動物園", "飼育員", "が", "朝", "と", "夕方", "に", "餌", "を", "与える", "来園者", "は", "日陰",
                    "好き", "川", "の", "近く", "東京", "大阪", "京都", "駅", "北", "南", "橋", "記録", "歴史", "小さな",
                    "町", "古い", "家", "緑", "谷", "丘", "地図", "&amp;", "&lt;注&gt;", "「引用」", "二〇一九年", "、", "。",
                ]),
                percent: percent))
    }

    private static func utf8(_ words: [String]) -> [[UInt8]] { words.map { Array($0.utf8) } }

    /// The words of `words` that are ASCII: the others (Latin letters such as `é`) have no
    /// form in Shift_JIS.
    private static func ascii(_ words: [[UInt8]]) -> [[UInt8]] { words.filter { $0.allSatisfy { $0 < 0x80 } } }
}
