"""InputError: bad input a person can fix, its message rendered through `attnviz.i18n`.

Its own light module (no torch, numpy or pandas), so the pages' one error path in
`attnviz.app.feedback` costs nothing before a page's first elements are drawn; `attnviz.parsing`
re-exports it.
"""

from __future__ import annotations

from attnviz.i18n import t


class InputError(ValueError):
    """Bad user input; `str()` renders the `parse.<key>` message in the current language."""

    def __init__(self, key: str, **values: object) -> None:
        # Only `key` goes into args so that pickling (args + __dict__) rebuilds the error.
        super().__init__(key)
        self.key = key
        self.values: dict[str, object] = dict(values)

    def __str__(self) -> str:
        # Rendered on demand, not in __init__, so a later language switch translates it.
        return t("parse." + self.key, **self.values)
