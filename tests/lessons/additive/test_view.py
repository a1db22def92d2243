"""The additive attention page through AppTest: figures carry the backend's numbers."""

from __future__ import annotations

import re

import numpy as np
import torch
import torch.nn.functional as F

from attnviz import parsing
from attnviz.app import selection
from attnviz.attention import attend
from attnviz.inputs import random_qkv as random_inputs
from attnviz.lessons.additive import compute, view
from tests.apptest import chart, open_page, panel_z_of
from tests.plotly_data import annotation_texts, panel_click

PAGE = "pages/3_Additive_attention.py"
TOL = {"rtol": 1e-5, "atol": 1e-6}
# Each matrix's chart and panel: the page draws each step as one figure of panels.
PANELS = {
    name: (chart, panel)
    for chart, names in (
        (view.INPUTS_CHART, ("ad_q", "ad_k", "ad_v")),
        (view.PROJECTIONS_CHART, ("ad_q_proj", "ad_k_proj")),
        (view.FEATURES_CHART, ("ad_features", "ad_query_scores")),
        (view.COMPARE_CHART, ("ad_scores", "ad_dot_scores", "ad_weights", "ad_dot_weights",
                              "ad_output", "ad_dot_output")),
    )
    for panel, name in enumerate(names)
}  # fmt: skip


def z_of(at, name: str) -> np.ndarray:
    """The matrix `name` ("ad_scores", ...) as the page drew it, in its chart's panel."""
    return panel_z_of(at, *PANELS[name])


def expected(n=3, m=5, d_q=2, d_k=4, d_v=3, seed=0, h=8, param_seed=0, **given):
    """Inputs, additive result and projected scaled-dot result, computed here independently."""
    q, k, v = random_inputs(n, m, d_q, d_k, d_v, seed)
    additive = attend(q, k, v, score="additive", params={"h": h, "seed": param_seed, **given})
    q_proj = q @ additive.params["W_q"].T  # (n, h)
    k_proj = k @ additive.params["W_k"].T  # (m, h)
    return (q, k, v), additive, (q_proj, k_proj)


def check_attention(at, additive, q_proj, k_proj, values):
    np.testing.assert_allclose(z_of(at, "ad_scores"), additive.scores, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_weights"), additive.weights, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_output"), additive.output, **TOL)
    h = q_proj.shape[1]
    dot_scores = q_proj @ k_proj.T / np.sqrt(h)
    np.testing.assert_allclose(z_of(at, "ad_dot_scores"), dot_scores, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_dot_weights"), torch.softmax(dot_scores, -1), **TOL)
    reference = F.scaled_dot_product_attention(q_proj, k_proj, values)
    np.testing.assert_allclose(z_of(at, "ad_dot_output"), reference, **TOL)


def test_defaults_render_the_backend_numbers():
    at = open_page(PAGE)
    (q, k, v), additive, (q_proj, k_proj) = expected()
    charts = [c.proto.id.rpartition("-")[2] for c in at.get("plotly_chart")]
    assert charts == ["ad_inputs", "ad_projections", "ad_features", "ad_compare"]
    np.testing.assert_allclose(z_of(at, "ad_q"), q, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_k"), k, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_v"), v, **TOL)
    assert z_of(at, "ad_q").shape == (3, 2) and z_of(at, "ad_k").shape == (5, 4)
    np.testing.assert_allclose(z_of(at, "ad_q_proj"), q_proj, **TOL)
    np.testing.assert_allclose(z_of(at, "ad_k_proj"), k_proj, **TOL)
    assert z_of(at, "ad_q_proj").shape == (3, 8) and z_of(at, "ad_k_proj").shape == (5, 8)
    np.testing.assert_allclose(z_of(at, "ad_features"), torch.tanh(q_proj[0] + k_proj), **TOL)
    np.testing.assert_allclose(z_of(at, "ad_query_scores")[:, 0], additive.scores[0], **TOL)
    check_attention(at, additive, q_proj, k_proj, v)
    # The text areas hold the seeded parameters, exactly.
    for name in compute.PARAMS:
        parsed = parsing.parse_matrix(at.text_area(key=view.TEXTS[name]).value)
        torch.testing.assert_close(
            parsed.reshape(additive.params[name].shape), additive.params[name]
        )
    latex = " ".join(el.value for el in at.latex)
    assert (
        r"W_q \in \mathbb{R}^{8 \times 2}" in latex and r"W_k \in \mathbb{R}^{8 \times 4}" in latex
    )
    assert not at.error


def test_hidden_size_redraws_the_parameters():
    at = open_page(PAGE)
    at.number_input(key=view.SIZES["h"].key).set_value(5).run()
    assert not at.exception and not at.error
    (_, _, v), additive, (q_proj, k_proj) = expected(h=5)
    assert z_of(at, "ad_q_proj").shape == (3, 5)
    np.testing.assert_allclose(z_of(at, "ad_q_proj"), q_proj, **TOL)
    check_attention(at, additive, q_proj, k_proj, v)
    assert len(at.text_area(key=view.TEXTS["W_q"]).value.splitlines()) == 5
    assert r"W_q \in \mathbb{R}^{5 \times 2}" in " ".join(el.value for el in at.latex)


def test_seeds_change_the_inputs_and_the_parameters():
    at = open_page(PAGE)
    at.number_input(key=view.SEED.key).set_value(4).run()
    (q, _, v), additive, (q_proj, k_proj) = expected(seed=4)
    np.testing.assert_allclose(z_of(at, "ad_q"), q, **TOL)
    check_attention(at, additive, q_proj, k_proj, v)
    at.number_input(key=view.PARAM_SEED.key).set_value(9).run()
    (_, _, v), additive, (q_proj, k_proj) = expected(seed=4, param_seed=9)
    check_attention(at, additive, q_proj, k_proj, v)
    assert not at.exception and not at.error


def test_sizes_change_the_shapes_and_the_numbers():
    at = open_page(PAGE)
    at.number_input(key=view.SIZES["m"].key).set_value(7).run()
    at.number_input(key=view.SIZES["d_q"].key).set_value(6).run()
    at.number_input(key=view.SIZES["d_v"].key).set_value(2).run()
    assert not at.exception and not at.error
    (q, _, v), additive, (q_proj, k_proj) = expected(m=7, d_q=6, d_v=2)
    assert z_of(at, "ad_q").shape == (3, 6) and z_of(at, "ad_scores").shape == (3, 7)
    assert z_of(at, "ad_output").shape == (3, 2)
    np.testing.assert_allclose(z_of(at, "ad_q"), q, **TOL)
    check_attention(at, additive, q_proj, k_proj, v)


def test_chosen_query_changes_the_tanh_features():
    at = open_page(PAGE)
    at.selectbox(key=view.QUERY.key).set_value(2).run()
    _, additive, (q_proj, k_proj) = expected()
    np.testing.assert_allclose(z_of(at, "ad_features"), torch.tanh(q_proj[2] + k_proj), **TOL)
    np.testing.assert_allclose(z_of(at, "ad_query_scores")[:, 0], additive.scores[2], **TOL)
    assert "tanh(W_q q + W_k k_j) for query q2 (m × h)" in annotation_texts(
        chart(at, view.FEATURES_CHART)
    )
    # w_v^T of the features is the row of scores.
    features = z_of(at, "ad_features")
    np.testing.assert_allclose(features @ additive.params["w_v"].numpy(), additive.scores[2], **TOL)


def test_wrong_shape_shows_a_clear_error_and_keeps_the_text():
    at = open_page(PAGE)
    bad = "1, 2\n3, 4\n5, 6"
    at.text_area(key=view.TEXTS["W_q"]).input(bad).run()
    assert not at.exception
    assert len(at.error) == 1
    message = re.sub(r"\\(.)", r"\1", at.error[0].value)  # without markdown escapes
    assert "W_q has shape 3 × 2 but must be h × q = 8 × 2" in message
    assert at.text_area(key=view.TEXTS["W_q"]).value == bad
    assert not at.get("plotly_chart")
    at.text_area(key=view.TEXTS["w_v"]).input("1, x").run()
    assert "Row 1, column 2" in " ".join(e.value for e in at.error)


def test_huge_parameters_are_refused_with_a_message():
    at = open_page(PAGE)
    at.text_area(key=view.TEXTS["W_q"]).input("\n".join(["3e38, 3e38"] * 8)).run()
    assert not at.exception
    assert "W_q q or W_k k overflows float32" in re.sub(r"\\(.)", r"\1", at.error[0].value)
    assert not at.get("plotly_chart")


def test_fewer_queries_keep_the_chosen_query_in_range():
    at = open_page(PAGE)
    at.selectbox(key=view.QUERY.key).set_value(2).run()
    at.number_input(key=view.SIZES["n"].key).set_value(1).run()
    assert not at.exception and not at.error
    _, additive, (q_proj, k_proj) = expected(n=1)
    np.testing.assert_allclose(z_of(at, "ad_features"), torch.tanh(q_proj[0] + k_proj), **TOL)
    np.testing.assert_allclose(z_of(at, "ad_scores"), additive.scores, **TOL)


def test_valid_edit_changes_the_scores_exactly_as_attend():
    at = open_page(PAGE)
    W_q = torch.arange(16, dtype=torch.float32).reshape(8, 2) / 10 - 0.7
    at.text_area(key=view.TEXTS["W_q"]).input(parsing.format_matrix(W_q)).run()
    assert not at.exception and not at.error
    # W_k and w_v stay as the seed drew them: attend draws all three, in order, whatever is given.
    (_, _, v), additive, (q_proj, k_proj) = expected(W_q=W_q)
    torch.testing.assert_close(additive.params["W_q"], W_q)
    check_attention(at, additive, q_proj, k_proj, v)
    # A query-size-free edit survives another rerun, and the re-draw button brings the seed back.
    at.number_input(key=view.SIZES["n"].key).set_value(4).run()
    assert at.text_area(key=view.TEXTS["W_q"]).value == parsing.format_matrix(W_q)
    at.button(key=view.REDRAW).click().run()
    (_, _, v), additive, (q_proj, k_proj) = expected(n=4)
    check_attention(at, additive, q_proj, k_proj, v)


def test_inputs_survive_a_visit_to_another_page():
    at = open_page(PAGE)
    at.number_input(key=view.SIZES["h"].key).set_value(4).run()
    at.text_area(key=view.TEXTS["w_v"]).input("1, 2, 3, 4").run()
    at.switch_page("pages/1_Playground.py").run()
    at.switch_page(PAGE).run()
    assert not at.exception
    assert at.number_input(key=view.SIZES["h"].key).value == 4
    assert at.text_area(key=view.TEXTS["w_v"]).value == "1, 2, 3, 4"
    (_, _, v), additive, (q_proj, k_proj) = expected(h=4, w_v=torch.tensor([1.0, 2, 3, 4]))
    check_attention(at, additive, q_proj, k_proj, v)


def test_a_click_on_any_comparison_panel_shows_its_querys_features():
    at = open_page(PAGE)
    drawn = chart(at, view.COMPARE_CHART)
    cells = drawn["layout"]["meta"]["cells"]
    assert len(cells) == 6 and all(drawn["data"][c]["name"] == "cells" for c in cells)
    _, additive, (q_proj, k_proj) = expected()
    for panel, (row, col) in enumerate([(2, 4), (1, 0), (2, 1), (0, 3), (1, 2), (2, 0)]):
        # The point Plotly reports for a click on that cell of that panel's overlay.
        clicked = panel_click(drawn, panel, row, col)
        picked = selection.selected_panel_cell(clicked, cells)
        assert picked == (panel, row, col)
        # What the chart's on_select stores (selection.store_panel_click): the row's query.
        at.session_state[view.QUERY.key] = picked[1]
        at.run()
        assert not at.exception
        features = z_of(at, "ad_features")
        np.testing.assert_allclose(features, torch.tanh(q_proj[row] + k_proj), **TOL)
        np.testing.assert_allclose(z_of(at, "ad_query_scores")[:, 0], additive.scores[row], **TOL)
