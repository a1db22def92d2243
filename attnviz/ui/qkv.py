"""Queries, keys and values in; every step of attention out (Playground and dashboard)."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures, formulas, parsing
from attnviz.attention import SCORES, AttentionResult, attend, causal_mask, row_check
from attnviz.i18n import t
from attnviz.ui import links
from attnviz.ui.base import (
    bump,
    cells_grid,
    csv_download,
    init_state,
    markdown_literal,
    plot,
    show_error,
)

# Session-state keys of the inputs and controls.
SOURCE = "qkv_source"
PRESET = "qkv_preset"
SELF_ATTENTION = "qkv_self_attention"
TEXTS = {"queries": "qkv_text_queries", "keys": "qkv_text_keys", "values": "qkv_text_values"}
GRID_VERSION = "qkv_grid_version"
GRID_TOGGLE = "qkv_grid"
UPLOAD_NOTES = "qkv_upload_notes"
RANDOM = {
    "n": "qkv_n",
    "m": "qkv_m",
    "d_q": "qkv_d_q",
    "d_k": "qkv_d_k",
    "d_v": "qkv_d_v",
    "seed": "qkv_seed",
}
# Labels as literal catalogue keys (tests/test_i18n.py checks each exists).
SIZE_LABELS = {
    "n": "input.n",
    "m": "input.m",
    "d_q": "input.d_q",
    "d_k": "input.d_k",
    "d_v": "input.d_v",
}
SOURCE_LABELS = {
    "edit": "input.source.edit",
    "upload": "input.source.upload",
    "random": "input.source.random",
}
MATRIX_LABELS = {"queries": "input.queries", "keys": "input.keys", "values": "input.values"}
SCORE_LABELS = {
    "dot": "score.dot",
    "scaled_dot": "score.scaled_dot",
    "cosine": "score.cosine",
    "general": "score.general",
    "additive": "score.additive",
    "gaussian": "score.gaussian",
}
SCORE = "attn_score"
TEMPERATURE = "attn_temperature"
SIGMA = "attn_sigma"
HIDDEN = "attn_hidden"
PARAM_SEED = "attn_param_seed"
VALID_LENS = "mask_valid_lens"
CAUSAL = "mask_causal"
CELLS_ON = "mask_cells_on"
CELLS = "mask_cells"  # frozenset of (query, key) pairs that are blocked; no widget holds it
CELLS_VERSION = "mask_cells_version"
FILL = "mask_fill"

QUERY = "pg_query"  # the Playground's selected query (row)
KEY = "pg_key"  # and key (column), set by a click on a heatmap cell
CONTROL_DEFAULTS: dict[str, Any] = {
    SCORE: "scaled_dot",
    TEMPERATURE: 1.0,
    SIGMA: 1.0,
    HIDDEN: 8,
    PARAM_SEED: 0,
}

RANDOM_DEFAULTS = {"n": 6, "m": 8, "d_q": 4, "d_k": 4, "d_v": 3, "seed": 0}

GRID_LIMIT = 24  # the grid editor shows matrices up to this many rows and columns
CELLS_LIMIT = 16
RANDOM_MAX_ROWS = 2048
RANDOM_MAX_DIM = 256
FILL_VALUES: tuple[float, ...] = (-1e6, -1e9, float("-inf"))
MATRICES = ("queries", "keys", "values")


@dataclass(frozen=True)
class Preset:
    """A named example: the texts of Q, K and V ("" = self-attention) and the valid lengths."""

    label: str  # catalogue key
    queries: str
    keys: str
    values: str
    valid_lens: str = ""


# The textbook's: d2l 11.3's scaled dot-product example for one sequence: ten identical keys,
# so the weights spread evenly over the two valid keys and the output is the mean of their values.
PRESETS: dict[str, Preset] = {
    "textbook": Preset(
        "input.preset.textbook",
        "0.5, -1.2",
        "\n".join(["1, 1"] * 10),
        "\n".join(f"{4 * i}, {4 * i + 1}, {4 * i + 2}, {4 * i + 3}" for i in range(10)),
        "2",
    ),
    "small": Preset(
        "input.preset.small",
        "1, 0\n0, 1\n1, 1",
        "1, 0\n0, 1\n-1, 0\n0.5, 0.5",
        "1, 0, 0\n0, 1, 0\n0, 0, 1\n1, 1, 1",
    ),
    "tokens": Preset(
        "input.preset.tokens", "1, 0.2, 0\n0.9, 0.1, 0.3\n0, 1, 0.5\n0.1, 0.8, 1", "", ""
    ),
}
DEFAULT_PRESET = "small"


FILL_NAMES: dict[str, float] = {"-1e6": -1e6, "-1e9": -1e9, "-inf": float("-inf")}
# The Playground's settings in a link (ui.links): short names, the widgets' bounds.
PLAYGROUND_LINK: tuple[links.Param, ...] = (
    links.choice_param("src", SOURCE, "edit", tuple(SOURCE_LABELS)),
    links.choice_param("preset", PRESET, DEFAULT_PRESET, tuple(PRESETS)),
    links.bool_param("self", SELF_ATTENTION, not PRESETS[DEFAULT_PRESET].keys),
    links.text_param("Q", TEXTS["queries"], PRESETS[DEFAULT_PRESET].queries),
    links.text_param("K", TEXTS["keys"], PRESETS[DEFAULT_PRESET].keys),
    links.text_param("V", TEXTS["values"], PRESETS[DEFAULT_PRESET].values),
    links.int_param("n", RANDOM["n"], RANDOM_DEFAULTS["n"], 1, RANDOM_MAX_ROWS),
    links.int_param("m", RANDOM["m"], RANDOM_DEFAULTS["m"], 1, RANDOM_MAX_ROWS),
    links.int_param("dq", RANDOM["d_q"], RANDOM_DEFAULTS["d_q"], 1, RANDOM_MAX_DIM),
    links.int_param("dk", RANDOM["d_k"], RANDOM_DEFAULTS["d_k"], 1, RANDOM_MAX_DIM),
    links.int_param("dv", RANDOM["d_v"], RANDOM_DEFAULTS["d_v"], 1, RANDOM_MAX_DIM),
    links.int_param("seed", RANDOM["seed"], RANDOM_DEFAULTS["seed"], 0, 2**31 - 1),
    links.choice_param("score", SCORE, CONTROL_DEFAULTS[SCORE], SCORES),
    links.float_param("T", TEMPERATURE, CONTROL_DEFAULTS[TEMPERATURE], 0.05, 5.0),
    links.float_param("sigma", SIGMA, CONTROL_DEFAULTS[SIGMA], 0.1, 5.0),
    links.int_param("h", HIDDEN, CONTROL_DEFAULTS[HIDDEN], 1, 256),
    links.int_param("pseed", PARAM_SEED, CONTROL_DEFAULTS[PARAM_SEED], 0, 2**31 - 1),
    links.text_param("lens", VALID_LENS, "", max_chars=200),
    links.bool_param("causal", CAUSAL),
    links.bool_param("cells_on", CELLS_ON),
    links.cells_param("cells", CELLS),
    links.choice_param("fill", FILL, -1e6, FILL_NAMES),
    links.int_param("q", QUERY, 0, 0, RANDOM_MAX_ROWS - 1),
    links.int_param("k", KEY, 0, 0, RANDOM_MAX_ROWS - 1),
)


@dataclass(frozen=True)
class QKV:
    """The inputs of one attention computation, with labels for the axes."""

    queries: torch.Tensor  # (n, d_q)
    keys: torch.Tensor  # (m, d_k)
    values: torch.Tensor  # (m, d_v)
    query_labels: list[str]
    key_labels: list[str]


@dataclass(frozen=True)
class AttentionChoice:
    """The scoring function, its parameters and the masks chosen in the sidebar."""

    score: str
    temperature: float
    params: dict[str, Any]
    fill_value: float
    causal: bool
    valid_lens_text: str
    blocked: frozenset[tuple[int, int]]


def _load_preset(name: str) -> None:
    preset = PRESETS[name]
    st.session_state[TEXTS["queries"]] = preset.queries
    st.session_state[TEXTS["keys"]] = preset.keys
    st.session_state[TEXTS["values"]] = preset.values
    st.session_state[SELF_ATTENTION] = not preset.keys
    st.session_state[VALID_LENS] = preset.valid_lens
    st.session_state[CELLS] = frozenset()
    bump(GRID_VERSION)
    bump(CELLS_VERSION)


def _init_inputs() -> None:
    # Each on its own: a link may have set some of them already (ui.links).
    preset = PRESETS[DEFAULT_PRESET]
    for name in MATRICES:
        init_state(TEXTS[name], getattr(preset, name))
    init_state(SELF_ATTENTION, not preset.keys)
    init_state(VALID_LENS, preset.valid_lens)
    init_state(CELLS, frozenset())
    init_state(SOURCE, "edit")
    init_state(PRESET, DEFAULT_PRESET)
    for name, value in RANDOM_DEFAULTS.items():
        init_state(RANDOM[name], value)


def reset_inputs() -> None:
    """Back to the default preset and sizes (a button callback)."""
    for key in [SOURCE, PRESET, *RANDOM.values(), VALID_LENS, CAUSAL, CELLS_ON, FILL]:
        st.session_state.pop(key, None)
    _load_preset(DEFAULT_PRESET)


def _new_seed() -> None:
    st.session_state[RANDOM["seed"]] = random.randrange(100_000)


@st.cache_data(max_entries=8, show_spinner=False)
def random_inputs(
    n: int, m: int, d_q: int, d_k: int, d_v: int, seed: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Seeded N(0, 1) queries (n, d_q), keys (m, d_k), values (m, d_v)."""
    gen = torch.Generator().manual_seed(seed)
    return (
        torch.randn(n, d_q, generator=gen),
        torch.randn(m, d_k, generator=gen),
        torch.randn(m, d_v, generator=gen),
    )


def _grid_commit(name: str, editor_key: str) -> None:
    """Apply the grid's edits to the matrix text, then start a fresh grid on the new text."""
    edits = st.session_state.get(editor_key) or {}
    try:
        matrix = parsing.parse_matrix(st.session_state[TEXTS[name]]).numpy().copy()
    except parsing.InputError:
        return
    for row, changes in edits.get("edited_rows", {}).items():
        for col, value in changes.items():
            if value is not None:
                matrix[int(row), int(col)] = float(value)
    st.session_state[TEXTS[name]] = parsing.format_matrix(matrix)
    bump(GRID_VERSION)


def _upload_commit(name: str, uploader_key: str) -> None:
    """Parse an uploaded file into the matrix text; a bad file leaves the text as it was."""
    notes = dict(st.session_state.get(UPLOAD_NOTES, {}))
    upload = st.session_state.get(uploader_key)
    if upload is None:
        notes.pop(name, None)
    else:
        try:
            data = upload.getvalue()
            is_npy = upload.name.lower().endswith(".npy")
            matrix = parsing.load_npy(data) if is_npy else parsing.load_csv(data)
        except parsing.InputError as err:
            notes[name] = ("error", f"{upload.name}: {err}")
        else:
            st.session_state[TEXTS[name]] = parsing.format_matrix(matrix)
            rows, cols = matrix.shape
            notes[name] = ("ok", t("input.uploaded", name=upload.name, rows=rows, cols=cols))
            bump(GRID_VERSION)
    st.session_state[UPLOAD_NOTES] = notes


def _matrix_editor(name: str, label: str) -> torch.Tensor:
    """One matrix: a text box (paste or type) and, for small ones, an editable grid."""
    text_key = TEXTS[name]
    text = st.text_area(
        label,
        key=text_key,
        help=t("input.text_help"),
        height=140,
        persist_state="session",
        on_change=bump,
        args=(GRID_VERSION,),
    )
    matrix = parsing.parse_matrix(text or "")
    if st.session_state.get(GRID_TOGGLE):
        if max(matrix.shape) > GRID_LIMIT:
            st.caption(t("input.grid_too_big", limit=GRID_LIMIT))
        else:
            editor_key = f"qkv_grid_{name}_{st.session_state.get(GRID_VERSION, 0)}"
            frame = pd.DataFrame(matrix.numpy().astype(float))
            frame.columns = [str(c) for c in frame.columns]
            st.data_editor(
                frame,
                key=editor_key,
                on_change=_grid_commit,
                args=(name, editor_key),
                hide_index=False,
                width="content",
            )
    return matrix


def qkv_input() -> QKV | None:
    """The matrix-input group: presets, text / grid, upload or seeded random Q, K, V.

    None when what was typed does not parse: the error is shown under that matrix and the
    text stays as typed.
    """
    _init_inputs()
    with st.expander(t("input.heading"), expanded=True):
        sources = list(SOURCE_LABELS)
        top = st.columns([3, 2, 1])
        source = top[0].segmented_control(
            t("input.source"),
            sources,
            key=SOURCE,
            format_func=lambda s: t(SOURCE_LABELS[s]),
            required=True,
            persist_state="session",
        )
        self_attention = top[1].toggle(
            t("input.self_attention"),
            key=SELF_ATTENTION,
            help=t("input.self_attention.help"),
            persist_state="session",
        )
        top[2].button(t("input.reset"), key="qkv_reset", on_click=reset_inputs)
        shown = ("queries",) if self_attention else MATRICES
        if source == "random":
            queries, keys, values = _random_group(self_attention)
        else:
            if source == "upload":
                _upload_group(shown)
            else:
                preset_row = st.columns([3, 1, 2])
                preset = preset_row[0].selectbox(
                    t("input.preset"),
                    list(PRESETS),
                    key=PRESET,
                    format_func=lambda p: t(PRESETS[p].label),
                    persist_state="session",
                )
                preset_row[1].button(
                    t("input.preset.apply"),
                    key="qkv_preset_apply",
                    on_click=_load_preset,
                    args=(preset,),
                )
                preset_row[2].toggle(t("input.grid"), key=GRID_TOGGLE, persist_state="session")
            tensors = {}
            columns = st.columns(len(shown))
            for column, name in zip(columns, shown, strict=True):
                with column:
                    try:
                        tensors[name] = _matrix_editor(name, t(MATRIX_LABELS[name]))
                    except parsing.InputError as err:
                        show_error(err, what=t(MATRIX_LABELS[name]))
            if len(tensors) < len(shown):
                return None
            queries = tensors["queries"]
            keys = tensors.get("keys", queries)
            values = tensors.get("values", queries)
        st.caption(
            t(
                "input.summary",
                n=queries.shape[0],
                d_q=queries.shape[1],
                m=keys.shape[0],
                d_k=keys.shape[1],
                d_v=values.shape[1],
            )
        )
    return QKV(
        queries,
        keys,
        values,
        figures.default_labels("q", queries.shape[0]),
        figures.default_labels("k", keys.shape[0]),
    )


def sizes(qkv: QKV | None) -> tuple[int, int]:
    """(n, m) of the inputs, (0, 0) while they do not parse."""
    return (0, 0) if qkv is None else (qkv.queries.shape[0], qkv.keys.shape[0])


def _upload_group(shown: tuple[str, ...]) -> None:
    st.caption(t("input.upload_help", rows=parsing.MAX_ROWS, cols=parsing.MAX_COLS))
    notes = st.session_state.get(UPLOAD_NOTES, {})
    for column, name in zip(st.columns(len(shown)), shown, strict=True):
        uploader_key = f"qkv_upload_{name}"
        column.file_uploader(
            t(MATRIX_LABELS[name]),
            type=["csv", "txt", "npy"],
            key=uploader_key,
            on_change=_upload_commit,
            args=(name, uploader_key),
        )
        if name in notes:
            status, message = notes[name]
            # The note names the uploaded file: its name shows as it is, not as markdown.
            (column.error if status == "error" else column.success)(markdown_literal(message))


def _random_group(self_attention: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    sizes = ["n", "d_q"] if self_attention else ["n", "m", "d_q", "d_k", "d_v"]
    columns = st.columns(len(sizes) + 2)
    values: dict[str, int] = {}
    for column, name in zip(columns, sizes, strict=False):
        limit = RANDOM_MAX_ROWS if name in ("n", "m") else RANDOM_MAX_DIM
        values[name] = int(
            column.number_input(
                t(SIZE_LABELS[name]),
                min_value=1,
                max_value=limit,
                step=1,
                key=RANDOM[name],
                persist_state="session",
            )
        )
    seed = int(
        columns[-2].number_input(
            t("input.seed"),
            min_value=0,
            max_value=2**31 - 1,
            step=1,
            key=RANDOM["seed"],
            persist_state="session",
        )
    )
    columns[-1].button(t("input.new_seed"), key="qkv_new_seed", on_click=_new_seed)
    n, d_q = values["n"], values["d_q"]
    if self_attention:
        queries, _, _ = random_inputs(n, n, d_q, d_q, 1, seed)
        st.caption(t("input.random_note", seed=seed, n=n, m=n))
        return queries, queries, queries
    m, d_k, d_v = values["m"], values["d_k"], values["d_v"]
    st.caption(t("input.random_note", seed=seed, n=n, m=m))
    return random_inputs(n, m, d_q, d_k, d_v, seed)


def attention_controls(n: int, m: int) -> AttentionChoice:
    """Sidebar: scoring function, its parameters, temperature and masks."""
    for key, value in CONTROL_DEFAULTS.items():
        init_state(key, value)
    with st.sidebar:
        st.subheader(t("controls.heading"))
        score = st.selectbox(
            t("controls.score"),
            SCORES,
            key=SCORE,
            format_func=lambda s: t(SCORE_LABELS[s]),
            persist_state="session",
        )
        params: dict[str, Any] = {}
        if score == "gaussian":
            params["sigma"] = st.slider(
                t("controls.sigma"), 0.1, 5.0, step=0.1, key=SIGMA, persist_state="session"
            )
        if score == "additive":
            params["h"] = st.number_input(
                t("controls.hidden"), 1, 256, key=HIDDEN, persist_state="session"
            )
        if score in ("general", "additive"):
            params["seed"] = st.number_input(
                t("controls.param_seed"),
                0,
                2**31 - 1,
                key=PARAM_SEED,
                help=t("controls.param_seed.help"),
                persist_state="session",
            )
        temperature = st.slider(
            t("controls.temperature"),
            0.05,
            5.0,
            step=0.05,
            key=TEMPERATURE,
            help=t("controls.temperature.help"),
            persist_state="session",
        )
        st.subheader(t("controls.masks"))
        valid_lens_text = st.text_input(
            t("controls.valid_lens"),
            key=VALID_LENS,
            help=t("controls.valid_lens.help"),
            persist_state="session",
        )
        causal = st.toggle(t("controls.causal"), key=CAUSAL, persist_state="session")
        blocked = _cells_group(n, m)
        fill_value = st.selectbox(
            t("controls.fill"),
            FILL_VALUES,
            key=FILL,
            help=t("controls.fill.help"),
            format_func=lambda v: "-inf" if v == float("-inf") else f"{v:.0e}",
            persist_state="session",
        )
    return AttentionChoice(
        score=str(score),
        temperature=float(temperature),
        params=params,
        fill_value=float(fill_value),
        causal=bool(causal),
        valid_lens_text=valid_lens_text or "",
        blocked=blocked,
    )


def _cells_group(n: int, m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked cells: a grid of checkboxes, ticked = may attend."""
    init_state(CELLS, frozenset())
    if not st.toggle(t("controls.cells"), key=CELLS_ON, persist_state="session"):
        return frozenset()
    if min(n, m) == 0:  # no inputs to pick cells of (they did not parse)
        return frozenset()
    if max(n, m) > CELLS_LIMIT:
        st.caption(t("controls.cells_too_big", limit=CELLS_LIMIT))
        return frozenset()
    blocked = cells_grid(CELLS, CELLS_VERSION, n, m)
    st.caption(t("controls.cells.help"))
    return blocked


def build_mask(choice: AttentionChoice, n: int, m: int) -> torch.Tensor | None:
    """The causal and hand-picked masks as one bool (n, m) mask, True = may attend."""
    mask: torch.Tensor | None = causal_mask(n, m) if choice.causal else None
    if choice.blocked:
        cells = torch.ones(n, m, dtype=torch.bool)
        for i, j in choice.blocked:
            cells[i, j] = False
        mask = cells if mask is None else mask & cells
    return mask


STEP_FIGURES = ("scores", "masked_scores", "weights", "values", "output")


def result_figure(
    result: AttentionResult, qkv: QKV, name: str, selectable: bool = False
) -> go.Figure:
    """One step's heatmap of a result (a name of STEP_FIGURES), for every page that shows them.

    `selectable` gives the three attention heatmaps click targets (figures.heatmap).
    """
    attention_titles = {
        "scores": "fig.scores",
        "masked_scores": "fig.masked_scores",
        "weights": "fig.weights",
    }
    if name in attention_titles:
        hover = {t("fig.hover.score"): result.scores, t("fig.hover.weight"): result.weights}
        return figures.heatmap(
            getattr(result, name),
            title=t(attention_titles[name]),
            kind="weights" if name == "weights" else "scores",
            row_labels=qkv.query_labels,
            col_labels=qkv.key_labels,
            mask=None if name == "scores" else result.mask,
            hover=hover,
            selectable=selectable,
        )
    dims = figures.default_labels("v", qkv.values.shape[1])
    if name == "values":
        return figures.heatmap(
            qkv.values,
            title=t("fig.values"),
            kind="values",
            row_labels=qkv.key_labels,
            col_labels=dims,
            row_name=t("fig.hover.key"),
            col_name=t("fig.dims"),
            y_title=t("fig.keys"),
            x_title=t("fig.dims"),
        )
    if name == "output":
        return figures.heatmap(
            result.output,
            title=t("fig.output"),
            kind="values",
            row_labels=qkv.query_labels,
            col_labels=dims,
            col_name=t("fig.dims"),
            x_title=t("fig.dims"),
        )
    raise ValueError(f"unknown step figure {name!r}: choose one of {', '.join(STEP_FIGURES)}")


def result_figures(
    result: AttentionResult, qkv: QKV, selectable: bool = False
) -> dict[str, go.Figure]:
    """Every step's heatmap of one result (`result_figure`), by name."""
    return {name: result_figure(result, qkv, name, selectable) for name in STEP_FIGURES}


def compute(qkv: QKV, choice: AttentionChoice) -> AttentionResult:
    """Attention for the chosen inputs and controls; InputError / ValueError for the page."""
    n, d_q = qkv.queries.shape
    m, d_k = qkv.keys.shape
    m_v, d_v = qkv.values.shape
    if m_v != m:
        raise parsing.InputError("values_rows", m_v=m_v, d_v=d_v, m=m, d_k=d_k)
    if choice.score in ("dot", "scaled_dot", "cosine", "gaussian") and d_q != d_k:
        score = t(SCORE_LABELS[choice.score])
        raise parsing.InputError("sizes", n=n, d_q=d_q, m=m, d_k=d_k, score=score)
    valid_lens = parsing.parse_valid_lens(choice.valid_lens_text, n, m)
    return attend(
        qkv.queries,
        qkv.keys,
        qkv.values,
        score=choice.score,
        mask=build_mask(choice, n, m),
        valid_lens=valid_lens,
        fill_value=choice.fill_value,
        temperature=choice.temperature,
        params=choice.params,
    )


def show_row_check(result: AttentionResult, fill_value: float) -> None:
    """The check that every row with an allowed key sums to 1, and a word on fully masked rows."""
    deviation, fully_masked = row_check(result)
    if deviation < 1e-5:
        st.success(t("playground.rows_ok", dev=f"{deviation:.1e}"), icon=":material/check:")
    else:
        st.warning(t("playground.rows_bad", dev=f"{deviation:.1e}"))
    if fully_masked:
        what = (
            "playground.fully_masked.zeros"
            if fill_value == float("-inf")
            else "playground.fully_masked.uniform"
        )
        fill = "-inf" if fill_value == float("-inf") else f"{fill_value:.0e}"
        st.info(
            t(
                "playground.fully_masked",
                count=fully_masked,
                fill=fill,
                what=t(what),
            )
        )


def _cell_clicked(chart_key: str, query_key: str, key_key: str) -> None:
    """A heatmap cell was clicked: its row becomes the selected query, its column the key."""
    cell = figures.selected_cell(st.session_state.get(chart_key))
    if cell is not None:
        st.session_state[query_key], st.session_state[key_key] = cell


def show_steps(
    result: AttentionResult,
    qkv: QKV,
    key: str,
    query_key: str | None = None,
    key_key: str | None = None,
) -> None:
    """Raw scores, masked scores and weights side by side; values and outputs below.

    With `query_key` and `key_key`, clicking a cell of the three attention heatmaps selects
    that query and key (on matrices small enough for click targets, figures.SELECT_CELL_LIMIT).
    """
    clickable = query_key is not None and key_key is not None
    # Each figure is built just before it is sent: Chromium draws one while the next is built.
    for column, name in zip(st.columns(3), ("scores", "masked_scores", "weights"), strict=True):
        chart = f"{key}_{name}"
        on_select = None
        if query_key is not None and key_key is not None:  # (clickable, spelled for mypy)
            on_select = functools.partial(_cell_clicked, chart, query_key, key_key)
        with column:
            plot(result_figure(result, qkv, name, clickable), key=chart, on_select=on_select)
    for column, name in zip(st.columns(2), ("values", "output"), strict=True):
        with column:
            plot(result_figure(result, qkv, name), key=f"{key}_{name}")
    n, m = result.weights.shape[-2:]
    if max(n, m) > figures.NUMBERS_LIMIT:
        st.caption(t("playground.big_note", limit=figures.NUMBERS_LIMIT))
    if clickable:
        small = n * m <= figures.SELECT_CELL_LIMIT
        st.caption(t("playground.click_tip") if small else t("playground.pick_tip"))


def query_selector(labels: list[str], key: str, key_key: str | None = None, m: int = 0) -> int:
    """Which query to inspect: a selector (typing filters it), also set by clicking a cell.

    The choice survives reruns that keep the matrix's shape; a new shape starts at query 0.
    """
    n = len(labels)
    shape_key = f"{key}_shape"
    if st.session_state.get(shape_key, (n, m)) != (n, m):
        st.session_state[key] = 0
        if key_key is not None:
            st.session_state[key_key] = 0
    st.session_state[shape_key] = (n, m)
    init_state(key, 0)
    if key_key is not None:
        init_state(key_key, 0)
    if not 0 <= int(st.session_state[key] or 0) < n:
        st.session_state[key] = 0
    index = st.selectbox(
        t("playground.breakdown_query"),
        range(n),
        key=key,
        format_func=lambda i: labels[i],
        persist_state="session",
    )
    return min(int(index or 0), n - 1)


def show_selected_cell(result: AttentionResult, qkv: QKV, query: int, key_key: str) -> None:
    """The exact numbers of the selected cell (query, key), whatever the heatmap's encoding."""
    col = int(st.session_state.get(key_key, 0) or 0)
    if not 0 <= col < len(qkv.key_labels):
        return
    allowed = result.mask is None or bool(result.mask[query, col])
    st.caption(
        t(
            "playground.selected_cell",
            query=figures.escape_label(qkv.query_labels[query]),
            key_label=figures.escape_label(qkv.key_labels[col]),
            score=f"{float(result.scores[query, col]):.6g}",
            weight=f"{float(result.weights[query, col]):.6g}",
            masked="" if allowed else t("playground.selected_masked"),
        )
    )


def show_breakdown(result: AttentionResult, qkv: QKV, query: int, key: str) -> None:
    """The per-query breakdown figure and the formulas with that query's numbers."""
    row_mask = None if result.mask is None else result.mask[query]
    plot(
        figures.query_breakdown(
            query=query,
            scores=result.scores[query],
            masked_scores=result.masked_scores[query],
            weights=result.weights[query],
            values=qkv.values,
            query_label=qkv.query_labels[query],
            key_labels=qkv.key_labels,
            mask=row_mask,
        ),
        key=f"{key}_breakdown",
    )
    for line in formulas.query_numbers(
        query,
        result.masked_scores[query].tolist(),
        result.weights[query].tolist(),
        result.output[query].tolist(),
    ):
        st.latex(line)


def show_formulas(result: AttentionResult, qkv: QKV, choice: AttentionChoice) -> None:
    """The formula of each step with the current sizes."""
    n, d_q = qkv.queries.shape
    m, d_k = qkv.keys.shape
    extra = {k: float(v) for k, v in result.params.items() if k in ("h", "sigma")}
    steps = [
        (
            "formula.scores",
            formulas.scores(
                choice.score, n=n, m=m, d_q=d_q, d_k=d_k, temperature=choice.temperature, **extra
            ),
        ),
        ("formula.mask", formulas.mask(choice.fill_value)),
        ("formula.softmax", formulas.softmax(m)),
        ("formula.output", formulas.output(n, m, qkv.values.shape[1])),
    ]
    for label_key, latex in steps:
        st.markdown(f"**{t(label_key)}**")
        st.latex(latex)


def show_downloads(result: AttentionResult, qkv: QKV, key: str) -> None:
    """CSV downloads of every matrix of the result."""
    dims = figures.default_labels("v", qkv.values.shape[1])
    q, k = qkv.query_labels, qkv.key_labels
    matrices = [
        ("fig.scores", result.scores, q, k, "scores"),
        ("fig.masked_scores", result.masked_scores, q, k, "masked_scores"),
        ("fig.weights", result.weights, q, k, "weights"),
        ("fig.output", result.output, q, dims, "output"),
    ]
    for column, (label_key, matrix, rows, cols, name) in zip(
        st.columns(len(matrices)), matrices, strict=True
    ):
        with column:
            csv_download(t(label_key), matrix, rows, cols, key=f"{key}_{name}")


TINY_TEMPERATURE = "home_temperature"
# The landing page's one setting in a link (ui.links), with the slider's bounds.
HOME_LINK: tuple[links.Param, ...] = (links.float_param("T", TINY_TEMPERATURE, 1.0, 0.05, 5.0),)


def tiny_example() -> tuple[AttentionResult, QKV]:
    """The landing page's live example: the small preset with a temperature slider."""
    preset = PRESETS["small"]
    qkv = QKV(
        parsing.parse_matrix(preset.queries),
        parsing.parse_matrix(preset.keys),
        parsing.parse_matrix(preset.values),
        figures.default_labels("q", 3),
        figures.default_labels("k", 4),
    )
    init_state(TINY_TEMPERATURE, 1.0)
    temperature = st.slider(
        t("controls.temperature"),
        0.05,
        5.0,
        step=0.05,
        key=TINY_TEMPERATURE,
        help=t("controls.temperature.help"),
    )
    return attend(qkv.queries, qkv.keys, qkv.values, temperature=temperature), qkv
