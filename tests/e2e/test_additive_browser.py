"""The additive attention page in a real Chromium: charts draw, an edit of W_q reaches them, a
click on a cell of any comparison panel shows that query's features."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import Error as PlaywrightError

from attnviz.attention import attend
from attnviz.inputs import random_qkv as random_inputs
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

SCORES = "Additive scores"
EXCEPTION = '[data-testid="stException"]'
# A figure of panels (`attnviz.figures.panels`) names its panels' titles and traces in its
# layout's meta: the panel titled `title`'s first heatmap, and page coordinates of its cell.
PANEL_HEAT = (
    "title => { const d = [...document.querySelectorAll('.js-plotly-plot')]"
    ".find(d => ((d.layout.meta || {}).titles || []).includes(title));"
    " const [a, b] = d.layout.meta.traces[d.layout.meta.titles.indexOf(title)];"
    " return [d, d._fullData.slice(a, b).find(t => t.type === 'heatmap')]; }"
)
PANEL_Z = f"title => Array.from(({PANEL_HEAT})(title)[1].z, row => Array.from(row))"
PANEL_CELL_XY = (
    f"([title, row, col]) => {{ const [d, t] = ({PANEL_HEAT})(title);"
    " d.scrollIntoView({block: 'center'}); const L = d._fullLayout;"
    " const xa = L[t.xaxis.replace('x', 'xaxis')], ya = L[t.yaxis.replace('y', 'yaxis')];"
    " const box = d.getBoundingClientRect();"
    " return [box.left + xa._offset + xa.d2p(col), box.top + ya._offset + ya.d2p(row)]; }"
)
PANEL_TITLES = (
    "() => [...document.querySelectorAll('.js-plotly-plot')]"
    ".flatMap(d => (d.layout.meta || {}).titles || [])"
)


# What each chart holding the panel `title` has drawn: its layout's panels against Plotly's own
# traces (a failed read says which of them was missing).
PANEL_STATE = (
    "title => [...document.querySelectorAll('.js-plotly-plot')]"
    ".filter(d => ((d.layout.meta || {}).titles || []).includes(title))"
    ".map(d => ({meta: d.layout.meta, data: (d.data || []).map(t => t.type),"
    " full: (d._fullData || []).map(t => [t.type, t.z ? t.z.length : null])}))"
)


def z_of(page, title: str) -> np.ndarray:
    """The matrix of the panel titled `title`, once a drawn chart holds that panel (a chart the
    last run changed is mounted anew: for a moment no chart holds it)."""
    for _ in range(3):
        try:
            wait_until(page, f"() => ({PANEL_Z})({title!r}).length > 0", timeout=15_000)
            return np.array(page.evaluate(PANEL_Z, title), dtype=float)
        except PlaywrightError:  # remounted between the wait and the read: wait again
            continue
    state = page.evaluate(PANEL_STATE, title)
    titles = page.evaluate(PANEL_TITLES)
    raise AssertionError(
        f"no chart held the panel {title!r} long enough to be read: {state}; the panels drawn:"
        f" {titles}; the link: {page.url}"
    )


def test_additive_page_draws_and_reacts(app_url, page):
    page.goto(f"{app_url}/Additive_attention")
    wait_for_charts(page, 4)
    assert page.locator(EXCEPTION).count() == 0
    q, k, v = random_inputs(3, 5, 2, 4, 3, 0)
    expected = attend(q, k, v, score="additive", params={"h": 8, "seed": 0})
    np.testing.assert_allclose(z_of(page, SCORES), expected.scores, rtol=1e-5, atol=1e-6)
    # Streamlit scrolls inside its own container: a tall window shows the whole page.
    page.set_viewport_size({"width": 1400, "height": 4400})
    wait_for_charts(page, 4)
    page.screenshot(path=str(SCREENSHOTS / "additive.png"))
    page.set_viewport_size({"width": 1400, "height": 1500})

    # A W_q of the wrong shape: a clear error, no traceback, the text stays.
    w_q = page.get_by_label("W_q (h × q = 8 × 2)")
    w_q.fill("1, 2\n3, 4")
    w_q.press("Control+Enter")
    error = page.locator('[data-testid="stAlertContentError"]')
    error.first.wait_for(timeout=30_000)
    assert "W_q has shape 2 × 2 but must be h × q = 8 × 2" in error.first.inner_text()
    assert w_q.input_value() == "1, 2\n3, 4"
    assert page.locator(EXCEPTION).count() == 0

    # Back to the seed's parameters: the same scores as before.
    page.get_by_role("button", name="Re-draw from seed").click()
    wait_for_charts(page, 4)
    wait_idle(page)
    np.testing.assert_allclose(z_of(page, SCORES), expected.scores, rtol=1e-5, atol=1e-6)
    assert page.locator(EXCEPTION).count() == 0


BAR_LABELS = """() => [...document.querySelectorAll('.js-plotly-plot')].flatMap(d =>
    [...d.querySelectorAll('.colorbar')].map(bar => [(d.layout.meta || {}).titles,
        [...bar.querySelectorAll('.ytick text, .cbaxis text')].map(t => t.textContent)]))
    .filter(([, ticks]) => ticks.length > 0)"""


def test_no_colour_bar_is_a_lone_zero(app_url, page):
    """Every colour bar names at least its two ends (short ones drew a single "0")."""
    page.set_viewport_size({"width": 1400, "height": 3000})
    page.goto(f"{app_url}/Additive_attention")
    wait_for_charts(page, 4)
    wait_idle(page)
    bars = page.evaluate(BAR_LABELS)
    assert bars and all(len(ticks) >= 2 for _, ticks in bars), bars


def test_a_click_on_a_comparison_panel_shows_that_querys_features(app_url, page):
    page.set_viewport_size({"width": 1366, "height": 1500})
    page.goto(f"{app_url}/Additive_attention")
    wait_for_charts(page, 4)
    q, k, v = random_inputs(3, 5, 2, 4, 3, 0)
    params = attend(q, k, v, score="additive", params={"h": 8, "seed": 0}).params
    q_proj, k_proj = (q @ params["W_q"].T).numpy(), (k @ params["W_k"].T).numpy()  # (n, h), (m, h)
    # The dot product's weights (right column, second row), then the additive outputs (left,
    # third row): each panel's cell, decoded, names its query.
    for title, row, col in (("Scaled dot-product weights", 2, 1), ("Additive outputs", 1, 2)):
        x, y = page.evaluate(PANEL_CELL_XY, [title, row, col])
        page.mouse.click(x, y)
        features = f"tanh(W_q q + W_k k_j) for query q{row} (m × h)"
        wait_until(page, f"() => ({PANEL_TITLES})().includes({features!r})", timeout=30_000)
        wait_idle(page)
        np.testing.assert_allclose(
            z_of(page, features), np.tanh(q_proj[row] + k_proj), rtol=1e-5, atol=1e-6
        )
        assert f"q={row}" in page.url
    assert page.locator(EXCEPTION).count() == 0
