"""Writing XML (`run --writing`) and transforms (`run --transform`).

--writing: each shape's records (BenchmarkDocuments' WrittenRecords, Scripts/lxml_write.py
in Python) written as one document of about --size-mib MiB by SAXDispatch's XMLWriter
(`writer`: calls per element; `encoder`: XMLRecordEncoder per record into the open writer),
Foundation's XMLDocument (the tree, then xmlData), XMLCoder's XMLEncoder (one Encodable
document) and lxml's incremental etree.xmlfile. Every writer's output of a small document
is first checked to have the same canonical form. CPU time (user + system) and peak RSS,
median over the rounds in alternating order. Targets: the writer at least 3x faster than
the fastest Swift peer, and no slower than lxml.

--transform: `saxdispatch filter` copying each shape's document (no rule; dropping a
subtree; removing an attribute many elements have; renaming an element) against a parse of the same file delivering every event (contender-saxdispatch
count) and `saxdispatch check`; then the copy of a 1 GiB document, whose peak RSS must stay
that of the 100 MiB one. Target: the copy's CPU time within 1.5x of the parse's.
With --sweep, the copy against the parse at every sweep point (runner/sweep.py) instead: the
target holds at each.
"""
import os
import statistics
import subprocess

from runner.common import BIN, HERE, MIB, ROOT_BIN, document, run_once, size_label, table_of

WRITERS = [
    ("saxdispatch writer", lambda shape, records, path: [os.path.join(BIN, "writer-saxdispatch"), shape, str(records), path]),
    ("saxdispatch encoder",
     lambda shape, records, path: [os.path.join(BIN, "writer-saxdispatch"), shape, str(records), path, "encoder"]),
    ("foundation XMLDocument", lambda shape, records, path: [os.path.join(BIN, "writer-foundation"), shape, str(records), path]),
    ("xmlcoder XMLEncoder", lambda shape, records, path: [os.path.join(BIN, "writer-xmlcoder"), shape, str(records), path]),
]
SWIFT_PEERS = ["foundation XMLDocument", "xmlcoder XMLEncoder"]
BYTES_PER_RECORD = {"zoo": 170, "osm": 110, "wiki": 2300}


def lxml_writer(python):
    script = os.path.join(HERE, "Scripts", "lxml_write.py")
    return ("lxml xmlfile", lambda shape, records, path: [python, script, shape, str(records), path])


def canonical(path):
    result = subprocess.run([os.path.join(ROOT_BIN, "saxdispatch"), "canon", path], capture_output=True, check=True)
    return result.stdout


def writers_agree(writers, shapes, directory):
    """Whether every writer's small document has the canonical form of the first's."""
    agreed = True
    for shape in shapes:
        forms = {}
        for name, command in writers:
            path = os.path.join(directory, f"agree-{shape}-{name.replace(' ', '-')}.xml")
            line, error, _, _, _ = run_once(command(shape, 41, path))
            forms[name] = canonical(path) if line else f"failed: {error}".encode()
            os.unlink(path) if os.path.exists(path) else None
        first = forms[writers[0][0]]
        for name, form in forms.items():
            if form != first:
                print(f"{shape}: {name} writes another document than {writers[0][0]}")
                agreed = False
    return agreed


def status(holds, judged):
    """A target's status; a smoke run's files are read in milliseconds, mostly process
    start-up, so its ratios say nothing of the targets and are not judged."""
    if not judged:
        return "not judged (smoke)"
    return "holds" if holds else "NOT MET"


def writing_run(shapes, size, rounds, python=None, judged=True):
    directory = os.path.join(HERE, ".data")
    os.makedirs(directory, exist_ok=True)
    writers = WRITERS + ([lxml_writer(python)] if python else [])
    agreed = writers_agree(writers, shapes, directory)
    rows, checks = [], []
    for shape in shapes:
        records = size // BYTES_PER_RECORD[shape]
        results = {name: {"cpu": [], "rss": [], "bytes": 0, "error": None} for name, _ in writers}
        for round_index in range(rounds):
            order = writers if round_index % 2 == 0 else list(reversed(writers))
            for name, command in order:
                path = os.path.join(directory, f"written-{shape}.xml")
                line, cpu, _, rss, _ = run_once(command(shape, records, path))
                if line is None:
                    results[name]["error"] = cpu
                    continue
                results[name]["cpu"].append(cpu)
                results[name]["rss"].append(rss)
                results[name]["bytes"] = os.path.getsize(path)
                os.unlink(path)
        base = statistics.median(results["saxdispatch writer"]["cpu"]) if results["saxdispatch writer"]["cpu"] else None
        medians = {}
        for name, _ in writers:
            entry = results[name]
            if entry["error"] or not entry["cpu"]:
                rows.append([shape, name, "-", "-", "-", "-", f"failed: {(entry['error'] or '')[:50]}"])
                continue
            cpu = statistics.median(entry["cpu"])
            medians[name] = cpu
            rows.append([shape, name, f"{records:,}", f"{entry['bytes'] / MIB:.0f} MiB",
                         f"{cpu:.2f} s ({min(entry['cpu']):.2f}–{max(entry['cpu']):.2f})",
                         f"{entry['bytes'] / cpu / 1e6:.0f} MB/s", f"{max(entry['rss']) / MIB:.1f} MiB",
                         f"{cpu / base:.2f}" if base else "-"])
        peers = [medians[name] for name in SWIFT_PEERS if name in medians]
        if base and peers:
            speedup = min(peers) / base
            checks.append([shape, "fastest Swift peer CPU ÷ writer CPU", f"{speedup:.2f}", "≥ 3", speedup >= 3])
        if base and "lxml xmlfile" in medians:
            ratio = medians["lxml xmlfile"] / base
            checks.append([shape, "lxml CPU ÷ writer CPU", f"{ratio:.2f}", "≥ 1", ratio >= 1])
    print(f"Writing about {size_label(size)} of records per shape, median of {rounds} rounds; ratio: CPU ÷ the writer's")
    print(table_of(["shape", "writer", "records", "output", "CPU (range)", "MB/s", "peak RSS", "ratio"], rows))
    print()
    print(table_of(["shape", "measure", "value", "target", "status"],
                   [row[:4] + [status(row[4], judged)] for row in checks]))
    return agreed


def quiet(command):
    """`command` with its standard output thrown away (the copy is the size of the input)."""
    return ["bash", "-c", 'exec "$@" > /dev/null', "quiet"] + command


DROPPED = {"zoo": "junk", "osm": "tag", "wiki": "text"}
# An attribute many elements have (every osm node's version: each one edited), and a rename.
STRIPPED = {"zoo": "id", "osm": "version", "wiki": "xml:space"}
RENAMED = {"zoo": "kind=sort", "osm": "tag=t", "wiki": "title=name"}


def transform_run(shapes, size, rounds, big_size, judged=True):
    tool = os.path.join(ROOT_BIN, "saxdispatch")
    rows, checks = [], []
    for shape in shapes:
        path = document(shape, size)
        variants = [
            ("parse: every event to handlers", [os.path.join(BIN, "contender-saxdispatch"), "count", shape, path]),
            ("saxdispatch check", [tool, "check", "--progress", "never", path]),
            ("filter (copy)", quiet([tool, "filter", "--progress", "never", path])),
            (f"filter --drop {DROPPED[shape]}", quiet([tool, "filter", "--progress", "never", "--drop", DROPPED[shape], path])),
            (f"filter --strip-attribute {STRIPPED[shape]}",
             quiet([tool, "filter", "--progress", "never", "--strip-attribute", STRIPPED[shape], path])),
            (f"filter --rename {RENAMED[shape]}", quiet([tool, "filter", "--progress", "never", "--rename", RENAMED[shape], path])),
        ]
        results = {name: {"cpu": [], "rss": []} for name, _ in variants}
        for round_index in range(rounds):
            for name, command in (variants if round_index % 2 == 0 else list(reversed(variants))):
                line, cpu, _, rss, _ = run_once(command)
                if line is None:
                    raise SystemExit(f"{shape} {name}: {cpu}")
                results[name]["cpu"].append(cpu)
                results[name]["rss"].append(rss)
        parse = statistics.median(results[variants[0][0]]["cpu"])
        for name, _ in variants:
            cpu = statistics.median(results[name]["cpu"])
            rows.append([shape, size_label(size), name, f"{cpu:.2f} s", f"{os.path.getsize(path) / cpu / 1e6:.0f} MB/s",
                         f"{max(results[name]['rss']) / MIB:.1f} MiB", f"{cpu / parse:.2f}"])
        for name, _ in variants:
            if name.startswith("filter"):
                ratio = statistics.median(results[name]["cpu"]) / parse
                checks.append([shape, f"{name} CPU ÷ parse CPU", f"{ratio:.2f}", "≤ 1.5", ratio <= 1.5])
    if big_size:
        small = document("zoo", size)
        big = document("zoo", big_size)
        rss = {}
        for label, path in (("small", small), ("big", big)):
            line, cpu, _, peak, _ = run_once(quiet([tool, "filter", "--progress", "never", path]))
            if line is None:
                raise SystemExit(f"filter {path}: {cpu}")
            rss[label] = peak
            rows.append(["zoo", size_label(os.path.getsize(path)), "filter (copy)", f"{cpu:.2f} s",
                         f"{os.path.getsize(path) / cpu / 1e6:.0f} MB/s", f"{peak / MIB:.1f} MiB", "-"])
        flat = rss["big"] <= rss["small"] * 1.1 + 2 * MIB
        checks.append(["zoo", f"peak RSS at {size_label(big_size)} ÷ at {size_label(size)}",
                       f"{rss['big'] / rss['small']:.2f}", "flat (≤ 1.1)", flat])
    print(f"Transforms, median of {rounds} rounds; ratio: CPU ÷ the parse's (every event to handlers)")
    print(table_of(["shape", "size", "run", "CPU", "MB/s", "peak RSS", "ratio"], rows))
    print()
    print(table_of(["shape", "measure", "value", "target", "status"],
                   [row[:4] + [status(row[4], judged)] for row in checks]))
    return True


def transform_sweep(size, rounds, selection=None):
    """`saxdispatch filter` against a parse delivering every event, CPU time at every sweep
    point, in alternating order: a copy, and the shape's attribute removal and rename (edits
    of the elements that have them, wherever they are); the target is each within 1.5x of the
    parse at each point."""
    from runner.sweep import SWEEP_POINTS, selected_sweep_points, sweep_document
    tool = os.path.join(ROOT_BIN, "saxdispatch")
    rows, worst = [], (0.0, "")
    for shape, point, options in selected_sweep_points(list(SWEEP_POINTS), selection):
        path = sweep_document(shape, point, options, size)
        filter_command = [tool, "filter", "--progress", "never"]
        variants = [("parse", [os.path.join(BIN, "contender-saxdispatch"), "count", shape, path]),
                    ("copy", quiet(filter_command + [path])),
                    ("strip", quiet(filter_command + ["--strip-attribute", STRIPPED[shape], path])),
                    ("rename", quiet(filter_command + ["--rename", RENAMED[shape], path]))]
        cpu = {name: [] for name, _ in variants}
        for round_index in range(rounds):
            for name, command in (variants if round_index % 2 == 0 else list(reversed(variants))):
                line, seconds, _, _, _ = run_once(command)
                if line is None:
                    raise SystemExit(f"{shape} {point} {name}: {seconds}")
                cpu[name].append(seconds)
        parse = statistics.median(cpu["parse"])
        ratios = [statistics.median(cpu[name]) / parse for name in ("copy", "strip", "rename")]
        for ratio, name in zip(ratios, ("copy", "strip", "rename")):
            worst = max(worst, (ratio, f"{shape} {point} {name}"))
        rows.append([shape, point, f"{parse:.3f} s"] + [f"{ratio:.2f}" for ratio in ratios]
                    + ["holds" if max(ratios) <= 1.5 else "NOT MET"])
    print(f"Transforms at every sweep point, {size_label(size)}, median of {rounds} rounds: "
          "saxdispatch filter against a parse with every event to handlers, CPU time ÷ the parse's; "
          f"strip: --strip-attribute ({', '.join(f'{k} {v}' for k, v in STRIPPED.items())}), "
          f"rename: --rename ({', '.join(f'{k} {v}' for k, v in RENAMED.items())})")
    print(table_of(["shape", "point", "parse", "copy", "strip", "rename", "all ≤ 1.5"], rows))
    print(f"\nworst point: {worst[1]} at {worst[0]:.2f}")
    return True
