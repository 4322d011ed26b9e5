#!/usr/bin/env python3
"""Reads generated documents of several megabytes with `saxdispatch` on one, two and three
threads and checks that every output is the same, byte for byte: standard output, standard
error and the exit status of `extract` (rows, and records as XML), `check`, `stats` and
`paths`.

    python3 Scripts/parallel-differential.py [--seeds 20] [--first 1] [--size-mib 1-24] [--with sections]

The unit tests read small documents in ranges of a few bytes; this reads documents large
enough for the tool's own ranges (about 1 MiB each), so that cuts are found by looking
ahead and many ranges are in flight. Each document draws a few of these at random: a
record tag inside comments, CDATA sections and processing instructions; line feeds,
carriage returns or both; a byte order mark; multi-byte characters and long lines;
namespace prefixes rebound on a wrapper between records, default namespaces and
`xml:space`, `xml:lang`; records in sections of 256 KiB to 6 MiB, each binding a prefix
anew (where a cut found ahead fails and the ranges are framed again); an internal subset
with entities (one that expands to a record) and an attribute default for the record (in
some documents only); a record larger than a range; records nested in records and at
other depths; text between records; elements whose names begin with the
record's; and one malformed byte sequence somewhere after the first quarter.

Prints one line per document (its seed, size, what it drew, the first run's exit status,
and how many cores the rows took on two threads, on an idle machine about 1 when the
document was read sequentially from its start or soon after it, as one whose internal
subset declares an entity or an attribute default is) and exits 1 on any difference, keeping the document and the outputs in --keep.
`stats` lines that measure the run (elapsed, throughput, peak memory) are left out of the
comparison. SAXDISPATCH names the executable (default: the package's release build).
"""

import argparse
import os
import random
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("SAXDISPATCH", os.path.join(HERE, "..", ".build", "release", "saxdispatch"))

FEATURES = [
    "comments", "cdata", "instructions", "namespaces", "space", "large-record", "error", "text-between",
    "nested", "multibyte", "byte-order-mark", "deep", "character-references", "long-lines", "indentation",
    "lookalike-names", "default-namespaces", "sections",
]
# A document whose internal subset declares an entity or an attribute default is read in
# one parse (the amplification limits count from its first byte): drawn less often, so
# that most documents are read on the threads.
SUBSET_FEATURES = ["entities", "markup-entity", "attribute-default"]

COMMANDS = [
    ["extract", "--record", "rec", "--field", "id=@id", "--field", "a", "--field", "whole=string(.)",
     "--field", "def=@def:string?", "--on-error", "skip"],
    ["extract", "--record", "rec", "--format", "xml"],
    ["extract", "--record", "p:b", "--format", "xml"],
    ["check"],
    ["stats"],
    ["paths"],
]

MEASURED = (b"elapsed", b"throughput", b"peak memory")


def document(seed, size, wanted=()):
    """The bytes of document `seed`, about `size` bytes, and the features it drew (with the
    `wanted` ones)."""
    draw = random.Random(seed)
    features = set(draw.sample(FEATURES, k=draw.randint(2, 8))) | set(wanted)
    if draw.random() < 0.15:
        features |= set(draw.sample(SUBSET_FEATURES, k=draw.randint(1, 3)))
    endings = draw.choice(["\n", "\r\n", "\r", "\n", "mixed"])

    def newline():
        return draw.choice(["\n", "\r\n", "\r"]) if endings == "mixed" else endings

    out = []
    if "byte-order-mark" in features:
        out.append("\ufeff")
    out.append('<?xml version="1.0" encoding="UTF-8"?>' + newline())
    if features & {"entities", "markup-entity", "attribute-default"}:
        subset = "<!DOCTYPE root [" + newline() + '<!ENTITY e "ent&#233;text">' + newline()
        if "markup-entity" in features:
            subset += "<!ENTITY m \"<rec id='m'><a>from an entity</a></rec>\">" + newline()
        if "attribute-default" in features:
            subset += '<!ATTLIST rec def CDATA "dflt">' + newline()
        out.append(subset + "]>" + newline())
    out.append('<root xmlns:p="urn:one"' + (' xml:space="preserve"' if "space" in features else "") + ">" + newline())
    count = 0
    written = 0
    groups = 0
    error_at = draw.randint(size // 4, size) if "error" in features else None
    # With "sections", every record is in a section of 256 KiB to 6 MiB that binds `p` anew:
    # the elements around the records change every few ranges.
    sections = 0
    section_left = 0
    while written < size:
        if "sections" in features and section_left <= 0:
            if sections:
                out.append("</section>" + newline())
            sections += 1
            section_left = draw.randint(256 << 10, 6 << 20)
            out.append('<section n="%d" xmlns:p="urn:s%d">' % (sections, sections) + newline())
        group = None
        if "namespaces" in features and draw.random() < 0.01:
            groups += 1
            language = ' xml:lang="l%d"' % groups if draw.random() < 0.5 else ""
            group = '<group xmlns:p="urn:g%d"%s>' % (groups, language)
        records = []
        for _ in range(draw.randint(1, 20)):
            count += 1
            text = draw.choice(["plain text", "naïve café 東京", "a &amp; b", "x" * draw.randint(1, 300)])
            if "character-references" in features and draw.random() < 0.3:
                text += "&#x4E2D;&lt;rec&gt;"
            if "entities" in features and draw.random() < 0.2:
                text += "&e;"
            parts = ["<a>%s</a>" % text]
            if "comments" in features and draw.random() < 0.3:
                parts.append('<!-- <rec id="c%d"><a>no</a></rec> -->' % count)
            if "cdata" in features and draw.random() < 0.3:
                parts.append('<![CDATA[<rec id="d%d">]]><![CDATA[ ]]]]><![CDATA[>]]>' % count)
            if "instructions" in features and draw.random() < 0.2:
                parts.append('<?pi <rec id="p%d">?>' % count)
            if "namespaces" in features and draw.random() < 0.2:
                parts.append('<p:b xmlns:q="urn:q%d">pb</p:b>' % (count % 5))
            if "nested" in features and draw.random() < 0.05:
                parts.append('<rec id="inner%d"><a>inner</a></rec>' % count)
            if "lookalike-names" in features and draw.random() < 0.3:
                parts.append(draw.choice([
                    "<recx>l</recx>", "<rec-x/>", "<rec.x>l</rec.x>", '<rec:x xmlns:rec="urn:r">l</rec:x>',
                    "<p:rec>pl</p:rec>"]))
            if "multibyte" in features:
                parts.append("<u>%s</u>" % draw.choice(["Ωμέγα", "😀 emoji", "Ğü", "日本語テキスト"]))
            if "large-record" in features and draw.random() < 0.0005:
                parts.append("<big>" + ("y" * 1000 + newline()) * 2200 + "</big>")
            separator = "" if "long-lines" in features else newline()
            namespaced = ' p:x="1"' if "namespaces" in features and draw.random() < 0.3 else ""
            record = '<rec id="%d"%s>%s%s%s</rec>' % (count, namespaced, separator, separator.join(parts), separator)
            if "default-namespaces" in features and draw.random() < 0.05:
                record = record.replace("<rec ", '<rec xmlns="urn:d%d" ' % (count % 3), 1)
            if "markup-entity" in features and draw.random() < 0.002:
                record += "&m;"
            if "lookalike-names" in features and draw.random() < 0.05:
                record += "<recz>between</recz>"
            if "deep" in features:
                record = "<w><v>" + record + "</v></w>"
            if "indentation" in features:
                record = "  " + record
            if "text-between" in features and draw.random() < 0.1:
                record += "between"
            records.append(record + newline())
        body = "".join(records)
        if group:
            body = group + newline() + body + "</group>" + newline()
        if error_at is not None and written + len(body) >= error_at:
            at = draw.randint(0, len(body) - 1)
            # An unpaired surrogate's bytes are not UTF-8: the parse stops there.
            broken = draw.choice(["<", "&bogus;", "</x>", "\udcff", '<rec id="e"'])
            body = body[:at] + broken + body[at:]
            error_at = None
        out.append(body)
        written += len(body)
        section_left -= len(body)
    if sections:
        out.append("</section>" + newline())
    out.append("</root>" + newline())
    return "".join(out).encode("utf-8", "surrogatepass"), sorted(features)


def run(command, path, jobs):
    """The run's output, error output and exit status, and the CPU time it took ÷ its wall
    time (above 1 when the document was read on more than one thread)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run([TOOL] + command + ["--jobs", str(jobs), path], capture_output=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    stdout = result.stdout
    if command[0] == "stats":
        stdout = b"\n".join(line for line in stdout.split(b"\n") if not line.startswith(MEASURED))
    return (stdout, result.stderr, result.returncode), cpu / max(wall, 1e-6)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=20, help="how many documents (default 20)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--size-mib", default="1-24", help="the documents' sizes, MIN-MAX MiB (default 1-24)")
    parser.add_argument("--with", dest="wanted", action="append", default=[], choices=FEATURES + SUBSET_FEATURES,
                        help="a feature every document has, besides those it draws (may be repeated)")
    parser.add_argument("--keep", default=os.path.join(tempfile.gettempdir(), "parallel-differential"),
                        help="where a document and the outputs that differ are kept")
    arguments = parser.parse_args()
    if not os.access(TOOL, os.X_OK):
        sys.exit("%s is missing: swift build -c release --product saxdispatch (or set SAXDISPATCH)" % TOOL)
    low, high = (float(part) for part in arguments.size_mib.split("-"))
    work = tempfile.mkdtemp()
    failed = False
    try:
        for seed in range(arguments.first, arguments.first + arguments.seeds):
            size = int(random.Random(-seed).uniform(low, high) * (1 << 20))
            data, features = document(seed, size, arguments.wanted)
            path = os.path.join(work, "document-%d.xml" % seed)
            with open(path, "wb") as file:
                file.write(data)
            differences = []
            status = None
            cores = None
            for index, command in enumerate(COMMANDS):
                one, _ = run(command, path, 1)
                status = one[2] if status is None else status
                for jobs in (2, 3):
                    other, used = run(command, path, jobs)
                    cores = used if cores is None else cores
                    if other != one:
                        differences.append((index, jobs, one, other))
            print("seed %d: %d bytes, %s: %s (first run's exit %d; rows on 2 threads used %.1f cores)" % (
                seed, len(data), " ".join(features), "DIFFERENT" if differences else "same", status, cores), flush=True)
            if differences:
                failed = True
                os.makedirs(arguments.keep, exist_ok=True)
                shutil.copy(path, arguments.keep)
                for index, jobs, one, other in differences:
                    command = COMMANDS[index]
                    name = "seed-%d-command-%d-jobs-%d" % (seed, index + 1, jobs)
                    for label, output in (("jobs-1", one), ("jobs-%d" % jobs, other)):
                        with open(os.path.join(arguments.keep, "%s.%s.out" % (name, label)), "wb") as file:
                            file.write(output[0] + b"\n--- standard error ---\n" + output[1] + b"\nexit %d\n" % output[2])
                    print("  %s --jobs %d differs from --jobs 1 (kept in %s)" % (
                        shlex.join(command), jobs, arguments.keep), flush=True)
            os.remove(path)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
