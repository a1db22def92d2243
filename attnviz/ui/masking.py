"""The masking page: a padded batch, valid lengths, causal and hand-picked masks, the fill value.

Self-attention over a seeded random batch X (B, m, d) with queries = keys = values = X, as in
d2l 11.3's `masked_softmax(X, valid_lens)`: key positions >= valid_len are padding. Pure helpers
(parsing the valid lengths, building inputs and masks) come first and never touch Streamlit,
so tests/test_masking.py runs them against `attend` without a page.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import figures, formulas
from attnviz.attention import AttentionResult, attend, causal_mask, row_check
from attnviz.i18n import t
from attnviz.parsing import InputError
from attnviz.ui import links
from attnviz.ui.base import cells_grid, init_state, plot

# Widget and session-state keys (the page prefix is "mk_").
BATCH = "mk_batch"
LENGTH = "mk_length"
SEED = "mk_seed"
VALID_LENS = "mk_valid_lens"
SEQUENCE = "mk_sequence"
CAUSAL = "mk_causal"
FILL = "mk_fill"
CELLS_ON = "mk_cells_on"
CELLS = "mk_cells"  # frozenset of (query, key) pairs that are blocked; no widget holds it
CELLS_VERSION = "mk_cells_version"
# Chart keys.
FIG_PADDING = "mk_fig_padding"
FIG_MASK = "mk_fig_mask"
FIG_SCORES = "mk_fig_scores"
FIG_MASKED = "mk_fig_masked"
FIG_WEIGHTS = "mk_fig_weights"

# Numbers in the cells of the three-across heatmaps up to this many keys ("-0.4", ".96" fit).
SCORE_NUMBERS_LIMIT = 8
WEIGHT_NUMBERS_LIMIT = 8
D = 4  # feature size of the random tokens: small, so the scores stay readable
MAX_BATCH = 6
MAX_LENGTH = 12
DEFAULTS: dict[str, int] = {BATCH: 3, LENGTH: 6, SEED: 0}
DEFAULT_LENS = "4, 6, 2"  # sequence 0, shown first, has padding to mask
FILL_VALUES: tuple[float, ...] = (-1e6, -1e9, -math.inf)
FILL_LABELS: dict[float, str] = {-1e6: "-1e6", -1e9: "-1e9", -math.inf: "-inf"}
# The page's settings in a link (ui.links): short names, the widgets' bounds.
MASKING_LINK: tuple[links.Param, ...] = (
    links.int_param("b", BATCH, DEFAULTS[BATCH], 1, MAX_BATCH),
    links.int_param("m", LENGTH, DEFAULTS[LENGTH], 2, MAX_LENGTH),
    links.int_param("seed", SEED, DEFAULTS[SEED], 0, 2**31 - 1),
    links.text_param("lens", VALID_LENS, DEFAULT_LENS, max_chars=200),
    links.int_param("seq", SEQUENCE, 0, 0, MAX_BATCH - 1),
    links.bool_param("causal", CAUSAL),
    links.choice_param("fill", FILL, FILL_VALUES[0], {v: k for k, v in FILL_LABELS.items()}),
    links.bool_param("cells_on", CELLS_ON),
    links.cells_param("cells", CELLS, limit=MAX_LENGTH**2),
)

_WHOLE_NUMBER = re.compile(r"[0-9]+")
_SEPARATOR = re.compile(r"\s*,\s*|\s+")
_SHOWN_CHARS = 30


# --- pure helpers (no Streamlit) ---


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


def parse_lens(text: str, batch: int, m: int) -> torch.Tensor:
    """One valid length per sequence, e.g. "4, 6, 2", as an int64 tensor (B,); InputError if not."""
    stripped = text.strip()
    tokens = _SEPARATOR.split(stripped) if stripped else []
    if len(tokens) != batch:
        raise InputError(
            "masking_lens_count", value=_shown(stripped), found=len(tokens), batch=batch, m=m
        )
    lens = []
    for position, token in enumerate(tokens):
        # The digit cap keeps int() away from a 5,000-digit token, which Python refuses.
        if not _WHOLE_NUMBER.fullmatch(token) or len(token.lstrip("0")) > len(str(m)):
            raise InputError("masking_lens_value", value=_shown(token), seq=position, m=m)
        length = int(token)
        if length > m:
            raise InputError("masking_lens_value", value=_shown(token), seq=position, m=m)
        lens.append(length)
    return torch.tensor(lens, dtype=torch.int64)  # (B,)


def fit_lens_text(text: str, batch: int, m: int) -> str:
    """The valid lengths for a new B or m: numbers kept (capped at m), new sequences full."""
    kept = []
    for token in _SEPARATOR.split(text.strip())[:batch]:
        ok = _WHOLE_NUMBER.fullmatch(token) and len(token) <= 6
        kept.append(min(int(token), m) if ok else m)
    kept += [m] * (batch - len(kept))
    return ", ".join(str(length) for length in kept)


def batch_inputs(batch: int, m: int, seed: int, d: int = D) -> torch.Tensor:
    """Seeded N(0, 1) tokens X (B, m, d): every position holds numbers, padding included."""
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(batch, m, d, generator=gen)  # (B, m, d)


def build_mask(m: int, causal: bool, blocked: frozenset[tuple[int, int]]) -> torch.Tensor | None:
    """The causal and hand-picked masks as one bool (m, m) mask shared by the batch."""
    mask = causal_mask(m) if causal else None  # (m, m)
    if blocked:
        cells = torch.ones(m, m, dtype=torch.bool)  # (m, m)
        for i, j in blocked:
            cells[i, j] = False
        mask = cells if mask is None else mask & cells
    return mask


def compute(
    inputs: torch.Tensor, lens: torch.Tensor, mask: torch.Tensor | None, fill_value: float
) -> AttentionResult:
    """Masked self-attention over the whole padded batch, in one `attend` call."""
    return attend(inputs, inputs, inputs, valid_lens=lens, mask=mask, fill_value=fill_value)


def combined_mask(result: AttentionResult, seq: int) -> torch.Tensor:
    """The mask that `attend` used for sequence `seq` (m, m), True = may attend."""
    m = result.weights.shape[-1]
    if result.mask is None:
        return torch.ones(m, m, dtype=torch.bool)
    return result.mask[seq]  # (m, m)


def mask_reasons(
    length: int, m: int, causal: bool, blocked: frozenset[tuple[int, int]]
) -> npt.NDArray[np.object_]:
    """Per cell (m, m): "" where the query may attend, else why it is masked."""
    reasons = np.full((m, m), "", dtype=object)
    for i in range(m):
        for j in range(m):
            why = []
            if j >= length:
                why.append(t("masking.reason.padding"))
            if causal and j > i:
                why.append(t("masking.reason.causal"))
            if (i, j) in blocked:
                why.append(t("masking.reason.cell"))
            reasons[i, j] = ", ".join(why)
    return reasons


def sequence_result(result: AttentionResult, seq: int) -> AttentionResult:
    """One sequence of a batched result, so `row_check` speaks about that sequence alone."""
    return AttentionResult(
        result.scores[seq],
        result.masked_scores[seq],
        result.weights[seq],
        result.output[seq],
        result.params,
        None if result.mask is None else result.mask[seq],
    )


def fill_label(fill_value: float) -> str:
    return FILL_LABELS.get(fill_value, f"{fill_value:g}")


def mask_latex(length: int, seq: int, causal: bool, cells: bool) -> str:
    """M_ij as the AND of the masks that are on, with sequence `seq`'s valid length."""
    parts = [rf"[\,j < \ell_{{{seq}}}\,]"]
    if causal:
        parts.append(r"[\,j \le i\,]")
    if cells:
        parts.append(r"C_{ij}")
    return (
        r"M_{ij} = " + r" \wedge ".join(parts) + rf",\qquad \ell_{{{seq}}} = {length}"
        rf"\quad (\text{{{t('masking.formula.true')}}})"
    )


def scores_latex(batch: int, m: int, d: int) -> str:
    return (
        rf"X \in \mathbb{{R}}^{{{batch} \times {m} \times {d}}},\quad Q = K = V = X,\qquad "
        rf"s_{{ij}} = \frac{{q_i^\top k_j}}{{\sqrt{{d}}}},\quad \sqrt{{d}} = "
        rf"{formulas.number(math.sqrt(d))}"
    )


# --- Streamlit ---


@dataclass(frozen=True)
class MaskingChoice:
    """What the controls say: sizes, seed, the typed valid lengths, masks and fill value."""

    batch: int
    m: int
    seed: int
    lens_text: str
    seq: int
    causal: bool
    fill_value: float
    blocked: frozenset[tuple[int, int]]


def _init() -> None:
    for key, value in DEFAULTS.items():
        init_state(key, value)
    init_state(VALID_LENS, DEFAULT_LENS)
    init_state(CELLS, frozenset())


def _resize() -> None:
    """After B or m changed: refit the valid lengths and keep the chosen sequence in range."""
    batch, m = int(st.session_state[BATCH]), int(st.session_state[LENGTH])
    st.session_state[VALID_LENS] = fit_lens_text(st.session_state.get(VALID_LENS, ""), batch, m)
    if int(st.session_state.get(SEQUENCE, 0)) >= batch:
        st.session_state[SEQUENCE] = batch - 1


def controls() -> MaskingChoice:
    """The inputs (B, m, seed, valid lengths) and the masks (sequence, causal, fill, cells)."""
    _init()
    sizes = st.columns([1, 1, 1, 3])
    batch = sizes[0].number_input(
        t("masking.batch"),
        1,
        MAX_BATCH,
        step=1,
        key=BATCH,
        on_change=_resize,
        persist_state="session",
    )
    m = sizes[1].number_input(
        t("masking.length"),
        2,
        MAX_LENGTH,
        step=1,
        key=LENGTH,
        on_change=_resize,
        persist_state="session",
    )
    seed = sizes[2].number_input(
        t("masking.seed"), 0, 2**31 - 1, step=1, key=SEED, persist_state="session"
    )
    lens_text = sizes[3].text_input(
        t("masking.valid_lens"),
        key=VALID_LENS,
        help=t("masking.valid_lens.help", batch=batch, m=m),
        persist_state="session",
    )
    masks = st.columns([1, 1, 1, 1])
    seq = masks[0].selectbox(
        t("masking.sequence"),
        range(int(batch)),
        key=SEQUENCE,
        format_func=lambda b: t("masking.sequence.option", seq=b),
        persist_state="session",
    )
    causal = masks[1].toggle(
        t("masking.causal"), key=CAUSAL, help=t("masking.causal.help"), persist_state="session"
    )
    fill_value = masks[2].radio(
        t("masking.fill"),
        FILL_VALUES,
        key=FILL,
        format_func=fill_label,
        horizontal=True,
        help=t("masking.fill.help"),
        persist_state="session",
    )
    cells_on = masks[3].toggle(
        t("masking.cells"), key=CELLS_ON, help=t("masking.cells.help"), persist_state="session"
    )
    blocked = _cells_group(int(m)) if cells_on else frozenset()
    return MaskingChoice(
        batch=int(batch),
        m=int(m),
        seed=int(seed),
        lens_text=lens_text or "",
        seq=min(int(seq or 0), int(batch) - 1),
        causal=bool(causal),
        fill_value=float(fill_value if fill_value is not None else FILL_VALUES[0]),
        blocked=blocked,
    )


def _cells_group(m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked cells, the same for every sequence: a grid of checkboxes, ticked = may attend."""
    with st.expander(t("masking.cells.heading"), expanded=True):
        blocked = cells_grid(CELLS, CELLS_VERSION, m, m)
        st.caption(t("masking.cells.caption"))
    return blocked


def compute_choice(choice: MaskingChoice) -> tuple[torch.Tensor, AttentionResult]:
    """The typed valid lengths and the batch's result; InputError / ValueError for the page."""
    lens = parse_lens(choice.lens_text, choice.batch, choice.m)  # (B,)
    inputs = batch_inputs(choice.batch, choice.m, choice.seed)  # (B, m, d)
    mask = build_mask(choice.m, choice.causal, choice.blocked)  # (m, m) or None
    return lens, compute(inputs, lens, mask, choice.fill_value)


def show_formula(choice: MaskingChoice, lens: torch.Tensor) -> None:
    """Scores, the mask, the fill and the softmax with the current sizes and numbers."""
    length = int(lens[choice.seq])
    st.latex(scores_latex(choice.batch, choice.m, D))
    st.latex(mask_latex(length, choice.seq, choice.causal, bool(choice.blocked)))
    st.latex(formulas.mask(choice.fill_value))
    st.latex(formulas.softmax(choice.m))


def _relabel(fig: go.Figure, texts: npt.NDArray[Any]) -> go.Figure:
    """Replace a heatmap's hover with `texts` (already escaped)."""
    fig.data[0].customdata = texts
    return fig


def padding_figure(lens: torch.Tensor, m: int, seq: int) -> go.Figure:
    """The batch (B, m): real tokens (1) and padding (0), the chosen sequence framed."""
    batch = lens.shape[0]
    tokens = (torch.arange(m) < lens[:, None]).numpy()  # (B, m)
    rows = [t("masking.fig.seq_label", seq=b) for b in range(batch)]
    fig = figures.heatmap(
        tokens.astype(float),
        title=t("masking.fig.padding"),
        kind="weights",
        row_labels=rows,
        col_labels=[str(j) for j in range(m)],
        x_title=t("masking.fig.positions"),
        y_title=t("masking.fig.sequences"),
        show_numbers=False,
    )
    word = np.where(tokens, t("masking.fig.token"), t("masking.fig.pad"))
    head = np.array([[f"{r}, {t('masking.fig.position')} {j}" for j in range(m)] for r in rows])
    _relabel(fig, np.char.add(np.char.add(head.astype(str), "<br>"), word.astype(str)))
    fig.data[0].text = np.where(tokens, "", t("masking.fig.pad"))
    fig.data[0].texttemplate = "%{text}"
    fig.data[0].showscale = False
    fig.add_shape(
        type="rect",
        x0=-0.5,
        x1=m - 0.5,
        y0=seq - 0.5,
        y1=seq + 0.5,
        line={"color": "#d62728", "width": 3},
    )
    return fig.update_layout(height=int(min(420, 170 + 40 * batch)))


def mask_figure(allowed: torch.Tensor, reasons: npt.NDArray[np.object_], seq: int) -> go.Figure:
    """The combined mask of one sequence as a 0/1 grid; hover says why a cell is masked."""
    m = allowed.shape[0]
    fig = figures.heatmap(
        allowed.float(), title=t("masking.fig.mask", seq=seq), kind="weights", show_numbers=True
    )
    texts = np.empty((m, m), dtype=object)
    for i in range(m):
        for j in range(m):
            state = (
                t("masking.fig.may_attend")
                if allowed[i, j]
                else f"{t('fig.masked')} ({reasons[i, j]})"
            )
            texts[i, j] = figures.escape_label(
                f"{t('fig.hover.query')} q{i}, {t('fig.hover.key')} k{j}: {state}"
            )
    _relabel(fig, texts)
    fig.data[0].showscale = False
    return fig


def step_figures(result: AttentionResult, seq: int) -> dict[str, go.Figure]:
    """Raw scores (nothing hidden), masked scores and weights (masked cells as × gaps)."""
    one = sequence_result(result, seq)
    allowed = combined_mask(result, seq)
    m = allowed.shape[-1]
    hover = {
        t("masking.hover.raw"): one.scores,
        t("masking.hover.masked"): one.masked_scores,
        t("fig.hover.weight"): one.weights,
    }
    numbers = m <= SCORE_NUMBERS_LIMIT
    figs = {
        FIG_SCORES: figures.heatmap(
            one.scores, title=t("fig.scores"), kind="scores", hover=hover, show_numbers=numbers
        ),
        FIG_MASKED: figures.heatmap(
            one.masked_scores,
            title=t("fig.masked_scores"),
            kind="scores",
            mask=allowed,
            hover=hover,
            show_numbers=numbers,
        ),
        FIG_WEIGHTS: figures.heatmap(
            one.weights,
            title=t("fig.weights"),
            kind="weights",
            mask=allowed,
            hover=hover,
            show_numbers=m <= WEIGHT_NUMBERS_LIMIT,
        ),
    }
    if numbers:
        # One decimal ("-0.4", not "-0.38"): three across leave about 35 px a cell; hover has 4.
        for key, matrix, shown in (
            (FIG_SCORES, one.scores, None),
            (FIG_MASKED, one.scores, allowed),
        ):
            text = np.vectorize(lambda v: f"{v:.1f}", otypes=[object])(matrix.numpy())
            figs[key].data[0].text = text if shown is None else np.where(shown.numpy(), text, "")
    for fig in figs.values():
        fig.update_traces(colorbar={"thickness": 12, "xpad": 4}, selector={"type": "heatmap"})
    return figs


def show_batch(choice: MaskingChoice, lens: torch.Tensor, result: AttentionResult) -> None:
    """The padded batch beside the chosen sequence's combined mask."""
    reasons = mask_reasons(int(lens[choice.seq]), choice.m, choice.causal, choice.blocked)
    left, right = st.columns(2)
    with left:
        plot(padding_figure(lens, choice.m, choice.seq), key=FIG_PADDING)
        st.caption(t("masking.padding.caption"))
    with right:
        plot(mask_figure(combined_mask(result, choice.seq), reasons, choice.seq), key=FIG_MASK)


def show_row_check(choice: MaskingChoice, result: AttentionResult) -> None:
    """Rows sum to 1; a fully masked row is explained, not silently drawn."""
    one = sequence_result(result, choice.seq)
    deviation, fully = row_check(one)
    _, batch_fully = row_check(result)
    if fully == 0:
        st.success(
            t("masking.rows_ok", seq=choice.seq, dev=f"{deviation:.1e}"), icon=":material/check:"
        )
    else:
        allowed = combined_mask(result, choice.seq)
        rows = (~allowed.any(dim=-1)).nonzero().flatten().tolist()
        weight = float(one.weights[rows[0], 0])
        what = (
            t("masking.fully.zeros")
            if choice.fill_value == -math.inf
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
    figs = step_figures(result, seq)
    for column, key in zip(st.columns(3), figs, strict=True):
        with column:
            plot(figs[key], key=key)
    m = result.weights.shape[-1]
    if m > SCORE_NUMBERS_LIMIT:
        st.caption(t("masking.hover_note"))
    if 0 < length < m:
        st.caption(t("masking.pad_queries", first=length, last=m - 1))
