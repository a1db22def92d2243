"""multi_head_attention against torch.nn.MultiheadAttention with the same weights, same run.

Prints the median time of each at (T, d_model, heads) = (512, 256, 8) and their ratio (target:
<= 1.2). Both return per-head weights (need_weights=True, average_attn_weights=False), so they
do the same work; the ratio against torch's fused path (need_weights=False, no weights) is
printed for information. Run with `python -m benchmarks.bench_heads`.

Measured on the 2-core build machine: 1.05 to 1.15. multi_head_attention writes the softmax
over the scores (masked_softmax(inplace=True)), as torch's fused path does, so each call makes
one (h, T, T) buffer. With the scores and the weights as two 8 MB arrays, glibc gave the
freed 16 MB back to the OS after every call and the next call page-faulted: ratio 3.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable

import torch

from attnviz.heads import multi_head_attention, torch_mha
from benchmarks.timing import median_seconds

T, D_MODEL, HEADS = 512, 256, 8
REPEATS = 30


def main() -> None:
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    x = torch.randn(1, T, D_MODEL)  # (B, T, d_model)
    params = multi_head_attention(x, num_heads=HEADS).params
    mha = torch_mha(params, D_MODEL, HEADS)

    def ours() -> object:
        return multi_head_attention(x, num_heads=HEADS, params=params)

    def theirs(need_weights: bool) -> Callable[[], object]:
        def run() -> object:
            with torch.no_grad():
                return mha(x, x, x, need_weights=need_weights, average_attn_weights=False)

        return run

    with torch.no_grad():
        expected, expected_weights = theirs(True)()
    result = ours()
    torch.testing.assert_close(result.output, expected, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(result.weights, expected_weights, rtol=1e-4, atol=1e-5)

    # Interleaved rounds, so a burst of load on the machine hits both sides alike.
    ours_times, with_weights, fused = [], [], []
    for _ in range(3):
        ours_times.append(median_seconds(ours, REPEATS))
        with_weights.append(median_seconds(theirs(True), REPEATS))
        fused.append(median_seconds(theirs(False), REPEATS))
    ours_s, weights_s, fused_s = (statistics.median(v) for v in (ours_times, with_weights, fused))
    print(f"(T, d_model, heads) = {(T, D_MODEL, HEADS)}")
    print(f"multi_head_attention              {ours_s * 1e3:8.3f} ms")
    print(f"nn.MultiheadAttention (weights)   {weights_s * 1e3:8.3f} ms")
    print(f"nn.MultiheadAttention (fused)     {fused_s * 1e3:8.3f} ms")
    print(f"ratio vs need_weights=True: {ours_s / weights_s:.2f} (target <= 1.2)")
    print(f"ratio vs fused, no weights: {ours_s / fused_s:.2f} (for information)")


if __name__ == "__main__":
    main()
