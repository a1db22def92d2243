"""Every page's default view draws the same figures as the stored references (floats rounded).

The references were taken before the heatmap was built in steps and the big modules were split
(issue 40): those are moves, and what a person sees must not move with them. Four pages were
redrawn on purpose after that (their charts laid out as panels: Additive, Multi-head,
Playground, NLI), and new pages add theirs, so for those the test guards what comes next. A
change that means to redraw a page rewrites its reference on purpose, in its own commit:

    python -m tests.figures.test_identity --write [page ...]

The heatmap's marks (selection overlay, selected cell, framed row, boxed cells, vertical lines,
masked cells) are compared the same way, on small matrices built here.
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from attnviz.figures import marks
from tests import english as en
from tests.apptest import open_page
from tests.plotly_data import decode

ROOT = Path(__file__).resolve().parent.parent.parent
REFERENCES = ROOT / "tests" / "data" / "figures"
DIGITS = 6  # significant digits kept of every float: the figures' numbers, not their last bits
# The dashboard (None) and every page. Generation and Train NLI draw their charts only after a
# button; their default view is checked to draw none.
PAGES: tuple[str | None, ...] = (
    None,
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py")),
)


def canonical(value: Any) -> Any:
    """`value` (figure JSON) with arrays decoded and floats rounded to DIGITS significant digits."""
    if isinstance(value, dict):
        if "bdata" in value:
            return canonical(decode(value).tolist())
        return {key: canonical(item) for key, item in sorted(value.items())}
    if isinstance(value, list | tuple):
        return [canonical(item) for item in value]
    if isinstance(value, float):
        if not math.isfinite(value):
            return str(value)
        return float(f"{value:.{DIGITS}g}")
    return value


def page_figures(page: str | None) -> dict[str, Any]:
    """The canonical figure JSON of every chart `page` draws by default, by widget key."""
    at = open_page(page)
    figures = {}
    for index, chart in enumerate(at.get("plotly_chart")):
        key = chart.proto.id.rpartition("-")[2] or str(index)
        figures[key] = canonical(json.loads(chart.proto.spec))
    return figures


def mark_cases() -> dict[str, Callable[[], go.Figure]]:
    """A heatmap with each of its marks, one at a time and together."""
    z = np.arange(20.0).reshape(4, 5) / 20
    mask = np.tril(np.ones((4, 5), dtype=bool), k=1)

    def together() -> go.Figure:
        notes = [marks.boxed_note("boxed")]
        fig = en.heatmap(
            z, title="all", kind="weights", mask=mask, notes=notes, bound=0.8, across=3
        )
        marks.select_cells(fig)
        marks.mark_cells(fig, [(0, 0)])
        marks.select(fig, 1, 1)
        return marks.vlines(fig, [2.5])

    return {
        "plain": lambda: en.heatmap(z, title="w", kind="weights"),
        "masked": lambda: en.heatmap(z, title="w", kind="weights", mask=mask),
        "masked_values": lambda: en.heatmap(
            z, title="w", kind="weights", mask=mask, masked_values=True
        ),
        "selectable": lambda: marks.select_cells(en.heatmap(z, title="s", kind="scores")),
        "selected_cell": lambda: marks.select(
            marks.select_cells(en.heatmap(z, title="s", kind="scores")), 1, 2
        ),
        "selected_row": lambda: marks.select(en.heatmap(z, title="s", kind="scores"), 2),
        "frame_row": lambda: marks.frame_row(en.heatmap(z, title="w", kind="weights"), 3),
        "marked": lambda: marks.mark_cells(
            en.heatmap(z, title="w", kind="weights", notes=[marks.boxed_note("boxed: hard")]),
            [(0, 1), (3, 4)],
        ),
        "vlines": lambda: marks.vlines(en.heatmap(z, title="v", kind="values"), [1.5, 3.5]),
        "cell_text": lambda: en.heatmap(
            z, title="w", kind="weights", cell_text=np.full((4, 5), "a<b")
        ),
        "together": together,
        "vector_rows": lambda: en.vector_rows(
            z, title="rows", row_labels=["a", "b", "c", "d"], dim_label="i"
        ),
    }


def reference_path(name: str) -> Path:
    return REFERENCES / f"{name}.json.gz"


def page_name(page: str | None) -> str:
    return "dashboard" if page is None else Path(page).stem


def read_reference(name: str) -> Any:
    with gzip.open(reference_path(name), "rt", encoding="utf-8") as file:
        return json.load(file)


def write_reference(name: str, figures: Any) -> None:
    REFERENCES.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same figures make the same bytes, so an unchanged reference is no diff.
    with (
        open(reference_path(name), "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as file,
    ):
        file.write(json.dumps(figures, sort_keys=True, indent=0).encode())


def first_difference(got: Any, want: Any, path: str = "") -> str | None:
    """Where `got` and `want` first differ, as a path into the figure JSON."""
    if type(got) is not type(want):
        kinds = f"{type(got).__name__} != {type(want).__name__}"
        return f"{path}: {kinds}, {str(got)[:80]} != {str(want)[:80]}"
    if isinstance(got, dict):
        for key in sorted(set(got) | set(want)):
            if key not in got or key not in want:
                return f"{path}/{key}: only in {'the page' if key in got else 'the reference'}"
            found = first_difference(got[key], want[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(got, list):
        if len(got) != len(want):
            return f"{path}: {len(got)} items != {len(want)}"
        for index, (a, b) in enumerate(zip(got, want, strict=True)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return None
    return None if got == want else f"{path}: {str(got)[:80]} != {str(want)[:80]}"


@pytest.mark.parametrize("page", PAGES, ids=page_name)
def test_every_pages_default_view_draws_its_reference_figures(page):
    got = page_figures(page)
    want = read_reference(page_name(page))
    assert sorted(got) == sorted(want), "the page's charts (by key) changed"
    assert first_difference(got, want) is None, first_difference(got, want)


def test_the_heatmaps_marks_draw_their_reference_figures():
    got = {name: canonical(json.loads(build().to_json())) for name, build in mark_cases().items()}
    want = read_reference("heatmap_marks")
    assert sorted(got) == sorted(want)
    assert first_difference(got, want) is None, first_difference(got, want)


def write(names: list[str]) -> None:
    for page in PAGES:
        if not names or page_name(page) in names:
            write_reference(page_name(page), page_figures(page))
    if not names or "heatmap_marks" in names:
        marks = {n: canonical(json.loads(b().to_json())) for n, b in mark_cases().items()}
        write_reference("heatmap_marks", marks)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"]:
        sys.exit("python -m tests.figures.test_identity --write [page ...]")
    write(sys.argv[2:])
