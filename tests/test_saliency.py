"""Gradient saliency (attnviz.saliency) against autograd by hand, completeness, and captum."""

from __future__ import annotations

import pytest
import torch
from captum.attr import IntegratedGradients

from attnviz.saliency import gradient_x_input, integrated_gradients

T, D = 7, 5


def setup() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(T, D, generator=gen, dtype=torch.float64)
    w = torch.randn(D, 4, generator=gen, dtype=torch.float64)
    u = torch.randn(4, generator=gen, dtype=torch.float64)
    return x, w, u


def forward_of(w: torch.Tensor, u: torch.Tensor):
    def forward(x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x @ w).mean(dim=0) @ u  # one number from (T, D)

    return forward


def test_gradient_times_input_is_the_hand_derivative():
    x, w, u = setup()
    h = torch.tanh(x @ w)  # (T, 4)
    grad = ((1 - h**2) * u / T) @ w.T  # d/dx of mean_t tanh(x_t w) . u, (T, D)
    torch.testing.assert_close(gradient_x_input(forward_of(w, u), x), (x * grad).sum(-1))


@pytest.mark.parametrize("method", ["gausslegendre", "riemann_trapezoid"])
def test_integrated_gradients_are_complete_at_256_steps(method):
    x, w, u = setup()
    forward = forward_of(w, u)
    baseline = torch.full_like(x, 0.3)
    attributions = integrated_gradients(forward, x, baseline=baseline, steps=256, method=method)
    gap = float(forward(x) - forward(baseline))
    assert float(attributions.sum()) == pytest.approx(gap, rel=0.01)


# captum's "riemann_trapezoid" weighs its n points 1/n (the ends 1/(2n)): they sum to
# (n - 1) / n, so its attributions fall short of completeness by 1/n. attnviz uses the
# trapezoid rule's own weights, 1/(n - 1): the same points, scaled by n / (n - 1).
CAPTUM_SCALE = {"gausslegendre": 1.0, "riemann_trapezoid": 32 / 31}


@pytest.mark.parametrize("method", ["gausslegendre", "riemann_trapezoid"])
def test_integrated_gradients_equal_captums_with_the_same_method_and_steps(method):
    x, w, u = setup()
    forward = forward_of(w, u)
    shares: list[float] = []
    ours = integrated_gradients(forward, x, steps=32, method=method, progress=shares.append)
    batched = IntegratedGradients(lambda xs: torch.stack([forward(one) for one in xs]))
    theirs = batched.attribute(
        x[None], baselines=torch.zeros_like(x)[None], n_steps=32, method=method
    )
    expected = theirs[0].sum(-1) * CAPTUM_SCALE[method]
    torch.testing.assert_close(ours, expected, rtol=1e-6, atol=1e-9)
    assert len(shares) == 32 and shares[-1] == 1.0


def test_bad_arguments_say_what_is_wrong():
    x, w, u = setup()
    forward = forward_of(w, u)
    with pytest.raises(ValueError, match="unknown method 'left'"):
        integrated_gradients(forward, x, method="left")
    with pytest.raises(ValueError, match="steps must be between 1 and 1024, got 0"):
        integrated_gradients(forward, x, steps=0)
    with pytest.raises(
        ValueError, match=r"the baseline has shape \(7, 4\), the embeddings \(7, 5\)"
    ):
        integrated_gradients(forward, x, baseline=x[:, :4])
    with pytest.raises(ValueError, match=r"forward must return one number, got shape \(7,\)"):
        gradient_x_input(lambda e: e.sum(-1), x)
    with pytest.raises(ValueError, match=r"embeddings must be \(T, d\) floats"):
        gradient_x_input(forward, x[0])


@pytest.mark.parametrize("batch", [2, 5, 32])
def test_a_batched_forward_gives_the_same_attributions(batch):
    x, w, u = setup()
    forward = forward_of(w, u)
    calls: list[tuple[int, ...]] = []

    def batched(xs: torch.Tensor) -> torch.Tensor:  # (B, T, D) -> (B,)
        calls.append(tuple(xs.shape))
        return torch.tanh(xs @ w).mean(dim=1) @ u

    shares: list[float] = []
    ours = integrated_gradients(batched, x, steps=32, batch=batch, progress=shares.append)
    torch.testing.assert_close(ours, integrated_gradients(forward, x, steps=32))
    assert [c[0] for c in calls] == [len(c) for c in torch.arange(32).split(batch)]
    assert shares[-1] == 1.0 and len(shares) == len(calls)
    with pytest.raises(ValueError, match=r"one number a point, got \(\)"):
        integrated_gradients(lambda xs: xs.sum(), x, steps=4, batch=2)
