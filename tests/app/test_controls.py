"""One declaration per control (attnviz.app.controls): what a link may set, parsed and formatted."""

from __future__ import annotations

import math

import pytest

from attnviz.app import controls


@pytest.mark.parametrize(
    ("param", "raw", "value"),
    [
        (controls.int_control("n", "k", 6, 1, 2048), "12", 12),
        (controls.int_control("n", "k", 6, 1, 2048), " 7 ", 7),
        (controls.float_control("T", "k", 1.0, 0.05, 5.0), "0.25", 0.25),
        (controls.bool_control("c", "k"), "1", True),
        (controls.bool_control("c", "k"), "false", False),
        (controls.choice_control("s", "k", "dot", ("dot", "cosine")), "cosine", "cosine"),
        (
            controls.choice_control("f", "k", -1e6, {"-1e6": -1e6, "-inf": -math.inf}),
            "-inf",
            -math.inf,
        ),
        (controls.text_control("Q", "k"), "1, 2\n3, 4", "1, 2\n3, 4"),
        (controls.cells_control("cells", "k"), "0.1,2.3", frozenset({(0, 1), (2, 3)})),
        (controls.cells_control("cells", "k"), "", frozenset()),
    ],
)
def test_params_parse_and_format_round_trip(param, raw, value):
    assert param.parse(raw) == value
    assert param.parse(param.format(value)) == value


@pytest.mark.parametrize(
    ("param", "raw"),
    [
        (controls.int_control("n", "k", 6, 1, 2048), "-1"),
        (controls.int_control("n", "k", 6, 1, 2048), "99999999"),
        (controls.int_control("n", "k", 6, 1, 2048), "1" * 5000),
        (controls.int_control("n", "k", 6, 1, 2048), "1.5"),
        (controls.int_control("n", "k", 6, 1, 2048), "<script>"),
        (controls.float_control("T", "k", 1.0, 0.05, 5.0), "nan"),
        (controls.float_control("T", "k", 1.0, 0.05, 5.0), "inf"),
        (controls.float_control("T", "k", 1.0, 0.05, 5.0), "1e309"),
        (controls.float_control("T", "k", 1.0, 0.05, 5.0), "0"),
        (controls.bool_control("c", "k"), "maybe"),
        (controls.choice_control("s", "k", "dot", ("dot", "cosine")), "<script>alert(1)</script>"),
        (controls.choice_control("s", "k", "dot", ("dot", "cosine")), "__class__"),
        (controls.text_control("Q", "k"), "1\x002"),
        (controls.cells_control("cells", "k"), "0.1,x.2"),
        (controls.cells_control("cells", "k", limit=2), "0.1,0.2,0.3"),
    ],
)
def test_bad_values_are_refused(param, raw):
    with pytest.raises(ValueError):
        param.parse(raw)


# --------------------------------------------------------------------------------------
# The Playground from a link
# --------------------------------------------------------------------------------------
