"""Two replicas behind HAProxy on 127.0.0.1 (make serve REPLICAS=2): pages, a CSV download and
an upload through the balancer, a short load without a failed rerun, and a replica killed under
a browser: it reconnects to the other, its settings restored from the link, and says so."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from attnviz import i18n
from benchmarks import load
from tests.e2e.test_model_pages_browser import no_exception
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle


@pytest.fixture(scope="module")
def balanced() -> Iterator[tuple[str, dict[str, int]]]:
    """`python -m attnviz.serve --replicas 2` on loopback: the balancer's URL and pid by replica."""
    if shutil.which("haproxy") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("haproxy is missing: make test installs it (scripts/ensure_haproxy.sh)")
        pytest.skip("haproxy is missing")
    with load.balanced(2) as (url, pids, _log):
        yield url, pids


def test_pages_download_and_upload_through_the_balancer(balanced, page, tmp_path):
    url, _ = balanced
    page.goto(f"{url}/NLI_alignment")
    wait_for_charts(page, 7)
    assert no_exception(page)
    with page.expect_download(timeout=60_000) as download:  # a media request: same replica
        page.get_by_role("button", name="Aligned token pairs (CSV)").click()
    assert download.value.path().read_text().splitlines()[0].startswith("Hypothesis token")
    page.get_by_role("radio", name="A batch of pairs").click()
    upload = page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".csv"]')
    upload.wait_for(state="attached", timeout=30_000)
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("premise,hypothesis\nA man sleeps,A man rests\nA cat runs,An animal moves\n")
    upload.set_input_files(str(pairs))  # an upload request: same replica
    page.get_by_text("Loaded 2 pairs from pairs.csv.").wait_for(timeout=30_000)
    assert no_exception(page)


def test_a_short_load_through_the_balancer_fails_no_rerun(balanced):
    url, _ = balanced
    plan = load.Plan(sessions=6, seconds=25, think=(1.0, 3.0), ramp=3.0)
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(asyncio.run, load.drive(url, plan)).result()
    assert not result.failures, "\n".join(load.report(result))
    assert result.sessions_opened == plan.sessions and len(result.runs) >= 2 * plan.sessions


def test_a_killed_replica_sends_its_browser_to_the_other_with_its_settings(balanced, page):
    url, pids = balanced
    page.goto(f"{url}/?T=0.5")
    slider = page.get_by_role("slider").first
    slider.wait_for(timeout=60_000)
    wait_idle(page)
    cookie = {c["name"]: c["value"] for c in page.context.cookies()}["ATTNVIZ_REPLICA"]
    os.kill(pids[cookie], signal.SIGKILL)
    # The browser reconnects to the other replica; its next change runs there, from the link.
    deadline = time.monotonic() + 60
    notice = i18n.EN["app.failover"][:40]
    while page.get_by_text(notice).count() == 0 and time.monotonic() < deadline:
        page.wait_for_timeout(2_000)
        slider.focus()
        page.keyboard.press("ArrowRight")
        wait_idle(page)
    assert page.get_by_text(notice).count() == 1
    value = float(page.evaluate("() => new URLSearchParams(location.search).get('T')") or "nan")
    assert 0.5 <= value <= 0.7  # the link's 0.5 (or moved on by a key press), not the default 1.0
    other = {c["name"]: c["value"] for c in page.context.cookies()}["ATTNVIZ_REPLICA"]
    assert other != cookie and no_exception(page)
