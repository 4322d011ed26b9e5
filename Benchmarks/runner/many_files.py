"""saxdispatch stats over many files, --jobs 1 against --jobs 2 (--many-files)."""

import os
import shutil
import statistics
import subprocess

from .common import DATA, HERE, MIB, ROOT_BIN, document, run_once, table_of


# Many files (--many-files): the targets for `saxdispatch stats` over several files
# on this 2-core machine: --jobs 2 at least this many times faster in wall time than
# --jobs 1, and peak RSS at most this much per job.
MANY_FILES_SPEEDUP = 1.7


MANY_FILES_RSS_PER_JOB = 32 * MIB


def many_files_run(count, size, rounds, jobs_list):
    """saxdispatch stats over `count` copies of a zoo document of `size`, with each --jobs
    value of `jobs_list`, in alternating order: wall time, CPU time and peak RSS, medians
    and ranges over the rounds. Every run must print the same total row."""
    stats = os.path.join(ROOT_BIN, "saxdispatch")
    if not os.path.exists(stats):
        subprocess.run(["swift", "build", "-c", "release", "--product", "saxdispatch"], cwd=os.path.join(HERE, ".."), check=True)
    source = document("zoo", size)
    directory = os.path.join(DATA, "many-files")
    os.makedirs(directory, exist_ok=True)
    files = []
    for index in range(count):
        path = os.path.join(directory, f"zoo-{size}-{index}.xml")
        if not os.path.exists(path):
            shutil.copyfile(source, path)
        files.append(path)
    # Read once, so that every run finds the files in the page cache.
    for path in files:
        with open(path, "rb") as file:
            while file.read(1 << 20):
                pass
    figures = {jobs: [] for jobs in jobs_list}
    totals = set()
    for round_index in range(rounds):
        order = jobs_list if round_index % 2 == 0 else list(reversed(jobs_list))
        for jobs in order:
            line, cpu, wall, rss, _ = run_once([stats, "stats", "--progress", "never", "--jobs", str(jobs)] + files)
            if line is None:
                print(f"--jobs {jobs} failed: {cpu}")
                return False
            totals.add(next((row for row in line.splitlines() if row.rstrip().endswith(f"total ({count} files)")), line))
            figures[jobs].append((wall, cpu, rss))
    if len(totals) != 1:
        print("the runs DISAGREE:\n" + "\n".join(sorted(totals)))
        return False
    print(f"saxdispatch stats over {count} zoo files of {size / MIB:.0f} MiB, {rounds} rounds, page cache warm; "
          f"{os.cpu_count()} processors")
    base = statistics.median(wall for wall, _, _ in figures[jobs_list[0]])
    rows = []
    ok = True
    for jobs in jobs_list:
        walls = [wall for wall, _, _ in figures[jobs]]
        cpus = [cpu for _, cpu, _ in figures[jobs]]
        peak = max(rss for _, _, rss in figures[jobs])
        speedup = base / statistics.median(walls)
        rows.append([f"--jobs {jobs}", f"{statistics.median(walls):.2f} s ({min(walls):.2f}–{max(walls):.2f})",
                     f"{statistics.median(cpus):.2f} s ({min(cpus):.2f}–{max(cpus):.2f})",
                     f"{peak / MIB:.1f} MiB", f"{peak / MIB / jobs:.1f} MiB", f"{speedup:.2f}×"])
        if peak > MANY_FILES_RSS_PER_JOB * jobs:
            ok = False
        if jobs == 2 and speedup < MANY_FILES_SPEEDUP:
            ok = False
    print(table_of(["run", "wall (range)", "CPU (range)", "peak RSS", "per job", f"faster than --jobs {jobs_list[0]}"], rows))
    print(f"targets: --jobs 2 at least {MANY_FILES_SPEEDUP}× faster, at most {MANY_FILES_RSS_PER_JOB // MIB} MiB per job: "
          + ("met" if ok else "NOT met"))
    print("total row: " + " ".join(next(iter(totals)).split()))
    return ok
