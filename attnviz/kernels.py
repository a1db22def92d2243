"""Nadaraya-Watson kernel regression: attention without learned parameters.

Nadaraya (1964) and Watson (1964) predict f(x) = sum_i alpha(x, x_i) y_i with weights
alpha(x, x_i) = K((x - x_i) / h) / sum_j K((x - x_j) / h): the query x attends to the training
inputs x_i (keys) and averages their targets y_i (values). With the Gaussian kernel the weights
are softmax attention over the scores -(x - x_i)^2 / (2 h^2). Follows Murphy, PML1 ch. 15.4
(kernels, bandwidth, leave-one-out) and d2l 1.0 sec. 11.2, "Attention Pooling by Similarity" (the
Gaussian, boxcar, constant and triangle kernels; fitting the width, which overfits unless each
point is left out of its own estimate: its exercise 2). The data are the older edition's, d2l 0.17
sec. 10.2 (f(x) = 2 sin(x) + x^0.8, 50 training points, noise sigma 0.5); d2l 1.0 uses
2 sin(x) + x, 40 points and unit noise.

Shape letters: q query (test) points, n training points, s steps. Inputs are 1-D.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from attnviz.attention import masked_softmax

KERNELS: tuple[str, ...] = ("gaussian", "boxcar", "constant", "epanechnikov")
X_RANGE = (0.0, 5.0)  # the inputs of d2l (0.17 sec. 10.2 and 1.0 sec. 11.2 alike)
MAX_TRAIN = 500
# Bandwidths are fitted as log h, so gradient descent can never make h negative.
FIT_KERNELS: tuple[str, ...] = ("gaussian",)


@dataclass(frozen=True)
class KernelData:
    """A seeded 1-D regression data set: noisy training pairs and noise-free test points."""

    x_train: torch.Tensor  # (n,) sorted
    y_train: torch.Tensor  # (n,)
    x_test: torch.Tensor  # (q,) evenly spaced
    y_true: torch.Tensor  # (q,) f(x_test) without noise


def true_function(x: torch.Tensor) -> torch.Tensor:
    """d2l 0.17 sec. 10.2's f(x) = 2 sin(x) + x^0.8 (d2l 1.0 sec. 11.2 has 2 sin(x) + x)."""
    return 2 * torch.sin(x) + x**0.8


def make_data(n_train: int = 50, seed: int = 0, noise: float = 0.5, n_test: int = 50) -> KernelData:
    """n_train sorted uniform x in [0, 5), y = f(x) + N(0, noise^2); test points 0, 5/n_test, ..."""
    if not 1 <= n_train <= MAX_TRAIN:
        raise ValueError(f"n_train must lie in [1, {MAX_TRAIN}], got {n_train}")
    if not 1 <= n_test <= MAX_TRAIN:
        raise ValueError(f"n_test must lie in [1, {MAX_TRAIN}], got {n_test}")
    if not (math.isfinite(noise) and noise >= 0):
        raise ValueError(f"noise must be finite and >= 0, got {noise}")
    gen = torch.Generator().manual_seed(seed)
    low, high = X_RANGE
    x_train = torch.sort(torch.rand(n_train, generator=gen) * (high - low) + low).values  # (n,)
    y_train = true_function(x_train) + noise * torch.randn(n_train, generator=gen)  # (n,)
    x_test = low + torch.arange(n_test, dtype=torch.float32) * ((high - low) / n_test)  # (q,)
    return KernelData(x_train, y_train, x_test, true_function(x_test))


def kernel_values(u: torch.Tensor, kernel: str) -> torch.Tensor:
    """K(u) for the scaled distances u = (x - x_i) / h (normalising constants cancel in alpha)."""
    if kernel == "gaussian":
        return torch.exp(-(u**2) / 2)
    if kernel == "boxcar":
        return (u.abs() <= 1).to(u.dtype)
    if kernel == "constant":
        return torch.ones_like(u)
    if kernel == "epanechnikov":
        # PML's (3/4)(1 - u^2) on |u| <= 1; d2l's "epanechikov" max(1 - |u|, 0) is the triangle.
        return (1 - u**2).clamp_min(0)
    raise ValueError(f"unknown kernel {kernel!r}: choose one of {', '.join(KERNELS)}")


def _check(kernel: str, bandwidth: float | torch.Tensor) -> None:
    if kernel not in KERNELS:
        raise ValueError(f"unknown kernel {kernel!r}: choose one of {', '.join(KERNELS)}")
    h = float(bandwidth)
    if not (math.isfinite(h) and h > 0):
        raise ValueError(f"the bandwidth h must be finite and > 0, got {h}")


def _weights(
    x_query: torch.Tensor,
    x_train: torch.Tensor,
    kernel: str,
    bandwidth: float | torch.Tensor,
    mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """alpha (q, n), differentiable in `bandwidth`; `mask` (q, n) True = may attend."""
    diff = x_query[:, None] - x_train[None, :]  # (q, n)
    if kernel == "gaussian":
        # exp(-u^2/2) / sum exp(-u^2/2) is softmax: it never underflows to an empty row.
        scores = -(diff**2) / (2 * bandwidth**2)  # (q, n)
        return masked_softmax(scores, mask)  # (q, n)
    k = kernel_values(diff / bandwidth, kernel)  # (q, n)
    if mask is not None:
        k = k * mask
    sums = k.sum(dim=-1, keepdim=True)  # (q, 1)
    # No neighbour: a zero row, not 0/0 = NaN.
    return torch.where(sums > 0, k / torch.where(sums > 0, sums, 1.0), 0.0)  # (q, n)


def kernel_weights(
    x_query: torch.Tensor, x_train: torch.Tensor, kernel: str, bandwidth: float
) -> torch.Tensor:
    """alpha (q, n): rows sum to 1 where some K > 0 and are all zeros where none is."""
    _check(kernel, bandwidth)
    return _weights(_as_1d(x_query), _as_1d(x_train), kernel, float(bandwidth))


def predict(
    x_query: torch.Tensor,
    x_train: torch.Tensor,
    y_train: torch.Tensor,
    kernel: str,
    bandwidth: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(f(x) (q,), has_neighbour (q,) bool); f is 0 where there is no neighbour (no prediction)."""
    y = _as_1d(y_train)
    weights = kernel_weights(x_query, x_train, kernel, bandwidth)  # (q, n)
    if weights.shape[1] != y.shape[0]:
        raise ValueError(f"{weights.shape[1]} training inputs but {y.shape[0]} targets")
    return weights @ y, weights.sum(dim=-1) > 0  # (q,), (q,)


def _as_1d(x: torch.Tensor) -> torch.Tensor:
    tensor = torch.as_tensor(x)
    tensor = tensor.to(tensor.dtype if tensor.is_floating_point() else torch.float32)
    if tensor.ndim != 1:
        raise ValueError(f"1-D inputs are needed, got shape {tuple(tensor.shape)}")
    return tensor


def loss(
    x: torch.Tensor,
    y: torch.Tensor,
    kernel: str,
    bandwidth: float | torch.Tensor,
    leave_one_out: bool,
) -> torch.Tensor:
    """Mean squared error of predicting each training point from the training points.

    Training loss: from all of them, itself included (it goes to 0 as h shrinks). Leave-one-out:
    from the others only, so a point cannot copy its own target.
    """
    n = x.shape[0]
    mask = ~torch.eye(n, dtype=torch.bool) if leave_one_out else None  # (n, n)
    y_hat = _weights(x, x, kernel, bandwidth, mask) @ y  # (n,)
    return ((y_hat - y) ** 2).mean()


def loss_curve(
    x: torch.Tensor, y: torch.Tensor, bandwidths: torch.Tensor, kernel: str, leave_one_out: bool
) -> torch.Tensor:
    """The loss at each bandwidth (b,), for the loss-versus-h picture and a grid search."""
    x, y = _as_1d(x), _as_1d(y)
    return torch.stack([loss(x, y, kernel, float(h), leave_one_out) for h in bandwidths])


def fit_bandwidth(
    x: torch.Tensor,
    y: torch.Tensor,
    kernel: str = "gaussian",
    *,
    leave_one_out: bool,
    steps: int = 150,
    lr: float = 0.1,
    init: float = 1.0,
) -> tuple[float, torch.Tensor]:
    """h fitted by Adam on log h to the training or leave-one-out loss; the loss per step (s,)."""
    if kernel not in FIT_KERNELS:
        raise ValueError(
            f"the bandwidth of the {kernel} kernel cannot be fitted by gradient descent "
            f"(use one of {', '.join(FIT_KERNELS)})"
        )
    _check(kernel, init)
    x, y = _as_1d(x), _as_1d(y)
    if leave_one_out and x.shape[0] < 2:
        raise ValueError("leave-one-out needs at least 2 training points")
    log_h = torch.tensor(math.log(init), requires_grad=True)
    optimizer = torch.optim.Adam([log_h], lr=lr)
    history = []
    for _ in range(steps):
        optimizer.zero_grad()
        value = loss(x, y, kernel, log_h.exp(), leave_one_out)
        value.backward()
        optimizer.step()
        history.append(value.detach())
    return float(log_h.detach().exp()), torch.stack(history) if history else torch.zeros(0)
