"""Gradient saliency per input token, to set beside attention (attention weights are not
explanations by themselves: Jain & Wallace 2019; Wiegreffe & Pinter 2019).

`forward` maps embeddings (T, d) to a scalar target (a similarity, a logit, a label's
probability); both methods return one number per token (T,), the attribution summed over d:
- `gradient_x_input`: x * df/dx (Shrikumar et al. 2016);
- `integrated_gradients`: (x - x') * the integral over a in [0, 1] of df/dx at x' + a (x - x'),
  by Gauss-Legendre quadrature with `steps` nodes (captum's default method) or the trapezoid
  rule; the attributions sum to f(x) - f(x') up to the quadrature's error (completeness,
  Sundararajan et al. 2017). The baseline x' defaults to zeros. Gauss-Legendre equals captum's
  `IntegratedGradients`; captum's "riemann_trapezoid" weighs its n points 1/n, which sum to
  (n - 1) / n, where the trapezoid rule here weighs them 1/(n - 1).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch

METHODS = ("gausslegendre", "riemann_trapezoid")
MAX_STEPS = 1024

Forward = Callable[[torch.Tensor], torch.Tensor]


def _checked(embeddings: torch.Tensor) -> torch.Tensor:
    x = torch.as_tensor(embeddings)
    if x.ndim != 2 or not x.is_floating_point():
        raise ValueError(f"embeddings must be (T, d) floats, got {tuple(x.shape)} {x.dtype}")
    return x.detach()


def _gradient(forward: Forward, x: torch.Tensor) -> torch.Tensor:
    """(T, d): df/dx at one point."""
    with torch.enable_grad():
        point = x.clone().requires_grad_(True)
        (grad,) = torch.autograd.grad(_scalar(forward(point)), point)
    return grad


def _scalar(value: torch.Tensor) -> torch.Tensor:
    if value.numel() != 1:
        raise ValueError(f"forward must return one number, got shape {tuple(value.shape)}")
    return value.reshape(())


def gradient_x_input(forward: Forward, embeddings: torch.Tensor) -> torch.Tensor:
    """(T,): sum over d of x * df/dx."""
    x = _checked(embeddings)
    return (x * _gradient(forward, x)).sum(dim=-1)  # (T,)


def _nodes(steps: int, method: str) -> tuple[np.ndarray, np.ndarray]:
    """The points a in [0, 1] and their weights, which sum to 1."""
    if method == "gausslegendre":
        points, weights = np.polynomial.legendre.leggauss(steps)
        return (points + 1) / 2, weights / 2
    if steps < 2:
        raise ValueError("the trapezoid rule needs at least 2 steps")
    points = np.linspace(0, 1, steps)
    weights = np.full(steps, 1 / (steps - 1))
    weights[[0, -1]] /= 2
    return points, weights


def integrated_gradients(
    forward: Forward,
    embeddings: torch.Tensor,
    *,
    baseline: torch.Tensor | None = None,
    steps: int = 32,
    method: str = "gausslegendre",
    progress: Callable[[float], None] | None = None,
    batch: int = 1,
) -> torch.Tensor:
    """(T,): integrated gradients from `baseline` (zeros by default) to `embeddings`. With
    `batch` > 1, `forward` takes that many points of the path at once, (B, T, d) -> (B,)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: choose one of {', '.join(METHODS)}")
    if not 1 <= steps <= MAX_STEPS:
        raise ValueError(f"steps must be between 1 and {MAX_STEPS}, got {steps}")
    x = _checked(embeddings)
    start = torch.zeros_like(x) if baseline is None else _checked(baseline)
    if start.shape != x.shape:
        raise ValueError(
            f"the baseline has shape {tuple(start.shape)}, the embeddings {tuple(x.shape)}"
        )
    points, weights = _nodes(steps, method)
    alphas = torch.tensor(points, dtype=x.dtype)[:, None, None]  # (S, 1, 1)
    path = start + alphas * (x - start)  # (S, T, d)
    if batch > 1:
        grads = _batched_gradients(forward, path, batch, progress)
    else:
        grads = _path_gradients(forward, path, progress)
    total = (torch.tensor(weights, dtype=x.dtype)[:, None, None] * grads).sum(dim=0)  # (T, d)
    return ((x - start) * total).sum(dim=-1)  # (T,)


def _path_gradients(
    forward: Forward, path: torch.Tensor, progress: Callable[[float], None] | None
) -> torch.Tensor:
    """(S, T, d): df/dx at every point of the path, one point a forward call."""
    # Every point of the path in one graph and one backward pass, as captum does (a backward
    # pass per point took twice as long; benchmarks/bench_layers.py).
    steps = path.shape[0]
    with torch.enable_grad():
        path = path.requires_grad_(True)  # (S, T, d)
        values = []
        for k, point in enumerate(path.unbind(0)):  # one unbind: path[k] would make S views
            values.append(_scalar(forward(point)))
            if progress is not None:
                progress((k + 1) / steps)
        (grads,) = torch.autograd.grad(torch.stack(values).sum(), path)  # (S, T, d)
    return grads


def _batched_gradients(
    forward: Forward, path: torch.Tensor, batch: int, progress: Callable[[float], None] | None
) -> torch.Tensor:
    """(S, T, d): df/dx at every point of the path, `batch` points a forward call and a
    backward pass (a model's batch runs several times faster than its points one by one)."""
    steps = path.shape[0]
    grads = []
    for chunk in path.split(batch):  # (B, T, d)
        with torch.enable_grad():
            points = chunk.clone().requires_grad_(True)
            values = forward(points)
            if values.shape != (points.shape[0],):
                raise ValueError(
                    f"a batched forward must return one number a point, got {tuple(values.shape)}"
                )
            (grad,) = torch.autograd.grad(values.sum(), points)  # (B, T, d)
        grads.append(grad)
        if progress is not None:
            progress(sum(g.shape[0] for g in grads) / steps)
    return torch.cat(grads)  # (S, T, d)
