"""Shareable links on the teaching pages and the landing page (attnviz.app.links).

Each page opened from a link shows the view the link names; its changed widgets are what the
URL holds; values the page cannot use keep their defaults with a notice naming them.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch
from streamlit.elements.lib import policies
from streamlit.testing.v1 import AppTest

from attnviz import i18n, parsing
from attnviz.app import controls, links
from attnviz.attention import attend
from attnviz.lessons import lessons
from attnviz.lessons.additive import compute as additive_compute
from attnviz.lessons.additive import view as additive_view
from attnviz.lessons.home import view as home
from attnviz.lessons.kernels import view as kernels_view
from attnviz.lessons.masking import view as masking_view
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.multihead import view as multihead_view
from attnviz.lessons.nli import view as nli_view
from attnviz.lessons.sqrt_d import view as sqrt_d_view
from attnviz.lessons.train_nli import view as train_view
from tests.app.test_links import open_with
from tests.apptest import ROOT, TIMEOUT, chart, small_inputs, z_of
from tests.lessons.additive import test_view as additive_page
from tests.lessons.kernels import test_view as kernels_page
from tests.lessons.masking import test_view as masking_page
from tests.lessons.multihead import test_view as multihead_page
from tests.lessons.sqrt_d import test_view as sqrt_d_page

HOME = "dashboard.py"
PLAYGROUND = "pages/1_Playground.py"
NLI = "pages/7_NLI_alignment.py"
MODEL = "pages/8_Model_attention.py"
MASKING = masking_page.PAGE
ADDITIVE = additive_page.PAGE
SQRT_D = sqrt_d_page.PAGE
KERNELS = kernels_page.PAGE
MULTIHEAD = multihead_page.PAGE
TRAIN = "pages/9_Train_NLI.py"
ACROSS = "pages/10_Across_layers.py"
GENERATION = "pages/11_Generation.py"
PATCHING = "pages/12_Activation_patching.py"

LINKS: dict[str, tuple[controls.Control, ...]] = {
    HOME: home.LINK,
    MASKING: masking_view.LINK,
    ADDITIVE: additive_view.LINK,
    SQRT_D: sqrt_d_view.LINK,
    KERNELS: kernels_view.LINK,
    MULTIHEAD: multihead_view.LINK,
}
# One figure per page whose data follow from every setting in the test below.
FIGURES = {
    HOME: "home_weights",
    MASKING: masking_view.FIG_STEPS[2],
    ADDITIVE: additive_view.FEATURES_CHART,
    SQRT_D: sqrt_d_view.SATURATION,
    KERNELS: kernels_view.FIG_FIT,
    MULTIHEAD: multihead_view.HEADS_CHART,
}


def open_link(page: str, query: dict[str, str]) -> AppTest:
    """`page` opened from a link carrying `query` in a fresh session (the dashboard directly)."""
    if page != HOME:
        return open_with(page, query)
    at = AppTest.from_file(str(ROOT / HOME), default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def url(at: AppTest) -> dict[str, str]:
    """The query string the page wrote, one text per name."""
    return {k: v[-1] if isinstance(v, list) else v for k, v in at.query_params.items()}


# --------------------------------------------------------------------------------------
# Every Param belongs to a widget of its page, with that widget's default
# --------------------------------------------------------------------------------------


# Every page with a link, for the checks that need no page-specific figures: every lesson's,
# so a new page is checked without being added here.
ALL_LINKS: dict[str, tuple[controls.Control, ...]] = {
    lesson.script: importlib.import_module(f"attnviz.lessons.{lesson.name}.view").LINK
    for lesson in lessons()
}


def test_the_pages_named_here_are_the_lessons_pages():
    named = {HOME, PLAYGROUND, NLI, MODEL, TRAIN, ACROSS, *LINKS}
    assert named <= set(ALL_LINKS) and all((ROOT / script).is_file() for script in ALL_LINKS)


@pytest.mark.parametrize("page", list(ALL_LINKS))
def test_every_param_names_a_key_the_page_uses_with_its_default(page):
    at = open_link(page, {})
    params = ALL_LINKS[page]
    assert len({p.name for p in params}) == len(params)  # one URL name per setting
    for param in params:
        assert param.key in at.session_state, param.key
        assert at.session_state[param.key] == param.default, param.name
    assert links.current_values(params, at.session_state) == {}
    assert url(at) == {}  # the default view has a plain address
    assert not at.warning


@pytest.mark.parametrize("page", list(ALL_LINKS))
def test_a_widget_set_by_a_link_passes_no_default_of_its_own(page, monkeypatch):
    """Streamlit warns when a widget has a default and a value from the session state."""
    warned: list[str] = []

    class Log:
        def warning(self, message: str, *args: Any, **kwargs: Any) -> None:
            warned.append(message % args)

    monkeypatch.setattr(policies, "_LOGGER", Log())
    monkeypatch.setattr(policies, "_shown_default_value_warning", False)
    at = open_link(page, CHANGED_LINKS[page])
    at.run()
    assert not at.exception
    assert not warned, warned


# --------------------------------------------------------------------------------------
# A link opens the view it names
# --------------------------------------------------------------------------------------


def test_a_link_restores_the_landing_pages_temperature():
    at = open_link(HOME, {"T": "0.2"})
    assert at.slider(key=home.TEMPERATURE.key).value == 0.2
    q, k, v = small_inputs()
    expected = attend(q, k, v, temperature=0.2).weights
    np.testing.assert_allclose(z_of(at, "home_weights"), expected, rtol=1e-5)
    assert url(at) == {"T": "0.2"}


def test_a_link_restores_the_masking_page():
    query = {
        "b": "4",
        "m": "5",
        "seed": "5",
        "lens": "4, 5, 2, 5",
        "seq": "2",
        "causal": "1",
        "fill": "-inf",
        "cells_on": "1",
        "cells": "0.1,2.0",
    }
    at = open_link(MASKING, query)
    view = masking_view
    assert not at.warning
    assert at.number_input(key=view.BATCH.key).value == 4
    assert at.number_input(key=view.LENGTH.key).value == 5
    assert at.text_input(key=view.VALID_LENS.key).value == "4, 5, 2, 5"
    assert at.selectbox(key=view.SEQUENCE.key).value == 2
    assert at.toggle(key=view.CAUSAL.key).value is True
    assert at.toggle(key=view.CELLS_ON.key).value is True
    assert at.radio(key=view.FILL.key).value == -math.inf
    blocked = frozenset({(0, 1), (2, 0)})
    assert at.session_state[view.CELLS] == blocked
    result = masking_page.expected(
        [4, 5, 2, 5], m=5, seed=5, causal=True, blocked=blocked, fill=-math.inf
    )
    masking_page.assert_sequence(at, result, 2)
    assert url(at) == query


def test_a_link_restores_the_additive_page_with_an_edited_parameter():
    query = {
        "n": "4",
        "m": "6",
        "dq": "3",
        "dk": "2",
        "dv": "2",
        "seed": "7",
        "h": "4",
        "pseed": "3",
        "q": "2",
        "wv": "1, 2, 3, 4",
    }
    at = open_link(ADDITIVE, query)
    view = additive_view
    assert not at.warning and not at.error
    assert at.number_input(key=view.SIZES["h"].key).value == 4
    assert at.selectbox(key=view.QUERY.key).value == 2
    assert at.text_area(key=view.TEXTS["w_v"]).value == "1, 2, 3, 4"
    # The parameters the link does not carry are the seed's draw for the linked sizes.
    drawn = additive_compute.param_texts(additive_compute.seeded_params(4, 3, 2, 3))
    assert at.text_area(key=view.TEXTS["W_q"]).value == drawn["W_q"]
    sizes = {"n": 4, "m": 6, "d_q": 3, "d_k": 2, "d_v": 2, "seed": 7, "h": 4, "param_seed": 3}
    (_, _, v), result, (q_proj, k_proj) = additive_page.expected(
        **sizes, w_v=torch.tensor([1.0, 2, 3, 4])
    )
    additive_page.check_attention(at, result, q_proj, k_proj, v)
    np.testing.assert_allclose(
        additive_page.z_of(at, "ad_features"), torch.tanh(q_proj[2] + k_proj), **additive_page.TOL
    )
    assert url(at) == query


def test_a_link_restores_the_sqrt_d_page():
    query = {"d": "256", "m": "32", "samples": "500", "seed": "3"}
    at = open_link(SQRT_D, query)
    view = sqrt_d_view
    assert at.select_slider(key=view.D.key).value == 256 and at.slider(key=view.M.key).value == 32
    assert at.number_input(key=view.SAMPLES.key).value == 500
    assert at.number_input(key=view.SEED.key).value == 3
    sqrt_d_page.assert_page_shows(at, d=256, m=32, samples=500, seed=3)
    assert url(at) == query


@pytest.mark.parametrize(
    ("given", "used"), [("100", 128), ("48", 64), ("3", 4), ("700", 512), (" 6", 8)]
)
def test_an_old_sqrt_d_link_with_any_d_shows_the_nearest_power_of_two(given, used):
    """Links from when d was a slider of every whole number keep working, and say so."""
    at = open_link(SQRT_D, {"d": given, "seed": "3"})
    assert not at.warning
    assert at.select_slider(key=sqrt_d_view.D.key).value == used
    notes = [i.value for i in at.info]
    assert f"The link's `d` = {int(given)} is not one of this control's steps" in notes[0]
    assert f"the nearest step, {used}, is shown" in notes[0]
    sqrt_d_page.assert_page_shows(at, d=used, m=16, samples=2000, seed=3)
    assert url(at) == ({"seed": "3"} if used == 64 else {"d": str(used), "seed": "3"})


def test_a_sqrt_d_link_with_a_power_of_two_needs_no_note():
    at = open_link(SQRT_D, {"d": "2"})
    assert at.select_slider(key=sqrt_d_view.D.key).value == 2
    assert not any("not one of this control's steps" in i.value for i in at.info)
    assert url(at) == {"d": "2"}


def test_a_link_restores_the_kernel_page():
    query = {"kernel": "boxcar", "h": "0.5", "n": "20", "noise": "0.1", "seed": "7", "x": "1.5"}
    at = open_link(KERNELS, query)
    view = kernels_view
    assert at.selectbox(key=view.KERNEL.key).value == "boxcar"
    assert at.slider(key=view.BANDWIDTH.key).value == 0.5
    assert at.number_input(key=view.N_TRAIN.key).value == 20
    assert at.slider(key=view.NOISE.key).value == 0.1
    assert at.text_input(key=view.PROBE.key).value == "1.5"
    kernels_page.assert_page_shows(at, kernel="boxcar", h=0.5, n=20, seed=7, noise=0.1)
    assert any(r"\hat f(1.5)" in latex.value for latex in at.latex)
    assert url(at) == query


def test_a_link_restores_the_multi_head_page():
    query = {
        "text": "a dog saw a cat",
        "dmodel": "12",
        "h": "3",
        "seed": "5",
        "pe": "0",
        "causal": "1",
        "head": "2",
    }
    at = open_link(MULTIHEAD, query)
    view = multihead_view
    assert at.text_input(key=view.SENTENCE.key).value == "a dog saw a cat"
    assert at.segmented_control(key=view.HEAD.key).value == 2
    assert at.selectbox(key=view.D_MODEL.key).value == 12
    assert at.selectbox(key=view.HEADS.key).value == 3
    assert at.toggle(key=view.POSITIONAL.key).value is False
    assert at.toggle(key=view.CAUSAL.key).value is True
    multihead_page.assert_page_matches(
        at, ["a", "dog", "saw", "a", "cat"], head=2, d_model=12, heads=3, positional=False,
        causal=True, seed=5,
    )  # fmt: skip
    assert url(at) == query


# --------------------------------------------------------------------------------------
# The URL holds what was changed, and that link opens the same view
# --------------------------------------------------------------------------------------


def _change_home(at: AppTest) -> None:
    at.slider(key=home.TEMPERATURE.key).set_value(2.5).run()


def _change_masking(at: AppTest) -> None:
    view = masking_view
    at.number_input(key=view.LENGTH.key).set_value(8).run()
    at.toggle(key=view.CAUSAL.key).set_value(True).run()
    at.selectbox(key=view.SEQUENCE.key).set_value(1).run()
    at.radio(key=view.FILL.key).set_value(-1e9).run()


def _change_additive(at: AppTest) -> None:
    view = additive_view
    at.number_input(key=view.SEED.key).set_value(4).run()
    at.text_area(key=view.TEXTS["W_k"]).input("\n".join(["0.5, -1, 0.25, 2"] * 8)).run()
    at.selectbox(key=view.QUERY.key).set_value(1).run()


def _change_sqrt_d(at: AppTest) -> None:
    at.slider(key=sqrt_d_view.M.key).set_value(8).run()
    at.number_input(key=sqrt_d_view.SEED.key).set_value(2).run()


def _change_kernels(at: AppTest) -> None:
    view = kernels_view
    at.selectbox(key=view.KERNEL.key).set_value("epanechnikov").run()
    at.slider(key=view.BANDWIDTH.key).set_value(0.4).run()
    at.text_input(key=view.PROBE.key).set_value("-1").run()


def _change_multihead(at: AppTest) -> None:
    view = multihead_view
    at.text_input(key=view.SENTENCE.key).set_value("dogs chase cats").run()
    at.selectbox(key=view.HEADS.key).set_value(2).run()
    at.number_input(key=view.SEED.key).set_value(9).run()
    at.segmented_control(key=view.HEAD.key).set_value(1).run()


CHANGES: dict[str, tuple[Callable[[AppTest], None], dict[str, str]]] = {
    HOME: (_change_home, {"T": "2.5"}),
    MASKING: (
        _change_masking,
        {"m": "8", "causal": "1", "seq": "1", "fill": "-1e9"},  # the lengths still fit
    ),
    ADDITIVE: (
        _change_additive,
        {"seed": "4", "Wk": "\n".join(["0.5, -1, 0.25, 2"] * 8), "q": "1"},
    ),
    SQRT_D: (_change_sqrt_d, {"m": "8", "seed": "2"}),
    KERNELS: (_change_kernels, {"kernel": "epanechnikov", "h": "0.4", "x": "-1"}),
    MULTIHEAD: (_change_multihead, {"text": "dogs chase cats", "h": "2", "seed": "9", "head": "1"}),
}
# Links that set every setting of a page to a value other than its default.
CHANGED_LINKS: dict[str, dict[str, str]] = {
    HOME: {"T": "0.5"},
    PLAYGROUND: {
        "src": "random", "n": "5", "m": "7", "dq": "3", "dk": "3", "dv": "2", "seed": "4",
        "score": "additive", "T": "0.5", "h": "4", "pseed": "2", "lens": "3", "causal": "1",
        "cells_on": "1", "cells": "0.1", "fill": "-inf", "shown": "0", "q": "2", "k": "1",
        "sigma": "2",
        "preset": "textbook", "self": "1", "Q": "1, 2", "K": "1, 0", "V": "3",
        "back": "pages/8_Model_attention.py?layer=2&edit_at=2.3",
        "tokens": '[["a", "b"], ["c", "d"]]',
    },
    NLI: {
        "mode": "batch", "preset": "neutral", "premise": "A cat sleeps.", "hypothesis": "It rests.",
        "pairs": "A dog runs. ||| An animal moves.\nIt rains. ||| It is dry.", "pair": "1",
        "source": "static", "f": "mlp", "seed": "3", "rows": "0", "output": "4",
        "scale": "temperature", "T": "2.5",
    },
    TRAIN: {
        "data": "upload", "source": "contextual", "output": "4", "align": "mlp", "scale": "sqrt_d",
        "hidden": "50", "epochs": "3", "pairs": "500", "watch": "4",
    },
    ACROSS: {
        "model": "hf/absent", "preset": "neutral", "a": "A cat sleeps.", "b": "It rests.",
        "view": "saliency", "fusion": "max", "layer": "2", "row": "3", "first": "1",
        "hlayer": "4", "head": "5", "target": "verdict", "baseline": "pad", "steps": "8",
        "score": "previous", "ablation": "mean", "out": "1.2",
    },
    GENERATION: {
        "model": "smollm2", "prompt": "A cat sleeps.", "chat": "1", "new": "4",
        "decoding": "sample", "T": "1.5", "k": "5", "seed": "3", "step": "2", "layer": "2",
        "head": "3", "drew": "1", "method": "integrated_gradients", "normalise": "1",
    },
    PATCHING: {
        "model": "smollm2", "example": "paris", "clean": "The Eiffel Tower is in",
        "corrupted": "The Colosseum is in", "answer": " Paris", "wrong": " Rome",
        "site": "mlp", "top": "5",
    },
    MODEL: {
        "model": "hf/absent", "preset": "neutral", "a": "A cat sleeps.", "b": "It rests.",
        "target": "It rests.", "view": "neuron", "stack": "cross", "layer": "2", "head": "3",
        "query": "2", "hide": "1", "renorm": "0", "merge": "1", "block": "AB", "long": "1",
        "edit": "1, 2", "edit_at": "2.3",
    },
    MASKING: {
        "b": "2", "m": "4", "seed": "1", "lens": "3, 4", "seq": "1", "causal": "1",
        "fill": "-inf", "shown": "0", "cells_on": "1", "cells": "0.0",
    },
    ADDITIVE: {
        "n": "2", "m": "3", "dq": "3", "dk": "3", "dv": "1", "seed": "1", "h": "2",
        "pseed": "1", "Wq": "1, 0, 0\n0, 1, 0", "Wk": "0, 0, 1\n1, 0, 0", "wv": "1, -1", "q": "1",
    },
    SQRT_D: {"d": "16", "m": "4", "samples": "300", "seed": "1"},
    KERNELS: {
        "kernel": "constant", "h": "1.5", "n": "10", "noise": "1", "seed": "2", "x": "0.5",
    },
    MULTIHEAD: {
        "text": "one two", "dmodel": "8", "h": "2", "seed": "1", "pe": "0", "causal": "1",
        "head": "1",
    },
}  # fmt: skip


def test_the_changed_links_change_every_setting():
    assert set(CHANGED_LINKS) == set(ALL_LINKS)
    for page, query in CHANGED_LINKS.items():
        assert set(query) == {p.name for p in ALL_LINKS[page]}, page


@pytest.mark.parametrize("page", list(LINKS))
def test_the_url_holds_the_changes_and_opens_the_same_view(page):
    at = open_link(page, {})
    change, changed = CHANGES[page]
    change(at)
    assert not at.exception, [e.value for e in at.exception]
    assert links.current_values(LINKS[page], at.session_state) == changed
    assert url(at) == changed
    shown = chart(at, FIGURES[page])["data"]
    again = open_link(page, changed)
    assert not again.warning
    assert chart(again, FIGURES[page])["data"] == shown
    assert links.current_values(LINKS[page], again.session_state) == changed


def test_a_new_draw_of_the_additive_parameters_stays_out_of_the_url():
    """The texts follow from the sizes and the seed: only a person's edits go in the link."""
    at = open_link(ADDITIVE, {})
    view = additive_view
    at.number_input(key=view.SIZES["h"].key).set_value(32).run()
    at.number_input(key=view.SIZES["d_k"].key).set_value(16).run()
    assert url(at) == {"h": "32", "dk": "16"}
    assert not [c.value for c in at.caption if "characters, at most" in c.value]
    # A long edit is left to the state file, with a note; a later new draw drops it.
    long_text = "\n".join(", ".join(["0.5"] * 16) for _ in range(32))
    at.text_area(key=view.TEXTS["W_k"]).input(long_text).run()
    assert not at.error
    assert url(at) == {"h": "32", "dk": "16"}
    assert any("characters, at most" in c.value for c in at.caption)
    assert links.current_values(view.LINK, at.session_state, limit=None)["Wk"] == (long_text)
    at.button(key=view.REDRAW).click().run()
    assert at.session_state[view.EDITS["W_k"].key] == ""
    assert "Wk" not in links.current_values(view.LINK, at.session_state, limit=None)


def test_an_additive_state_file_brings_sizes_and_edits_together():
    """Loading a state file sets the sizes and the edited texts in one go; the edit survives
    the new draw the new sizes cause."""
    at = open_link(ADDITIVE, {})
    view = additive_view
    # What links._load_state does in its callback: set the values before the next run.
    at.session_state[view.SIZES["h"].key] = 2
    at.session_state[view.EDITS["w_v"].key] = "3, -1"
    at.run()
    assert not at.exception and not at.error
    assert at.text_area(key=view.TEXTS["w_v"]).value == "3, -1"
    drawn = additive_compute.param_texts(additive_compute.seeded_params(2, 2, 4, 0))
    assert at.text_area(key=view.TEXTS["W_q"]).value == drawn["W_q"]
    assert url(at) == {"h": "2", "wv": "3, -1"}


def test_the_language_stays_in_the_url_across_pages():
    i18n.set_language("ko")  # AppTest formats the widgets' options in this thread
    try:
        at = open_link(SQRT_D, {"lang": "ko", "d": "32"})
        assert url(at) == {"lang": "ko", "d": "32"}
        assert at.select_slider(key=sqrt_d_view.D.key).value == 32
        at.query_params.clear()  # Streamlit drops the query string on a page change
        at.switch_page(MULTIHEAD).run()
        assert url(at) == {"lang": "ko"}
        at.switch_page(HOME).run()
        assert url(at) == {"lang": "ko"}
    finally:
        i18n.set_language("en")


# --------------------------------------------------------------------------------------
# Hostile or broken values: defaults, a notice naming them, never a traceback
# --------------------------------------------------------------------------------------

HOSTILE = "<script>alert(1)</script>"


@pytest.mark.parametrize(
    ("page", "query"),
    [
        (HOME, {"T": "nan"}),
        (HOME, {"T": "99999999"}),
        (MASKING, {"b": "-1", "m": "99999999", "fill": HOSTILE, "causal": "nan"}),
        (MASKING, {"seq": "99999999", "cells": HOSTILE, "seed": "-1"}),
        (ADDITIVE, {"n": "99999999", "h": "-1", "q": HOSTILE, "seed": "nan"}),
        (SQRT_D, {"d": "99999999", "m": "-1", "samples": "nan", "seed": HOSTILE}),
        (KERNELS, {"kernel": HOSTILE, "h": "nan", "n": "-1", "noise": "99999999"}),
        (MULTIHEAD, {"dmodel": "99999999", "h": "-1", "seed": "nan", "pe": HOSTILE}),
    ],
)
def test_hostile_values_fall_back_to_defaults_with_a_notice(page, query):
    at = open_link(page, query)
    notices = [w.value for w in at.warning]
    assert notices and "defaults" in notices[0], notices
    assert all(f"`{name}`" in notices[0] for name in query), notices
    assert "<script>" not in " ".join(notices)
    for param in LINKS[page]:
        if param.name in query:
            assert at.session_state[param.key] == param.default, param.name
    assert url(at) == {}  # the defaults they fell back to need no settings in the address


@pytest.mark.parametrize(
    ("page", "query", "error"),
    [
        (MASKING, {"b": "2"}, "2 sequences"),  # valid, but the default lengths name three
        (KERNELS, {"x": HOSTILE}, "not a number"),
        (ADDITIVE, {"Wq": HOSTILE}, "W_q"),
    ],
)
def test_texts_a_page_cannot_read_are_kept_and_explained(page, query, error):
    """A typed text from a link is the person's text: it is shown, and its error with it."""
    at = open_link(page, query)
    assert not at.warning
    shown = [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]  # without markdown escapes
    assert shown and error in shown[0], shown
    assert url(at) == query


def test_markup_in_the_sentence_is_only_text():
    at = open_link(MULTIHEAD, {"text": f"{HOSTILE} cat"})
    assert not at.warning and not at.error
    layout = chart(at, multihead_view.HEADS_CHART)["layout"]
    labels = [
        t for k, axis in layout.items() if k.startswith("yaxis") for t in axis.get("ticktext", [])
    ]
    assert labels and "<script>" not in " ".join(labels)
    assert at.text_input(key=multihead_view.SENTENCE.key).value == f"{HOSTILE} cat"


def test_a_selected_query_beyond_the_linked_sizes_starts_at_the_first():
    at = open_link(ADDITIVE, {"n": "2", "q": "9"})
    assert at.selectbox(key=additive_view.QUERY.key).value == 0
    (_, _, v), result, (q_proj, k_proj) = additive_page.expected(n=2)
    additive_page.check_attention(at, result, q_proj, k_proj, v)


def test_parsed_parameters_of_a_link_match_what_the_page_parses():
    """A text that reaches the URL is exactly the widget's text (no float rounding)."""
    at = open_link(ADDITIVE, {})
    view = additive_view
    w_q = torch.arange(16, dtype=torch.float32).reshape(8, 2) / 7
    at.text_area(key=view.TEXTS["W_q"]).input(parsing.format_matrix(w_q)).run()
    again = open_link(ADDITIVE, url(at))
    parsed = parsing.parse_matrix(again.text_area(key=view.TEXTS["W_q"]).value)
    torch.testing.assert_close(parsed, w_q)


@pytest.mark.parametrize(
    ("query", "state", "output"),
    [
        ({"layer": "4"}, 4, "3"),  # an old link: hidden state 4 is the output of layer 3
        ({"layer": "0"}, 0, "embeddings"),
        ({"layer": "6"}, 6, None),  # the last layer's output, the default
        ({"output": "3"}, 4, "3"),  # a new link names the layer as the model page does
        ({"output": "embeddings"}, 0, "embeddings"),
        ({"output": "1", "layer": "6"}, 2, "1"),  # both: the new name is read
    ],
)
def test_nli_links_old_and_new_name_the_same_minilm_output(query, state, output):
    at = open_link(NLI, query)
    assert not at.warning
    assert not [c.value for c in at.caption if "does not know" in c.value]
    assert at.select_slider(key=nli_view.LAYER.key).value == state
    assert at.session_state[nli_view.LAYER.key] == state
    assert url(at) == ({} if output is None else {"output": output})


@pytest.mark.parametrize("old", ["-1", "49", "two", "4.0"])
def test_an_old_nli_layer_the_page_cannot_use_keeps_the_default_and_is_named(old):
    at = open_link(NLI, {"layer": old})
    notices = [w.value for w in at.warning]
    assert notices and "`layer`" in notices[0]
    assert at.session_state[nli_view.LAYER.key] == 6


@pytest.mark.parametrize("renorm", ["1", "0"])
def test_a_model_link_with_the_specials_hidden_keeps_its_renormalising(encoder, renorm):
    query = {"hide": "1", "block": "AB"} | ({"renorm": "0"} if renorm == "0" else {})
    at = open_link(MODEL, query)
    assert at.toggle(key=model_controls.RENORM.key).value is (renorm == "1")
    raw = encoder.encode("I do need sleep", "I am tired").attentions[0, 0][[1, 2, 3, 4]][
        :, [6, 7, 8]
    ]
    expected = raw / raw.sum(-1, keepdim=True) if renorm == "1" else raw
    np.testing.assert_allclose(z_of(at, "view_head"), expected, atol=1e-5)
    assert url(at) == query


def test_a_link_restores_the_training_pages_settings():
    query = {"source": "contextual", "output": "4", "scale": "sqrt_d", "hidden": "50",
             "epochs": "3", "pairs": "500", "watch": "4"}  # fmt: skip
    at = open_link(TRAIN, query)
    assert at.selectbox(key=train_view.SOURCE.key).value == "contextual"
    assert at.select_slider(key=train_view.LAYER.key).value == 5  # layer 4's output
    assert at.number_input(key=train_view.HIDDEN.key).value == 50
    assert at.slider(key=train_view.EPOCHS.key).value == 3
    assert at.selectbox(key=train_view.WATCH.key).value == 4
    assert url(at) == query


def test_an_old_training_link_counted_hidden_states():
    old = {"source": "contextual", "layer": "2"}  # hidden state 2: layer 1's output
    at = open_link(TRAIN, old)
    assert at.select_slider(key=train_view.LAYER.key).value == 2
    assert url(at) == {"source": "contextual", "output": "1"}
    slider = at.select_slider(key=train_view.LAYER.key)
    assert slider.options[:3] == ["embeddings", "0", "1"] and slider.options[-1] == "5"
