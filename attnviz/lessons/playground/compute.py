"""The Playground's computation: the chosen inputs and controls through `attend`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from attnviz import parsing
from attnviz.attention import SCORE_FUNCTIONS, AttentionResult, attend, build_mask
from attnviz.inputs import QKV


@dataclass(frozen=True)
class AttentionChoice:
    """The scoring function, its parameters and the masks chosen in the sidebar."""

    score: str
    temperature: float
    params: dict[str, Any]
    fill_value: float
    causal: bool
    valid_lens_text: str
    blocked: frozenset[tuple[int, int]]


def compute(qkv: QKV, choice: AttentionChoice, score_label: str) -> AttentionResult:
    """Attention for the chosen inputs and controls; InputError / ValueError for the page.

    `score_label` names the scoring function in the message of inputs it cannot score.
    """
    n, d_q = qkv.queries.shape
    m, d_k = qkv.keys.shape
    m_v, d_v = qkv.values.shape
    if m_v != m:
        raise parsing.InputError("values_rows", m_v=m_v, d_v=d_v, m=m, d_k=d_k)
    known = SCORE_FUNCTIONS.get(choice.score)  # an unknown name: attend's ValueError below
    if known is not None and known.equal_sizes and d_q != d_k:
        raise parsing.InputError("sizes", n=n, d_q=d_q, m=m, d_k=d_k, score=score_label)
    valid_lens = parsing.parse_valid_lens(choice.valid_lens_text, n, m)
    return attend(
        qkv.queries,
        qkv.keys,
        qkv.values,
        score=choice.score,
        mask=build_mask(n, m, causal=choice.causal, blocked=choice.blocked),
        valid_lens=valid_lens,
        fill_value=choice.fill_value,
        temperature=choice.temperature,
        params=choice.params,
    )
