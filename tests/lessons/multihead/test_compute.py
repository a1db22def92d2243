"""The multi-head lesson's numbers: a head's Q, K, V slices against torch's own attention."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from attnviz.lessons.multihead.compute import MultiHeadChoice, compute, head_slices


@pytest.mark.parametrize(("heads", "causal"), [(1, False), (4, False), (4, True), (8, True)])
def test_a_heads_slices_are_what_its_weights_and_output_are_made_of(heads, causal):
    view = compute(MultiHeadChoice("the cat sat on the mat", 16, heads, True, causal, 3))
    p, d_head = view.result.params, 16 // heads
    # The whole projections as nn.MultiheadAttention's in_proj computes them (weights stored
    # transposed), cut into the heads' columns.
    full = {n: F.linear(view.x, p[f"W_{n}"].T, p[f"b_{n}"]) for n in "qkv"}  # (T, d_model)
    for head in range(heads):
        q, k, v = head_slices(view, head)
        cols = slice(head * d_head, (head + 1) * d_head)
        for name, part in zip("qkv", (q, k, v), strict=True):
            torch.testing.assert_close(part, full[name][:, cols])
        output = F.scaled_dot_product_attention(q, k, v, is_causal=causal)  # (T, d_head)
        torch.testing.assert_close(output, view.result.head_outputs[head], rtol=1e-5, atol=1e-6)


def test_a_head_outside_the_layer_is_refused():
    view = compute(MultiHeadChoice("a b", 8, 2, True, False, 0))
    with pytest.raises(ValueError, match=r"head must lie in 0\.\.1, got 2"):
        head_slices(view, 2)
