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
