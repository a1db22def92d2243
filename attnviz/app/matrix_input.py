"""The matrix-input widget group: queries, keys and values from a preset, typed or pasted text,
an editable grid, a CSV / .npy upload, or seeded random matrices.

What was typed stays in the session state under TEXTS (the widgets' keys), so a matrix that
does not parse keeps its text and shows its error; a grid edit or an upload rewrites that text.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pandas as pd
import streamlit as st
import torch

from attnviz import parsing
from attnviz.app import cache, controls
from attnviz.app.feedback import Note, show_error, show_note
from attnviz.app.state import bump, init_state
from attnviz.i18n import t
from attnviz.inputs import DEFAULT_PRESET, PRESETS, QKV, Preset, random_qkv

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
MATRICES = ("queries", "keys", "values")
GRID_LIMIT = 24  # the grid editor shows matrices up to this many rows and columns
RANDOM_MAX_ROWS = 2048
RANDOM_MAX_DIM = 256
RANDOM_DEFAULTS = {"n": 6, "m": 8, "d_q": 4, "d_k": 4, "d_v": 3, "seed": 0}
_DEFAULT = PRESETS[DEFAULT_PRESET]
# Every input setting, for the widgets and for a page's link.
SIZES = {
    name: controls.int_control(
        link,
        RANDOM[name],
        RANDOM_DEFAULTS[name],
        1,
        RANDOM_MAX_ROWS if name in ("n", "m") else RANDOM_MAX_DIM,
    )
    for name, link in (("n", "n"), ("m", "m"), ("d_q", "dq"), ("d_k", "dk"), ("d_v", "dv"))
}
SEED = controls.seed_control("seed", RANDOM["seed"], RANDOM_DEFAULTS["seed"])
SOURCE_CONTROL = controls.choice_control("src", SOURCE, "edit", tuple(SOURCE_LABELS))
PRESET_CONTROL = controls.choice_control("preset", PRESET, DEFAULT_PRESET, tuple(PRESETS))
SELF_CONTROL = controls.bool_control("self", SELF_ATTENTION, not _DEFAULT.keys)
TEXT_CONTROLS = {
    name: controls.text_control(link, TEXTS[name], getattr(_DEFAULT, name))
    for name, link in (("queries", "Q"), ("keys", "K"), ("values", "V"))
}
CONTROLS: tuple[controls.Control, ...] = (
    SOURCE_CONTROL,
    PRESET_CONTROL,
    SELF_CONTROL,
    *TEXT_CONTROLS.values(),
    *SIZES.values(),
    SEED,
)

# What a page does beside loading a preset's matrices (the Playground sets its valid lengths).
OnPreset = Callable[[Preset], None]


def _load_preset(name: str, on_preset: OnPreset | None) -> None:
    preset = PRESETS[name]
    for matrix in MATRICES:
        st.session_state[TEXTS[matrix]] = getattr(preset, matrix)
    st.session_state[SELF_ATTENTION] = not preset.keys
    if on_preset is not None:
        on_preset(preset)
    bump(GRID_VERSION)


def reset_inputs(on_preset: OnPreset | None = None, also: tuple[str, ...] = ()) -> None:
    """Back to the default preset and sizes, and the settings under the keys `also` back to
    their defaults (a button callback)."""
    for key in [SOURCE, PRESET, *RANDOM.values(), *also]:
        st.session_state.pop(key, None)
    _load_preset(DEFAULT_PRESET, on_preset)


def _new_seed() -> None:
    st.session_state[RANDOM["seed"]] = random.randrange(100_000)


@cache.results(max_entries=8)
def random_inputs(
    n: int, m: int, d_q: int, d_k: int, d_v: int, seed: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Seeded N(0, 1) queries (n, d_q), keys (m, d_k), values (m, d_v)."""
    return random_qkv(n, m, d_q, d_k, d_v, seed)


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
    notes: dict[str, Note] = dict(st.session_state.get(UPLOAD_NOTES, {}))
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


def _matrix_editor(name: str) -> torch.Tensor:
    """One matrix: a text box (paste or type) and, for small ones, an editable grid."""
    text = controls.text_input(
        TEXT_CONTROLS[name],
        t(MATRIX_LABELS[name]),
        help=t("input.text_help"),
        area=140,
        on_change=bump,
        args=(GRID_VERSION,),
    )
    matrix = parsing.parse_matrix(text)
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


def _top_row(on_preset: OnPreset | None, reset_keys: tuple[str, ...]) -> tuple[str, bool]:
    """The source of the matrices, the self-attention switch and the reset button."""
    top = st.columns([3, 2, 1])
    source = controls.select(
        SOURCE_CONTROL,
        t("input.source"),
        lambda s: t(SOURCE_LABELS[s]),
        where=top[0],
        widget="segmented",
    )
    self_attention = controls.toggle(
        SELF_CONTROL, t("input.self_attention"), where=top[1], help=t("input.self_attention.help")
    )
    top[2].button(
        t("input.reset"), key="qkv_reset", on_click=reset_inputs, args=(on_preset, reset_keys)
    )
    return str(source), self_attention


def _preset_row(on_preset: OnPreset | None) -> None:
    row = st.columns([3, 1, 2])
    preset = controls.select(
        PRESET_CONTROL, t("input.preset"), lambda p: t(PRESETS[p].label), where=row[0]
    )
    chosen = PRESETS[str(preset)]
    held = [getattr(chosen, m) for m in MATRICES if getattr(chosen, m) is not None]
    typed = [st.session_state.get(TEXTS[m]) for m in MATRICES if getattr(chosen, m) is not None]
    if held != typed:  # the box names what Load would bring, not what the boxes hold
        row[0].caption(t("input.preset.other"))
    row[1].button(
        t("input.preset.apply"),
        key="qkv_preset_apply",
        on_click=_load_preset,
        args=(preset, on_preset),
    )
    row[2].toggle(t("input.grid"), key=GRID_TOGGLE, persist_state="session")


def _typed_group(shown: tuple[str, ...]) -> dict[str, torch.Tensor] | None:
    """The matrices as typed; None (errors shown under each) when one does not parse."""
    tensors = {}
    for column, name in zip(st.columns(len(shown)), shown, strict=True):
        with column:
            try:
                tensors[name] = _matrix_editor(name)
            except parsing.InputError as err:
                show_error(err, what=t(MATRIX_LABELS[name]))
    return tensors if len(tensors) == len(shown) else None


def qkv_input(
    on_preset: OnPreset | None = None, reset_keys: tuple[str, ...] = (), *, presets: bool = True
) -> QKV | None:
    """The matrix-input group: presets (unless `presets` is False), text / grid, upload or
    seeded random Q, K, V.

    None when what was typed does not parse: the error is shown under that matrix and the
    text stays as typed. `on_preset` runs when a preset is loaded (or the inputs reset); the
    reset button also returns the page's settings under `reset_keys` to their defaults.
    """
    # Every input setting from the start, drawn or not: a link may have set some already.
    for control in CONTROLS:
        init_state(control.key, control.default)
    with st.expander(t("input.heading"), expanded=True):
        source, self_attention = _top_row(on_preset, reset_keys)
        shown = ("queries",) if self_attention else MATRICES
        if source == "random":
            queries, keys, values = _random_group(self_attention)
        else:
            if source == "upload":
                _upload_group(shown)
            elif presets:
                _preset_row(on_preset)
            tensors = _typed_group(shown)
            if tensors is None:
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
    return QKV.numbered(queries, keys, values)


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
        show_note(notes.get(name), column)


def _random_group(self_attention: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    names = ["n", "d_q"] if self_attention else ["n", "m", "d_q", "d_k", "d_v"]
    columns = st.columns(len(names) + 2)
    values = {
        name: int(controls.number(SIZES[name], t(SIZE_LABELS[name]), where=column))
        for column, name in zip(columns, names, strict=False)
    }
    seed = int(controls.number(SEED, t("input.seed"), where=columns[-2]))
    columns[-1].button(t("input.new_seed"), key="qkv_new_seed", on_click=_new_seed)
    n, d_q = values["n"], values["d_q"]
    if self_attention:
        queries, _, _ = random_inputs(n, n, d_q, d_q, 1, seed)
        st.caption(t("input.random_note", seed=seed, n=n, m=n))
        return queries, queries, queries
    m, d_k, d_v = values["m"], values["d_k"], values["d_v"]
    st.caption(t("input.random_note", seed=seed, n=n, m=m))
    return random_inputs(n, m, d_q, d_k, d_v, seed)
