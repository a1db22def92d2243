"""Additive attention (Bahdanau et al. 2015) and the additive page's pure helpers.

References are written out by hand: loops over i, j and the hidden units for
w_v^T tanh(W_q q_i + W_k k_j), and `F.scaled_dot_product_attention` for the comparison.
"""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from attnviz import parsing
from attnviz.attention import attend
from attnviz.lessons.additive import compute, figures
from tests.english import EN

# (n, m, h, d_q, d_k, d_v): every size different, so a swapped axis cannot pass.
SHAPES = [(3, 5, 8, 2, 4, 3), (4, 6, 7, 5, 3, 2), (1, 2, 3, 9, 11, 4)]


def loop_scores(
    queries: torch.Tensor, keys: torch.Tensor, W_q: torch.Tensor, W_k: torch.Tensor, w_v
) -> torch.Tensor:
    """a(q_i, k_j) = sum_u w_v[u] tanh(sum_a W_q[u, a] q_i[a] + sum_b W_k[u, b] k_j[b])."""
    n, d_q = queries.shape
    m, d_k = keys.shape
    h = W_q.shape[0]
    out = torch.zeros(n, m, dtype=torch.float64)
    for i in range(n):
        for j in range(m):
            total = 0.0
            for u in range(h):
                pre = sum(float(W_q[u, a]) * float(queries[i, a]) for a in range(d_q))
                pre += sum(float(W_k[u, b]) * float(keys[j, b]) for b in range(d_k))
                total += float(w_v[u]) * math.tanh(pre)
            out[i, j] = total
    return out


def inputs(n, m, h, d_q, d_k, d_v, seed=0):
    gen = torch.Generator().manual_seed(seed)
    queries = torch.randn(n, d_q, generator=gen, dtype=torch.float64)
    keys = torch.randn(m, d_k, generator=gen, dtype=torch.float64)
    values = torch.randn(m, d_v, generator=gen, dtype=torch.float64)
    params = {
        "W_q": torch.randn(h, d_q, generator=gen, dtype=torch.float64),
        "W_k": torch.randn(h, d_k, generator=gen, dtype=torch.float64),
        "w_v": torch.randn(h, generator=gen, dtype=torch.float64),
    }
    return queries, keys, values, params


@pytest.mark.parametrize("shape", SHAPES)
def test_scores_match_the_formula_written_as_loops(shape):
    queries, keys, values, params = inputs(*shape)
    result = attend(queries, keys, values, score="additive", params=params)
    expected = loop_scores(queries, keys, params["W_q"], params["W_k"], params["w_v"])
    torch.testing.assert_close(result.scores, expected, rtol=1e-10, atol=1e-10)
    weights = torch.softmax(expected, dim=-1)
    torch.testing.assert_close(result.weights, weights, rtol=1e-10, atol=1e-10)
    torch.testing.assert_close(result.output, weights @ values, rtol=1e-10, atol=1e-10)


def test_hand_computed_example():
    # One query, two keys, h = 1: W_q q = 0.5 + 0.5 = 1, W_k k_0 = 1 + 0 - 1 = 0, W_k k_1 = 1.
    queries = torch.tensor([[1.0, 2.0]])
    keys = torch.tensor([[0.5, 0.0, 1.0], [0.0, 1.0, 0.0]])
    params = {
        "W_q": torch.tensor([[0.5, 0.25]]),
        "W_k": torch.tensor([[2.0, 1.0, -1.0]]),
        "w_v": torch.tensor([3.0]),
    }
    result = attend(queries, keys, torch.eye(2), score="additive", params=params)
    expected = torch.tensor([[3 * math.tanh(1.0), 3 * math.tanh(2.0)]])
    torch.testing.assert_close(result.scores, expected)
    torch.testing.assert_close(result.weights, torch.softmax(expected, dim=-1))
    torch.testing.assert_close(result.output, torch.softmax(expected, dim=-1))


@pytest.mark.parametrize("shape", SHAPES)
def test_shapes_when_query_and_key_sizes_differ(shape):
    n, m, h, d_q, d_k, d_v = shape
    queries, keys, values, params = inputs(*shape)
    result = attend(queries, keys, values, score="additive", params=params)
    assert result.scores.shape == result.weights.shape == (n, m)
    assert result.output.shape == (n, d_v)
    assert result.params["W_q"].shape == (h, d_q)
    assert result.params["W_k"].shape == (h, d_k)
    assert result.params["w_v"].shape == (h,)
    assert result.params["h"] == h
    assert compute.project(queries, params["W_q"]).shape == (n, h)
    assert compute.project(keys, params["W_k"]).shape == (m, h)
    assert compute.features(
        compute.project(queries, params["W_q"]), compute.project(keys, params["W_k"]), 0
    ).shape == (m, h)


@pytest.mark.parametrize("shape", SHAPES)
def test_projected_scaled_dot_matches_torch(shape):
    queries, keys, values, params = inputs(*shape)
    q_proj = queries @ params["W_q"].T  # (n, h)
    k_proj = keys @ params["W_k"].T  # (m, h)
    ours = attend(q_proj, k_proj, values, score="scaled_dot")
    reference = F.scaled_dot_product_attention(q_proj, k_proj, values)
    torch.testing.assert_close(ours.output, reference, rtol=1e-10, atol=1e-10)
    scores = q_proj @ k_proj.T / math.sqrt(shape[2])
    torch.testing.assert_close(ours.scores, scores)


def test_page_compute_gives_both_results_from_the_same_inputs():
    sizes = compute.Sizes(n=4, m=6, d_q=3, d_k=5, d_v=2, seed=3, h=7, param_seed=1)
    params = compute.seeded_params(7, 3, 5, 1)
    texts = compute.param_texts(params)
    results = compute.compute(sizes, compute.Params(params, tuple(texts.values())))
    queries, keys, values = results.queries, results.keys, results.values
    assert (queries.shape, keys.shape, values.shape) == ((4, 3), (6, 5), (6, 2))
    expected = loop_scores(queries, keys, params["W_q"], params["W_k"], params["w_v"])
    torch.testing.assert_close(results.additive.scores.double(), expected, rtol=1e-5, atol=1e-5)
    q_proj, k_proj = queries @ params["W_q"].T, keys @ params["W_k"].T
    reference = F.scaled_dot_product_attention(q_proj, k_proj, values)
    torch.testing.assert_close(results.dot.output, reference)
    features = torch.tanh(q_proj[2] + k_proj)  # (m, h)
    torch.testing.assert_close(compute.features(results.q_proj, results.k_proj, 2), features)
    torch.testing.assert_close(features @ params["w_v"], results.additive.scores[2])


def test_seeded_params_are_what_attend_draws_and_survive_the_text_round_trip():
    params = compute.seeded_params(8, 2, 4, 5)
    drawn = attend(
        torch.randn(3, 2), torch.randn(5, 4), torch.randn(5, 3), score="additive",
        params={"h": 8, "seed": 5},
    ).params  # fmt: skip
    sizes = compute.Sizes(n=3, m=5, d_q=2, d_k=4, d_v=3, seed=0, h=8, param_seed=5)
    for name, text in compute.param_texts(params).items():
        torch.testing.assert_close(params[name], drawn[name], rtol=0, atol=0)
        torch.testing.assert_close(
            compute.parse_param(name, text, sizes), drawn[name], rtol=0, atol=0
        )


def test_w_v_reads_as_a_row_or_a_column():
    sizes = compute.Sizes(n=1, m=1, d_q=1, d_k=1, d_v=1, seed=0, h=3, param_seed=0)
    expected = torch.tensor([1.0, 2.0, 3.0])
    torch.testing.assert_close(compute.parse_param("w_v", "1, 2, 3", sizes), expected)
    torch.testing.assert_close(compute.parse_param("w_v", "1\n2\n3", sizes), expected)


@pytest.mark.parametrize(
    ("name", "text", "found", "expected"),
    [
        ("W_q", "1, 2\n3, 4", "2 × 2", "h × q = 3 × 2"),
        ("W_k", "1, 2, 3\n4, 5, 6\n7, 8, 9", "3 × 3", "h × k = 3 × 4"),
        ("w_v", "1, 2", "1 × 2", "1 × 3 (h = 3 numbers)"),
        ("w_v", "1, 2, 3\n4, 5, 6", "2 × 3", "1 × 3 (h = 3 numbers)"),
    ],
)
def test_wrong_shapes_name_expected_and_found(name, text, found, expected):
    sizes = compute.Sizes(n=2, m=2, d_q=2, d_k=4, d_v=1, seed=0, h=3, param_seed=0)
    with pytest.raises(parsing.InputError) as info:
        compute.parse_param(name, text, sizes)
    message = str(info.value)
    assert message.startswith(f"{name} has shape {found} but must be {expected}")
    assert "Re-draw from seed" in message


def test_formula_lines_carry_the_sizes():
    sizes = compute.Sizes(n=3, m=5, d_q=2, d_k=4, d_v=3, seed=0, h=8, param_seed=0)
    lines = "\n".join(figures.formula_lines(sizes, EN))
    for part in (
        r"W_q \in \mathbb{R}^{8 \times 2}",
        r"W_k \in \mathbb{R}^{8 \times 4}",
        r"w_v \in \mathbb{R}^{8}",
        r"Q \in \mathbb{R}^{3 \times 2}",
        r"K \in \mathbb{R}^{5 \times 4}",
        r"\sqrt{h} = 2.83",
    ):
        assert part in lines
