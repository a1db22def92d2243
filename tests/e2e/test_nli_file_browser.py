"""The NLI page's evaluation file in Chromium: a file of attnviz's own labelled pairs is scored,
the table of pairs it gets wrong keeps its verdict in view at 1,366 and 1,500 px, and a click on
a row shows that pair's alignment below."""

from __future__ import annotations

import json

import torch

from attnviz.encoder import load_encoder
from attnviz.nli import checkpoint
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
    wait_for_charts(page, 7)
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
        box, main = grid.bounding_box(), page.locator('[data-testid="stMain"]').bounding_box()
        assert box is not None and main is not None
        assert box["x"] + box["width"] <= main["x"] + main["width"] + 1, (width, box, main)
        headers = page.locator('[data-testid="stDataFrame"]').first.inner_text()
        assert "verdict" in headers or grid.get_attribute("data-testid") == "stDataFrame"
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
