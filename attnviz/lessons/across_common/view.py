"""What several views of the across-layers page share: the store of results computed under a
progress bar, a decoder's "hide the first token" switch, the caption for a row on one token
and a rank correlation as text."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

import streamlit as st
import torch

from attnviz.app import cache, controls
from attnviz.app.feedback import ProgressBar, markdown_literal
from attnviz.i18n import t
from attnviz.transformer.encoder import Encoded

# A decoder's first token (its attention sink) hidden, rows renormalised over the rest.
FIRST = controls.bool_control("first", "across_hide_first")
ONE_TOKEN = 0.9  # a shown row with this share on one token gets a caption saying so
KEPT = cache.Kept()  # flows and saliencies: they show a progress bar while they are computed
T = TypeVar("T")


def with_progress(
    key: tuple[object, ...], label: str, compute: Callable[[Callable[[float], None]], T]
) -> T:
    """A kept result, or `compute(progress)` under a progress bar that goes when it is done."""

    def run() -> T:
        bar = ProgressBar(label)
        try:
            return compute(bar)
        finally:
            bar.empty()

    return KEPT.get(key, run)


def hide_switch(encoded: Encoded, where: object = None) -> bool:
    """A decoder's "hide the first token" switch (an encoder has none); off for one token."""
    if encoded.kind != "decoder" or len(encoded.tokens) < 2:
        return False
    label, help_text = t("across.hide_first"), t("across.hide_first.help")
    return controls.toggle(FIRST, label, where=where, help=help_text)


def one_token_note(row: torch.Tensor, tokens: list[str], name: str, sink: bool) -> None:
    """A caption when a shown row puts nearly all its weight on one token, and why; `sink`:
    that token may be a decoder's first token, still shown."""
    share, where = float(row.max()), int(row.argmax())
    if share < ONE_TOKEN:
        return
    key = "across.one_token.first" if sink and where == 0 else "across.one_token"
    token = markdown_literal(tokens[where])
    st.caption(t(key, share=f"{share:.2f}", token=token, row=markdown_literal(name)))


def rho_text(rho: float) -> str:
    return "—" if math.isnan(rho) else f"{rho:+.2f}"
