"""The pretrained models: the shipped encoder, loaded once per server process for the NLI and
model lessons, and the models a picker names (at most two kept, the least recently used going),
resolved through attnviz.transformer.models so that nothing outside its roots is read."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import streamlit as st

from attnviz.app import controls, links, loading
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.state import init_state
from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.transformer import models

if TYPE_CHECKING:  # the model stack is imported only when a page asks for the model
    from attnviz.nli.card import Card
    from attnviz.nli.classifier import Classifier
    from attnviz.transformer.encoder import Encoder

# What a missing or broken model install raises: the package or transformers absent
# (ImportError), its files missing or unreadable (OSError), a config transformers rejects
# (ValueError), weights that do not fit the model (RuntimeError).
MODEL_FAULTS = (ImportError, OSError, ValueError, RuntimeError)
# The picked model, shared by the pages that read one (Model attention, Across layers): a link
# names it as ?model=, MINILM, SMOLLM2 or root/path (attnviz.transformer.models.resolve).
MODEL = controls.text_control("model", "model_name", models.MINILM, max_chars=500)


@st.cache_resource(max_entries=1, show_spinner=False)
def _load_encoder() -> Encoder:
    # transformers is imported here, under the import lock: pages without the model never pay
    # for it, and two first visits never import it at once (attnviz.app.loading).
    with loading.lock():
        from attnviz.transformer.encoder import load_encoder

        return load_encoder()


def encoder() -> Encoder:
    """The model and tokenizer, loaded once per server process.

    When it cannot be loaded, the page says why and how to install it, and stops; a failed
    load is not cached, so the next run tries again (after an install, a reload is enough).
    """
    try:
        with st.spinner(t("model.loading")):
            return _load_encoder()
    except MODEL_FAULTS as err:
        # Shown as code: a module path's underscores would otherwise turn into italics.
        detail = f"{type(err).__name__}: {err}".replace("`", "'")
        st.error(t("model.unavailable", detail=detail), icon=":material/error:")
        st.stop()


PICKED_MODELS = 2  # picked models kept per process besides the shipped one; the oldest goes


@st.cache_resource(max_entries=PICKED_MODELS, show_spinner=False)
def _load_picked(path: str, max_params: int) -> Encoder:
    with loading.lock():
        from attnviz.transformer.encoder import Encoder

        return Encoder(path, max_params=max_params)


def picked_encoder(name: str) -> Encoder:
    """The model `name` names (transformer.models: MINILM or root/path), loaded with progress.

    A name the resolver or the checks refuse raises InputError (nothing is loaded); a model
    that fails to load raises one of MODEL_FAULTS. Either way the caller shows the reason.
    """
    if name == models.MINILM:
        return encoder()
    if name == models.SMOLLM2 and not models.smollm2_ready():
        _convert_smollm2()
    path = models.resolve(name)
    cap = models.max_parameters()
    info = models.check_folder(path, max_params=cap)  # refusals before anything loads
    label = t("model.loading_picked", name=name, count=f"{info.parameters:,}", kind=info.kind)
    with st.spinner(label, show_time=True):  # seen only while it loads: a cached one is instant
        return _load_picked(str(path), cap)


def _convert_smollm2() -> None:
    """SmolLM2's folder made from its wheel, with a progress bar (once per server: a session
    that finds another converting waits for it on the conversion's lock)."""
    models.smollm2_gguf()  # InputError, saying how to install it, before any bar
    with loading.lock():
        import transformers  # noqa: F401  (imported here, under the lock, not mid-conversion)

        from attnviz.transformer.conversion import DISK_BYTES

    folder = markdown_literal(str(models.cache_dir()))
    intro = t("model.converting", mb=f"{DISK_BYTES / 1e6:,.0f}", folder=folder)
    bar = st.progress(0.0, text=intro)

    steps = {
        "read": "model.converting.read",
        "write": "model.converting.write",
        "tokenizer": "model.converting.tokenizer",
    }

    def progress(done: int, count: int, step: str) -> None:
        text = f"{intro}  \n{t(steps[step])}" if step in steps else intro
        bar.progress(done / count, text=text)

    models.smollm2_path(progress=progress)
    bar.empty()


@st.cache_resource(max_entries=2, show_spinner=False)
def _load_classifier(path: str) -> Classifier:
    with loading.lock():
        from attnviz.nli.checkpoint import load_classifier

        return load_classifier(path, encoder=_load_encoder())


@st.cache_resource(max_entries=8, show_spinner=False)
def _session_classifier(weights: bytes, card: bytes) -> Classifier:
    with loading.lock():
        from attnviz.nli.checkpoint import classifier_from_bytes

        return classifier_from_bytes(weights, card, _load_encoder())


def shipped_card() -> Card | None:
    """The card of the checkpoint the app ships (or ATTNVIZ_NLI_CHECKPOINT's), None when it
    cannot be read (the page then shows the models it has)."""
    with loading.lock():
        from attnviz.nli.checkpoint import checkpoint_path

    try:
        return _load_classifier(str(checkpoint_path())).card
    except (*MODEL_FAULTS, InputError):
        return None


def classifier() -> tuple[Classifier | None, str]:
    """The NLI classifier this session uses and a name for it: a model the session trained or
    loaded when it chose one (attnviz.app.jobs), else the default checkpoint (or
    ATTNVIZ_NLI_CHECKPOINT's) and its path; (None, why) when it cannot be read, so a page can go
    on without a verdict."""
    from attnviz.app import jobs

    with loading.lock():
        from attnviz.nli.checkpoint import checkpoint_path

    chosen = jobs.chosen_model()
    path = checkpoint_path()
    try:
        with st.spinner(t("nli.verdict.loading")):
            if chosen is not None:
                name, (weights, card) = chosen
                return _session_classifier(weights, card), f"session:{name}"
            return _load_classifier(str(path)), str(path)
    except (*MODEL_FAULTS, InputError) as err:
        return None, str(err)


# --- the picker ----------------------------------------------------------------------------


@st.cache_data(ttl=30, max_entries=4, show_spinner=False)
def _found(roots: str) -> list[models.Found]:
    """The picker's folders under `roots` (ATTNVIZ_MODEL_DIRS's value), walked again at most
    every 30 s, so that a new download appears."""
    return models.discover(models.roots(roots))


def pick_model() -> Encoder:
    """Sidebar: the model picker; the chosen model, loaded with progress.

    A name the server refuses (outside its folders, pickle weights, remote code, too big, a
    broken config) is shown with the reason, kept in the picker, and the shipped model is used.
    """
    return load_picked(model_picker())


def pick_decoder() -> Encoder | None:
    """The picker for a page that needs a causal language model: None, without loading it,
    when the picked model is the shipped encoder (the page then says what it needs)."""
    name = model_picker()
    return None if name == models.MINILM else load_picked(name)


def _use_smollm2() -> None:
    st.session_state[MODEL.key] = models.SMOLLM2


def offer_smollm2(message: str, key: str) -> None:
    """For a page that needs a causal language model and was given another: `message` (why),
    and a button (state key `key`) that picks the shipped SmolLM2 instead."""
    st.info(message)
    st.button(t("model.use_smollm2"), key=key, on_click=_use_smollm2, icon=":material/swap_horiz:")


def decoder_page(link: Sequence[controls.Control], page: str, needs: str) -> Encoder | None:
    """The top of a page that needs a causal language model: its link read (every setting at
    its default first) and written back, and the picked model; None when it is not a decoder,
    after saying why (the catalogue key `needs`, with {name}) and offering SmolLM2."""
    links.restore_link(link, page=page)
    for control in link:
        init_state(control.key, control.default)
    model = pick_decoder()
    links.publish_link(link)
    if model is not None and model.kind == "decoder":
        return model
    name = "all-MiniLM-L6-v2" if model is None else model.name
    offer_smollm2(t(needs, name=name), key=f"{page}_use_smollm2")
    return None


def load_picked(name: str) -> Encoder:
    """The picked model, loaded with progress; the shipped one, with the reason, when it is
    refused or fails."""
    try:
        return picked_encoder(name)
    except InputError as err:  # refused before loading: the reason is the message
        show_error(err)
    except MODEL_FAULTS as err:  # transformers could not load what passed the checks
        detail = markdown_literal(f"{type(err).__name__}: {err}"[:500])
        st.error(t("model.picker.failed", name=markdown_literal(name), detail=detail))
    st.info(t("model.picker.fallback"), icon=":material/undo:")
    return encoder()


def model_picker() -> str:
    """Sidebar: the picker alone; the chosen model's name (nothing is loaded)."""
    init_state(MODEL.key, MODEL.default)
    found = {f.name: f.label for f in _found(os.environ.get(models.ROOTS_VARIABLE, ""))}
    labels = {
        models.MINILM: t("model.picker.minilm"),
        models.SMOLLM2: t("model.picker.smollm2"),
        **found,
    }
    current = str(st.session_state[MODEL.key])
    if current not in labels:  # from a link: kept, and checked below like any other name
        labels[current] = current
    with st.sidebar:
        name = st.selectbox(
            t("model.picker"),
            list(labels),
            format_func=lambda n: labels.get(n, n),
            key=MODEL.key,
            help=t("model.picker.help", variable=models.ROOTS_VARIABLE),
            persist_state="session",
        )
    return str(name)
