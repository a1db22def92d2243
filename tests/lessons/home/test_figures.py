"""The landing page's picture through its layout: one box a step with its words in the page's
language, and arrows that leave one box's edge and end on the next one's, in the order attention
computes: Q and K to the scores, the mask, the softmax, then with V to the output."""

from __future__ import annotations

import contextvars
import math

import plotly.graph_objects as go
import pytest

from attnviz import i18n
from attnviz.lessons.home import figures
from tests.english import EN, KO, pipeline_figure

WORDS = {
    "en": [
        "queries Q (n × d_q)", "keys K (m × d_k)", "values V (m × d_v)",
        "scores a(q, k) (n × m)", "mask (padding, causal, cells)", "softmax per row: weights",
        "output = weights · V (n × d_v)",
    ],
    "ko": [
        "쿼리 Q (n × d_q)", "키 K (m × d_k)", "값 V (m × d_v)", "점수 a(q, k) (n × m)",
        "마스크(패딩, 인과, 셀)", "행별 소프트맥스: 가중치", "출력 = 가중치 · V (n × d_v)",
    ],
}  # fmt: skip
# Which box feeds which, by the English words' first word.
FLOW = {
    ("queries", "scores"),
    ("keys", "scores"),
    ("scores", "mask"),
    ("mask", "softmax"),
    ("softmax", "output"),
    ("values", "output"),
}


def boxes(fig: go.Figure) -> list[tuple[float, float, float, float]]:
    return [(s.x0, s.x1, s.y0, s.y1) for s in fig.layout.shapes if s.type == "rect"]


def words(fig: go.Figure) -> list[go.layout.Annotation]:
    return [a for a in fig.layout.annotations if not a.showarrow]


def on_edge(x: float, y: float, box: tuple[float, float, float, float]) -> bool:
    """Whether (x, y) lies on the box's outline."""
    x0, x1, y0, y1 = box
    inside = x0 - 1e-9 <= x <= x1 + 1e-9 and y0 - 1e-9 <= y <= y1 + 1e-9
    edge = min(abs(x - x0), abs(x - x1), abs(y - y0), abs(y - y1))
    return inside and edge < 1e-9


def edge_box(x: float, y: float, fig: go.Figure) -> int:
    """The one box whose outline holds (x, y)."""
    found = [i for i, box in enumerate(boxes(fig)) if on_edge(x, y, box)]
    assert len(found) == 1, (x, y, found)
    return found[0]


@pytest.mark.parametrize(("text", "lang"), [(EN, "en"), (KO, "ko")])
def test_each_step_is_a_box_with_its_words_in_the_middle(text, lang):
    fig = figures.pipeline_figure(text)
    assert len(fig.data) == 0  # a picture: shapes and words only
    rects = boxes(fig)
    labels = words(fig)
    assert [a.text for a in labels] == WORDS[lang]
    assert len(rects) == len(labels) == 7
    for (x0, x1, y0, y1), label in zip(rects, labels, strict=True):
        assert x0 < x1 and y0 < y1
        assert math.isclose(label.x, (x0 + x1) / 2) and math.isclose(label.y, (y0 + y1) / 2)
        # inside the visible axes
        assert fig.layout.xaxis.range[0] < x0 and x1 < fig.layout.xaxis.range[1]
        assert fig.layout.yaxis.range[0] < y0 and y1 < fig.layout.yaxis.range[1]
    for i, a in enumerate(rects):  # no two boxes overlap
        for b in rects[i + 1 :]:
            assert a[1] <= b[0] or b[1] <= a[0] or a[3] <= b[2] or b[3] <= a[2]
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    assert fig.layout.height == 330
    title = {"en": "From queries, keys and values to outputs", "ko": "쿼리, 키, 값에서 출력까지"}
    assert fig.layout.title.text == title[lang]


def test_arrows_run_edge_to_edge_in_the_order_of_the_computation():
    fig = pipeline_figure()
    names = [a.text.split()[0] for a in words(fig)]
    arrows = [a for a in fig.layout.annotations if a.showarrow]
    flow = set()
    for arrow in arrows:
        assert (arrow.xref, arrow.yref, arrow.axref, arrow.ayref) == ("x", "y", "x", "y")
        start, end = edge_box(arrow.ax, arrow.ay, fig), edge_box(arrow.x, arrow.y, fig)
        flow.add((names[start], names[end]))
    assert len(arrows) == len(flow) == len(FLOW)
    assert flow == FLOW


def test_the_picture_is_drawn_in_the_catalogues_language_not_the_current_one():
    def built_in_korean_context() -> str:
        i18n.set_language("ko")
        return figures.pipeline_figure(EN).to_json()

    inside = contextvars.copy_context().run(built_in_korean_context)
    assert inside == figures.pipeline_figure(EN).to_json()
    assert "queries Q" in inside and "쿼리" not in inside
