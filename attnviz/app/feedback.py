"""The one error path, and notes a page keeps between runs: messages that show what was typed
exactly as typed."""

from __future__ import annotations

import re
import time
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


class ProgressBar:
    """A progress bar that says how far a computation is and, once its pace shows, about how
    long is left: `bar(share)` with share in [0, 1]; `bar.empty()` when done."""

    def __init__(self, label: str) -> None:
        self._label = label
        self._start = time.monotonic()
        self._bar = st.progress(0.0, text=label)

    def __call__(self, share: float) -> None:
        share = min(max(share, 0.0), 1.0)
        elapsed = time.monotonic() - self._start
        self._bar.progress(share, text=progress_text(self._label, share, elapsed))

    def empty(self) -> None:
        self._bar.empty()


def progress_text(label: str, share: float, elapsed: float) -> str:
    """A progress bar's words at `share` done after `elapsed` seconds: the percentage, and the
    time left at the pace so far once a twentieth is done and a second has passed."""
    said = t("progress.done", label=label, percent=round(100 * share))
    if 0.05 <= share < 1.0 and elapsed >= 1.0:
        left = elapsed * (1.0 - share) / share
        said += " " + t("progress.left", seconds=max(1, round(left)))
    return said
