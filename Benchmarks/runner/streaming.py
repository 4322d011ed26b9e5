"""The main table: every contender on the streaming files and the whole-document ones."""

import os
import statistics

from .common import BIN, MIB, document, measure, runs, table_of


def table(rows):
    headers = ["contender", "shape", "task", "file", "MB/s", "CPU ÷ C", "peak RSS", "mallocs/MB", "result"]
    return table_of(headers, rows)


def benchmark(sizes, rounds, shapes, tasks):
    rows = []
    disagreements = []
    for shape in shapes:
        for size, contenders in sizes:
            path = document(shape, size)
            megabytes = os.path.getsize(path) / 1e6
            for task in tasks:
                names = [name for name in contenders if runs(name, shape, task)]
                jobs = [(name, [os.path.join(BIN, f"contender-{name}"), task, shape, path]) for name in names]
                results = measure(jobs, rounds)
                baseline = results["c-expat"]
                base_cpu = statistics.median(baseline["cpu"]) if baseline["cpu"] else None
                lines = {results[name]["line"] for name in names if results[name]["line"]}
                agreed = len(lines) == 1 and all(results[name]["error"] is None for name in names)
                if not agreed:
                    disagreements.append((shape, task, size, {name: results[name]["line"] or results[name]["error"] for name in names}))
                for name in names:
                    entry = results[name]
                    label = f"{size // MIB} MiB" if size >= MIB else f"{size // 1024} KiB"
                    if entry["error"] is not None:
                        rows.append([name, shape, task, label, "-", "-", "-", "-", f"failed: {entry['error'][:60]}"])
                        continue
                    cpu = statistics.median(entry["cpu"])
                    wall = statistics.median(entry["wall"])
                    ratio = f"{cpu / base_cpu:.2f}" if base_cpu else "-"
                    mallocs = f"{entry['mallocs'] / megabytes:,.0f}" if entry["mallocs"] is not None else "n/a"
                    verdict = "agrees" if entry["line"] in lines and len(lines) == 1 else "DISAGREES"
                    rows.append([
                        name, shape, task, label, f"{megabytes / wall:.1f}", ratio,
                        f"{max(entry['rss']) / MIB:.1f} MiB", mallocs, verdict,
                    ])
    print(table(rows))
    if disagreements:
        print("\nContenders disagree:")
        for shape, task, size, lines in disagreements:
            print(f"  {shape} {task} ({size} bytes):")
            for name, line in lines.items():
                print(f"    {name}: {line}")
        return False
    return True
