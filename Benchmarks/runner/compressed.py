"""Compressed input (`run --compressed`): `saxdispatch stats` reading .gz, .bz2, .zst and .xz
files itself, against the same file through the format's command-line decompressor in a
pipe (`zcat FILE | saxdispatch stats -`), against the uncompressed file, and against the
same job in Python with lxml's iterparse on the format's own module (Scripts/lxml_stats.py).

Wall time, CPU time (user + system of every process of the run) and peak RSS (the largest
process of the run), median and range over the rounds, run in alternating order; each
run's line is checked against the uncompressed parse's element count. Prints the table and the issue's targets:

- .bz2: at least 1.5x faster in wall time than the `bzcat |` pipe;
- .gz and .zst: no slower than their pipes, and within 1.15x of the uncompressed parse;
- peak RSS at most 32 MiB.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys

# (extension, command that compresses to stdout, command that decompresses to stdout)
FORMATS = [
    ("gz", ["gzip", "-6", "-c"], "zcat"),
    ("bz2", ["bzip2", "-9", "-c"], "bzcat"),
    ("zst", ["zstd", "-3", "-q", "-c"], "zstdcat"),
    ("xz", ["xz", "-6", "-c"], "xzcat"),
]
PEAK_RSS_TARGET = 32 << 20


def compressed_copy(path, extension, command):
    """`path` compressed with `command`, made on first use next to it."""
    target = f"{path}.{extension}"
    if not os.path.exists(target):
        partial = target + ".partial"
        with open(path, "rb") as source, open(partial, "wb") as output:
            subprocess.run(command, stdin=source, stdout=output, check=True)
        os.replace(partial, target)
    return target


def python_with_lxml(here):
    """A Python with lxml and zstandard: Benchmarks/.venv, made on first use (PyPI)."""
    venv = os.path.join(here, ".venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "lxml", "zstandard"], check=True)
    return python


def elements_of(line):
    """The element count a run printed (`elements 1,234` from stats, `elements=1234` from lxml)."""
    match = re.search(r"elements[ =]+([\d,]+)", line or "")
    return int(match.group(1).replace(",", "")) if match else None


def compressed_run(here, tool, document, rounds, run_once, table_of, size_label, lxml=True):
    """Measures every variant on `document` and its compressed copies; returns whether all
    agreed with the uncompressed parse."""
    python = python_with_lxml(here) if lxml else None
    lxml_script = os.path.join(here, "Scripts", "lxml_stats.py")
    stats = [tool, "stats", "--progress", "never"]
    variants = [("plain", "saxdispatch stats FILE", stats + [document])]
    if lxml:
        variants.append(("plain", "lxml iterparse", [python, lxml_script, document]))
    for extension, compress, decompressor in FORMATS:
        if shutil.which(compress[0]) is None or shutil.which(decompressor) is None:
            print(f"{extension}: {compress[0]} or {decompressor} missing, skipped")
            continue
        path = compressed_copy(document, extension, compress)
        variants.append((extension, "saxdispatch stats FILE", stats + [path]))
        variants.append((extension, f"{decompressor} FILE | saxdispatch stats -",
                         ["bash", "-c", f'set -o pipefail; {decompressor} "$0" | "$1" stats --progress never -', path, tool]))
        if lxml:
            variants.append((extension, "lxml iterparse", [python, lxml_script, path]))
    results = {index: {"wall": [], "cpu": [], "rss": [], "line": None, "error": None} for index in range(len(variants))}
    for round_index in range(rounds):
        order = list(range(len(variants)))
        if round_index % 2:
            order.reverse()
        for index in order:
            line, cpu, wall, rss, _ = run_once(variants[index][2])
            entry = results[index]
            if line is None:
                entry["error"] = cpu
                continue
            entry["line"] = line
            entry["wall"].append(wall)
            entry["cpu"].append(cpu)
            entry["rss"].append(rss)
    expected = elements_of(results[0]["line"])
    medians = {}
    rows = []
    agreed = True
    for index, (extension, label, _) in enumerate(variants):
        entry = results[index]
        path = document if extension == "plain" else f"{document}.{extension}"
        if entry["error"] or not entry["wall"]:
            agreed = False
            rows.append([extension, label, size_label(os.path.getsize(path)), "-", "-", "-", "-", f"failed: {entry['error'][:60]}"])
            continue
        wall, cpu, rss = statistics.median(entry["wall"]), statistics.median(entry["cpu"]), max(entry["rss"])
        medians[(extension, label)] = (wall, cpu, rss)
        counted = elements_of(entry["line"])
        agrees = counted == expected
        agreed = agreed and agrees
        walls, cpus = entry["wall"], entry["cpu"]
        rows.append([extension, label, f"{os.path.getsize(path) / (1 << 20):.1f} MiB",
                     f"{wall:.2f} s ({min(walls):.2f}–{max(walls):.2f})", f"{cpu:.2f} s ({min(cpus):.2f}–{max(cpus):.2f})",
                     f"{os.path.getsize(document) / wall / 1e6:.0f} MB/s", f"{rss / (1 << 20):.1f} MiB",
                     f"{counted:,} elements" if agrees else f"DISAGREES: {entry['line'][:60]}"])
    print(f"{os.path.basename(document)} ({size_label(os.path.getsize(document))} uncompressed), median of {rounds} rounds;"
          " CPU: every process of the run; MB/s: uncompressed bytes per wall second")
    print(table_of(["format", "run", "file", "wall (range)", "CPU (range)", "MB/s", "peak RSS", "result"], rows))
    print()
    checks = []
    plain = medians.get(("plain", "saxdispatch stats FILE"))
    for extension, _, decompressor in FORMATS:
        native = medians.get((extension, "saxdispatch stats FILE"))
        pipe = medians.get((extension, f"{decompressor} FILE | saxdispatch stats -"))
        lxml_time = medians.get((extension, "lxml iterparse"))
        if not native or not pipe:
            continue
        speedup = pipe[0] / native[0]
        if extension == "bz2":
            checks.append([extension, "pipe wall ÷ native wall", f"{speedup:.2f}", "≥ 1.5", speedup >= 1.5])
        if extension in ("gz", "zst"):
            checks.append([extension, "pipe wall ÷ native wall", f"{speedup:.2f}", "≥ 1.0", speedup >= 1.0])
            if plain:
                slowdown = native[0] / plain[0]
                checks.append([extension, "native wall ÷ uncompressed wall", f"{slowdown:.2f}", "≤ 1.15", slowdown <= 1.15])
        checks.append([extension, "native peak RSS", f"{native[2] / (1 << 20):.1f} MiB", "≤ 32 MiB",
                       native[2] <= PEAK_RSS_TARGET])
        if lxml_time:
            checks.append([extension, "lxml wall ÷ native wall", f"{lxml_time[0] / native[0]:.2f}", "-", None])
    print(table_of(["format", "measure", "value", "target", "status"],
                   [row[:4] + ["-" if row[4] is None else ("holds" if row[4] else "NOT MET")] for row in checks]))
    return agreed
