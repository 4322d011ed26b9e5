"""The zoo's Japanese twins in other encodings against UTF-8 (--encodings)."""

import os
import statistics
import subprocess

from .common import BIN, TASKS, document, instructions, measure, paired_ratio, size_label, table_of


# The encodings of the zoo's twins (--encodings), each the same document as the UTF-8 one,
# and how SAXDispatch reads them.
ENCODINGS = {"Shift_JIS": "expat's map", "EUC-JP": "expat's map", "GB18030": "transcoder"}


# How often the twins' names, kinds and words are Japanese, in percent (--japanese).
JAPANESE = [90, 10]


# The bound on a transcoded document's cost against the same document in UTF-8.
ENCODING_BOUND = 1.5


def non_ascii_share(path):
    """The share of a UTF-8 document's bytes and of its characters that are not ASCII."""
    total = non_ascii = lead = 0
    with open(path, "rb") as file:
        while chunk := file.read(1 << 24):
            total += len(chunk)
            high = chunk.translate(None, bytes(range(0x80)))
            non_ascii += len(high)
            lead += len(high.translate(None, bytes(range(0x80, 0xC0))))
    characters = total - non_ascii + lead
    return non_ascii / total, lead / characters


def encodings_run(sizes, japanese, tasks, rounds, callgrind_max):
    """The zoo with Japanese text in Shift_JIS, EUC-JP and GB18030 against its UTF-8 twin.

    For each size (of the UTF-8 twin), share of Japanese and task: median CPU time, and
    callgrind instructions on the files no larger than `callgrind_max`, each divided by
    SAXDispatch's on the UTF-8 twin and by C + expat's on the UTF-8 twin. CPU ratios are
    paired: the median over the rounds of each run divided by the other's in the same
    round. Returns whether every contender printed the same line and every ratio against
    the UTF-8 twin is within ENCODING_BOUND."""
    rows = []
    over = []
    disagreements = []
    saxdispatch = os.path.join(BIN, "contender-saxdispatch")
    for size in sizes:
        for percent in japanese:
            twins = {encoding: document("zoo", size, percent, encoding) for encoding in ["UTF-8"] + list(ENCODINGS)}
            byte_share, character_share = non_ascii_share(twins["UTF-8"])
            for task in tasks:
                jobs = [("C + expat", [os.path.join(BIN, "contender-c-expat"), task, "zoo", twins["UTF-8"]])]
                jobs += [(encoding, [saxdispatch, task, "zoo", path]) for encoding, path in twins.items()]
                results = measure(jobs, rounds, count_mallocs=False)
                counts = {}
                if size <= callgrind_max:
                    for key, command in jobs:
                        name = "c-expat" if key == "C + expat" else "saxdispatch"
                        counts[key] = instructions(name, command[1:])
                lines = {results[key]["line"] for key, _ in jobs}
                agreed = len(lines) == 1 and all(results[key]["error"] is None for key, _ in jobs)
                if not agreed:
                    disagreements.append((size, percent, task, {key: results[key]["line"] or results[key]["error"]
                                                                for key, _ in jobs}))
                for key, _ in jobs:
                    entry = results[key]
                    if entry["error"] is not None:
                        rows.append([size_label(size), f"{percent}%", task, key, "-", "-", "-", "-", "-", "-", "-",
                                     f"failed: {entry['error'][:60]}"])
                        continue
                    encoding = "UTF-8" if key == "C + expat" else key
                    count = counts.get(key)
                    def instructions_ratio(base):
                        return f"{count / counts[base]:.2f}" if count and counts.get(base) else "-"
                    cpu_twin = paired_ratio(results, key, "UTF-8")
                    cpu_c = paired_ratio(results, key, "C + expat")
                    rows.append([
                        size_label(size), f"{percent}% ({character_share:.0%} / {byte_share:.0%})", task,
                        "C + expat" if key == "C + expat" else f"SAXDispatch, {key}",
                        f"{os.path.getsize(twins[encoding]) / 1e6:.1f}",
                        "expat" if encoding == "UTF-8" else ENCODINGS[key],
                        f"{statistics.median(entry['cpu']):.3f}", f"{cpu_twin:.2f}", f"{cpu_c:.2f}",
                        instructions_ratio("UTF-8"), instructions_ratio("C + expat"),
                        "agrees" if agreed else "DISAGREES",
                    ])
                    if key in ENCODINGS:
                        for what, ratio in (("CPU", cpu_twin), ("instructions", count / counts["UTF-8"]
                                                                  if count and counts.get("UTF-8") else None)):
                            if ratio is not None and ratio > ENCODING_BOUND:
                                over.append(f"{size_label(size)}, {percent}% Japanese, {task}, {key}: {what} {ratio:.2f}x")
    print("The zoo with Japanese names, kinds and words (the given share of them; in brackets the share of the")
    print("UTF-8 twin's characters / bytes that are not ASCII) in each encoding; ratios divide by SAXDispatch on the")
    print(f"UTF-8 twin ('÷ UTF-8') and by C + expat on the UTF-8 twin ('÷ C'). CPU: median of {rounds} rounds (user + sys),")
    print(f"ratios paired by round; instructions: callgrind, on the files up to {size_label(callgrind_max)}.")
    print(table_of(["size (UTF-8)", "Japanese", "task", "reader", "MB", "read by", "CPU s", "CPU ÷ UTF-8", "CPU ÷ C",
                    "instr ÷ UTF-8", "instr ÷ C", "result"], rows))
    for size, percent, task, lines in disagreements:
        print(f"\nDisagree: {size_label(size)}, {percent}% Japanese, {task}:")
        for key, line in lines.items():
            print(f"    {key}: {line}")
    if over:
        print(f"\nAbove {ENCODING_BOUND}x the UTF-8 twin:")
        for line in over:
            print(f"  {line}")
    else:
        print(f"\nEvery transcoded point is within {ENCODING_BOUND}x the UTF-8 twin in CPU time and instructions.")
    return not disagreements and not over


def encodings_agree(size=256 * 1024):
    """Checks, on small twins, that SAXDispatch prints C + expat's line on the UTF-8 twin in
    every encoding and at each share of Japanese (the smoke run)."""
    ok = True
    for percent in JAPANESE:
        for task in TASKS:
            expected = subprocess.run([os.path.join(BIN, "contender-c-expat"), task, "zoo",
                                       document("zoo", size, percent, "UTF-8")],
                                      capture_output=True, text=True).stdout.strip()
            for encoding in ["UTF-8"] + list(ENCODINGS):
                result = subprocess.run([os.path.join(BIN, "contender-saxdispatch"), task, "zoo",
                                         document("zoo", size, percent, encoding)], capture_output=True, text=True)
                line = result.stdout.strip()
                if not expected or line != expected:
                    print(f"zoo, {percent}% Japanese, {encoding}, {task}: {line or result.stderr.strip()!r}, "
                          f"C + expat on UTF-8: {expected!r}")
                    ok = False
    print("encoding twins agree with C + expat" if ok else "encoding twins DISAGREE")
    return ok
