"""Layouts that hold from 1 x 1 to 2048 x 2048: in a real Chromium, no two texts of a chart
overlap (tick labels, cell numbers, notes, colour bar ticks; measured on their rendered boxes),
no text runs out of its chart, and a square matrix gets square cells. One browser session walks
the Playground's sizes and every page's defaults, and every page again in presenter mode
(larger chart text, the sidebar folded); SmolLM2's sink section opened at 1,366 and 1,500 px
keeps its norms chart's axis titles off the tick labels and the legend."""

from __future__ import annotations

import pytest

from tests.e2e.pages import default_pages
from tests.e2e.test_playground_browser import wait_for_charts

# Per chart: its title (a figure of panels: its panels' titles), the overlapping pairs of texts,
# the texts outside the chart, and each plot's width and height whose axes are tied to square
# cells (scaleanchor; a figure of panels has a plot a panel).
MEASURE = """() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
                         Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const boxes = [...gd.querySelectorAll('text')]
    .filter(t => t.textContent.trim() && getComputedStyle(t).opacity !== '0')
    .map(t => ({t, r: t.getBoundingClientRect()}))
    .filter(b => b.r.width > 0);
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.t.contains(b.t) || b.t.contains(a.t)) continue;
    if (area(a.r, b.r) > 4) overlaps.push(`${a.t.textContent} / ${b.t.textContent}`);
  }
  const edge = gd.getBoundingClientRect();
  const outside = boxes.filter(b => b.r.left < edge.left - 1 || b.r.right > edge.right + 1 ||
      b.r.top < edge.top - 1 || b.r.bottom > edge.bottom + 1).map(b => b.t.textContent);
  const fl = gd._fullLayout;
  const square = Object.keys(fl).filter(k => /^yaxis[0-9]*$/.test(k) && fl[k].scaleanchor)
    .map(k => [fl[fl[k].scaleanchor.replace('x', 'xaxis')]._length, fl[k]._length]);
  const title = ((gd.layout.meta || {}).titles || [fl.title.text]).join(' | ');
  return {title, overlaps: overlaps.slice(0, 5), outside, square};
})"""

RANDOM = "Playground?src=random&dq=8&dk=8&dv=8&seed=0"
SIZES = [(1, 10), (10, 1), (12, 12), (64, 64), (256, 256), (1024, 1024), (2048, 2048)]
CASES = [  # (path and query, charts it draws)
    *((f"{RANDOM}&n={n}&m={m}&lens=1", 6) for n, m in SIZES),  # with a mask, its note too
    ("Playground?preset=textbook", 6),
    *default_pages(),  # every lesson's page at its defaults
    ("Multi_head?h=8&causal=1", 3),
    ("Across_layers?view=flow", 2),
    ("Across_layers?view=heads", 10),
    ("Across_layers?view=saliency", 1),
    ("Across_layers?view=heads&lang=ko", 10),
    ("Playground?lang=ko&preset=textbook", 6),
    ("NLI_alignment?lang=ko", 3),
]


PRESENTED = [  # every page's defaults, and the Playground's largest numbered cells, presented
    *((f"{path}{'&' if '?' in path else '?'}present=1", n) for path, n in default_pages()),
    (f"{RANDOM}&n=12&m=12&present=1", 6),
]


def problems(page, app_url: str, path: str, charts: int) -> list[str]:
    page.goto(f"{app_url}/{path}")
    wait_for_charts(page, charts)
    page.wait_for_timeout(300)  # the last chart drawn
    found = []
    for chart in page.evaluate(MEASURE):
        title = chart["title"]
        found += [f"{title}: overlap {pair}" for pair in chart["overlaps"]]
        found += [f"{title}: outside its chart {text!r}" for text in chart["outside"]]
        for width, height in chart["square"]:
            if abs(width - height) > 2:
                found.append(f"{title}: cells not square ({width:.0f} x {height:.0f} px)")
    return found


@pytest.fixture(scope="module")
def sweep(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1500})
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("cases", [CASES, PRESENTED], ids=["sizes and pages", "presented"])
def test_no_text_overlaps_or_leaves_its_chart_at_any_size_or_page(app_url, sweep, cases):
    found = [
        f"{path}: {problem}"
        for path, charts in cases
        for problem in problems(sweep, app_url, path, charts)
    ]
    assert not found, "\n".join(found)


def test_square_matrices_get_square_cells(app_url, sweep):
    sweep.goto(f"{app_url}/{RANDOM}&n=12&m=12")
    wait_for_charts(sweep, 6)
    squares = [square for c in sweep.evaluate(MEASURE) for square in c["square"]]
    assert len(squares) == 3  # raw scores, masked scores, weights
    assert all(abs(width - height) <= 2 for width, height in squares)


# The boxes of one chart's axis titles, tick labels and legend entries (each entry's line and
# text together), found by the chart's title.
AXIS_BOXES = """title => {
  const gd = [...document.querySelectorAll('.js-plotly-plot')].find(d =>
      d._fullLayout && d._fullLayout.title.text === title);
  const boxes = selector => [...gd.querySelectorAll(selector)]
    .filter(e => e.getBoundingClientRect().width > 0 && (e.textContent || '').trim())
    .map(e => { const r = e.getBoundingClientRect();
                return {text: e.textContent, left: r.left, right: r.right, top: r.top,
                        bottom: r.bottom}; });
  return {titles: boxes('.g-xtitle text, .g-ytitle text'),
          ticks: boxes('.xtick text, .ytick text'), legend: boxes('.legend .traces')};
}"""
NORMS = "Residual stream norm, layer by layer"


def _overlap(a: dict, b: dict) -> float:
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, width) * max(0.0, height)


@pytest.mark.parametrize("width", [1366, 1500])
def test_the_sink_norms_axis_titles_leave_the_tick_labels_and_the_legend_clear(
    app_url, browser, width
):
    from tests.e2e.test_models_browser import TITLES
    from tests.e2e.test_playground_browser import wait_idle, wait_until

    context = browser.new_context(viewport={"width": width, "height": 1200})
    page = context.new_page()
    try:
        page.goto(f"{app_url}/Model_attention?model=smollm2")
        page.get_by_text("Attention sink: the first token").click(timeout=120_000)
        wait_until(page, f"() => ({TITLES})().includes('{NORMS}')", timeout=60_000)
        wait_idle(page)
        page.wait_for_timeout(300)  # the chart drawn
        boxes = page.evaluate(f"({AXIS_BOXES})('{NORMS}')")
        assert len(boxes["titles"]) == 2 and len(boxes["legend"]) == 3 and boxes["ticks"]
        found = [
            f"{title['text']!r} over {other['text']!r}"
            for title in boxes["titles"]
            for other in (*boxes["ticks"], *boxes["legend"])
            if _overlap(title, other) > 1
        ]
        found += [
            f"legend {entry['text']!r} over tick {tick['text']!r}"
            for entry in boxes["legend"]
            for tick in boxes["ticks"]
            if _overlap(entry, tick) > 1
        ]
        chart = next(c for c in page.evaluate(MEASURE) if c["title"] == NORMS)
        found += [f"overlap {pair}" for pair in chart["overlaps"]]
        found += [f"outside its chart {text!r}" for text in chart["outside"]]
        assert not found, "\n".join(found)
    finally:
        context.close()
