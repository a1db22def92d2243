"""The ablation part of the head finder view: the chosen heads taken out of a decoder, the
next token before and after, KL and the loss on the text."""

from __future__ import annotations

import streamlit as st
import torch

from attnviz.app import controls
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.plot import plot_row
from attnviz.figures.model import before_after_bars
from attnviz.i18n import catalogue, t
from attnviz.transformer import interventions
from attnviz.transformer.encoder import Encoder

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
    heads = [(int(p.split(".")[0]), int(p.split(".")[1])) for p in picked]
    try:
        ids, before = interventions.logits_with(model, text)
        _, after = interventions.logits_with(model, text, ablate=heads, mode=str(mode))
    except ValueError as err:
        show_error(err)
        return
    p_before, p_after = torch.softmax(before[-1], -1), torch.softmax(after[-1], -1)
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
            loss_before=f"{interventions.prompt_loss(ids, before):.3f}",
            loss_after=f"{interventions.prompt_loss(ids, after):.3f}",
            top=markdown_literal(model.readable_piece(top)),
        )
    )
