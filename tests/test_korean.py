"""attnviz in Korean: the catalogue, every page in both languages, the language switch."""

from __future__ import annotations

import re
import string

import pytest
from streamlit.testing.v1 import AppTest

from attnviz import i18n
from attnviz.app import matrix_input as inputs
from attnviz.app import page
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.playground import view as pg
from attnviz.strings import GLOSSARY
from tests.apptest import ROOT, TIMEOUT

PAGES = [lesson.script for lesson in page.LESSONS]
KO = i18n.KO


def fields(text: str) -> set[str]:
    return {
        f"{name}!{conv}:{spec}" for _, name, spec, conv in string.Formatter().parse(text) if name
    }


def test_the_catalogues_have_the_same_keys_and_no_empty_values():
    assert set(i18n.CATALOGUES) == {"en", "ko"}
    assert set(KO) == set(i18n.EN)
    assert all(value.strip() for value in KO.values())


@pytest.mark.parametrize("key", sorted(i18n.EN))
def test_each_korean_string_keeps_the_placeholders(key):
    assert fields(KO[key]) == fields(i18n.EN[key])


@pytest.mark.parametrize(
    ("avoided", "key", "used"),
    [
        ("가법", "additive.title", "가산 어텐션"),
        ("리브-원-아웃", "kernels.learned_intro", "**LOO(leave-one-out) 교차 검증**"),
        ("어텐드", "nli.intro", "**주목**(attend) 단계"),
    ],
)
def test_korean_terms_are_the_usual_ones(avoided, key, used):
    """The terms of Korean textbooks (가산 어텐션, as the Korean d2l says), not calques."""
    assert [k for k, value in KO.items() if avoided in value] == []
    assert used in KO[key]


# The keys that name the NLI model's attend step, and those that mean the alignment it makes.
ATTEND_STEP = re.compile(r"\battend step|\*\*attend\*\*", re.IGNORECASE)
ALIGNMENT = re.compile(r"\balign", re.IGNORECASE)


def test_the_attend_step_and_the_alignment_have_their_glossary_words():
    """정렬 once named both the attend step and the alignment (issue 39): the step is 주목
    wherever the English names it, 정렬 is the alignment, and neither word stands in for the
    other."""
    step, alignment = GLOSSARY["attend step"].ko, GLOSSARY["alignment"].ko
    assert step != alignment
    steps = {key for key, value in i18n.EN.items() if ATTEND_STEP.search(value)}
    aligned = {key for key, value in i18n.EN.items() if ALIGNMENT.search(value)} - steps
    assert {"nli.intro", "nli.cards.align", "train_nli.align"} <= steps
    assert "nli.trained_heading" in aligned
    named = re.compile(rf"{step}\**(\(attend\))? 단계")
    assert [key for key in steps if not named.search(KO[key])] == []
    assert [key for key in aligned if alignment not in KO[key]] == []
    # The step's word only where the English names the step; the alignment's never as a step.
    assert [key for key, value in KO.items() if step in value and key not in steps] == []
    as_step = re.compile(rf"{alignment}\**\s*(\(attend\))?\s*단계")
    assert [key for key, value in KO.items() if as_step.search(value)] == []
    assert all(term.reason for term in GLOSSARY.values())


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def open_in(page: str, lang: str) -> AppTest:
    # AppTest formats widget options (format_func -> t) in the test's thread: same language.
    i18n.set_language(lang)
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=TIMEOUT)
    at.query_params["lang"] = lang
    at.run()
    if page != "dashboard.py":
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown_text(at: AppTest) -> str:
    parts = [
        e.value for kind in ("title", "markdown", "caption", "subheader") for e in at.get(kind)
    ]
    return "\n".join(str(p) for p in parts)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_korean_without_english_sentences(page):
    at = open_in(page, "ko")
    text = shown_text(at)
    assert any("\uac00" <= ch <= "\ud7a3" for ch in text)  # Hangul syllables
    # No English sentence of the catalogue on the page (words like "softmax" may stay).
    sentences = {v for k, v in i18n.EN.items() if KO[k] != v and len(v.split()) >= 4}
    leaked = [s for s in sentences if s in text]
    assert not leaked, leaked[:3]
    titles = [e.value for e in at.title]
    assert titles and all(title in KO.values() for title in titles)
    links = [link.proto.label for link in at.get("page_link")]
    assert KO["playground.nav"] in links and "Playground" not in links


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_english(page):
    at = open_in(page, "en")
    assert i18n.EN["playground.nav"] in [link.proto.label for link in at.get("page_link")]


def test_an_input_error_is_in_korean():
    at = open_in("pages/1_Playground.py", "ko")
    at.text_area(key=inputs.TEXTS["queries"]).input("1, 2\n3").run()
    message = at.error[0].value
    assert KO["parse.ragged_rows"].format(row=2, found=1, expected=2) in message
    assert KO["input.queries"] in message
    assert "row" not in message.lower()
    assert at.text_area(key=inputs.TEXTS["queries"]).value == "1, 2\n3"  # kept as typed


def test_switching_language_keeps_the_inputs_and_the_url_follows():
    at = open_in("pages/1_Playground.py", "ko")
    at.selectbox(key=pg.SCORE.key).set_value("cosine").run()
    # AppTest reads the widgets as they were drawn (in Korean), then the run draws English.
    at.segmented_control(key=page.LANG).set_value("en").run()
    i18n.set_language("en")
    assert at.title[0].value == i18n.EN["playground.title"]
    assert at.selectbox(key=pg.SCORE.key).value == "cosine"
    assert "lang" not in at.query_params
    at.segmented_control(key=page.LANG).set_value("ko").run()
    i18n.set_language("ko")
    assert at.title[0].value == KO["playground.title"]
    assert at.selectbox(key=pg.SCORE.key).value == "cosine"
    assert at.query_params["lang"] in ("ko", ["ko"])
    at.switch_page("pages/2_Masking.py").run()
    assert at.title[0].value == KO["masking.title"]


def test_one_click_switches_back_in_a_session_opened_without_a_language():
    """The address then holds the ?lang=ko the page itself wrote: not a link to read again."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=TIMEOUT).run()
    i18n.set_language("en")  # AppTest formats the widgets' options in this thread
    at.segmented_control(key=page.LANG).set_value("ko").run()
    assert at.title[0].value == KO["home.title"]
    assert at.query_params["lang"] in ("ko", ["ko"])
    i18n.set_language("ko")
    at.segmented_control(key=page.LANG).set_value("en").run()
    assert at.title[0].value == i18n.EN["home.title"]
    assert at.session_state[page.LANG] == "en" and "lang" not in at.query_params


def test_an_unknown_language_falls_back_to_english_with_a_notice():
    at = open_in("dashboard.py", "<script>")
    assert at.title[0].value == i18n.EN["home.title"]
    assert any("Unknown language" in toast.value for toast in at.toast)
    assert at.session_state[page.LANG] == "en"


def test_korean_sentences_on_the_model_page_come_with_the_caveat_in_korean():
    at = open_in("pages/8_Model_attention.py", "ko")
    at.text_area(key=model_controls.SENTENCE_A.key).input("나는 잠이 필요해").run()
    at.text_area(key=model_controls.SENTENCE_B.key).input("나는 피곤해 😴").run()
    assert not at.exception
    assert KO["model.caveat"] in [w.value for w in at.warning]


def test_korean_puts_no_space_before_a_parenthesis():
    """Korean style writes 어텐션(attention), not 어텐션 (attention) (issue 18)."""
    spaced = {
        key: value for key, value in i18n.KO.items() if re.search(r"[\uac00-\ud7a3] \(", value)
    }
    assert spaced == {}
