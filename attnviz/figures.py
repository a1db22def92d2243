"""Plotly figure builders: arrays and labels in, `go.Figure` out; nothing here draws on screen.

Heatmaps read like matrices (row 0 at the top, as in d2l's `show_heatmaps`): positions are
integers and labels are tick text, so repeated tokens never merge into one row. Every label
that may come from a person is escaped before it reaches Plotly's pseudo-HTML.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import plotly.graph_objects as go
import torch
import torch.nn.functional as F
from plotly.subplots import make_subplots

from attnviz.i18n import t

Kind = Literal["scores", "weights", "values"]

# Colour-blind-safe scales that survive a projector: ColorBrewer's diverging RdBu / PuOr
# centred at 0, and viridis for weights on a fixed 0..1 range.
COLORSCALES: dict[str, str] = {"scores": "RdBu_r", "weights": "Viridis", "values": "PuOr_r"}
MASKED_COLOR = "#bdbdbd"
NUMBERS_LIMIT = 12  # numbers drawn in the cells up to this many rows and columns
# Above this many cells, hover shows positions and the value only: per-cell hover text costs
# about 80 bytes a cell in the page (measured: 20 MB for three 256 x 256 heatmaps).
HOVER_CELL_LIMIT = 128 * 128
FONT_SIZE = 15
THUMBNAIL_CELLS = 48  # a side of a model-view thumbnail, beyond which it is pooled
MASK_MARK = "×"


def escape_label(text: object) -> str:
    """`text` safe for Plotly labels and hover: HTML escaped, and no `%{...}` template syntax."""
    escaped = html.escape(str(text), quote=True)
    return escaped.replace("%{", "%&#123;").replace("}", "&#125;")


def unique_labels(labels: Sequence[object]) -> list[str]:
    """Labels with repeats numbered ("the", "the (2)"), so hover text tells them apart."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        text = str(label)
        seen[text] = seen.get(text, 0) + 1
        out.append(text if seen[text] == 1 else f"{text} ({seen[text]})")
    return out


def default_labels(prefix: str, count: int) -> list[str]:
    """q0, q1, ... for a matrix without token labels."""
    return [f"{prefix}{i}" for i in range(count)]


def _as_array(matrix: object) -> np.ndarray:
    array = np.asarray(matrix.detach().cpu() if hasattr(matrix, "detach") else matrix)
    if array.ndim != 2:
        raise ValueError(f"a heatmap needs a 2-D matrix, got shape {array.shape}")
    return array.astype(np.float64)


def _number(value: float, digits: int = 4) -> str:
    if np.isneginf(value):
        return "-inf"
    return f"{value:.{digits}g}"


def _cell_number(value: float) -> str:
    # Two significant digits fit a cell of a three-across layout; hover has four.
    return _number(value, digits=2)


def _cell_weight(value: float) -> str:
    # Weights lie in [0, 1]: ".16" reads at a glance where "0.16" or "4.1e-15" crowd a cell.
    if value >= 0.995:
        return "1"
    if value < 0.005:
        return "0"
    return f"{value:.2f}".removeprefix("0")


def _heatmap_trace(
    z: np.ndarray,
    *,
    kind: Kind,
    row_labels: list[str],
    col_labels: list[str],
    row_name: str,
    col_name: str,
    mask: np.ndarray | None,
    hover: Mapping[str, np.ndarray],
    show_numbers: bool,
    showscale: bool = True,
) -> go.Heatmap:
    n, m = z.shape
    shown = z.copy()
    if mask is not None:
        shown[~mask] = np.nan  # a gap, not a colour
    if kind == "weights":
        ranges: dict[str, float] = {"zmin": 0.0, "zmax": 1.0}
    else:
        finite = shown[np.isfinite(shown)]
        bound = float(np.abs(finite).max()) if finite.size else 1.0
        ranges = {"zmid": 0.0, "zmin": -bound or -1.0, "zmax": bound or 1.0}
    trace = go.Heatmap(
        # float32 halves what the browser receives; the hover text keeps the full numbers.
        z=shown.astype(np.float32) if n * m > HOVER_CELL_LIMIT else shown,
        x=np.arange(m),
        y=np.arange(n),
        colorscale=COLORSCALES[kind],
        showscale=showscale,
        hoverongaps=True,
        xgap=1 if max(n, m) <= 32 else 0,
        ygap=1 if max(n, m) <= 32 else 0,
        **ranges,
    )
    if n * m <= HOVER_CELL_LIMIT:
        rows = np.array([escape_label(r) for r in row_labels], dtype=object)[:, None]
        cols = np.array([escape_label(c) for c in col_labels], dtype=object)[None, :]
        text = f"{escape_label(row_name)} " + rows + f"<br>{escape_label(col_name)} " + cols
        for name, values in hover.items():
            formatted = np.vectorize(_number, otypes=[object])(values)
            text = text + f"<br>{escape_label(name)}: " + formatted
        if mask is not None:
            text = np.where(mask, text, text + f"<br><b>{escape_label(t('fig.masked'))}</b>")
        trace.customdata = text
        trace.hovertemplate = "%{customdata}<extra></extra>"
    else:
        trace.hovertemplate = (
            f"{escape_label(row_name)} %{{y}}<br>{escape_label(col_name)} %{{x}}"
            "<br>%{z:.4g}<extra></extra>"
        )
    if show_numbers:
        cell = _cell_weight if kind == "weights" else _cell_number
        numbers = np.vectorize(cell, otypes=[object])(z)
        if mask is not None:
            numbers = np.where(mask, numbers, "")
        trace.text = numbers
        trace.texttemplate = "%{text}"
        trace.textfont = {"size": FONT_SIZE - 1}
    return trace


def _masked_markers(mask: np.ndarray) -> go.Scatter:
    """A × at each masked cell, so a gap reads as "masked" and not as missing data."""
    rows, cols = np.nonzero(~mask)
    return go.Scatter(
        x=cols,
        y=rows,
        mode="text",
        text=[MASK_MARK] * len(rows),
        textfont={"size": FONT_SIZE if max(mask.shape) <= NUMBERS_LIMIT else FONT_SIZE - 5},
        hoverinfo="skip",
        showlegend=False,
    )


def _axis_ticks(labels: list[str]) -> dict[str, object]:
    count = len(labels)
    if count > 64:  # let Plotly thin the ticks; hover still names every cell
        return {"automargin": True, "tickmode": "auto", "nticks": 16}
    return {
        "automargin": True,
        "tickmode": "array",
        "tickvals": list(range(count)),
        "ticktext": [escape_label(label) for label in labels],
    }


def style(
    fig: go.Figure, title: str, height: int, top: int = 50, background: str = MASKED_COLOR
) -> go.Figure:
    """The look every attnviz chart shares: title top left, projector-sized fonts, auto margins.

    `background` shows through heatmap gaps (masked cells); curves and bars use white.
    """
    fig.update_layout(
        title={
            "text": escape_label(title),
            "font": {"size": FONT_SIZE + 3},
            "x": 0.0,
            "xanchor": "left",
            "yref": "container",
            "y": 1.0,
            "yanchor": "top",
            "pad": {"t": 8},
            "automargin": True,
        },
        font={"size": FONT_SIZE},
        height=height,
        margin={"l": 10, "r": 10, "t": top, "b": 10},
        plot_bgcolor=background,
        paper_bgcolor="white",
        hoverlabel={"font": {"size": FONT_SIZE}},
    )
    fig.update_xaxes(automargin=True)
    fig.update_yaxes(automargin=True)
    return fig


def heatmap(
    matrix: object,
    *,
    title: str,
    kind: Kind,
    row_labels: Sequence[object] | None = None,
    col_labels: Sequence[object] | None = None,
    row_name: str | None = None,
    col_name: str | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
    mask: object | None = None,
    hover: Mapping[str, object] | None = None,
    show_numbers: bool | None = None,
) -> go.Figure:
    """A matrix as a heatmap: row 0 on top, masked cells as labelled gaps, escaped labels.

    `kind` picks the colour scale: "scores" and "values" diverge at 0, "weights" span 0..1.
    `hover` maps names to (n, m) arrays shown on hover (raw score, weight, ...); the matrix
    itself is shown under `title` when `hover` is not given.
    """
    z = _as_array(matrix)
    n, m = z.shape
    rows = unique_labels(row_labels if row_labels is not None else default_labels("q", n))
    cols = unique_labels(col_labels if col_labels is not None else default_labels("k", m))
    if len(rows) != n or len(cols) != m:
        raise ValueError(f"{len(rows)} row and {len(cols)} column labels for a {n}×{m} matrix")
    allowed = None if mask is None else np.broadcast_to(np.asarray(mask, dtype=bool), z.shape)
    if allowed is not None and allowed.all():
        allowed = None
    hover_arrays = {k: _as_array(v) for k, v in (hover or {title: z}).items()}
    if show_numbers is None:
        show_numbers = max(n, m) <= NUMBERS_LIMIT
    fig = go.Figure(
        _heatmap_trace(
            z,
            kind=kind,
            row_labels=rows,
            col_labels=cols,
            row_name=row_name or t("fig.hover.query"),
            col_name=col_name or t("fig.hover.key"),
            mask=allowed,
            hover=hover_arrays,
            show_numbers=show_numbers,
        )
    )
    if allowed is not None:
        fig.add_trace(_masked_markers(allowed))
        fig.add_annotation(
            text=f"{MASK_MARK} = {escape_label(t('fig.masked'))}",
            xref="paper",
            yref="paper",
            x=1.0,
            y=-0.02,
            xanchor="right",
            yanchor="top",
            showarrow=False,
            font={"size": FONT_SIZE - 2},
        )
    fig.update_xaxes(
        title=escape_label(x_title or t("fig.keys")),
        side="top",
        showgrid=False,
        **_axis_ticks(cols),
    )
    fig.update_yaxes(
        title=escape_label(y_title or t("fig.queries")),
        autorange="reversed",
        showgrid=False,
        **_axis_ticks(rows),
    )
    fig.update_xaxes(range=[-0.5, m - 0.5], zeroline=False)
    fig.update_yaxes(zeroline=False)
    # The keys' axis sits on top, like a matrix's column labels: leave room above it for the title.
    style(fig, title, height=int(min(760, max(320, 150 + 40 * n))), top=105)
    if allowed is not None:
        fig.update_layout(margin_b=36)  # room for the "× = masked" note
    return fig


def query_breakdown(
    *,
    query: int,
    scores: object,
    masked_scores: object,
    weights: object,
    values: object,
    query_label: str | None = None,
    key_labels: Sequence[object] | None = None,
    mask: object | None = None,
) -> go.Figure:
    """How output row `query` is made: per key its raw and masked score, its weight, and
    weight_j * v_j (the rows of the right panel add up to the output row at its bottom)."""
    raw = np.asarray(scores, dtype=np.float64).reshape(-1)  # (m,)
    masked = np.asarray(masked_scores, dtype=np.float64).reshape(-1)  # (m,)
    w = np.asarray(weights, dtype=np.float64).reshape(-1)  # (m,)
    v = _as_array(values)  # (m, d_v)
    m, d_v = v.shape
    keys = unique_labels(key_labels if key_labels is not None else default_labels("k", m))
    allowed = np.ones(m, dtype=bool) if mask is None else np.asarray(mask, dtype=bool).reshape(-1)
    label = query_label if query_label is not None else f"q{query}"
    contributions = w[:, None] * v  # (m, d_v)
    output = contributions.sum(axis=0, keepdims=True)  # (1, d_v)

    fig = make_subplots(
        rows=1,
        cols=3,
        column_widths=[0.34, 0.22, 0.44],
        horizontal_spacing=0.08,
        subplot_titles=[
            escape_label(t("fig.breakdown.scores")),
            escape_label(t("fig.breakdown.weights")),
            escape_label(t("fig.breakdown.contrib")),
        ],
    )
    x = np.arange(m)
    key_text = [escape_label(k) for k in keys]

    def bar(y: np.ndarray, name_key: str, color: str, numbers: bool = False) -> go.Bar:
        name = escape_label(t(name_key))
        return go.Bar(
            x=x,
            y=y,
            name=name,
            marker_color=color,
            customdata=key_text,
            text=[_cell_number(v) for v in y] if numbers and m <= NUMBERS_LIMIT else None,
            textposition="outside",
            hovertemplate=f"%{{customdata}}: %{{y:.4g}}<extra>{name}</extra>",
        )

    fig.add_trace(bar(raw, "fig.breakdown.raw", "#4575b4"), row=1, col=1)
    # Masked scores hold the fill value (-1e6, -inf): drawing it would flatten the chart,
    # so only the allowed keys get a bar and the masked ones a label.
    masked_bars = bar(np.where(allowed, masked, np.nan), "fig.breakdown.masked", "#d73027")
    fig.add_trace(masked_bars, row=1, col=1)
    if not allowed.all():
        fig.add_trace(
            go.Scatter(
                x=x[~allowed],
                y=np.zeros(int((~allowed).sum())),
                mode="text",
                text=[escape_label(t("fig.masked"))] * int((~allowed).sum()),
                textposition="top center",
                showlegend=False,
                hoverinfo="skip",
            ),
            row=1,
            col=1,
        )
    fig.add_trace(bar(w, "fig.breakdown.weight", "#35b779", numbers=True), row=1, col=2)
    rows = [*keys, t("fig.breakdown.output")]
    dims = default_labels("v", d_v)
    table = np.vstack([contributions, output])  # (m + 1, d_v)
    fig.add_trace(
        _heatmap_trace(
            table,
            kind="values",
            row_labels=rows,
            col_labels=dims,
            row_name=t("fig.hover.key"),
            col_name=t("fig.dims"),
            mask=None,
            hover={t("fig.hover.value"): table},
            show_numbers=max(m + 1, d_v) <= NUMBERS_LIMIT,
            showscale=False,
        ),
        row=1,
        col=3,
    )
    for col, labels in ((1, keys), (2, keys)):
        fig.update_xaxes(row=1, col=col, **_axis_ticks(labels))
    fig.update_xaxes(row=1, col=3, side="bottom", **_axis_ticks(dims))
    fig.update_yaxes(row=1, col=3, autorange="reversed", **_axis_ticks(rows))
    fig.update_yaxes(row=1, col=2, range=[0, 1.15])
    fig.update_layout(
        barmode="group",
        legend={"orientation": "h", "y": -0.15},
        plot_bgcolor="white",
    )
    fig = style(fig, t("fig.breakdown.title", query=label), height=420)
    fig.update_layout(plot_bgcolor="white")
    return fig


def pipeline_figure() -> go.Figure:
    """The picture of the landing page: Q, K, V -> scores -> mask -> softmax -> output."""
    boxes = [
        ("pipeline.queries", 0.0, 2.0, "#fde0dd"),
        ("pipeline.keys", 0.0, 1.0, "#e0ecf4"),
        ("pipeline.values", 0.0, 0.0, "#e5f5e0"),
        ("pipeline.scores", 1.0, 1.5, "#f0f0f0"),
        ("pipeline.mask", 2.0, 1.5, "#f0f0f0"),
        ("pipeline.softmax", 3.0, 1.5, "#f0f0f0"),
        ("pipeline.output", 3.0, 0.0, "#fff7bc"),
    ]
    arrows = [(0, 3), (1, 3), (3, 4), (4, 5), (5, 6), (2, 6)]
    fig = go.Figure()
    for key, x, y, color in boxes:
        fig.add_shape(
            type="rect",
            x0=x - 0.42,
            x1=x + 0.42,
            y0=y - 0.28,
            y1=y + 0.28,
            fillcolor=color,
            line={"color": "#555555"},
        )
        fig.add_annotation(x=x, y=y, text=escape_label(t(key)), showarrow=False, font={"size": 14})
    for start, end in arrows:
        _, x0, y0, _ = boxes[start]
        _, x1, y1, _ = boxes[end]
        fig.add_annotation(
            x=x1 - 0.42 if x1 > x0 else x1,
            y=y1 + (0.28 if y1 < y0 else 0.0),
            ax=x0 + 0.42 if x1 > x0 else x0,
            ay=y0 - (0.28 if y1 < y0 else 0.0),
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowwidth=2,
            arrowcolor="#555555",
            text="",
        )
    fig.update_xaxes(visible=False, range=[-0.5, 3.5])
    fig.update_yaxes(visible=False, range=[-0.4, 2.4])
    return style(fig, t("home.pipeline_title"), height=330).update_layout(plot_bgcolor="white")


def head_grid(
    attentions: object,
    *,
    title: str,
    layer_label: str,
    head_label: str,
    selected: tuple[int, int] | None = None,
) -> go.Figure:
    """The model view: one small weights heatmap per (layer, head), layers down, heads across.

    `attentions` is (L, H, r, c). Hover names the layer, head and the row/column positions; the
    enlarged head view (`heatmap`) carries the token labels. `selected` gets a frame.
    Thumbnails larger than THUMBNAIL_CELLS a side are average-pooled to that size: a thumbnail
    is about 80 pixels wide, and 72 heads of 259 x 259 tokens would send 19 MB to the browser.
    """
    tensor = torch.as_tensor(attentions, dtype=torch.float32)
    if tensor.ndim != 4:
        raise ValueError(
            f"the model view needs (layers, heads, rows, columns), got {tuple(tensor.shape)}"
        )
    layers, heads, rows, cols = tensor.shape
    if max(rows, cols) > THUMBNAIL_CELLS:
        size = (min(rows, THUMBNAIL_CELLS), min(cols, THUMBNAIL_CELLS))
        tensor = F.adaptive_avg_pool2d(tensor, size)  # (L, H, <= 48, <= 48)
    array = tensor.numpy()
    fig = make_subplots(
        rows=layers,
        cols=heads,
        horizontal_spacing=0.006,
        vertical_spacing=0.012,
        column_titles=[f"{escape_label(head_label)} {h}" for h in range(heads)],
        row_titles=[f"{escape_label(layer_label)} {layer}" for layer in range(layers)],
    )
    for layer in range(layers):
        for head in range(heads):
            fig.add_trace(
                go.Heatmap(
                    z=array[layer, head],
                    zmin=0.0,
                    zmax=1.0,
                    colorscale=COLORSCALES["weights"],
                    showscale=False,
                    hovertemplate=(
                        f"{escape_label(layer_label)} {layer}, {escape_label(head_label)} {head}"
                        "<br>%{y} → %{x}: %{z:.3f}<extra></extra>"
                    ),
                ),
                row=layer + 1,
                col=head + 1,
            )
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, autorange="reversed")
    if selected is not None:
        layer, head = selected
        frame = {"showline": True, "linewidth": 3, "linecolor": "#d62728", "mirror": True}
        fig.update_xaxes(row=layer + 1, col=head + 1, **frame)
        fig.update_yaxes(row=layer + 1, col=head + 1, **frame)
    fig.update_annotations(font_size=FONT_SIZE - 3)
    style(fig, title, height=int(90 * layers + 80), top=80)
    return fig.update_layout(plot_bgcolor="white")


def vector_rows(
    vectors: object, *, title: str, row_labels: Sequence[object], dim_label: str
) -> go.Figure:
    """Vectors as rows of a heatmap (compare and aggregate outputs), numbered dimensions across."""
    matrix = _as_array(vectors)
    return heatmap(
        matrix,
        title=title,
        kind="values",
        row_labels=row_labels,
        col_labels=[str(i) for i in range(matrix.shape[1])],
        row_name="",
        col_name=dim_label,
        x_title=dim_label,
        y_title=" ",
        show_numbers=False,
    )
