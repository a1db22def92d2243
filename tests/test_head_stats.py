"""Head statistics (attnviz.head_stats) on constructed heads whose answers are known."""

from __future__ import annotations

import math

import pytest
import torch

from attnviz import head_stats

T = 16


def previous_token_head() -> torch.Tensor:
    """Each query looks at the token before it (the first at itself)."""
    attn = torch.zeros(T, T)
    attn[0, 0] = 1
    attn[torch.arange(1, T), torch.arange(T - 1)] = 1
    return attn


def stacked(*heads: torch.Tensor) -> torch.Tensor:
    return torch.stack(heads)[None]  # (1, H, T, T)


def test_a_pure_previous_token_head_scores_one_there_and_near_zero_elsewhere():
    attn = stacked(previous_token_head())
    scores = {
        kind: float(head_stats.pattern_score(attn, kind)[0, 0]) for kind in head_stats.PATTERNS
    }
    assert scores["previous"] == 1.0
    assert scores["next"] == 0.0
    assert scores["diagonal"] == pytest.approx(1 / T)  # only the first query, on itself
    assert scores["broad"] == 0.0
    assert float(head_stats.entropy(attn)[0, 0]) == 0.0
    assert float(head_stats.mean_distance(attn)[0, 0]) == pytest.approx((T - 1) / T)


def test_a_uniform_head_has_the_largest_entropy_and_is_broad():
    uniform = torch.full((T, T), 1 / T)
    attn = stacked(uniform, previous_token_head(), torch.eye(T))
    entropy = head_stats.entropy(attn)[0]
    assert float(entropy[0]) == pytest.approx(math.log(T))
    assert int(entropy.argmax()) == 0
    assert float(head_stats.pattern_score(attn, "broad")[0, 0]) == pytest.approx(1.0)
    assert float(head_stats.pattern_score(attn, "diagonal")[0, 2]) == 1.0
    assert float(head_stats.pattern_score(attn, "previous")[0, 0]) == pytest.approx(1 / T)
    # Mean |i - j| of a uniform row, averaged over rows: (T^2 - 1) / (3 T).
    distance = float(head_stats.mean_distance(attn)[0, 0])
    assert distance == pytest.approx((T * T - 1) / (3 * T), rel=1e-5)


def test_shares_on_the_sinks():
    sink = torch.zeros(T, T)
    sink[:, 0] = 0.75
    sink[:, -1] = 0.25
    attn = stacked(sink, previous_token_head())
    tokens = ["[CLS]", *["w"] * (T - 2), "[SEP]"]
    specials = [True, *[False] * (T - 2), True]
    places = head_stats.special_positions(tokens, specials)
    assert places == {"first": [0], "[CLS]": [0], "[SEP]": [T - 1]}
    torch.testing.assert_close(
        head_stats.share_on(attn, places["[CLS]"])[0], torch.tensor([0.75, 2 / T])
    )
    torch.testing.assert_close(head_stats.share_on(attn, [0, T - 1])[0], torch.tensor([1.0, 2 / T]))
    assert head_stats.share_on(attn, []).tolist() == [[0.0, 0.0]]
    with pytest.raises(ValueError, match="positions \\[16\\] are outside the 16 tokens"):
        head_stats.share_on(attn, [T])


def test_statistics_have_one_number_per_head_and_refuse_bad_shapes():
    attn = torch.randn(3, 4, 7, 7).softmax(-1)
    for grid in (head_stats.entropy(attn), head_stats.mean_distance(attn),
                 head_stats.pattern_score(attn, "next")):  # fmt: skip
        assert grid.shape == (3, 4)
    with pytest.raises(ValueError, match="unknown pattern 'induction'"):
        head_stats.pattern_score(attn, "induction")
    with pytest.raises(
        ValueError, match=r"attentions must be \(layers, heads, T, T\), got \(7, 7\)"
    ):
        head_stats.entropy(attn[0, 0])
