"""The Model attention page's long input: a text of thousands of tokens read lazily (its place in
the queue, then its progress), the chosen head, every head as a thumbnail, and the sinks."""

from __future__ import annotations

import functools
import json

import streamlit as st
import torch

from attnviz import paths
from attnviz.app import controls
from attnviz.app.feedback import show_error
from attnviz.app.long import long_reading, reading_bytes
from attnviz.app.plot import plot
from attnviz.app.selection import selected_head, store_click
from attnviz.figures.grid import thumbnail_side
from attnviz.figures.model import head_heatmap, model_view, stretched_bound
from attnviz.i18n import catalogue, t
from attnviz.lessons.model_controls.view import LONG
from attnviz.lessons.model_heads.view import show_sinks
from attnviz.transformer import lazy
from attnviz.transformer.encoder import Encoded, Encoder

LONG_TEXT = controls.text_control("long_text", "model_long_text", "", max_chars=0)
MAX_LONG_CHARS = 30_000
SAMPLE_CAPTIONS = 700  # premises of the NLI data joined: about 6,000 SmolLM2 tokens
LONG_GRID = "view_long_grid"


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
    thumbs, sink = long_thumbnails(str(model.path), encoded)
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


def long_thumbnails(model: str, encoded: Encoded) -> tuple[torch.Tensor, torch.Tensor]:
    """(L, H, s, s) thumbnails (s = `thumbnail_side`) and (L, H) sink shares of a long reading
    of the model at path `model` (cached on the model and the text)."""
    return _thumbnails((model, *encoded.texts, str(len(encoded.tokens))), encoded)


def _clamped(key: str, count: int) -> int:
    value = int(st.session_state.get(key) or 0)
    return value if 0 <= value < count else 0
