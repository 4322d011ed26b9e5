"""Checks that byte ranges cut anywhere read every record once: `saxdispatch extract FILE
--with-offset` over the whole file against the joined output of `--range` over random
cuts of it, for several seeds.

    python3 Scripts/range_cuts.py FILE --record page --field title --cuts 7 --seeds 3

Prints one line per seed (the cuts, the rows, whether they match) and exits 1 on any
difference. SAXDISPATCH names the executable (default: the package's release build).
"""

import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.environ.get("SAXDISPATCH", os.path.join(HERE, "..", "..", ".build", "release", "saxdispatch"))


def extract(path, record, fields, extra):
    command = [TOOL, "extract", path, "--record", record, "--with-offset", "--jobs", "1"] + extra
    for field in fields:
        command += ["--field", field]
    return subprocess.run(command, check=True, capture_output=True).stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--record", required=True)
    parser.add_argument("--field", action="append", required=True)
    parser.add_argument("--cuts", type=int, default=7)
    parser.add_argument("--seeds", type=int, default=3)
    arguments = parser.parse_args()
    size = os.path.getsize(arguments.file)
    began = time.monotonic()
    whole = extract(arguments.file, arguments.record, arguments.field, [])
    whole_time = time.monotonic() - began
    rows = whole.count(b"\n")
    failed = False
    for seed in range(arguments.seeds):
        cuts = sorted(random.Random(seed).sample(range(1, size), arguments.cuts))
        bounds = [0] + cuts
        joined = b""
        began = time.monotonic()
        for index, start in enumerate(bounds):
            end = str(bounds[index + 1]) if index + 1 < len(bounds) else ""
            joined += extract(arguments.file, arguments.record, arguments.field, ["--range", f"{start}-{end}"])
        same = joined == whole
        joined_rows = joined.count(b"\n")
        failed = failed or not same
        print(f"{os.path.basename(arguments.file)} seed {seed}: {len(bounds)} ranges, {rows:,} rows whole "
              f"({whole_time:.1f} s), {joined_rows:,} joined ({time.monotonic() - began:.1f} s): "
              f"{'same, each record once' if same else 'DIFFERENT'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
