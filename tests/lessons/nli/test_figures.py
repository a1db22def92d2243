"""The NLI lesson's compare figure, read back from its JSON."""

from __future__ import annotations

import numpy as np
import torch

from attnviz.i18n import Catalogue, catalogue
from attnviz.lessons.nli import figures
from tests.plotly_data import decode, figure_json


def _compare(la: int = 5, lb: int = 4, g: int = 64, premise: list[str] | None = None):
    torch.manual_seed(0)
    compare_a, compare_b = torch.relu(torch.randn(la, g)), torch.relu(torch.randn(lb, g)) * 2
    aggregate = torch.stack([compare_a.sum(0), compare_b.sum(0)])
    tokens = premise or [f"p{i}" for i in range(la)]
    hypothesis = [f"h{j}" for j in range(lb)]
    fig = figures.compare_figure(compare_a, compare_b, aggregate, tokens, hypothesis, catalogue())
    return fig, (compare_a, compare_b, aggregate)


def test_compare_figure_stacks_g_per_token_and_v_on_one_dimension_axis():
    fig, (compare_a, compare_b, aggregate) = _compare()
    spec = figure_json(fig)
    panels = spec["data"]
    assert [p["yaxis"] for p in panels] == ["y", "y2", "y3"]
    assert {p["xaxis"] for p in panels} == {"x"}
    for panel, matrix in zip(panels, (compare_a, compare_b, aggregate), strict=True):
        np.testing.assert_allclose(decode(panel["z"]), matrix.numpy(), rtol=1e-6)
    # ReLU outputs: scales from 0; the G panels share one, v (their sums) has its own.
    top = float(max(compare_a.max(), compare_b.max()))
    assert [(p["zmin"], p["zmax"]) for p in panels[:2]] == [(0.0, top), (0.0, top)]
    assert (panels[2]["zmin"], panels[2]["zmax"]) == (0.0, float(aggregate.max()))
    assert [p["showscale"] for p in panels] == [True, False, True]
    layout = spec["layout"]
    domains = [layout[axis]["domain"] for axis in ("yaxis", "yaxis2", "yaxis3")]
    assert domains[0][1] == 1.0 and domains[2][0] == 0.0
    assert domains[0][0] > domains[1][1] > domains[1][0] > domains[2][1]  # gaps for titles
    assert layout["xaxis"]["anchor"] == "y3" and layout["xaxis"]["tickmode"] == "auto"
    assert layout["yaxis"]["ticktext"] == ["p0", "p1", "p2", "p3", "p4"]
    assert layout["yaxis3"]["ticktext"] == ["v_A", "v_B"]
    titles = [a["text"] for a in layout["annotations"]]
    assert titles == ["G([a_i; β_i]) per premise token", "G([b_j; α_j]) per hypothesis token",
                      "Aggregated v_A and v_B"]  # fmt: skip
    assert "dimension 63<br>value: " in panels[0]["customdata"][4][63]


def test_compare_figure_escapes_tokens_and_keeps_repeats_apart():
    fig, _ = _compare(la=3, premise=["<b>x</b>", "a", "a"])
    ticks = figure_json(fig)["layout"]["yaxis"]["ticktext"]
    assert ticks[0] == "&lt;b&gt;x&lt;/b&gt;"
    assert len(set(ticks)) == 3


def test_compare_figure_keeps_vs_colour_bar_readable_and_bounds_its_height():
    short, _ = _compare(la=2, lb=2)
    long, _ = _compare(la=128, lb=128)
    for fig in (short, long):
        bar = figure_json(fig)["data"][2]["colorbar"]
        plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
        assert bar["len"] * plot_px >= 2 * figures.AGGREGATE_ROW_PX - 1
    assert long.layout.height < 1000  # 258 rows share a bounded height


def test_compare_figure_thins_token_labels_where_rows_are_thin():
    fig, _ = _compare(la=13, lb=100)
    layout = figure_json(fig)["layout"]
    plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    for axis in ("yaxis", "yaxis2"):
        domain, shown = layout[axis]["domain"], len(layout[axis]["ticktext"])
        assert shown * 18 <= (domain[1] - domain[0]) * plot_px + 18, (axis, shown)
    assert layout["yaxis"]["ticktext"][0] == "p0"


def test_a_short_hypothesis_beside_a_long_premise_keeps_readable_rows():
    """A 5,000-character premise (128 pieces) beside a 4-token hypothesis: the hypothesis panel
    keeps rows of ROW_PX, and each colour bar has only the tick labels its length holds."""
    from attnviz.figures.fit import LINE_PITCH
    from attnviz.lessons.nli.figures import ROW_PX, compare_figure

    gen = torch.Generator().manual_seed(0)
    premise = [f"w{i}" for i in range(128)]
    fig = compare_figure(
        torch.rand(128, 6, generator=gen), torch.rand(4, 6, generator=gen),
        torch.rand(2, 6, generator=gen) * 50, premise, ["i", "am", "tired", "."], catalogue(),
    )  # fmt: skip
    plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    low, high = fig.layout.yaxis2.domain
    assert (high - low) * plot_px >= 4 * ROW_PX - 1  # the hypothesis's 4 rows, 22 px each
    for trace in (t for t in fig.data if t.showscale):
        length_px = trace.colorbar.len * plot_px
        assert trace.colorbar.nticks <= max(2, length_px // (2 * LINE_PITCH))


def test_the_confusion_matrix_colours_and_writes_the_same_share_and_names_it():
    """Issue 39: colour and number are one quantity, each gold row's share (a row sums to 1),
    its colour bar titled so; the counts are only in the hover."""
    text = Catalogue("en")
    counts = [[5, 1, 0], [2, 2, 2], [0, 0, 3]]
    trace = figure_json(figures.confusion_figure(counts, "T", text))["data"][0]
    shares = np.array(counts, dtype=float) / np.array(counts).sum(axis=1, keepdims=True)
    z = decode(trace["z"])
    np.testing.assert_allclose(z, shares)
    written = np.array([[float(cell) for cell in row] for row in trace["text"]])
    np.testing.assert_allclose(written, shares, atol=0.005)  # the cells write the colour's value
    assert trace["colorbar"]["title"]["text"] == text("nli.confusion.bar") == "row share"
    assert "pairs: 5" in trace["customdata"][0][0]
