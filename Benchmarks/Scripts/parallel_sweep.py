"""One document on two workers against one, at every point of the sweep and on the
benchmark's files: typed records (`contender-saxdispatch extract SHAPE FILE records`)
against the same on workers (`records-parallel`, SAXDISPATCH_WORKERS=2), and two
sequential parses of the same file side by side, which say what this machine's two cores
give two independent parses.

    python3 Scripts/parallel_sweep.py --size-mib 64 --rounds 5 [--points zoo/own,wiki/own] [--files A.xml:zoo,B.xml:wiki]

For each document: the wall time of one sequential parse (T1), of the parse on two
workers (T2), and of two sequential parses side by side (Tpair); the speed-up T1/T2; what
the cores give two independent parses, 2·T1/Tpair; the parse's speed-up as a share of that;
the CPU time on two workers against one (the overhead of framing, verification and the
hand-offs), and each run's peak RSS. Medians of `--rounds` rounds, the three kinds of run
interleaved in each round, their order reversed every other round. Prints a Markdown
table; the result lines of the two variants must agree (checked).

Two more columns say how much of the extra CPU time is this machine's rather than the
parallel read's: the CPU time each of two parses side by side takes against one parse
alone (on a host whose cores share a physical core or its caches with other work, running
two threads at once costs each of them time, whatever the threads do), and the two
workers' CPU time against what two such parses took each. The rounds' spread of one
parse's CPU time (largest ÷ smallest) says how steady the machine was during the run.

Where the machine is not steady (its host takes time from running processes, which they
are charged as their own), the best rounds say more than the medians: a run can only be
made slower by the host, so the fastest wall and the least CPU time of each kind are the
closest to what the code costs. The last columns are those: the speed-up and what two
parses give from the fastest runs, and the extra CPU from the least.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from runner.common import BIN, DATA  # noqa: E402
from runner.sweep import SWEEP_POINTS, sweep_document, sweep_point_slug  # noqa: E402

CONTENDER = os.path.join(BIN, "contender-saxdispatch")


def timed(commands, workers):
    """Runs `commands` side by side; returns (wall, [(cpu, rss KiB, output)]).

    CPU time comes from each child's resource usage (`wait4`), in microseconds: the 10 ms
    steps of `/usr/bin/time` are several percent of a run of 64 MiB. It includes
    `/usr/bin/time`'s own, about a millisecond. Peak RSS comes from `/usr/bin/time`, whose
    child is started from a small process: a child of this one carries Python's peak RSS
    past its `exec`."""
    environment = dict(os.environ, SAXDISPATCH_WORKERS=str(workers))
    began = time.monotonic()
    processes = [subprocess.Popen(["/usr/bin/time", "-f", "%M"] + command, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=environment) for command in commands]
    results = []
    for process in processes:
        # Read, then reaped with `wait4` (not `communicate`, whose wait leaves no usage).
        # The outputs are a line or two, so a pipe left unread meanwhile never fills.
        output, error = process.stdout.read(), process.stderr.read()
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = status
        results.append((output, error, status, usage))
    wall = time.monotonic() - began
    measured = []
    for output, error, status, usage in results:
        if status != 0:
            raise SystemExit(f"{commands}: {error.decode()}")
        rss = int(error.decode().strip().splitlines()[-1])
        measured.append((usage.ru_utime + usage.ru_stime, rss, output.decode().strip()))
    return wall, measured


def measure(shape, path, rounds):
    sequential = [CONTENDER, "extract", shape, path, "records"]
    parallel = [CONTENDER, "extract", shape, path, "records-parallel"]
    one, two, pair, cpu1, cpu2, cpupair, rss1, rss2 = [], [], [], [], [], [], [], []
    lines = set()

    def run_one():
        wall, [(cpu, rss, line)] = timed([sequential], 1)
        one.append(wall), cpu1.append(cpu), rss1.append(rss), lines.add(("records", line))

    def run_two():
        wall, [(cpu, rss, line)] = timed([parallel], 2)
        two.append(wall), cpu2.append(cpu), rss2.append(rss), lines.add(("records-parallel", line))

    def run_pair():
        wall, runs = timed([sequential, sequential], 1)
        pair.append(wall), cpupair.append(sum(cpu for cpu, _, _ in runs) / 2)

    for number in range(rounds):
        kinds = [run_one, run_two, run_pair]
        for kind in kinds if number % 2 == 0 else reversed(kinds):
            kind()
    if len({line for _, line in lines}) != 1:
        raise SystemExit(f"{path}: the variants disagree: {sorted(lines)}")
    t1, t2, tpair = statistics.median(one), statistics.median(two), statistics.median(pair)
    capacity = 2 * t1 / tpair
    c1, c2, cpair = statistics.median(cpu1), statistics.median(cpu2), statistics.median(cpupair)
    return {"t1": t1, "t2": t2, "tpair": tpair, "speedup": t1 / t2, "capacity": capacity,
            "share": (t1 / t2) / capacity, "cpu": c2 / c1 - 1, "paircpu": cpair / c1 - 1,
            "cpubeyondpair": c2 / cpair - 1, "spread": max(cpu1) / min(cpu1),
            "bestspeedup": min(one) / min(two), "bestcapacity": 2 * min(one) / min(pair),
            "bestcpu": min(cpu2) / min(cpu1) - 1,
            "rss1": max(rss1) / 1024, "rss2": max(rss2) / 1024}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size-mib", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--points", help="shape/point-slug, comma-separated (default: every point)")
    parser.add_argument("--files", help="FILE:SHAPE, comma-separated: measure these instead of the sweep")
    arguments = parser.parse_args()
    documents = []
    if arguments.files:
        for item in arguments.files.split(","):
            path, shape = item.rsplit(":", 1)
            documents.append((f"{shape} {os.path.basename(path)}", shape, path))
    else:
        wanted = set(arguments.points.split(",")) if arguments.points else None
        for shape, points in SWEEP_POINTS.items():
            for point, options in points:
                if wanted and f"{shape}/{sweep_point_slug(point)}" not in wanted:
                    continue
                path = sweep_document(shape, point, options, arguments.size_mib << 20)
                documents.append((f"{shape} {point}", shape, path))
    print("| document | 1 worker | 2 workers | speed-up | 2 independent parses give | speed-up ÷ that | extra CPU "
          "| each of 2 parses side by side, CPU | 2 workers' CPU ÷ that | 1 parse's CPU spread "
          "| best rounds: speed-up | 2 parses give | speed-up ÷ that | extra CPU | peak RSS 1 → 2 |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, shape, path in documents:
        figures = measure(shape, path, arguments.rounds)
        print(f"| {name} | {figures['t1']:.2f} s | {figures['t2']:.2f} s | {figures['speedup']:.2f}× | "
              f"{figures['capacity']:.2f}× | {figures['share']:.0%} | {figures['cpu']:+.1%} | "
              f"{figures['paircpu']:+.0%} | {figures['cpubeyondpair']:+.0%} | {figures['spread']:.2f} | "
              f"{figures['bestspeedup']:.2f}× | {figures['bestcapacity']:.2f}× | "
              f"{figures['bestspeedup'] / figures['bestcapacity']:.0%} | {figures['bestcpu']:+.1%} | "
              f"{figures['rss1']:.0f} → {figures['rss2']:.0f} MiB |", flush=True)


if __name__ == "__main__":
    main()
