#!/usr/bin/env python3
"""Compares the platform's iconv with Python's codecs, the published mapping tables, for
the multi-byte encodings SAXDispatch reads through iconv, and prints every sequence on
which they differ.

For each encoding it decodes every two-byte sequence (lead and trail 0x81-0xFE, EUC-JP's
three-byte JIS X 0212 sequences, and GB18030's four-byte sequences of the Basic
Multilingual Plane) with iconv (through ctypes, the C library's own iconv_open and iconv)
and with Python's codec, and prints a line for each sequence where one decodes and the
other does not, or both decode to different characters:

    GB18030  A8BC  iconv U+1E3F  python U+E7C7

Python's codecs follow the published tables (GB 18030-2005 for GB18030, Microsoft's
CP932, the Unicode consortium's JIS, KS X 1001 and Big5 tables): where iconv differs,
Sources/SAXDispatch/Expat/EncodingTableOverrides.swift says what SAXDispatch reads
instead, and the TextAndWhitespace article's Encodings section why.

Run from anywhere: python3 Scripts/compare-iconv-tables.py [ENCODING...]
"""
import ctypes
import ctypes.util
import sys

libc = ctypes.CDLL(ctypes.util.find_library("iconv") or ctypes.util.find_library("c"), use_errno=True)
libc.iconv_open.restype = ctypes.c_void_p
libc.iconv_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
libc.iconv.restype = ctypes.c_size_t
libc.iconv.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t),
                       ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t)]
libc.iconv_close.argtypes = [ctypes.c_void_p]


class Iconv:
    def __init__(self, name):
        self.handle = libc.iconv_open(b"UTF-8", name.encode())
        if self.handle in (None, ctypes.c_void_p(-1).value):
            raise SystemExit(f"iconv does not know {name}")

    def decode(self, data):
        """The text `data` decodes to whole, or None when it is invalid or incomplete."""
        libc.iconv(self.handle, None, None, None, None)
        source = ctypes.create_string_buffer(data, len(data))
        source_pointer = ctypes.c_char_p(ctypes.addressof(source))
        source_left = ctypes.c_size_t(len(data))
        target = ctypes.create_string_buffer(64)
        target_pointer = ctypes.c_char_p(ctypes.addressof(target))
        target_left = ctypes.c_size_t(64)
        result = libc.iconv(self.handle, ctypes.byref(source_pointer), ctypes.byref(source_left),
                            ctypes.byref(target_pointer), ctypes.byref(target_left))
        if result == ctypes.c_size_t(-1).value or source_left.value != 0:
            return None
        return target.raw[:64 - target_left.value].decode("utf-8")


def python_decode(data, codec):
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        return None


# The bytes that lead a multi-byte sequence, as SAXDispatch's EncodingCatalog reads them.
LEADS = {
    "SHIFT_JIS": list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD)),
    "CP932": list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD)),
    "EUC-JP": [0x8E] + list(range(0xA1, 0xFF)),
    "EUC-KR": list(range(0xA1, 0xFF)),
    "BIG5": list(range(0x81, 0xFF)),
    "GBK": list(range(0x81, 0xFF)),
    "GB18030": list(range(0x81, 0xFF)),
}


def sequences(name):
    """Every sequence to compare for `name`: each byte above ASCII alone, every two-byte
    sequence a lead byte starts, EUC-JP's three-byte sequences and GB18030's four-byte
    sequences of the Basic Multilingual Plane."""
    for byte in range(0x80, 0x100):
        yield bytes([byte])
    for lead in LEADS[name]:
        for trail in range(0x30 if name == "GB18030" else 0x40, 0xFF):
            if name == "GB18030" and trail <= 0x39:
                continue  # the second byte of a four-byte sequence
            yield bytes([lead, trail])
    if name == "EUC-JP":
        for second in range(0xA1, 0xFF):
            for third in range(0xA1, 0xFF):
                yield bytes([0x8F, second, third])
    if name == "GB18030":
        # Four-byte sequences from 0x81308130 up to the end of the BMP (0x8431A439).
        for b1 in range(0x81, 0x85):
            for b2 in range(0x30, 0x3A):
                for b3 in range(0x81, 0xFF):
                    for b4 in range(0x30, 0x3A):
                        yield bytes([b1, b2, b3, b4])


# (iconv name, Python codec)
ENCODINGS = [
    ("GB18030", "gb18030"),
    ("SHIFT_JIS", "shift_jis"),
    ("CP932", "cp932"),
    ("EUC-JP", "euc_jp"),
    ("EUC-KR", "euc_kr"),
    ("BIG5", "big5"),
    ("GBK", "gbk"),
]


def describe(text):
    if text is None:
        return "invalid"
    return " ".join(f"U+{ord(c):04X}" for c in text)


def compare(name, codec):
    converter = Iconv(name)
    differences = []
    for data in sequences(name):
        ours = converter.decode(data)
        theirs = python_decode(data, codec)
        if ours != theirs:
            differences.append((data, ours, theirs))
    return differences


def main():
    wanted = [arg.upper() for arg in sys.argv[1:]]
    for name, codec in ENCODINGS:
        if wanted and name not in wanted:
            continue
        differences = compare(name, codec)
        print(f"== {name} (Python {codec}): {len(differences)} differences")
        for data, ours, theirs in differences:
            print(f"{name:9} {data.hex().upper():8}  iconv {describe(ours):24} python {describe(theirs)}")


if __name__ == "__main__":
    main()
