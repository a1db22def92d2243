"""The head finder and ablation on the across-layers page in a real Chromium: SmolLM2's five
strongest induction heads taken out change the next-token bars, none taken out leaves them as
before (title "heads out: 0"), one put back by typing changes them again; the screenshot is
taken."""

from __future__ import annotations

import re

import numpy as np

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import no_exception
from tests.e2e.test_playground_browser import wait_idle, wait_until

BEFORE, AFTER = "across_ablation_before", "across_ablation_after"
# The bars of the chart under a Streamlit key, as Plotly keeps them on its graph div.
BARS = (
    "key => { const d = document.querySelector(`.st-key-${key} .js-plotly-plot`);"
    " return {title: d.layout.title.text, x: Array.from(d.data[0].x),"
    " y: Array.from(d.data[0].y)}; }"
)
# The largest difference between the after and the before bars, bar by bar.
GAP = (
    f"() => {{ const b = ({BARS})('{BEFORE}'), a = ({BARS})('{AFTER}');"
    " return Math.max(...a.x.map((v, i) => Math.abs(v - b.x[i]))); }"
)
# The heads in the multiselect, as its chips name them ("18.6").
CHIPS = (
    "() => Array.from(document.querySelectorAll('.st-key-across_ablate [data-tag]'),"
    " e => e.getAttribute('aria-label'))"
)


def bars(page, key: str) -> tuple[str, np.ndarray, list[str]]:
    found = page.evaluate(BARS, key)
    return found["title"], np.array(found["x"], dtype=float), found["y"]


def test_heads_taken_out_change_the_next_token(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 2800})
    page.goto(f"{app_url}/Across_layers?model=smollm2&view=finder")
    wait_until(page, f"() => ({BARS})('{AFTER}').x.length === 10", timeout=240_000)
    wait_idle(page)
    assert no_exception(page)
    # The chips can come a render after the bars.
    wait_until(page, f"() => ({CHIPS})().length === 5", timeout=60_000)
    removed = page.evaluate(CHIPS)
    assert len(removed) == 5 and all(re.fullmatch(r"\d+\.\d+", h) for h in removed), removed
    _, before, tokens = bars(page, BEFORE)
    after_title, after, _ = bars(page, AFTER)
    assert re.search(r"heads out: 5\b", after_title), after_title
    assert before.shape == after.shape == (10,)
    assert np.abs(after - before).max() > 0.01, (before, after)

    page.locator(f".st-key-{AFTER}").scroll_into_view_if_needed()
    # the grid, the ranked table (a dataframe gets no key class) and the bars on screen
    for part in (".st-key-across_finder_grid", '[data-testid="stDataFrame"]', f".st-key-{AFTER}"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 2800, part
    page.mouse.move(5, 5)  # no hover label
    page.screenshot(path=str(SCREENSHOTS / "finder.png"))

    page.locator(".st-key-across_ablate").get_by_role("button", name="Clear all").click()
    wait_until(
        page,
        f"() => /heads out: 0\\b/.test(({BARS})('{AFTER}').title) && ({GAP})() < 1e-6",
        timeout=60_000,
    )
    wait_idle(page)
    assert no_exception(page)
    assert page.evaluate(CHIPS) == []
    after_title, after, after_tokens = bars(page, AFTER)
    assert re.search(r"heads out: 0\b", after_title), after_title
    _, still, still_tokens = bars(page, BEFORE)
    np.testing.assert_array_equal(still, before)
    assert still_tokens == tokens
    np.testing.assert_allclose(after, before, rtol=0, atol=1e-6)
    assert after_tokens == tokens

    combobox = page.locator(".st-key-across_ablate").get_by_role("combobox")
    combobox.click()
    combobox.press_sequentially(removed[0])
    page.get_by_role("option", name=removed[0], exact=True).wait_for()
    page.keyboard.press("Enter")
    wait_until(page, f"() => ({GAP})() > 1e-4", timeout=60_000)
    wait_idle(page)
    assert no_exception(page)
    assert page.evaluate(CHIPS) == [removed[0]]
    after_title, after, _ = bars(page, AFTER)
    assert re.search(r"heads out: 1\b", after_title), after_title
    assert np.abs(after - before).max() > 1e-4
