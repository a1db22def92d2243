"""The kernel-regression page: controls, cached results and the sections of the page.

The maths is in attnviz.kernels and the figures in attnviz.figures_kernels; this module turns
widgets into their arguments. The bandwidth fits (hundreds of forward and backward passes) are
the slow part and are cached per data set; they do not depend on the kernel or h chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures_kernels, formulas
from attnviz import kernels as kr
from attnviz.i18n import t
from attnviz.parsing import InputError, parse_matrix
from attnviz.ui import links
from attnviz.ui.base import init_state, plot, show_error

# Widget keys (the page prefix is "kr_").
KERNEL = "kr_kernel"
BANDWIDTH = "kr_bandwidth"
N_TRAIN = "kr_n_train"
NOISE = "kr_noise"
SEED = "kr_seed"
PROBE = "kr_probe"
# Chart keys.
FIG_FIT = "kr_fit"
FIG_WEIGHTS = "kr_weights"
FIG_LEARNED = "kr_learned"
FIG_LOSSES = "kr_losses"

KERNEL_LABELS = {
    "gaussian": "kernels.kernel.gaussian",
    "boxcar": "kernels.kernel.boxcar",
    "constant": "kernels.kernel.constant",
    "epanechnikov": "kernels.kernel.epanechnikov",
}
KERNEL_TEX = {
    "gaussian": r"K(u) = e^{-u^2/2}",
    "boxcar": r"K(u) = \mathbb{1}\left[\,|u| \le 1\,\right]",
    "constant": r"K(u) = 1",
    "epanechnikov": r"K(u) = \max\left(1 - u^2,\ 0\right)",
}
DEFAULTS: dict[str, Any] = {
    KERNEL: "gaussian",
    BANDWIDTH: 0.25,  # near the leave-one-out optimum of the default data
    N_TRAIN: 50,
    NOISE: 0.5,
    SEED: 0,
    PROBE: "2.5",
}
N_TEST = 50
PROBE_RANGE = (-100.0, 100.0)
# The page's settings in a link (ui.links): short names, the widgets' bounds.
KERNELS_LINK: tuple[links.Param, ...] = (
    links.choice_param("kernel", KERNEL, DEFAULTS[KERNEL], kr.KERNELS),
    links.float_param("h", BANDWIDTH, DEFAULTS[BANDWIDTH], 0.02, 3.0),
    links.int_param("n", N_TRAIN, DEFAULTS[N_TRAIN], 2, kr.MAX_TRAIN),
    links.float_param("noise", NOISE, DEFAULTS[NOISE], 0.0, 2.0),
    links.int_param("seed", SEED, DEFAULTS[SEED], 0, 2**31 - 1),
    links.text_param("x", PROBE, DEFAULTS[PROBE]),
)
EXAMPLE_TERMS = 4  # terms of the worked example before \dots
FIT_STEPS = 150
FIT_LR = 0.1
FIT_INIT = 1.0
GRID = torch.logspace(-3, 0.5, 57)  # (b,) bandwidths of the loss-versus-h picture


@dataclass(frozen=True)
class KernelChoice:
    """What the sidebar chose."""

    kernel: str
    bandwidth: float
    n_train: int
    noise: float
    seed: int


@dataclass(frozen=True)
class Regression:
    """Nadaraya-Watson at the test points for one kernel and h."""

    weights: torch.Tensor  # (q, n)
    y_hat: torch.Tensor  # (q,)
    has_neighbour: torch.Tensor  # (q,) bool


@dataclass(frozen=True)
class Learned:
    """The two fitted bandwidths, their losses and predictions, and the losses over GRID."""

    h_train: float
    h_loo: float
    loss_train: float  # training loss at h_train
    loss_loo: float  # leave-one-out loss at h_loo
    history_train: torch.Tensor  # (s,)
    history_loo: torch.Tensor  # (s,)
    y_train_fit: torch.Tensor  # (q,) prediction with h_train
    y_loo_fit: torch.Tensor  # (q,) prediction with h_loo
    grid_train: torch.Tensor  # (b,) training loss over GRID
    grid_loo: torch.Tensor  # (b,) leave-one-out loss over GRID


def controls() -> KernelChoice:
    """Sidebar: kernel, bandwidth and the data set."""
    for key, value in DEFAULTS.items():
        init_state(key, value)
    with st.sidebar:
        st.subheader(t("kernels.controls"))
        kernel = st.selectbox(
            t("kernels.kernel"),
            kr.KERNELS,
            key=KERNEL,
            format_func=lambda k: t(KERNEL_LABELS[k]),
            persist_state="session",
        )
        bandwidth = st.slider(
            t("kernels.bandwidth"),
            0.02,
            3.0,
            step=0.01,
            key=BANDWIDTH,
            help=t("kernels.bandwidth.help"),
            persist_state="session",
        )
        n_train = st.number_input(
            t("kernels.n_train"), 2, kr.MAX_TRAIN, step=1, key=N_TRAIN, persist_state="session"
        )
        noise = st.slider(
            t("kernels.noise"), 0.0, 2.0, step=0.05, key=NOISE, persist_state="session"
        )
        seed = st.number_input(
            t("kernels.seed"), 0, 2**31 - 1, step=1, key=SEED, persist_state="session"
        )
    return KernelChoice(str(kernel), float(bandwidth), int(n_train), float(noise), int(seed))


@st.cache_data(max_entries=16, show_spinner=False)
def data(n_train: int, seed: int, noise: float) -> kr.KernelData:
    """The seeded data set with N_TEST test points."""
    return kr.make_data(n_train, seed, noise, n_test=N_TEST)


@st.cache_data(max_entries=16, show_spinner=False)
def regression(choice: KernelChoice) -> Regression:
    """Weights and predictions at the test points for the chosen kernel and h."""
    d = data(choice.n_train, choice.seed, choice.noise)
    weights = kr.kernel_weights(d.x_test, d.x_train, choice.kernel, choice.bandwidth)  # (q, n)
    y_hat, has_neighbour = kr.predict(
        d.x_test, d.x_train, d.y_train, choice.kernel, choice.bandwidth
    )
    return Regression(weights, y_hat, has_neighbour)


@st.cache_data(max_entries=16, show_spinner=False)
def learned(n_train: int, seed: int, noise: float) -> Learned:
    """Gaussian bandwidths fitted on the training and the leave-one-out loss."""
    d = data(n_train, seed, noise)
    x, y = d.x_train, d.y_train
    fits = {
        loo: kr.fit_bandwidth(
            x, y, "gaussian", leave_one_out=loo, steps=FIT_STEPS, lr=FIT_LR, init=FIT_INIT
        )
        for loo in (False, True)
    }
    (h_train, history_train), (h_loo, history_loo) = fits[False], fits[True]
    return Learned(
        h_train=h_train,
        h_loo=h_loo,
        loss_train=float(kr.loss(x, y, "gaussian", h_train, leave_one_out=False)),
        loss_loo=float(kr.loss(x, y, "gaussian", h_loo, leave_one_out=True)),
        history_train=history_train,
        history_loo=history_loo,
        y_train_fit=kr.predict(d.x_test, x, y, "gaussian", h_train)[0],
        y_loo_fit=kr.predict(d.x_test, x, y, "gaussian", h_loo)[0],
        grid_train=kr.loss_curve(x, y, GRID, "gaussian", leave_one_out=False),
        grid_loo=kr.loss_curve(x, y, GRID, "gaussian", leave_one_out=True),
    )


def parse_probe(text: str) -> float:
    """The x typed for the worked example; InputError names what is wrong."""
    values = parse_matrix(text).reshape(-1)
    if values.numel() != 1:
        raise InputError("kernels_probe_count", count=values.numel())
    x = float(values[0])
    low, high = PROBE_RANGE
    if not low <= x <= high:
        raise InputError("kernels_probe_range", value=f"{x:g}", low=f"{low:g}", high=f"{high:g}")
    return x


def formula_tex(kernel: str, bandwidth: float, n: int) -> str:
    """f(x) and alpha with the current kernel, h and n."""
    h = formulas.number(bandwidth)
    return (
        rf"\hat f(x) = \sum_{{i=1}}^{{{n}}} \alpha(x, x_i)\, y_i, \qquad "
        rf"\alpha(x, x_i) = \frac{{K\left(\frac{{x - x_i}}{{{h}}}\right)}}"
        rf"{{\sum_{{j=1}}^{{{n}}} K\left(\frac{{x - x_j}}{{{h}}}\right)}}, \qquad "
        + KERNEL_TEX[kernel]
    )


def softmax_tex(bandwidth: float) -> str:
    """The Gaussian kernel's weights as softmax attention over -(x - x_i)^2 / (2 h^2)."""
    h = formulas.number(bandwidth)
    return (
        rf"\alpha(x, x_i) = \operatorname{{softmax}}_i\left(-\frac{{(x - x_i)^2}}"
        rf"{{2 \cdot {h}^2}}\right)"
    )


def example_tex(x: float, weights: torch.Tensor, y_train: torch.Tensor) -> str:
    """f̂(x) written out with its EXAMPLE_TERMS largest weights times their targets."""
    order = torch.argsort(weights, descending=True)[:EXAMPLE_TERMS]  # (<= 4,)
    terms = [
        rf"{formulas.number(float(weights[i]))} \cdot {formulas.number(float(y_train[i]))}"
        for i in order
    ]
    if weights.numel() > EXAMPLE_TERMS:
        terms.append(r"\dots")
    value = float(weights @ y_train)
    return rf"\hat f({formulas.number(x)}) = " + " + ".join(terms) + f" = {formulas.number(value)}"


def show_formula(choice: KernelChoice, d: kr.KernelData) -> tuple[float, float] | None:
    """The formula with the current numbers and a worked example at a typed x.

    Returns (x, f̂(x)) for the fit figure, None when the x does not parse or has no neighbour.
    """
    n = d.x_train.shape[0]
    st.latex(formula_tex(choice.kernel, choice.bandwidth, n))
    if choice.kernel == "gaussian":
        st.markdown(t("kernels.softmax_note"))
        st.latex(softmax_tex(choice.bandwidth))
    low, high = PROBE_RANGE
    text = st.text_input(
        t("kernels.probe"),
        key=PROBE,
        help=t("kernels.probe.help", low=f"{low:g}", high=f"{high:g}"),
        persist_state="session",
    )
    try:
        x = parse_probe(text or "")
    except InputError as err:
        show_error(err, what=t("kernels.probe"))
        return None
    probe = torch.tensor([x], dtype=d.x_train.dtype)
    weights = kr.kernel_weights(probe, d.x_train, choice.kernel, choice.bandwidth)[0]  # (n,)
    if float(weights.sum()) == 0:
        st.info(t("kernels.example_none", x=f"{x:g}", h=f"{choice.bandwidth:g}"))
        return None
    st.markdown(t("kernels.example", x=f"{x:g}", count=min(EXAMPLE_TERMS, n), n=n))
    st.latex(example_tex(x, weights, d.y_train))
    return x, float(weights @ d.y_train)


def data_note(choice: KernelChoice) -> str:
    """Where the data come from, with the current numbers."""
    return t(
        "kernels.data_note",
        n=choice.n_train,
        seed=choice.seed,
        noise=f"{choice.noise:g}",
        q=N_TEST,
    )


def fit_figure(
    choice: KernelChoice,
    d: kr.KernelData,
    result: Regression,
    probe: tuple[float, float] | None,
) -> go.Figure:
    """Data, the true f and the prediction for the chosen kernel and h."""
    name = t(KERNEL_LABELS[choice.kernel]).split("  ")[0]
    curve = figures_kernels.Curve(
        f"{name}: " + t("kernels.fig.prediction", h=f"{choice.bandwidth:g}"),
        result.y_hat,
        result.has_neighbour,
    )
    return figures_kernels.fit_figure(
        d.x_train,
        d.y_train,
        d.x_test,
        d.y_true,
        [curve],
        title=t("kernels.fit_title"),
        bandwidth=choice.bandwidth,
        probe=probe,
    )


def weights_figure(choice: KernelChoice, d: kr.KernelData, result: Regression) -> go.Figure:
    """The (test x train) weight matrix."""
    name = t(KERNEL_LABELS[choice.kernel]).split("  ")[0]
    title = t("kernels.weights_title", kernel=name, h=f"{choice.bandwidth:g}")
    return figures_kernels.weights_heatmap(result.weights, d.x_test, d.x_train, title)


def show_checks(choice: KernelChoice, result: Regression) -> None:
    """Rows sum to 1 where a neighbour exists; test points without one are counted."""
    sums = result.weights.sum(dim=-1)[result.has_neighbour]  # (<= q,)
    deviation = float((sums - 1).abs().max()) if sums.numel() else 0.0
    st.success(t("kernels.rows_ok", dev=f"{deviation:.1e}"), icon=":material/check:")
    missing = int((~result.has_neighbour).sum())
    if missing:
        st.warning(
            t("kernels.gaps", count=missing, q=N_TEST, h=f"{choice.bandwidth:g}"),
            icon=":material/warning:",
        )


def show_learned(choice: KernelChoice, d: kr.KernelData) -> None:
    """The bandwidths fitted on the training and leave-one-out losses, side by side."""
    fit = learned(choice.n_train, choice.seed, choice.noise)
    st.markdown(t("kernels.learned_intro", steps=FIT_STEPS, init=f"{FIT_INIT:g}"))
    metrics = st.columns(2)
    # The sparkline under each number is the loss per gradient step.
    for column, label, h, value, history in (
        (metrics[0], t("kernels.metric.train"), fit.h_train, fit.loss_train, fit.history_train),
        (metrics[1], t("kernels.metric.loo"), fit.h_loo, fit.loss_loo, fit.history_loo),
    ):
        column.metric(
            label,
            f"{h:.3g}",
            t("kernels.metric.loss", loss=f"{value:.3g}"),
            delta_color="off",
            delta_arrow="off",
            chart_data=history.tolist(),
            chart_type="line",
        )
    everywhere = torch.ones(N_TEST, dtype=torch.bool)  # a Gaussian row is never empty
    curves = [
        figures_kernels.Curve(
            t("kernels.fig.train_fit", h=f"{fit.h_train:.3g}"),
            fit.y_train_fit,
            everywhere,
            figures_kernels.CURVE_COLORS[1],
        ),
        figures_kernels.Curve(
            t("kernels.fig.loo_fit", h=f"{fit.h_loo:.3g}"),
            fit.y_loo_fit,
            everywhere,
            figures_kernels.CURVE_COLORS[2],
        ),
    ]
    left, right = st.columns(2)
    with left:
        fig = figures_kernels.fit_figure(
            d.x_train, d.y_train, d.x_test, d.y_true, curves, title=t("kernels.learned_title")
        )
        plot(fig, FIG_LEARNED)
    with right:
        plot(
            figures_kernels.loss_figure(
                GRID,
                fit.grid_train,
                fit.grid_loo,
                [(fit.h_train, fit.loss_train), (fit.h_loo, fit.loss_loo)],
                title=t("kernels.loss_title"),
            ),
            FIG_LOSSES,
        )
