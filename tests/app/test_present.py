"""Presenter mode through AppTest: read from a link on any page, set by the sidebar's switch,
kept in the session and in every page's link."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from attnviz.app import links, page, plot
from attnviz.figures.style import FONT_SIZE
from attnviz.i18n import EN
from tests.app.test_links_pages import HOME, MASKING, SQRT_D, open_link, url
from tests.apptest import open_page


def styles(at: AppTest) -> list[str]:
    """The bodies of the page's st.html elements."""
    return [element.proto.body for element in at.get("html")]


def switch(at: AppTest) -> bool:
    return bool(at.toggle(key=links.PRESENT.key).value)


def test_a_link_with_present_1_turns_it_on():
    at = open_link(HOME, {"present": "1"})
    assert switch(at) is True
    assert styles(at) == ["<style>html { font-size: 137.5%; }</style>"]
    assert url(at) == {"present": "1"}


def test_a_link_on_another_page_turns_it_on_without_an_unknown_setting_notice():
    at = open_link(SQRT_D, {"present": "1", "d": "32"})
    assert switch(at) is True and styles(at) == [page.PRESENT_CSS]
    assert url(at) == {"present": "1", "d": "32"}
    assert not at.warning
    assert all("does not know" not in caption.value for caption in at.caption)


def test_a_normal_page_has_no_style_and_a_plain_address():
    at = open_page()
    assert switch(at) is False
    assert styles(at) == [] and url(at) == {}
    assert at.toggle(key=links.PRESENT.key).label == EN["present.label"]


def test_the_switch_publishes_it_and_turns_it_off_with_one_change():
    at = open_page()
    at.toggle(key=links.PRESENT.key).set_value(True).run()
    assert url(at) == {"present": "1"} and styles(at) == [page.PRESENT_CSS]
    # The address now holds the page's own ?present=1, which is not a link to read again.
    at.toggle(key=links.PRESENT.key).set_value(False).run()
    assert switch(at) is False and styles(at) == [] and url(at) == {}
    at.toggle(key=links.PRESENT.key).set_value(True).run()
    assert switch(at) is True and url(at) == {"present": "1"}


def test_it_stays_on_across_pages():
    at = open_page()
    at.toggle(key=links.PRESENT.key).set_value(True).run()
    at.query_params.clear()  # Streamlit drops the query string on a page change
    at.switch_page(MASKING).run()
    assert not at.exception
    assert switch(at) is True and styles(at) == [page.PRESENT_CSS]
    assert url(at) == {"present": "1"}
    at.toggle(key=links.PRESENT.key).set_value(False).run()
    assert styles(at) == [] and url(at) == {}


def test_the_link_is_read_once_a_session_then_the_switch_decides():
    at = open_link(HOME, {"present": "1"})
    at.toggle(key=links.PRESENT.key).set_value(False).run()
    at.switch_page(MASKING).run()  # the stale ?present=1 of the first address does not return
    assert switch(at) is False and url(at) == {}


def test_a_value_the_link_cannot_use_keeps_it_off_and_says_so():
    at = open_link(HOME, {"present": "maybe"})
    assert switch(at) is False and styles(at) == [] and url(at) == {}
    assert [toast.value for toast in at.toast] == [EN["links.bad_values"].format(names="`present`")]


def chart_fonts(at: AppTest) -> list[tuple[float, float]]:
    """(font size, height) of each chart the page sent."""
    layouts = [json.loads(chart.proto.spec)["layout"] for chart in at.get("plotly_chart")]
    return [(layout["font"]["size"], layout["height"]) for layout in layouts]


def test_presenter_mode_sends_every_chart_larger():
    normal = chart_fonts(open_link(MASKING, {}))
    presented = open_link(MASKING, {"present": "1"})
    larger = chart_fonts(presented)
    assert len(larger) == len(normal) == 5
    assert all(size == FONT_SIZE for size, _ in normal)
    scale = plot.PRESENT_CHART_SCALE
    assert larger == [(size * scale, height * scale) for size, height in normal]
