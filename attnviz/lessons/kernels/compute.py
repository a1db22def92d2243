"""The kernel-regression lesson's numbers: Nadaraya-Watson weights and predictions for a kernel
and bandwidth, the bandwidths fitted on the training and the leave-one-out loss,. The maths is
in attnviz.kernels."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz import kernels as kr
from attnviz.parsing import InputError, parse_matrix

N_TEST = 50
PROBE_RANGE = (-100.0, 100.0)
FIT_STEPS = 150
FIT_LR = 0.1
FIT_INIT = 1.0
GRID = torch.logspace(-3, 0.5, 57)  # (b,) bandwidths of the loss-versus-h picture


@dataclass(frozen=True)
class KernelChoice:
    """What the sidebar chose."""

    kernel: str
    bandwidth: float
    n_train: int
    noise: float
    seed: int


@dataclass(frozen=True)
class Regression:
    """Nadaraya-Watson at the test points for one kernel and h."""

    weights: torch.Tensor  # (q, n)
    y_hat: torch.Tensor  # (q,)
    has_neighbour: torch.Tensor  # (q,) bool


@dataclass(frozen=True)
class Learned:
    """The two fitted bandwidths, their losses and predictions, and the losses over GRID."""

    h_train: float
    h_loo: float
    loss_train: float  # training loss at h_train
    loss_loo: float  # leave-one-out loss at h_loo
    history_train: torch.Tensor  # (s,)
    history_loo: torch.Tensor  # (s,)
    y_train_fit: torch.Tensor  # (q,) prediction with h_train
    y_loo_fit: torch.Tensor  # (q,) prediction with h_loo
    grid_train: torch.Tensor  # (b,) training loss over GRID
    grid_loo: torch.Tensor  # (b,) leave-one-out loss over GRID


def warm_optimizer() -> None:
    """Make and step an optimizer once. torch.optim imports torch._dynamo (0.7 s) for its first
    optimizer and the profiler's hooks on its first step: the view calls this when it is
    imported, under the page's import lock (attnviz.app.loading), so no run imports them."""
    weight = torch.zeros(1, requires_grad=True)
    optimizer = torch.optim.Adam([weight], lr=0.0)
    optimizer.zero_grad()
    weight.sum().backward()
    optimizer.step()


def data(n_train: int, seed: int, noise: float) -> kr.KernelData:
    """The seeded data set with N_TEST test points."""
    return kr.make_data(n_train, seed, noise, n_test=N_TEST)


def regression(choice: KernelChoice, d: kr.KernelData) -> Regression:
    """Weights and predictions at the test points for the chosen kernel and h."""
    weights = kr.kernel_weights(d.x_test, d.x_train, choice.kernel, choice.bandwidth)  # (q, n)
    y_hat, has_neighbour = kr.predict(
        d.x_test, d.x_train, d.y_train, choice.kernel, choice.bandwidth
    )
    return Regression(weights, y_hat, has_neighbour)


def learned(d: kr.KernelData) -> Learned:
    """Gaussian bandwidths fitted on the training and the leave-one-out loss."""
    x, y = d.x_train, d.y_train
    fits = {
        loo: kr.fit_bandwidth(
            x, y, "gaussian", leave_one_out=loo, steps=FIT_STEPS, lr=FIT_LR, init=FIT_INIT
        )
        for loo in (False, True)
    }
    (h_train, history_train), (h_loo, history_loo) = fits[False], fits[True]
    return Learned(
        h_train=h_train,
        h_loo=h_loo,
        loss_train=float(kr.loss(x, y, "gaussian", h_train, leave_one_out=False)),
        loss_loo=float(kr.loss(x, y, "gaussian", h_loo, leave_one_out=True)),
        history_train=history_train,
        history_loo=history_loo,
        y_train_fit=kr.predict(d.x_test, x, y, "gaussian", h_train)[0],
        y_loo_fit=kr.predict(d.x_test, x, y, "gaussian", h_loo)[0],
        grid_train=kr.loss_curve(x, y, GRID, "gaussian", leave_one_out=False),
        grid_loo=kr.loss_curve(x, y, GRID, "gaussian", leave_one_out=True),
    )


def parse_probe(text: str) -> float:
    """The x typed for the worked example; InputError names what is wrong."""
    values = parse_matrix(text).reshape(-1)
    if values.numel() != 1:
        raise InputError("kernels_probe_count", count=values.numel())
    x = float(values[0])
    low, high = PROBE_RANGE
    if not low <= x <= high:
        raise InputError("kernels_probe_range", value=f"{x:g}", low=f"{low:g}", high=f"{high:g}")
    return x
