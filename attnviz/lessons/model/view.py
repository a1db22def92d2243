"""The model lesson below its title: a transformer reading a text (the shipped all-MiniLM-L6-v2,
or any encoder, decoder or encoder-decoder folder the server's picker lists), every layer and
head as a thumbnail (click one to enlarge it), one head beside its layer's average and drawn as
bertviz's head view, a causal language model's next tokens, and the neuron view of one head."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from urllib.parse import urlencode

import pandas as pd
import plotly.graph_objects as go
import streamlit as st
import torch

from attnviz import paths
from attnviz.app import cache, controls, links
from attnviz.app import matrix_input as inputs
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.long import long_reading, reading_bytes
from attnviz.app.model import MODEL, pick_model
from attnviz.app.plot import plot, plot_row, table
from attnviz.app.selection import selected_cell, selected_head, store_click
from attnviz.app.sentences import DEFAULT_PRESET, MAX_SENTENCE_CHARS, PRESETS, sentence_pair
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.figures.grid import thumbnail_side
from attnviz.figures.heatmap import vector_rows
from attnviz.figures.lines import head_lines
from attnviz.figures.model import (
    before_after_bars,
    head_figures,
    head_heatmap,
    head_values,
    model_view,
    stretched_bound,
)
from attnviz.head_stats import sink_share
from attnviz.i18n import Catalogue, catalogue, t
from attnviz.lessons.model import LESSON
from attnviz.lessons.model.compute import (
    LINES_ABOVE,
    LINES_PER_TOKEN,
    STACKS,
    EditEffect,
    edit_effect,
    next_token_rows,
    specials_share,
    stack_attention,
    strongest_lines,
)
from attnviz.lessons.model.figures import next_token_bars, residual_norms_figure
from attnviz.parsing import MAX_ROWS, format_matrix, parse_matrix
from attnviz.transformer import lazy
from attnviz.transformer.encoder import MAX_TOTAL_TOKENS, MINILM_TRAINED_LENGTH, Encoded, Encoder
from attnviz.transformer.interventions import kl_divergence
from attnviz.transformer.neurons import HeadVectors, NeuronTerms, head_vectors, neuron_terms
from attnviz.transformer.views import alignment_caveat, attention_view, renormalise
from attnviz.transformer.words import word_groups, word_labels

BLOCKS = {
    "all": "model.block.all",
    "AA": "model.block.AA",
    "AB": "model.block.AB",
    "BA": "model.block.BA",
    "BB": "model.block.BB",
}
VIEWS = {"heads": "model.view.heads", "neuron": "model.view.neuron"}
STACK_NAMES = {
    "encoder": "model.stack.encoder",
    "decoder": "model.stack.decoder",
    "cross": "model.stack.cross",
}
KIND_NAMES = {
    "encoder": "model.kind.encoder",
    "decoder": "model.kind.decoder",
    "encoder-decoder": "model.kind.seq2seq",
}
MAX_LAYERS = 48  # bounds for links; the page clamps to the model's own layer and head counts
LAST = -1  # the query token: -1 is the last one
_, _A, _B = PRESETS[DEFAULT_PRESET]
PRESET = controls.choice_control("preset", "model_preset", DEFAULT_PRESET, tuple(PRESETS))
SENTENCE_A = controls.text_control("a", "model_sentence_a", _A)
SENTENCE_B = controls.text_control("b", "model_sentence_b", _B)
TARGET = controls.text_control("target", "model_target", "")
VIEW = controls.choice_control("view", "model_view", "heads", tuple(VIEWS))
STACK = controls.choice_control("stack", "model_stack", "encoder", STACKS)
LAYER = controls.int_control("layer", "model_layer", 0, 0, MAX_LAYERS - 1)
HEAD = controls.int_control("head", "model_head", 0, 0, 63)
QUERY = controls.int_control("query", "model_query", LAST, LAST, MAX_TOTAL_TOKENS - 1)
HIDE = controls.bool_control("hide", "model_hide_specials")
# Shown only while [CLS] / [SEP] are hidden: then, by default, rows sum to 1 over what is shown.
RENORM = controls.bool_control("renorm", "model_renormalise", True)
MERGE = controls.bool_control("merge", "model_merge")
BLOCK = controls.choice_control("block", "model_block", "all", tuple(BLOCKS))
LONG = controls.bool_control("long", "model_long")
LONG_TEXT = controls.text_control("long_text", "model_long_text", "", max_chars=0)
MAX_LONG_CHARS = 30_000
SAMPLE_CAPTIONS = 700  # premises of the NLI data joined: about 6,000 SmolLM2 tokens
LONG_GRID = "view_long_grid"
# A head's output as edited in the Playground (its output matrix, never in the URL: too long),
# and which head it replaces ("layer.head").
EDIT = controls.text_control("edit", "model_edit", "", max_chars=0)
EDIT_AT = controls.text_control("edit_at", "model_edit_at", "", max_chars=20)
LINK: tuple[controls.Control, ...] = (
    MODEL, PRESET, SENTENCE_A, SENTENCE_B, TARGET, VIEW, STACK, LAYER, HEAD, QUERY, HIDE,
    RENORM, MERGE, BLOCK, LONG, EDIT, EDIT_AT,
)  # fmt: skip
GRID = "view_grid"
HEAD_CHART = "view_head"
CLICKED_KEY = "model_clicked_key"  # store_click writes a cell as (row, column): the column here
LINES_CHART = "view_lines"
LINES_TOKEN, LINES_SIDE = "model_lines_token", "model_lines_side"  # a clicked token of the lines
LINES_MAX = 256  # tokens the head view draws at most
PLAYGROUND = "pages/1_Playground.py"
# The Playground's link names for what the neuron view hands it besides the matrices (its own
# controls: tests/lessons/model/test_round_trip.py reads them back there).
PLAYGROUND_SCORE, PLAYGROUND_CAUSAL, PLAYGROUND_BACK = "score", "causal", "back"
PLAYGROUND_TOKENS = "tokens"  # [query tokens, key tokens] as JSON: the Playground's axis labels


@dataclass(frozen=True)
class ModelChoice:
    """Which head to enlarge and how to filter the tokens."""

    layer: int
    head: int
    hide_specials: bool
    merge_words: bool
    block: str
    renormalise: bool = False  # rows over the shown tokens (with the specials hidden only)
    stack: str = "encoder"
    hide_first: bool = False  # a decoder's first token (its attention sink) hidden instead


# --- the model -------------------------------------------------------------------------------


@cache.readings  # never changed: every view of it slices or copies (transformer.views)
def encode_text(
    model_path: str, _encoder: Encoder, text_a: str, text_b: str | None, target: str | None
) -> Encoded:
    """The model's reading of a text or a pair (cached on the model and the texts), up to
    the model's own length, at most MAX_TOTAL_TOKENS tokens in all."""
    return _encoder.encode(text_a, text_b, max_length=_encoder.max_length, target=target)


@cache.results
def neuron_vectors(
    model_path: str, texts: tuple[str, ...], target: tuple[str, ...], stack: str, layer: int,
    head: int, _encoder: Encoder, _encoded: Encoded,
) -> HeadVectors:  # fmt: skip
    """One head's captured q, k, v (cached on what the reading was made from)."""
    return head_vectors(_encoder, _encoded, layer=layer, head=head, stack=stack)


# --- controls --------------------------------------------------------------------------------


def _clamp(control: controls.Control, count: int) -> None:
    if not 0 <= int(st.session_state.get(control.key) or 0) < count:
        st.session_state[control.key] = 0


def choose(model: Encoder, encoded: Encoded) -> ModelChoice:
    """Sidebar: the attention shown (an encoder-decoder's three), layer and head to enlarge,
    [CLS]/[SEP], word merging and the pair's block."""
    init_state(STACK.key, STACK.default)
    with st.sidebar:
        stack = "encoder"
        if encoded.kind == "encoder-decoder":
            stack = controls.select(
                STACK, t("model.stack"), lambda s: t(STACK_NAMES[s]), widget="radio"
            )
        attn, _, _ = stack_attention(encoded, str(stack))
        _clamp(LAYER, attn.shape[0])
        _clamp(HEAD, attn.shape[1])
        layer = st.selectbox(
            t("model.layer"), range(attn.shape[0]), key=LAYER.key, persist_state="session"
        )
        head = st.selectbox(
            t("model.head"), range(attn.shape[1]), key=HEAD.key, persist_state="session"
        )
        hide = merge = renorm = False
        block = "all"
        first = encoded.kind == "decoder"  # a decoder's sink is its first token
        if stack == "encoder":
            label = "model.hide_specials" if model.shipped else "model.hide_specials_any"
            if first:
                label = "model.hide_first"
            hide = controls.toggle(
                HIDE,
                t(label),
                help=t("model.hide_first.help" if first else "model.hide_specials.help"),
            )
            renorm = hide and controls.toggle(
                RENORM, t("model.renormalise"), help=t("model.renormalise.help")
            )
            merge = controls.toggle(MERGE, t("model.merge"), help=t("model.merge.help"))
            if len(encoded.texts) == 2:
                block = controls.select(
                    BLOCK, t("model.block"), lambda b: t(BLOCKS[b]), widget="radio"
                )
    return ModelChoice(
        int(layer or 0), int(head or 0), hide and not first, merge, str(block), renorm,
        str(stack), hide_first=hide and first,
    )  # fmt: skip


def read_texts(model: Encoder) -> tuple[str, str | None, str | None]:
    """The text boxes: a sentence or a pair, and an encoder-decoder's target (None: generate)."""
    text_a, text_b = sentence_pair(PRESET, SENTENCE_A, SENTENCE_B)
    target = None
    if model.kind == "encoder-decoder":
        typed = controls.text_input(
            TARGET,
            t("model.target"),
            help=t("model.target.help"),
            max_chars=MAX_SENTENCE_CHARS,
        )
        target = typed if typed.strip() else None
    return text_a, text_b, target


# --- views -----------------------------------------------------------------------------------


@cache.figures
def grid_figure(
    key: tuple[object, ...], view: tuple[bool, bool, str, bool], text: Catalogue,
    _attn: torch.Tensor,
) -> go.Figure:  # fmt: skip
    """The model view, cached on what `_attn` was made from. It does not frame the chosen head:
    the same figure is sent again, and Chromium keeps the drawn one (a changed one, even a
    frame, is drawn anew)."""
    return model_view(_attn, text, selectable=True)


def show_heads(attn: torch.Tensor, rows: list[str], cols: list[str], choice: ModelChoice) -> None:
    """The chosen head (click a cell to pick its row as the query token) beside its layer's
    average over heads, then the same head as bertviz's head view."""
    figures = head_figures(attn, choice.layer, choice.head, rows, cols, catalogue())
    on_click = functools.partial(store_click, HEAD_CHART, (QUERY.key, CLICKED_KEY), selected_cell)
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


def show_notes(model: Encoder, encoded: Encoded) -> None:
    """What was cut, and what lies outside what the model was trained on."""
    total = len(encoded.tokens)
    for truncated, which in zip(encoded.truncated, ("A", "B"), strict=False):
        if truncated:
            st.info(t("model.truncated_total", which=which, limit=model.max_length))
    if model.shipped:
        st.caption(t("model.minilm_note"))
        if total > MINILM_TRAINED_LENGTH:
            st.info(t("model.long_for_minilm", count=total, limit=MINILM_TRAINED_LENGTH))
        if alignment_caveat(encoded):
            st.warning(t("model.caveat"))
    if encoded.generated and encoded.decoder_tokens is not None:
        st.caption(t("model.generated", count=len(encoded.decoder_tokens) - 1))


def query_of(rows: list[str]) -> int:
    """The query token picked (a click on the enlarged head, or the box), -1 the last."""
    query = int(st.session_state.get(QUERY.key, LAST))
    return query if 0 <= query < len(rows) else len(rows) - 1


def show_next_tokens(encoded: Encoded, rows: list[str]) -> None:
    """A causal language model's most probable next tokens after the last token and, beside
    them, after the picked one (one chart while none is picked: the last token is the query)."""
    last, picked = len(rows) - 1, query_of(rows)
    text = catalogue()
    figures = {}
    positions = {"view_next_last": last}
    if picked != last:
        positions["view_next_picked"] = picked
    for key, position in positions.items():
        tokens, probs = next_token_rows(encoded, position)
        title = t("model.next.title", token=rows[position], position=position)
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
        attn, rows, cols = attention_view(
            encoded,
            hide_specials=choice.hide_specials,
            merge_words=choice.merge_words,
            block=choice.block,
            hide_first=choice.hide_first,
        )  # (L, H, r, c)
        if (choice.hide_specials or choice.hide_first) and rows:
            show_specials_note(encoded, attn, choice)
        if choice.renormalise:
            attn = renormalise(attn)  # (L, H, r, c), rows summing to 1
    else:
        attn, rows, cols = stack_attention(encoded, choice.stack)
    show_heads(attn, rows, cols, choice)
    if encoded.kind == "decoder" and choice.stack == "encoder" and not choice.merge_words:
        show_next_tokens(encoded, rows)
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


def playground_link(
    vectors: HeadVectors, causal: bool, at: tuple[int, int], tokens: tuple[list[str], list[str]]
) -> dict[str, str]:
    """The Playground's link for head `at` (layer, head): its Q, K and V (the first MAX_ROWS
    rows) with their tokens, the scoring and mask the model used, and the way back here (this
    page's link, on this head)."""
    layer, head = at
    here = links.current_values([c for c in LINK if c is not EDIT], st.session_state, limit=None)
    back = {**here, VIEW.name: "neuron", EDIT_AT.name: f"{layer}.{head}"}
    matrices = {"queries": vectors.queries, "keys": vectors.keys, "values": vectors.values}
    return {
        inputs.SOURCE_CONTROL.name: "edit",
        inputs.SELF_CONTROL.name: "0",
        **{inputs.TEXT_CONTROLS[n].name: format_matrix(m[:MAX_ROWS]) for n, m in matrices.items()},
        PLAYGROUND_SCORE: "dot" if vectors.scale == 1.0 else "scaled_dot",
        PLAYGROUND_CAUSAL: "1" if causal else "0",
        PLAYGROUND_BACK: f"{LESSON.script}?{urlencode(back)}",
        PLAYGROUND_TOKENS: json.dumps([tokens[0][:MAX_ROWS], tokens[1][:MAX_ROWS]]),
    }


def show_neuron(model: Encoder, encoded: Encoded, choice: ModelChoice) -> None:
    """One head's score for one query token, term by term, on the model's own vectors."""
    _, rows, cols = stack_attention(encoded, choice.stack)
    try:
        vectors = neuron_vectors(
            str(model.path), tuple(encoded.texts), tuple(encoded.decoder_tokens or ()),
            choice.stack, choice.layer, choice.head, model, encoded,
        )  # fmt: skip
    except InputError as err:
        show_error(err)
        return
    query = neuron_query(encoded, rows, choice)
    terms = neuron_terms(vectors, query)
    show_neuron_notes(model, vectors, terms)
    show_neuron_vectors(terms, rows[query], cols)
    show_neuron_table(terms, cols)
    causal = encoded.kind == "decoder" or choice.stack == "decoder"
    rows_sent = min(MAX_ROWS, vectors.queries.shape[0], vectors.keys.shape[0])
    if st.button(
        t("model.neuron.playground", rows=rows_sent),
        key="model_neuron_playground",
        help=t("model.neuron.playground.help", limit=MAX_ROWS),
        icon=":material/open_in_new:",
    ):
        at = (choice.layer, choice.head)
        links.open_page(PLAYGROUND, playground_link(vectors, causal, at, (rows, cols)))


def neuron_query(encoded: Encoded, rows: list[str], choice: ModelChoice) -> int:
    """The query token's box: the picked query, or at first the last token the heads view
    shows; a new pick is kept as the page's query."""
    init_state(QUERY.key, QUERY.default)
    query = query_of(rows)
    if int(st.session_state.get(QUERY.key, LAST)) == LAST and choice.stack == "encoder":
        # Starts on the last token the heads view shows: not a [SEP] it hides.
        shown = [i for i, s in enumerate(encoded.special) if not (choice.hide_specials and s)]
        query = shown[-1] if shown else query
    picked = st.selectbox(
        t("model.neuron.query"),
        range(len(rows)),
        index=query,
        format_func=lambda i: f"{i}: {rows[i]}",
    )
    if picked != query:
        st.session_state[QUERY.key] = int(picked)
        query = int(picked)
    return query


def show_neuron_notes(model: Encoder, vectors: HeadVectors, terms: NeuronTerms) -> None:
    """How the score is scaled, and what this head's q and k are besides plain projections
    (rotated, a shared key head, a bias)."""
    notes = [t("model.neuron.scale", scale=f"{terms.scale:.4g}", size=vectors.queries.shape[1])]
    if vectors.rotary:
        notes.append(t("model.neuron.rotary"))
    if vectors.key_heads < model.num_heads:
        notes.append(
            t("model.neuron.grouped", key_head=vectors.key_head, key_heads=vectors.key_heads)
        )
    if terms.bias is not None:
        notes.append(t("model.neuron.bias"))
    st.caption(" ".join(notes))


def show_neuron_vectors(terms: NeuronTerms, query_label: str, cols: list[str]) -> None:
    """The query's q, then every key's k beside their products with q, dimension by
    dimension."""
    text = catalogue()
    vectors_of = functools.partial(
        vector_rows, dim_label=t("model.neuron.dimension"), text=text,
        row_name=t("model.neuron.token"),
    )  # fmt: skip
    title = t("model.neuron.q", token=query_label)
    plot(vectors_of(terms.query[None], title=title, row_labels=[query_label]), key="view_neuron_q")
    plot_row(
        {
            "view_neuron_k": vectors_of(
                terms.keys, title=t("model.neuron.k"), row_labels=cols, across=2
            ),
            "view_neuron_qk": vectors_of(
                terms.products,
                title=t("model.neuron.qk", token=query_label),
                row_labels=cols,
                across=2,
            ),
        }
    )


def show_neuron_table(terms: NeuronTerms, cols: list[str]) -> None:
    """Each key's score made step by step (dot product, scaled, bias, mask) to its weight,
    beside the weight the model itself gave."""
    frame = pd.DataFrame(
        {
            t("model.neuron.col.key"): cols,
            t("model.neuron.col.dot"): terms.dots.tolist(),
            t("model.neuron.col.scaled"): (terms.dots * terms.scale).tolist(),
            **({t("model.neuron.col.bias"): terms.bias.tolist()} if terms.bias is not None else {}),
            **({t("model.neuron.col.mask"): terms.mask.tolist()} if terms.mask is not None else {}),
            t("model.neuron.col.score"): terms.scores.tolist(),
            t("model.neuron.col.weight"): terms.weights.tolist(),
            t("model.neuron.col.model"): terms.model_weights.tolist(),
        }
    )
    weights = [t("model.neuron.col.weight"), t("model.neuron.col.model")]
    table(frame, t("model.neuron.csv"), key="view_neuron_table", weights=weights)


@cache.results
def edited(
    model_path: str, texts: tuple[str, ...], edit: str, at: tuple[int, int],
    _encoder: Encoder, _encoded: Encoded,
) -> EditEffect:  # fmt: skip
    """What the model makes of head `at`'s output replaced by the Playground's `edit`."""
    return edit_effect(_encoder, _encoded, at, parse_matrix(edit))


def _drop_edit() -> None:
    st.session_state[EDIT.key] = EDIT.default
    st.session_state[EDIT_AT.key] = EDIT_AT.default


def edit_head(model: Encoder) -> tuple[int, int]:
    """The head the edit replaces, from "layer.head"; ValueError if it is not one of this model."""
    layer, _, head = str(st.session_state.get(EDIT_AT.key) or "").partition(".")
    at = (int(layer), int(head)) if layer.isdigit() and head.isdigit() else (-1, -1)
    if not (0 <= at[0] < model.num_layers and 0 <= at[1] < model.num_heads):
        raise InputError("edit_head", layers=model.num_layers, heads=model.num_heads)
    return at


def show_edit(model: Encoder, encoded: Encoded) -> None:
    """The Playground's edit of one head's output applied: the prediction before and after."""
    edit = str(st.session_state.get(EDIT.key) or "")
    if not edit:
        return
    st.subheader(t("model.edit.heading"))
    st.button(t("model.edit.drop"), key="model_edit_drop", on_click=_drop_edit)
    try:
        at = edit_head(model)
        with st.spinner(t("model.computing")):
            effect = edited(str(model.path), tuple(encoded.texts), edit, at, model, encoded)
    except ValueError as err:
        show_error(err)
        return
    st.caption(t("model.edit.what", layer=at[0], head=at[1], rows=edit.count("\n") + 1))
    if effect.kind == "encoder":
        moved = int(effect.token_cosines.argmin()) if effect.token_cosines is not None else 0
        st.markdown(
            t(
                "model.edit.encoder",
                cosine=f"{effect.cosine:.4f}",
                token=markdown_literal(encoded.labels[moved]),
                token_cosine=f"{float(effect.token_cosines[moved]):.4f}"
                if effect.token_cosines is not None
                else "1",
            )
        )
        return
    titles = (t("model.edit.before"), t("model.edit.after", layer=at[0], head=at[1]))
    bars = before_after_bars(effect.before, effect.after, model.readable_piece, titles, catalogue())
    plot_row(dict(zip(("model_edit_before", "model_edit_after"), bars, strict=True)))
    first = int(effect.before.argmax())
    st.markdown(
        t(
            "model.edit.decoder",
            token=markdown_literal(model.readable_piece(first)),
            before=f"{float(effect.before[first]):.1%}",
            after=f"{float(effect.after[first]):.1%}",
            kl=f"{kl_divergence(effect.before, effect.after):.4f}",
            top=markdown_literal(model.readable_piece(int(effect.after.argmax()))),
        )
    )


def show_about(model: Encoder, limit: int) -> None:
    """The model in a line: its kind, size and the tokens the reading shown takes at most (a
    sentence or a pair's `max_length`, a long input's `max_lazy_length`), and where a
    converted folder's weights came from."""
    st.caption(
        t(
            "model.about",
            name=model.name,
            kind=t(KIND_NAMES[model.kind]),
            layers=model.num_layers,
            heads=model.num_heads,
            count=f"{model.parameters:,}",
            limit=f"{limit:,}",
        )
    )
    if model.source.get("source"):  # a folder attnviz converted: where its weights came from
        st.caption(t("model.converted", source=markdown_literal(str(model.source["source"]))))


def show() -> None:
    links.restore_link(LINK, page="model")
    for control in LINK:
        init_state(control.key, control.default)
    model = pick_model()
    links.publish_link(LINK)
    long = long_toggle(model)
    show_about(model, model.max_lazy_length if long else model.max_length)
    if long:
        with st.sidebar:
            _clamp(LAYER, model.num_layers)
            _clamp(HEAD, model.num_heads)
            st.selectbox(t("model.layer"), range(model.num_layers), key=LAYER.key)
            st.selectbox(t("model.head"), range(model.num_heads), key=HEAD.key)
        show_long(model, LAYER.key, HEAD.key)
        links.share_panel(LINK, key="model")
        return
    try:
        text_a, text_b, target = read_texts(model)
        with st.spinner(t("model.computing")):
            encoded = encode_text(str(model.path), model, text_a, text_b, target)
    except ValueError as err:
        show_error(err)
        return
    choice = choose(model, encoded)
    show_notes(model, encoded)
    view = controls.select(VIEW, t("model.view"), lambda v: t(VIEWS[v]), widget="segmented")
    if view == "neuron":
        show_neuron(model, encoded, choice)
        show_edit(model, encoded)
    else:
        show_model(model, encoded, choice)
    links.share_panel(LINK, key="model")


# --- long ---


@functools.cache
def sample_text() -> str:
    """Scenes from attnviz's NLI data, one sentence each, as one long text (about 30,000
    characters)."""
    seen: list[str] = []
    for line in (paths.DATA / "nli" / "train.jsonl").read_text(encoding="utf-8").splitlines():
        premise = json.loads(line)["sentence1"]
        if premise not in seen:
            seen.append(premise)
        if len(seen) == SAMPLE_CAPTIONS:
            break
    return " ".join(seen)[:MAX_LONG_CHARS]


def long_toggle(model: Encoder) -> bool:
    """Sidebar: read a long input instead of a sentence or a pair (not for encoder-decoders)."""
    if model.kind == "encoder-decoder":
        return False
    with st.sidebar:
        return controls.toggle(
            LONG,
            t("model.long", limit=f"{model.max_lazy_length:,}"),
            help=t("model.long.help"),
        )


def _fill_sample() -> None:
    st.session_state[LONG_TEXT.key] = sample_text()


def show_long(model: Encoder, layer_key: str, head_key: str) -> None:
    """The long-input view: the box, the reading with its place in the queue and its progress,
    the chosen head, the thumbnails and the sinks."""
    text = controls.text_input(
        LONG_TEXT,
        t("model.long.text", chars=f"{MAX_LONG_CHARS:,}"),
        area=180,
        max_chars=MAX_LONG_CHARS,
    )
    st.button(t("model.long.sample"), on_click=_fill_sample, icon=":material/article:")
    if not text.strip():
        st.info(t("model.long.empty"))
        return
    if not model.lazy_supported():
        st.warning(t("parse.model_no_lazy", model_type=model.model_type))
        return
    encoded = read_long(model, text)
    if encoded is None:
        return
    show_long_about(model, encoded)
    layer = _clamped(layer_key, model.num_layers)
    head = _clamped(head_key, model.num_heads)
    thumbs, sink = long_thumbnails(encoded)
    grid_bound = stretched_bound(thumbs, 0.99)
    show_long_head(encoded, layer, head, sink, grid_bound)
    fig = model_view(
        thumbs,
        catalogue(),
        selectable=True,
        title=t("model.long.grid_title", rows=lazy.BAND_ROWS),
        bound=grid_bound,
    )
    on_click = functools.partial(store_click, LONG_GRID, (layer_key, head_key), selected_head)
    plot(fig, key=LONG_GRID, on_select=on_click)
    show_sinks(encoded, sink, key="view_long")


def read_long(model: Encoder, text: str) -> Encoded | None:
    """The long reading of `text`, its place in the queue and then its progress shown while it
    is made; None, the error shown, when it cannot be made."""
    status = st.empty()

    def waiting(ahead: int) -> None:
        status.progress(0.0, text=t("model.long.waiting", ahead=ahead))

    def progress(done: int) -> None:
        status.progress(
            done / model.num_layers,
            text=t("model.long.reading", done=done, layers=model.num_layers),
        )

    try:
        encoded = long_reading(
            model, text, model.max_lazy_length, waiting=waiting, progress=progress
        )
    except ValueError as err:
        status.empty()
        show_error(err)
        return None
    status.empty()
    assert encoded.lazy is not None
    return encoded


def show_long_about(model: Encoder, encoded: Encoded) -> None:
    """How many tokens were read (and where a longer text was cut), and what the reading keeps."""
    cut = t("model.long.cut", limit=f"{model.max_lazy_length:,}") if encoded.truncated[0] else ""
    st.caption(
        t(
            "model.long.about",
            tokens=f"{len(encoded.tokens):,}",
            mb=f"{reading_bytes(encoded) / 1e6:,.0f}",
            cut=cut,
        )
    )


def show_long_head(
    encoded: Encoded, layer: int, head: int, sink: torch.Tensor, grid_bound: float
) -> None:
    """The chosen head of a long reading (its first token hidden on request, the rows
    renormalised) after its share on the first token, its colours stretched as the
    thumbnails' (up to `grid_bound`) are."""
    count = len(encoded.tokens)
    weights = encoded.head_attention(layer, head)[None, None]  # (1, 1, T, T)
    hide = st.toggle(
        t("model.hide_first"), key="model_long_hide_first", help=t("model.hide_first.help")
    )
    labels = encoded.labels
    if hide and count > 1:
        kept = weights[..., 1:, 1:]
        weights = kept / kept.sum(-1, keepdim=True)
        labels = labels[1:]
    st.caption(
        t(
            "model.sink.share",
            layer=layer,
            head=head,
            share=f"{float(sink[layer, head]):.1%}",
            all=f"{float(sink.mean()):.1%}",
            count=sink.numel(),
        )
    )
    head_bound = stretched_bound(weights[0, 0])
    title = t("model.head_title", layer=layer, head=head)
    figure = head_heatmap(weights, 0, 0, labels, labels, catalogue(), bound=head_bound, title=title)
    plot(figure, key="view_long_head")
    st.caption(
        t(
            "model.long.stretched",
            head=f"{head_bound:.3g}",
            grid=f"{grid_bound:.3g}",
            tokens=f"{count:,}",
        )
    )


@st.cache_data(max_entries=4, show_spinner=False)
def _thumbnails(key: tuple[str, ...], _encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
    assert _encoded.lazy is not None
    side = thumbnail_side(_encoded.lazy.num_layers, _encoded.lazy.num_heads)
    return lazy.thumbnails(_encoded.lazy, side)


def long_thumbnails(encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
    """(L, H, s, s) thumbnails (s = `thumbnail_side`) and (L, H) sink shares of a long reading
    (cached on its text)."""
    return _thumbnails((*encoded.texts, str(len(encoded.tokens))), encoded)


def _clamped(key: str, count: int) -> int:
    value = int(st.session_state.get(key) or 0)
    return value if 0 <= value < count else 0


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
