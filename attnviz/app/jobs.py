"""The server's NLI training queue, its sessions, and the classifiers a session trained or
loaded (held in its session state, as bytes: a session that ends takes them with it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st

from attnviz.app import loading

if TYPE_CHECKING:
    from attnviz.nli.jobs import JobQueue

SESSION_MODELS = "nli_session_models"  # name -> (safetensors bytes, card JSON bytes)
MODEL_CHOICE = "nli_classifier_choice"  # "" (the default checkpoint) or a name of SESSION_MODELS


def session_id() -> str:
    """This browser session's id (the owner of its jobs)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "no-session"


def _is_alive(owner: str) -> bool:
    from streamlit import runtime

    if not runtime.exists():  # AppTest runs without a server: its one session lives on
        return True
    return bool(runtime.get_instance().is_active_session(owner))


@st.cache_resource(max_entries=1, show_spinner=False)
def queue() -> JobQueue:
    """The one job queue of this server process (its thread starts with it)."""
    with loading.lock():
        from attnviz.nli.jobs import JobQueue

    return JobQueue(is_alive=_is_alive)


def session_models() -> dict[str, tuple[bytes, bytes]]:
    models: dict[str, tuple[bytes, bytes]] = st.session_state.setdefault(SESSION_MODELS, {})
    return models


def add_session_model(name: str, weights: bytes, card: bytes, use: bool = False) -> None:
    """Keep a model for this session's NLI page, offered beside the shipped one (chosen only
    when `use`: a trained model never replaces the shipped one without the person asking)."""
    session_models()[name] = (weights, card)
    if use:
        st.session_state[MODEL_CHOICE] = name


def chosen_model() -> tuple[str, tuple[bytes, bytes]] | None:
    """The session model the NLI page should use, or None for the default checkpoint."""
    name = st.session_state.get(MODEL_CHOICE) or ""
    found: Any = session_models().get(name)
    return (name, found) if found else None
