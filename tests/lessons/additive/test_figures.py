"""The additive lesson's figures through their data: each heatmap holds the numbers of the
formula written out by hand (w_v^T tanh(W_q q + W_k k), the projections, softmax and A V), the
additive and dot-product pairs share their scales, and the query's lines quote its numbers."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
import torch.nn.functional as F

from attnviz.figures import formulas
from attnviz.figures import panels as kit
from attnviz.lessons.additive import compute, figures
from tests.english import EN, KO
from tests.lessons.additive.test_compute import loop_scores
from tests.plotly_data import annotation_texts, figure_json, panel_traces, panel_z

# Every size different, so a transposed matrix cannot pass.
SIZES = compute.Sizes(n=4, m=6, d_q=3, d_k=5, d_v=2, seed=3, h=7, param_seed=1)


@pytest.fixture(scope="module")
def results() -> compute.Results:
    params = compute.seeded_params(SIZES.h, SIZES.d_q, SIZES.d_k, SIZES.param_seed)
    return compute.compute(SIZES, compute.Params(params, ()))


def z(fig: go.Figure) -> np.ndarray:
    return np.asarray(fig.data[0].z, dtype=float)


def by_hand(results: compute.Results) -> dict[str, np.ndarray]:
    """What each chart should carry, from the inputs and parameters alone."""
    params = results.additive.params
    queries, keys, values = (x.double() for x in (results.queries, results.keys, results.values))
    W_q, W_k, w_v = (params[name].double() for name in compute.PARAMS)
    q_proj, k_proj = queries @ W_q.T, keys @ W_k.T  # (n, h), (m, h)
    scores = loop_scores(queries, keys, W_q, W_k, w_v)  # (n, m)
    weights = torch.softmax(scores, dim=-1)
    dot_scores = q_proj @ k_proj.T / math.sqrt(SIZES.h)
    return {
        "ad_q": queries.numpy(),
        "ad_k": keys.numpy(),
        "ad_v": values.numpy(),
        "ad_q_proj": q_proj.numpy(),
        "ad_k_proj": k_proj.numpy(),
        "ad_scores": scores.numpy(),
        "ad_weights": weights.numpy(),
        "ad_output": (weights @ values).numpy(),
        "ad_dot_scores": dot_scores.numpy(),
        "ad_dot_weights": torch.softmax(dot_scores, dim=-1).numpy(),
        "ad_dot_output": F.scaled_dot_product_attention(q_proj, k_proj, values).numpy(),
    }


def test_every_chart_holds_the_formulas_numbers(results):
    figs = figures.result_figures(results, EN)
    expected = by_hand(results)
    assert set(figs) == set(expected)
    for key, matrix in expected.items():
        np.testing.assert_allclose(z(figs[key]), matrix, rtol=1e-4, atol=1e-5, err_msg=key)
    np.testing.assert_allclose(z(figs["ad_weights"]).sum(-1), np.ones(SIZES.n), rtol=1e-5)


def test_rows_and_columns_are_named_as_the_matrices(results):
    figs = figures.result_figures(results, EN)
    axes = {  # (row ticks, column ticks, y title, x title)
        "ad_q": ("q", "d", "Queries", "Dimensions"),
        "ad_k": ("k", "d", "Keys", "Dimensions"),
        "ad_v": ("k", "v", "Keys", "Dimensions"),
        "ad_q_proj": ("q", "u", "Queries", "Hidden units"),
        "ad_k_proj": ("k", "u", "Keys", "Hidden units"),
        "ad_scores": ("q", "k", "Queries", "Keys"),
        "ad_dot_weights": ("q", "k", "Queries", "Keys"),
        "ad_output": ("q", "v", "Queries", "Dimensions"),
    }
    for key, (rows, cols, y_title, x_title) in axes.items():
        fig = figs[key]
        r, c = z(fig).shape
        assert list(fig.layout.yaxis.ticktext) == [f"{rows}{i}" for i in range(r)], key
        assert list(fig.layout.xaxis.ticktext) == [f"{cols}{j}" for j in range(c)], key
        assert (fig.layout.yaxis.title.text, fig.layout.xaxis.title.text) == (y_title, x_title)
    assert figs["ad_k_proj"].data[0].customdata[5][6].startswith("key k5<br>unit u6<br>")
    assert figs["ad_scores"].layout.title.text == "Additive scores"
    assert figs["ad_dot_output"].layout.title.text == "Scaled dot-product outputs"
    assert figures.result_figures(results, KO)["ad_scores"].layout.title.text == "가산 어텐션 점수"


def test_a_cells_hover_gives_its_score_and_weight(results):
    figs = figures.result_figures(results, EN)
    expected = by_hand(results)
    score, weight = expected["ad_scores"][2, 4], expected["ad_weights"][2, 4]
    hover = f"query q2<br>key k4<br>score: {score:.4g}<br>weight: {weight:.4g}"
    assert figs["ad_scores"].data[0].customdata[2][4] == hover
    assert figs["ad_weights"].data[0].customdata[2][4] == hover


def test_additive_and_dot_product_charts_share_one_scale_each(results):
    figs = figures.result_figures(results, EN)
    expected = by_hand(results)
    for kind in ("scores", "output"):
        bound = max(np.abs(expected[f"ad_{kind}"]).max(), np.abs(expected[f"ad_dot_{kind}"]).max())
        for key in (f"ad_{kind}", f"ad_dot_{kind}"):
            trace = figs[key].data[0]
            assert trace.zmid == 0, key
            np.testing.assert_allclose((trace.zmin, trace.zmax), (-bound, bound), rtol=1e-5)
    for key in ("ad_weights", "ad_dot_weights"):
        assert (figs[key].data[0].zmin, figs[key].data[0].zmax) == (0, 1)
    # The inputs each keep their own scale: their largest |value|.
    trace = figs["ad_k"].data[0]
    assert trace.zmax == pytest.approx(np.abs(expected["ad_k"]).max(), rel=1e-6)


@pytest.mark.parametrize("query", [0, 3])
def test_one_querys_features_and_scores(results, query):
    figs = figures.feature_figures(results, query, EN)
    params = results.additive.params
    q_proj = results.queries.double() @ params["W_q"].double().T  # (n, h)
    k_proj = results.keys.double() @ params["W_k"].double().T  # (m, h)
    feats = np.tanh(q_proj[query].numpy()[None, :] + k_proj.numpy())  # (m, h)
    np.testing.assert_allclose(z(figs["ad_features"]), feats, rtol=1e-4, atol=1e-6)
    scores = by_hand(results)["ad_scores"][query]  # (m,)
    np.testing.assert_allclose(z(figs["ad_query_scores"])[:, 0], scores, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(feats @ params["w_v"].double().numpy(), scores, rtol=1e-6)
    assert figs["ad_features"].layout.title.text == (
        f"tanh(W_q q + W_k k_j) for query q{query} (m × h)"
    )
    column = figs["ad_query_scores"]
    assert list(column.layout.xaxis.ticktext) == [f"q{query}"]
    assert list(column.layout.yaxis.ticktext) == [f"k{j}" for j in range(SIZES.m)]
    assert column.data[0].showscale is False  # one column: the numbers are in its cells


def vector_numbers(line: str) -> np.ndarray:
    r"""The entries of the one \left( ... \right) vector in a LaTeX line."""
    inside = line[line.index(r"\left(") + len(r"\left(") : line.index(r"\right)")]
    return np.array([float(entry) for entry in inside.split(",\\ ")])


def test_query_lines_quote_the_querys_numbers(results):
    query = 1
    lines = figures.query_lines(results, query)
    expected = by_hand(results)
    assert lines[0] == "w_v = " + formulas.vector(results.additive.params["w_v"].tolist())
    assert lines[1] == r"s_{1j} = w_v^\top \tanh(W_q q_{1} + W_k k_j)"
    s_line, alpha_line, _, o_line = lines[2:]
    assert s_line.startswith(r"s_{1\cdot} = ") and alpha_line.startswith(r"\alpha_{1\cdot} = ")
    # Three significant digits, as every formula writes its numbers.
    np.testing.assert_allclose(vector_numbers(s_line), expected["ad_scores"][query], rtol=5e-3)
    np.testing.assert_allclose(vector_numbers(alpha_line), expected["ad_weights"][query], rtol=5e-3)
    np.testing.assert_allclose(vector_numbers(o_line), expected["ad_output"][query], rtol=5e-3)


def test_each_step_is_one_figure_of_panels_with_the_same_numbers(results):
    singles = figures.result_figures(results, EN)
    page = figures.page_figures(results, EN)
    assert list(page) == ["ad_inputs", "ad_projections", "ad_compare"]
    expected = by_hand(results)
    laid_out = {
        "ad_inputs": ["ad_q", "ad_k", "ad_v"],
        "ad_projections": ["ad_q_proj", "ad_k_proj"],
        "ad_compare": [f"ad{kind}_{name}" for name in figures.COMPARED for kind in ("", "_dot")],
    }
    for chart, names in laid_out.items():
        drawn = figure_json(page[chart])
        titles = annotation_texts(drawn)
        for panel, name in enumerate(names):
            np.testing.assert_allclose(panel_z(drawn, panel), expected[name], rtol=1e-4, atol=1e-5)
            assert singles[name].layout.title.text in titles, name
    # Additive left, dot product right: each row on one scale, its one bar on the right.
    compare = figure_json(page["ad_compare"])
    shown = [panel_traces(compare, p)[0].get("showscale", True) for p in range(6)]
    assert shown == [False, True] * 3
    assert len(kit.panel_cells(page["ad_compare"])) == 6  # a click on any panel is decoded
    assert None not in kit.panel_cells(page["ad_compare"])


def test_the_features_sit_beside_the_querys_scores(results):
    fig = figures.query_figure(results, 2, EN)
    drawn = figure_json(fig)
    singles = figures.feature_figures(results, 2, EN)
    np.testing.assert_allclose(panel_z(drawn, 0), z(singles["ad_features"]))
    np.testing.assert_allclose(panel_z(drawn, 1), z(singles["ad_query_scores"]))
    wide, narrow = fig.layout.xaxis.domain, fig.layout.xaxis2.domain
    assert wide[1] - wide[0] > 3 * (narrow[1] - narrow[0])  # four fifths beside one fifth
    assert "tanh(W_q q + W_k k_j) for query q2 (m × h)" in annotation_texts(drawn)
