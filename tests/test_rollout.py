"""Attention rollout and flow (attnviz.rollout) against the paper's definitions.

The authors' code (samiraabnar/attention_flow) has no licence, so its recursion
(`compute_joint_attention`) and its flow (`compute_flows`: networkx's maximum flow from each
last-layer node to each input node, each row divided by its sum) are written again here.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import torch

from attnviz.rollout import (
    MAX_FLOW_TOKENS,
    attention_flow,
    attention_rollout,
    residual_attention,
)


def random_attentions(layers: int, heads: int, tokens: int, seed: int = 0) -> torch.Tensor:
    gen = torch.Generator().manual_seed(seed)
    return torch.randn(layers, heads, tokens, tokens, generator=gen).mul(2).softmax(-1)


def joint_attention(att_mat: np.ndarray) -> np.ndarray:
    """Abnar & Zuidema's recursion on head-averaged (L, T, T) attention, with the residual."""
    aug = att_mat + np.eye(att_mat.shape[1])[None]
    aug = aug / aug.sum(axis=-1)[..., None]
    joint = np.zeros(aug.shape)
    joint[0] = aug[0]
    for i in range(1, aug.shape[0]):
        joint[i] = aug[i].dot(joint[i - 1])
    return joint


def networkx_flow(aug: np.ndarray) -> np.ndarray:
    """The flow from each last-layer position to each input token, with networkx."""
    layers, tokens = aug.shape[0], aug.shape[-1]
    graph = nx.DiGraph()
    for layer in range(layers):
        for i in range(tokens):
            for j in range(tokens):
                graph.add_edge((layer + 1) * tokens + i, layer * tokens + j,
                               capacity=float(aug[layer, i, j]))  # fmt: skip
    flows = np.array(
        [
            [nx.maximum_flow_value(graph, layers * tokens + i, j) for j in range(tokens)]
            for i in range(tokens)
        ]
    )
    return flows / flows.sum(axis=1, keepdims=True)


@pytest.mark.parametrize(("layers", "heads", "tokens"), [(1, 1, 3), (6, 12, 9), (4, 2, 17)])
def test_rollout_is_the_authors_recursion(layers, heads, tokens):
    attn = random_attentions(layers, heads, tokens).double()
    rollout = attention_rollout(attn)
    assert rollout.shape == (layers, tokens, tokens)
    expected = joint_attention(attn.mean(dim=1).numpy())
    np.testing.assert_allclose(rollout.numpy(), expected, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(rollout.sum(-1), torch.ones(layers, tokens, dtype=torch.float64))


def test_rollout_keeps_the_dtype_and_fuses_heads_by_max_or_min():
    attn = random_attentions(3, 4, 5)
    assert attention_rollout(attn).dtype == torch.float32
    for fusion, fused in (("max", attn.amax(1)), ("min", attn.amin(1))):
        expected = joint_attention(fused.double().numpy())
        got = attention_rollout(attn, head_fusion=fusion).double().numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="unknown head fusion 'sum': choose one of mean"):
        attention_rollout(attn, head_fusion="sum")
    with pytest.raises(ValueError, match=r"attentions must be \(layers, heads, T, T\)"):
        attention_rollout(attn[0])


def test_the_residual_is_half_attention_half_identity():
    attn = random_attentions(2, 3, 4).double()
    expected = 0.5 * attn.mean(1) + 0.5 * torch.eye(4, dtype=torch.float64)
    torch.testing.assert_close(residual_attention(attn), expected)


def test_flow_on_a_hand_solved_two_layer_graph():
    # Layer 0: token 0 sees itself, token 1 both; layer 1 swaps. With the residual:
    # A~0 = [[1, 0], [.25, .75]], A~1 = [[.5, .5], [.5, .5]]. From either last-layer token:
    # to input 0, .5 (through node 0) + min(.5, .25) (through node 1) = .75; to input 1,
    # 0 + min(.5, .75) = .5; divided by their sum, (.6, .4). Rollout gives (.625, .375).
    attn = torch.tensor(
        [[[[1.0, 0.0], [0.5, 0.5]]], [[[0.0, 1.0], [1.0, 0.0]]]], dtype=torch.float64
    )
    flow = attention_flow(attn)
    torch.testing.assert_close(flow, torch.tensor([[0.6, 0.4], [0.6, 0.4]], dtype=torch.float64))
    rollout = attention_rollout(attn)[-1]
    torch.testing.assert_close(rollout, torch.tensor([[0.625, 0.375]] * 2, dtype=torch.float64))


@pytest.mark.parametrize(("layers", "tokens", "seed"), [(3, 6, 0), (2, 5, 1), (6, 4, 2)])
def test_flow_equals_networkx_on_the_same_graph(layers, tokens, seed):
    attn = random_attentions(layers, 3, tokens, seed).double()
    shares: list[float] = []
    flow = attention_flow(attn, progress=shares.append)
    expected = networkx_flow(residual_attention(attn).numpy())
    np.testing.assert_allclose(flow.numpy(), expected, atol=1e-7)
    assert shares[-1] == 1.0 and len(shares) == tokens
    torch.testing.assert_close(flow.sum(-1), torch.ones(tokens, dtype=torch.float64))


def test_flow_refuses_more_tokens_than_its_cap():
    attn = random_attentions(1, 1, MAX_FLOW_TOKENS + 1)
    with pytest.raises(ValueError, match=f"at most {MAX_FLOW_TOKENS} tokens \\(25 given\\)"):
        attention_flow(attn)
