"""The one way a lesson caches: its results, and the figures built from them.

A lesson's results are a pure function of its choice (a frozen dataclass of what its controls
hold): `@cache.results` keeps them per choice (`st.cache_data`: each hit is a copy, so a view may
not change what the next run sees). Figures that take long to build are kept per choice and
`Catalogue` with `@cache.figures` (`st.cache_resource`: the same objects, never changed after
they are built, with no unpickling). Both are bounded; arguments with a leading underscore (a
model, a result the key already determines) are not hashed.
"""

from __future__ import annotations

import functools

import streamlit as st

RESULT_ENTRIES = 16
FIGURE_ENTRIES = 16

results = functools.partial(st.cache_data, max_entries=RESULT_ENTRIES, show_spinner=False)
figures = functools.partial(st.cache_resource, max_entries=FIGURE_ENTRIES, show_spinner=False)
