"""The real model, loaded once per test module, for the tests that need it."""

from __future__ import annotations

import pytest

from attnviz.transformer import models
from attnviz.transformer.encoder import Encoder, load_encoder


@pytest.fixture(scope="module")
def encoder() -> Encoder:
    return load_encoder()


@pytest.fixture(scope="module")
def smol() -> Encoder:
    """SmolLM2-135M-Instruct, converted once into attnviz's cache."""
    return Encoder(models.resolve(models.SMOLLM2))


# tests/test_install.py builds a whole environment and runs in it (about 2.5 minutes, mostly on
# one core): first in the order, so that pytest-xdist starts it on one worker while the other
# takes the files after it, instead of running it alone at the end.
SLOWEST_FIRST = ("test_install.py",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name not in SLOWEST_FIRST)  # stable: the rest keep order
