"""Peak resident memory at 100 MiB and 1 GiB (--memory)."""

import os
import subprocess

from .common import BIN, HERE, MIB, ROOT_BIN, TASKS, document, run_once, size_label
from .encodings import JAPANESE


def memory_run(encodings=False):
    """Peak RSS at 100 MiB and 1 GiB: saxdispatch stats and the zoo extract; with `encodings`,
    SAXDispatch's count and extract of the zoo's Japanese twins instead (UTF-8, Shift_JIS
    through expat's map, GB18030 through the transcoder; sizes are the UTF-8 twin's)."""
    stats = os.path.join(ROOT_BIN, "saxdispatch")
    if not encodings and not os.path.exists(stats):
        subprocess.run(["swift", "build", "-c", "release", "--product", "saxdispatch"], cwd=os.path.join(HERE, ".."), check=True)
    rows = [["run", "size", "file", "peak RSS", "wall", "result"]]
    saxdispatch = os.path.join(BIN, "contender-saxdispatch")
    for size in (100 * MIB, 1024 * MIB):
        if encodings:
            runs = []
            for encoding in ("UTF-8", "Shift_JIS", "GB18030"):
                path = document("zoo", size, JAPANESE[0], encoding)
                for task in TASKS:
                    runs.append((f"contender-saxdispatch {task}, {encoding}", path, [saxdispatch, task, "zoo", path]))
        else:
            path = document("zoo", size)
            runs = [(label, path, command) for label, command in (
                ("saxdispatch stats", [stats, "stats", path]),
                ("contender-saxdispatch extract", [saxdispatch, "extract", "zoo", path]),
                ("contender-c-expat extract", [os.path.join(BIN, "contender-c-expat"), "extract", "zoo", path]),
            )]
        for label, path, command in runs:
            line, cpu, wall, rss, _ = run_once(command)
            rows.append([label, size_label(size), f"{os.path.getsize(path) / MIB:.0f} MiB", f"{rss / MIB:.1f} MiB",
                         f"{wall:.2f} s", line if line is not None else f"failed: {cpu[:60]}"])
    if encodings:
        print(f"The zoo with {JAPANESE[0]}% Japanese text; size: the UTF-8 twin's")
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(value.ljust(width) for value, width in zip(row, widths)).rstrip())
