"""Widgets, cached results, formulas and figures of the "why sqrt(d)" page."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures_sqrt_d as figs
from attnviz import scaling
from attnviz.formulas import number
from attnviz.i18n import get_language, t
from attnviz.ui import links
from attnviz.ui.base import init_state, plot

# Widget keys (prefix "sq_").
D = "sq_d"
M = "sq_m"
SAMPLES = "sq_samples"
SEED = "sq_seed"
# Chart keys.
HISTOGRAM = "sq_histogram"
VARIANCE = "sq_variance"
SATURATION = "sq_saturation"
GRADIENT = "sq_gradient"

DEFAULT_D = 64
MAX_D = 1024
DEFAULT_M = 16
MAX_M = 256
DEFAULT_SAMPLES = 2000
MAX_SAMPLES = 20_000
QUERIES = 64  # queries averaged over in the saturation and gradient curves
CURVE_DS: tuple[int, ...] = tuple(scaling.powers_of_two(MAX_D))
DEFAULTS: dict[str, int] = {D: DEFAULT_D, M: DEFAULT_M, SAMPLES: DEFAULT_SAMPLES, SEED: 0}
# The page's settings in a link (ui.links): short names, the widgets' bounds.
SQRT_D_LINK: tuple[links.Param, ...] = (
    links.int_param("d", D, DEFAULTS[D], 1, MAX_D),
    links.int_param("m", M, DEFAULTS[M], 2, MAX_M),
    links.int_param("samples", SAMPLES, DEFAULTS[SAMPLES], 100, MAX_SAMPLES),
    links.int_param("seed", SEED, DEFAULTS[SEED], 0, 2**31 - 1),
)


@dataclass(frozen=True)
class Choice:
    """The controls of the page."""

    d: int
    m: int
    samples: int
    seed: int


@dataclass(frozen=True)
class Result:
    """Everything the page draws, computed from one Choice."""

    choice: Choice
    raw: torch.Tensor  # (S,) q·k at the chosen d
    scaled: torch.Tensor  # (S,) q·k / sqrt(d)
    variance: dict[str, torch.Tensor]  # over CURVE_DS
    saturation: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]  # (unscaled, scaled)
    gradient: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]
    saturation_at_d: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]
    gradient_at_d: tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]
    charts: dict[str, go.Figure] = field(default_factory=dict)  # by chart key

    @property
    def raw_var(self) -> float:
        return float(self.raw.var())

    @property
    def scaled_var(self) -> float:
        return float(self.scaled.var())


def controls() -> Choice:
    """d, m, the number of samples and the seed, in one row."""
    # Defaults through the session state, not the widgets: a link may have set them (ui.links).
    for key, value in DEFAULTS.items():
        init_state(key, value)
    cols = st.columns(4)
    d = cols[0].slider(
        t("sqrt_d.d"), 1, MAX_D, key=D, help=t("sqrt_d.d.help"), persist_state="session"
    )
    m = cols[1].slider(
        t("sqrt_d.m"), 2, MAX_M, key=M, help=t("sqrt_d.m.help"), persist_state="session"
    )
    samples = cols[2].number_input(
        t("sqrt_d.samples"),
        100,
        MAX_SAMPLES,
        step=500,
        key=SAMPLES,
        help=t("sqrt_d.samples.help"),
        persist_state="session",
    )
    seed = cols[3].number_input(t("sqrt_d.seed"), 0, 2**31 - 1, key=SEED, persist_state="session")
    return Choice(int(d), int(m), int(samples), int(seed))


@st.cache_data(max_entries=16, show_spinner=False)
def _dot_products(d: int, samples: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    return scaling.dot_products(d, samples, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def _variance(samples: int, seed: int) -> dict[str, torch.Tensor]:
    return scaling.variance_curve(CURVE_DS, samples, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def _softmax_curves(
    ds: tuple[int, ...], m: int, seed: int
) -> tuple[tuple[dict[str, torch.Tensor], ...], tuple[dict[str, torch.Tensor], ...]]:
    """((saturation unscaled, scaled), (gradient unscaled, scaled)) over `ds`."""
    saturation = tuple(scaling.saturation_curve(ds, m, QUERIES, seed, s) for s in (False, True))
    gradient = tuple(scaling.softmax_gradient_curve(ds, m, QUERIES, seed, s) for s in (False, True))
    return saturation, gradient


def _result(choice: Choice) -> Result:
    raw, scaled = _dot_products(choice.d, choice.samples, choice.seed)
    saturation, gradient = _softmax_curves(CURVE_DS, choice.m, choice.seed)
    saturation_at_d, gradient_at_d = _softmax_curves((choice.d,), choice.m, choice.seed)
    return Result(
        choice,
        raw,
        scaled,
        _variance(choice.samples, choice.seed),
        (saturation[0], saturation[1]),
        (gradient[0], gradient[1]),
        (saturation_at_d[0], saturation_at_d[1]),
        (gradient_at_d[0], gradient_at_d[1]),
    )


# Building the four figures costs Plotly about 4x more than unpickling them from the cache.
# The language is an argument only so that each language gets its own figures.
@st.cache_data(max_entries=16, show_spinner=False)
def _charts(d: int, m: int, samples: int, seed: int, lang: str) -> dict[str, go.Figure]:
    r = _result(Choice(d, m, samples, seed))
    return {
        HISTOGRAM: figs.histogram(r.raw, r.scaled, d),
        VARIANCE: figs.variance(r.variance, d, r.raw_var, r.scaled_var),
        SATURATION: figs.saturation(*r.saturation, m, d, r.saturation_at_d),
        GRADIENT: figs.gradient(*r.gradient, d, r.gradient_at_d),
    }


def compute(choice: Choice) -> Result:
    """Every number and chart the page shows (raises InputError on sizes out of range)."""
    charts = _charts(choice.d, choice.m, choice.samples, choice.seed, get_language())
    return replace(_result(choice), charts=charts)


def _text(key: str, **values: object) -> str:
    """Translated words inside a LaTeX formula."""
    return r"\text{" + t(key, **values) + "}"


def show_variance(result: Result) -> None:
    """Why Var(q·k) = d and why dividing by sqrt(d) gives 1, with the measured numbers."""
    d = result.choice.d
    st.markdown(t("sqrt_d.variance.explain"))
    st.latex(
        r"\operatorname{Var}(q\cdot k) = \sum_{i=1}^{d} \operatorname{Var}(q_i k_i)"
        r" = \sum_{i=1}^{d} \mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = d"
        rf" = {d}, \qquad {_text('sqrt_d.tex.measured')}\ {number(result.raw_var)}"
    )
    st.latex(
        r"\operatorname{Var}\!\left(\frac{q\cdot k}{\sqrt{d}}\right)"
        r" = \frac{\operatorname{Var}(q\cdot k)}{d} = \frac{d}{d} = 1,"
        rf" \qquad \sqrt{{{d}}} = {number(math.sqrt(d))},"
        rf" \qquad {_text('sqrt_d.tex.measured')}\ {number(result.scaled_var)}"
    )
    left, right = st.columns(2)
    with left:
        plot(result.charts[HISTOGRAM], HISTOGRAM)
    with right:
        plot(result.charts[VARIANCE], VARIANCE)


def show_saturation(result: Result) -> None:
    """Max weight and entropy against d, with the definitions and the values at the chosen d."""
    d, m = result.choice.d, result.choice.m
    raw, scaled = result.saturation_at_d
    st.markdown(t("sqrt_d.saturation.explain", m=m, queries=QUERIES))
    st.latex(
        r"\alpha_j = \frac{\exp(s_j)}{\sum_{j'=1}^{m} \exp(s_{j'})}, \qquad"
        r" H(\alpha) = -\sum_{j=1}^{m} \alpha_j \log \alpha_j"
        rf" \in [0,\ \log {m} = {number(math.log(m))}]"
    )
    st.latex(
        rf"d = {d}:\quad s_j = q\cdot k_j \;\Rightarrow\;"
        rf" \max_j \alpha_j = {number(float(raw['max_weight'][0]))},\ "
        rf"H = {number(float(raw['entropy'][0]))}"
        r" \qquad s_j = \frac{q\cdot k_j}{\sqrt{d}} \;\Rightarrow\;"
        rf" \max_j \alpha_j = {number(float(scaled['max_weight'][0]))},\ "
        rf"H = {number(float(scaled['entropy'][0]))}"
    )
    plot(result.charts[SATURATION], SATURATION)


def show_gradient(result: Result) -> None:
    """The softmax Jacobian and its norm against d."""
    d = result.choice.d
    raw, scaled = result.gradient_at_d
    st.markdown(t("sqrt_d.gradient.explain"))
    st.latex(
        r"\frac{\partial \alpha_i}{\partial s_j} = \alpha_i(\delta_{ij} - \alpha_j),"
        r" \qquad J = \operatorname{diag}(\alpha) - \alpha\alpha^\top"
        rf" \qquad d = {d}:\ \lVert J \rVert_F = {number(float(raw['jacobian_norm'][0]))}"
        rf"\ {_text('sqrt_d.tex.unscaled')},\ {number(float(scaled['jacobian_norm'][0]))}"
        rf"\ {_text('sqrt_d.tex.scaled')}"
    )
    plot(result.charts[GRADIENT], GRADIENT)
