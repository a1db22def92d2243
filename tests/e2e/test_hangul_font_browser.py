"""Hangul on a machine with no Korean font, in a real Chromium: the app's own web font
(static/fonts/) draws the language switch, the title, chart titles and typed text.

The browser runs with a fontconfig that knows only DejaVu, which has no Hangul: whatever Hangul
the web font does not draw comes out as boxes. Chrome's DevTools protocol
(`CSS.getPlatformFontsForNode`) says which font drew how many glyphs of a node's text.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from attnviz.i18n import HANGUL, KO
from scripts.make_hangul_font import FAMILY, FONTS
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

LATIN_FONTS = Path("/usr/share/fonts/truetype/dejavu")  # Debian's fonts-dejavu-core
FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <alias><family>sans-serif</family><prefer><family>DejaVu Sans</family></prefer></alias>
</fontconfig>
"""
SWITCH_FILE, HANGUL_FILE = f"{FAMILY}-switch.woff2", f"{FAMILY}.woff2"
TYPED = "고양이가 매트 위에 앉았다"  # the Multi-head page's sentence: its words become tick labels
# Marks the innermost elements matching a selector whose text (an input's value) holds a
# string, for the DevTools protocol to find; returns their texts.
MARK = """([selector, text]) => {
  const shown = e => e instanceof HTMLInputElement ? e.value : e.textContent;
  const hits = [...document.querySelectorAll(selector)].filter(e => shown(e).includes(text));
  const inner = hits.filter(e => !hits.some(o => o !== e && e.contains(o)));
  inner.forEach(e => e.setAttribute('data-font-probe', ''));
  return inner.map(shown);
}"""
UNMARK = (
    "() => document.querySelectorAll('[data-font-probe]')"
    ".forEach(e => e.removeAttribute('data-font-probe'))"
)


@pytest.fixture(scope="module")
def no_korean_font(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose fontconfig has only DejaVu, checked to list no font for Korean."""
    folder = tmp_path_factory.mktemp("fontconfig")
    conf = folder / "fonts.conf"
    conf.write_text(FONTS_CONF.format(fonts=LATIN_FONTS, cache=folder / "cache"))
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    fc_list = shutil.which("fc-list")
    assert fc_list is not None, "fc-list is missing: install Debian's fontconfig"

    def listed(pattern: str) -> str:
        command = [fc_list, pattern, "family"]
        return subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout

    assert listed(":lang=ko") == ""
    assert "DejaVu Sans" in listed(":")
    return env


@pytest.fixture(scope="module")
def bare_browser(browser: Any, no_korean_font: dict[str, str]) -> Iterator[Any]:
    """A second Chromium with that environment, from the session's Playwright (a second
    Playwright cannot start while the session's runs)."""
    second = browser.browser_type.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, env=no_korean_font
    )
    yield second
    second.close()


def drawn(page: Any, selector: str, text: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """Each innermost element matching `selector` whose text holds `text`: its text and the
    fonts Chromium drew it with (family, custom or not, glyph count)."""
    texts = page.evaluate(MARK, [selector, text])
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    nodes = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-font-probe]"})
    fonts = [cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
             for node in nodes["nodeIds"]]  # fmt: skip
    cdp.detach()
    page.evaluate(UNMARK)
    assert len(texts) == len(fonts) > 0, (selector, text)
    return list(zip(texts, fonts, strict=True))


def ours(fonts: list[dict[str, Any]]) -> int:
    """Glyphs the app's web font drew."""
    return sum(f["glyphCount"] for f in fonts if f["familyName"] == FAMILY and f["isCustomFont"])


def hangul_ours(text: str, fonts: list[dict[str, Any]]) -> bool:
    """Every Hangul character of `text` drawn by the web font, none by a font standing in: at
    least a glyph a syllable from it, and no more glyphs from other fonts than `text` has other
    characters. (Chromium counts a glyph more where a run passes from one of the family's files
    to the other, "어텐션" as 4; the text is drawn right, 3 syllables wide.)"""
    hangul = len(HANGUL.findall(text))
    others = sum(f["glyphCount"] for f in fonts) - ours(fonts)
    return ours(fonts) >= hangul and others <= len(text) - hangul


def all_hangul_ours(found: list[tuple[str, list[dict[str, Any]]]]) -> bool:
    return all(hangul_ours(text, fonts) for text, fonts in found)


def only_web_fonts(found: list[tuple[str, list[dict[str, Any]]]]) -> bool:
    """No glyph of the page's own text left to a system font (Latin is Streamlit's Source Sans)."""
    return all(f["isCustomFont"] for _, fonts in found for f in fonts)


def wait_for_fonts(page: Any) -> None:
    page.evaluate("() => document.fonts.ready.then(() => true)")


@pytest.fixture
def watched(bare_browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page of the font-less Chromium and the names of the files it fetches."""
    context = bare_browser.new_context(viewport={"width": 1400, "height": 1500})
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url.rpartition("/")[2]))
    yield page, fetched
    context.close()


def test_with_no_korean_font_a_korean_page_draws_hangul_with_its_own(app_url, watched):
    page, fetched = watched
    page.goto(f"{app_url}/Multi_head?lang=ko")
    wait_for_charts(page, 3)
    box = page.locator('[data-testid="stTextInput"] input').first
    box.fill(TYPED)
    box.press("Enter")
    # Any axis's tick labels: a figure of panels names its axes x, x2, ... (".x5tick").
    wait_until(page, f"() => [...document.querySelectorAll('[class$=tick] text')].some("
                     f"t => t.textContent === {TYPED.split()[0]!r})")  # fmt: skip
    wait_idle(page)
    wait_for_fonts(page)

    switch = drawn(page, '[data-testid="stSidebar"] *', "한국어")
    title = drawn(page, "h1", KO["multihead.title"])
    typed = drawn(page, '[data-testid="stTextInput"] input', TYPED)
    # A chart's title, or a panel's in a figure of panels (an annotation).
    titled = drawn(page, ".gtitle, .annotation-text")
    chart_titles = [(text, fonts) for text, fonts in titled if HANGUL.search(text)]
    ticks = drawn(page, "[class$=tick] text", TYPED.split()[0])
    for name, found in [("switch", switch), ("title", title), ("typed", typed),
                        ("chart titles", chart_titles), ("typed ticks", ticks)]:  # fmt: skip
        assert found and all_hangul_ours(found), repr((name, found))
    assert only_web_fonts(switch + title + typed)
    # The switch's three syllables, from the small file; the typed words, from the large one.
    assert ours(switch[0][1]) == 3 and ours(typed[0][1]) == len(HANGUL.findall(TYPED))
    assert SWITCH_FILE in fetched and HANGUL_FILE in fetched
    assert page.locator('[data-testid="stException"]').count() == 0
    page.screenshot(path=str(SCREENSHOTS / "hangul_no_system_font.png"))


def test_the_same_check_fails_for_hangul_the_page_does_not_give_its_font(bare_browser):
    """The browser itself has nothing for Hangul: without the app's @font-face a system font
    stands in (drawing boxes), and the check above says so."""
    page = bare_browser.new_page()
    page.set_content(f"<h1>{KO['multihead.title']}</h1>")
    wait_for_fonts(page)
    found = drawn(page, "h1")
    assert not all_hangul_ours(found) and not only_web_fonts(found), found
    page.close()


def test_an_english_page_fetches_only_the_switchs_small_file(app_url, watched):
    page, fetched = watched
    page.goto(f"{app_url}/Multi_head")
    wait_for_charts(page, 3)
    page.wait_for_load_state("networkidle")
    wait_for_fonts(page)
    switch = drawn(page, '[data-testid="stSidebar"] *', "한국어")
    assert all_hangul_ours(switch) and only_web_fonts(switch), switch
    assert SWITCH_FILE in fetched and HANGUL_FILE not in fetched
    # Streamlit serves the files themselves from static/ (server.enableStaticServing).
    for name in (SWITCH_FILE, HANGUL_FILE):
        with urllib.request.urlopen(f"{app_url}/app/static/fonts/{name}", timeout=10) as served:
            assert served.status == 200 and served.read() == (FONTS / name).read_bytes()
