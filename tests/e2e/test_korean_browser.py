"""The language switch in a real Chromium: ?lang=ko, to English and back, inputs kept."""

from __future__ import annotations

from attnviz.i18n import EN, KO
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle


def title(page) -> str:
    return page.locator("h1").first.inner_text()


def score_shown(page) -> str:
    """The scoring function's selectbox as drawn (its chosen option, translated)."""
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    return box.evaluate("b => b.textContent + ' ' + (b.querySelector('input')?.value ?? '')")


def test_korean_link_switches_to_english_and_back_keeping_the_inputs(app_url, page):
    page.goto(f"{app_url}/Playground?lang=ko&score=cosine&T=0.5")
    wait_for_charts(page, 6)
    assert title(page) == KO["playground.title"]
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert sidebar.get_by_text(KO["playground.nav"], exact=True).count() == 1
    page.screenshot(path=str(SCREENSHOTS / "playground_ko.png"))
    assert KO["score.cosine"] in score_shown(page)

    sidebar.get_by_role("radio", name="English").click()
    page.wait_for_function(
        f"() => document.querySelector('h1')?.innerText === {EN['playground.title']!r}"
    )
    wait_idle(page)
    assert EN["score.cosine"] in score_shown(page)
    assert "lang=" not in page.url and "score=cosine" in page.url

    sidebar.get_by_role("radio", name="한국어").click()
    page.wait_for_function(
        f"() => document.querySelector('h1')?.innerText === {KO['playground.title']!r}"
    )
    wait_idle(page)
    assert KO["score.cosine"] in score_shown(page)
    assert "lang=ko" in page.url and "T=0.5" in page.url

    # Another page keeps the language (Streamlit drops the query string on a page change).
    sidebar.get_by_role("link", name=KO["masking.nav"]).click()
    page.wait_for_function(
        f"() => document.querySelector('h1')?.innerText === {KO['masking.title']!r}"
    )
    wait_idle(page)
    assert "lang=ko" in page.url
    assert page.locator('[data-testid="stException"]').count() == 0


# Every box inside the button holds its text: Streamlit cuts a label that does not fit in its
# markdown box with an ellipsis, while the button itself never overflows.
CUT_BOXES = """label => {
  const button = [...document.querySelectorAll('button')].find(b => b.innerText === label);
  return [button, ...button.querySelectorAll('*')]
    .filter(box => box.scrollWidth > box.clientWidth)
    .map(box => `${box.tagName} ${box.scrollWidth} > ${box.clientWidth}`);
}"""


def test_the_reset_button_label_fits_in_both_languages(app_url, page):
    for lang, catalogue in (("ko", KO), ("en", EN)):
        page.goto(f"{app_url}/Playground?lang={lang}")
        wait_for_charts(page, 6)
        label = catalogue["input.reset"]
        assert page.get_by_role("button", name=label, exact=True).count() == 1
        assert page.evaluate(CUT_BOXES, label) == [], (lang, label)
