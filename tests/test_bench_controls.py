"""The repaint benchmark's cases drive real controls: each one's change reaches the figures."""

from __future__ import annotations

import json

import pytest

from benchmarks import bench_controls


@pytest.mark.parametrize("case", bench_controls.all_cases(0), ids=lambda case: case.name)
def test_every_case_changes_a_control_the_page_has_and_its_figures(case):
    frames = bench_controls.frames_of(case)  # through AppTest, as the benchmark takes them
    assert frames.control["key"] == case.key and frames.control["label"]
    assert len(frames.frames) == 2, "the round set a new value"
    opening, changed = frames.frames.values()
    assert opening and len(changed) == len(opening)
    assert changed != opening, "the change reached a figure"
    for spec in changed:
        assert "layout" in json.loads(spec) or (case.tables and "table" in json.loads(spec))
    if case.kind in ("select", "radio", "segmented"):
        assert frames.targets[0] in frames.control["options"]
