"""The one error path, and notes a page keeps between runs: messages that show what was typed
exactly as typed."""

from __future__ import annotations

import re
from typing import Any, Literal

import streamlit as st

from attnviz.errors import InputError
from attnviz.i18n import t

# A note kept in the session state: its kind and its message (an upload's outcome, a state file's).
Note = tuple[Literal["ok", "error"], str]
# The marks that start markdown, HTML or an entity (&lt;) inside a line, KaTeX ($) and
# Streamlit's :colour[...], :material/...: and emoji codes (both colons of ":smile:").
_MARKDOWN_MARKS = re.compile(r"([\\`*_\[\]<>&$~|#:])")


def markdown_literal(text: str) -> str:
    """`text` for Streamlit markdown (st.error, st.toast, ...) that shows exactly as typed."""
    return _MARKDOWN_MARKS.sub(r"\\\1", text)


def show_error(err: ValueError, what: str | None = None) -> None:
    """The one error path: InputError and attend's ValueError become a message, not a trace.

    `what` names the input at fault (a matrix, a sentence) in front of the message.
    """
    detail = str(err) if isinstance(err, InputError) else t("error.compute", detail=err)
    message = detail if what is None else t("error.input", what=what, detail=detail)
    # The message quotes what was typed: markdown would turn "&lt;" into "<", "*a*" into italics.
    st.error(markdown_literal(message), icon=":material/error:")


def show_note(note: Note | None, where: Any = None) -> None:
    """A kept note as a success or an error box (in `where`, a column, or the page).

    The note names an uploaded file: its name shows as it is, not as markdown.
    """
    if not note:
        return
    host = st if where is None else where
    status, message = note
    (host.error if status == "error" else host.success)(markdown_literal(message))
