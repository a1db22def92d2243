"""One declaration per control (attnviz.app.controls): what a link may set, parsed and formatted."""

from __future__ import annotations

import math

import pytest

from attnviz.app import controls

POWERS = tuple(2**i for i in range(11))  # 1 .. 1024


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
        (controls.ladder_control("d", "k", 64, POWERS), "256", 256),
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
        (controls.ladder_control("d", "k", 64, POWERS), "0"),
        (controls.ladder_control("d", "k", 64, POWERS), "1025"),
        (controls.ladder_control("d", "k", 64, POWERS), "64.0"),
        (controls.ladder_control("d", "k", 64, POWERS), "nan"),
    ],
)
def test_bad_values_are_refused(param, raw):
    with pytest.raises(ValueError):
        param.parse(raw)


@pytest.mark.parametrize(
    ("raw", "step"),
    [("1", 1), ("3", 4), ("5", 4), ("6", 8), ("90", 64), ("91", 128), ("100", 128), ("1024", 1024)],
)
def test_a_ladder_reads_a_number_between_steps_as_the_nearest_on_a_log_scale(raw, step):
    # 90 < 64 * sqrt(2) = 90.51 < 91: the geometric midpoint between 64 and 128.
    assert controls.ladder_control("d", "k", 64, POWERS).parse(raw) == step


@pytest.mark.parametrize("steps", [(), (0, 1, 2), (4, 2, 1), (1, 2, 2)])
def test_a_ladder_needs_increasing_positive_steps(steps):
    with pytest.raises(ValueError, match="increasing positive"):
        controls.ladder_control("d", "k", 1, steps)


# --------------------------------------------------------------------------------------
# The Playground from a link
# --------------------------------------------------------------------------------------
