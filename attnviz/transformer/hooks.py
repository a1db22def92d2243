"""Hooks for one call on a model every session shares.

The app loads each model once per process and every session's script runs in a thread of its
own. A hook that ablates, patches or records for one call is registered on that shared model
for the call's length; `mine` makes it act only on forwards run by the thread that registered
it, so another session's forward at the same moment passes through untouched (its reading is
not changed, and its activations are not recorded into this call's lists).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

Hook = TypeVar("Hook", bound=Callable[..., Any])


def mine(hook: Hook) -> Hook:
    """`hook`, run only in forwards of the thread that calls `mine` (else it returns None, as a
    hook that changes nothing does)."""
    owner = threading.get_ident()

    @functools.wraps(hook)
    def run(*args: Any, **kwargs: Any) -> Any:
        if threading.get_ident() != owner:
            return None
        return hook(*args, **kwargs)

    return run  # type: ignore[return-value]
