"""Load: concurrent sessions drive a real server over Streamlit's own websocket protocol.

A session is what a browser tab sends and receives, without the browser: it opens the Playground
or the NLI page, then, after each think time, moves the temperature slider or types a new seed
(Playground), types a new premise or hypothesis (NLI page), or goes to the other page. A page's
first visit comes from its link (the Playground's asks for random matrices, which have a seed).
A rerun is timed from its BackMsg to its `script_finished`. It fails if the script did not
finish successfully, drew an exception or an error or warning box, left out one of the page's
charts or driven widgets, did not write the new value into the page's link (`links.publish_link`:
the change reached the script), or took longer than the timeout. Server RSS (with its children)
is read from /proc every two seconds.

A class tour (`--tour`) is a class opening a shared link: sessions arrive over the first 60 s
on a fresh server (no warm-up), and each visits every page in turn, at its default inputs, the
first one its index's; a visit fails as a rerun does, or when it drew no element of the page.
`--replicas N` runs it against `python -m attnviz.serve --replicas N` (HAProxy in front).

Targets on the 2-core machine, with 5-15 s think time:
- the class tour (the classroom issue), 100 sessions for 10 minutes: 0 failed reruns, p95 under
  1 s after the first two minutes, first visits p95 under 5 s, RSS (every replica with its
  children) under 2 GB and under 50 MB growth over the second half;
- the two-page load (the hardening issue), 50 sessions for 10 minutes: 0 failed reruns, p95
  under 1 s, RSS under 1.5 GB and under 50 MB growth over the last half;
- a 100-session burst, all opened at once, with no crash (the server still answers and every
  rerun finishes within 120 s).
Exits 1 when a target is missed. The load client's own CPU share is printed with the results.
Run with `python -m benchmarks.load --tour [--sessions 100] [--replicas N]`,
`python -m benchmarks.load [--sessions 50] [--minutes 10] [--think 5 15]`, or
`python -m benchmarks.load --burst 100 [--minutes 2]`; `make load` runs the class tour with two
replicas and the burst. tests/e2e/test_load.py has the short versions: a 30 s two-page load
and a 45 s class tour, 10 sessions each.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qs

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin, Subprotocol

from tests.e2e.conftest import ROOT, free_port, streamlit_command, wait_healthy

MB = 2**20
MAX_P95_S = 1.0
MAX_RSS = 1536 * MB
MAX_GROWTH = 50 * MB
RSS_EVERY_S = 2.0
TOUR_MAX_RSS = 2048 * MB
TOUR_MAX_FIRST_P95_S = 5.0
TOUR_SETTLED_S = 120.0  # the tour's p95 counts reruns that end after this

ValueField = Literal["double_array_value", "int_value", "string_value"]


@dataclass(frozen=True)
class Change:
    """An input a session changes: the widget's key, its proto value field, its link name."""

    action: str
    key: str
    field: ValueField
    param: str


@dataclass(frozen=True)
class Page:
    """A page as a session sees it: URL path, the link it opens with, what every run draws."""

    name: str
    link: str
    charts: tuple[str, ...]
    changes: tuple[Change, ...]

    @property
    def expected(self) -> tuple[str, ...]:
        return self.charts + tuple(change.key for change in self.changes)


# The client stays light (no torch, no plotly), so it names the keys as a browser sees them in
# the widget ids; tests/e2e/test_load.py checks them against the lessons' controls.
PLAYGROUND = Page(
    name="Playground",
    link="src=random&n=8&m=8&dq=4&dk=4&dv=4",
    charts=("pg_steps", "pg_breakdown"),
    changes=(
        Change("temperature", "attn_temperature", "double_array_value", "T"),
        Change("seed", "qkv_seed", "int_value", "seed"),
    ),
)
NLI = Page(
    name="NLI_alignment",
    link="",
    charts=(
        "nli_alignments",  # the shipped model's and the untrained alignments, one figure
        "nli_trained_compare",  # the shipped model's; the untrained one is folded away
    ),
    changes=(
        Change("premise", "nli_premise", "string_value", "premise"),
        Change("hypothesis", "nli_hypothesis", "string_value", "hypothesis"),
    ),
)
PAGES = (PLAYGROUND, NLI)
# Every page's script, the landing page first (the client stays light: no attnviz import).
PAGE_SCRIPTS = (
    "dashboard.py",
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")),
)
SWITCH_PAGE = 0.25  # the chance that a session's next action is the other page
# Temperatures on the slider's grid, without the default (a default is left out of the link).
TEMPERATURES = tuple(round(step * 0.05, 2) for step in range(1, 101) if step != 20)
# 4,096 sentences: new text mostly misses the NLI cache, so the model runs as for a typing user.
SUBJECTS = ("A man", "A woman", "Two children", "The dog", "An old farmer", "A student",
            "The band", "A cyclist")  # fmt: skip
VERBS = ("is reading", "is cooking", "is painting", "is carrying", "is watching",
         "is repairing", "is selling", "is photographing")  # fmt: skip
OBJECTS = ("a book", "a bicycle", "the fence", "a large fish", "the old boat", "a red kite",
           "some bread", "the garden")  # fmt: skip
PLACES = ("in the park", "at the market", "by the river", "on a busy street", "in the kitchen",
          "at night", "near the station", "after the rain")  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """How many sessions, for how long, and how they behave."""

    sessions: int
    seconds: float
    think: tuple[float, float] = (5.0, 15.0)
    ramp: float = 15.0  # sessions open evenly spread over this many seconds
    timeout: float = 30.0  # a rerun without script_finished by then has failed
    seed: int = 0
    tour: bool = False  # every page in turn at its default inputs (a class tour)


@dataclass(frozen=True)
class Run:
    """One rerun: what the session did, how long it took, and what was wrong (None: nothing)."""

    page: str
    action: str
    seconds: float
    end: float  # seconds from the start of the load
    failure: str | None


@dataclass
class Result:
    plan: Plan
    runs: list[Run] = field(default_factory=list)
    connect_failures: list[str] = field(default_factory=list)
    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds, bytes)
    sessions_opened: int = 0
    client_cpu_s: float = 0.0

    @property
    def failures(self) -> list[str]:
        failed = [f"{run.page} {run.action}: {run.failure}" for run in self.runs if run.failure]
        return self.connect_failures + failed

    def latencies(self, runs: Sequence[Run] | None = None) -> list[float]:
        return [run.seconds for run in (self.runs if runs is None else runs) if not run.failure]

    def rss_growth_last_half(self) -> int:
        """RSS at the end minus RSS at half time."""
        half = [(t, rss) for t, rss in self.rss if t >= self.plan.seconds / 2]
        return half[-1][1] - half[0][1] if half else 0


class RerunError(Exception):
    """A rerun that cannot be judged: timed out or the connection closed."""


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank `p`th percentile; nan for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def new_value(change: Change, rng: random.Random, current: object) -> float | int | str:
    """A value for `change` that differs from `current` and from the widget's default."""
    while True:
        value: float | int | str
        if change.field == "double_array_value":
            value = rng.choice(TEMPERATURES)
        elif change.field == "int_value":
            value = rng.randrange(1, 1_000_000)
        else:
            words = (rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS))
            value = " ".join((*words, rng.choice(PLACES)))
        if value != current:
            return value


def widget_state(widget_id: str, change: Change, value: float | int | str) -> WidgetState:
    state = WidgetState(id=widget_id)
    if change.field == "double_array_value":
        state.double_array_value.data.append(float(value))
    else:
        setattr(state, change.field, value)
    return state


def widget_key(element_id: str) -> str | None:
    """The key a page gave a widget: "$$ID-<hash>-attn_temperature" -> "attn_temperature"."""
    parts = element_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[0] == "$$ID" else None


class Client:
    """A browser tab's side of the protocol: the websocket, the page's widget ids, its link."""

    def __init__(self, ws: ClientConnection, timeout: float) -> None:
        self.ws = ws
        self.timeout = timeout
        self.widget_ids: dict[str, str] = {}  # key -> id, from the last run
        self.query = ""  # the address bar's query string, as the app last published it
        self.values: dict[str, object] = {}  # key -> the value this session last set

    async def rerun(
        self, page: Page, widgets: Sequence[WidgetState] = ()
    ) -> tuple[float, list[str]]:
        """Seconds from the BackMsg to script_finished, and what was wrong with the run."""
        msg = BackMsg()
        msg.rerun_script.query_string = self.query
        msg.rerun_script.page_name = page.name
        msg.rerun_script.widget_states.widgets.extend(widgets)
        start = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout):
                await self.ws.send(msg.SerializeToString())
                drawn, problems = await self._read_run()
        except TimeoutError:
            raise RerunError(f"no script_finished within {self.timeout:.0f} s") from None
        except WebSocketException as err:
            raise RerunError(f"connection closed: {err}") from None
        seconds = time.perf_counter() - start
        missing = [key for key in page.expected if key not in drawn]
        if missing:
            problems.append(f"missing {', '.join(missing)}")
        if not drawn:
            problems.append("drew none of the page's elements")
        return seconds, problems

    async def _read_run(self) -> tuple[set[str], list[str]]:
        drawn: set[str] = set()
        problems: list[str] = []
        while True:
            msg = ForwardMsg.FromString(await self.ws.recv(decode=False))
            kind = msg.WhichOneof("type")
            if kind == "new_session":  # a run starts (again, after an st.rerun)
                drawn.clear()
                problems.clear()
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                problem = self._read_element(msg, drawn)
                if problem:
                    problems.append(problem)
            elif kind == "page_info_changed":
                self.query = msg.page_info_changed.query_string
            elif kind == "ref_hash":
                # Only sent for hashes the client says it has cached, which this one never does.
                problems.append("a cached-message reference")
            elif kind == "script_finished":
                status = msg.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue
                if status != ForwardMsg.FINISHED_SUCCESSFULLY:
                    problems.append(ForwardMsg.ScriptFinishedStatus.Name(status))
                return drawn, problems

    def _read_element(self, msg: ForwardMsg, drawn: set[str]) -> str | None:
        element = msg.delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            return f"exception {element.exception.type}: {element.exception.message[:120]}"
        if kind == "alert" and element.alert.format in (Alert.ERROR, Alert.WARNING):
            name = Alert.Format.Name(element.alert.format).lower()
            return f"{name} box: {element.alert.body[:120]}"
        key = widget_key(getattr(getattr(element, kind), "id", "")) if kind else None
        if key is not None:
            drawn.add(key)
            self.widget_ids[key] = getattr(element, str(kind)).id
        return None

    async def change(
        self, page: Page, change: Change, rng: random.Random
    ) -> tuple[float, list[str]]:
        """Set a new value in one widget and rerun; check that the link now holds it."""
        if change.key not in self.widget_ids:
            raise RerunError(f"no {change.key} widget to change")
        value = new_value(change, rng, self.values.get(change.key))
        self.values[change.key] = value
        state = widget_state(self.widget_ids[change.key], change, value)
        seconds, problems = await self.rerun(page, [state])
        published = parse_qs(self.query).get(change.param)
        if published != [str(value)]:
            problems.append(f"link has {change.param}={published}, expected {value!r}")
        return seconds, problems


async def open_session(url: str, timeout: float) -> ClientConnection:
    ws_url = url.replace("http://", "ws://", 1) + "/_stcore/stream"
    return await connect(
        ws_url,
        subprotocols=[Subprotocol("streamlit")],
        origin=Origin(url),
        max_size=None,  # the server allows 64 MiB (server.maxMessageSize)
        open_timeout=timeout,
    )


async def act(
    client: Client, page: Page, action: str, rng: random.Random
) -> tuple[float, list[str]]:
    """One user action: open `page` (from its link: "open"; from another page: "page", and a
    tour's "first" and "again") or change one of its inputs."""
    if action in ("open", "page", "first", "again"):
        # Streamlit drops the query string when the page changes; a link sets it on opening.
        client.query = page.link if action == "open" else ""
        return await client.rerun(page)
    change = next(change for change in page.changes if change.action == action)
    return await client.change(page, change, rng)


def next_action(page: Page, rng: random.Random) -> tuple[Page, str]:
    if rng.random() < SWITCH_PAGE:
        return next(other for other in PAGES if other is not page), "page"
    return page, rng.choice(page.changes).action


def page_steps(index: int, rng: random.Random) -> Iterator[tuple[Page, str]]:
    """The two-page load's actions: open a page, then change its inputs or switch pages."""
    page, action = PAGES[index % len(PAGES)], "open"
    visited: set[str] = set()
    while True:
        yield page, action
        visited.add(page.name)
        page, action = next_action(page, rng)
        if page.name not in visited:
            action = "open"


def tour_steps(index: int) -> Iterator[tuple[Page, str]]:
    """A class tour's visits: every page in turn from page `index`; a page's first visit by
    the session is "first", later ones "again"."""
    pages = every_page()
    visited: set[str] = set()
    for step in itertools.count(index):
        page = pages[step % len(pages)]
        yield page, "again" if page.name in visited else "first"
        visited.add(page.name)


async def session(url: str, index: int, plan: Plan, result: Result, start: float) -> None:
    """One session: its steps (`tour_steps` or `page_steps`), one after each think time, until
    the plan's time is up."""
    rng = random.Random(plan.seed * 100_003 + index)
    await asyncio.sleep(plan.ramp * index / max(plan.sessions, 1))
    try:
        ws = await open_session(url, plan.timeout)
    except (OSError, TimeoutError, WebSocketException) as err:
        result.connect_failures.append(f"session {index} could not connect: {err!r}")
        return
    result.sessions_opened += 1
    client = Client(ws, plan.timeout)
    try:
        for page, action in tour_steps(index) if plan.tour else page_steps(index, rng):
            try:
                seconds, problems = await act(client, page, action, rng)
            except RerunError as err:
                # The session's state is unknown after a lost run: it ends, as a reload would.
                end = time.perf_counter() - start
                result.runs.append(Run(page.name, action, math.nan, end, str(err)))
                return
            end = time.perf_counter() - start
            failure = "; ".join(problems) or None
            result.runs.append(Run(page.name, action, seconds, end, failure))
            think = rng.uniform(*plan.think)
            if think >= plan.seconds - end:
                return
            await asyncio.sleep(think)
    finally:
        await ws.close()


async def warm_up(url: str, timeout: float) -> None:
    """Imports, the model and the first figures, in one uncounted session."""
    rng = random.Random(-1)
    async with await open_session(url, timeout) as ws:
        client = Client(ws, timeout)
        for page in PAGES:
            for action in ("open", *(change.action for change in page.changes)):
                _, problems = await act(client, page, action, rng)
                if problems:
                    raise RuntimeError(f"warm-up {page.name} {action}: {'; '.join(problems)}")


def every_page() -> tuple[Page, ...]:
    """Every page of the app as a session opens it (its URL path name, default inputs)."""
    names = ["" if not script.startswith("pages/") else script[6:-3].split("_", 1)[1]
             for script in PAGE_SCRIPTS]  # fmt: skip
    return tuple(Page(name=name, link="", charts=(), changes=()) for name in names)


def page_title(name: str) -> str:
    return name or "dashboard"


async def first_visits(url: str, sessions: int, timeout: float = 120.0) -> list[str]:
    """`sessions` sessions opened at once, session i on page i (round the pages), so that every
    page has its first visits together; what went wrong in any run (an exception, an error or
    warning box, a run that did not finish), as "session page: problem"."""
    pages = every_page()

    async def visit(index: int) -> list[str]:
        page = pages[index % len(pages)]
        async with await open_session(url, timeout) as ws:
            try:
                _, problems = await Client(ws, timeout).rerun(page)
            except RerunError as err:
                problems = [str(err)]
        return [f"session {index} {page.name or 'dashboard'}: {p}" for p in problems]

    results = await asyncio.gather(*(visit(i) for i in range(sessions)))
    return [problem for found in results for problem in found]


def rss_bytes(pid: int) -> int:
    """VmRSS of `pid` and all its descendants, from /proc (0 once the process is gone)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        proc = Path(f"/proc/{current}")
        try:
            status = (proc / "status").read_text()
            tasks = list((proc / "task").iterdir())
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        for task in tasks:
            with suppress(OSError):
                todo.extend(int(child) for child in (task / "children").read_text().split())
    return total


async def monitor(
    pids: Sequence[int], result: Result, start: float, progress: float | None
) -> None:
    """Sample the servers' RSS; print a line every `progress` seconds."""
    shown = 0.0
    while True:
        now = time.perf_counter() - start
        if pids:
            result.rss.append((now, sum(rss_bytes(pid) for pid in pids)))
        if progress and now - shown >= progress:
            shown = now
            failed = sum(1 for run in result.runs if run.failure)
            rss = f", RSS {result.rss[-1][1] / MB:.0f} MB" if result.rss else ""
            p95 = percentile(result.latencies(), 95)
            print(
                f"{now:6.0f} s  {len(result.runs)} reruns, {failed} failed, p95 {p95:.2f} s{rss}",
                flush=True,
            )
        await asyncio.sleep(RSS_EVERY_S)


async def drive(
    url: str, plan: Plan, pids: Sequence[int] = (), progress: float | None = None
) -> Result:
    """Run `plan` against the server at `url` (warmed up first, unless it is a tour of a fresh
    server); the RSS of the processes `pids` (with their children) is sampled."""
    if not plan.tour:
        await warm_up(url, plan.timeout)
    result = Result(plan)
    cpu = time.process_time()
    start = time.perf_counter()
    watch = asyncio.create_task(monitor(pids, result, start, progress))
    await asyncio.gather(*(session(url, i, plan, result, start) for i in range(plan.sessions)))
    watch.cancel()
    if pids:
        result.rss.append((time.perf_counter() - start, sum(rss_bytes(p) for p in pids)))
    result.client_cpu_s = time.process_time() - cpu
    return result


def report(result: Result) -> list[str]:
    plan, runs = result.plan, result.runs
    failed = [run for run in runs if run.failure]
    latencies = result.latencies()
    lines = [
        f"sessions  {result.sessions_opened} of {plan.sessions} opened, "
        f"{len(result.connect_failures)} could not connect",
        f"reruns    {len(runs)}, {len(failed)} failed "
        f"({len(runs) / max(plan.seconds, 1):.1f} a second)",
        "latency   " + latency_text(latencies) + f", max {max(latencies, default=math.nan):.2f} s",
    ]
    if plan.tour:
        settled = [run for run in runs if run.end >= TOUR_SETTLED_S]
        firsts = [run for run in runs if run.action == "first"]
        lines += [
            f"after {TOUR_SETTLED_S:.0f} s  " + latency_text(result.latencies(settled)),
            "first visits  " + latency_text(result.latencies(firsts)),
        ]
        for page in every_page():
            these = [run for run in runs if run.page == page.name]
            label = page_title(page.name)
            first = percentile(result.latencies([r for r in these if r.action == "first"]), 95)
            later = result.latencies([run for run in these if run.end >= TOUR_SETTLED_S])
            lines.append(
                f"  {label:<22} {len(these):>5}  first p95 {first:.2f} s, after "
                f"{TOUR_SETTLED_S:.0f} s {latency_text(later)}"
            )
    pages = () if plan.tour else PAGES
    for page in pages:
        for action in ("open", "page", *(change.action for change in page.changes)):
            these = [run for run in runs if run.page == page.name and run.action == action]
            if these:
                label = f"{page.name} {action}"
                text = latency_text(result.latencies(these))
                lines.append(f"  {label:<26} {len(these):>5}  {text}")
    if result.rss:
        rss = [value for _, value in result.rss]
        lines.append(
            f"RSS       start {rss[0] / MB:.0f} MB, max {max(rss) / MB:.0f} MB, "
            f"end {rss[-1] / MB:.0f} MB, growth over the last half "
            f"{result.rss_growth_last_half() / MB:+.0f} MB"
        )
    share = result.client_cpu_s / max(plan.seconds, 1)
    lines.append(f"client    {result.client_cpu_s:.0f} s CPU ({share:.0%} of one core)")
    lines += timeline(result)
    problems = Counter(result.failures)
    if problems:
        lines.append("failures:")
        lines += [f"  {count:>4} x {text}" for text, count in problems.most_common(10)]
    return lines


def latency_text(latencies: Sequence[float]) -> str:
    p50, p95, p99 = (percentile(latencies, p) for p in (50, 95, 99))
    return f"p50 {p50:.2f} s, p95 {p95:.2f} s, p99 {p99:.2f} s"


def timeline(result: Result) -> list[str]:
    """Reruns, failures, p95 and RSS per tenth of the run."""
    window = max(5.0, result.plan.seconds / 10)
    lines = [f"{'from s':>8} {'reruns':>7} {'failed':>7} {'p95 s':>6} {'RSS MB':>7}"]
    for begin in range(0, math.ceil(result.plan.seconds), math.ceil(window)):
        end = begin + window
        runs = [run for run in result.runs if begin <= run.end < end]
        rss = [value for t, value in result.rss if begin <= t < end]
        p95 = percentile(result.latencies(runs), 95)
        rss_text = f"{max(rss) / MB:7.0f}" if rss else f"{'-':>7}"
        failed = sum(1 for run in runs if run.failure)
        lines.append(f"{begin:>8} {len(runs):>7} {failed:>7} {p95:>6.2f} {rss_text}")
    return lines


def misses(result: Result, burst: bool) -> list[str]:
    """The targets `result` missed; empty when it met them all."""
    missed = []
    if result.failures:
        missed.append(f"{len(result.failures)} failed reruns or connections (target 0)")
    if burst:
        return missed
    plan = result.plan
    counted = [run for run in result.runs if not plan.tour or run.end >= TOUR_SETTLED_S]
    p95 = percentile(result.latencies(counted), 95)
    after = f" after {TOUR_SETTLED_S:.0f} s" if plan.tour else ""
    if not p95 < MAX_P95_S:
        missed.append(f"p95{after} {p95:.2f} s (target under {MAX_P95_S:.0f} s)")
    if plan.tour:
        firsts = [run for run in result.runs if run.action == "first"]
        first = percentile(result.latencies(firsts), 95)
        if not first < TOUR_MAX_FIRST_P95_S:
            missed.append(
                f"first visits p95 {first:.2f} s (target under {TOUR_MAX_FIRST_P95_S:.0f} s)"
            )
    most = TOUR_MAX_RSS if plan.tour else MAX_RSS
    if result.rss:
        top = max(value for _, value in result.rss)
        if top >= most:
            missed.append(f"RSS max {top / MB:.0f} MB (target under {most / MB:.0f} MB)")
        growth = result.rss_growth_last_half()
        if growth >= MAX_GROWTH:
            missed.append(
                f"RSS grew {growth / MB:.0f} MB over the last half "
                f"(target under {MAX_GROWTH / MB:.0f} MB)"
            )
    return missed


@contextmanager
def server() -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """`streamlit run dashboard.py` headless on a free loopback port, with its log file."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = Path(tempfile.gettempdir()) / f"attnviz-load-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            streamlit_command("dashboard.py", port), cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            wait_healthy(url, process, log, timeout=120)
            yield url, process, log
        finally:
            process.terminate()
            process.wait(timeout=20)


@contextmanager
def balanced(replicas: int, timeout: float = 180) -> Iterator[tuple[str, dict[str, int], Path]]:
    """`python -m attnviz.serve --replicas N` on a free loopback port (HAProxy in front when N
    is over one): its URL, the pid of each replica by name (r0, r1, ...) and the log file that
    the replicas and HAProxy write to (a file, not a pipe: nothing can block on it)."""
    port = free_port()
    command = [sys.executable, "-m", "attnviz.serve", "--replicas", str(replicas),
               "--host", "127.0.0.1", "--port", str(port)]  # fmt: skip
    log = Path(tempfile.gettempdir()) / f"attnviz-serve-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    try:
        while "behind HAProxy" not in (text := log.read_text(errors="replace")):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the balancer did not start: {text[-2000:]}")
            time.sleep(0.1)
        found = re.findall(r"replica (r\d+) pid (\d+) port \d+", text)
        pids = {name: int(pid) for name, pid in found}
        if len(pids) != replicas or not healthy(url):
            raise RuntimeError(f"the balancer did not start: {text[-2000:]}")
        yield url, pids, log
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=10) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tour", action="store_true", help="a class tour of every page")
    parser.add_argument("--sessions", type=int, help="default 100 with --tour, else 50")
    parser.add_argument("--minutes", type=float, help="default 10, or 2 with --burst")
    parser.add_argument("--think", type=float, nargs=2, default=(5.0, 15.0), metavar=("LO", "HI"))
    parser.add_argument("--ramp", type=float, help="seconds to open all sessions (default HI, "
                        "60 with --tour)")  # fmt: skip
    parser.add_argument("--timeout", type=float, help="seconds a rerun may take (default 30)")
    parser.add_argument("--burst", type=int, metavar="N", help="open N sessions at once")
    parser.add_argument(
        "--replicas",
        type=int,
        default=0,
        help="serve through attnviz.serve with N replicas (0: one plain server)",
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    burst = args.burst is not None
    ramp = 0.0 if burst else 60.0 if args.tour else args.think[1]
    plan = Plan(
        sessions=args.burst if burst else args.sessions or (100 if args.tour else 50),
        seconds=60 * (args.minutes or (2 if burst else 10)),
        think=(args.think[0], args.think[1]),
        ramp=args.ramp if args.ramp is not None else ramp,
        timeout=args.timeout or (120.0 if burst else 60.0 if args.tour else 30.0),
        seed=args.seed,
        tour=args.tour and not burst,
    )
    kind = "burst" if burst else "class tour" if plan.tour else "load"
    where = f"{args.replicas} replicas behind HAProxy" if args.replicas > 1 else "one server"
    print(
        f"{kind}: {plan.sessions} sessions for {plan.seconds / 60:g} min, think "
        f"{plan.think[0]:g}-{plan.think[1]:g} s, opened over {plan.ramp:g} s, "
        f"rerun timeout {plan.timeout:g} s, {where}",
        flush=True,
    )
    every = max(10.0, plan.seconds / 10)
    if args.replicas > 1:
        with balanced(args.replicas) as (url, pids, log):
            result = asyncio.run(drive(url, plan, list(pids.values()), progress=every))
            alive = healthy(url) and all(Path(f"/proc/{pid}").exists() for pid in pids.values())
            tracebacks = log.read_text(errors="replace").count("Traceback")
    else:
        with server() as (url, process, log):
            result = asyncio.run(drive(url, plan, [process.pid], progress=every))
            alive = process.poll() is None and healthy(url)
            tracebacks = log.read_text(errors="replace").count("Traceback")
    print("\n".join(report(result)))
    state = "running and healthy" if alive else "DOWN"
    print(f"server    {state}, {tracebacks} tracebacks in its log")
    missed = misses(result, burst)
    if not alive:
        missed.insert(0, "the server crashed or stopped answering")
    if tracebacks:
        missed.append(f"{tracebacks} tracebacks in the server log ({log})")
    else:
        log.unlink()
    if missed:
        print("MISSED: " + "; ".join(missed))
        sys.exit(1)
    print("all targets met")


if __name__ == "__main__":
    main()
