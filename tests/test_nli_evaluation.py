"""What a trained NLI classifier is judged by (attnviz.nli.evaluation): alignment hits against
hand-marked words, the premise swap, accuracy per tag; each against a computation by hand."""

from __future__ import annotations

import torch

from attnviz.nli import evaluation
from attnviz.nli.data import Example


def test_pieces_map_to_the_words_people_mark(encoder):
    words = evaluation.piece_words(encoder, "The girls' unicycle, (red).")
    pieces = encoder.pieces(["The girls' unicycle, (red)."], ["s"])[0].encoding.tokens
    assert len(words) == len(pieces)
    assert set(words) == {"the", "girls", "unicycle", "red"}
    assert words[pieces.index("red")] == "red" and words[pieces.index(",")] == "unicycle"


def test_alignment_hits_count_the_strongest_premise_word_of_each_marked_word(encoder):
    premise, hypothesis = "A man plays guitar.", "A person plays music."
    ex = Example(premise, hypothesis, 0, alignment=(("person", ("man",)), ("music", ("guitar",)),
                                                     ("plays", ("plays",)), ("a", ())))  # fmt: skip
    p_words = evaluation.piece_words(encoder, premise)  # a man plays guitar .
    h_words = evaluation.piece_words(encoder, hypothesis)  # a person plays music .
    weights = torch.zeros(len(h_words), len(p_words))
    for j, word in enumerate(h_words):
        target = {"person": "man", "music": "plays", "plays": "plays"}.get(word, "a")
        weights[j, p_words.index(target)] = 1.0  # music -> plays: a miss

    found = evaluation.alignment_hits(encoder, [ex], lambda pairs: [weights])
    assert (found.hits, found.marked) == (2, 3)  # "a" is marked with none: left out
    assert found.by_label["entailment"] == (2, 3) and found.rate == 2 / 3


def test_a_swapped_premise_is_always_another_scene_and_repeats_with_its_seed():
    examples = [Example(f"premise {i}", f"hypothesis {i}", i % 3) for i in range(30)]
    swapped = evaluation.swapped_premises(examples)
    entailments = [ex for ex in examples if ex.label == 0]
    assert len(swapped) == len(entailments) == 10
    assert all(p != ex.premise and h == ex.hypothesis
               for (p, h), ex in zip(swapped, entailments, strict=True))  # fmt: skip
    assert swapped == evaluation.swapped_premises(examples)

    def always_entailment(pairs):
        return torch.tensor([[0.9, 0.05, 0.05]] * len(pairs))

    found = evaluation.premise_swap(examples, always_entailment)  # a hypothesis-only model
    assert found == {"pairs": 10, "entailment_own": 1.0, "entailment_swapped": 1.0}


def test_accuracy_per_tag_counts_a_pair_under_each_of_its_tags():
    examples = [
        Example("p", "h", 0, tags=("number", "word_order")),
        Example("p", "h", 1, tags=("number",)),
        Example("p", "h", 2, tags=("negation",)),
    ]
    found = evaluation.by_tag(examples, torch.tensor([0, 0, 2]))
    assert found == {
        "number": {"accuracy": 0.5, "pairs": 2},
        "negation": {"accuracy": 1.0, "pairs": 1},
        "word_order": {"accuracy": 1.0, "pairs": 1},
    }
    assert list(found) == ["number", "negation", "word_order"]  # most pairs first
