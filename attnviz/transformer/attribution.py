"""What each generated token drew on: a prompt x generated attribution matrix, as Inseq draws it
(Sarti et al. 2023), from gradient x input (Shrikumar et al. 2016) or integrated gradients
(Sundararajan et al. 2017) through `attnviz.saliency`.

`generation_attribution(encoder, prompt, ...)` writes with `generation.generate` (the same
greedy or seeded sampled tokens), then attributes each new token on its own: row i is the
attribution, summed over the embedding, of log p(new token i | every id before it) to each of
those ids' input embeddings. A forward and a backward pass a row (integrated gradients:
`IG_STEPS` points of the path, a few a forward, fewer for longer texts), so memory stays that
of one forward of a few points with its graph; only the input embeddings get a gradient
(`torch.autograd.grad`), the model's parameters none.

Shape letters: P the prompt's tokens, N the new tokens generated (an end token can make them
fewer than asked), T = P + N - 1 the columns (the last new token is attributed, never read),
d the hidden size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import torch

from attnviz.errors import InputError
from attnviz.saliency import gradient_x_input, integrated_gradients
from attnviz.transformer.generation import MAX_NEW_TOKENS, generate
from attnviz.transformer.tokens import readable

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

ATTRIBUTION_METHODS = ("gradient_x_input", "integrated_gradients")
IG_STEPS = 32  # integrated gradients' points on the path from the zero baseline
IG_BATCH = 8  # points of the path a forward, at most
# A forward's points x positions squared (eager attention keeps every head's weights for the
# backward pass): 8 points of 128 tokens; longer texts take fewer points a forward, never one
# (saliency's one-point path keeps every point's graph for a single backward pass).
IG_PAIRS = 8 * 128 * 128


@dataclass(frozen=True, eq=False)
class Attribution:
    """A generation and what each new token drew on."""

    ids: list[int]  # P + N: the prompt's ids, then the new ones
    prompt_length: int  # P
    tokens: list[str]  # P + N readable pieces, as the Generation page shows them
    matrix: np.ndarray  # (N, T) float64: row i over positions 0 .. P + i - 1, NaN after
    method: str  # one of ATTRIBUTION_METHODS


def generation_attribution(
    encoder: Encoder,
    prompt: str,
    *,
    max_new_tokens: int,
    method: str = "gradient_x_input",
    temperature: float = 0.0,
    top_k: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Attribution:
    """Up to `max_new_tokens` new tokens after `prompt`, written as `generate` writes them
    (greedy at `temperature` 0, else sampled with `top_k` and `seed`), and each one's
    attribution to every earlier token (see the module's docstring). `progress(done, count)`
    after each row. InputError for an unknown method, a count outside 1..MAX_NEW_TOKENS, an
    empty prompt or a model that does not generate."""
    _check(method, max_new_tokens, prompt)
    made = generate(
        encoder, prompt, max_new_tokens=max_new_tokens, temperature=temperature, top_k=top_k,
        seed=seed,
    )  # fmt: skip
    ids = [*made.prompt_ids, *made.ids]
    matrix = attribution_matrix(
        encoder, ids, len(made.prompt_ids), method=method, progress=progress
    )
    pieces = encoder.tokenizer.convert_ids_to_tokens(made.prompt_ids)
    tokens = [
        *readable(pieces, encoder.token_style),
        *readable(made.tokens, encoder.token_style),
    ]
    return Attribution(ids, len(made.prompt_ids), tokens, matrix, method)


def attribution_matrix(
    encoder: Encoder,
    ids: list[int],
    prompt_length: int,
    *,
    method: str = "gradient_x_input",
    progress: Callable[[int, int], None] | None = None,
    into: np.ndarray | None = None,
) -> np.ndarray:
    """(N, T): the attribution of each of the N = len(ids) - `prompt_length` last ids to every
    id before it, NaN after (a generation already written: the Generation page's, kept as it
    stopped). `progress(done, N)` after each row. `into`, an (N, T) float64 array, is filled
    row by row and returned; rows it already holds (`rows_done`: position 0 not NaN) are kept, so an
    interrupted call's array, passed again, resumes where that call stopped."""
    _check_method(method)
    count = len(ids) - prompt_length
    if prompt_length < 1 or count < 1:
        raise ValueError(f"{len(ids)} ids with a prompt of {prompt_length}: attribute 1 or more")
    shape = (count, prompt_length + count - 1)  # (N, T)
    if into is not None and (into.shape != shape or into.dtype != np.float64):
        raise ValueError(f"into must be a float64 array of shape {shape}, got {into.shape}")
    matrix = np.full(shape, np.nan) if into is None else into
    with torch.no_grad():
        embeddings = encoder.model.get_input_embeddings()(torch.tensor(ids))  # (P + N, d)
    done = rows_done(matrix)
    for i in range(count):
        if done[i]:
            continue  # attributed by an earlier call
        before = prompt_length + i
        row = attribute_row(encoder, embeddings[:before], ids[before], method)  # (P + i,)
        matrix[i, :before] = row.double().numpy()
        if progress is not None:
            progress(i + 1, count)
    return matrix


def rows_done(matrix: np.ndarray) -> np.ndarray:
    """(N,) bool: the rows of an (N, T) attribution matrix already attributed (every row holds
    position 0, so a row is done once that is not NaN)."""
    return ~np.isnan(matrix[:, 0])


def _check(method: str, max_new_tokens: int, prompt: str) -> None:
    """InputError for what `generation_attribution` refuses before it writes anything (a model
    that does not generate, `generate` refuses)."""
    _check_method(method)
    if not 1 <= max_new_tokens <= MAX_NEW_TOKENS:
        raise InputError("attribution_new_tokens", count=max_new_tokens, limit=MAX_NEW_TOKENS)
    if not prompt:
        raise InputError("attribution_empty")


def _check_method(method: str) -> None:
    if method not in ATTRIBUTION_METHODS:
        raise InputError(
            "attribution_method", method=method, allowed=", ".join(ATTRIBUTION_METHODS)
        )


def attribute_row(
    encoder: Encoder, embeddings: torch.Tensor, token: int, method: str
) -> torch.Tensor:
    """(S,): the attribution of log p(`token` | the S positions `embeddings` (S, d) hold) to
    each position, summed over d: gradient x input, or integrated gradients from zeros."""
    forward = log_probability(encoder, token)
    if method == "integrated_gradients":
        batch = max(2, min(IG_BATCH, IG_PAIRS // len(embeddings) ** 2))
        return integrated_gradients(forward, embeddings, steps=IG_STEPS, batch=batch)
    return gradient_x_input(forward, embeddings)


def log_probability(encoder: Encoder, token: int) -> Callable[[torch.Tensor], torch.Tensor]:
    """(S, d) input embeddings -> log p(`token`) after them, a number; (B, S, d), B points of
    an integration path -> (B,)."""

    def forward(x: torch.Tensor) -> torch.Tensor:
        rows = x if x.ndim == 3 else x[None]  # (B, S, d)
        logits = encoder.model(inputs_embeds=rows).logits[:, -1]  # (B, V)
        values = torch.log_softmax(logits.float(), dim=-1)[:, token]  # (B,)
        return values if x.ndim == 3 else values[0]

    return forward
