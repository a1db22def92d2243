"""The one timer of the benchmarks: the median of repeated calls, measured in this run; the
`--repeats` option of the benchmarks that take only it."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable


def median_seconds(fn: Callable[[], object], repeats: int, warm_up: bool = True) -> float:
    """Median wall time of `fn()` over `repeats` calls, after one uncounted call."""
    if warm_up:
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def repeats_option(doc: str, default: int = 3) -> int:
    """`--repeats N` from the command line of a benchmark whose docstring is `doc`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=default)
    return int(parser.parse_args().repeats)
