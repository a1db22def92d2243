"""The Model attention page's controls: one declaration each (the page's link names them all),
the sidebar's choice of the attention, layer, head and tokens shown, and the text boxes."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from attnviz.app import controls
from attnviz.app.layers import MAX_HEADS, MAX_LAYERS
from attnviz.app.model import MODEL
from attnviz.app.sentences import DEFAULT_PRESET, MAX_SENTENCE_CHARS, PRESETS, sentence_pair
from attnviz.app.state import init_state
from attnviz.i18n import t
from attnviz.lessons.model.compute import STACKS, stack_attention
from attnviz.transformer.encoder import MAX_TOTAL_TOKENS, Encoded, Encoder

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
LAST = -1  # the query token: -1 is the last one
_, _A, _B = PRESETS[DEFAULT_PRESET]
PRESET = controls.choice_control("preset", "model_preset", DEFAULT_PRESET, tuple(PRESETS))
SENTENCE_A = controls.text_control("a", "model_sentence_a", _A)
SENTENCE_B = controls.text_control("b", "model_sentence_b", _B)
TARGET = controls.text_control("target", "model_target", "")
VIEW = controls.choice_control("view", "model_view", "heads", tuple(VIEWS))
STACK = controls.choice_control("stack", "model_stack", "encoder", STACKS)
LAYER = controls.int_control("layer", "model_layer", 0, 0, MAX_LAYERS - 1)
HEAD = controls.int_control("head", "model_head", 0, 0, MAX_HEADS - 1)
QUERY = controls.int_control("query", "model_query", LAST, LAST, MAX_TOTAL_TOKENS - 1)
HIDE = controls.bool_control("hide", "model_hide_specials")
# Shown only while [CLS] / [SEP] are hidden: then, by default, rows sum to 1 over what is shown.
RENORM = controls.bool_control("renorm", "model_renormalise", True)
MERGE = controls.bool_control("merge", "model_merge")
BLOCK = controls.choice_control("block", "model_block", "all", tuple(BLOCKS))
LONG = controls.bool_control("long", "model_long")
# A head's output as edited in the Playground (its output matrix, never in the URL: too long),
# and which head it replaces ("layer.head").
EDIT = controls.text_control("edit", "model_edit", "", max_chars=0)
EDIT_AT = controls.text_control("edit_at", "model_edit_at", "", max_chars=20)
LINK: tuple[controls.Control, ...] = (
    MODEL, PRESET, SENTENCE_A, SENTENCE_B, TARGET, VIEW, STACK, LAYER, HEAD, QUERY, HIDE,
    RENORM, MERGE, BLOCK, LONG, EDIT, EDIT_AT,
)  # fmt: skip


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


def clamp(control: controls.Control, count: int) -> None:
    """`control` set back to 0 when it holds no layer or head below `count` (another model's)."""
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
        clamp(LAYER, attn.shape[0])
        clamp(HEAD, attn.shape[1])
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


def query_of(rows: list[str]) -> int:
    """The query token picked (a click on the enlarged head, or the box), -1 the last."""
    query = int(st.session_state.get(QUERY.key, LAST))
    return query if 0 <= query < len(rows) else len(rows) - 1
