"""The NLI lesson's numbers: which MiniLM layer a hidden state is the output of."""

from __future__ import annotations

import pytest

from attnviz.transformer.encoder import model_layer


@pytest.mark.parametrize(
    ("hidden_state", "layer"), [(0, None), (1, 0), (3, 2), (6, 5), (-1, 5), (-6, 0), (-7, None)]
)
def test_hidden_state_k_is_the_output_of_layer_k_minus_1(hidden_state, layer):
    assert model_layer(hidden_state, 6) == layer


@pytest.mark.parametrize("hidden_state", [7, -8])
def test_a_hidden_state_the_model_has_not_is_refused(hidden_state):
    with pytest.raises(ValueError, match=f"hidden state {hidden_state} is not one of 0..6"):
        model_layer(hidden_state, 6)


def test_a_cards_values_for_the_side_by_side_table():
    from pathlib import Path

    from attnviz.lessons.nli.compute import CARD_ROWS, card_values
    from attnviz.nli.card import Card

    v1 = Path(__file__).parents[2] / "data" / "nli_card_v1.json"
    values = card_values(Card.from_json(v1.read_bytes()))
    assert set(values) == set(CARD_ROWS)
    assert values["pairs"] == "7,512" and values["source"] == "contextual 3"
    assert (values["dev"], values["test"], values["baseline"]) == ("0.865", "0.856", "0.768")
    assert values["measured"] == "own_test" and values["data"] == "train.jsonl"
    assert values["ece"] == "0.058 → 0.037" and values["temperature"] == "1.573"
    assert values["hits"] == "86.1% (88.1%)" and values["swap"] == "0.3%"
    # An older card (no align, calibration or evaluation) reads with dashes, not an error.
    old = card_values(Card.from_json({
        "format": "attnviz-nli/1", "labels": ["entailment", "neutral", "contradiction"],
        "scale": "none", "dropout": 0.2, "sizes": {"d": 384, "hidden": 200},
        "embedding": {"source": "static", "layer": None},
    }))  # fmt: skip
    assert old["align"] == "mlp" and old["temperature"] == "–" and old["hits"] == "–"
    assert old["ece"] == "– → –" and old["measured"] == ""
