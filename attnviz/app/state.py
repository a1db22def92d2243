"""Session state: values that outlive one script run, under keys the components own."""

from __future__ import annotations

from typing import Any

import streamlit as st


def init_state(key: str, value: Any) -> None:
    """Set `key` in the session state unless it is there already (a link may have set it)."""
    if key not in st.session_state:
        st.session_state[key] = value


def bump(key: str) -> None:
    """Count `key` up: a new widget key makes Streamlit draw a fresh widget."""
    st.session_state[key] = st.session_state.get(key, 0) + 1
