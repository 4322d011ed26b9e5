#!/usr/bin/env python3
"""lxml's incremental writer (etree.xmlfile) writing the writing benchmark's records.

  python3 Scripts/lxml_write.py zoo|osm|wiki RECORDS FILE

The records are BenchmarkDocuments' WrittenRecords, computed the same way; each record is
built as an element and written with xf.write, as lxml's documentation teaches for large
outputs. Prints the same line as the Swift writers.
"""
import sys

from lxml import etree

KINDS = ["cat", "dog", "lion", "emu", "yak"]
PARAGRAPH = ("'''Lorem''' ipsum [[dolor]] sit amet, {{cite|a=1}} <ref>consectetur & \"adipiscing\"</ref> elit; ") * 20


def text_element(name, text):
    element = etree.Element(name)
    element.text = text
    return element


def write_zoo(xf, records):
    with xf.element("zoo"):
        with xf.element("animals"):
            for index in range(records):
                animal = etree.Element("animal")
                etree.SubElement(animal, "kind").text = KINDS[index % 5]
                nested = etree.SubElement(animal, "nested_nonsense")
                etree.SubElement(nested, "name").text = f"animal {index} & friend <{index % 97}>"
                etree.SubElement(animal, "url").text = f"http://example.org/zoo/{index}?a=1&b={index % 13}"
                xf.write(animal)


def write_osm(xf, records):
    with xf.element("osm", version="0.6"):
        for index in range(records):
            node = etree.Element("node")
            node.set("id", str(1000000 + index))
            node.set("lat", f"{index % 180 - 90}.{1000000 + index * 7919 % 1000000}")
            node.set("lon", f"{index % 360 - 180}.{1000000 + index * 104729 % 1000000}")
            node.set("version", str(1 + index % 9))
            node.set("user", f"mapper{index % 1000}")
            if index % 4 == 0:
                etree.SubElement(node, "tag", k="highway", v="residential")
                etree.SubElement(node, "tag", k="name", v=f"Street {index} \"Nord\" & S\u00fcd")
            xf.write(node)


def write_wiki(xf, records):
    with xf.element("mediawiki"):
        for index in range(records):
            page = etree.Element("page")
            etree.SubElement(page, "title").text = f"Page {index} & co"
            etree.SubElement(page, "ns").text = "0"
            etree.SubElement(page, "id").text = str(index)
            revision = etree.SubElement(page, "revision")
            etree.SubElement(revision, "id").text = str(10000000 + index)
            etree.SubElement(revision, "timestamp").text = f"2024-01-{10 + index % 19}T12:{10 + index % 50}:00Z"
            etree.SubElement(revision, "text").text = PARAGRAPH + str(index)
            xf.write(page)


def main():
    shape, records, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with etree.xmlfile(path, encoding="utf-8") as xf:
        xf.write_declaration()
        {"zoo": write_zoo, "osm": write_osm, "wiki": write_wiki}[shape](xf, records)
    print(f"write {shape} records={records}")


if __name__ == "__main__":
    main()
