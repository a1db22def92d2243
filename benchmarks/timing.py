"""The one timer of the benchmarks: the median of repeated calls, measured in this run."""

from __future__ import annotations

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
