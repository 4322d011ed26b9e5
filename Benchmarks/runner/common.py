"""Paths, the contenders and shapes, running a contender under the launcher, and tables."""

import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile


# The Benchmarks package: this module's folder is one below it.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


BIN = os.path.join(HERE, ".build", "release")


DATA = os.path.join(HERE, ".data")


ROOT_BIN = os.path.join(HERE, "..", ".build", "release")


MIB = 1 << 20


# Contenders that stream (run on the big files) and those that build the whole
# document through XMLParser(data:), which fails above 10,000,000 bytes on Linux.
STREAMING = ["c-expat", "saxdispatch", "foundation"]


WHOLE_DOCUMENT = ["swxmlhash", "xmlcoder"]


SHAPES = ["zoo", "zoo-ns", "osm", "wiki"]


TASKS = ["count", "extract"]


# Shapes a contender does not run: the whole-document contenders are compared on the
# namespace-free shapes only.
SKIPPED_SHAPES = {"swxmlhash": {"zoo-ns"}, "xmlcoder": {"zoo-ns"}}


# Shapes whose callgrind table also divides by C + expat with namespace processing on
# (contender-c-expat's `namespaces` variant): wiki has a default namespace, and SAXDispatch
# processes namespaces by default, so part of its cost there is expat's own resolution.
# zoo-ns's only C baseline is namespace-aware (it cannot be read correctly otherwise).
NAMESPACE_BASELINE_SHAPES = ["wiki"]


def runs(name, shape, task):
    """Whether contender `name` runs `task` on `shape`."""
    if name == "xmlcoder" and task == "count":  # a Decodable decoder cannot count character data
        return False
    return shape not in SKIPPED_SHAPES.get(name, ())


def build():
    subprocess.run(["swift", "build", "-c", "release"], cwd=HERE, check=True)


def document(shape, size, japanese=None, encoding="UTF-8"):
    """The document's path, generated on first use. With `japanese` (a percentage), the zoo's
    text is Japanese that often, and the document is written in `encoding`."""
    os.makedirs(DATA, exist_ok=True)
    name = f"{shape}-{size}.xml" if japanese is None else f"{shape}-ja{japanese}-{encoding}-{size}.xml"
    path = os.path.join(DATA, name)
    if not os.path.exists(path):
        options = [] if japanese is None else ["--japanese", str(japanese), "--encoding", encoding]
        subprocess.run([os.path.join(BIN, "generate-documents"), shape, str(size), path] + options, check=True)
    return path


def malloc_counter():
    for name in ("libMallocCounter.so", "libMallocCounter.dylib"):
        path = os.path.join(BIN, name)
        if os.path.exists(path):
            return path
    return None


def run_once(command, count_mallocs=False):
    """Runs a command under the `measure` launcher.

    Returns (stdout, cpu seconds, wall seconds, peak RSS bytes, mallocs or None), or
    (None, error text, ...) when the command fails.
    """
    environment = dict(os.environ)
    count_file = None
    if count_mallocs and sys.platform.startswith("linux") and malloc_counter():
        count_file = tempfile.NamedTemporaryFile(delete=False).name
        environment["MEASURE_LD_PRELOAD"] = malloc_counter()
        environment["MALLOC_COUNT_FILE"] = count_file
    report = tempfile.NamedTemporaryFile(delete=False).name
    try:
        result = subprocess.run([os.path.join(BIN, "measure"), report] + command, capture_output=True, env=environment)
        with open(report) as file:
            fields = file.read().split()
    finally:
        os.unlink(report)
    mallocs = None
    if count_file:
        try:
            with open(count_file) as file:
                mallocs = int(file.read().strip() or 0)
        finally:
            os.unlink(count_file)
    if result.returncode != 0 or len(fields) != 4:
        return None, result.stderr.decode().strip() or f"exit {result.returncode}", 0, 0, mallocs
    user, system, rss, wall = float(fields[0]), float(fields[1]), int(fields[2]), float(fields[3])
    return result.stdout.decode().strip(), user + system, wall, rss, mallocs


def measure(jobs, rounds, seed=1, count_mallocs=True):
    """jobs: list of (key, command). Runs each `rounds` times in shuffled order per round,
    then once more counting mallocs (unless `count_mallocs` is false)."""
    results = {key: {"cpu": [], "wall": [], "rss": [], "line": None, "error": None, "mallocs": None} for key, _ in jobs}
    order = random.Random(seed)
    for round_index in range(rounds):
        shuffled = list(jobs)
        order.shuffle(shuffled)
        for key, command in shuffled:
            line, cpu, wall, rss, _ = run_once(command)
            entry = results[key]
            if line is None:
                entry["error"] = cpu
                continue
            entry["line"] = line
            entry["cpu"].append(cpu)
            entry["wall"].append(wall)
            entry["rss"].append(rss)
    for key, command in jobs if count_mallocs else []:
        if results[key]["error"] is None:
            results[key]["mallocs"] = run_once(command, count_mallocs=True)[4]
    return results


def paired_ratio(results, key, base):
    """The median over rounds of `key`'s CPU time divided by `base`'s in the same round.

    Each round runs every contender once, so a round's two runs see the machine in about
    the same state; on a shared machine whose speed drifts during a run, the ratio of two
    separate medians mixes states, and scatters more."""
    times, others = results[key]["cpu"], results[base]["cpu"]
    if not times or len(times) != len(others):  # a run failed: no rounds to pair
        return statistics.median(times) / statistics.median(others) if times and others else float("nan")
    return statistics.median(cpu / other for cpu, other in zip(times, others))


def without_debug_info(binary, directory):
    """A copy of `binary` without DWARF sections, when `strip` exists.

    The Swift and C objects of one binary carry DWARF of different versions, which
    valgrind 3.19's reader rejects ("Possibly corrupted debuginfo file"); instruction
    counts need no debug information.
    """
    if shutil.which("strip") is None:
        return binary
    copy = os.path.join(directory, os.path.basename(binary))
    subprocess.run(["strip", "--strip-debug", "-o", copy, binary], check=True)
    return copy


def instructions(name, arguments, bin_directory=None):
    """Instructions a contender executes (valgrind --tool=callgrind), or None; the
    contender of another build when `bin_directory` names its release directory."""
    with tempfile.TemporaryDirectory() as directory:
        out = os.path.join(directory, "callgrind.out")
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             without_debug_info(os.path.join(bin_directory or BIN, f"contender-{name}"), directory)] + arguments,
            capture_output=True, text=True)
        for line in result.stderr.splitlines():
            if "Collected :" in line:
                return int(line.split(":")[-1].strip())
        print(f"{name} {' '.join(arguments[:2])}: valgrind failed\n{result.stderr[-400:]}")
        return None


def size_label(size):
    return f"{size // MIB} MiB" if size >= MIB else f"{size // 1024} KiB"


def table_of(headers, rows):
    cells = [headers] + rows
    widths = [max(len(str(row[i])) for row in cells) for i in range(len(headers))]
    lines = []
    for index, row in enumerate(cells):
        lines.append("  ".join(str(value).ljust(width) for value, width in zip(row, widths)).rstrip())
        if index == 0:
            lines.append("  ".join("-" * width for width in widths))
    return "\n".join(lines)
