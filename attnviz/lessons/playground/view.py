"""The Playground below its title: inputs, the sidebar's scoring function and masks, every step
as a heatmap (click a cell to inspect it), one query's breakdown, the formulas, downloads."""

from __future__ import annotations

import dataclasses
import functools
import json
from typing import Any
from urllib.parse import parse_qsl

import streamlit as st

from attnviz.app import controls, links
from attnviz.app import matrix_input as inputs
from attnviz.app.cells import cells_grid
from attnviz.app.feedback import show_error
from attnviz.app.plot import csv_downloads, plot
from attnviz.app.selection import store_panel_click
from attnviz.app.state import bump, init_state
from attnviz.attention import (
    FILL_VALUES,
    SCORE_FUNCTIONS,
    SCORES,
    AttentionResult,
    fill_label,
    row_check,
)
from attnviz.figures import formulas
from attnviz.figures.breakdown import query_breakdown
from attnviz.figures.labels import default_labels, escape_label
from attnviz.figures.matrix import NUMBERS_LIMIT, SELECT_CELL_LIMIT
from attnviz.figures.panels import panel_cells
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.inputs import QKV, Preset
from attnviz.lessons import lessons
from attnviz.lessons.playground import figures
from attnviz.lessons.playground.compute import AttentionChoice, compute
from attnviz.parsing import format_matrix

SCORE_LABELS = {name: f.label for name, f in SCORE_FUNCTIONS.items()}  # catalogue keys
CELLS_LIMIT = 16  # hand-picked cells for matrices up to this many rows and columns
CELLS = "mask_cells"  # frozenset of (query, key) pairs that are blocked; no widget holds it
CELLS_VERSION = "mask_cells_version"
QUERY = "pg_query"  # the selected query (row)
KEY = "pg_key"  # and key (column), set by a click on a heatmap cell
SCORE = controls.choice_control("score", "attn_score", "scaled_dot", SCORES)
TEMPERATURE = controls.temperature_control("T", "attn_temperature")
SIGMA = controls.float_control("sigma", "attn_sigma", 1.0, 0.1, 5.0, step=0.1)
HIDDEN = controls.int_control("h", "attn_hidden", 8, 1, 256)
PARAM_SEED = controls.seed_control("pseed", "attn_param_seed")
VALID_LENS = controls.text_control("lens", "mask_valid_lens", "", max_chars=200)
CAUSAL = controls.bool_control("causal", "mask_causal")
CELLS_ON = controls.bool_control("cells_on", "mask_cells_on")
FILL = controls.choice_control("fill", "mask_fill", FILL_VALUES["-1e6"], FILL_VALUES)
SHOW_MASKED = controls.bool_control("shown", "mask_show_values", default=True)
# The selected cell's bounds are the largest inputs'; a smaller input starts at query 0.
# The page that opened these matrices and its link, as "pages/N_Name.py?name=value&...": the
# Model attention page's neuron view sends a head here and takes the output back.
BACK = controls.text_control("back", "pg_back", "", max_chars=4000)
BACK_EDIT, BACK_AT = "edit", "edit_at"  # the names that page reads the edit and its head by
# The head's query and key tokens, [[...], [...]] as JSON: the axes' labels while the matrices
# keep the head's shape.
TOKENS = controls.text_control("tokens", "pg_tokens", "", max_chars=4000)
QUERY_CONTROL = controls.int_control("q", QUERY, 0, 0, inputs.RANDOM_MAX_ROWS - 1)
KEY_CONTROL = controls.int_control("k", KEY, 0, 0, inputs.RANDOM_MAX_ROWS - 1)
LINK: tuple[controls.Control, ...] = (
    *inputs.CONTROLS,
    SCORE,
    TEMPERATURE,
    SIGMA,
    HIDDEN,
    PARAM_SEED,
    VALID_LENS,
    CAUSAL,
    CELLS_ON,
    controls.cells_control("cells", CELLS),
    FILL,
    SHOW_MASKED,
    QUERY_CONTROL,
    KEY_CONTROL,
    BACK,
    TOKENS,
)
# The steps' chart key: one figure of panels (`figures.steps_figure`). PANELS: each matrix's
# chart and panel.
STEPS_CHART = "pg_steps"
PANELS = {
    f"pg_{name}": (STEPS_CHART, i)
    for i, name in enumerate(figures.ATTENTION_STEPS + figures.VECTOR_STEPS)
}


def _preset_masks(preset: Preset) -> None:
    """A preset brings its valid lengths and clears the hand-picked cells."""
    st.session_state[VALID_LENS.key] = preset.valid_lens
    st.session_state[CELLS] = frozenset()
    bump(CELLS_VERSION)


def _score_params(score: str) -> dict[str, Any]:
    """The chosen scoring function's own controls: sigma, hidden size, the parameters' seed."""
    params: dict[str, Any] = {}
    asks = SCORE_FUNCTIONS[score].params
    if "sigma" in asks:
        params["sigma"] = controls.slider(SIGMA, t("controls.sigma"))
    if "h" in asks:
        params["h"] = controls.number(HIDDEN, t("controls.hidden"))
    if "seed" in asks:
        params["seed"] = controls.number(
            PARAM_SEED, t("controls.param_seed"), help=t("controls.param_seed.help")
        )
    return params


def attention_controls(n: int, m: int) -> AttentionChoice:
    """Sidebar: scoring function, its parameters, temperature and masks."""
    with st.sidebar:
        st.subheader(t("controls.heading"))
        score = controls.select(SCORE, t("controls.score"), lambda s: t(SCORE_LABELS[s]))
        params = _score_params(str(score))
        temperature = controls.slider(
            TEMPERATURE, t("controls.temperature"), help=t("controls.temperature.help")
        )
        st.subheader(t("controls.masks"))
        valid_lens_text = controls.text_input(
            VALID_LENS, t("controls.valid_lens"), help=t("controls.valid_lens.help")
        )
        causal = controls.toggle(CAUSAL, t("controls.causal"))
        blocked = _cells_group(n, m)
        fill_value = controls.select(
            FILL, t("controls.fill"), fill_label, help=t("controls.fill.help")
        )
        controls.toggle(SHOW_MASKED, t("controls.show_masked"), help=t("controls.show_masked.help"))
    return AttentionChoice(
        score=str(score),
        temperature=float(temperature),
        params=params,
        fill_value=float(fill_value),
        causal=causal,
        valid_lens_text=valid_lens_text,
        blocked=blocked,
    )


def _cells_group(n: int, m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked cells: a grid of checkboxes, ticked = may attend."""
    init_state(CELLS, frozenset())
    if not controls.toggle(CELLS_ON, t("controls.cells")):
        return frozenset()
    if min(n, m) == 0:  # no inputs to pick cells of (they did not parse)
        return frozenset()
    if max(n, m) > CELLS_LIMIT:
        st.caption(t("controls.cells_too_big", limit=CELLS_LIMIT))
        return frozenset()
    blocked = cells_grid(CELLS, CELLS_VERSION, n, m)
    st.caption(t("controls.cells.help"))
    return blocked


def show_row_check(result: AttentionResult, fill_value: float) -> None:
    """The check that every row with an allowed key sums to 1, and a word on fully masked rows."""
    deviation, fully_masked = row_check(result)
    if deviation < 1e-5:
        st.success(t("playground.rows_ok", dev=f"{deviation:.1e}"), icon=":material/check:")
    else:
        st.warning(t("playground.rows_bad", dev=f"{deviation:.1e}"))
    if fully_masked:
        zeros = fill_value == float("-inf")
        what = t("playground.fully_masked.zeros" if zeros else "playground.fully_masked.uniform")
        st.info(
            t("playground.fully_masked", count=fully_masked, fill=fill_label(fill_value), what=what)
        )


def show_steps(
    result: AttentionResult, qkv: QKV, selected: tuple[int, int], text: Catalogue
) -> None:
    """Raw scores, masked scores and weights side by side (click a cell of any of them to select
    its query and key, on matrices small enough for click targets; the selected cell is boxed
    and its row framed), values beside outputs below (the key's and the query's rows framed),
    one figure."""
    labels: dict[str, Any] = {
        "query_labels": qkv.query_labels,
        "key_labels": qkv.key_labels,
        "text": text,
        "selected": selected,
    }
    masked_values = bool(st.session_state[SHOW_MASKED.key])
    steps = figures.steps_figure(result, qkv.values, masked_values=masked_values, **labels)
    cells = panel_cells(steps)
    # The panels with click targets are the attention steps: rows the queries, columns the keys.
    pick = functools.partial(store_panel_click, STEPS_CHART, cells, [(QUERY, KEY)] * len(cells))
    plot(steps, key=STEPS_CHART, on_select=pick)
    n, m = result.weights.shape[-2:]
    if max(n, m) > NUMBERS_LIMIT:
        st.caption(t("playground.big_note", limit=NUMBERS_LIMIT))
    small = n * m <= SELECT_CELL_LIMIT
    st.caption(t("playground.click_tip") if small else t("playground.pick_tip"))


def selection(n: int, m: int) -> tuple[int, int]:
    """The selected (query, key), kept in range: it survives reruns that keep the matrix's
    shape, and a new shape starts at (0, 0)."""
    shape_key = f"{QUERY}_shape"
    if st.session_state.get(shape_key, (n, m)) != (n, m):
        st.session_state[QUERY] = st.session_state[KEY] = 0
    st.session_state[shape_key] = (n, m)
    init_state(QUERY, 0)
    init_state(KEY, 0)
    if not 0 <= int(st.session_state[QUERY] or 0) < n:
        st.session_state[QUERY] = 0
    if not 0 <= int(st.session_state[KEY] or 0) < m:
        st.session_state[KEY] = 0
    return int(st.session_state[QUERY] or 0), int(st.session_state[KEY] or 0)


def query_selector(labels: list[str]) -> int:
    """Which query to inspect: a selector (typing filters it), also set by clicking a cell."""
    n = len(labels)
    index = st.selectbox(
        t("playground.breakdown_query"),
        range(n),
        key=QUERY,
        format_func=lambda i: labels[i],
        persist_state="session",
    )
    return min(int(index or 0), n - 1)


def show_selected_cell(result: AttentionResult, qkv: QKV, query: int, col: int) -> None:
    """The exact numbers of the selected cell (query, key), whatever the heatmap's encoding."""
    allowed = result.mask is None or bool(result.mask[query, col])
    st.caption(
        t(
            "playground.selected_cell",
            query=escape_label(qkv.query_labels[query]),
            key_label=escape_label(qkv.key_labels[col]),
            score=f"{float(result.scores[query, col]):.6g}",
            weight=f"{float(result.weights[query, col]):.6g}",
            masked="" if allowed else t("playground.selected_masked"),
        )
    )


def show_breakdown(
    result: AttentionResult, qkv: QKV, query: int, key: int, text: Catalogue
) -> None:
    """The per-query breakdown figure and the formulas with that query's numbers."""
    row_mask = None if result.mask is None else result.mask[query]
    fig = query_breakdown(
        query=query,
        scores=result.scores[query],
        masked_scores=result.masked_scores[query],
        weights=result.weights[query],
        values=qkv.values,
        query_label=qkv.query_labels[query],
        key_labels=qkv.key_labels,
        mask=row_mask,
        selected_key=key,
        text=text,
    )
    plot(fig, key="pg_breakdown")
    for line in formulas.query_numbers(
        query,
        result.scores[query].tolist(),
        result.weights[query].tolist(),
        result.output[query].tolist(),
        masked_row=result.masked_scores[query].tolist(),
    ):
        st.latex(line)


def show_formulas(result: AttentionResult, qkv: QKV, choice: AttentionChoice) -> None:
    """The formula of each step with the current sizes."""
    n, d_q = qkv.queries.shape
    m, d_k = qkv.keys.shape
    extra = {k: float(v) for k, v in result.params.items() if k in ("h", "sigma")}
    scores = formulas.scores(
        choice.score, n=n, m=m, d_q=d_q, d_k=d_k, temperature=choice.temperature, **extra
    )
    steps = [
        ("formula.scores", scores),
        ("formula.mask", formulas.mask(choice.fill_value, catalogue())),
        ("formula.softmax", formulas.softmax(m)),
        ("formula.output", formulas.output(n, m, qkv.values.shape[1])),
    ]
    for label_key, latex in steps:
        st.markdown(f"**{t(label_key)}**")
        st.latex(latex)


def show_downloads(result: AttentionResult, qkv: QKV) -> None:
    """CSV downloads of every matrix of the result."""
    dims = default_labels("v", qkv.values.shape[1])
    q, k = qkv.query_labels, qkv.key_labels
    csv_downloads(
        [
            (t("fig.scores"), result.scores, q, k, "pg_scores"),
            (t("fig.masked_scores"), result.masked_scores, q, k, "pg_masked_scores"),
            (t("fig.weights"), result.weights, q, k, "pg_weights"),
            (t("fig.output"), result.output, q, dims, "pg_output"),
        ]
    )


def back_link() -> tuple[str, dict[str, str]] | None:
    """The page these matrices came from and its link, if a page sent them (a known page only:
    a link may carry anything)."""
    script, _, query = str(st.session_state.get(BACK.key) or "").partition("?")
    if script not in {lesson.script for lesson in lessons()}:
        return None
    return script, dict(parse_qsl(query, keep_blank_values=True))


def _leave_back() -> None:
    st.session_state[BACK.key] = ""
    st.session_state[TOKENS.key] = ""


def head_tokens(qkv: QKV) -> QKV:
    """The inputs labelled with the tokens the model page sent, while the matrices have as many
    rows as it sent tokens (numbered otherwise: an edit changed their shape)."""
    try:
        sent = json.loads(str(st.session_state.get(TOKENS.key) or "null"))
    except ValueError:
        return qkv
    if not (isinstance(sent, list) and len(sent) == 2):
        return qkv
    rows, cols = sent
    shape = (qkv.queries.shape[0], qkv.keys.shape[0])
    if not all(isinstance(x, list) and all(isinstance(s, str) for s in x) for x in sent):
        return qkv
    if (len(rows), len(cols)) != shape:
        return qkv
    return dataclasses.replace(qkv, query_labels=rows, key_labels=cols)


def show_back(back: tuple[str, dict[str, str]]) -> bool:
    """Where the matrices came from, and the way back with the edit: True when pressed."""
    values = back[1]
    layer, _, head = values.get(BACK_AT, "").partition(".")
    with st.container(border=True):
        st.markdown(t("playground.back.from", layer=layer, head=head))
        left, right = st.columns([2, 1])
        pressed = left.button(
            t("playground.back.go"), type="primary", key="pg_back_go", icon=":material/undo:"
        )
        right.button(t("playground.back.leave"), key="pg_back_leave", on_click=_leave_back)
    return bool(pressed)


def show() -> None:
    links.restore_link(LINK, page="playground")
    back = back_link()
    go_back = show_back(back) if back is not None else False
    reset = (VALID_LENS.key, CAUSAL.key, CELLS_ON.key, FILL.key)
    # From a head, the presets would name other matrices than the boxes hold: none are offered
    # until the person leaves the round trip.
    qkv = inputs.qkv_input(on_preset=_preset_masks, reset_keys=reset, presets=back is None)
    if qkv is not None and back is not None:
        qkv = head_tokens(qkv)
    # The sidebar stays while an input is being fixed.
    choice = attention_controls(*inputs.sizes(qkv))
    links.publish_link(LINK)
    if qkv is None:
        return
    try:
        result = compute(qkv, choice, t(SCORE_LABELS[choice.score]))
    except ValueError as err:
        show_error(err)
        return
    if go_back and back is not None:  # the output, as the head's new output, to that page
        edit = {BACK_EDIT: format_matrix(result.output)}
        links.open_page(back[0], {**back[1], **edit})
    text = catalogue()
    show_row_check(result, choice.fill_value)
    st.subheader(t("playground.steps_heading"))
    query, key = selection(len(qkv.query_labels), len(qkv.key_labels))
    show_steps(result, qkv, (query, key), text)
    st.subheader(t("playground.breakdown_heading"))
    query = query_selector(qkv.query_labels)
    show_selected_cell(result, qkv, query, key)
    show_breakdown(result, qkv, query, key, text)
    with st.expander(t("playground.formula_heading"), expanded=True):
        show_formulas(result, qkv, choice)
    st.subheader(t("playground.downloads_heading"))
    show_downloads(result, qkv)
    links.share_panel(LINK, key="pg")
