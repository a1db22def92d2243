"""Hostile text in every text box of every page, in Chromium: no script runs, no dialog opens,
no element is injected, and the text the app echoes (error messages, tick labels, a pair's name)
shows exactly as typed.

Each page's text and number boxes are enumerated, not listed by hand: a box this file does not
know fails the test, so a new input is never silently skipped.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable

import pytest

from attnviz import i18n, parsing
from attnviz.errors import InputError
from attnviz.lessons.kernels import compute as kernels
from attnviz.lessons.multihead import compute as multihead
from tests.e2e.test_playground_browser import wait_idle
from tests.test_xss import ISSUE_PAYLOADS

PAYLOADS = (
    *ISSUE_PAYLOADS,
    # Streamlit markdown (st.error) would italicise, colour, set maths, draw an icon, link.
    "*em* `code` :red[x] $x$ :smile: :material/home: [l](javascript:alert(1)) a\\b",
)
COMBINED = " ".join(PAYLOADS)
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
ALERTS = '[data-testid="stAlertContainer"]'
# Every text box a person types into; selectboxes are comboboxes that only filter options.
BOXES = (
    "() => Array.from(document.querySelectorAll("
    "'textarea, input[type=text]:not([role=combobox]), input[type=number]'))"
    ".filter(e => e.offsetWidth || e.offsetHeight)"
    ".map(e => [e.getAttribute('aria-label'), e.type])"
)
# What an injected payload would leave in the DOM (Plotly's <b> is a bold tspan).
INJECTED = """() => [
    document.querySelectorAll('img[src="x"], a[href^="javascript"], [onerror]').length,
    Array.from(document.querySelectorAll('b, strong')).filter(b => b.textContent === 'bold')
        .length,
    Array.from(document.querySelectorAll('tspan')).filter(s => s.textContent === 'bold'
        && (s.getAttribute('style') || '').includes('bold')).length,
    Array.from(document.querySelectorAll('script')).filter(s => s.textContent.includes('alert'))
        .length,
].reduce((a, b) => a + b, 0)"""
# Per axis with tick labels given as an array: the labels the app sent (escaped) and the text
# Chromium drew. Hover templates are listed too: tokens must reach them through customdata only.
AXES = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(gd =>
    Object.keys(gd._fullLayout).filter(k => /^[xy]axis\\d*$/.test(k))
        .map(k => gd._fullLayout[k]).filter(ax => ax.tickmode === 'array' && ax.ticktext)
        .map(ax => ({
            sent: Array.from(ax.ticktext, String),
            drawn: Array.from(gd.querySelectorAll(`g.${ax._id}tick text`), t => t.textContent),
        })))"""
TEMPLATES = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(gd =>
    gd.data.map(trace => String(trace.hovertemplate || '')))"""


def message(parse: Callable[[str], object]) -> Callable[[str], str]:
    """The error text `parse` gives for a text (the app echoes it through the same parser)."""

    def expected(text: str) -> str:
        with pytest.raises(InputError) as err:
            parse(text)
        return str(err.value)

    return expected


MATRIX = message(parsing.parse_matrix)

# Per page: each box's label (a prefix, for labels that carry sizes) and how its text is echoed.
# "ticks": the text's tokens become tick labels; "number": a number box (nothing echoed);
# otherwise a function giving the error message that quotes the text.
Echo = Callable[[str], str] | str
PAGES: dict[str, dict[str, Echo]] = {
    "": {},
    "Playground": {
        "Queries Q": MATRIX,
        "Keys K": MATRIX,
        "Values V": MATRIX,
        "Padding: valid keys per query": message(lambda s: parsing.parse_valid_lens(s, 3, 4)),
    },
    "Masking": {
        "Sequences B": "number",
        "Padded length m": "number",
        "Seed": "number",
        "Valid lengths, one per sequence": message(
            lambda s: parsing.parse_valid_lens(s, 3, 6, each="sequence")
        ),
    },
    "Additive_attention": {
        "Queries n": "number",
        "Keys m": "number",
        "Query size q": "number",
        "Key size k": "number",
        "Value size d_v": "number",
        "Hidden size h": "number",
        "Seed of Q, K, V": "number",
        "Seed of W_q, W_k, w_v": "number",
        "W_q (": MATRIX,
        "W_k (": MATRIX,
        "w_v (": MATRIX,
    },
    "Why_sqrt_d": {"Samples (q, k pairs)": "number", "Seed": "number"},
    "Kernel_regression": {
        "Training points n": "number",
        "Data seed": "number",
        "Predict at x =": message(kernels.parse_probe),
    },
    "Multi_head": {"Sentence": "ticks", "Seed": "number"},
    "NLI_alignment": {
        "Seed of the untrained layers": "number",
        "Premise A": "ticks",
        "Hypothesis B": "ticks",
    },
    "Model_attention": {"Sentence A": "ticks", "Sentence B": "ticks"},
}
# Each payload on its own in one box per way of echoing (an error message, whitespace tokens,
# MiniLM's word pieces); elsewhere the combined one only, which keeps the file to minutes.
EACH_PAYLOAD = {
    ("Playground", "Padding: valid keys per query"),  # echoed whole (up to 40 characters)
    ("Multi_head", "Sentence"),
    ("NLI_alignment", "Premise A"),
}


def find(echoes: dict[str, Echo], label: str) -> str:
    known = [prefix for prefix in echoes if label == prefix or label.startswith(prefix)]
    assert len(known) == 1, f"a text box this test does not know: {label!r}"
    return known[0]


def submit(page, label: str, kind: str, text: str) -> None:
    box = page.get_by_label(label, exact=True)
    if kind == "number":
        # Chromium keeps only what a number box accepts: digits, signs, "e", ".".
        box.click()
        box.press("Control+a")
        box.press_sequentially(text)
        box.press("Enter")
    else:
        box.fill(text)
        box.press("Control+Enter" if kind == "textarea" else "Enter")
    wait_idle(page)
    page.wait_for_timeout(300)  # figures draw after the run ends
    page.wait_for_selector(IDLE, timeout=60_000)


def plain(text: str) -> str:
    return " ".join(text.split())


def assert_safe(page, dialogs: list[str], where: str) -> None:
    assert page.evaluate("() => window.__xss") is None, where
    assert dialogs == [], where
    assert page.evaluate(INJECTED) == 0, where
    assert page.locator('[data-testid="stException"]').count() == 0, where


def assert_ticks_literal(page, where: str) -> list[str]:
    """Every tick label is drawn as the app sent it; the drawn labels."""
    axes = page.evaluate(AXES)
    drawn = []
    for axis in axes:
        # Plotly's text is pseudo-HTML: what it draws must be the label before escaping.
        assert axis["drawn"] == [html.unescape(s) for s in axis["sent"]], where
        drawn += axis["drawn"]
    for template in page.evaluate(TEMPLATES):
        for word in ("script", "onerror", "javascript", "bold"):
            assert word not in template, f"{where}: a token in a hovertemplate: {template!r}"
    return drawn


def eventually(page, check: Callable[[], None], timeout: float = 30.0) -> None:
    """`check()` once it stops raising AssertionError; its last error after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            check()
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
            page.wait_for_timeout(250)


def check_echo(page, label: str, echo: Echo, text: str, where: str) -> None:
    if echo == "number":
        value = page.get_by_label(label, exact=True).input_value()
        assert re.fullmatch(r"[-+0-9.e]*", value), where
    elif echo == "ticks":
        drawn = assert_ticks_literal(page, where)
        if label == "Sentence":  # whitespace tokens, lower-cased
            tokens, _ = multihead.tokenize(text)
            assert set(tokens) <= set(drawn), where
        elif text != COMBINED:  # past 64 word pieces the axes are numbered instead
            # MiniLM's word pieces: punctuation marks are tokens of their own
            marks = set(text) & set('<>"%{}&;')
            assert marks <= set(drawn), f"{where}: {marks - set(drawn)} not in {drawn}"
    else:
        expected = plain(echo(text))  # type: ignore[operator]
        alerts = page.locator(ALERTS)
        assert_any(expected, [plain(alerts.nth(i).inner_text()) for i in range(alerts.count())])


def assert_any(part: str, texts: list[str]) -> None:
    assert any(part in text for text in texts), f"{part!r} not in {texts}"


def open_page(page, app_url: str, name: str) -> None:
    page.goto(f"{app_url}/{name}")
    # The app reports "notRunning" before its first run starts: wait for the title, then idle.
    page.wait_for_selector('[data-testid="stMain"] h1', timeout=60_000)
    wait_idle(page)


@pytest.mark.parametrize("name", list(PAGES), ids=lambda n: n or "home")
def test_hostile_text_stays_text(app_url, page, name):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_page(page, app_url, name)
    echoes = PAGES[name]
    boxes: list[list[str]] = []

    def all_known() -> None:  # the boxes draw during the first run
        boxes[:] = page.evaluate(BOXES)
        labels = {find(echoes, label) for label, _ in boxes}
        assert labels == set(echoes), f"text boxes on {name or 'home'}: {labels}"

    eventually(page, all_known)
    for label, box_kind in boxes:
        echo = echoes[find(echoes, label)]
        box = page.get_by_label(label, exact=True)
        before = box.input_value()
        texts = (*PAYLOADS, COMBINED) if (name, label) in EACH_PAYLOAD else (COMBINED,)
        for text in texts:
            where = f"{name or 'home'} / {label} / {text!r}"
            submit(page, label, box_kind, text)
            # A figure or message may follow the run that drew it by a moment.
            eventually(page, lambda: check_echo(page, label, echo, text, where))  # noqa: B023
            assert_safe(page, dialogs, where)
        if echo == "number":  # sizes and seeds back, so the next box sees the page's defaults
            submit(page, label, box_kind, before)
    assert_safe(page, dialogs, name)


def test_nli_batch_pairs_stay_text(app_url, page):
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    open_page(page, app_url, "NLI_alignment")
    page.get_by_role("radio", name="A batch of pairs").click()
    wait_idle(page)
    label = i18n.EN["nli.batch_text"]
    submit(page, label, "textarea", "\n".join(f"{p} ||| {p}" for p in PAYLOADS))
    eventually(page, lambda: check_echo(page, "Premise A", "ticks", PAYLOADS[0], "batch"))
    # The pair picker names every pair as typed.
    page.get_by_label("Pair to view", exact=True).click()
    options = page.get_by_role("option")
    eventually(
        page, lambda: assert_any(f"0. {PAYLOADS[0]} ||| {PAYLOADS[0]}", options.all_inner_texts())
    )
    for payload in PAYLOADS[1:6]:
        assert_any(f"{payload} ||| {payload}", options.all_inner_texts())
    page.keyboard.press("Escape")
    assert_safe(page, dialogs, "batch")
    # A line without a separator is refused with a message naming the line, not the text.
    submit(page, label, "textarea", COMBINED)
    assert_safe(page, dialogs, "batch, no separator")
    assert page.locator(ALERTS).count() > 0
