"""The "why sqrt(d)" lesson's four figures through their public builders and their data: the
histograms hold the dot products on one set of bins under the normal densities N(0, d) and
N(0, 1), and each curve holds the numbers it was given, beside its reference lines."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import pytest
import torch
from scipy import stats

from attnviz.lessons.sqrt_d import compute, figures
from tests.english import EN
from tests.plotly_data import decode, figure_json

D, M = 16, 8
DS = (1, 2, 4, 8, 16, 32, 64)


def traces(fig: go.Figure) -> list[dict]:
    """The figure's traces as sent to Plotly, arrays decoded."""
    return [
        {k: decode(v) if k in ("x", "y") else v for k, v in trace.items()}
        for trace in figure_json(fig)["data"]
    ]


def named(fig: go.Figure, name: str) -> list[dict]:
    return [t for t in traces(fig) if t.get("name") == name]


def dot_products(d: int, samples: int) -> tuple[torch.Tensor, torch.Tensor]:
    """q·k of N(0, 1) vectors of size d, written out here, and divided by sqrt(d)."""
    gen = torch.Generator().manual_seed(1)
    q = torch.randn(samples, d, generator=gen, dtype=torch.float64)  # (S, d)
    k = torch.randn(samples, d, generator=gen, dtype=torch.float64)  # (S, d)
    raw = torch.einsum("sd,sd->s", q, k)  # (S,)
    return raw, raw / math.sqrt(d)


@pytest.fixture(scope="module")
def histogram() -> tuple[go.Figure, torch.Tensor, torch.Tensor]:
    raw, scaled = dot_products(D, 1000)
    return figures.histogram(raw, scaled, D, EN), raw, scaled


def test_histograms_hold_the_dot_products_on_one_set_of_bins(histogram):
    fig, raw, scaled = histogram
    bars = [t for t in traces(fig) if t["type"] == "histogram"]
    assert [b["name"] for b in bars] == ["q·k (not scaled)", "q·k / √d (scaled)"]
    np.testing.assert_allclose(bars[0]["x"], raw.numpy(), rtol=1e-12)
    np.testing.assert_allclose(bars[1]["x"], scaled.numpy(), rtol=1e-12)
    assert [(b["xaxis"], b["yaxis"]) for b in bars] == [("x", "y"), ("x2", "y2")]
    assert all(b["histnorm"] == "probability density" for b in bars)
    bins = bars[0]["xbins"]
    assert bars[1]["xbins"] == bins  # the same bins: the scaled scores sit in the middle
    limit = max(float(raw.abs().max()), float(scaled.abs().max()), 3.0)
    assert bins["start"] == pytest.approx(-limit)
    # The last bin starts at the largest |score|, so the sample that reaches it is counted.
    assert bins["end"] - bins["size"] == pytest.approx(limit)
    count = (bins["end"] - bins["start"]) / bins["size"]
    assert count == pytest.approx(round(count)) and round(count) >= 20
    for x in (raw, scaled):
        assert float(x.min()) >= bins["start"] and float(x.max()) < bins["end"]
    layout = fig.layout
    assert layout.xaxis.matches == "x2"  # one x range for both panels
    assert layout.xaxis2.title.text == "score"
    assert layout.title.text == "1000 dot products of N(0, 1) vectors, same bins"


def test_the_dashed_curves_are_the_normal_densities_of_variance_d_and_1(histogram):
    fig, raw, scaled = histogram
    curves = named(fig, "normal density with the theoretical variance")
    assert [(c["xaxis"], c["yaxis"]) for c in curves] == [("x", "y"), ("x2", "y2")]
    limit = max(float(raw.abs().max()), float(scaled.abs().max()), 3.0)
    for curve, variance in zip(curves, (D, 1), strict=True):
        x, y = curve["x"], curve["y"]
        assert x[0] == pytest.approx(-limit) and x[-1] == pytest.approx(limit)
        np.testing.assert_allclose(y, stats.norm.pdf(x, scale=math.sqrt(variance)), rtol=1e-12)
        # A density: it integrates to (nearly) 1 over a range of at least 3 standard deviations.
        assert np.trapezoid(y, x) == pytest.approx(1.0, abs=0.01)
        assert curve["line"]["dash"] == "dash"


def test_each_histogram_panel_is_titled_at_its_top(histogram):
    fig, _, _ = histogram
    titles = {a.text: a.y for a in fig.layout.annotations}
    assert titles == {
        "q·k with d = 16   (dashed: N(0, 16))": fig.layout.yaxis.domain[1],
        "q·k / √16   (dashed: N(0, 1))": fig.layout.yaxis2.domain[1],
    }
    assert fig.layout.yaxis2.domain[1] < fig.layout.yaxis.domain[0]  # panels apart
    assert fig.layout.yaxis.title.text == fig.layout.yaxis2.title.text == "density"


def test_variance_curves_beside_var_d_and_var_1():
    raw_var = torch.tensor([0.9, 2.1, 3.8, 8.3, 15.2, 33.0, 61.0], dtype=torch.float64)
    scaled_var = raw_var / torch.tensor(DS, dtype=torch.float64)
    curve = {"d": torch.tensor(DS, dtype=torch.float64), "raw": raw_var, "scaled": scaled_var}
    fig = figures.variance(curve, 8, 8.3, 1.0375, EN)
    (raw,) = named(fig, "q·k (not scaled)")
    (scaled,) = named(fig, "q·k / √d (scaled)")
    (theory_d,) = named(fig, "theory: Var = d")
    (theory_1,) = named(fig, "theory: Var = 1")
    (current,) = named(fig, "chosen d = 8")
    for trace in (raw, scaled, theory_d, theory_1):
        np.testing.assert_array_equal(trace["x"], DS)
    np.testing.assert_allclose(raw["y"], raw_var.numpy())
    np.testing.assert_allclose(scaled["y"], raw_var.numpy() / np.array(DS))
    np.testing.assert_array_equal(theory_d["y"], DS)
    np.testing.assert_array_equal(theory_1["y"], np.ones(len(DS)))
    np.testing.assert_array_equal(current["x"], [8, 8])
    np.testing.assert_allclose(current["y"], [8.3, 1.0375])
    assert fig.layout.xaxis.type == fig.layout.yaxis.type == "log"
    # A tick at every power of 4: one at every power of 2 would run together.
    assert list(fig.layout.xaxis.tickvals) == [1, 4, 16, 64]
    assert list(fig.layout.xaxis.ticktext) == ["1", "4", "16", "64"]


@pytest.fixture(scope="module")
def softmax_curves() -> tuple:
    over_d = compute.softmax_curves(DS, M, 0)
    at_d = compute.softmax_curves((D,), M, 0)
    return over_d, at_d


def by_hand_softmax(d: int) -> tuple[float, float, float]:
    """Mean largest weight, entropy and Frobenius norm of the Jacobian of softmax(q·k_j) over
    M keys, unscaled, for queries and keys of N(0, 1) entries drawn here: a check that the
    curves the figures draw measure what their axes say."""
    gen = torch.Generator().manual_seed(5)
    q = torch.randn(4000, 1, d, generator=gen, dtype=torch.float64)  # (Q, 1, d)
    k = torch.randn(4000, M, d, generator=gen, dtype=torch.float64)  # (Q, M, d)
    scores = (q * k).sum(-1).requires_grad_()  # (Q, M)
    p = torch.softmax(scores, dim=-1)
    entropy = torch.distributions.Categorical(probs=p.detach()).entropy()
    # Row i of every query's Jacobian by autograd: d p_i / d scores (queries are independent).
    rows = [torch.autograd.grad(p[:, i].sum(), scores, retain_graph=True)[0] for i in range(M)]
    jacobian = torch.stack(rows, dim=1)  # (Q, M, M)
    return (
        float(p.detach().max(-1).values.mean()),
        float(entropy.mean()),
        float(torch.linalg.matrix_norm(jacobian).mean()),
    )


def test_saturation_panels_hold_the_curves_and_the_uniform_softmax(softmax_curves):
    ((raw, scaled), _), ((raw_at, scaled_at), _) = softmax_curves
    fig = figures.saturation(raw, scaled, M, D, (raw_at, scaled_at), EN)
    for name, axis in (("max_weight", ("x", "y")), ("entropy", ("x2", "y2"))):
        panel = [t for t in traces(fig) if (t.get("xaxis"), t.get("yaxis")) == axis]
        by_name = {t["name"]: t for t in panel}
        np.testing.assert_allclose(by_name["q·k (not scaled)"]["y"], raw[name].numpy())
        np.testing.assert_allclose(by_name["q·k / √d (scaled)"]["y"], scaled[name].numpy())
        chosen = [float(raw_at[name][0]), float(scaled_at[name][0])]
        np.testing.assert_allclose(by_name["chosen d = 16"]["y"], chosen)
        np.testing.assert_array_equal(by_name["chosen d = 16"]["x"], [D, D])
    (uniform_weight,) = named(fig, "uniform: 1/m = 1/8")
    (uniform_entropy,) = named(fig, "uniform: log m = log 8")
    np.testing.assert_allclose(uniform_weight["y"], np.full(len(DS), 1 / 8))
    np.testing.assert_allclose(uniform_entropy["y"], np.full(len(DS), math.log(8)))
    # Each axis holds what it draws: weights up to 1, entropies up to log m.
    assert fig.layout.yaxis.range[1] >= 1 and fig.layout.yaxis2.range[1] > math.log(M)
    assert fig.layout.xaxis.domain[1] < fig.layout.xaxis2.domain[0]  # side by side
    legend = [t["name"] for t in traces(fig) if t.get("showlegend", True)]
    assert len(legend) == len(set(legend))  # every entry once, for both panels
    # What the curves measure, against softmax written out for hand-made scores at d = 1 (where
    # scaling changes nothing) and at the largest d (where the unscaled softmax saturates).
    small, large = by_hand_softmax(1), by_hand_softmax(DS[-1])
    assert raw["max_weight"][0] == pytest.approx(small[0], abs=0.03)
    assert raw["entropy"][0] == pytest.approx(small[1], abs=0.06)
    assert raw["max_weight"][-1] == pytest.approx(large[0], abs=0.06)
    assert raw["entropy"][-1] == pytest.approx(large[1], abs=0.15)
    torch.testing.assert_close(raw["max_weight"][0], scaled["max_weight"][0])


def test_gradient_figure_holds_the_jacobian_norms(softmax_curves):
    (_, (raw, scaled)), (_, (raw_at, scaled_at)) = softmax_curves
    fig = figures.gradient(raw, scaled, D, (raw_at, scaled_at), EN)
    (unscaled,) = named(fig, "q·k (not scaled)")
    (with_scaling,) = named(fig, "q·k / √d (scaled)")
    (current,) = named(fig, "chosen d = 16")
    np.testing.assert_array_equal(unscaled["x"], DS)
    np.testing.assert_allclose(unscaled["y"], raw["jacobian_norm"].numpy())
    np.testing.assert_allclose(with_scaling["y"], scaled["jacobian_norm"].numpy())
    chosen = [float(raw_at["jacobian_norm"][0]), float(scaled_at["jacobian_norm"][0])]
    np.testing.assert_allclose(current["y"], chosen)
    assert fig.layout.yaxis.title.text == "mean ‖J‖_F"
    assert fig.layout.title.text == "Size of the softmax gradient against d"
    small, large = by_hand_softmax(1)[2], by_hand_softmax(DS[-1])[2]
    assert raw["jacobian_norm"][0] == pytest.approx(small, abs=0.03)
    assert raw["jacobian_norm"][-1] == pytest.approx(large, abs=0.06)
