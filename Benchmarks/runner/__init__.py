"""The benchmark runner's parts, one per kind of run; `Benchmarks/run` is its command line."""
