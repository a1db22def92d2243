"""The model lesson's numbers: rows renormalised over the tokens on view, and how much of each
row's attention went to [CLS] and [SEP] (attnviz.transformer.views of all-MiniLM-L6-v2), and
what the model makes of a head's output edited in the Playground."""

from __future__ import annotations

from dataclasses import dataclass

import torch

from attnviz.transformer import interventions
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.tokens import readable
from attnviz.transformer.views import attention_view


def specials_share(
    encoded: Encoded, *, merge_words: bool, block: str, first: bool = False
) -> torch.Tensor:
    """(L, H, r): the share of each query row's attention that goes to [CLS] and [SEP] (with
    `first`, to the first token instead), for the rows `attention_view(encoded, hide_specials=True,
    merge_words=..., block=...)` (or `hide_first=True`) shows.

    What a row gives the other tokens is the sum of its blocks without the specials ("AA" and
    "AB" for a query of A); the specials took the rest of its 1."""
    blocks = ["all"] if block == "all" else [block[0] + keys for keys in "AB"]
    kept = sum(
        attention_view(
            encoded, hide_specials=not first, hide_first=first, merge_words=merge_words, block=b
        )[0].sum(-1)
        for b in blocks
    )  # (L, H, r)
    return 1 - torch.as_tensor(kept)


# attnviz.transformer.neurons.STACKS: which attention is shown
STACKS = ("encoder", "decoder", "cross")
LINES_ABOVE = 64  # tokens beyond which the head view draws only each token's strongest lines
LINES_PER_TOKEN = 3


def stack_attention(encoded: Encoded, stack: str) -> tuple[torch.Tensor, list[str], list[str]]:
    """(L, H, r, c) one stack's attention with its query and key tokens: an encoder-decoder's
    decoder self-attention (target x target) or cross-attention (target x source)."""
    if stack == "encoder":
        return encoded.every_attention(), list(encoded.labels), list(encoded.labels)
    attn = encoded.decoder_attentions if stack == "decoder" else encoded.cross_attentions
    if attn is None or encoded.decoder_tokens is None:
        raise ValueError(f"a {encoded.kind} has no {stack} attention")
    target = readable(encoded.decoder_tokens, encoded.token_style)
    return attn, target, list(target if stack == "decoder" else encoded.labels)


def strongest_lines(weights: torch.Tensor, per_token: int = LINES_PER_TOKEN) -> torch.Tensor:
    """(n, m) -> (n, m): each row's `per_token` largest weights kept, the others 0."""
    k = min(per_token, weights.shape[-1])
    top = weights.topk(k, dim=-1)
    return torch.zeros_like(weights).scatter_(-1, top.indices, top.values)


def next_token_rows(encoded: Encoded, position: int) -> tuple[list[str], list[float]]:
    """A decoder's most probable next tokens after `position`, with their probabilities."""
    if encoded.next_tokens is None or encoded.next_token_probs is None:
        raise ValueError(f"a {encoded.kind} predicts no next token")
    pieces = encoded.readable(encoded.next_tokens[position])  # "␣cat", not "Ġcat"
    return pieces, encoded.next_token_probs[position].tolist()


@dataclass(frozen=True)
class EditEffect:
    """What the model makes of one head's output replaced (the Playground's round trip): a
    decoder's next-token probabilities at the last position, before and after; an encoder's
    sentence embedding (the mean of the last layer over the tokens, as all-MiniLM-L6-v2
    pools) and each token's last-layer vector, compared by cosine."""

    kind: str  # "decoder" or "encoder"
    before: torch.Tensor  # (V,) probabilities, or (d,) the sentence embedding
    after: torch.Tensor
    token_cosines: torch.Tensor | None = None  # (T,) an encoder's tokens, after against before

    @property
    def cosine(self) -> float:
        return float(torch.nn.functional.cosine_similarity(self.before, self.after, dim=0))


def edit_effect(
    encoder: Encoder, encoded: Encoded, at: tuple[int, int], rows: torch.Tensor
) -> EditEffect:
    """The model on `encoded`'s inputs with head `at`'s output replaced by `rows` (n, d_head)
    in its first n positions, against the same run unchanged."""
    before = interventions.patched_output(encoder, encoded.inputs, {})
    after = interventions.patched_output(encoder, encoded.inputs, {at: rows})
    if encoder.kind == "decoder":
        return EditEffect(
            "decoder", torch.softmax(before[-1], dim=-1), torch.softmax(after[-1], dim=-1)
        )
    cosines = torch.nn.functional.cosine_similarity(before, after, dim=-1)
    return EditEffect("encoder", before.mean(dim=0), after.mean(dim=0), cosines)
