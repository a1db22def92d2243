"""The Model attention page's round trip through the Playground: one head's q, k and v sent there
by a link, and the head's output as edited there applied back here (the prediction before and
after)."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import streamlit as st

from attnviz.app import cache, links
from attnviz.app import matrix_input as inputs
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.plot import plot_row
from attnviz.errors import InputError
from attnviz.figures.model import before_after_bars
from attnviz.i18n import catalogue, t
from attnviz.lessons.model import LESSON
from attnviz.lessons.model.compute import EditEffect, edit_effect
from attnviz.lessons.model.view_controls import EDIT, EDIT_AT, LINK, VIEW
from attnviz.parsing import MAX_ROWS, format_matrix, parse_matrix
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.interventions import kl_divergence
from attnviz.transformer.neurons import HeadVectors

PLAYGROUND = "pages/1_Playground.py"
# The Playground's link names for what the neuron view hands it besides the matrices (its own
# controls: tests/lessons/model/test_round_trip.py reads them back there).
PLAYGROUND_SCORE, PLAYGROUND_CAUSAL, PLAYGROUND_BACK = "score", "causal", "back"
PLAYGROUND_TOKENS = "tokens"  # [query tokens, key tokens] as JSON: the Playground's axis labels


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
