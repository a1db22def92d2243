"""Export menu of a figure: PNG and standalone HTML, made only when asked for."""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from attnviz.figures import export
from attnviz.i18n import t


def figure_exports(fig: go.Figure, key: str) -> None:
    """The export buttons under a chart: a small menu with PNG and HTML downloads.

    Each file is made in the click's own request (a callable `data`), never on a rerun: a PNG
    starts a browser, a standalone page carries 4 MB of plotly.js.
    """
    name = export.figure_title(fig)
    unavailable = export.png_unavailable()
    with st.popover(":material/download:", help=t("export.menu_help"), key=f"export_{key}"):
        if unavailable == "no_kaleido":
            png_help = t("export.no_kaleido")
        elif unavailable == "no_browser":
            png_help = t("export.no_browser")
        else:
            png_help = t("export.png_help")
        st.download_button(
            t("export.png"),
            lambda: export.figure_png(fig),  # not registered at all while disabled
            file_name=export.safe_filename(name, "png", fallback=key),
            mime="image/png",
            key=f"png_{key}",
            help=png_help,
            on_click="ignore",
            icon=":material/image:",
            disabled=unavailable is not None,
        )
        if unavailable is not None:
            st.caption(png_help)
        elif export.png_lacks_korean_font(fig):
            st.caption(t("export.no_korean_font"))
        st.download_button(
            t("export.html"),
            lambda: export.figure_html(fig),
            file_name=export.safe_filename(name, "html", fallback=key),
            mime="text/html",
            key=f"html_{key}",
            help=t("export.html_help"),
            on_click="ignore",
            icon=":material/code:",
        )
