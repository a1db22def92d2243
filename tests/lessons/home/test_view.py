"""The landing page through AppTest: the picture, the live example, the tour."""

from __future__ import annotations

import numpy as np

from attnviz.attention import attend
from attnviz.lessons.home import view as home
from tests.apptest import chart, open_page, small_inputs, z_of


def test_dashboard_draws_the_picture_and_a_live_example():
    at = open_page()
    q, k, v = small_inputs()
    np.testing.assert_allclose(z_of(at, "home_weights"), attend(q, k, v).weights, rtol=1e-5)
    at.slider(key=home.TEMPERATURE.key).set_value(0.2).run()
    expected = attend(q, k, v, temperature=0.2).weights
    np.testing.assert_allclose(z_of(at, "home_weights"), expected, rtol=1e-5)
    assert chart(at, "home_pipeline")["layout"]["annotations"]
    assert "Playground" in [link.proto.label for link in at.get("page_link")]


def test_the_picture_is_built_once_per_language(monkeypatch):
    built = []
    real = home.pipeline_figure
    monkeypatch.setattr(home, "pipeline_figure", lambda text: built.append(1) or real(text))
    home.pipeline.clear()
    at = open_page()
    for temperature in (0.5, 1.5, 2.0):
        at.slider(key=home.TEMPERATURE.key).set_value(temperature).run()
    assert len(built) == 1  # the temperature changes the example, not the picture
    boxes = [a["text"] for a in chart(at, "home_pipeline")["layout"]["annotations"] if a["text"]]
    assert len(boxes) == 7 and len(chart(at, "home_pipeline")["layout"]["shapes"]) == 7
