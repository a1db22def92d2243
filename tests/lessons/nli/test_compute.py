"""The NLI lesson's numbers: which MiniLM layer a hidden state is the output of."""

from __future__ import annotations

import pytest

from attnviz.encoder import model_layer


@pytest.mark.parametrize(
    ("hidden_state", "layer"), [(0, None), (1, 0), (3, 2), (6, 5), (-1, 5), (-6, 0), (-7, None)]
)
def test_hidden_state_k_is_the_output_of_layer_k_minus_1(hidden_state, layer):
    assert model_layer(hidden_state, 6) == layer


@pytest.mark.parametrize("hidden_state", [7, -8])
def test_a_hidden_state_the_model_has_not_is_refused(hidden_state):
    with pytest.raises(ValueError, match=f"hidden state {hidden_state} is not one of 0..6"):
        model_layer(hidden_state, 6)
