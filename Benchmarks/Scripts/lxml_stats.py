#!/usr/bin/env python3
"""The `stats` job through lxml's iterparse, as data people write it: a compressed file
opened with Python's own module (gzip, bz2, lzma, zstandard) and parsed element by
element, each element cleared and its earlier siblings deleted so memory stays flat.

  lxml_stats.py FILE     # prints "elements=N attributes=N"
"""
import bz2
import gzip
import lzma
import sys

from lxml import etree


def open_any(path):
    with open(path, "rb") as file:
        magic = file.read(6)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.open(path, "rb")
    if magic.startswith(b"BZh"):
        return bz2.open(path, "rb")
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.open(path, "rb")
    if magic.startswith(b"\x28\xb5\x2f\xfd"):
        import zstandard
        return zstandard.ZstdDecompressor().stream_reader(open(path, "rb"), read_across_frames=True)
    return open(path, "rb")


def main():
    elements = attributes = text = 0
    with open_any(sys.argv[1]) as source:
        for event, element in etree.iterparse(source, events=("start", "end")):
            if event == "start":
                elements += 1
                attributes += len(element.attrib)
                continue
            text += len(element.text or "")
            for child in element:
                text += len(child.tail or "")
            element.clear(keep_tail=True)
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                text += len(parent[0].tail or "")
                del parent[0]
    print(f"elements={elements} attributes={attributes}")


if __name__ == "__main__":
    main()
