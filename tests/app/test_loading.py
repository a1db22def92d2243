"""The import lock (attnviz.app.loading): first visits from many sessions never import at once.

Each probe runs in a fresh interpreter: only there are torch, pandas and plotly not yet loaded,
which is the state of a server's first visits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from attnviz.app import loading
from attnviz.lessons import lessons

ROOT = Path(__file__).resolve().parents[2]

THREADS = """
import importlib, json, random, sys, threading, traceback

from attnviz.app import loading

VIEWS = {views!r}
barrier = threading.Barrier(8)
failures = []


def visit(seed):
    order = random.Random(seed).sample(VIEWS, len(VIEWS))
    barrier.wait()
    try:
        for name in order:
            with loading.lock():
                view = importlib.import_module(name)
            # What a run then uses: fully made modules, not half-initialised ones.
            assert callable(view.show), name
            import pandas, plotly.graph_objects, torch
            pandas.Series([1.0]), plotly.graph_objects.Figure(), torch.zeros(1)
    except BaseException:
        failures.append(traceback.format_exc())


threads = [threading.Thread(target=visit, args=(seed,)) for seed in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({{"failures": failures, "loaded": all(v in sys.modules for v in VIEWS)}}))
"""

# Every page in AppTest, with a recorder of every module imported for the first time, by whom.
RECORDER = """
import json, sys, threading

import streamlit
from attnviz.app import loading

first = []


class Recorder:
    def find_spec(self, name, path=None, target=None):
        first.append((name, threading.current_thread().name, loading.held()))
        return None


sys.meta_path.insert(0, Recorder())
from streamlit.testing.v1 import AppTest

at = AppTest.from_file("dashboard.py", default_timeout=300).run()
for script in {scripts!r}:
    at.switch_page(script).run()
    assert not at.exception, [e.value for e in at.exception]
# Plotly makes each property class on its first use: small modules whose own imports are
# loaded by then (two threads importing one cannot wait on each other), so they are left out.
outside = sorted({{
    name for name, thread, held in first
    if thread != "MainThread" and not held and name in sys.modules
    and not name.startswith("plotly.graph_objs.")
}})
print(json.dumps(outside))
"""
# What a page may import before its lesson, outside the lock: the light shell every page draws
# its title with (attnviz.app.page and what it imports), Streamlit's own modules and the
# standard library.
TITLE_MODULES = {
    "attnviz.app.page",
    "attnviz.app.feedback",
    "attnviz.app.links",
    "attnviz.app.controls",
    "attnviz.app.state",
    "attnviz.errors",
    "attnviz.i18n",
    "attnviz.lessons",
    "attnviz.paths",
}


def run_fresh(code: str, timeout: float = 600) -> object:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def views() -> list[str]:
    return [f"attnviz.lessons.{lesson.name}.view" for lesson in lessons()]


def test_every_lesson_imports_from_eight_threads_at_once_in_a_fresh_interpreter():
    result = run_fresh(THREADS.format(views=views()))
    assert result == {"failures": [], "loaded": True}, "\n".join(result["failures"])


def test_after_its_title_a_page_imports_only_under_the_lock():
    scripts = [lesson.script for lesson in lessons() if lesson.script != "dashboard.py"]
    outside = run_fresh(RECORDER.format(scripts=scripts))
    assert isinstance(outside, list)
    stdlib = sys.stdlib_module_names

    def light(name: str) -> bool:
        top = name.partition(".")[0]
        if top in stdlib or top == "streamlit" or name in TITLE_MODULES:
            return True
        # The catalogues and the lessons' declarations (their __init__), nothing more.
        parts = name.split(".")
        return parts[:2] == ["attnviz", "strings"] or (
            parts[:2] == ["attnviz", "lessons"] and len(parts) == 3
        )

    assert [name for name in outside if not light(name)] == []
    assert "attnviz.app.page" in outside  # the recorder sees the title's imports


def test_the_lock_is_held_inside_re_entrant_and_warms_once(monkeypatch):
    calls = []
    monkeypatch.setattr(loading, "_warmed", False)
    monkeypatch.setattr(loading, "warm", lambda: calls.append(threading.current_thread().name))
    assert not loading.held()
    with loading.lock():
        assert loading.held()
        with loading.lock():
            assert loading.held()
        assert loading.held()
    assert not loading.held()
    with loading.lock():
        pass
    assert calls == [threading.current_thread().name]


def test_another_thread_waits_for_the_lock():
    entered = threading.Event()

    def enter() -> None:
        with loading.lock():
            entered.set()

    with loading.lock():
        waiting = threading.Thread(target=enter)
        waiting.start()
        assert not entered.wait(0.2)  # blocked while this thread imports
    assert entered.wait(5)
    waiting.join()


TORCH_THREADS = """
import json, torch
from attnviz.app import loading
before = torch.get_num_threads()
with loading.lock():
    pass
print(json.dumps([before, torch.get_num_threads()]))
"""


def probe_threads(environment: dict[str, str]) -> list[int]:
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", TORCH_THREADS], cwd=ROOT, env=env | environment,
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.splitlines()[-1])


def test_the_first_pass_through_the_lock_gives_torch_one_intra_op_thread():
    before, after = probe_threads({"OMP_NUM_THREADS": "2"})
    assert (before, after) == (2, 1)
    assert probe_threads({"OMP_NUM_THREADS": "2", loading.THREADS_ENV: "2"})[1] == 2
    assert probe_threads({"OMP_NUM_THREADS": "2", loading.THREADS_ENV: "zero"})[1] == 1


PRELOADED = """
import sys, threading, time
from attnviz.app import loading
assert not loading.preloading()  # no Streamlit runtime here: nothing starts in the background
release = threading.Event()
def hold():
    with loading.lock():
        release.wait()
holder = threading.Thread(target=hold)
holder.start()
time.sleep(0.1)
worker = threading.Thread(target=loading.preload, kwargs={"delay": 0})
worker.start()
time.sleep(0.5)
assert "transformers" not in sys.modules  # it waits for the lock
release.set()
worker.join(120)
assert all(name in sys.modules for name in loading.PRELOAD), loading.PRELOAD
assert "attnviz.nli.classifier" in sys.modules  # the shipped classifier was loaded
from attnviz.app import model
start = time.perf_counter()
assert model.shipped_card() is not None
assert time.perf_counter() - start < 0.5  # from the cache the preload filled (a load: ~1 s)
print("ok")
"""


def test_the_model_stack_preloads_under_the_lock_and_only_in_a_served_app(monkeypatch):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", PRELOADED], capture_output=True, text=True)
    assert out.stdout.strip().endswith("ok"), out.stderr[-2000:]
    monkeypatch.setenv(loading.PRELOAD_ENV, "0")
    assert not loading.preloading()
