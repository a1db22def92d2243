"""The additive attention lesson's figures and formulas: the inputs, their projections, one
query's tanh features, and additive beside scaled dot-product attention. Each step's heatmaps
are one figure of panels (`attnviz.figures.panels`): a change of the sizes or the seed redraws
four charts, not thirteen."""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go

from attnviz.attention import AttentionResult
from attnviz.figures import formulas, marks
from attnviz.figures.heatmap import heatmap
from attnviz.figures.labels import default_labels
from attnviz.figures.matrix import largest
from attnviz.figures.panels import panels
from attnviz.i18n import Catalogue
from attnviz.lessons.additive.compute import Results, Sizes, features


def _matrix(
    matrix: Any,
    title: str,
    rows: str,
    cols: str,
    text: Catalogue,
    across: int,
    bound: float | None = None,
    selectable: bool = False,
) -> go.Figure:
    """An input or intermediate matrix: rows named `rows`0.., columns `cols`0.. ("u" = units),
    set `across` a row, on a colour scale to `bound` when given, its cells clicked when
    `selectable`."""
    r, c = matrix.shape
    units = cols == "u"
    figure = heatmap(
        matrix,
        title=title,
        kind="values",
        text=text,
        row_labels=default_labels(rows, r),
        col_labels=default_labels(cols, c),
        row_name=text("fig.hover.query") if rows == "q" else text("fig.hover.key"),
        col_name=text("additive.fig.unit") if units else text("additive.fig.dims"),
        x_title=text("additive.fig.units") if units else text("additive.fig.dims"),
        y_title=text("fig.queries") if rows == "q" else text("fig.keys"),
        across=across,
        bound=bound,
    )
    return marks.select_cells(figure) if selectable else figure


def _attention(
    result: AttentionResult,
    titles: tuple[str, str, str],
    text: Catalogue,
    bounds: tuple[float, float],
) -> list[go.Figure]:
    """Scores, weights and outputs, two across; scores and outputs on the scales `bounds`; a click
    on a cell reports it (its row is the query)."""
    n, m = result.weights.shape
    hover = {text("fig.hover.score"): result.scores, text("fig.hover.weight"): result.weights}
    common: dict[str, Any] = {
        "text": text,
        "row_labels": default_labels("q", n),
        "col_labels": default_labels("k", m),
        "hover": hover,
        "across": 2,
    }
    return [
        marks.select_cells(
            heatmap(result.scores, title=titles[0], kind="scores", bound=bounds[0], **common)
        ),
        marks.select_cells(heatmap(result.weights, title=titles[1], kind="weights", **common)),
        _matrix(result.output, titles[2], "q", "v", text, 2, bounds[1], selectable=True),
    ]


def result_figures(results: Results, text: Catalogue) -> dict[str, go.Figure]:
    """Every figure that does not depend on the chosen query, by chart key. The additive and the
    dot-product charts set side by side share their colour scales."""
    bounds = (
        max(largest(results.additive.scores), largest(results.dot.scores)),
        max(largest(results.additive.output), largest(results.dot.output)),
    )
    additive = _attention(
        results.additive,
        (text("additive.fig.scores"), text("additive.fig.weights"), text("additive.fig.output")),
        text,
        bounds,
    )
    dot = _attention(
        results.dot,
        (
            text("additive.fig.dot_scores"),
            text("additive.fig.dot_weights"),
            text("additive.fig.dot_output"),
        ),
        text,
        bounds,
    )
    return {
        "ad_q": _matrix(results.queries, text("additive.fig.queries"), "q", "d", text, 3),
        "ad_k": _matrix(results.keys, text("additive.fig.keys"), "k", "d", text, 3),
        "ad_v": _matrix(results.values, text("additive.fig.values"), "k", "v", text, 3),
        "ad_q_proj": _matrix(results.q_proj, text("additive.fig.q_proj"), "q", "u", text, 2),
        "ad_k_proj": _matrix(results.k_proj, text("additive.fig.k_proj"), "k", "u", text, 2),
        **dict(zip(("ad_scores", "ad_weights", "ad_output"), additive, strict=True)),
        **dict(zip(("ad_dot_scores", "ad_dot_weights", "ad_dot_output"), dot, strict=True)),
    }


COMPARED = ("scores", "weights", "output")  # the comparison's rows, additive left, dot right
FEATURE_WIDTHS = (4, 1)  # the features beside the query's one column of scores


def page_figures(results: Results, text: Catalogue) -> dict[str, go.Figure]:
    """The page's charts that do not depend on the chosen query, by chart key, each a figure of
    panels: "ad_inputs" (Q, K, V), "ad_projections" (the projected Q and K) and "ad_compare"
    (additive left, dot product right; scores, weights, outputs down). Panels side by side on
    one colour scale share one colour bar."""
    figs = result_figures(results, text)
    compared = [figs[f"ad{kind}_{name}"] for name in COMPARED for kind in ("", "_dot")]
    return {
        "ad_inputs": panels([figs[key] for key in ("ad_q", "ad_k", "ad_v")]),
        "ad_projections": panels([figs["ad_q_proj"], figs["ad_k_proj"]]),
        "ad_compare": panels(compared, columns=2),
    }


def query_figure(results: Results, query: int, text: Catalogue) -> go.Figure:
    """One query's tanh features beside its scores, one figure of panels."""
    return panels(list(feature_figures(results, query, text).values()), widths=FEATURE_WIDTHS)


def feature_figures(results: Results, query: int, text: Catalogue) -> dict[str, go.Figure]:
    """One query's (m, h) tanh features and its m scores, by chart key."""
    label = f"q{query}"
    feats = features(results.q_proj, results.k_proj, query)  # (m, h)
    m, h = feats.shape
    keys = default_labels("k", m)
    scores = results.additive.scores[query][:, None]  # (m, 1)
    return {
        "ad_features": heatmap(
            feats,
            title=text("additive.fig.features", query=label),
            kind="values",
            text=text,
            row_labels=keys,
            col_labels=default_labels("u", h),
            row_name=text("fig.hover.key"),
            col_name=text("additive.fig.unit"),
            x_title=text("additive.fig.units"),
            y_title=text("fig.keys"),
            hover={text("additive.fig.feature"): feats},
            across=1.25,  # four fifths of the row
        ),
        "ad_query_scores": heatmap(
            scores,
            title=text("additive.fig.query_scores", query=label),
            kind="scores",
            text=text,
            row_labels=keys,
            col_labels=[label],
            row_name=text("fig.hover.key"),
            col_name=text("fig.hover.query"),
            x_title=" ",
            y_title=text("fig.keys"),
            hover={text("additive.fig.score"): scores},
            showscale=False,  # a one-column figure: the numbers are in its cells
            across=5,
        ),
    }


def _real(*shape: int) -> str:
    return r"\mathbb{R}^{" + r" \times ".join(str(s) for s in shape) + "}"


def formula_lines(sizes: Sizes, text: Catalogue) -> list[str]:
    """The scoring function, the parameter sizes and the comparison, with the current sizes."""
    return [
        r"a(q, k) = w_v^\top \tanh(W_q\, q + W_k\, k) \in \mathbb{R},\qquad "
        rf"q \in {_real(sizes.d_q)},\ k \in {_real(sizes.d_k)}",
        rf"W_q \in {_real(sizes.h, sizes.d_q)},\quad W_k \in {_real(sizes.h, sizes.d_k)},\quad "
        rf"w_v \in {_real(sizes.h)},\qquad h = {sizes.h}",
        rf"Q \in {_real(sizes.n, sizes.d_q)},\ K \in {_real(sizes.m, sizes.d_k)},\ "
        rf"V \in {_real(sizes.m, sizes.d_v)}\ \Rightarrow\ "
        rf"S, A \in {_real(sizes.n, sizes.m)},\ O = A V \in {_real(sizes.n, sizes.d_v)}",
        r"\text{" + text("additive.compare_dot") + r"}:\quad "
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
