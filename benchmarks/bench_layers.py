"""Across layers: attention rollout and integrated gradients against their references, same run.

- attnviz.rollout.attention_rollout of 6 layers x 12 heads at 512 tokens against a bare torch
  loop of the same products (head mean, + I, rows renormalised, multiplied through): target
  <= 1.2.
- attnviz.saliency.integrated_gradients with 32 Gauss-Legendre steps at 64 tokens against
  captum's IntegratedGradients on the same forward (a small MLP over the tokens, pooled; captum
  is handed a forward that loops over its batch of steps, as ours does): target <= 1.2.

Run with `python -m benchmarks.bench_layers` (captum is a test dependency).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import torch

from attnviz.rollout import attention_rollout
from attnviz.saliency import integrated_gradients
from benchmarks.timing import median_seconds

LAYERS, HEADS, T = 6, 12, 512
IG_TOKENS, IG_DIM, IG_STEPS = 64, 384, 32


def bare_rollout(attn: torch.Tensor) -> torch.Tensor:
    eye = torch.eye(attn.shape[-1])
    joint = None
    out = []
    for layer in range(attn.shape[0]):
        a = attn[layer].mean(0) + eye
        a = a / a.sum(-1, keepdim=True)
        joint = a if joint is None else a @ joint
        out.append(joint)
    return torch.stack(out)


def rounds(
    ours: Callable[[], object], theirs: Callable[[], object], repeats: int
) -> tuple[float, float]:
    """Interleaved medians, so a burst of load on the machine hits both sides alike."""
    ours_times, theirs_times = [], []
    for _ in range(3):
        ours_times.append(median_seconds(ours, repeats))
        theirs_times.append(median_seconds(theirs, repeats))
    return statistics.median(ours_times), statistics.median(theirs_times)


def main() -> None:
    from captum.attr import IntegratedGradients

    torch.manual_seed(0)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    attn = torch.randn(LAYERS, HEADS, T, T).softmax(-1)
    torch.testing.assert_close(attention_rollout(attn), bare_rollout(attn), rtol=1e-4, atol=1e-6)
    ours_s, bare_s = rounds(lambda: attention_rollout(attn), lambda: bare_rollout(attn), 10)
    print(f"rollout ({LAYERS} layers, {HEADS} heads, {T} tokens)")
    print(f"  attention_rollout   {ours_s * 1e3:8.2f} ms")
    print(f"  bare torch loop     {bare_s * 1e3:8.2f} ms")
    print(f"  ratio: {ours_s / bare_s:.2f} (target <= 1.2)")

    mlp = torch.nn.Sequential(
        torch.nn.Linear(IG_DIM, 256), torch.nn.Tanh(), torch.nn.Linear(256, 1)
    )

    def forward(x: torch.Tensor) -> torch.Tensor:
        return mlp(x).mean()  # (T, d) -> one number

    x = torch.randn(IG_TOKENS, IG_DIM)
    captum = IntegratedGradients(lambda xs: torch.stack([forward(one) for one in xs]))

    def theirs() -> torch.Tensor:
        return captum.attribute(x[None], baselines=torch.zeros_like(x)[None], n_steps=IG_STEPS)

    def ours() -> torch.Tensor:
        return integrated_gradients(forward, x, steps=IG_STEPS)

    torch.testing.assert_close(ours(), theirs()[0].sum(-1), rtol=1e-4, atol=1e-6)
    ours_s, theirs_s = rounds(ours, theirs, 5)
    print(f"integrated gradients ({IG_STEPS} steps, {IG_TOKENS} tokens x {IG_DIM})")
    print(f"  attnviz             {ours_s * 1e3:8.2f} ms")
    print(f"  captum              {theirs_s * 1e3:8.2f} ms")
    print(f"  ratio: {ours_s / theirs_s:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
