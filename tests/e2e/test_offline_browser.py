"""Offline in a real Chromium: no page asks anything of a host other than the app's own.

A classroom may have no internet: every script, style, font and icon a page needs comes from
the server it was opened from (the tab's icon was fetched from fonts.gstatic.com before).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT
from tests.e2e.test_playground_browser import wait_idle

# The landing page and every page script, by the URL Streamlit gives it ("1_Playground.py" ->
# "Playground").
PAGES = ["", *(p.stem.partition("_")[2] for p in sorted(Path(ROOT, "pages").glob("*.py")))]
# Made in the browser itself; they never reach a network.
LOCAL_SCHEMES = ("data:", "blob:")
ICON = "() => document.querySelector(\"link[rel='shortcut icon']\")?.href ?? ''"


def test_the_pages_are_the_landing_page_and_every_script():
    assert len(PAGES) == 1 + len(list(Path(ROOT, "pages").glob("*.py")))
    assert "Playground" in PAGES and "Train_NLI" in PAGES


@pytest.mark.parametrize("path", PAGES, ids=[p or "landing" for p in PAGES])
def test_every_request_goes_to_the_app_itself(app_url, page, path):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{app_url}/{path}")
    wait_idle(page)
    # Fonts, formula fonts and images are asked for as the page draws: until nothing is loading.
    page.wait_for_load_state("networkidle")
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator("h1").count() >= 1
    outside = [
        url
        for url in requests
        if not url.startswith(f"{app_url}/") and not url.startswith(LOCAL_SCHEMES)
    ]
    assert outside == [], f"{path or 'landing'} asked other hosts for: {outside}"
    assert len(requests) > 10  # the recorder saw the page load its scripts
    # The tab's icon is the app's own, drawn in the browser (not Streamlit's default file).
    assert page.evaluate(ICON).startswith("data:image/svg+xml")
