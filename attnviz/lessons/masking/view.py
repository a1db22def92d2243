"""The masking lesson below its title: the batch and its masks, the formulas, the padded batch
beside one sequence's combined mask, and that sequence's scores, masked scores and weights."""

from __future__ import annotations

import streamlit as st
import torch

from attnviz.app import controls, links
from attnviz.app.cells import cells_grid
from attnviz.app.feedback import show_error
from attnviz.app.plot import plot, plot_row
from attnviz.app.state import init_state
from attnviz.attention import FILL_VALUES, AttentionResult, fill_label, row_check
from attnviz.figures import formulas
from attnviz.i18n import catalogue, t
from attnviz.lessons.masking import figures
from attnviz.lessons.masking.compute import (
    D,
    MaskingChoice,
    combined_mask,
    compute,
    fit_lens_text,
    mask_reasons,
    sequence_result,
)

MAX_BATCH = 6
MAX_LENGTH = 12
DEFAULT_LENS = "4, 6, 2"  # sequence 0, shown first, has padding to mask
CELLS = "mk_cells"  # frozenset of (query, key) pairs that are blocked; no widget holds it
CELLS_VERSION = "mk_cells_version"
BATCH = controls.int_control("b", "mk_batch", 3, 1, MAX_BATCH)
LENGTH = controls.int_control("m", "mk_length", 6, 2, MAX_LENGTH)
SEED = controls.seed_control("seed", "mk_seed")
VALID_LENS = controls.text_control("lens", "mk_valid_lens", DEFAULT_LENS, max_chars=200)
SEQUENCE = controls.int_control("seq", "mk_sequence", 0, 0, MAX_BATCH - 1)
CAUSAL = controls.bool_control("causal", "mk_causal")
FILL = controls.choice_control("fill", "mk_fill", FILL_VALUES["-1e6"], FILL_VALUES)
CELLS_ON = controls.bool_control("cells_on", "mk_cells_on")
SHOW_MASKED = controls.bool_control("shown", "mk_show_values", default=True)
LINK: tuple[controls.Control, ...] = (
    BATCH,
    LENGTH,
    SEED,
    VALID_LENS,
    SEQUENCE,
    CAUSAL,
    FILL,
    CELLS_ON,
    SHOW_MASKED,
    controls.cells_control("cells", CELLS, limit=MAX_LENGTH**2),
)
# Chart keys.
FIG_PADDING = "mk_fig_padding"
FIG_MASK = "mk_fig_mask"
FIG_STEPS = ("mk_fig_scores", "mk_fig_masked", "mk_fig_weights")


def _resize() -> None:
    """After B or m changed: refit the valid lengths and keep the chosen sequence in range."""
    batch, m = int(st.session_state[BATCH.key]), int(st.session_state[LENGTH.key])
    lens = st.session_state.get(VALID_LENS.key, "")
    st.session_state[VALID_LENS.key] = fit_lens_text(lens, batch, m)
    if int(st.session_state.get(SEQUENCE.key, 0)) >= batch:
        st.session_state[SEQUENCE.key] = batch - 1


def choose() -> MaskingChoice:
    """The inputs (B, m, seed, valid lengths) and the masks (sequence, causal, fill, cells)."""
    sizes = st.columns([1, 1, 1, 3])
    batch = int(controls.number(BATCH, t("masking.batch"), where=sizes[0], on_change=_resize))
    m = int(controls.number(LENGTH, t("masking.length"), where=sizes[1], on_change=_resize))
    seed = int(controls.number(SEED, t("masking.seed"), where=sizes[2]))
    help_lens = t("masking.valid_lens.help", batch=batch, m=m)
    lens_text = controls.text_input(
        VALID_LENS, t("masking.valid_lens"), where=sizes[3], help=help_lens
    )
    masks = st.columns([1, 1, 1, 1])
    init_state(SEQUENCE.key, SEQUENCE.default)
    seq = masks[0].selectbox(
        t("masking.sequence"),
        range(batch),
        key=SEQUENCE.key,
        format_func=lambda b: t("masking.sequence.option", seq=b),
        persist_state="session",
    )
    causal = controls.toggle(
        CAUSAL, t("masking.causal"), where=masks[1], help=t("masking.causal.help")
    )
    fill_value = controls.select(
        FILL,
        t("masking.fill"),
        fill_label,
        where=masks[2],
        help=t("masking.fill.help"),
        widget="radio",
    )
    cells_on = controls.toggle(
        CELLS_ON, t("masking.cells"), where=masks[3], help=t("masking.cells.help")
    )
    blocked = _cells_group(m) if cells_on else frozenset()
    return MaskingChoice(
        batch=batch,
        m=m,
        seed=seed,
        lens_text=lens_text,
        seq=min(int(seq or 0), batch - 1),
        causal=causal,
        fill_value=float(fill_value if fill_value is not None else FILL.default),
        blocked=blocked,
    )


def _cells_group(m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked cells, the same for every sequence: a grid of checkboxes, ticked = may attend."""
    with st.expander(t("masking.cells.heading"), expanded=True):
        blocked = cells_grid(CELLS, CELLS_VERSION, m, m)
        st.caption(t("masking.cells.caption"))
    return blocked


def show_formula(choice: MaskingChoice, lens: torch.Tensor) -> None:
    """Scores, the mask, the fill and the softmax with the current sizes and numbers."""
    length = int(lens[choice.seq])
    text = catalogue()
    st.latex(figures.scores_latex(choice.batch, choice.m, D))
    st.latex(figures.mask_latex(length, choice.seq, choice.causal, bool(choice.blocked), text))
    st.latex(formulas.mask(choice.fill_value, text))
    st.latex(formulas.softmax(choice.m))


def show_batch(choice: MaskingChoice, lens: torch.Tensor, result: AttentionResult) -> None:
    """The padded batch beside the chosen sequence's combined mask."""
    text = catalogue()
    reasons = mask_reasons(int(lens[choice.seq]), choice.m, choice.causal, choice.blocked)
    allowed = combined_mask(result, choice.seq)
    left, right = st.columns(2)
    with left:
        plot(figures.padding_figure(lens, choice.m, choice.seq, text), key=FIG_PADDING)
        st.caption(t("masking.padding.caption"))
    with right:
        plot(figures.mask_figure(allowed, reasons, choice.seq, text), key=FIG_MASK)


def show_row_check(choice: MaskingChoice, result: AttentionResult) -> None:
    """Rows sum to 1; a fully masked row is explained, not silently drawn."""
    one = sequence_result(result, choice.seq)
    deviation, fully = row_check(one)
    _, batch_fully = row_check(result)
    if fully == 0:
        ok = t("masking.rows_ok", seq=choice.seq, dev=f"{deviation:.1e}")
        st.success(ok, icon=":material/check:")
    else:
        allowed = combined_mask(result, choice.seq)
        rows = (~allowed.any(dim=-1)).nonzero().flatten().tolist()
        weight = float(one.weights[rows[0], 0])
        what = (
            t("masking.fully.zeros")
            if choice.fill_value == float("-inf")
            else t("masking.fully.uniform", m=choice.m, w=f"{weight:.4g}")
        )
        st.warning(
            t(
                "masking.fully",
                count=fully,
                m=choice.m,
                seq=choice.seq,
                rows=", ".join(f"q{i}" for i in rows),
                fill=fill_label(choice.fill_value),
                what=what,
            ),
            icon=":material/warning:",
        )
    st.caption(t("masking.batch_check", count=batch_fully, batch=choice.batch))


def show_steps(result: AttentionResult, seq: int, length: int) -> None:
    """Raw scores, masked scores and weights of sequence `seq` side by side."""
    shown = controls.toggle(
        SHOW_MASKED, t("masking.show_masked"), help=t("masking.show_masked.help")
    )
    plot_row(figures.step_figures(result, seq, FIG_STEPS, catalogue(), masked_values=shown))
    m = result.weights.shape[-1]
    if m > figures.NUMBERS_LIMIT:
        st.caption(t("masking.hover_note"))
    if 0 < length < m:
        st.caption(t("masking.pad_queries", first=length, last=m - 1))


def show() -> None:
    links.restore_link(LINK, page="masking")
    choice = choose()
    links.publish_link(LINK)
    try:
        lens, result = compute(choice)
    except ValueError as err:
        show_error(err)
        return
    with st.expander(t("masking.formula_heading"), expanded=True):
        show_formula(choice, lens)
    st.subheader(t("masking.batch_heading"))
    show_batch(choice, lens, result)
    st.subheader(t("masking.steps_heading", seq=choice.seq))
    show_row_check(choice, result)
    show_steps(result, choice.seq, int(lens[choice.seq]))
