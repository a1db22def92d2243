"""The Model attention page's neuron view: one head's score for one query token made term by term
on the model's own q and k, and the button that takes the head to the Playground."""

from __future__ import annotations

import functools

import pandas as pd
import streamlit as st

from attnviz.app import cache, links
from attnviz.app.feedback import show_error
from attnviz.app.plot import plot, plot_row, table
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.figures.heatmap import vector_rows
from attnviz.i18n import catalogue, t
from attnviz.lessons.model.compute import stack_attention
from attnviz.lessons.model.view_controls import LAST, QUERY, ModelChoice, query_of
from attnviz.lessons.model.view_edit import PLAYGROUND, playground_link
from attnviz.parsing import MAX_ROWS
from attnviz.transformer.encoder import Encoded, Encoder
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
