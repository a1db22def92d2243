"""The model lesson's residual-norm figure through its data: position 0 against the median and
the largest of the other positions, layer by layer, from a hand-made table and from the norms
of all-MiniLM-L6-v2's hidden states."""

from __future__ import annotations

import statistics

import numpy as np
import plotly.graph_objects as go
import torch

from attnviz.lessons.model import figures
from tests.english import EN, KO
from tests.plotly_data import decode, figure_json

LINES = ("position 0", "other positions (median)", "other positions (largest)")


def lines(fig: go.Figure) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each line's (x, y) by its name, as sent to Plotly."""
    return {
        trace["name"]: (decode(trace["x"]), decode(trace["y"]))
        for trace in figure_json(fig)["data"]
    }


def test_lines_are_position_0_and_the_median_and_largest_of_the_others():
    norms = [[1.0, 2.0, 3.0, 10.0], [5.0, 2.0, 3.0, 4.0], [100.0, 1.0, 1.0, 7.0]]
    fig = figures.residual_norms_figure(norms, "norms", EN)
    drawn = lines(fig)
    assert list(drawn) == list(LINES)
    for x, _ in drawn.values():
        np.testing.assert_array_equal(x, [0, 1, 2])  # 0 = the embeddings, then each layer
    np.testing.assert_array_equal(drawn["position 0"][1], [1.0, 5.0, 100.0])
    np.testing.assert_array_equal(drawn["other positions (median)"][1], [3.0, 3.0, 1.0])
    np.testing.assert_array_equal(drawn["other positions (largest)"][1], [10.0, 4.0, 7.0])
    assert fig.layout.yaxis.type == "log"
    assert fig.layout.xaxis.title.text == "after layer (0 = embeddings)"
    assert fig.layout.yaxis.title.text == "norm (log scale)"
    assert [t.line.dash for t in fig.data] == ["solid", "solid", "dot"]
    assert fig.data[0].hovertemplate == "position 0<br>%{x}: %{y:.4g}<extra></extra>"


def test_the_title_is_escaped_and_the_words_follow_the_catalogue():
    fig = figures.residual_norms_figure([[1.0, 2.0], [3.0, 4.0]], "<b>norms</b> %{y}", KO)
    assert fig.layout.title.text == "&lt;b&gt;norms&lt;/b&gt; %&#123;y&#125;"
    assert [t.name for t in fig.data] == ["위치 0", "다른 위치(중앙값)", "다른 위치(최댓값)"]


def test_minilms_residual_stream_norms(encoder):
    encoded = encoder.encode("The cat sat on the mat because it was tired.")
    hidden = encoded.hidden_states  # (L + 1, T, d)
    norms = torch.linalg.vector_norm(hidden.double(), dim=-1)  # (L + 1, T)
    fig = figures.residual_norms_figure(norms.tolist(), "norms", EN)
    drawn = lines(fig)
    layers = hidden.shape[0]
    np.testing.assert_array_equal(drawn["position 0"][0], np.arange(layers))
    np.testing.assert_allclose(drawn["position 0"][1], norms[:, 0].numpy(), rtol=1e-12)
    median = [statistics.median(row[1:]) for row in norms.tolist()]
    largest = [max(row[1:]) for row in norms.tolist()]
    np.testing.assert_allclose(drawn["other positions (median)"][1], median, rtol=1e-12)
    np.testing.assert_allclose(drawn["other positions (largest)"][1], largest, rtol=1e-12)
    assert encoded.residual_norms is not None  # what the page draws is the same table
    np.testing.assert_allclose(encoded.residual_norms.double(), norms, rtol=1e-4)
