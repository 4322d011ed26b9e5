"""Instructions per input byte, and before against after (--callgrind, --before)."""

import os

from .common import MIB, NAMESPACE_BASELINE_SHAPES, document, instructions, table_of
from .routing import ROUTING_SKIPPED_SHAPES


# The SAXDispatch variants compared before and after a change (--before): per task, the
# contender's variants that exercise different layers (handlers, handler objects, typed
# records, the decoder).
BEFORE_AFTER_VARIANTS = {"count": [("closures", []), ("object", ["object"])],
                         "extract": [("closures", []), ("object", ["object"]), ("records", ["records"]),
                                     ("decodable", ["decodable"])]}


def before_after_run(shapes, tasks, before, size=10 * MIB):
    """Instructions of every SAXDispatch variant in this build and in `before` (another
    checkout's Benchmarks/.build/release), on the same documents in the same run."""
    rows = []
    worst = 0.0
    for shape in shapes:
        path = document(shape, size)
        size = os.path.getsize(path)
        for task in tasks:
            for label, variant in BEFORE_AFTER_VARIANTS.get(task, []):
                if label == "decodable" and shape in ROUTING_SKIPPED_SHAPES["decodable"]:
                    continue
                old = instructions("saxdispatch", [task, shape, path] + variant, bin_directory=before)
                new = instructions("saxdispatch", [task, shape, path] + variant)
                if old is None or new is None:
                    continue
                worst = max(worst, abs(new / old - 1))
                rows.append([shape, task, label, f"{old / size:.2f}", f"{new / size:.2f}", f"{new / old:.4f}"])
    print(f"SAXDispatch before ({before}) and after (this build): instructions per input byte")
    print(table_of(["shape", "task", "variant", "before instr/byte", "after instr/byte", "after ÷ before"], rows))
    print(f"largest change: {worst:.2%}\n")


def callgrind_run(shapes, tasks, before=None, size=10 * MIB):
    """Instructions per input byte (valgrind --tool=callgrind) on documents of `size` bytes.

    Instruction counts do not depend on what else the machine is doing, so these
    ratios are the stable figure to compare changes by. Each row divides by one C
    baseline: C + expat without namespace processing, or with it (zoo-ns always; for
    the shapes in NAMESPACE_BASELINE_SHAPES a second row), since SAXDispatch processes
    namespaces by default and expat's resolution of them is part of its cost.
    """
    rows = []
    notes = []
    for shape in shapes:
        path = document(shape, size)
        size = os.path.getsize(path)
        for task in tasks:
            counts = {}
            for key, name, variant in (("c", "c-expat", []), ("closures", "saxdispatch", []),
                                       ("object", "saxdispatch", ["object"])):
                count = instructions(name, [task, shape, path] + variant)
                if count is not None:
                    counts[key] = count
            if shape in NAMESPACE_BASELINE_SHAPES:
                count = instructions("c-expat", [task, shape, path, "namespaces"])
                if count is not None:
                    counts["c-ns"] = count
            if not all(key in counts for key in ("c", "closures", "object")):
                continue
            baselines = [("expat, namespaces" if shape == "zoo-ns" else "expat", counts["c"])]
            if "c-ns" in counts:
                baselines.append(("expat, namespaces", counts["c-ns"]))
            for label, base in baselines:
                rows.append([
                    shape, task, label, f"{base / size:.1f}", f"{counts['closures'] / size:.1f}",
                    f"{counts['closures'] / base:.2f}", f"{counts['object'] / size:.1f}",
                    f"{counts['object'] / base:.2f}",
                ])
            if "c-ns" in counts and counts["closures"] > counts["c"]:
                expat_share = counts["c-ns"] - counts["c"]
                extra = counts["closures"] - counts["c"]
                notes.append(
                    f"{shape} {task}: expat's namespace processing costs {expat_share / size:.2f} instr/byte "
                    f"({expat_share / counts['c']:.1%} of C + expat's instructions), "
                    f"{expat_share / extra:.0%} of the {extra / size:.2f} instr/byte SAXDispatch (closures) "
                    f"executes beyond C + expat without it")
    if before:
        before_after_run(shapes, tasks, before, size)
    print("SAXDispatch with closures (the contender's default) and with a handler object (variant 'object';")
    print("for extract, its handlers are routed by path pattern); each ratio divides by the row's C baseline:")
    print("C + expat with namespace processing off ('expat') or on ('expat, namespaces', XML_ParserCreateNS)")
    print(table_of(["shape", "task", "C baseline", "C instr/byte", "closures instr/byte", "ratio",
                    "object instr/byte", "ratio"], rows))
    for note in notes:
        print(note)
