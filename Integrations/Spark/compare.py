"""Checks the Spark job against one saxdispatch process, and compares it with Spark's
own XML source, on one file:

1. `saxdispatch extract FILE --with-offset` in one process: the rows to match.
2. The ranged job (ranged_extract.py) on `--master`: its rows, ordered by offset, must
   equal those rows exactly (each record once).
3. Spark's XML source, `spark.read.format("xml").option("rowTag", RECORD)`: its row count,
   and for each field that names a child element, whether its values are the same.

Prints the rows and wall times of each. Exits 1 when the ranged job's rows differ.

    python compare.py FILE --record page --field title --field id:int --master 'local[2]'
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import time

from pyspark.sql import SparkSession

from ranged_extract import column_names, extract_dataframe, tool_path


def single_process_rows(path, record, fields, tool):
    command = [tool, "extract", path, "--record", record, "--with-offset", "--jobs", "1"]
    for field in fields:
        command += ["--field", field]
    began = time.monotonic()
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    elapsed = time.monotonic() - began
    rows = []
    for line in output.splitlines():
        row = json.loads(line)
        rows.append(tuple(None if value is None else (value if key == "offset" else str(value)) for key, value in row.items()))
    return rows, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--record", required=True)
    parser.add_argument("--field", action="append", required=True)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--split", action="store_true", help="ranges from saxdispatch split, not equal byte ranges")
    arguments = parser.parse_args()
    tool = tool_path()
    path = os.path.abspath(arguments.file)

    expected, single_time = single_process_rows(path, arguments.record, arguments.field, tool)

    spark = (SparkSession.builder.master(arguments.master).appName("saxdispatch-compare")
             .config("spark.driver.memory", "4g").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    began = time.monotonic()
    frame = extract_dataframe(spark, path, arguments.record, arguments.field, arguments.partitions,
                              use_split=arguments.split, tool=tool)
    ranged = [tuple(row) for row in frame.orderBy("offset").collect()]
    ranged_time = time.monotonic() - began

    began = time.monotonic()
    xml = spark.read.format("xml").option("rowTag", arguments.record).load(path)
    xml_count = xml.count()
    xml_time = time.monotonic() - began

    names = column_names(path, arguments.record, arguments.field, tool)
    comparisons = []
    for index, (name, field) in enumerate(zip(names[1:], arguments.field), start=1):
        element = field.split("=", 1)[-1].split(":", 1)[0]
        if "/" in element or "@" in element or "(" in element or element not in xml.columns:
            continue
        ours = collections.Counter(row[index] for row in expected)
        theirs = collections.Counter(None if value is None else str(value) for (value,) in xml.select(element).collect())
        comparisons.append((name, ours == theirs, sum((ours - theirs).values())))
    spark.stop()

    same = ranged == expected
    print(f"file: {path} ({os.path.getsize(path):,} bytes), master {arguments.master}, "
          f"{arguments.partitions} ranges ({'split' if arguments.split else 'equal byte ranges'})")
    print("| reader | rows | wall time |")
    print("|---|---|---|")
    print(f"| saxdispatch extract, one process | {len(expected):,} | {single_time:.1f} s |")
    print(f"| Spark job, saxdispatch extract --range per partition | {len(ranged):,} | {ranged_time:.1f} s |")
    print(f"| Spark's XML source (rowTag {arguments.record}) | {xml_count:,} | {xml_time:.1f} s |")
    print(f"ranged rows equal the single process's, in offset order: {'yes' if same else 'NO'}")
    for name, equal, missing in comparisons:
        print(f"column {name}: Spark's XML source has the same values: {'yes' if equal else f'no ({missing} differ)'}")
    if not same:
        missing = len(set(expected) - set(ranged))
        extra = len(ranged) - len(set(ranged))
        print(f"{missing} rows missing, {extra} duplicated", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
