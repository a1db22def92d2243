"""The masking page in Chromium: the mask and heatmaps draw, the causal toggle reaches them."""

from __future__ import annotations

import numpy as np

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import Z_OF, wait_for_charts, wait_idle, wait_until

WEIGHTS, MASK = "Attention weights (softmax)", "Mask of sequence 0 (1 = may attend)"


def z_of(page, title: str) -> np.ndarray:
    return np.array(page.evaluate(Z_OF, title), dtype=float)


def test_masking_draws_and_the_causal_mask_reaches_the_weights(app_url, page):
    page.goto(f"{app_url}/Masking")
    wait_for_charts(page, 5)
    assert page.locator('[data-testid="stException"]').count() == 0
    padding = np.arange(6)[None, :] < 4  # sequence 0 has valid length 4 of m = 6
    np.testing.assert_array_equal(z_of(page, MASK), np.repeat(padding, 6, axis=0).astype(float))
    weights = z_of(page, WEIGHTS)
    assert np.isnan(weights[:, 4:]).all() and not np.isnan(weights[:, :4]).any()
    np.testing.assert_allclose(weights[:, :4].sum(axis=1), np.ones(6), rtol=1e-5)

    page.get_by_text("Causal mask", exact=True).click()
    wait_until(page, f"() => isNaN(({Z_OF})('{WEIGHTS}')[0][1])", timeout=30_000)
    wait_idle(page)
    allowed = np.tril(np.ones((6, 6), dtype=bool)) & padding
    np.testing.assert_array_equal(z_of(page, MASK), allowed.astype(float))
    np.testing.assert_array_equal(np.isnan(z_of(page, WEIGHTS)), ~allowed)
    assert page.locator('[data-testid="stException"]').count() == 0
    # Streamlit scrolls inside its own container: a tall viewport brings the heatmaps into view.
    page.set_viewport_size({"width": 1400, "height": 2300})
    wait_for_charts(page, 5)
    page.screenshot(path=str(SCREENSHOTS / "masking.png"))


HEATMAP_CELLS = """(title) => {
    const d = [...document.querySelectorAll('.js-plotly-plot')].find(
        d => d.layout.title.text === title);
    const layer = d.querySelector('.heatmaplayer');
    return layer ? [...layer.querySelectorAll('text')].map(t => t.textContent) : null;
}"""


def test_a_fully_masked_sequence_shows_its_numbers(app_url, page):
    """Sequence 2 of valid length 0: every cell masked. The -1e6 fill in the masked scores and
    the uniform 1/6 of its weights are drawn in grey cells (Plotly draws nothing of an all-NaN
    heatmap), and a hover says "masked"."""
    page.set_viewport_size({"width": 1400, "height": 2300})
    page.goto(f"{app_url}/Masking?lens=4,6,0&seq=2&causal=1")
    wait_for_charts(page, 5)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    scores = page.evaluate(HEATMAP_CELLS, "Masked scores")
    weights = page.evaluate(HEATMAP_CELLS, WEIGHTS)
    assert scores == ["-1e6"] * 36, scores
    assert weights == [".17"] * 36, weights  # 1/6, the cells' one format
    chart = page.locator(".js-plotly-plot", has_text=WEIGHTS).first
    box = chart.locator(".heatmaplayer image").bounding_box()
    assert box is not None and box["width"] > 100
    page.mouse.move(box["x"] + box["width"] / 12, box["y"] + box["height"] / 12)
    page.mouse.move(box["x"] + box["width"] / 12 + 2, box["y"] + box["height"] / 12 + 2)
    hover = page.locator(".js-plotly-plot .hoverlayer .hovertext", has_text="masked")
    hover.first.wait_for(timeout=10_000)


SQUARES = """(titles) => titles.map(title => {
    const d = [...document.querySelectorAll('.js-plotly-plot')].find(
        d => d.layout.title.text === title);
    return d.querySelector('.heatmaplayer image').getBoundingClientRect().width;
})"""


def test_the_three_step_heatmaps_are_one_size(app_url, page):
    """Raw scores, masked scores and weights side by side: the masked scores draw no colour bar
    of their own (they share the raw scores'), yet their cells are the others' size."""
    page.set_viewport_size({"width": 1400, "height": 2300})
    page.goto(f"{app_url}/Masking")
    wait_for_charts(page, 5)
    wait_idle(page)
    widths = page.evaluate(SQUARES, ["Raw scores", "Masked scores", WEIGHTS])
    assert max(widths) / min(widths) < 1.04, widths
