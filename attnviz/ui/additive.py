"""Widgets and views of the additive attention page (Bahdanau et al. 2015; d2l 11.3; PML1 15.4).

Shape letters: n queries of size d_q (the paper's q), m keys of size d_k (k), values of size
d_v, hidden size h. Scores, weights and outputs come from `attend`; the projections and one
query's tanh features are the one-liners below.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures, formulas, parsing
from attnviz.attention import AttentionResult, attend
from attnviz.i18n import get_language, t
from attnviz.ui import links
from attnviz.ui.base import init_state, plot, show_error
from attnviz.ui.qkv import random_inputs

# Widget and session-state keys.
SIZES = {
    "n": "ad_n",
    "m": "ad_m",
    "d_q": "ad_d_q",
    "d_k": "ad_d_k",
    "d_v": "ad_d_v",
    "seed": "ad_seed",
    "h": "ad_h",
    "param_seed": "ad_param_seed",
}
DEFAULTS = {"n": 3, "m": 5, "d_q": 2, "d_k": 4, "d_v": 3, "seed": 0, "h": 8, "param_seed": 0}
LIMITS = {"n": 16, "m": 16, "d_q": 16, "d_k": 16, "d_v": 16, "h": 32}
# Literal catalogue keys (tests/test_i18n.py checks each exists).
SIZE_LABELS = {
    "n": "additive.n",
    "m": "additive.m",
    "d_q": "additive.d_q",
    "d_k": "additive.d_k",
    "d_v": "additive.d_v",
    "h": "additive.h",
}
PARAMS = ("W_q", "W_k", "w_v")
TEXTS = {"W_q": "ad_text_W_q", "W_k": "ad_text_W_k", "w_v": "ad_text_w_v"}
# The (h, d_q, d_k, param_seed) the parameter texts were drawn for: when it changes, the texts
# no longer fit and are drawn anew; while it stays, a person's edits stay.
DRAWN_FOR = "ad_params_drawn_for"
DRAWN = "ad_params_drawn"  # the texts drawn for DRAWN_FOR
# Each parameter's text where it differs from the seeded draw, else "": what a link or a state
# file carries (the draw itself follows from the sizes and the seed).
EDITS = {"W_q": "ad_edit_W_q", "W_k": "ad_edit_W_k", "w_v": "ad_edit_w_v"}
EDITS_SEEN = "ad_edits_seen"  # EDITS as the page last wrote them; a change came from outside
REDRAW = "ad_redraw"
QUERY = "ad_query"
# The page's settings in a link (ui.links): short names, the widgets' bounds.
ADDITIVE_LINK: tuple[links.Param, ...] = (
    links.int_param("n", SIZES["n"], DEFAULTS["n"], 1, LIMITS["n"]),
    links.int_param("m", SIZES["m"], DEFAULTS["m"], 1, LIMITS["m"]),
    links.int_param("dq", SIZES["d_q"], DEFAULTS["d_q"], 1, LIMITS["d_q"]),
    links.int_param("dk", SIZES["d_k"], DEFAULTS["d_k"], 1, LIMITS["d_k"]),
    links.int_param("dv", SIZES["d_v"], DEFAULTS["d_v"], 1, LIMITS["d_v"]),
    links.int_param("seed", SIZES["seed"], DEFAULTS["seed"], 0, 2**31 - 1),
    links.int_param("h", SIZES["h"], DEFAULTS["h"], 1, LIMITS["h"]),
    links.int_param("pseed", SIZES["param_seed"], DEFAULTS["param_seed"], 0, 2**31 - 1),
    links.text_param("Wq", EDITS["W_q"]),
    links.text_param("Wk", EDITS["W_k"]),
    links.text_param("wv", EDITS["w_v"]),
    links.int_param("q", QUERY, 0, 0, LIMITS["n"] - 1),
)


@dataclass(frozen=True)
class Sizes:
    """The sizes and seeds chosen in the sidebar."""

    n: int
    m: int
    d_q: int
    d_k: int
    d_v: int
    seed: int
    h: int
    param_seed: int


@dataclass(frozen=True)
class Params:
    """W_q (h, d_q), W_k (h, d_k), w_v (h,) and the texts they were parsed from."""

    tensors: dict[str, torch.Tensor]
    texts: tuple[str, ...]


@dataclass(frozen=True)
class Results:
    """Both scoring functions on the same inputs, and the intermediate steps."""

    sizes: Sizes
    key: tuple[Any, ...]  # (sizes, parameter texts): everything the results depend on
    queries: torch.Tensor  # (n, d_q)
    keys: torch.Tensor  # (m, d_k)
    values: torch.Tensor  # (m, d_v)
    q_proj: torch.Tensor  # (n, h)
    k_proj: torch.Tensor  # (m, h)
    additive: AttentionResult  # scores / weights (n, m), output (n, d_v)
    dot: AttentionResult  # scaled dot-product of q_proj and k_proj


def project(x: torch.Tensor, W: torch.Tensor) -> torch.Tensor:
    """Rows of x (r, d) mapped by W (h, d) to (r, h), as W x per row."""
    return x @ W.T  # (r, h)


def features(q_proj: torch.Tensor, k_proj: torch.Tensor, query: int) -> torch.Tensor:
    """tanh(W_q q_i + W_k k_j) for every key j: (m, h)."""
    return torch.tanh(q_proj[query] + k_proj)  # (m, h)


def seeded_params(h: int, d_q: int, d_k: int, seed: int) -> dict[str, torch.Tensor]:
    """The W_q (h, d_q), W_k (h, d_k), w_v (h,) that `attend` draws for this seed."""
    # attend is the one place parameters are drawn; its draw depends on the sizes only.
    used = attend(
        torch.zeros(1, d_q),
        torch.zeros(1, d_k),
        torch.zeros(1, 1),
        score="additive",
        params={"h": h, "seed": seed},
    ).params
    return {name: used[name] for name in PARAMS}


def param_texts(params: dict[str, torch.Tensor]) -> dict[str, str]:
    """Text-area contents that parse back to exactly these float32 values (w_v as one row)."""
    return {
        "W_q": parsing.format_matrix(params["W_q"]),
        "W_k": parsing.format_matrix(params["W_k"]),
        "w_v": parsing.format_matrix(params["w_v"][None, :]),
    }


def _shape_text(shape: tuple[int, ...]) -> str:
    return " × ".join(str(s) for s in shape)


def parse_param(name: str, text: str, sizes: Sizes) -> torch.Tensor:
    """One parameter from its text; InputError naming expected and found shape if it misfits."""
    matrix = parsing.parse_matrix(text)
    if name == "w_v":
        # A row or a column of h numbers both read as the vector w_v.
        if 1 in matrix.shape and matrix.numel() == sizes.h:
            return matrix.reshape(-1)  # (h,)
        expected = f"1 × {sizes.h} (h = {sizes.h} numbers)"
    else:
        d = sizes.d_q if name == "W_q" else sizes.d_k
        letter = "q" if name == "W_q" else "k"
        if tuple(matrix.shape) == (sizes.h, d):
            return matrix  # (h, d)
        expected = f"h × {letter} = {sizes.h} × {d}"
    raise parsing.InputError(
        "additive_shape", name=name, found=_shape_text(tuple(matrix.shape)), expected=expected
    )


def compute(sizes: Sizes, params: Params) -> Results:
    """Additive attention and, for comparison, scaled dot-product of the projected inputs."""
    queries, keys, values = random_inputs(
        sizes.n, sizes.m, sizes.d_q, sizes.d_k, sizes.d_v, sizes.seed
    )  # (n, d_q), (m, d_k), (m, d_v)
    additive = attend(queries, keys, values, score="additive", params=params.tensors)
    q_proj = project(queries, additive.params["W_q"])  # (n, h)
    k_proj = project(keys, additive.params["W_k"])  # (m, h)
    # tanh saturates, so additive scores survive huge parameters; the comparison would not.
    if not (torch.isfinite(q_proj).all() and torch.isfinite(k_proj).all()):
        raise parsing.InputError("additive_overflow")
    dot = attend(q_proj, k_proj, values, score="scaled_dot")
    key = (sizes, params.texts)
    return Results(sizes, key, queries, keys, values, q_proj, k_proj, additive, dot)


# --- LaTeX ---


def _real(*shape: int) -> str:
    return r"\mathbb{R}^{" + r" \times ".join(str(s) for s in shape) + "}"


def formula_lines(sizes: Sizes) -> list[str]:
    """The scoring function, the parameter sizes and the comparison, with the current sizes."""
    return [
        r"a(q, k) = w_v^\top \tanh(W_q\, q + W_k\, k) \in \mathbb{R},\qquad "
        rf"q \in {_real(sizes.d_q)},\ k \in {_real(sizes.d_k)}",
        rf"W_q \in {_real(sizes.h, sizes.d_q)},\quad W_k \in {_real(sizes.h, sizes.d_k)},\quad "
        rf"w_v \in {_real(sizes.h)},\qquad h = {sizes.h}",
        rf"Q \in {_real(sizes.n, sizes.d_q)},\ K \in {_real(sizes.m, sizes.d_k)},\ "
        rf"V \in {_real(sizes.m, sizes.d_v)}\ \Rightarrow\ "
        rf"S, A \in {_real(sizes.n, sizes.m)},\ O = A V \in {_real(sizes.n, sizes.d_v)}",
        r"\text{" + t("additive.compare_dot") + r"}:\quad "
        r"s^{\mathrm{dot}}_{ij} = \frac{(W_q q_i)^\top (W_k k_j)}{\sqrt{h}},\quad "
        rf"\sqrt{{h}} = {formulas.number(math.sqrt(sizes.h))}",
    ]


def query_lines(results: Results, query: int) -> list[str]:
    """Query `query`'s scores as w_v^T f_ij, then its weights and output."""
    result = results.additive
    w_v = result.params["w_v"].tolist()
    return [
        rf"w_v = {formulas.vector(w_v)}",
        rf"s_{{{query}j}} = w_v^\top \tanh(W_q q_{{{query}}} + W_k k_j)",
        *formulas.query_numbers(
            query,
            result.scores[query].tolist(),
            result.weights[query].tolist(),
            result.output[query].tolist(),
        ),
    ]


# --- widgets ---


def _number(name: str, label: str, help_text: str | None = None) -> int:
    init_state(SIZES[name], DEFAULTS[name])
    return int(
        st.number_input(
            label,
            min_value=0 if name in ("seed", "param_seed") else 1,
            max_value=LIMITS.get(name, 2**31 - 1),
            step=1,
            key=SIZES[name],
            help=help_text,
            persist_state="session",
        )
    )


def size_controls() -> Sizes:
    """Sidebar: sizes of Q, K, V, their seed, the hidden size and the parameters' seed."""
    with st.sidebar:
        st.subheader(t("additive.sizes_heading"))
        values = {name: _number(name, t(label)) for name, label in SIZE_LABELS.items()}
        seed = _number("seed", t("additive.seed"))
        param_seed = _number("param_seed", t("additive.param_seed"), t("additive.param_seed.help"))
    return Sizes(seed=seed, param_seed=param_seed, **values)


def _redraw() -> None:
    st.session_state.pop(DRAWN_FOR, None)


def param_editors(sizes: Sizes) -> Params | None:
    """Three text areas prefilled with the seeded W_q, W_k, w_v; None (errors shown) if any
    does not parse or has the wrong shape. What was typed stays."""
    # Edits set by a link or a state file since the last run (ui.links) go over the draw.
    seen = st.session_state.get(EDITS_SEEN, {})
    incoming = {
        name: str(st.session_state[EDITS[name]])
        for name in PARAMS
        if st.session_state.get(EDITS[name], "") != seen.get(name, "")
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
        st.session_state[EDITS[name]] = text
    st.session_state[EDITS_SEEN] = edits
    return Params(params, tuple(texts)) if len(params) == len(PARAMS) else None


def query_selector(n: int) -> int:
    """Which query's tanh features to show."""
    labels = figures.default_labels("q", n)
    index = st.selectbox(
        t("additive.query"),
        range(n),
        key=QUERY,
        format_func=lambda i: labels[i],
        persist_state="session",
    )
    return min(int(index or 0), n - 1)


# --- views ---
# Building a heatmap costs about as much as unpickling one, so st.cache_data would save
# nothing: the figures are kept as objects instead (never mutated after they are built), under
# the language and the inputs that fully determine them.


def _matrix(matrix: torch.Tensor, title: str, rows: str, cols: str) -> go.Figure:
    """An input or intermediate matrix: rows named `rows`0.., columns `cols`0.. ("u" = units)."""
    r, c = matrix.shape
    units = cols == "u"
    return figures.heatmap(
        matrix,
        title=title,
        kind="values",
        row_labels=figures.default_labels(rows, r),
        col_labels=figures.default_labels(cols, c),
        row_name=t("fig.hover.query") if rows == "q" else t("fig.hover.key"),
        col_name=t("additive.fig.unit") if units else t("additive.fig.dims"),
        x_title=t("additive.fig.units") if units else t("additive.fig.dims"),
        y_title=t("fig.queries") if rows == "q" else t("fig.keys"),
    )


def _attention_figs(result: AttentionResult, titles: tuple[str, str, str]) -> list[go.Figure]:
    n, m = result.weights.shape
    hover = {t("fig.hover.score"): result.scores, t("fig.hover.weight"): result.weights}
    common: dict[str, Any] = {
        "row_labels": figures.default_labels("q", n),
        "col_labels": figures.default_labels("k", m),
        "hover": hover,
    }
    return [
        figures.heatmap(result.scores, title=titles[0], kind="scores", **common),
        figures.heatmap(result.weights, title=titles[1], kind="weights", **common),
        _matrix(result.output, titles[2], "q", "v"),
    ]


@st.cache_resource(max_entries=16, show_spinner=False)
def result_figures(lang: str, key: tuple[Any, ...], _results: Results) -> dict[str, go.Figure]:
    """Every figure that does not depend on the chosen query, by widget key."""
    additive = _attention_figs(
        _results.additive,
        (t("additive.fig.scores"), t("additive.fig.weights"), t("additive.fig.output")),
    )
    dot = _attention_figs(
        _results.dot,
        (t("additive.fig.dot_scores"), t("additive.fig.dot_weights"), t("additive.fig.dot_output")),
    )
    return {
        "ad_q": _matrix(_results.queries, t("additive.fig.queries"), "q", "d"),
        "ad_k": _matrix(_results.keys, t("additive.fig.keys"), "k", "d"),
        "ad_v": _matrix(_results.values, t("additive.fig.values"), "k", "v"),
        "ad_q_proj": _matrix(_results.q_proj, t("additive.fig.q_proj"), "q", "u"),
        "ad_k_proj": _matrix(_results.k_proj, t("additive.fig.k_proj"), "k", "u"),
        **dict(zip(("ad_scores", "ad_weights", "ad_output"), additive, strict=True)),
        **dict(zip(("ad_dot_scores", "ad_dot_weights", "ad_dot_output"), dot, strict=True)),
    }


@st.cache_resource(max_entries=16, show_spinner=False)
def feature_figures(
    lang: str, key: tuple[Any, ...], query: int, _results: Results
) -> dict[str, go.Figure]:
    """One query's (m, h) tanh features and its m scores, by widget key."""
    label = f"q{query}"
    feats = features(_results.q_proj, _results.k_proj, query)  # (m, h)
    m, h = feats.shape
    keys = figures.default_labels("k", m)
    scores = _results.additive.scores[query][:, None]  # (m, 1)
    return {
        "ad_features": figures.heatmap(
            feats,
            title=t("additive.fig.features", query=label),
            kind="values",
            row_labels=keys,
            col_labels=figures.default_labels("u", h),
            row_name=t("fig.hover.key"),
            col_name=t("additive.fig.unit"),
            x_title=t("additive.fig.units"),
            y_title=t("fig.keys"),
            hover={t("additive.fig.feature"): feats},
        ),
        "ad_query_scores": figures.heatmap(
            scores,
            title=t("additive.fig.query_scores", query=label),
            kind="scores",
            row_labels=keys,
            col_labels=[label],
            row_name=t("fig.hover.key"),
            col_name=t("fig.hover.query"),
            x_title=" ",
            y_title=t("fig.keys"),
            hover={t("additive.fig.score"): scores},
        ).update_traces(showscale=False),  # a one-column figure: the numbers are in its cells
    }


def _plot_row(figs: dict[str, go.Figure], names: tuple[str, ...], widths: list[int]) -> None:
    for column, name in zip(st.columns(widths), names, strict=True):
        with column:
            plot(figs[name], key=name)


def show_inputs(results: Results) -> None:
    """Q, K and V side by side."""
    st.caption(t("additive.inputs_note", seed=results.sizes.seed))
    figs = result_figures(get_language(), results.key, results)
    _plot_row(figs, ("ad_q", "ad_k", "ad_v"), [1, 1, 1])


def show_projections(results: Results) -> None:
    """W_q q_i (n, h) and W_k k_j (m, h) side by side."""
    figs = result_figures(get_language(), results.key, results)
    _plot_row(figs, ("ad_q_proj", "ad_k_proj"), [1, 1])


def show_features(results: Results, query: int) -> None:
    """One query's tanh features beside its scores, and the formulas with its numbers."""
    figs = feature_figures(get_language(), results.key, query, results)
    _plot_row(figs, ("ad_features", "ad_query_scores"), [4, 1])
    for line in query_lines(results, query):
        st.latex(line)


def show_comparison(results: Results) -> None:
    """Additive (left) and projected scaled dot-product (right): scores, weights, outputs."""
    figs = result_figures(get_language(), results.key, results)
    left, right = st.columns(2)
    left.markdown(f"**{t('additive.compare_additive')}**")
    right.markdown(f"**{t('additive.compare_dot')}**")
    for name in ("scores", "weights", "output"):
        _plot_row(figs, (f"ad_{name}", f"ad_dot_{name}"), [1, 1])
    additive, dot = results.additive.weights, results.dot.weights  # (n, m)
    changed = additive.argmax(-1) != dot.argmax(-1)  # (n,)
    queries = ", ".join(f"q{i}" for i in changed.nonzero().flatten().tolist())
    st.caption(
        t(
            "additive.difference",
            diff=f"{float((additive - dot).abs().max()):.3g}",
            queries=queries or t("additive.difference_none"),
        )
    )
