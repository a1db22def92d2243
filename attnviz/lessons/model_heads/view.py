"""The Model attention page's heads view: the chosen head beside its layer's average and drawn as
bertviz's head view, a causal language model's next tokens, and every layer and head as a thumbnail
(click one to enlarge it); and the attention sinks: each head's share of attention on the first
token beside the residual stream's norm there and elsewhere."""

from __future__ import annotations

import functools

import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz.app import cache
from attnviz.app.feedback import markdown_literal
from attnviz.app.plot import plot, plot_row
from attnviz.app.selection import selected_cell, selected_head, store_click
from attnviz.figures.lines import head_lines
from attnviz.figures.model import head_figures, head_values, model_view
from attnviz.head_stats import sink_share
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.model.compute import (
    LINES_ABOVE,
    LINES_PER_TOKEN,
    next_token_rows,
    specials_share,
    stack_attention,
    strongest_lines,
)
from attnviz.lessons.model.figures import next_token_bars, residual_norms_figure
from attnviz.lessons.model_controls.view import HEAD, LAYER, QUERY, ModelChoice, query_of
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.views import attention_view, renormalise, view_positions
from attnviz.transformer.words import word_groups, word_labels

GRID = "view_grid"
HEAD_CHART = "view_head"
CLICKED_KEY = "model_clicked_key"  # store_click writes a cell as (row, column): the column here
LINES_CHART = "view_lines"
LINES_TOKEN, LINES_SIDE = "model_lines_token", "model_lines_side"  # a clicked token of the lines
LINES_MAX = 256  # tokens the head view draws at most


@cache.figures
def grid_figure(
    key: tuple[object, ...], view: tuple[bool, bool, str, bool], text: Catalogue,
    _attn: torch.Tensor,
) -> go.Figure:  # fmt: skip
    """The model view, cached on what `_attn` was made from. It does not frame the chosen head:
    the same figure is sent again, and Chromium keeps the drawn one (a changed one, even a
    frame, is drawn anew)."""
    return model_view(_attn, text, selectable=True)


def show_heads(
    attn: torch.Tensor, rows: list[str], cols: list[str], choice: ModelChoice, positions: list[int]
) -> None:
    """The chosen head (click a cell to pick its row's token, at `positions[row]`, as the
    query) beside its layer's average over heads, then the same head as bertviz's head view."""
    figures = head_figures(attn, choice.layer, choice.head, rows, cols, catalogue())
    decode = functools.partial(_clicked_token, positions)
    on_click = functools.partial(store_click, HEAD_CHART, (QUERY.key, CLICKED_KEY), decode)
    left, right = st.columns(2)
    with left:
        plot(figures[HEAD_CHART], key=HEAD_CHART, on_select=on_click)
    with right:
        plot(figures["view_average"], key="view_average")
    show_lines(attn[choice.layer, choice.head], rows, cols, choice)


def show_lines(
    weights: torch.Tensor, rows: list[str], cols: list[str], choice: ModelChoice
) -> None:
    """The enlarged head as bertviz's head view, up to LINES_MAX tokens: a click on a token
    keeps only its lines (a button brings the others back); above LINES_ABOVE tokens each
    token's strongest lines."""
    many = max(weights.shape) > LINES_ABOVE
    with st.expander(t("model.lines"), expanded=not many):
        if max(weights.shape) > LINES_MAX:
            st.caption(t("model.lines_too_many", count=max(weights.shape), limit=LINES_MAX))
            return
        index, side = st.session_state.get(LINES_TOKEN), st.session_state.get(LINES_SIDE)
        if side in (0, 1) and isinstance(index, int) and 0 <= index < weights.shape[side]:
            kept = torch.zeros_like(weights)
            if side == 0:
                kept[index] = weights[index]  # the query's lines to every key
            else:
                kept[:, index] = weights[:, index]  # every query's line to the key
            weights = kept
            label = rows[index] if side == 0 else cols[index]
            st.caption(t("model.lines_one", token=markdown_literal(label)))
            st.button(t("model.lines_all"), on_click=_all_lines, key="model_lines_all")
        elif many:
            weights = strongest_lines(weights)
            st.caption(t("model.lines_strongest", count=LINES_PER_TOKEN, limit=LINES_ABOVE))
        title = t("model.lines_title", layer=choice.layer, head=choice.head)
        on_click = functools.partial(store_click, LINES_CHART, (LINES_TOKEN, LINES_SIDE))
        plot(
            head_lines(weights, rows, cols, title=title, text=catalogue()),
            key=LINES_CHART,
            on_select=on_click,
        )


def _all_lines() -> None:
    st.session_state[LINES_TOKEN] = None


def show_specials_note(encoded: Encoded, attn: torch.Tensor, choice: ModelChoice) -> None:
    """With [CLS] / [SEP] hidden: how much of a shown row's attention they took, on average, in
    the chosen head and over all heads, and whether the rows are renormalised. `attn` is the
    view (L, H, r, c) before any renormalising."""
    share = specials_share(
        encoded, merge_words=choice.merge_words, block=choice.block, first=choice.hide_first
    )
    values = {
        "layer": choice.layer,
        "head": choice.head,
        "share": f"{float(share[choice.layer, choice.head].mean()):.1%}",
        "all": f"{float(share.mean()):.1%}",
        "count": share.shape[0] * share.shape[1],
        "kept": f"{float(attn[choice.layer, choice.head].sum(-1).mean()):.1%}",
    }
    keys = {
        (True, False): "model.renormalised",
        (False, False): "model.not_renormalised",
        (True, True): "model.renormalised_first",
        (False, True): "model.not_renormalised_first",
    }
    st.caption(t(keys[choice.renormalise, choice.hide_first], **values))


def _clicked_token(positions: list[int], selection: object) -> tuple[int, int] | None:
    """A click on the head's cell (row, column) as (the row's token position, column)."""
    cell = selected_cell(selection)
    if cell is None or not 0 <= cell[0] < len(positions):
        return None
    return positions[cell[0]], cell[1]


def show_next_tokens(encoded: Encoded, positions: list[int]) -> None:
    """A causal language model's most probable next tokens after the last token shown and,
    beside them, after the picked one (one chart while none is picked: the last token is the
    query). `positions`: the tokens the heads view shows."""
    last, picked = positions[-1], query_of(encoded.labels)
    text = catalogue()
    figures = {}
    shown = {"view_next_last": last}
    if picked != last and picked in positions:
        shown["view_next_picked"] = picked
    for key, position in shown.items():
        tokens, probs = next_token_rows(encoded, position)
        title = t("model.next.title", token=encoded.labels[position], position=position)
        figures[key] = next_token_bars(tokens, probs, title, text)
    st.subheader(t("model.next"))
    st.caption(t("model.next.help"))
    for column, (key, figure) in zip(st.columns(2), figures.items(), strict=False):
        with column:  # half width either way: the last token's chart keeps its place and size
            plot(figure, key=key)


def show_pieces_per_word(encoded: Encoded, limit: int = 40) -> None:
    """How many pieces each merged word took, for the words of more than one."""
    groups = word_groups(encoded)
    words = [
        f"{markdown_literal(label)} {len(group)}"
        for label, group in zip(word_labels(encoded, groups), groups, strict=True)
        if len(group) > 1
    ]
    if words:
        shown = " · ".join(words[:limit]) + (" …" if len(words) > limit else "")
        st.caption(t("model.pieces_per_word", words=shown))


def show_model(model: Encoder, encoded: Encoded, choice: ModelChoice) -> None:
    """The chosen head, its layer's average and its head view, the next tokens of a causal
    language model, and the model view grid."""
    if choice.stack == "encoder":
        hide, merge, block, first = (
            choice.hide_specials, choice.merge_words, choice.block, choice.hide_first
        )  # fmt: skip
        attn, rows, cols = attention_view(
            encoded, hide_specials=hide, merge_words=merge, block=block, hide_first=first
        )  # (L, H, r, c)
        positions, _ = view_positions(
            encoded, hide_specials=hide, merge_words=merge, block=block, hide_first=first
        )
        if (choice.hide_specials or choice.hide_first) and rows:
            show_specials_note(encoded, attn, choice)
        if choice.renormalise:
            attn = renormalise(attn)  # (L, H, r, c), rows summing to 1
    else:
        attn, rows, cols = stack_attention(encoded, choice.stack)
        positions = list(range(len(rows)))
    show_heads(attn, rows, cols, choice, positions)
    if encoded.kind == "decoder" and choice.stack == "encoder" and not choice.merge_words and rows:
        show_next_tokens(encoded, positions)
    if encoded.kind == "decoder":
        show_sinks(encoded, key="view")
    st.caption(t("model.tokens", count=len(rows)))
    if choice.merge_words and choice.stack == "encoder":
        show_pieces_per_word(encoded)
    view = (
        choice.hide_specials, choice.merge_words, choice.block, choice.renormalise,
        choice.hide_first,
    )  # fmt: skip
    key = (str(model.path), tuple(encoded.texts), tuple(encoded.decoder_tokens or ()), choice.stack)
    fig = grid_figure(key, view, catalogue(), attn)
    on_click = functools.partial(store_click, GRID, (LAYER.key, HEAD.key), selected_head)
    plot(fig, key=GRID, on_select=on_click)
    st.caption(t("model.grid_click", layer=choice.layer, head=choice.head))


def show_sinks(encoded: Encoded, sink: torch.Tensor | None = None, *, key: str) -> None:
    """Per head the share of attention on position 0 (rows 1 and later) as a layers x heads
    grid, beside the residual stream's norm at position 0 and at the others, layer by layer."""
    if sink is None:
        sink = sink_share(encoded.every_attention())
    text_of = catalogue()
    figures = {f"{key}_sink": head_values(sink, title=t("model.sink.grid_title"), text=text_of)}
    if encoded.residual_norms is not None:
        figures[f"{key}_norms"] = residual_norms_figure(
            encoded.residual_norms.tolist(), t("model.sink.norm_title"), text_of
        )
    with st.expander(t("model.sink"), expanded=False):
        st.caption(t("model.sink.help"))
        plot_row(figures)
