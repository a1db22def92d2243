"""attend(...) against the plain torch reference softmax(q @ k.T / sqrt(d)) @ v, same run.

Prints, per (n, m, d), the median time of each and their ratio (target: <= 1.15 at 2048,
no mask), and the peak number of extra n x m float32 matrices attend allocates beyond the
ones AttentionResult returns (target: <= 2), measured with torch's CPU allocator profiler.
Run with `make bench`.
"""

from __future__ import annotations

import math

import torch

from attnviz.attention import attend
from benchmarks.timing import median_seconds

SIZES = ((64, 64, 16), (512, 512, 64), (2048, 2048, 64))


def reference(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return torch.softmax(q @ k.T / math.sqrt(q.shape[-1]), dim=-1) @ v


def peak_extra_matrices(n: int, m: int, d: int, masked: bool) -> float:
    """Peak bytes allocated during attend, minus what the result holds, in n x m float32 units."""
    gen = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(size, d, generator=gen) for size in (n, m, m))
    mask = torch.rand(n, m, generator=gen) > 0.3 if masked else None
    with torch.profiler.profile(
        activities=[torch.profiler.ProfilerActivity.CPU], profile_memory=True
    ) as prof:
        result = attend(q, k, v, mask=mask)
    peak = current = 0
    for event in sorted(prof.events(), key=lambda e: e.time_range.start):
        current += event.self_cpu_memory_usage
        peak = max(peak, current)
    kept = {id(t): t for t in (result.scores, result.masked_scores, result.weights)}
    kept_bytes = sum(t.numel() * t.element_size() for t in kept.values())
    return max(peak - kept_bytes, 0) / (n * m * 4)


def main() -> None:
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    print(f"{'n, m, d':>16} {'attend ms':>10} {'torch ms':>10} {'ratio':>7}")
    for n, m, d in SIZES:
        q, k, v = torch.randn(n, d), torch.randn(m, d), torch.randn(m, d)
        repeats = 200 if n <= 64 else 30 if n <= 512 else 10
        ours = median_seconds(lambda q=q, k=k, v=v: attend(q, k, v), repeats)
        theirs = median_seconds(lambda q=q, k=k, v=v: reference(q, k, v), repeats)
        print(f"{(n, m, d)!s:>16} {ours * 1e3:10.3f} {theirs * 1e3:10.3f} {ours / theirs:7.2f}")
    n, m, d = SIZES[-1]
    for masked in (False, True):
        extra = peak_extra_matrices(n, m, d, masked)
        label = "with a mask" if masked else "no mask"
        print(f"extra n x m float32 matrices alive at peak ({label}, {n}x{m}): {extra:.2f}")


if __name__ == "__main__":
    main()
