"""Extract routed by path pattern: the variants with skipping and many patterns (--routing)."""

import os
import subprocess

from .common import BIN, MIB, TASKS, document, instructions, measure, paired_ratio, table_of


# Variants that do not run zoo-ns: their Decodable models are written for the namespace-free shapes.
ROUTING_SKIPPED_SHAPES = {"decodable": {"zoo-ns"}, "async": {"zoo-ns"}}


ROUTING_VARIANTS = [
    ("names", None, "per-element names, ancestors checked by hand (README quick start)"),
    ("paths", "paths", "one path pattern per field"),
    ("skip", "skip", "paths, and each zoo animal's <junk> skipped"),
    ("paths50", "paths50", "paths plus 46 patterns that match nothing"),
    ("object", "object", "paths, declared by a handler object (struct methods)"),
    ("records", "records", "typed records (XMLRecord), skipping what no field names"),
    ("decodable", "decodable", "Decodable models (XMLRecordDecoder), capturing what the types read"),
    ("async", "async", "the same models from an XMLStream (for try await, back-pressure)"),
]


def routing_run(shapes, size_mib, rounds):
    """The extract task routed by path pattern: instructions per byte on 10 MiB files and
    median CPU time on SIZE_MIB files, each as a ratio to C + expat, with skipping and
    with 50 registered patterns compared to the plain path variant."""
    rows = []
    for shape in shapes:
        small = document(shape, 10 * MIB)
        size = os.path.getsize(small)
        base = instructions("c-expat", ["extract", shape, small])
        variants = [entry for entry in ROUTING_VARIANTS if shape not in ROUTING_SKIPPED_SHAPES.get(entry[0], ())]
        counts = {}
        for label, variant, _ in variants:
            counts[label] = instructions("saxdispatch", ["extract", shape, small] + ([variant] if variant else []))
        big = document(shape, size_mib * MIB)
        jobs = [("c-expat", [os.path.join(BIN, "contender-c-expat"), "extract", shape, big])]
        for label, variant, _ in variants:
            jobs.append((label, [os.path.join(BIN, "contender-saxdispatch"), "extract", shape, big] + ([variant] if variant else [])))
        results = measure(jobs, rounds)
        lines = {results[key]["line"] for key, _ in jobs}
        for label, _, _ in variants:
            rows.append([
                shape, label,
                f"{counts[label] / size:.1f}" if counts[label] else "-",
                f"{counts[label] / base:.2f}" if counts[label] and base else "-",
                f"{counts[label] / counts['paths']:.3f}" if counts[label] and counts["paths"] else "-",
                f"{paired_ratio(results, label, 'c-expat'):.2f}", f"{paired_ratio(results, label, 'paths'):.3f}",
                "agrees" if len(lines) == 1 else "DISAGREES",
            ])
    print(f"extract; instructions on 10 MiB files; CPU time on {size_mib} MiB files: the median over {rounds} rounds")
    print("of each run's CPU time divided by the other contender's in the same round")
    for label, _, meaning in ROUTING_VARIANTS:
        skipped = ROUTING_SKIPPED_SHAPES.get(label)
        print(f"  {label}: {meaning}" + (f" (not on {', '.join(sorted(skipped))})" if skipped else ""))
    print(table_of(
        ["shape", "variant", "instr/byte", "instr ÷ C", "instr ÷ paths", "CPU ÷ C", "CPU ÷ paths", "result"], rows))


def routing_variants_agree(shapes):
    """Checks that every variant (routing, handler objects) prints C + expat's line on the smoke files,
    and that C + expat prints the same lines with namespace processing on."""
    ok = True
    for shape in shapes:
        path = document(shape, 256 * 1024)
        expected = subprocess.run([os.path.join(BIN, "contender-c-expat"), "extract", shape, path],
                                  capture_output=True, text=True).stdout.strip()
        for task in TASKS:
            plain, namespaced = (subprocess.run([os.path.join(BIN, "contender-c-expat"), task, shape, path] + variant,
                                                capture_output=True, text=True).stdout.strip()
                                 for variant in ([], ["namespaces"]))
            if plain != namespaced:
                print(f"C + expat with namespaces on {shape} {task}: {namespaced!r}, without: {plain!r}")
                ok = False
        for label, variant, _ in ROUTING_VARIANTS:
            if shape in ROUTING_SKIPPED_SHAPES.get(label, ()):
                continue
            command = [os.path.join(BIN, "contender-saxdispatch"), "extract", shape, path] + ([variant] if variant else [])
            line = subprocess.run(command, capture_output=True, text=True).stdout.strip()
            if line != expected:
                print(f"routing variant {label} on {shape}: {line!r}, C + expat: {expected!r}")
                ok = False
        counted = [subprocess.run([os.path.join(BIN, f"contender-{name}"), "count", shape, path] + variant,
                                  capture_output=True, text=True).stdout.strip()
                   for name, variant in (("c-expat", []), ("saxdispatch", ["object"]))]
        if counted[0] != counted[1]:
            print(f"count through a handler object on {shape}: {counted[1]!r}, C + expat: {counted[0]!r}")
            ok = False
    print("variants agree with C + expat" if ok else "variants DISAGREE")
    return ok
