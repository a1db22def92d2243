"""Hand-picked mask cells as a grid of checkboxes (the Playground's and the masking lesson's)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attnviz.app.state import bump, init_state


def _cells_commit(editor_key: str, cells_key: str, version_key: str, n: int, m: int) -> None:
    blocked = set(st.session_state.get(cells_key, frozenset()))
    for row, changes in (st.session_state.get(editor_key) or {}).get("edited_rows", {}).items():
        for col, allowed in changes.items():
            cell = (int(row), int(str(col).removeprefix("k")))
            if allowed:
                blocked.discard(cell)
            else:
                blocked.add(cell)
    st.session_state[cells_key] = frozenset((i, j) for i, j in blocked if i < n and j < m)
    bump(version_key)


def cells_grid(cells_key: str, version_key: str, n: int, m: int) -> frozenset[tuple[int, int]]:
    """Hand-picked mask cells as a grid of checkboxes (ticked = may attend); the blocked cells.

    The blocked set lives under `cells_key` (no widget holds it). Each commit draws a new grid
    (its key carries the `version_key` count), so an edit is never applied twice.
    """
    init_state(cells_key, frozenset())
    blocked = frozenset((i, j) for i, j in st.session_state[cells_key] if i < n and j < m)
    frame = pd.DataFrame(
        [[(i, j) not in blocked for j in range(m)] for i in range(n)],
        columns=[f"k{j}" for j in range(m)],
        index=[f"q{i}" for i in range(n)],
    )
    editor_key = f"{cells_key}_grid_{st.session_state.get(version_key, 0)}"
    st.data_editor(
        frame,
        key=editor_key,
        on_change=_cells_commit,
        args=(editor_key, cells_key, version_key, n, m),
        column_config={c: st.column_config.CheckboxColumn(c, width=36) for c in frame.columns},
    )
    return blocked
