"""A causal language model writing text one token at a time, with what it attended to at each
step: the attention row of the position that predicted each new token, in every layer and head,
read from an eager forward that feeds one token at a time through the key/value cache.

`generate(encoder, prompt, ...)` reads the prompt as the model's tokenizer reads it
(`tokenizer(prompt)`: SmolLM2 adds no BOS), then at each step takes the last position's logits:
greedy (`temperature=0`, the argmax, as transformers' `generate(do_sample=False)`) or sampled
from softmax(logits / temperature) after an optional top-k filter, with a seeded generator, so a
seed repeats its text. It stops at the model's end tokens or after `max_new_tokens`. Step i
keeps the (layers, heads, prompt + i) row that predicted token i, the token's probability, the
10 most probable tokens at that position (both before any top-k filter) and the cache's size
after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import torch

from attnviz.errors import InputError
from attnviz.i18n import Term

if TYPE_CHECKING:
    from attnviz.transformer.encoder import Encoder

MAX_PROMPT_TOKENS = 512
MAX_NEW_TOKENS = 64
STEP_TOP = 10  # the most probable tokens kept at each step


@dataclass(frozen=True, eq=False)
class Step:
    """One new token and the position that predicted it."""

    token_id: int
    token: str  # the piece as the tokenizer writes it
    probability: float  # the token's, under the temperature (before top-k), top list or not
    attention: torch.Tensor  # (L, H, prompt + i) float32: the predicting position's row
    top: list[tuple[int, str, float]]  # (id, piece, probability), the most probable first
    cache_bytes: int  # the key/value cache after this step's forward, every layer


@dataclass(frozen=True, eq=False)
class Generation:
    """What `generate` wrote: the prompt's ids, the new ids and pieces, one Step each."""

    prompt_ids: list[int]
    ids: list[int] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    stopped: str = "length"  # "length", "end" (an end token), or "stopped" (the caller's stop)


def end_ids(encoder: Encoder) -> set[int]:
    """The ids that end generation: the model's and its generation config's end tokens."""
    found: set[int] = set()
    for source in (encoder.model.config, getattr(encoder.model, "generation_config", None)):
        value = getattr(source, "eos_token_id", None)
        if isinstance(value, int):
            found.add(value)
        elif isinstance(value, list | tuple):
            found |= {int(v) for v in value}
    return found


def cache_bytes(cache: Any) -> int:
    """Bytes the key/value cache holds (keys and values of every layer)."""
    total = 0
    for layer in getattr(cache, "layers", []):
        for name in ("keys", "values"):
            tensor = getattr(layer, name, None)
            if isinstance(tensor, torch.Tensor):
                total += tensor.numel() * tensor.element_size()
    return total


def choose(
    logits: torch.Tensor, temperature: float, top_k: int | None, generator: torch.Generator
) -> tuple[int, torch.Tensor]:
    """The next id from (V,) logits, and the (V,) probabilities shown (before top-k)."""
    if temperature == 0:
        return int(logits.argmax()), torch.softmax(logits, dim=-1)
    probs = torch.softmax(logits / temperature, dim=-1)
    kept = probs
    if top_k is not None and top_k < probs.numel():
        threshold = probs.topk(top_k).values[-1]
        kept = torch.where(probs >= threshold, probs, torch.zeros_like(probs))
    return int(torch.multinomial(kept / kept.sum(), 1, generator=generator)), probs


def generate(
    encoder: Encoder,
    prompt: str,
    *,
    max_new_tokens: int = 32,
    temperature: float = 0.0,
    top_k: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
    on_token: Callable[[Generation], None] | None = None,
) -> Generation:
    """Up to `max_new_tokens` new tokens after `prompt` (see the module's docstring).
    After each token: `on_token(the generation so far)` (marked stopped, the tokens it holds
    are final), then `progress(done, max_new_tokens)`; `stop()` True ends it early."""
    _check_settings(encoder, max_new_tokens, temperature, top_k)
    ids = prompt_ids(encoder, prompt)
    generator = torch.Generator().manual_seed(seed)
    ends = end_ids(encoder)
    pieces = encoder.tokenizer.convert_ids_to_tokens
    result = Generation(prompt_ids=ids)
    fed = torch.tensor([ids])
    cache = None
    with torch.inference_mode():
        for step in range(max_new_tokens):
            out = encoder.model(input_ids=fed, cache=cache, use_cache=True, output_attentions=True)
            cache = out.cache
            made = _step(out, pieces, cache_bytes(cache), temperature, top_k, generator)
            result.steps.append(made)
            token = made.token_id
            result.ids.append(token)
            result.tokens.append(str(pieces(token)))
            if on_token is not None:
                on_token(_stopped(result, "stopped"))
            if progress is not None:
                progress(step + 1, max_new_tokens)
            if token in ends:
                return _stopped(result, "end")
            if stop is not None and stop():
                return _stopped(result, "stopped")
            fed = torch.tensor([[token]])
    return result


def _check_settings(
    encoder: Encoder, max_new_tokens: int, temperature: float, top_k: int | None
) -> None:
    """ValueError (InputError for a model that cannot generate) for settings `generate` refuses."""
    if encoder.kind != "decoder":
        raise InputError("generation_needs_decoder", kind=encoder.kind)
    if not 1 <= max_new_tokens <= MAX_NEW_TOKENS:
        raise ValueError(f"max_new_tokens must lie in 1..{MAX_NEW_TOKENS}, got {max_new_tokens}")
    if not temperature >= 0 or temperature != temperature:
        raise ValueError(f"temperature must be 0 (greedy) or more, got {temperature}")
    if top_k is not None and top_k < 1:
        raise ValueError(f"top_k must be at least 1 or None, got {top_k}")


PROMPT = Term("parse.which.prompt")  # what a message calls the prompt


def prompt_ids(encoder: Encoder, prompt: str, which: Term = PROMPT) -> list[int]:
    """The prompt's ids as the tokenizer gives them (its specials too); InputError for a prompt
    that reads as no token (named `which` in the message) or as more than MAX_PROMPT_TOKENS."""
    with encoder.tokenizer_lock:
        prompt_ids = list(encoder.tokenizer(prompt)["input_ids"])
    if not prompt_ids:
        raise InputError("sentence_unreadable", which=which)
    if len(prompt_ids) > MAX_PROMPT_TOKENS:
        raise InputError("prompt_too_long", count=len(prompt_ids), limit=MAX_PROMPT_TOKENS)
    return prompt_ids


def _step(
    out: Any,
    pieces: Callable[[Any], Any],
    cache_size: int,
    temperature: float,
    top_k: int | None,
    generator: torch.Generator,
) -> Step:
    """One generated token from a forward's output: the token chosen, its probability, the new
    row's attention in every layer and head, and the STEP_TOP most probable tokens."""
    row = torch.stack([a[0, :, -1, :] for a in out.attentions]).float()  # (L, H, S)
    token, probs = choose(out.logits[0, -1].float(), temperature, top_k, generator)
    top = probs.topk(min(STEP_TOP, probs.numel()))
    names = pieces(top.indices.tolist())
    return Step(
        token_id=token,
        token=str(pieces(token)),
        probability=float(probs[token]),
        attention=row,
        top=[
            (int(i), str(n), float(p))
            for i, n, p in zip(top.indices, names, top.values, strict=True)
        ],
        cache_bytes=cache_size,
    )


def _stopped(result: Generation, why: str) -> Generation:
    """A copy of `result` as it stands, ended for `why`."""
    return Generation(
        list(result.prompt_ids), list(result.ids), list(result.tokens), list(result.steps), why
    )
