"""Click to inspect, shareable links, export and large matrices, in a real Chromium."""

from __future__ import annotations

import base64
import io
import re

import numpy as np
from PIL import Image

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import (
    CELL_XY,
    TRACES_OF,
    WEIGHTS,
    Z_OF,
    wait_for_charts,
    wait_idle,
    wait_until,
    z_of,
)

# The per-query breakdown: its title names the query, its "weight" bars hold the row.
BREAKDOWN = (
    "() => { const d = Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => (d.layout.title.text || '').startsWith('Query '));"
    " if (!d) return null;"
    " const bars = d._fullData.find(t => t.name === 'weight');"
    " return {title: d.layout.title.text, y: Array.from(bars.y)}; }"
)
TRACE_TYPES = f"title => ({TRACES_OF})(title)[1].map(t => t.type)"
IMAGE_SOURCE = f"title => ({TRACES_OF})(title)[1].find(t => t.type === 'image').source"


def click_cell(page, title: str, row: int, col: int) -> None:
    x, y = page.evaluate(CELL_XY, [title, row, col])
    page.mouse.click(x, y)


def test_clicking_a_cell_selects_its_query_and_the_link_reopens_the_view(app_url, page, browser):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    assert page.evaluate(BREAKDOWN)["title"].startswith("Query q0")
    weights = z_of(page, WEIGHTS)

    click_cell(page, WEIGHTS, 2, 1)
    wait_until(page, f"() => ({BREAKDOWN})().title.startsWith('Query q2')", timeout=30_000)
    wait_idle(page)
    np.testing.assert_allclose(page.evaluate(BREAKDOWN)["y"], weights[2], rtol=1e-5)
    assert page.get_by_text(re.compile(r"Selected cell q2 → k1")).count() == 1

    # A second click on another cell of the same matrix moves the selection again.
    click_cell(page, "Raw scores", 1, 3)
    wait_until(page, f"() => ({BREAKDOWN})().title.startsWith('Query q1')", timeout=30_000)
    wait_idle(page)
    page.screenshot(path=str(SCREENSHOTS / "inspect.png"))

    # The address bar now holds the view: a fresh browser context opens the same figures.
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Causal (query i sees keys 0..i)").click()
    wait_until(page, f"() => isNaN(({Z_OF})('{WEIGHTS}')[0][1])", timeout=30_000)
    wait_idle(page)
    page.wait_for_function("() => location.search.includes('causal=1')", timeout=30_000)
    url = page.url
    assert "q=1" in url
    expected = z_of(page, WEIGHTS)
    other = browser.new_context(viewport={"width": 1400, "height": 1500})
    try:
        fresh = other.new_page()
        fresh.goto(url)
        wait_for_charts(fresh, 6)
        np.testing.assert_array_equal(np.isnan(z_of(fresh, WEIGHTS)), np.isnan(expected))
        np.testing.assert_allclose(z_of(fresh, WEIGHTS), expected, rtol=1e-6)
        assert fresh.evaluate(BREAKDOWN)["title"].startswith("Query q1")
    finally:
        other.close()


def test_a_1024_matrix_renders_as_an_image_and_redraws(app_url, page):
    query = "src=random&n=1024&m=1024&dq=16&dk=16&dv=8&seed=3"
    page.goto(f"{app_url}/Playground?{query}")
    wait_for_charts(page, 6)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert "image" in page.evaluate(TRACE_TYPES, WEIGHTS)
    before = page.evaluate(IMAGE_SOURCE, WEIGHTS)
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"] input').first
    slider.focus()
    for _ in range(10):
        page.keyboard.press("ArrowLeft")
    page.wait_for_function(  # a throw counts as false: mid-rerun the chart may be missing
        f"([title, old]) => {{ try {{ return ({IMAGE_SOURCE})(title) !== old; }}"
        " catch (e) { return false; } }",
        arg=[WEIGHTS, before],
        timeout=60_000,
    )
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    # The image is a real picture in the weights' colour scale.
    data = page.evaluate(IMAGE_SOURCE, WEIGHTS)
    png = Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1])))
    assert png.size[0] >= 256


def test_a_figure_downloads_as_png_and_html(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    # The export menu under the three steps (one figure of panels, the weights among them).
    menu = page.locator(".st-key-export_pg_steps").get_by_test_id("stPopoverButton").first
    menu.click()
    body = page.locator('[data-testid="stPopoverBody"]')
    with page.expect_download(timeout=60_000) as download:
        body.get_by_role("button", name="PNG image").click()
    data = download.value.path().read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    picture = Image.open(io.BytesIO(data))
    assert picture.size[0] >= 600 and picture.size[1] >= 400
    assert download.value.suggested_filename == "pg_steps.png"  # a figure of panels: no title
    # The picture holds the chart: more than a few colours (not a blank page).
    assert len(picture.convert("RGB").getcolors(maxcolors=1 << 20) or []) > 20

    if not body.get_by_role("button", name="Interactive HTML").is_visible():
        menu.click()
    with page.expect_download(timeout=60_000) as download:
        body.get_by_role("button", name="Interactive HTML").click()
    html = download.value.path().read_text(encoding="utf-8")
    assert "Attention weights" in html and "<script src=" not in html


# Page coordinates of the click target of thumbnail (layer, head) in the model view.
HEAD_XY = """([layer, head]) => {
  const d = [...document.querySelectorAll('.js-plotly-plot')]
    .find(d => d._fullData.some(t => t.name === 'heads'));
  d.scrollIntoView({block: 'center'});  // below the enlarged head and its head view
  // The model view's one "heads" trace holds a point a head; the multi-head lesson's grid has
  // a "heads" trace a head, each with its own axes.
  const at = t => t.customdata.findIndex(([l, h]) => l === layer && h === head);
  const t = d._fullData.find(t => t.name === 'heads' && at(t) >= 0);
  const i = at(t);
  const L = d._fullLayout;
  const xa = L[t.xaxis.replace('x', 'xaxis')], ya = L[t.yaxis.replace('y', 'yaxis')];
  const box = d.getBoundingClientRect();
  return [box.left + xa._offset + xa.d2p(t.x[i]), box.top + ya._offset + ya.d2p(t.y[i])];
}"""


def test_clicking_a_thumbnail_enlarges_that_head(app_url, page):
    page.goto(f"{app_url}/Model_attention")
    wait_for_charts(page, 6)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')]"
        ".some(d => (d._fullData || []).some(t => t.name === 'heads'))",
        timeout=60_000,
    )
    x, y = page.evaluate(HEAD_XY, [2, 7])
    page.mouse.click(x, y)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')]"
        ".some(d => d.layout.title.text === 'Layer 2, head 7')",
        timeout=60_000,
    )
    wait_idle(page)
    assert "layer=2" in page.url and "head=7" in page.url
    assert page.locator('[data-testid="stException"]').count() == 0
