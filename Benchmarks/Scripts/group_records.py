"""Makes a copy of a generated zoo document whose records are in groups: the `animals`
element around them is closed and another opened (with a `group` attribute of its own)
every MIB megabytes, so that the elements around the records change every few ranges of a
parallel read (where a cut found by looking ahead fails, and the ranges are framed again).

    python3 Scripts/group_records.py IN.xml OUT.xml MIB
    python3 Scripts/parallel_sweep.py --files OUT.xml:zoo --rounds 7

The records, and so the result line of `contender-saxdispatch extract zoo`, are those of
IN.xml.
"""

import sys


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    source, destination, group_mib = sys.argv[1], sys.argv[2], float(sys.argv[3])
    group_bytes = max(1, int(group_mib * (1 << 20)))
    data = open(source, "rb").read()
    marker = b"    <animal>"
    out = bytearray()
    copied = 0
    group_start = data.find(marker)
    groups = 0
    position = group_start
    while position >= 0:
        if position - group_start >= group_bytes:
            groups += 1
            out += data[copied:position] + b'  </animals>\n  <animals group="%d">\n' % groups
            copied = position
            group_start = position
        position = data.find(marker, position + len(marker))
    out += data[copied:]
    with open(destination, "wb") as file:
        file.write(out)
    print(f"{destination}: {groups + 1} groups of about {group_mib} MiB")


if __name__ == "__main__":
    main()
