"""The head finder view of the across-layers page: a decoder's heads scored for induction and four
other patterns, as a grid and a table, above the ablation of the chosen heads: the next token
before and after, KL and the loss on the text."""

from __future__ import annotations

import functools
from urllib.parse import urlencode

import pandas as pd
import streamlit as st
import torch

from attnviz.app import cache, controls
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.model import MODEL
from attnviz.app.plot import plot, plot_row, table
from attnviz.app.selection import selected_cell, store_click
from attnviz.figures.model import before_after_bars, head_values
from attnviz.i18n import catalogue, t
from attnviz.transformer import head_finder, interventions
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


MODE = controls.choice_control("ablation", "across_ablation", "zero", interventions.MODES)
MODE_NAMES = {"zero": "across.ablation.zero", "mean": "across.ablation.mean"}
ABLATE = "across_ablate"  # the heads taken out, as "layer.head" strings (the multiselect's)
# The same heads in the link: "18.6,17.3"; "none" for no head; "" (the default) for the five
# with the highest induction scores. The multiselect writes it when changed.
OUT = controls.text_control("out", "across_ablate_out", "", max_chars=600)


def head_name(layer: int, head: int) -> str:
    return f"{layer}.{head}"


def _ablate_changed() -> None:
    st.session_state[OUT.key] = ",".join(st.session_state[ABLATE]) or "none"


@cache.results
def read_out(
    model_path: str, text: str, heads: tuple[tuple[int, int], ...], mode: str, _model: Encoder
) -> tuple[torch.Tensor, float]:
    """(V,) the next token's probabilities after `text` with `heads` taken out, and the loss on
    the text (cached: a click elsewhere on the page runs no forward)."""
    ids, logits = interventions.logits_with(_model, text, ablate=heads, mode=mode)
    return torch.softmax(logits[-1], -1), interventions.prompt_loss(ids, logits)


def show_ablation(model: Encoder, text: str, scores: dict[str, torch.Tensor]) -> None:
    """Heads out: the next token before and after, KL, the loss on the text."""
    st.subheader(t("across.ablation"))
    options = [head_name(r, h) for r in range(model.num_layers) for h in range(model.num_heads)]
    given = str(st.session_state.get(OUT.key) or "")
    if given:  # from the link, or the multiselect's last change
        st.session_state[ABLATE] = [h for h in given.split(",") if h in options]
    elif ABLATE not in st.session_state:  # the five strongest induction heads to start with
        strongest = scores["induction"].flatten().argsort(descending=True)[:5].tolist()
        st.session_state[ABLATE] = [head_name(*divmod(int(i), model.num_heads)) for i in strongest]
    columns = st.columns([3, 1])
    picked = columns[0].multiselect(
        t("across.ablation.heads"), options, key=ABLATE, on_change=_ablate_changed
    )
    mode = controls.select(
        MODE, t("across.ablation.mode"), lambda m: t(MODE_NAMES[m]), where=columns[1]
    )
    heads = tuple((int(p.split(".")[0]), int(p.split(".")[1])) for p in picked)
    try:
        p_before, loss_before = read_out(str(model.path), text, (), "zero", model)
        p_after, loss_after = read_out(str(model.path), text, heads, str(mode), model)
    except ValueError as err:
        show_error(err)
        return
    titles = (t("across.ablation.before"), t("across.ablation.after", count=len(heads)))
    bars = before_after_bars(p_before, p_after, model.readable_piece, titles, catalogue())
    plot_row(dict(zip(("across_ablation_before", "across_ablation_after"), bars, strict=True)))
    first, top = int(p_before.argmax()), int(p_after.argmax())
    token = markdown_literal(model.readable_piece(first))
    st.markdown(
        t(
            "across.ablation.summary_same" if top == first else "across.ablation.summary",
            token=token,
            before=f"{float(p_before[first]):.1%}",
            after=f"{float(p_after[first]):.1%}",
            kl=f"{interventions.kl_divergence(p_before, p_after):.4f}",
            loss_before=f"{loss_before:.3f}",
            loss_after=f"{loss_after:.3f}",
            top=markdown_literal(model.readable_piece(top)),
        )
    )
