"""Page setup, the one error path and the helpers every page shares."""

from __future__ import annotations

import functools
import gc
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import streamlit as st

from attnviz.errors import InputError
from attnviz.i18n import DEFAULT_LANGUAGE, LANGUAGES, set_language, t
from attnviz.ui.links import SETTING_KEYS

# Every page imports this module before its title is drawn: pandas, plotly and torch (through
# attnviz.parsing) are imported where they are used, so the first elements appear at once.
if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

APP_ROOT = Path(__file__).resolve().parents[2]
# (script, title key, tour key, icon): the sidebar lists those that exist, so the tour grows.
PAGES: tuple[tuple[str, str, str, str], ...] = (
    ("dashboard.py", "nav.home", "", ":material/home:"),
    ("pages/1_Playground.py", "nav.playground", "home.tour.playground", ":material/grid_on:"),
    ("pages/2_Masking.py", "nav.masking", "home.tour.masking", ":material/visibility_off:"),
    ("pages/3_Additive_attention.py", "nav.additive", "home.tour.additive", ":material/add:"),
    ("pages/4_Why_sqrt_d.py", "nav.sqrt_d", "home.tour.sqrt_d", ":material/functions:"),
    ("pages/5_Kernel_regression.py", "nav.kernels", "home.tour.kernels", ":material/show_chart:"),
    ("pages/6_Multi_head.py", "nav.multihead", "home.tour.multihead", ":material/view_module:"),
    ("pages/7_NLI_alignment.py", "nav.nli", "home.tour.nli", ":material/compare_arrows:"),
    ("pages/8_Model_attention.py", "nav.model", "home.tour.model", ":material/hub:"),
)

# Session-state keys are constants (here and in qkv / model), so pages and tests agree on them.
LANG = "lang"
LANG_FROM_URL = "lang_from_url"  # set once a link's ?lang= has been read in this session
# Each language named in itself, as language menus do.
LANGUAGE_NAMES = {"en": "English", "ko": "한국어"}
# The marks that start markdown, HTML or an entity (&lt;) inside a line, KaTeX ($) and
# Streamlit's :colour[...], :material/...: and emoji codes (both colons of ":smile:").
_MARKDOWN_MARKS = re.compile(r"([\\`*_\[\]<>&$~|#:])")


@st.cache_resource(max_entries=64, show_spinner=False)
def _freeze_imports(module_count: int) -> None:
    """Once per new count of loaded modules: everything alive now (torch, transformers, plotly,
    the model) leaves the garbage collector's view (`gc.freeze`).

    A full collection otherwise walks that whole heap, 0.23 s with the model loaded, holding
    the GIL while every other session waits (config.toml turns off Streamlit's collection after
    each run for the same reason). What a page imports in a run is frozen on the next run.
    """
    gc.freeze()


def page_setup(title_key: str) -> None:
    """Every page's first call: language, page config and the translated sidebar navigation.

    A link's `?lang=` is read once a session; after that the sidebar's switch decides, and
    `ui.links.publish_link` writes the language back into the URL on every page.
    """
    requested = st.query_params.get("lang")
    unknown = False
    if requested and not st.session_state.get(LANG_FROM_URL):
        st.session_state[LANG_FROM_URL] = True
        unknown = requested not in LANGUAGES
        st.session_state[LANG] = DEFAULT_LANGUAGE if unknown else requested
    lang = set_language(st.session_state.get(LANG, DEFAULT_LANGUAGE))
    _freeze_imports(len(sys.modules))
    st.set_page_config(
        page_title=f"{t(title_key)} · {t('app.name')}",
        page_icon=":material/grid_on:",
        layout="wide",
    )
    if unknown:
        st.toast(markdown_literal(t("lang.notice_unknown", lang=str(requested)[:20])))
    st.session_state[LANG] = lang
    with st.sidebar:
        st.markdown(f"### {t('app.name')}")
        # The same label in every language, so switching keeps one widget.
        st.segmented_control(
            t("lang.label"),
            LANGUAGES,
            key=LANG,
            format_func=LANGUAGE_NAMES.__getitem__,
            required=True,
            label_visibility="collapsed",
            on_change=_language_changed,
        )
        for script, key, _, icon in PAGES:
            if (APP_ROOT / script).exists():
                st.page_link(script, label=t(key), icon=icon)
        st.divider()


def _language_changed() -> None:
    """Set the pages' settings again: a selectbox keeps showing its option in the old language
    otherwise (Streamlit redraws a chosen option only when its value is set)."""
    for key in st.session_state.get(SETTING_KEYS, ()):
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def markdown_literal(text: str) -> str:
    """`text` for Streamlit markdown (st.error, st.toast, ...) that shows exactly as typed."""
    return _MARKDOWN_MARKS.sub(r"\\\1", text)


def show_error(err: ValueError, what: str | None = None) -> None:
    """The one error path: InputError and attend's ValueError become a message, not a trace.

    `what` names the input at fault (a matrix, a sentence) in front of the message.
    """
    detail = str(err) if isinstance(err, InputError) else t("error.compute", detail=err)
    message = detail if what is None else t("error.input", what=what, detail=detail)
    # The message quotes what was typed: markdown would turn "&lt;" into "<", "*a*" into italics.
    st.error(markdown_literal(message), icon=":material/error:")


def init_state(key: str, value: Any) -> None:
    """Set `key` in the session state unless it is there already."""
    if key not in st.session_state:
        st.session_state[key] = value


def bump(key: str) -> None:
    """Count `key` up: a new widget key makes Streamlit draw a fresh widget."""
    st.session_state[key] = st.session_state.get(key, 0) + 1


def plot(
    fig: go.Figure, key: str, *, on_select: Callable[[], None] | None = None, export: bool = True
) -> None:
    """Show a figure the same way on every page, with its export menu.

    `on_select` is called when a point of the figure is clicked (the selection is then in
    `st.session_state[key]`); figures without it send no selection events. A figure whose
    JSON would pass figures.MAX_FIGURE_BYTES is not sent: a message says so instead (the
    builders summarise large matrices, so this is the last guard, not the plan).
    """
    from attnviz import figures  # plotly is loaded by now: the figure is a plotly object
    from attnviz.export import figure_title

    size = figures.sent_bytes(fig)
    if size > figures.MAX_FIGURE_BYTES:
        st.warning(
            t(
                "fig.too_big",
                title=markdown_literal(figure_title(fig)),
                size=f"{size / 1e6:.1f}",
                limit=f"{figures.MAX_FIGURE_BYTES / 1e6:.0f}",
            ),
            icon=":material/warning:",
        )
        return
    if on_select is None:
        st.plotly_chart(fig, key=key, config={"displaylogo": False}, theme=None)
    else:
        st.plotly_chart(
            fig,
            key=key,
            config={"displaylogo": False},
            theme=None,
            on_select=on_select,
            selection_mode="points",
        )
    if export:
        from attnviz.ui.export import figure_exports  # its imports are heavy: only when drawn

        figure_exports(fig, key)


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
    from attnviz import parsing

    # Made only when clicked: a 2048 x 2048 matrix takes seconds to write as CSV.
    download_csv(label, functools.partial(parsing.matrix_csv, matrix, rows, cols), key)


def table(frame: pd.DataFrame, label: str, key: str, hide_index: bool = True) -> None:
    """A table on screen and the same table as a CSV download."""
    st.dataframe(frame, hide_index=hide_index, key=key)
    download_csv(label, frame.to_csv(index=False).encode("utf-8"), key)


def _cells_commit(editor_key: str, cells_key: str, version_key: str, n: int, m: int) -> None:
    blocked = set(st.session_state.get(cells_key, frozenset()))
    for row, changes in (st.session_state.get(editor_key) or {}).get("edited_rows", {}).items():
        for col, allowed in changes.items():
            cell = (int(row), int(str(col).removeprefix("k")))
            if allowed:
                blocked.discard(cell)
            else:
                blocked.add(cell)
    st.session_state[cells_key] = frozenset((i, j) for i, j in blocked if i < n and j < m)
    bump(version_key)


def cells_grid(cells_key: str, version_key: str, n: int, m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked mask cells as a grid of checkboxes (ticked = may attend); the blocked cells.

    The blocked set lives under `cells_key` (no widget holds it). Each commit draws a new grid
    (its key carries the `version_key` count), so an edit is never applied twice.
    """
    import pandas as pd

    init_state(cells_key, frozenset())
    blocked = frozenset((i, j) for i, j in st.session_state[cells_key] if i < n and j < m)
    frame = pd.DataFrame(
        [[(i, j) not in blocked for j in range(m)] for i in range(n)],
        columns=[f"k{j}" for j in range(m)],
        index=[f"q{i}" for i in range(n)],
    )
    editor_key = f"{cells_key}_grid_{st.session_state.get(version_key, 0)}"
    st.data_editor(
        frame,
        key=editor_key,
        on_change=_cells_commit,
        args=(editor_key, cells_key, version_key, n, m),
        column_config={c: st.column_config.CheckboxColumn(c, width=36) for c in frame.columns},
    )
    return blocked


def show_tour() -> None:
    """A link and one line for every page that exists."""
    for script, key, tour_key, icon in PAGES[1:]:
        if (APP_ROOT / script).exists():
            st.page_link(script, label=t(key), icon=icon)
            st.caption(t(tour_key))
