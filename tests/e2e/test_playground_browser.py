"""The Playground in a real Chromium: heatmaps draw, the scoring function changes them, a click on
a cell of any step's panel selects its query and key."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.conftest import SCREENSHOTS

CHARTS = '[data-testid="stPlotlyChart"]'
# Plotly keeps the drawn traces (decoded) on its graph div; a chart is found by its title, a
# panel of a figure of panels (`attnviz.figures.panels`) by its title in the layout's meta: the
# graph div and the chart's (the panel's) traces.
TRACES_OF = (
    "title => { const d = [...document.querySelectorAll('.js-plotly-plot')].find(d =>"
    " (d.layout.title || {}).text === title"
    " || ((d.layout.meta || {}).titles || []).includes(title));"
    " const m = d.layout.meta || {}, i = (m.titles || []).indexOf(title);"
    " return [d, i < 0 ? d._fullData : d._fullData.slice(...m.traces[i])]; }"
)
Z_OF = (
    f"title => Array.from(({TRACES_OF})(title)[1].find(t => t.type === 'heatmap').z,"
    " row => Array.from(row))"
)
# Page coordinates of cell (row, col) of the chart (or panel) titled `title`.
CELL_XY = (
    f"([title, row, col]) => {{ const [d, traces] = ({TRACES_OF})(title);"
    " d.scrollIntoView({block: 'center'}); const L = d._fullLayout, t = traces[0];"
    " const xa = L[t.xaxis.replace('x', 'xaxis')], ya = L[t.yaxis.replace('y', 'yaxis')];"
    " const box = d.getBoundingClientRect();"
    " return [box.left + xa._offset + xa.d2p(col), box.top + ya._offset + ya.d2p(row)]; }"
)
SCORES, WEIGHTS = "Raw scores", "Attention weights (softmax)"
FIRST_Z = f"() => ({Z_OF})('{SCORES}')"


def wait_for_charts(page, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('{CHARTS} .js-plotly-plot .main-svg').length >= {count}",
        timeout=60_000,
    )
    wait_idle(page)


def wait_until(page, predicate: str, timeout: float = 30_000) -> None:
    """Until the JavaScript function `predicate` returns true. A throw counts as false: during a
    rerun a chart may be missing for a moment, which wait_for_function would report as a failure.
    """
    page.wait_for_function(
        f"() => {{ try {{ return ({predicate})(); }} catch (e) {{ return false; }} }}",
        timeout=timeout,
    )


def wait_idle(page) -> None:
    """Until the script run that the last interaction started has finished."""
    page.wait_for_timeout(200)  # let a rerun that was just asked for begin
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=60_000
    )


def test_playground_draws_and_reacts(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    assert page.locator('[data-testid="stException"]').count() == 0
    before = np.array(page.evaluate(FIRST_Z), dtype=float)
    assert before.shape == (3, 4)
    scale = 1 / np.sqrt(2)  # the default preset, scaled dot-product with d_k = 2
    np.testing.assert_allclose(before[0], [scale, 0, -scale, 0.5 * scale], rtol=1e-5, atol=1e-7)

    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').first.click()
    page.get_by_role("option", name="Dot product  q·k", exact=True).click()
    wait_until(page, f"() => {{ const z = ({FIRST_Z})(); return Math.abs(z[0][0] - 1) < 1e-6; }}")
    after = np.array(page.evaluate(FIRST_Z), dtype=float)
    np.testing.assert_allclose(after[0], [1, 0, -1, 0.5], rtol=1e-5, atol=1e-7)
    assert page.locator('[data-testid="stException"]').count() == 0

    sidebar.get_by_text("Causal (query i sees keys 0..i)").click()
    wait_until(page, f"() => isNaN(({Z_OF})('{WEIGHTS}')[0][1])")
    wait_idle(page)
    weights = z_of(page, WEIGHTS)
    np.testing.assert_array_equal(np.isnan(weights), ~np.tril(np.ones((3, 4), dtype=bool)))
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(SCREENSHOTS / "playground.png"))


def test_dashboard_links_to_the_playground(app_url, page):
    page.goto(app_url)
    wait_for_charts(page, 2)
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(SCREENSHOTS / "dashboard.png"))
    page.locator('[data-testid="stMain"]').get_by_role("link", name="Playground").click()
    page.wait_for_url("**/Playground", timeout=30_000)
    wait_for_charts(page, 6)


def z_of(page, chart: str) -> np.ndarray:
    return np.array(page.evaluate(Z_OF, chart), dtype=float)


def test_grid_edit_reaches_the_text_and_the_charts(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    page.get_by_text("Edit as a grid").click()
    grid = page.locator('[data-testid="stDataFrame"]').first
    grid.wait_for(timeout=30_000)
    wait_idle(page)
    queries = page.locator("textarea").first
    # Cell (row 0, column 0) of the queries' grid: select it, type 7 (which opens the cell
    # editor with that text), commit with Enter. The grid is a canvas that may still be laying
    # out on a busy machine, so each try waits for the app to be idle and the edit is retried.
    for attempt in range(4):
        wait_idle(page)
        grid.click(position={"x": 55, "y": 50})
        page.wait_for_timeout(400 * (attempt + 1))
        page.keyboard.type("7")
        page.wait_for_timeout(400 * (attempt + 1))
        page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                "el => el.value.startsWith('7, 0')", arg=queries.element_handle(), timeout=10_000
            )
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    else:  # kept for whoever debugs a failure (tests/e2e/artifacts is git-ignored)
        (SCREENSHOTS.parents[1] / "tests" / "e2e" / "artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS.parents[1] / "tests/e2e/artifacts/grid_edit.png"))
    assert queries.input_value() == "7, 0\n0, 1\n1, 1"
    wait_until(page, f"() => Math.abs(({FIRST_Z})()[0][0] - 7 / Math.SQRT2) < 1e-5")
    assert page.locator('[data-testid="stException"]').count() == 0


def test_hand_picked_cell_is_masked(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Mask hand-picked cells").click()
    grid = sidebar.locator('[data-testid="stDataFrame"]')
    grid.wait_for(timeout=30_000)
    wait_idle(page)
    grid.click(position={"x": 122, "y": 53})  # the checkbox of query q0, key k1
    wait_until(page, f"() => isNaN(({Z_OF})('{WEIGHTS}')[0][1])")
    weights = z_of(page, WEIGHTS)
    assert np.isnan(weights[0, 1]) and not np.isnan(weights[1:]).any()
    np.testing.assert_allclose(np.nansum(weights[0]), 1.0, rtol=1e-6)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_upload_fills_the_matrix_and_a_bad_file_says_why(app_url, page, tmp_path):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    page.get_by_role("radio", name="Upload files").click()
    # The matrices' uploaders (the share panel's state-file uploader takes .json only).
    uploads = page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".npy"]')
    uploads.nth(2).wait_for(state="attached", timeout=30_000)
    wait_idle(page)
    good = tmp_path / "queries.csv"
    good.write_text("2,0\n0,2\n1,1\n")
    uploads.nth(0).set_input_files(str(good))
    page.get_by_text("Loaded queries.csv: 3 × 2.").wait_for(timeout=30_000)
    wait_until(page, f"() => Math.abs(({FIRST_Z})()[0][0] - Math.SQRT2) < 1e-5")
    bad = tmp_path / "keys.csv"
    bad.write_text("a,b\n1,2\n")
    uploads.nth(1).set_input_files(str(bad))
    error = page.locator('[data-testid="stAlertContentError"]')
    error.first.wait_for(timeout=30_000)
    assert "looks like a header" in error.first.inner_text()
    assert page.locator('[data-testid="stException"]').count() == 0
    np.testing.assert_allclose(z_of(page, SCORES)[0][0], np.sqrt(2), rtol=1e-5)  # keys unchanged


LATEX_OUTSIDE = """() => {
    const main = document.querySelector('[data-testid="stMainBlockContainer"]');
    const right = main.getBoundingClientRect().right;
    return [...document.querySelectorAll('.katex-display .katex-html')]
        .filter(k => k.getBoundingClientRect().right > right + 1
                  || k.scrollWidth > k.clientWidth + 1)
        .map(k => k.textContent.slice(0, 40));
}"""


def test_every_formula_fits_the_page_at_16_by_32(app_url, page):
    """A real head's size (16 tokens, 32 dimensions): the per-query numbers and the formulas
    stay inside the main column, none cut off at its right edge."""
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(f"{app_url}/Playground?src=random&n=16&m=16&dq=32&dk=32&dv=32&seed=3")
    wait_for_charts(page, 6)
    wait_idle(page)
    page.locator(".katex-display").first.wait_for(timeout=30_000)
    assert page.evaluate(LATEX_OUTSIDE) == []


def test_hovering_a_chart_shows_no_toolbar_over_its_title(app_url, page):
    page.set_viewport_size({"width": 1400, "height": 1600})
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 5)
    wait_idle(page)
    chart = page.locator(".js-plotly-plot").first
    chart.hover()
    page.wait_for_timeout(300)
    bars = page.locator(".js-plotly-plot .modebar")
    assert bars.count() == 0 or not any(bars.nth(i).is_visible() for i in range(bars.count()))


# The per-query breakdown's title: it names the selected query.
BREAKDOWN_TITLE = (
    "() => [...document.querySelectorAll('.js-plotly-plot')]"
    ".map(d => (d.layout.title || {}).text || '').find(t => t.startsWith('Query '))"
)


def test_a_click_on_each_step_panel_selects_its_cell(app_url, page):
    page.set_viewport_size({"width": 1366, "height": 1500})
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    for title, row, col in ((SCORES, 1, 3), ("Masked scores", 2, 0), (WEIGHTS, 0, 2)):
        x, y = page.evaluate(CELL_XY, [title, row, col])
        page.mouse.click(x, y)
        wait_until(page, f"() => ({BREAKDOWN_TITLE})().startsWith('Query q{row}')")
        page.get_by_text(f"Selected cell q{row} → k{col}").wait_for(timeout=30_000)
        wait_idle(page)
        assert f"q={row}" in page.url or row == 0  # a link leaves out the defaults
    assert page.locator('[data-testid="stException"]').count() == 0
