"""Pages through AppTest: open a page as a person does, read its charts' data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch
from streamlit.testing.v1 import AppTest

from attnviz import inputs
from attnviz.parsing import parse_matrix
from tests.plotly_data import decode, panel_z

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 60


def open_page(page: str | None = None) -> AppTest:
    """Start at the dashboard, as a person does, then switch to `page` (pages/...)."""
    at = AppTest.from_file(str(ROOT / "dashboard.py"), default_timeout=TIMEOUT).run()
    if page is not None:
        at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart(at: AppTest, key: str) -> dict:
    """The figure JSON of the chart with widget key `key`."""
    matches = [c for c in at.get("plotly_chart") if c.proto.id.endswith(f"-{key}")]
    assert len(matches) == 1, [c.proto.id for c in at.get("plotly_chart")]
    return json.loads(matches[0].proto.spec)


def z_of(at: AppTest, key: str) -> np.ndarray:
    return decode(chart(at, key)["data"][0]["z"])


def panel_z_of(at: AppTest, key: str, panel: int) -> np.ndarray:
    """The matrix of panel `panel` of the figure of panels with widget key `key`."""
    return panel_z(chart(at, key), panel)


def small_inputs() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    preset = inputs.PRESETS[inputs.DEFAULT_PRESET]
    return parse_matrix(preset.queries), parse_matrix(preset.keys), parse_matrix(preset.values)


def texts_of(at: object) -> str:
    """Every error, warning and info box of a page, as one text."""
    return " ".join(
        str(e.value) for kind in ("error", "warning", "info") for e in getattr(at, kind)
    )
