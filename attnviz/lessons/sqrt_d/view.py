"""The "why sqrt(d)" lesson below its title: q·k and q·k/√d, their variance against d, and how
an unscaled softmax saturates (largest weight, entropy, gradient) as d grows."""

from __future__ import annotations

import math

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import scaling
from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.plot import plot, plot_row
from attnviz.figures.formulas import number
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.sqrt_d import figures
from attnviz.lessons.sqrt_d.compute import (
    CURVE_DS,
    QUERIES,
    SMALL_D,
    Choice,
    Curves,
    Result,
    softmax_curves,
)

# Powers of two, evenly spaced: on a linear slider d = 1 to 16 sat in its first 1.5%. A link's
# other d (?d=100, from before) is read as the nearest power of two, and the page says so.
D = controls.ladder_control("d", "sq_d", 64, CURVE_DS)
M = controls.int_control("m", "sq_m", 16, 2, 256)
SAMPLES = controls.int_control("samples", "sq_samples", 2000, 100, 20_000, step=500)
SEED = controls.seed_control("seed", "sq_seed")
LINK: tuple[controls.Control, ...] = (D, M, SAMPLES, SEED)
# Chart keys.
HISTOGRAM = "sq_histogram"
VARIANCE = "sq_variance"
SATURATION = "sq_saturation"
GRADIENT = "sq_gradient"


def choose() -> Choice:
    """d, m, the number of samples and the seed, in one row."""
    cols = st.columns(4)
    d = controls.ladder(D, t("sqrt_d.d"), where=cols[0], help=t("sqrt_d.d.help"))
    m = controls.slider(M, t("sqrt_d.m"), where=cols[1], help=t("sqrt_d.m.help"))
    samples = controls.number(
        SAMPLES, t("sqrt_d.samples"), where=cols[2], help=t("sqrt_d.samples.help")
    )
    seed = controls.number(SEED, t("sqrt_d.seed"), where=cols[3])
    return Choice(int(d), int(m), int(samples), int(seed))


# Each piece on its own: a new d redraws the histogram without recomputing the curves over d.
@cache.results
def _dot_products(d: int, samples: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    return scaling.dot_products(d, samples, seed)


@cache.results
def _variance(samples: int, seed: int) -> dict[str, torch.Tensor]:
    return scaling.variance_curve(CURVE_DS, samples, seed)


@cache.results
def _softmax_curves(ds: tuple[int, ...], m: int, seed: int) -> tuple[Curves, Curves]:
    return softmax_curves(ds, m, seed)


def result(choice: Choice) -> Result:
    """Every number the page shows (raises InputError on sizes out of range)."""
    raw, scaled = _dot_products(choice.d, choice.samples, choice.seed)
    saturation, gradient = _softmax_curves(CURVE_DS, choice.m, choice.seed)
    saturation_at_d, gradient_at_d = _softmax_curves((choice.d,), choice.m, choice.seed)
    variance = _variance(choice.samples, choice.seed)
    return Result(
        choice, raw, scaled, variance, saturation, gradient, saturation_at_d, gradient_at_d
    )


# Building the four figures costs Plotly about 4x more than keeping them.
@cache.figures
def charts(choice: Choice, text: Catalogue) -> dict[str, go.Figure]:
    """The page's four charts, by chart key."""
    r = result(choice)
    return {
        HISTOGRAM: figures.histogram(r.raw, r.scaled, choice.d, text),
        VARIANCE: figures.variance(r.variance, choice.d, r.raw_var, r.scaled_var, text),
        SATURATION: figures.saturation(*r.saturation, choice.m, choice.d, r.saturation_at_d, text),
        GRADIENT: figures.gradient(*r.gradient, choice.d, r.gradient_at_d, text),
    }


def _text(key: str, **values: object) -> str:
    """Translated words inside a LaTeX formula."""
    return r"\text{" + t(key, **values) + "}"


def show_variance(r: Result, figs: dict[str, go.Figure]) -> None:
    """Why Var(q·k) = d and why dividing by sqrt(d) gives 1, with the measured numbers."""
    d = r.choice.d
    st.markdown(t("sqrt_d.variance.explain"))
    st.latex(
        r"\operatorname{Var}(q\cdot k) = \sum_{i=1}^{d} \operatorname{Var}(q_i k_i)"
        r" = \sum_{i=1}^{d} \mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = d"
        rf" = {d}, \qquad {_text('sqrt_d.tex.measured')}\ {number(r.raw_var)}"
    )
    st.latex(
        r"\operatorname{Var}\!\left(\frac{q\cdot k}{\sqrt{d}}\right)"
        r" = \frac{\operatorname{Var}(q\cdot k)}{d} = \frac{d}{d} = 1,"
        rf" \qquad \sqrt{{{d}}} = {number(math.sqrt(d))},"
        rf" \qquad {_text('sqrt_d.tex.measured')}\ {number(r.scaled_var)}"
    )
    plot_row({key: figs[key] for key in (HISTOGRAM, VARIANCE)})
    if d <= SMALL_D:
        kurtosis = {"theory": f"{6 / d:.3g}", "measured": f"{r.raw_kurtosis:.2f}"}
        st.info(t("sqrt_d.small_d", d=d, **kurtosis), icon=":material/warning:")


def show_saturation(r: Result, figs: dict[str, go.Figure]) -> None:
    """Max weight and entropy against d, with the definitions and the values at the chosen d."""
    d, m = r.choice.d, r.choice.m
    raw, scaled = r.saturation_at_d
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
    plot(figs[SATURATION], SATURATION)


def show_gradient(r: Result, figs: dict[str, go.Figure]) -> None:
    """The softmax Jacobian and its norm against d."""
    d = r.choice.d
    raw, scaled = r.gradient_at_d
    st.markdown(t("sqrt_d.gradient.explain"))
    st.latex(
        r"\frac{\partial \alpha_i}{\partial s_j} = \alpha_i(\delta_{ij} - \alpha_j),"
        r" \qquad J = \operatorname{diag}(\alpha) - \alpha\alpha^\top"
        rf" \qquad d = {d}:\ \lVert J \rVert_F = {number(float(raw['jacobian_norm'][0]))}"
        rf"\ {_text('sqrt_d.tex.unscaled')},\ {number(float(scaled['jacobian_norm'][0]))}"
        rf"\ {_text('sqrt_d.tex.scaled')}"
    )
    plot(figs[GRADIENT], GRADIENT)


def show() -> None:
    links.restore_link(LINK, page="sqrt_d")
    choice = choose()
    links.publish_link(LINK)
    try:
        r = result(choice)
        figs = charts(choice, catalogue())
    except ValueError as err:
        show_error(err)
        return
    st.subheader(t("sqrt_d.variance.heading"))
    show_variance(r, figs)
    st.subheader(t("sqrt_d.saturation.heading"))
    show_saturation(r, figs)
    st.subheader(t("sqrt_d.gradient.heading"))
    show_gradient(r, figs)
