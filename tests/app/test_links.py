"""Shareable links (attnviz.app.links): settings in the URL, hostile values, state files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from attnviz.app import links
from attnviz.app import matrix_input as inputs
from attnviz.attention import attend
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.nli import view as nli_view
from attnviz.lessons.playground import view as pg
from tests.apptest import ROOT, TIMEOUT, panel_z_of

PLAYGROUND = "pages/1_Playground.py"


def open_with(page: str, query: dict[str, str]) -> AppTest:
    """Open `page` from a link carrying `query` (a fresh session, as a pasted link is)."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=TIMEOUT)
    at.query_params.update(query)
    at.run()
    at.switch_page(page)
    at.query_params.update(query)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_link_restores_the_playground():
    query = {
        "src": "random",
        "n": "5",
        "m": "7",
        "dq": "3",
        "dk": "3",
        "dv": "2",
        "seed": "42",
        "score": "dot",
        "T": "0.5",
        "causal": "1",
        "q": "3",
    }
    at = open_with(PLAYGROUND, query)
    assert not at.warning
    gen = torch.Generator().manual_seed(42)
    q, k, v = (torch.randn(*s, generator=gen) for s in ((5, 3), (7, 3), (7, 2)))
    mask = torch.ones(5, 7, dtype=torch.bool).tril()
    expected = attend(q, k, v, score="dot", temperature=0.5, mask=mask)
    shown = np.where(mask.numpy(), expected.weights.numpy(), np.nan)  # masked cells are gaps
    np.testing.assert_allclose(
        panel_z_of(at, *pg.PANELS["pg_weights"]), shown, rtol=1e-5, atol=1e-7
    )
    assert at.selectbox(key=pg.QUERY).value == 3
    assert at.toggle(key=pg.CAUSAL.key).value is True


def test_a_link_restores_typed_matrices_and_fill():
    query = {"Q": "1, 0\n0, 2", "K": "1, 1\n0, 1\n2, 0", "V": "1\n2\n3", "fill": "-inf"}
    at = open_with(PLAYGROUND, query)
    expected = attend(
        torch.tensor([[1.0, 0.0], [0.0, 2.0]]),
        torch.tensor([[1.0, 1.0], [0.0, 1.0], [2.0, 0.0]]),
        torch.tensor([[1.0], [2.0], [3.0]]),
    )
    np.testing.assert_allclose(
        panel_z_of(at, *pg.PANELS["pg_weights"]), expected.weights, rtol=1e-5
    )
    assert at.session_state[pg.FILL.key] == -math.inf


@pytest.mark.parametrize(
    "query",
    [
        {"n": "-1", "src": "random"},
        {"n": "99999999", "src": "random"},
        {"score": "<script>alert(1)</script>"},
        {"T": "nan"},
        {"fill": "0"},
        {"cells": "../../etc"},
    ],
)
def test_hostile_values_fall_back_to_defaults_with_a_notice(query):
    at = open_with(PLAYGROUND, query)
    notices = [w.value for w in at.warning]
    assert any("defaults" in n for n in notices), notices
    bad = [name for name in query if name != "src"]
    assert all(f"`{name}`" in notices[0] for name in bad), notices
    assert "<script>" not in " ".join(notices)
    assert at.selectbox(key=pg.SCORE.key).value == "scaled_dot"
    assert at.slider(key=pg.TEMPERATURE.key).value == 1.0
    assert at.session_state[inputs.RANDOM["n"]] == 6


def test_unknown_parameters_are_ignored_with_a_note():
    at = open_with(PLAYGROUND, {"evil": "<img src=x onerror=alert(1)>", "score": "cosine"})
    assert at.selectbox(key=pg.SCORE.key).value == "cosine"
    assert any("does not know" in c.value for c in at.caption)
    assert not at.warning


def test_the_url_holds_the_changed_settings():
    at = open_with(PLAYGROUND, {})
    at.selectbox(key=pg.SCORE.key).set_value("cosine").run()
    at.slider(key=pg.TEMPERATURE.key).set_value(0.5).run()
    assert links.current_values(pg.LINK, at.session_state) == {
        "score": "cosine",
        "T": "0.5",
    }
    assert at.query_params.get("score") in ("cosine", ["cosine"])
    assert at.query_params.get("T") in ("0.5", ["0.5"])


def test_a_state_file_round_trips_long_matrices():
    at = open_with(PLAYGROUND, {})
    long_text = "\n".join(", ".join(str(i + j) for j in range(8)) for i in range(120))
    at.text_area(key=inputs.TEXTS["queries"]).input(long_text).run()
    at.toggle(key=inputs.SELF_ATTENTION).set_value(True).run()
    assert not at.exception
    notes = [c.value for c in at.caption]
    assert any("too long for a link" in n for n in notes), notes
    assert "Q" not in at.query_params
    data = json.loads(links.state_json(pg.LINK, at.session_state))
    assert data["Q"] == long_text
    assert data["self"] == "1"


# --------------------------------------------------------------------------------------
# The model pages from a link
# --------------------------------------------------------------------------------------


def test_a_link_restores_the_nli_page():
    query = {"premise": "A cat sleeps.", "hypothesis": "An animal rests.", "source": "static"}
    query |= {"seed": "7", "rows": "0"}
    at = open_with("pages/7_NLI_alignment.py", query)
    assert not at.warning
    assert at.text_area(key=nli_view.PREMISE.key).value == "A cat sleeps."
    assert at.text_area(key=nli_view.HYPOTHESIS.key).value == "An animal rests."
    assert at.selectbox(key=nli_view.SOURCE.key).value == "static"
    assert at.number_input(key=nli_view.SEED.key).value == 7
    assert at.toggle(key=nli_view.ROWS.key).value is False
    ticks = " ".join(str(c.proto.spec) for c in at.get("plotly_chart"))
    assert "cat" in ticks and "animal" in ticks


def test_a_link_restores_the_model_page_and_refuses_a_layer_it_does_not_have():
    at = open_with("pages/8_Model_attention.py", {"layer": "3", "head": "5", "merge": "1"})
    assert at.selectbox(key=model_controls.LAYER.key).value == 3
    assert at.selectbox(key=model_controls.HEAD.key).value == 5
    assert at.toggle(key=model_controls.MERGE.key).value is True
    assert any("Layer 3, head 5" in c.proto.spec for c in at.get("plotly_chart"))

    at = open_with("pages/8_Model_attention.py", {"layer": "99", "head": "<b>1</b>"})
    assert "`layer`" in at.warning[0].value and "`head`" in at.warning[0].value
    assert at.selectbox(key=model_controls.LAYER.key).value == 0
