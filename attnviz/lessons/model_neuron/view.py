"""The Model attention page's neuron view: one head's score for one query token made term by term
on the model's own q and k, and the button that takes the head to the Playground; and the round
trip back: the head's output as edited there applied here (the prediction before and after)."""

from __future__ import annotations

import functools
import json
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from attnviz.app import cache, links
from attnviz.app import matrix_input as inputs
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.plot import plot, plot_row, table
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.figures.heatmap import vector_rows
from attnviz.figures.model import before_after_bars
from attnviz.i18n import catalogue, t
from attnviz.lessons.model import LESSON
from attnviz.lessons.model.compute import EditEffect, edit_effect, stack_attention
from attnviz.lessons.model_controls.view import (
    EDIT,
    EDIT_AT,
    LAST,
    LINK,
    QUERY,
    VIEW,
    ModelChoice,
    query_of,
)
from attnviz.parsing import MAX_ROWS, format_matrix, parse_matrix
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.interventions import kl_divergence
from attnviz.transformer.neurons import HeadVectors, NeuronTerms, head_vectors, neuron_terms


@cache.results
def neuron_vectors(
    model_path: str, texts: tuple[str, ...], target: tuple[str, ...], stack: str, layer: int,
    head: int, _encoder: Encoder, _encoded: Encoded,
) -> HeadVectors:  # fmt: skip
    """One head's captured q, k, v (cached on what the reading was made from)."""
    return head_vectors(_encoder, _encoded, layer=layer, head=head, stack=stack)


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
