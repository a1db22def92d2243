"""A class arriving at once: 20 sessions open the pages of a freshly started server together
(every page by two or three of them), five times over (five fresh servers), with no exception
and no error box in any run.

A fresh server is where first visits import torch, pandas, pyarrow, plotly and transformers,
from many script threads at once (attnviz.app.loading); a warm one has nothing left to import.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from attnviz.lessons import lessons
from benchmarks import load

ROUNDS = 5
SESSIONS = 20


def test_every_page_is_reached_by_name() -> None:
    pages = load.every_page()
    assert len(pages) == len(lessons()) and pages[0].name == ""  # the landing page
    assert {page.name for page in pages} >= {"Playground", "NLI_alignment", "Model_attention"}


def test_twenty_first_visits_at_once_on_five_fresh_servers() -> None:
    problems = []
    for _ in range(ROUNDS):
        with load.server() as (url, process, log):
            # In a thread of its own: Playwright's sync API keeps an event loop in this one.
            with ThreadPoolExecutor(1) as pool:
                found = pool.submit(asyncio.run, load.first_visits(url, SESSIONS)).result()
            alive = process.poll() is None
            tracebacks = log.read_text(errors="replace").count("Traceback")
        problems += found
        assert alive, "the server stopped"
        assert tracebacks == 0, log.read_text(errors="replace")[-3000:]
    assert problems == [], "\n".join(problems[:20])
