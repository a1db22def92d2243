"""The patching lesson's numbers: where two prompts differ, the heads ranked, the colour scale's
bound."""

from __future__ import annotations

import torch

from attnviz.lessons.patching import compute


def test_the_differing_positions_include_those_only_one_prompt_has() -> None:
    assert compute.differing([5, 6, 7], [5, 9, 7]) == [1]
    assert compute.differing([5, 6], [5, 6, 7, 8]) == [2, 3]
    assert compute.differing([5], [5]) == []


def test_the_top_heads_are_ranked_by_share() -> None:
    heads = torch.tensor([[0.1, 0.9], [-0.5, 0.3]])
    assert compute.top_heads(heads, 3) == [
        (0, 1, torch.tensor(0.9).item()), (1, 1, torch.tensor(0.3).item()),
        (0, 0, torch.tensor(0.1).item()),
    ]  # fmt: skip


def test_the_bound_keeps_1_on_the_scale() -> None:
    assert compute.bound(torch.tensor([[0.2, -0.4]])) == 1.0
    assert compute.bound(torch.tensor([[0.2, -1.5]]), torch.tensor([[1.2]])) == 1.5


def test_the_examples_are_the_issues_pairs() -> None:
    ioi = compute.EXAMPLES["ioi"]
    assert (ioi.answer, ioi.wrong) == (" Mary", " John")
    assert ioi.clean.endswith("John gave a drink to") and ioi.corrupted.endswith(
        "Mary gave a drink to"
    )
    paris = compute.EXAMPLES["paris"]
    assert (paris.clean, paris.corrupted) == (
        "The Eiffel Tower is in the city of", "The Colosseum is in the city of"
    )  # fmt: skip
