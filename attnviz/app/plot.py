"""Output every page shows the same way: a figure with its export menu, tables and CSV files."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from attnviz import parsing
from attnviz.app.export import figure_exports
from attnviz.app.feedback import markdown_literal
from attnviz.app.links import PRESENT
from attnviz.figures.budget import MAX_FIGURE_BYTES, sent_bytes
from attnviz.figures.export import figure_title
from attnviz.figures.scale import scaled
from attnviz.i18n import t

# No Plotly toolbar: on hover it covered the charts' titles. Dragging still zooms, a double
# click resets, and the export menu under each chart downloads it.
CHART_CONFIG = {"displaylogo": False, "displayModeBar": False}
# Presenter mode's charts: text and the room around it this much larger. Folding the sidebar
# gives the charts 1.25 times the width at a 1,400-px window (a third of the page: 303 -> 379
# px), the room the builders' layouts need at this size (`attnviz.figures.scale`).
PRESENT_CHART_SCALE = 1.25


def chart_scale() -> float:
    """How much larger this session draws chart text: PRESENT_CHART_SCALE in presenter mode."""
    return PRESENT_CHART_SCALE if st.session_state.get(PRESENT.key) else 1.0


def plot(
    fig: go.Figure, key: str, *, on_select: Callable[[], None] | None = None, export: bool = True
) -> None:
    """Show a figure the same way on every page, with its export menu.

    `on_select` is called when a point of the figure is clicked (the selection is then in
    `st.session_state[key]`); figures without it send no selection events. A figure whose
    JSON would pass MAX_FIGURE_BYTES is not sent: a message says so instead (the builders
    summarise large matrices, so this is the last guard, not the plan). In presenter mode the
    chart is drawn larger (`chart_scale`); its exports keep the normal size.
    """
    size = sent_bytes(fig)
    if size > MAX_FIGURE_BYTES:
        st.warning(
            t(
                "fig.too_big",
                title=markdown_literal(figure_title(fig)),
                size=f"{size / 1e6:.1f}",
                limit=f"{MAX_FIGURE_BYTES / 1e6:.0f}",
            ),
            icon=":material/warning:",
        )
        return
    shown = scaled(fig, chart_scale())
    if on_select is None:
        st.plotly_chart(shown, key=key, config=CHART_CONFIG, theme=None)
    else:
        st.plotly_chart(
            shown,
            key=key,
            config=CHART_CONFIG,
            theme=None,
            on_select=on_select,
            selection_mode="points",
        )
    if export:
        figure_exports(fig, key)


def plot_row(figs: dict[str, go.Figure], widths: list[int] | None = None) -> None:
    """Figures side by side in columns, each under its key."""
    for column, (key, fig) in zip(st.columns(widths or len(figs)), figs.items(), strict=True):
        with column:
            plot(fig, key=key)


def pick_table(frame: pd.DataFrame, key: str, columns: dict[str, Any]) -> int | None:
    """A table whose rows are clicked to pick one: the picked row's position, None before any
    click (or after the table changed under it). `columns` is Streamlit's column_config."""
    event = st.dataframe(
        frame, hide_index=True, key=key, on_select="rerun", selection_mode="single-row",
        column_config=columns,
    )  # fmt: skip
    picked = event.selection.rows if event is not None else []
    return int(picked[0]) if picked and int(picked[0]) < len(frame) else None


def download_csv(label: str, data: bytes | Callable[[], bytes], key: str) -> None:
    """A CSV download button; `data` may be a function, then called only on a click."""
    st.download_button(
        t("download.csv", name=label),
        data,
        file_name=f"{key}.csv",
        mime="text/csv",
        key=f"download_{key}",
        on_click="ignore",
    )


def csv_download(label: str, matrix: Any, rows: list[str], cols: list[str], key: str) -> None:
    """A download button for one matrix as CSV with its labels."""
    # Made only when clicked: a 2048 x 2048 matrix takes seconds to write as CSV.
    download_csv(label, functools.partial(parsing.matrix_csv, matrix, rows, cols), key)


def csv_downloads(matrices: list[tuple[str, Any, list[str], list[str], str]]) -> None:
    """(label, matrix, row labels, column labels, key) downloads, side by side."""
    for column, (label, matrix, rows, cols, key) in zip(
        st.columns(len(matrices)), matrices, strict=True
    ):
        with column:
            csv_download(label, matrix, rows, cols, key)


def _weight(value: object) -> str:
    from attnviz.figures.matrix import weight_number

    return weight_number(float(value))  # type: ignore[arg-type]


def table(
    frame: pd.DataFrame,
    label: str,
    key: str,
    hide_index: bool = True,
    weights: Sequence[str] = (),
) -> None:
    """A table on screen and the same table as a CSV download. The `weights` columns are shown
    with two significant digits (".41", ".004", "4.1e-5"; "0" only for a masked key's exact 0:
    `weight_number`); the CSV keeps every digit."""
    shown: Any = frame
    if weights:
        shown = frame.style.format({column: _weight for column in weights})
    st.dataframe(shown, hide_index=hide_index, key=key)
    download_csv(label, frame.to_csv(index=False).encode("utf-8"), key)
