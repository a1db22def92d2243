"""Presenter mode in a real Chromium: a larger base font and the sidebar folded, from a link or
the sidebar's switch; the charts' text larger too, each chart still drawn once and a click still
landing on its cell; a normal page is unchanged.

Each test has a fresh browser context: Streamlit keeps a sidebar opened or closed by hand in the
browser's storage, and that choice wins over the page's initial sidebar state.
"""

from __future__ import annotations

from attnviz.app import page as shell
from attnviz.app.plot import PRESENT_CHART_SCALE
from attnviz.figures.style import FONT_SIZE
from attnviz.i18n import EN
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_inspect_browser import BREAKDOWN, click_cell
from tests.e2e.test_margins_browser import REDRAWN
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

BASE = 16  # Chromium's default font size, which Streamlit's rem sizes start from
LARGE = f"{BASE * shell.PRESENT_SCALE:g}px"
LOOK = """() => {
  const sidebar = document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect();
  const tick = document.querySelector('.js-plotly-plot .xtick text, .js-plotly-plot .ytick text');
  return {
    root: getComputedStyle(document.documentElement).fontSize,
    text: getComputedStyle(document.querySelector('[data-testid="stMain"] p')).fontSize,
    title: parseFloat(getComputedStyle(document.querySelector('h1')).fontSize),
    sidebar: sidebar.right > 0,
    tick: getComputedStyle(tick).fontSize,
  };
}"""


def look(page) -> dict:
    page.wait_for_timeout(600)  # the sidebar's slide is over
    return page.evaluate(LOOK)


def test_a_normal_page_is_unchanged(app_url, page):
    page.goto(f"{app_url}/Playground")
    wait_for_charts(page, 6)
    seen = look(page)
    assert (seen["root"], seen["text"], seen["sidebar"]) == (f"{BASE}px", f"{BASE}px", True)
    assert seen["tick"] == f"{FONT_SIZE}px"
    assert "present" not in page.url


def test_a_link_with_present_1_gives_large_text_and_folds_the_sidebar(app_url, page):
    page.goto(f"{app_url}/Playground?present=1")
    wait_for_charts(page, 6)
    seen = look(page)
    assert (seen["root"], seen["text"], seen["sidebar"]) == (LARGE, LARGE, False)
    assert seen["title"] > 1.3 * 44  # Streamlit's h1, 2.75rem: 44 px at the normal size
    # The charts' text is larger, with margins grown to hold it: drawn once, none pushed out.
    assert seen["tick"] == f"{FONT_SIZE * PRESENT_CHART_SCALE:g}px"
    assert page.evaluate(REDRAWN) == []
    assert "present=1" in page.url
    assert page.locator('[data-testid="stException"]').count() == 0
    page.mouse.move(5, 5)
    page.screenshot(path=str(SCREENSHOTS / "presenter.png"))


def test_a_click_on_a_larger_chart_lands_on_its_cell(app_url, page):
    page.goto(f"{app_url}/Playground?present=1")
    wait_for_charts(page, 6)
    for row, col in ((2, 1), (1, 3)):
        click_cell(page, "Attention weights (softmax)", row, col)
        wait_until(page, f"() => ({BREAKDOWN})().title.startsWith('Query q{row}')")
        wait_idle(page)
        assert page.get_by_text(f"Selected cell q{row} → k{col}").count() == 1


def test_the_switch_turns_it_on_and_off(app_url, page):
    page.goto(f"{app_url}/Masking")
    wait_for_charts(page, 5)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text(EN["present.label"], exact=True).click()
    wait_until(page, "() => location.search.includes('present=1')")
    wait_idle(page)
    seen = look(page)
    assert (seen["root"], seen["sidebar"]) == (LARGE, False)

    page.locator('[data-testid="stExpandSidebarButton"]').click()
    sidebar.get_by_text(EN["present.label"], exact=True).click()
    wait_until(page, "() => !location.search.includes('present')")
    wait_idle(page)
    assert look(page)["root"] == f"{BASE}px"
    assert page.locator('[data-testid="stException"]').count() == 0
