"""The kernel-regression lesson below its title: Nadaraya-Watson regression as attention, its
formula with a worked example, the fit and the weights, and a bandwidth learned two ways.

The bandwidth fits (hundreds of forward and backward passes) are the slow part and are cached
per data set; they do not depend on the kernel or h chosen.
"""

from __future__ import annotations

import streamlit as st
import torch

from attnviz import kernels as kr
from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.plot import plot_row
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.kernels import compute, figures
from attnviz.lessons.kernels.compute import KernelChoice, Regression
from attnviz.parsing import InputError

compute.warm_optimizer()
KERNEL_LABELS = {
    "gaussian": "kernels.kernel.gaussian",
    "boxcar": "kernels.kernel.boxcar",
    "constant": "kernels.kernel.constant",
    "epanechnikov": "kernels.kernel.epanechnikov",
}
KERNEL = controls.choice_control("kernel", "kr_kernel", "gaussian", kr.KERNELS)
# The default h lies near the leave-one-out optimum of the default data.
BANDWIDTH = controls.float_control("h", "kr_bandwidth", 0.25, 0.02, 3.0, step=0.01)
N_TRAIN = controls.int_control("n", "kr_n_train", 50, 2, kr.MAX_TRAIN)
NOISE = controls.float_control("noise", "kr_noise", 0.5, 0.0, 2.0, step=0.05)
SEED = controls.seed_control("seed", "kr_seed")
PROBE = controls.text_control("x", "kr_probe", "2.5")
LINK: tuple[controls.Control, ...] = (KERNEL, BANDWIDTH, N_TRAIN, NOISE, SEED, PROBE)
# Chart keys.
FIG_FIT = "kr_fit"
FIG_WEIGHTS = "kr_weights"
FIG_LEARNED = "kr_learned"
FIG_LOSSES = "kr_losses"


def choose() -> KernelChoice:
    """Sidebar: kernel, bandwidth and the data set."""
    with st.sidebar:
        st.subheader(t("kernels.controls"))
        kernel = controls.select(KERNEL, t("kernels.kernel"), lambda k: t(KERNEL_LABELS[k]))
        bandwidth = controls.slider(
            BANDWIDTH, t("kernels.bandwidth"), help=t("kernels.bandwidth.help")
        )
        n_train = controls.number(N_TRAIN, t("kernels.n_train"))
        noise = controls.slider(NOISE, t("kernels.noise"))
        seed = controls.number(SEED, t("kernels.seed"))
    return KernelChoice(str(kernel), float(bandwidth), int(n_train), float(noise), int(seed))


@cache.results
def data(n_train: int, seed: int, noise: float) -> kr.KernelData:
    """The seeded data set with its test points."""
    return compute.data(n_train, seed, noise)


@cache.results
def regression(choice: KernelChoice) -> Regression:
    """Weights and predictions at the test points for the chosen kernel and h."""
    return compute.regression(choice, data(choice.n_train, choice.seed, choice.noise))


@cache.results
def learned(n_train: int, seed: int, noise: float) -> compute.Learned:
    """Gaussian bandwidths fitted on the training and the leave-one-out loss."""
    return compute.learned(data(n_train, seed, noise))


def _kernel_name(kernel: str) -> str:
    return t(KERNEL_LABELS[kernel]).split("  ")[0]


def show_formula(choice: KernelChoice, d: kr.KernelData) -> tuple[float, float] | None:
    """The formula with the current numbers and a worked example at a typed x.

    Returns (x, f̂(x)) for the fit figure, None when the x does not parse or has no neighbour.
    """
    n = d.x_train.shape[0]
    st.latex(figures.formula_tex(choice.kernel, choice.bandwidth, n))
    if choice.kernel == "gaussian":
        st.markdown(t("kernels.softmax_note"))
        st.latex(figures.softmax_tex(choice.bandwidth))
    low, high = compute.PROBE_RANGE
    help_probe = t("kernels.probe.help", low=f"{low:g}", high=f"{high:g}")
    typed = controls.text_input(PROBE, t("kernels.probe"), help=help_probe)
    try:
        x = compute.parse_probe(typed)
    except InputError as err:
        show_error(err, what=t("kernels.probe"))
        return None
    probe = torch.tensor([x], dtype=d.x_train.dtype)
    weights = kr.kernel_weights(probe, d.x_train, choice.kernel, choice.bandwidth)[0]  # (n,)
    if float(weights.sum()) == 0:
        st.info(t("kernels.example_none", x=f"{x:g}", h=f"{choice.bandwidth:g}"))
        return None
    count = min(figures.EXAMPLE_TERMS, n)
    st.markdown(t("kernels.example", x=f"{x:g}", count=count, n=n))
    st.latex(figures.example_tex(x, weights, d.y_train))
    return x, float(weights @ d.y_train)


def show_fit(
    choice: KernelChoice,
    d: kr.KernelData,
    result: Regression,
    probe: tuple[float, float] | None,
    text: Catalogue,
) -> None:
    """Data, the true f and the prediction beside the (test x train) weight matrix."""
    name = _kernel_name(choice.kernel)
    curve = figures.Curve(
        f"{name}: " + t("kernels.fig.prediction", h=f"{choice.bandwidth:g}"),
        result.y_hat,
        result.has_neighbour,
    )
    fit = figures.fit_figure(
        d.x_train,
        d.y_train,
        d.x_test,
        d.y_true,
        [curve],
        title=t("kernels.fit_title"),
        text=text,
        bandwidth=choice.bandwidth,
        probe=probe,
    )
    title = t("kernels.weights_title", kernel=name, h=f"{choice.bandwidth:g}")
    weights = figures.weights_heatmap(result.weights, d.x_test, d.x_train, title, text)
    plot_row({FIG_FIT: fit, FIG_WEIGHTS: weights})


def show_checks(choice: KernelChoice, result: Regression) -> None:
    """Rows sum to 1 where a neighbour exists; test points without one are counted."""
    sums = result.weights.sum(dim=-1)[result.has_neighbour]  # (<= q,)
    deviation = float((sums - 1).abs().max()) if sums.numel() else 0.0
    st.success(t("kernels.rows_ok", dev=f"{deviation:.1e}"), icon=":material/check:")
    missing = int((~result.has_neighbour).sum())
    if missing:
        st.warning(
            t("kernels.gaps", count=missing, q=compute.N_TEST, h=f"{choice.bandwidth:g}"),
            icon=":material/warning:",
        )


def _learned_metrics(fit: compute.Learned) -> None:
    """Each fitted h with its loss; the sparkline under each is the loss per gradient step."""
    metrics = st.columns(2)
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


def show_learned(choice: KernelChoice, d: kr.KernelData, text: Catalogue) -> None:
    """The bandwidths fitted on the training and leave-one-out losses, side by side."""
    fit = learned(choice.n_train, choice.seed, choice.noise)
    init = f"{compute.FIT_INIT:g}"
    st.markdown(t("kernels.learned_intro", steps=compute.FIT_STEPS, init=init))
    _learned_metrics(fit)
    everywhere = torch.ones(compute.N_TEST, dtype=torch.bool)  # a Gaussian row is never empty
    curves = [
        figures.Curve(
            t("kernels.fig.train_fit", h=f"{fit.h_train:.3g}"),
            fit.y_train_fit,
            everywhere,
            figures.CURVE_COLORS[1],
        ),
        figures.Curve(
            t("kernels.fig.loo_fit", h=f"{fit.h_loo:.3g}"),
            fit.y_loo_fit,
            everywhere,
            figures.CURVE_COLORS[2],
        ),
    ]
    fitted = figures.fit_figure(
        d.x_train,
        d.y_train,
        d.x_test,
        d.y_true,
        curves,
        title=t("kernels.learned_title"),
        text=text,
    )
    losses = figures.loss_figure(
        compute.GRID,
        fit.grid_train,
        fit.grid_loo,
        [(fit.h_train, fit.loss_train), (fit.h_loo, fit.loss_loo)],
        title=t("kernels.loss_title"),
        text=text,
    )
    plot_row({FIG_LEARNED: fitted, FIG_LOSSES: losses})


def show() -> None:
    links.restore_link(LINK, page="kernels")
    choice = choose()
    links.publish_link(LINK)
    try:
        d = data(choice.n_train, choice.seed, choice.noise)
        result = regression(choice)
    except ValueError as err:
        show_error(err)
        return
    text = catalogue()
    note = t(
        "kernels.data_note",
        n=choice.n_train,
        seed=choice.seed,
        noise=f"{choice.noise:g}",
        q=compute.N_TEST,
    )
    st.caption(note)
    with st.expander(t("kernels.formula_heading"), expanded=True):
        probe = show_formula(choice, d)
    show_fit(choice, d, result, probe, text)
    show_checks(choice, result)
    st.subheader(t("kernels.learned_heading"))
    show_learned(choice, d, text)
