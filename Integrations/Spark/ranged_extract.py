"""Reads one large XML file on a Spark cluster: the file is cut into byte ranges, each
partition runs `saxdispatch extract --range START-END` on its range, and the rows make
one DataFrame.

Ranges may be cut anywhere: saxdispatch reads exactly the records whose start tag begins
in its range (a record that begins in a range and ends past it is read whole by that
range), so the partitions together hold every record once. With --split, the ranges
come from `saxdispatch split` instead, each beginning at a record, and each task gets
its range's line as a checkpoint: it frames the file from its range's start, not from
the file's.

    python ranged_extract.py FILE --record page --field title --field id:int --partitions 8
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time

from pyspark.sql import SparkSession
from pyspark.sql.types import LongType, StringType, StructField, StructType

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TOOL = os.path.join(HERE, "..", "..", ".build", "release", "saxdispatch")


def tool_path():
    """The saxdispatch executable: $SAXDISPATCH, or the package's release build."""
    return os.path.abspath(os.environ.get("SAXDISPATCH", DEFAULT_TOOL))


def byte_ranges(path, partitions):
    """Equal byte ranges of the file, as any engine cuts a file: (start, end, None), end
    None last."""
    size = os.path.getsize(path)
    cuts = [size * k // partitions for k in range(partitions)]
    return [(start, cuts[k + 1] if k + 1 < partitions else None, None) for k, start in enumerate(cuts)]


def split_ranges(path, record, partitions, tool):
    """The ranges `saxdispatch split` proposes, each beginning at a record, with its line:
    the task's checkpoint, so that it frames the file from its range's start only."""
    output = subprocess.run(
        [tool, "split", path, "--record", record, "--parts", str(partitions)],
        check=True, capture_output=True, text=True).stdout
    return [(json.loads(line)["start"], json.loads(line)["end"], line) for line in output.splitlines()]


def column_names(path, record, fields, tool):
    """The columns saxdispatch names for these fields, offset first: the CSV header of an
    empty range."""
    command = [tool, "extract", path, "--record", record, "--with-offset", "--format", "csv", "--range", "0-0"]
    for field in fields:
        command += ["--field", field]
    header = subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()[0]
    return next(csv.reader([header]))


def extract_partition(path, record, fields, names, tool):
    """The function each partition runs: its ranges' rows, as tuples (offset first)."""

    def run(ranges):
        for start, end, checkpoint in ranges:
            command = [tool, "extract", path, "--record", record, "--with-offset",
                       "--range", f"{start}-{'' if end is None else end}"]
            for field in fields:
                command += ["--field", field]
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as checkpoints:
                if checkpoint is not None:
                    checkpoints.write(checkpoint + "\n")
                    checkpoints.flush()
                    command += ["--checkpoints", checkpoints.name]
                # Diagnostics go to a file: a pipe read only after the rows could fill and stall.
                with tempfile.TemporaryFile("w+") as errors:
                    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
                    for line in process.stdout:
                        row = json.loads(line)
                        yield (row["offset"],) + tuple(None if row[name] is None else str(row[name]) for name in names[1:])
                    status = process.wait()
                    errors.seek(0)
                    if status not in (0, 3):
                        raise RuntimeError(f"saxdispatch failed on range {start}-{end}: {errors.read()}")

    return run


def extract_dataframe(spark, path, record, fields, partitions, use_split=False, tool=None):
    """One DataFrame of the file's records: `offset` (the record's byte offset), then the
    fields as strings, read by `partitions` tasks, a byte range each."""
    tool = tool or tool_path()
    ranges = split_ranges(path, record, partitions, tool) if use_split else byte_ranges(path, partitions)
    names = column_names(path, record, fields, tool)
    schema = StructType([StructField("offset", LongType(), False)]
                        + [StructField(name, StringType(), True) for name in names[1:]])
    rows = spark.sparkContext.parallelize(ranges, len(ranges)).mapPartitions(
        extract_partition(os.path.abspath(path), record, fields, names, tool))
    return spark.createDataFrame(rows, schema)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--record", required=True, help="the records' element name, as saxdispatch extract takes it")
    parser.add_argument("--field", action="append", required=True, help="a --field of saxdispatch extract (repeat it)")
    parser.add_argument("--partitions", type=int, default=os.cpu_count())
    parser.add_argument("--master", default=f"local[{os.cpu_count()}]")
    parser.add_argument("--split", action="store_true", help="ranges from saxdispatch split, not equal byte ranges")
    parser.add_argument("--output", help="write the DataFrame as Parquet here")
    arguments = parser.parse_args()
    spark = SparkSession.builder.master(arguments.master).appName("saxdispatch-ranges").config("spark.ui.showConsoleProgress", "false").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    began = time.monotonic()
    frame = extract_dataframe(spark, arguments.file, arguments.record, arguments.field, arguments.partitions,
                              use_split=arguments.split)
    if arguments.output:
        frame.write.mode("overwrite").parquet(arguments.output)
        count = spark.read.parquet(arguments.output).count()
    else:
        count = frame.count()
    print(f"{count} rows from {arguments.partitions} ranges in {time.monotonic() - began:.1f} s", file=sys.stderr)
    spark.stop()


if __name__ == "__main__":
    main()
