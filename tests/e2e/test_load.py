"""The short `make load`: a two-page load and a class tour, 10 sessions each, no failure.

Think time is 1-3 s here instead of the full run's 5-15 s, so that 30 s gives each session
several reruns. Latency and RSS targets belong to the full run (`python -m benchmarks.load`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from attnviz.app import matrix_input as inputs
from attnviz.lessons.nli import view as nli_view
from attnviz.lessons.playground import view as pg
from benchmarks import load


def test_driven_keys_and_link_names_are_the_apps() -> None:
    assert [c.key for c in load.PLAYGROUND.changes] == [pg.TEMPERATURE.key, inputs.RANDOM["seed"]]
    assert [c.key for c in load.NLI.changes] == [nli_view.PREMISE.key, nli_view.HYPOTHESIS.key]
    for page, params in ((load.PLAYGROUND, pg.LINK), (load.NLI, nli_view.LINK)):
        names = {param.key: param.name for param in params}
        assert [names[c.key] for c in page.changes] == [c.param for c in page.changes]


def test_ten_sessions_for_thirty_seconds(app_url: str) -> None:
    plan = load.Plan(sessions=10, seconds=30, think=(1.0, 3.0), ramp=3.0)
    # In a thread of its own: Playwright's sync API keeps an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(asyncio.run, load.drive(app_url, plan)).result()
    # Every rerun was checked as it finished: successful, no exception or error box, the
    # page's charts and widgets drawn, and a changed value written back into the page's link.
    assert not result.failures, "\n".join(load.report(result))
    assert result.sessions_opened == plan.sessions
    assert len(result.runs) >= 3 * plan.sessions
    done = Counter((run.page, run.action) for run in result.runs)
    for page in load.PAGES:
        for change in page.changes:
            assert done[page.name, change.action], f"no {change.action} on {page.name}: {done}"


def test_a_class_tour_of_every_page_fails_no_rerun(app_url: str) -> None:
    """The short class tour: 10 sessions, each visiting every page in turn from its own."""
    plan = load.Plan(sessions=10, seconds=40, think=(1.0, 3.0), ramp=5.0, timeout=60, tour=True)
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(asyncio.run, load.drive(app_url, plan)).result()
    assert not result.failures, "\n".join(load.report(result))
    assert result.sessions_opened == plan.sessions
    visits = Counter(run.page for run in result.runs)
    assert set(visits) == {page.name for page in load.every_page()}, visits
    firsts = [run for run in result.runs if run.action == "first"]
    assert len(firsts) >= len(load.every_page()), "every page had a first visit"
    assert any(run.action == "again" for run in result.runs), "a session came round again"
