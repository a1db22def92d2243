"""The NLI page's evaluation file in Chromium: a file of attnviz's own labelled pairs is scored,
the table of pairs it gets wrong keeps its verdict and its probability in view at 1,366 and
1,500 px (their columns measured where the grid draws them), and a click on a row shows that
pair's alignment below."""

from __future__ import annotations

import io
import itertools
import json

import numpy as np
import torch
from PIL import Image

from attnviz.nli import checkpoint
from attnviz.transformer.encoder import load_encoder
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.test_model_pages_browser import no_exception
from tests.e2e.test_playground_browser import wait_for_charts, wait_idle, wait_until

ROWS = 35  # Streamlit's data grid: rows and header of 35 px
# Every heatmap's column tokens: the trained alignment's are the pair on view.
COLUMNS = (
    "() => Array.from(document.querySelectorAll('.js-plotly-plot'))"
    ".filter(d => (d.data || []).length && d.data[0].type === 'heatmap')"
    ".map(d => Array.from((d.layout.xaxis || {}).ticktext || []).join(' '))"
)


def column_spans(grid) -> list[tuple[int, int]]:
    """Each column's (left, right) in the grid's own pixels, left to right, the row markers
    left out. The grid draws on a canvas (its accessible table's cells have no size), so the
    columns are found where it draws them: the header's vertical rules, one pixel wide and the
    same from the header's top to its bottom."""
    header = np.asarray(Image.open(io.BytesIO(grid.screenshot())).convert("L"), dtype=float)
    header = header[4 : ROWS - 4]  # the header row, inside its borders
    rules = np.flatnonzero((header.std(axis=0) < 1) & (header.mean(axis=0) < 240)).tolist()
    return list(itertools.pairwise(rules))


def header_names(grid) -> list[str]:
    """The grid's column headers in order, from its accessible table."""
    return [name.strip() for name in grid.locator("[role=columnheader]").all_text_contents()]


def scored_file(tmp_path, count: int = 300):
    rows = [json.loads(line) for line in (checkpoint.DATA_DIR / "test.jsonl").read_text()
            .splitlines()[:count]]  # fmt: skip
    path = tmp_path / "own_test.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows))
    classifier = checkpoint.load_classifier(encoder=load_encoder())
    pairs = [(row["sentence1"], row["sentence2"]) for row in rows]
    gold = torch.tensor([["entailment", "neutral", "contradiction"].index(row["gold_label"])
                         for row in rows])  # fmt: skip
    wrong = (classifier.predict(pairs).argmax(-1) != gold).nonzero().flatten().tolist()
    return path, pairs, wrong


def test_a_click_on_a_wrong_pair_shows_its_alignment(app_url, page, tmp_path):
    path, pairs, wrong = scored_file(tmp_path)
    assert len(wrong) >= 2
    page.goto(f"{app_url}/NLI_alignment")
    wait_for_charts(page, 6)
    page.get_by_role("radio", name="Score a file").click()
    upload = page.locator('[data-testid="stFileUploaderDropzoneInput"][accept*=".jsonl"]')
    upload.wait_for(state="attached", timeout=30_000)
    upload.set_input_files(str(path))
    page.get_by_text("Pairs it gets wrong").wait_for(timeout=120_000)
    wait_idle(page)
    assert no_exception(page)
    grid = page.locator('[data-testid="stDataFrame"]').first
    for width in (1366, 1500):
        page.set_viewport_size({"width": width, "height": 1500})
        wait_idle(page)
        grid.scroll_into_view_if_needed()
        box = grid.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, (width, box)
        names, spans = header_names(grid), column_spans(grid)
        for name in ("verdict", "P(verdict)"):
            # Its column's right rule is drawn inside the grid: seen without scrolling sideways.
            index = names.index(name)
            assert index < len(spans), (width, name, names, spans)
            left, right = spans[index]
            assert 0 < left < right <= box["width"], (width, name, spans, box)
    page.screenshot(path=str(SCREENSHOTS / "nli_file.png"), full_page=True)
    second = pairs[wrong[1]]
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 12, box["y"] + ROWS * 1.5 + ROWS)  # the second row's marker
    wait_idle(page)
    first_word = second[0].split()[0].lower().strip(".,")
    wait_until(page, f"() => ({COLUMNS})().some(x => x.toLowerCase().includes({first_word!r}))",
               timeout=60_000)  # fmt: skip
    assert no_exception(page)
