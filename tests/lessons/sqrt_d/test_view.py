"""The "why sqrt(d)" page through AppTest: every chart holds the backend's numbers."""

from __future__ import annotations

import time

import numpy as np
import pytest

from attnviz import scaling
from attnviz.i18n import t
from attnviz.lessons.sqrt_d import compute, view
from tests.apptest import chart, open_page
from tests.plotly_data import decode

PAGE = "pages/4_Why_sqrt_d.py"


def trace(at, key: str, name_key: str, index: int = 0, **values: object) -> dict:
    """The `index`-th trace named t(name_key) in chart `key`."""
    name = t(name_key, **values)
    found = [d for d in chart(at, key)["data"] if d.get("name") == name]
    return found[index]


def xs(at, key: str, name_key: str, index: int = 0, **values: object) -> np.ndarray:
    return decode(trace(at, key, name_key, index, **values)["x"]).astype(float)


def ys(at, key: str, name_key: str, index: int = 0, **values: object) -> np.ndarray:
    return decode(trace(at, key, name_key, index, **values)["y"]).astype(float)


def assert_page_shows(at, d: int, m: int, samples: int, seed: int) -> None:
    assert not at.exception, [e.value for e in at.exception]
    raw, scaled = scaling.dot_products(d, samples, seed)
    np.testing.assert_allclose(xs(at, view.HISTOGRAM, "sqrt_d.fig.raw"), raw, rtol=1e-12)
    np.testing.assert_allclose(xs(at, view.HISTOGRAM, "sqrt_d.fig.scaled"), scaled, rtol=1e-12)

    variance = scaling.variance_curve(compute.CURVE_DS, samples, seed)
    np.testing.assert_allclose(xs(at, view.VARIANCE, "sqrt_d.fig.raw"), compute.CURVE_DS)
    np.testing.assert_allclose(ys(at, view.VARIANCE, "sqrt_d.fig.raw"), variance["raw"])
    np.testing.assert_allclose(ys(at, view.VARIANCE, "sqrt_d.fig.scaled"), variance["scaled"])
    np.testing.assert_allclose(ys(at, view.VARIANCE, "sqrt_d.fig.theory_d"), compute.CURVE_DS)
    chosen = ys(at, view.VARIANCE, "sqrt_d.fig.current", d=d)
    np.testing.assert_allclose(chosen, [raw.var(), scaled.var()])
    np.testing.assert_allclose(xs(at, view.VARIANCE, "sqrt_d.fig.current", d=d), [d, d])

    for col, name in enumerate(("max_weight", "entropy")):
        for flag, label in ((False, "sqrt_d.fig.raw"), (True, "sqrt_d.fig.scaled")):
            curve = scaling.saturation_curve(compute.CURVE_DS, m, compute.QUERIES, seed, flag)
            np.testing.assert_allclose(ys(at, view.SATURATION, label, col), curve[name])
    at_d = [
        scaling.saturation_curve([d], m, compute.QUERIES, seed, flag)["entropy"][0]
        for flag in (False, True)
    ]
    np.testing.assert_allclose(ys(at, view.SATURATION, "sqrt_d.fig.current", 1, d=d), at_d)
    uniform = ys(at, view.SATURATION, "sqrt_d.fig.uniform_entropy", m=m)
    np.testing.assert_allclose(uniform, np.log(m))

    for flag, label in ((False, "sqrt_d.fig.raw"), (True, "sqrt_d.fig.scaled")):
        curve = scaling.softmax_gradient_curve(compute.CURVE_DS, m, compute.QUERIES, seed, flag)
        np.testing.assert_allclose(ys(at, view.GRADIENT, label), curve["jacobian_norm"])

    formulas = " ".join(e.value for e in at.get("latex"))
    assert rf"= d = {d}," in formulas
    assert f"{float(raw.var()):.3g}" in formulas and f"{float(scaled.var()):.3g}" in formulas


@pytest.fixture(scope="module")
def at():
    return open_page(PAGE)


def test_defaults_render_the_backend_numbers(at):
    assert_page_shows(at, d=64, m=16, samples=2000, seed=0)
    assert at.select_slider(key=view.D.key).value == 64 and at.slider(key=view.M.key).value == 16
    assert list(at.select_slider(key=view.D.key).proto.options) == [str(2**i) for i in range(11)]
    assert not at.info  # the small-d note is for d <= 4
    assert [s.value for s in at.subheader] == [
        t("sqrt_d.variance.heading"),
        t("sqrt_d.saturation.heading"),
        t("sqrt_d.gradient.heading"),
    ]


def test_warm_run_is_fast(at):
    at.run()  # warm: every result is cached
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    assert not at.exception
    # 300 ms is the target on a quiet machine; the bound leaves room for a loaded CI box.
    assert elapsed < 1.5, elapsed


def test_changing_d_m_samples_and_seed_changes_the_data():
    at = open_page(PAGE)
    at.select_slider(key=view.D.key).set_value(256).run()
    assert_page_shows(at, d=256, m=16, samples=2000, seed=0)
    at.slider(key=view.M.key).set_value(4).run()
    assert_page_shows(at, d=256, m=4, samples=2000, seed=0)
    at.number_input(key=view.SEED.key).set_value(5).run()
    assert_page_shows(at, d=256, m=4, samples=2000, seed=5)
    at.number_input(key=view.SAMPLES.key).set_value(500).run()
    assert_page_shows(at, d=256, m=4, samples=500, seed=5)
    # The values survive a visit to another page.
    at.switch_page("pages/1_Playground.py").run()
    at.switch_page(PAGE).run()
    assert at.select_slider(key=view.D.key).value == 256
    assert at.number_input(key=view.SEED.key).value == 5
    assert_page_shows(at, d=256, m=4, samples=500, seed=5)


def test_a_size_the_backend_refuses_shows_an_error_and_keeps_the_input(monkeypatch):
    # The widgets' bounds keep sizes legal; the backend's own check is the one error path.
    at = open_page(PAGE)
    monkeypatch.setattr(scaling, "MAX_D", 100)
    at.select_slider(key=view.D.key).set_value(128).run()
    assert not at.exception, [e.value for e in at.exception]
    assert len(at.error) == 1
    assert "d = 128 is out of range" in at.error[0].value
    assert "from 1 to 100" in at.error[0].value
    assert at.select_slider(key=view.D.key).value == 128
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("d", [1, 2, 4])
def test_a_small_d_says_the_normal_curve_shares_only_the_variance(d):
    at = open_page(PAGE)
    at.select_slider(key=view.D.key).set_value(d).run()
    assert_page_shows(at, d=d, m=16, samples=2000, seed=0)
    raw, _ = scaling.dot_products(d, 2000, 0)
    centred = raw.numpy() - raw.numpy().mean()
    kurtosis = (centred**4).mean() / (centred**2).mean() ** 2 - 3
    [note] = [i.value for i in at.info]
    assert f"At d = {d} the dashed normal curve does not fit" in note
    assert f"6/d = {6 / d:.3g} here (measured: {kurtosis:.2f})" in note
    assert "K₀(|x|)/π" in note and "share only their mean 0 and their variance" in note


def test_the_note_goes_above_d_4():
    at = open_page(PAGE)
    at.select_slider(key=view.D.key).set_value(8).run()
    assert_page_shows(at, d=8, m=16, samples=2000, seed=0)
    assert not at.info
