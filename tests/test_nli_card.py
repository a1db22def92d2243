"""The card of an NLI checkpoint, typed: every format attnviz wrote loads, each accuracy names its
data, and the page's numbers are the card's (an altered card changes what the page says)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from attnviz.errors import InputError
from attnviz.i18n import EN, KO
from attnviz.nli import checkpoint
from attnviz.nli.card import Card
from tests.apptest import open_page

V1 = Path(__file__).parent / "data" / "nli_card_v1.json"  # the card shipped before the real data


def test_a_card_of_the_first_format_still_loads():
    card = Card.from_json(V1.read_bytes())
    assert card.format == "attnviz-nli/1" and card.source == "contextual" and card.layer == 3
    assert card.real is None and card.tuned is None
    name, scores = card.headline
    assert name == "own_test" and scores.pairs == 939
    assert scores.accuracy == pytest.approx(0.8562, abs=1e-4)
    assert scores.baseline == pytest.approx(0.7678, abs=1e-4)
    assert scores.ece == pytest.approx(0.0366) and scores.ece_uncalibrated == pytest.approx(0.0584)
    assert card.temperature == pytest.approx(1.5732) and card.fitted_on == "dev"
    assert card.alignment is not None and card.alignment.rate == pytest.approx(0.8608, abs=1e-4)
    assert card.hard is not None and card.hard.by_tag[0] == (
        "temporal",
        pytest.approx(0.45, abs=1e-3),
        1511,
    )
    assert len(card.mistakes) == 40 and card.swap is not None
    assert json.loads(card.to_json()) == json.loads(V1.read_bytes())


def test_the_shipped_card_names_its_data():
    card = Card.from_json(checkpoint.card_path(checkpoint.DEFAULT_CHECKPOINT).read_bytes())
    assert card.format == "attnviz-nli/2" and card.real is not None
    name, scores = card.headline
    assert name == "snli_test" and scores.pairs == 9824 and scores.baseline is not None
    assert set(scores.per_label) == {"entailment", "neutral", "contradiction"}
    assert card.own_test is not None and card.own_test.pairs == 939
    assert card.fitted_on == "select" and card.tuned is not None


@pytest.mark.parametrize(
    "change",
    [
        {"format": "attnviz-nli/9"},
        {"labels": ["entailment", "contradiction", "neutral"]},
        {"embedding": {"source": "glove", "layer": None}},
        {"calibration": {"temperature": -1}},
        {"scale": "cube"},
    ],
)
def test_a_card_it_cannot_read_is_refused_with_a_message(change):
    raw = json.loads(V1.read_bytes()) | change
    with pytest.raises(InputError):
        Card.from_json(raw)


def test_the_strings_write_no_figure_of_the_card():
    """Accuracies, intervals and pair counts come from the card at run time: no catalogue
    string of the NLI pages spells one out."""
    figure = re.compile(r"\b0\.\d{2,}|\b\d{2}\.\d%|9,824|41,752")
    for catalogue in (EN, KO):
        written = {k: v for k, v in catalogue.items() if k.startswith(("nli.", "train_nli."))}
        assert not {k for k, v in written.items() if figure.search(v)}


def test_the_page_reads_its_numbers_from_the_card(tmp_path, monkeypatch):
    """A copy of the shipped checkpoint whose card says SNLI test accuracy 0.7123: the card's
    popover and what the model learned say 0.712 / 71.2%, nowhere the real figure."""
    for path in checkpoint.DEFAULT_CHECKPOINT.parent.iterdir():
        shutil.copy(path, tmp_path / path.name)
    card_file = tmp_path / "default.json"
    raw = json.loads(card_file.read_text())
    real = raw["real"]["snli_test"]["accuracy"]
    raw["real"]["snli_test"]["accuracy"] = 0.7123
    card_file.write_text(json.dumps(raw))
    monkeypatch.setenv(checkpoint.CHECKPOINT_ENV, str(tmp_path / "default.safetensors"))
    at = open_page("pages/7_NLI_alignment.py")
    at.session_state["nli_learned_open"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    text = " ".join(str(m.value) for m in at.markdown)
    assert "0.712" in text and f"{real:.3f}" not in text
