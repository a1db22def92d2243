"""The additive attention lesson below its title: sizes and seeds, W_q, W_k and w_v (seeded or
edited), the inputs and their projections, one query's tanh features, and additive beside
scaled dot-product attention of the projected inputs."""

from __future__ import annotations

import functools

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import parsing
from attnviz.app import cache, controls, links
from attnviz.app.feedback import show_error
from attnviz.app.plot import plot
from attnviz.app.selection import store_panel_click
from attnviz.app.state import init_state
from attnviz.figures.labels import default_labels
from attnviz.figures.panels import panel_cells
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.additive import figures
from attnviz.lessons.additive.compute import (
    PARAMS,
    Params,
    Results,
    Sizes,
    compute,
    param_texts,
    parse_param,
    seeded_params,
)

LIMITS = {"n": 16, "m": 16, "d_q": 16, "d_k": 16, "d_v": 16, "h": 32}
DEFAULTS = {"n": 3, "m": 5, "d_q": 2, "d_k": 4, "d_v": 3, "h": 8}
LINK_NAMES = {"n": "n", "m": "m", "d_q": "dq", "d_k": "dk", "d_v": "dv", "h": "h"}
# Literal catalogue keys (tests/test_i18n.py checks each exists).
SIZE_LABELS = {
    "n": "additive.n",
    "m": "additive.m",
    "d_q": "additive.d_q",
    "d_k": "additive.d_k",
    "d_v": "additive.d_v",
    "h": "additive.h",
}
SIZES = {
    name: controls.int_control(LINK_NAMES[name], f"ad_{name}", DEFAULTS[name], 1, LIMITS[name])
    for name in SIZE_LABELS
}
SEED = controls.seed_control("seed", "ad_seed")
PARAM_SEED = controls.seed_control("pseed", "ad_param_seed")
TEXTS = {"W_q": "ad_text_W_q", "W_k": "ad_text_W_k", "w_v": "ad_text_w_v"}
# The (h, d_q, d_k, param_seed) the parameter texts were drawn for: when it changes, the texts
# no longer fit and are drawn anew; while it stays, a person's edits stay.
DRAWN_FOR = "ad_params_drawn_for"
DRAWN = "ad_params_drawn"  # the texts drawn for DRAWN_FOR
# Each parameter's text where it differs from the seeded draw, else "": what a link or a state
# file carries (the draw itself follows from the sizes and the seed).
EDITS = {
    name: controls.text_control(link, f"ad_edit_{name}")
    for name, link in (("W_q", "Wq"), ("W_k", "Wk"), ("w_v", "wv"))
}
EDITS_SEEN = "ad_edits_seen"  # EDITS as the page last wrote them; a change came from outside
REDRAW = "ad_redraw"
QUERY = controls.int_control("q", "ad_query", 0, 0, LIMITS["n"] - 1)
LINK: tuple[controls.Control, ...] = (
    *(SIZES[name] for name in ("n", "m", "d_q", "d_k", "d_v")),
    SEED,
    SIZES["h"],
    PARAM_SEED,
    *EDITS.values(),
    QUERY,
)
# Chart keys: each chart is a figure of panels (`figures.page_figures`, `figures.query_figure`).
INPUTS_CHART, PROJECTIONS_CHART, COMPARE_CHART = "ad_inputs", "ad_projections", "ad_compare"
FEATURES_CHART = "ad_features"


def size_controls() -> Sizes:
    """Sidebar: sizes of Q, K, V, their seed, the hidden size and the parameters' seed."""
    with st.sidebar:
        st.subheader(t("additive.sizes_heading"))
        values = {
            name: int(controls.number(SIZES[name], t(label))) for name, label in SIZE_LABELS.items()
        }
        seed = int(controls.number(SEED, t("additive.seed")))
        param_seed = int(
            controls.number(
                PARAM_SEED, t("additive.param_seed"), help=t("additive.param_seed.help")
            )
        )
    return Sizes(seed=seed, param_seed=param_seed, **values)


def _redraw() -> None:
    st.session_state.pop(DRAWN_FOR, None)


def _fill_texts(sizes: Sizes) -> dict[str, str]:
    """The text areas' contents: a new seeded draw when the sizes or the seed changed, then any
    edits a link or a state file brought since the last run. The draw, for comparison."""
    seen = st.session_state.get(EDITS_SEEN, {})
    incoming = {
        name: str(st.session_state[control.key])
        for name, control in EDITS.items()
        if st.session_state.get(control.key, "") != seen.get(name, "")
    }
    drawn_for = (sizes.h, sizes.d_q, sizes.d_k, sizes.param_seed)
    if st.session_state.get(DRAWN_FOR) != drawn_for or DRAWN not in st.session_state:
        drawn = param_texts(seeded_params(*drawn_for))
        for name in PARAMS:
            st.session_state[TEXTS[name]] = drawn[name]
        st.session_state[DRAWN_FOR] = drawn_for
        st.session_state[DRAWN] = drawn
    drawn = st.session_state[DRAWN]
    for name, text in incoming.items():
        st.session_state[TEXTS[name]] = text or drawn[name]
    return dict(drawn)


def param_editors(sizes: Sizes) -> Params | None:
    """Three text areas prefilled with the seeded W_q, W_k, w_v; None (errors shown) if any
    does not parse or has the wrong shape. What was typed stays."""
    drawn = _fill_texts(sizes)
    labels = {
        "W_q": t("additive.W_q", h=sizes.h, d_q=sizes.d_q),
        "W_k": t("additive.W_k", h=sizes.h, d_k=sizes.d_k),
        "w_v": t("additive.w_v", h=sizes.h),
    }
    params: dict[str, torch.Tensor] = {}
    texts: list[str] = []
    with st.expander(t("additive.params_heading"), expanded=True):
        st.caption(t("additive.params_help", h=sizes.h, d_q=sizes.d_q, d_k=sizes.d_k))
        for column, name in zip(st.columns([2, 3, 2]), PARAMS, strict=True):
            with column:
                text = st.text_area(
                    labels[name], key=TEXTS[name], height=200, persist_state="session"
                )
                texts.append(text or "")
                try:
                    params[name] = parse_param(name, text or "", sizes)
                except parsing.InputError as err:
                    # A shape error names the parameter itself; a parse error needs it in front.
                    show_error(err, what=None if err.key == "additive_shape" else name)
        st.button(t("additive.redraw"), key=REDRAW, on_click=_redraw)
    edits = {
        name: "" if text == drawn[name] else text for name, text in zip(PARAMS, texts, strict=True)
    }
    for name, text in edits.items():
        st.session_state[EDITS[name].key] = text
    st.session_state[EDITS_SEEN] = edits
    return Params(params, tuple(texts)) if len(params) == len(PARAMS) else None


def query_selector(n: int) -> int:
    """Which query's tanh features to show."""
    labels = default_labels("q", n)
    init_state(QUERY.key, QUERY.default)
    index = st.selectbox(
        t("additive.query"),
        range(n),
        key=QUERY.key,
        format_func=lambda i: labels[i],
        persist_state="session",
    )
    return min(int(index or 0), n - 1)


# Building a heatmap costs about as much as unpickling one: the figures are kept as objects,
# under the sizes and parameter texts that fully determine the results.
@cache.figures
def _figures(
    sizes: Sizes, texts: tuple[str, ...], text: Catalogue, _results: Results
) -> dict[str, go.Figure]:
    return figures.page_figures(_results, text)


@cache.figures
def _feature_figure(
    sizes: Sizes, texts: tuple[str, ...], query: int, text: Catalogue, _results: Results
) -> go.Figure:
    return figures.query_figure(_results, query, text)


def show_comparison(results: Results, figs: dict[str, go.Figure]) -> None:
    """Additive (left) and projected scaled dot-product (right): scores, weights, outputs, one
    figure; a click on a cell of any panel shows its query's features."""
    left, right = st.columns(2)
    left.markdown(f"**{t('additive.compare_additive')}**")
    right.markdown(f"**{t('additive.compare_dot')}**")
    compare = figs[COMPARE_CHART]
    cells = panel_cells(compare)
    # Every panel's rows are the queries: a click anywhere picks the query it is in.
    pick = functools.partial(
        store_panel_click, COMPARE_CHART, cells, [(QUERY.key, None)] * len(cells)
    )
    plot(compare, key=COMPARE_CHART, on_select=pick)
    additive, dot = results.additive.weights, results.dot.weights  # (n, m)
    changed = additive.argmax(-1) != dot.argmax(-1)  # (n,)
    queries = ", ".join(f"q{i}" for i in changed.nonzero().flatten().tolist())
    st.caption(
        t(
            "additive.difference",
            diff=f"{float((additive - dot).abs().max()):.3g}",
            queries=queries or t("additive.difference_none"),
        )
        + " "
        + t("additive.compare_click")
    )


def show_results(sizes: Sizes, params: Params, results: Results) -> None:
    """The inputs, their projections, one query's features and the comparison."""
    text = catalogue()
    figs = _figures(sizes, params.texts, text, results)
    st.subheader(t("additive.inputs_heading"))
    st.caption(t("additive.inputs_note", seed=sizes.seed))
    plot(figs[INPUTS_CHART], key=INPUTS_CHART)
    st.subheader(t("additive.projection_heading"))
    st.markdown(t("additive.projection_text", d_q=sizes.d_q, d_k=sizes.d_k, h=sizes.h))
    plot(figs[PROJECTIONS_CHART], key=PROJECTIONS_CHART)
    st.subheader(t("additive.features_heading"))
    st.markdown(t("additive.features_text"))
    query = query_selector(sizes.n)
    plot(_feature_figure(sizes, params.texts, query, text, results), key=FEATURES_CHART)
    for line in figures.query_lines(results, query):
        st.latex(line)
    st.subheader(t("additive.compare_heading"))
    st.markdown(t("additive.compare_text"))
    show_comparison(results, figs)


def show() -> None:
    links.restore_link(LINK, page="additive")
    sizes = size_controls()
    with st.expander(t("additive.formula_heading"), expanded=True):
        for line in figures.formula_lines(sizes, catalogue()):
            st.latex(line)
    params = param_editors(sizes)
    links.publish_link(LINK)
    if params is None:
        return
    try:
        results = compute(sizes, params)
    except ValueError as err:
        show_error(err)
        return
    show_results(sizes, params, results)
    links.share_panel(LINK, key="ad")
