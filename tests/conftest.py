"""The real model, loaded once per test module, for the tests that need it."""

from __future__ import annotations

import pytest

from attnviz.encoder import Encoder, load_encoder


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder()
