"""Every chart of every page is drawn once: its margins already hold its tick labels, axis
titles, colour bar and legend, so Plotly's automatic margins never push and redraw it. A second
drawing was the rule before (every chart, 0.05-0.15 s each in Chromium); an estimate that falls
short now (`attnviz.figures.style.text_width`) shows here as the chart and the margin it needed.
"""

from __future__ import annotations

import pytest

from tests.e2e.pages import default_pages
from tests.e2e.test_playground_browser import wait_for_charts

RANDOM_64 = "src=random&n=64&m=64&dq=64&dk=64&dv=64&seed=0"
PAGES = [  # (path and query, charts): every lesson's page, and views beyond the defaults
    *default_pages(),
    (f"Playground?{RANDOM_64}", 6),
    ("Multi_head?h=8", 3),
    ("NLI_alignment", 6),
    ("Across_layers?view=flow", 2),
    ("Across_layers?view=heads", 10),
    ("Across_layers?view=saliency", 1),
]
KOREAN = [
    "Playground", "Additive_attention", "NLI_alignment", "Model_attention", "Across_layers",
    "Across_layers?view=heads",
]  # fmt: skip

REDRAWN = """() => [...document.querySelectorAll('.js-plotly-plot')]
  .filter(gd => '_redrawFromAutoMarginCount' in gd._fullLayout)
  .map(gd => {
    const m = gd._fullLayout.margin, s = gd._fullLayout._size;
    return `${gd._fullLayout.title.text}: margins l r t b ${[m.l, m.r, m.t, m.b]}, ` +
      `needed ${[s.l, s.r, s.t, s.b]}`;
  })"""


def redrawn_charts(page, app_url: str, path: str, charts: int) -> list[str]:
    page.goto(f"{app_url}/{path}")
    wait_for_charts(page, charts)
    page.wait_for_timeout(500)  # the last chart's drawing (and a second one) is over
    return page.evaluate(REDRAWN)


@pytest.mark.parametrize(
    ("path", "charts"), PAGES, ids=[f"{p or 'landing'}-{i}" for i, (p, _) in enumerate(PAGES)]
)
def test_every_chart_is_drawn_once(app_url, page, path, charts):
    assert redrawn_charts(page, app_url, path, charts) == []


def test_every_chart_is_drawn_once_in_korean(app_url, page):
    counts = {path: charts for path, charts in reversed(PAGES)}  # the first entry's count
    redrawn = {path: redrawn_charts(page, app_url, korean(path), counts[path]) for path in KOREAN}
    assert redrawn == {path: [] for path in KOREAN}


def korean(path: str) -> str:
    """`path` with the Korean language added to its query."""
    return f"{path}{'&' if '?' in path else '?'}lang=ko"
