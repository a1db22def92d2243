"""attnviz.scaling: Var(q·k) = d, scaling brings it to 1, saturation and vanishing gradients."""

from __future__ import annotations

import math

import pytest
import torch

from attnviz import scaling
from attnviz.parsing import InputError

SAMPLES = 2000
SEED = 0


@pytest.mark.parametrize("d", [16, 256])
def test_variance_of_the_dot_product_is_d_and_scaled_is_one(d):
    raw, scaled = scaling.dot_products(d, SAMPLES, SEED)
    assert raw.shape == scaled.shape == (SAMPLES,)
    assert abs(float(raw.var()) / d - 1) < 0.10
    assert abs(float(scaled.var()) - 1) < 0.10
    torch.testing.assert_close(scaled, raw / math.sqrt(d))


def test_variance_curve_matches_the_single_draws():
    ds = [1, 16, 256]
    curve = scaling.variance_curve(ds, SAMPLES, SEED)
    torch.testing.assert_close(curve["d"], torch.tensor(ds, dtype=torch.float64))
    for i, d in enumerate(ds):
        raw, scaled = scaling.dot_products(d, SAMPLES, SEED)
        torch.testing.assert_close(curve["raw"][i], raw.var())
        torch.testing.assert_close(curve["scaled"][i], scaled.var())
    assert ((curve["scaled"] - 1).abs() < 0.12).all()


def test_entropy_and_max_weight_by_hand():
    weights = torch.tensor([[0.5, 0.25, 0.25], [1.0, 0.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])
    hand = [
        -(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25)),  # 1.0397
        0.0,  # 0 log 0 = 0: no NaN
        math.log(3),
    ]
    torch.testing.assert_close(scaling.entropy(weights), torch.tensor(hand))
    torch.testing.assert_close(scaling.max_weight(weights), torch.tensor([0.5, 1.0, 1 / 3]))


def test_softmax_jacobian_matches_autograd():
    scores = torch.tensor([0.3, -1.2, 2.0, 0.1], dtype=torch.float64)
    weights = torch.softmax(scores, dim=-1)
    expected = torch.autograd.functional.jacobian(lambda s: torch.softmax(s, dim=-1), scores)
    torch.testing.assert_close(scaling.softmax_jacobian(weights), expected)
    # Batched rows give one Jacobian per row; a saturated row gives (almost) zero.
    batch = torch.stack([weights, torch.tensor([1.0, 0.0, 0.0, 0.0], dtype=torch.float64)])
    jacobians = scaling.softmax_jacobian(batch)
    torch.testing.assert_close(jacobians[0], expected)
    assert float(jacobians[1].abs().max()) == 0.0


def test_attention_weights_are_softmax_rows_and_equal_at_d_one():
    weights = scaling.attention_weights(32, 8, 10, SEED, scaled=True)
    assert weights.shape == (10, 8)
    torch.testing.assert_close(weights.sum(-1), torch.ones(10, dtype=torch.float64))
    # sqrt(1) = 1: with and without scaling are the same draw and the same scores.
    torch.testing.assert_close(
        scaling.attention_weights(1, 8, 10, SEED, scaled=False),
        scaling.attention_weights(1, 8, 10, SEED, scaled=True),
    )


def test_scaling_is_the_temperature_sqrt_d():
    # Same draw: the scaled weights are the unscaled scores' softmax at temperature sqrt(d).
    d, m = 64, 6
    raw = scaling.attention_weights(d, m, 4, SEED, scaled=False)
    scaled = scaling.attention_weights(d, m, 4, SEED, scaled=True)
    logits = torch.log(raw)  # the unscaled scores up to a constant per row
    torch.testing.assert_close(torch.softmax(logits / math.sqrt(d), dim=-1), scaled)


def test_without_scaling_the_softmax_saturates_at_large_d():
    ds = [1, 1024]
    raw = scaling.saturation_curve(ds, 16, 64, SEED, scaled=False)
    scaled = scaling.saturation_curve(ds, 16, 64, SEED, scaled=True)
    assert raw["max_weight"][1] > scaled["max_weight"][1]
    assert raw["entropy"][1] < scaled["entropy"][1]
    assert raw["max_weight"][1] > 0.9 and raw["entropy"][1] < 0.3
    # With scaling, d = 1024 looks like d = 1: far from saturated, entropy near log 16.
    assert scaled["max_weight"][1] < 0.4 and scaled["entropy"][1] > 0.8 * math.log(16)
    weights = scaling.attention_weights(1024, 16, 64, SEED, scaled=False)
    torch.testing.assert_close(raw["max_weight"][1], weights.max(-1).values.mean())
    torch.testing.assert_close(raw["entropy"][1], scaling.entropy(weights).mean())


def test_the_gradient_vanishes_without_scaling():
    ds = [1, 1024]
    raw = scaling.softmax_gradient_curve(ds, 16, 64, SEED, scaled=False)
    scaled = scaling.softmax_gradient_curve(ds, 16, 64, SEED, scaled=True)
    torch.testing.assert_close(raw["jacobian_norm"][0], scaled["jacobian_norm"][0])
    assert raw["jacobian_norm"][1] < 0.5 * scaled["jacobian_norm"][1]
    weights = scaling.attention_weights(1024, 16, 64, SEED, scaled=True)
    norms = torch.linalg.matrix_norm(scaling.softmax_jacobian(weights))
    torch.testing.assert_close(scaled["jacobian_norm"][1], norms.mean())


def test_same_seed_same_numbers_other_seed_other_numbers():
    first = scaling.dot_products(64, 100, 7)
    again = scaling.dot_products(64, 100, 7)
    other = scaling.dot_products(64, 100, 8)
    torch.testing.assert_close(first, again, rtol=0, atol=0)
    assert not torch.equal(first[0], other[0])
    curve = scaling.saturation_curve([4, 64], 8, 16, 7, scaled=False)
    torch.testing.assert_close(curve, scaling.saturation_curve([4, 64], 8, 16, 7, scaled=False))
    # A d's draw does not depend on which other d values are in the curve.
    alone = scaling.saturation_curve([64], 8, 16, 7, scaled=False)
    torch.testing.assert_close(curve["entropy"][1], alone["entropy"][0])


def test_powers_of_two():
    assert scaling.powers_of_two(1024) == [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert scaling.powers_of_two(1) == [1]


@pytest.mark.parametrize(
    ("call", "text"),
    [
        (lambda: scaling.dot_products(0, 10, 0), "d = 0 is out of range"),
        (lambda: scaling.dot_products(8, 1, 0), "samples = 1 is out of range"),
        (lambda: scaling.attention_weights(8, 1, 4, 0, True), "m = 1 is out of range"),
    ],
)
def test_sizes_out_of_range_say_what_is_allowed(call, text):
    with pytest.raises(InputError, match=text) as caught:
        call()
    assert "choose a whole number from" in str(caught.value)
