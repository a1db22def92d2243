"""The head finder view of the across-layers page: a decoder's heads scored for induction and
four other patterns, as a grid and a table, above the ablation of the chosen heads."""

from __future__ import annotations

import functools
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
import torch

from attnviz.app import cache, controls
from attnviz.app.model import MODEL
from attnviz.app.plot import plot, table
from attnviz.app.selection import selected_cell, store_click
from attnviz.figures.model import head_values
from attnviz.i18n import catalogue, t
from attnviz.lessons.across.view_ablation import head_name, show_ablation
from attnviz.transformer import head_finder
from attnviz.transformer.encoder import Encoder

SCORE_NAMES = {
    "induction": "across.finder.score.induction",
    "duplicate": "across.finder.score.duplicate",
    "previous": "across.finder.score.previous",
    "first": "across.finder.score.first",
    "diagonal": "across.finder.score.diagonal",
}
SCORE = controls.choice_control("score", "across_finder_score", "induction", head_finder.SCORES)
FINDER_GRID = "across_finder_grid"
RANKED = 10


@cache.results
def scores_of(model_path: str, _encoder: Encoder) -> dict[str, torch.Tensor]:
    """The finder's five (L, H) scores (cached on the model)."""
    return head_finder.head_scores(_encoder)


def show_finder(model: Encoder, text: str, layer_key: str, head_key: str) -> None:
    """The finder's grid and table, then the ablation of the chosen heads on `text`."""
    st.markdown(t("across.finder.explain"))
    if model.kind != "decoder":
        st.info(t("across.finder.needs_decoder", name=model.name))
        return
    with st.spinner(t("across.finder.computing")):
        scores = scores_of(str(model.path), model)
    name = controls.select(
        SCORE, t("across.finder.score"), lambda s: t(SCORE_NAMES[s]), widget="segmented"
    )
    values = scores[str(name)]
    layer = int(st.session_state.get(layer_key) or 0) % model.num_layers
    head = int(st.session_state.get(head_key) or 0) % model.num_heads
    text_of = catalogue()
    grid = head_values(
        values, title=t(SCORE_NAMES[str(name)]), text=text_of, selectable=True,
        selected=(layer, head), across=5 / 3,
    )  # fmt: skip
    on_click = functools.partial(store_click, FINDER_GRID, (layer_key, head_key), selected_cell)
    left, right = st.columns([3, 2])
    with left:
        plot(grid, key=FINDER_GRID, on_select=on_click)
    with right:
        query = urlencode(
            {MODEL.name: st.session_state.get(MODEL.key, ""), "layer": layer, "head": head}
        )
        st.markdown(
            t("across.finder.open", layer=layer, head=head, heads=f"Model_attention?{query}",
              neuron=f"Model_attention?{query}&view=neuron")
        )  # fmt: skip
    order = values.flatten().argsort(descending=True)[:RANKED].tolist()
    rows = [divmod(int(i), model.num_heads) for i in order]
    frame = pd.DataFrame(
        [
            {
                t("across.col.head"): head_name(r, h),
                **{t(SCORE_NAMES[s]): float(scores[s][r, h]) for s in head_finder.SCORES},
            }
            for r, h in rows
        ]
    )
    table(
        frame, t("across.finder.table", score=t(SCORE_NAMES[str(name)])), key="across_finder_table"
    )
    show_ablation(model, text, scores)
