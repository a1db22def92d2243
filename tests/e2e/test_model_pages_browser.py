"""The NLI and model pages in Chromium: heatmaps draw, hostile text stays text."""

from __future__ import annotations

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_models_browser import HEADS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

HOSTILE = "<img src=x onerror=window.__xss=1> is here"


def no_exception(page) -> bool:
    return page.locator('[data-testid="stException"]').count() == 0


def test_nli_page_draws_and_keeps_html_as_text(app_url, page):
    page.goto(f"{app_url}/NLI_alignment")
    wait_for_charts(page, 6)
    assert no_exception(page)
    page.screenshot(path=str(SCREENSHOTS / "nli.png"))
    premise = page.get_by_label("Premise A")
    premise.fill(HOSTILE)
    premise.press("Control+Enter")
    page.get_by_text("onerror", exact=False).first.wait_for(timeout=60_000)
    wait_idle(page)
    wait_for_charts(page, 6)
    assert page.evaluate("() => window.__xss") is None
    assert page.locator("img[src='x']").count() == 0
    # The tokens reach the axes as literal text: "<" is a tick label, not a tag.
    ticks = page.evaluate(
        "() => Array.from(document.querySelectorAll('.js-plotly-plot .xtick text'),"
        " t => t.textContent)"
    )
    assert "<" in ticks and no_exception(page)


def test_model_page_draws_every_head(app_url, page):
    page.goto(f"{app_url}/Model_attention")
    wait_for_charts(page, 3)
    assert no_exception(page)
    # Plotly draws two .main-svg a chart, so wait_for_charts(3) may return before the grid.
    wait_until(page, f"() => ({HEADS})() >= {6 * 12}", timeout=60_000)
    assert page.evaluate(HEADS) == 6 * 12
    page.screenshot(path=str(SCREENSHOTS / "model.png"), full_page=False)
    sentence = page.get_by_label("Sentence A")
    sentence.fill(HOSTILE)
    sentence.press("Control+Enter")
    wait_idle(page)
    wait_for_charts(page, 3)
    assert page.evaluate("() => window.__xss") is None and no_exception(page)


def test_nli_batch_upload_checks_the_columns(app_url, page, tmp_path):
    page.goto(f"{app_url}/NLI_alignment")
    wait_for_charts(page, 6)
    page.get_by_role("radio", name="A batch of pairs").click()
    upload = page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".csv"]')
    upload.wait_for(state="attached", timeout=30_000)
    bad = tmp_path / "pairs.csv"
    bad.write_text("sentence1,sentence2\nA man sleeps,A man rests\n")
    upload.set_input_files(str(bad))
    error = page.locator('[data-testid="stAlertContentError"]').first
    error.wait_for(timeout=30_000)
    assert "premise" in error.inner_text() and "hypothesis" in error.inner_text()
    good = tmp_path / "good.csv"
    good.write_text("premise,hypothesis\nA man sleeps,A man rests\nA cat runs,An animal moves\n")
    upload.set_input_files(str(good))
    page.get_by_text("Loaded 2 pairs from good.csv.").wait_for(timeout=30_000)
    wait_idle(page)
    wait_for_charts(page, 6)
    assert no_exception(page)


VERDICT_BARS = (
    "() => { const plot = Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".find(d => (d.data || []).some(t => t.type === 'bar' && t.orientation === 'h'));"
    " return plot ? Array.from(plot.data[0].x) : null; }"
)


def test_nli_verdict_changes_with_the_hypothesis(app_url, page):
    page.goto(f"{app_url}/NLI_alignment")
    wait_for_charts(page, 6)
    wait_until(page, f"() => ({VERDICT_BARS})() !== null", timeout=60_000)
    before = page.evaluate(f"() => (window.__before = ({VERDICT_BARS})())")
    assert len(before) == 3 and abs(sum(before) - 1) < 1e-6
    page.screenshot(path=str(SCREENSHOTS / "nli_verdict.png"))
    hypothesis = page.get_by_label("Hypothesis B")
    hypothesis.fill("Nobody here has ever been tired or sleepy.")
    hypothesis.press("Control+Enter")
    changed = f"() => JSON.stringify(({VERDICT_BARS})()) !== JSON.stringify(window.__before)"
    wait_until(page, changed, timeout=60_000)
    wait_idle(page)
    after = page.evaluate(VERDICT_BARS)
    assert after != before and abs(sum(after) - 1) < 1e-6 and no_exception(page)
