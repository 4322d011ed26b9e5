#!/usr/bin/env python3
"""The WikiFilter example's filter done by lxml, the yardstick its output is compared with.

Keeps, inside the root element, the <page> elements whose <ns> child is NAMESPACE, and
drops every <text> of a <revision>; writes the document to standard output. The root's own
text and what lies between pages are left out, as XMLTransform.keep does.

  python3 Scripts/lxml-wiki-filter.py FILE [NAMESPACE] > out.xml   # needs lxml
"""
import copy
import sys

from lxml import etree

MW = "{http://www.mediawiki.org/xml/export-0.10/}"


def main():
    path = sys.argv[1]
    namespace = sys.argv[2] if len(sys.argv) > 2 else "0"
    tree = etree.parse(path)
    root = tree.getroot()
    kept = [page for page in root.iter(MW + "page") if page.findtext(MW + "ns") == namespace]
    out = etree.Element(root.tag, attrib=dict(root.attrib), nsmap=root.nsmap)
    for page in kept:
        page = copy.deepcopy(page)
        page.tail = None
        for revision in page.iter(MW + "revision"):
            for text in revision.findall(MW + "text"):
                # The text's tail (the white space after it) stays, as in a streaming drop.
                previous = text.getprevious()
                if previous is not None:
                    previous.tail = (previous.tail or "") + (text.tail or "")
                else:
                    revision.text = (revision.text or "") + (text.tail or "")
                revision.remove(text)
        out.append(page)
    sys.stdout.buffer.write(etree.tostring(out, xml_declaration=True, encoding="UTF-8"))


if __name__ == "__main__":
    main()
