"""Each page's script run with default inputs, timed in AppTest after a warm-up run.

Target: under 300 ms a run on this machine for every page once its caches are warm (the model
pages load all-MiniLM-L6-v2 in the warm-up). Run with `python -m benchmarks.bench_pages`.
"""

from __future__ import annotations

import statistics
import time

from streamlit.testing.v1 import AppTest

from attnviz.app.page import APP_ROOT, LESSONS

RUNS = 5


def main() -> None:
    at = AppTest.from_file(str(APP_ROOT / "dashboard.py"), default_timeout=180).run()
    print(f"{'page':>32} {'median ms':>10} {'max ms':>8}")
    for script in (lesson.script for lesson in LESSONS):
        at.switch_page(script).run()  # warm-up: imports, model load, caches
        times = []
        for _ in range(RUNS):
            start = time.perf_counter()
            at.run()
            times.append(time.perf_counter() - start)
        if at.exception:
            raise SystemExit(f"{script}: {[e.value for e in at.exception]}")
        median, worst = statistics.median(times) * 1e3, max(times) * 1e3
        print(f"{script:>32} {median:10.0f} {worst:8.0f}")


if __name__ == "__main__":
    main()
