#!/usr/bin/env python3
"""Writes Tests/SAXDispatchTests/Fixtures/encodings/: one document per encoding, made with
Python's own codecs, each with a twin holding a deliberate invalid byte sequence, plus
manifest.json (what each file must read as) and README.md (a line per file).

Every document has the same shape:

    <?xml version="1.0" encoding="NAME"?>       (no declaration for UTF-32)
    <doc>
      <title>TEXT</title>
      <body note="TEXT">TEXT and TEXT</body>
    </doc>

The invalid twin puts the bad bytes inside <title>, after the text: line 3 (2 without a
declaration), column 10 + len(TEXT) (columns count characters, from 1).

Run from the package root: python3 Scripts/generate-encoding-fixtures.py
"""
import json
import os

OUT = "Tests/SAXDispatchTests/Fixtures/encodings"

# (file stem, Python codec, declared name or None, text, invalid bytes or None, path)
ENCODINGS = [
    ("shift_jis", "shift_jis", "Shift_JIS", "日本語のテキスト ｶﾀｶﾅ", b"\x81\x20", "expat map"),
    ("windows-31j", "cp932", "windows-31j", "日本語～①", b"\x81\x20", "expat map"),
    ("euc-jp", "euc_jp", "EUC-JP", "日本語のテキスト ｶﾀｶﾅ 丂", b"\xa1\x20", "expat map"),
    ("euc-kr", "euc_kr", "EUC-KR", "한국어 텍스트", b"\xa1\x20", "expat map"),
    ("cp949", "cp949", "CP949", "한국어 똠방각하", b"\x81\x20", "expat map"),
    ("johab", "johab", "Johab", "한국어 텍스트", b"\x84\x20", "expat map"),
    ("big5", "big5", "Big5", "繁體中文文字", b"\xa1\x20", "expat map"),
    ("gb2312", "gb2312", "GB2312", "简体中文文字", b"\xa1\x20", "expat map"),
    ("gbk", "gbk", "GBK", "简体中文 镕", b"\x81\x20", "expat map"),
    ("gb18030", "gb18030", "GB18030", "简体中文 😀 €", b"\x81\x30\x20", "transcoder"),
    ("euc-tw", None, "EUC-TW", "繁體中文", b"\xa1\x20", "transcoder"),
    ("iso-2022-jp", "iso2022_jp", "ISO-2022-JP", "日本語のテキスト", b"\x80", "transcoder"),
    ("koi8-r", "koi8_r", "KOI8-R", "Русский текст", None, "single-byte table"),
    ("koi8-u", "koi8_u", "KOI8-U", "Українська мова", None, "expat map (iconv)"),
    ("ibm866", "cp866", "IBM866", "Русский текст", None, "expat map (iconv)"),
    ("ibm855", "cp855", "IBM855", "Русский текст", None, "expat map (iconv)"),
    ("x-mac-cyrillic", "mac_cyrillic", "x-mac-cyrillic", "Русский текст", None, "expat map (iconv)"),
    ("macintosh", "mac_roman", "macintosh", "Café crème ƒ", None, "expat map (iconv)"),
    ("tis-620", "tis_620", "TIS-620", "ภาษาไทย", b"\xff", "expat map (iconv)"),
    ("utf-32le", "utf-32-le", None, "UTF-32 текст 😀", b"\x00\x00\x11\x00", "transcoder"),
    ("utf-32be", "utf-32-be", None, "UTF-32 текст 😀", b"\x00\x11\x00\x00", "transcoder"),
    ("utf-32-bom", "utf-32", None, "UTF-32 текст 😀", None, "transcoder"),
]

# Sequences where the platform's iconv (glibc 2.36) and Python's codecs read differently,
# found by Scripts/compare-iconv-tables.py: each document holds them, separated by
# spaces, and must read as the published mapping table says, which is not always Python's
# codec. (file stem, declared name, path, [(bytes, what the table reads, why)]); see the
# TextAndWhitespace article's Encodings section.
TABLE_FIXTURES = [
    ("gb18030-table", "GB18030", "transcoder", [
        # GB 18030-2005 swapped these two; Python's codec keeps GB 18030-2000.
        (b"\xa8\xbc", "\u1e3f", "2005: U+1E3F (Python: U+E7C7, as in 2000)"),
        (b"\x81\x35\xf4\x37", "\ue7c7", "2005: U+E7C7 (Python: U+1E3F, as in 2000)"),
        # GB 18030-2022 moved eighteen characters out of the Private Use Area; glibc agrees.
        (b"\xa6\xd9", "\ufe10", "2022: U+FE10 (Python: U+E78D, as in 2005)"),
        (b"\xfe\x59", "\u9fb4", "2022: U+9FB4 (Python: U+E81E, as in 2005)"),
        # Their four-byte sequences of 2005 still read as those characters (UTC, WHATWG);
        # glibc rejects them.
    ] + [(bytes.fromhex(h), chr(0x9FB4 + i), "2005 four-byte form, read as the character (glibc: invalid)")
         for i, h in enumerate(["82359037", "82359038", "82359039", "82359130", "82359131", "82359132", "82359133",
                                "82359134"])]
      + [(bytes.fromhex(h), chr(0xFE10 + i), "2005 four-byte form, read as the character (glibc: invalid)")
         for i, h in enumerate(["84318236", "84318237", "84318238", "84318239", "84318330", "84318331", "84318332",
                                "84318333", "84318334", "84318335"])]
      + [(bytes.fromhex(h), chr(c), "kept in the Private Use Area by 2022 (glibc: an ideograph beyond the BMP)")
         for h, c in [("fe51", 0xE816), ("fe52", 0xE817), ("fe53", 0xE818), ("fe6c", 0xE831), ("fe76", 0xE83B),
                      ("fe91", 0xE855)]]),
    ("euc-jp-table", "EUC-JP", "expat map", [
        (b"\x8f\xa2\xb7", "~", "JIS X 0212 0x2237 is TILDE, U+007E (glibc: U+FF5E)"),
        (b"\xa4\xa2", "\u3042", "agreed: U+3042"),
    ]),
    # Where iconv follows the standard and Python's codec does not, iconv's reading stays.
    ("big5-table", "Big5", "expat map", [
        (b"\xa1\x45", "\u2027", "Big5-2003 and WHATWG: U+2027 (Python: U+2022, Unicode's withdrawn BIG5.TXT)"),
        (b"\xa1\xc2", "\u00af", "Big5-2003: U+00AF (Python: U+203E)"),
        (b"\xa2\x44", "\uffe5", "Big5-2003: U+FFE5 (Python: U+00A5)"),
        (b"\xa3\xe1", "\u20ac", "Big5-2003: the euro sign (Python: invalid)"),
        (b"\xf9\xf9", "\u2550", "Big5-2003's ETEN box drawing (Python: invalid)"),
    ]),
    ("euc-kr-table", "EUC-KR", "expat map", [
        (b"\xa2\xe8", "\u327e", "KS X 1001:2002 (Python: invalid)"),
        (b"\xa4\xd4", "\u3164", "KS X 1001: HANGUL FILLER (Python: invalid)"),
    ]),
    ("gbk-table", "GBK", "expat map", [
        (b"\x80", "\u20ac", "Microsoft's CP936: the euro sign (Python: invalid)"),
    ]),
]


def document(declared, text, title_tail=""):
    head = f'<?xml version="1.0" encoding="{declared}"?>\n' if declared else ""
    return head, f'<doc>\n  <title>{text}', f'{title_tail}</title>\n  <body note="{text}">{text} and {text}</body>\n</doc>\n'


def encode(codec, stem, s, first):
    if codec is None:
        # EUC-TW: Python has no codec; encode with the system's iconv.
        import subprocess
        return subprocess.run(["iconv", "-f", "UTF-8", "-t", "EUC-TW"], input=s.encode(), capture_output=True,
                              check=True).stdout
    if codec == "utf-32" and not first:
        return s.encode("utf-32-le")  # the byte order mark only at the start
    return s.encode(codec)


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = []
    readme = ["# Encoding fixtures", "",
              "Generated by `Scripts/generate-encoding-fixtures.py` from Python's codecs (EUC-TW from iconv); do not edit.",
              "Each document has the same shape (`<doc><title>TEXT</title><body note=\"TEXT\">TEXT and TEXT</body></doc>`"
              " over five lines); each `-invalid` twin holds bad bytes in `<title>` after the text, at line 3"
              " (2 without a declaration), column 10 + the text's length.", "",
              "| file | encoding | path | content |", "|---|---|---|---|"]
    for stem, codec, declared, text, invalid, path in ENCODINGS:
        head, before, after = document(declared, text)
        data = encode(codec, stem, head + before, True) + encode(codec, stem, after, False)
        name = f"{stem}.xml"
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        entry = {"file": name, "encoding": declared or stem.upper(), "text": text, "path": path}
        readme.append(f"| `{name}` | {declared or stem.upper()} | {path} | `{text}` |")
        if invalid is not None:
            bad = encode(codec, stem, head + before, True) + invalid + encode(codec, stem, after, False)
            if codec is not None:
                try:
                    bad.decode(codec)
                    raise SystemExit(f"{stem}: the invalid bytes decode")
                except UnicodeDecodeError:
                    pass
            bad_name = f"{stem}-invalid.xml"
            with open(os.path.join(OUT, bad_name), "wb") as f:
                f.write(bad)
            line = 3 if declared else 2
            entry["invalid"] = {"file": bad_name, "line": line, "column": 10 + len(text)}
            readme.append(f"| `{bad_name}` | {declared or stem.upper()} | {path} | invalid bytes `{invalid.hex(' ')}`"
                          f" at line {line}, column {10 + len(text)} |")
        manifest.append(entry)
    readme += ["", "The `-table` documents hold, separated by spaces, the sequences where glibc's iconv and Python's"
               " codecs read differently; each reads as the published mapping table says"
               " (`Scripts/compare-iconv-tables.py` lists the differences, the TextAndWhitespace article's Encodings section the choices):", "",
               "| file | encoding | path | sequences |", "|---|---|---|---|"]
    for stem, declared, path, sequences in TABLE_FIXTURES:
        head, before, after = document(declared, "TEXT")
        raw = b" ".join(sequence for sequence, _, _ in sequences)
        text = " ".join(character for _, character, _ in sequences)
        before_bytes, after_bytes = before.replace("TEXT", "").encode("ascii"), after.encode("ascii")
        # The text appears in the title, the attribute and the body twice, as in every document.
        data = head.encode("ascii") + before_bytes + raw + after_bytes.replace(b"TEXT", raw)
        name = f"{stem}.xml"
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        manifest.append({"file": name, "encoding": declared, "text": text, "path": path})
        listed = "; ".join(f"`{sequence.hex(' ')}` → U+{ord(character):04X}: {why}"
                           for sequence, character, why in sequences)
        readme.append(f"| `{name}` | {declared} | {path} | {listed} |")
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, "README.md"), "w") as f:
        f.write("\n".join(readme) + "\n")


if __name__ == "__main__":
    main()
