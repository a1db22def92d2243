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


def test_a_cards_values_for_the_side_by_side_table_and_the_hard_rows():
    from attnviz.lessons.nli.compute import CARD_ROWS, card_values, hard_rows

    card = {
        "data": {"train": {"file": "train.jsonl", "pairs": 7512}},
        "embedding": {"source": "contextual", "layer": 3},
        "align": "cosine",
        "dev_accuracy": 0.8654,
        "test": {"accuracy": 0.8562},
        "baseline": {"accuracy": 0.7678},
        "calibration": {"temperature": 1.5732, "ece_test": 0.0584, "ece_test_calibrated": 0.0366},
        "evaluation": {
            "alignment": {"rate": 0.8608, "untrained_rate": 0.8812},
            "premise_swap": {"entailment_swapped": 0.0032},
            "hard": {"by_tag": {"number": {"accuracy": 0.48, "pairs": 1351}}},
        },
    }
    values = card_values(card)
    assert set(values) == set(CARD_ROWS)
    assert values["pairs"] == "7,512" and values["source"] == "contextual 3"
    assert (values["dev"], values["test"], values["baseline"]) == ("0.865", "0.856", "0.768")
    assert values["ece"] == "0.058 → 0.037" and values["temperature"] == "1.573"
    assert values["hits"] == "86.1% (88.1%)" and values["swap"] == "0.3%"
    assert hard_rows(card) == [("number", 0.48, 1351)]
    # An older card (no align, calibration or evaluation) reads with dashes, not an error.
    old = card_values({"embedding": {"source": "static", "layer": None}})
    assert old["align"] == "mlp" and old["temperature"] == "–" and old["hits"] == "–"
    assert old["ece"] == "– → –" and hard_rows({}) == []
