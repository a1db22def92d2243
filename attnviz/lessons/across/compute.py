"""The across-layers lesson's numbers: head statistics by name, and gradient saliency of
all-MiniLM-L6-v2 for two targets, each sentence read alone as the model reads it.

- "similarity": the cosine of the two sentences' mean-pooled last hidden states, the score
  sentence-transformers gives a pair (its L2 normalising does not change a cosine);
- "verdict": the trained NLI classifier's logit of the label it predicts, through the embedding
  it was trained on (MiniLM's contextual layer or its word-embedding rows);
- "next", for a causal language model: the log-probability of the token it predicts after the
  text (the pair read as one text, A, a newline, B), through every position's embedding row.

Saliency is taken with respect to the word-embedding output: each sentence's rows
[CLS] A [SEP] and [CLS] B [SEP], concatenated (T_a + T_b, d), go into the model as
`inputs_embeds`, which adds positions and token types and normalises, as for token ids.
No Streamlit, no Plotly.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import torch

from attnviz import head_stats, saliency
from attnviz.rollout import attention_rollout
from attnviz.transformer.encoder import Encoded, Encoder
from attnviz.transformer.views import renormalise

if TYPE_CHECKING:
    from attnviz.nli.classifier import Classifier

# Head statistics in the page's order, each with its colour scale: "activations" from 0 to the
# largest (nats, tokens), "weights" on 0..1 (shares and pattern scores).
# Each statistic, and whether it is a share in [0, 1] (a fixed 0..1 scale) or not (entropy in
# nats, distance in tokens: a scale from 0 to the largest head's). All nine read one way on the
# page: one colour scale, a high value the same colour on every grid.
STATISTICS: dict[str, bool] = {
    "entropy": False,
    "distance": False,
    "broad": True,
    "cls": True,
    "sep": True,
    "first": True,
    "previous": True,
    "next": True,
    "diagonal": True,
}
TARGETS = ("similarity", "verdict", "next")
# Token rows a causal model reads at once along the integration path: a batch of points runs
# several times faster than the points one by one, and the rows bound its memory.
BATCH_ROWS = 256
BASELINES = ("zeros", "pad")  # zero vectors; the pad token's rows, special tokens kept
CLOSE_GAP = 0.10  # a completeness gap above this share of the change gets advice on steps


def head_statistics(encoded: Encoded) -> dict[str, torch.Tensor]:
    """Every statistic of STATISTICS, (L, H) each, for one reading of the model."""
    attn = encoded.every_attention()  # (L, H, T, T)
    sinks = head_stats.special_positions(encoded.tokens, encoded.special)
    found = {
        "entropy": head_stats.entropy(attn),
        "distance": head_stats.mean_distance(attn),
        "cls": head_stats.share_on(attn, sinks.get("[CLS]", [])),
        "sep": head_stats.share_on(attn, sinks.get("[SEP]", [])),
        "first": head_stats.share_on(attn, sinks["first"]),
    }
    found |= {kind: head_stats.pattern_score(attn, kind) for kind in head_stats.PATTERNS}
    return {name: found[name] for name in STATISTICS}


@dataclass(frozen=True, eq=False)
class Saliency:
    """Per-token attributions of one target, for the two sentences each read alone."""

    tokens: list[str]  # [CLS] A [SEP] [CLS] B [SEP]
    sentence: list[int]  # 0 for A's tokens, 1 for B's
    special: list[bool]
    target: str
    label: int | None  # the verdict's label (an index of LABELS), the next token's id; None
    # for the similarity
    value: float  # f(x): the target at the sentences' embeddings
    baseline_value: float  # f(x') at the baseline
    gradient_x_input: torch.Tensor  # (T,)
    integrated: torch.Tensor  # (T,) integrated gradients, summing to about value - baseline_value
    rollout: torch.Tensor | None  # (T,) each sentence's [CLS] row of its last-layer rollout (a
    # decoder's: the last position's row)


def _readings(encoder: Encoder, text_a: str, text_b: str) -> list[Encoded]:
    return encoder.encode_batch([text_a, text_b], ["sentence A", "sentence B"])


def _split(x: torch.Tensor, sizes: list[int]) -> list[torch.Tensor]:
    return list(torch.split(x, sizes, dim=0))


def _hidden(encoder: Encoder, rows: torch.Tensor) -> tuple[torch.Tensor, ...]:
    """Every hidden state (L + 1 of (T, d)) of one sentence from its word-embedding rows."""
    ones = torch.ones(1, rows.shape[0], dtype=torch.long)
    types = {"token_type_ids": torch.zeros_like(ones)} if encoder.token_types else {}
    out = encoder.model(
        inputs_embeds=rows[None], attention_mask=ones, output_hidden_states=True, **types
    )
    return tuple(state[0] for state in out.hidden_states)


def next_token_forward(encoder: Encoder, token: int) -> Callable[[torch.Tensor], torch.Tensor]:
    """(T, d) word-embedding rows of one text -> the log-probability of `token` after it; or
    (B, T, d), B points of an integration path -> (B,)."""

    def forward(x: torch.Tensor) -> torch.Tensor:
        rows = x if x.ndim == 3 else x[None]  # (B, T, d)
        ones = torch.ones(rows.shape[:2], dtype=torch.long)
        logits = encoder.model(inputs_embeds=rows, attention_mask=ones).logits[:, -1]  # (B, V)
        values = torch.log_softmax(logits.float(), dim=-1)[:, token]  # (B,)
        return values if x.ndim == 3 else values[0]

    return forward


def similarity_forward(
    encoder: Encoder, sizes: list[int]
) -> Callable[[torch.Tensor], torch.Tensor]:
    """(T_a + T_b, d) word-embedding rows -> the cosine of the two mean-pooled sentences."""

    def forward(x: torch.Tensor) -> torch.Tensor:
        a, b = (_hidden(encoder, rows)[-1].mean(dim=0) for rows in _split(x, sizes))  # (d,)
        return torch.nn.functional.cosine_similarity(a, b, dim=0)

    return forward


def verdict_forward(
    classifier: Classifier, sizes: list[int], label: int | None = None
) -> Callable[[torch.Tensor], torch.Tensor]:
    """(T_a + T_b, d) word-embedding rows -> the classifier's logits (3,), or the logit of
    `label`: each sentence's embedding as the classifier's card says, [CLS] / [SEP] left out."""
    if classifier.source not in ("contextual", "static", "tuned"):
        raise ValueError(
            f"a classifier on {classifier.source!r} embeddings does not read the words: "
            "no gradient reaches them"
        )

    def embed(rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        # (1, T - 2, d): the classifier's token vectors without [CLS] and [SEP] (and those
        # its attend step scores, when they differ)
        vectors, keys = classifier.word_vectors(rows)
        return vectors[1:-1][None], None if keys is None else keys[1:-1][None]

    def forward(x: torch.Tensor) -> torch.Tensor:
        (a, keys_a), (b, keys_b) = (embed(rows) for rows in _split(x, sizes))
        lens = torch.tensor([a.shape[1]]), torch.tensor([b.shape[1]])
        keys = None if keys_a is None or keys_b is None else (keys_a, keys_b)
        logits = classifier.model(a, b, *lens, keys)[0]  # (3,)
        return logits if label is None else logits[label]

    return forward


def baseline_rows(encoder: Encoder, readings: list[Encoded], kind: str) -> torch.Tensor | None:
    """The baseline x' (T, d): None for zeros (saliency's default), or each word piece's row
    replaced by [PAD]'s, [CLS] and [SEP] kept."""
    if kind not in BASELINES:
        raise ValueError(f"unknown baseline {kind!r}: choose one of {', '.join(BASELINES)}")
    if kind == "zeros":
        return None
    table = encoder.model.get_input_embeddings().weight  # (V, d)
    pad = table[int(encoder.tokenizer.pad_token_id or 0)]  # (d,)
    rows = torch.cat([r.input_embeddings for r in readings])  # (T, d)
    special = torch.tensor([s for r in readings for s in r.special])
    return torch.where(special[:, None], rows, pad)


def spearman(a: torch.Tensor, b: torch.Tensor) -> float:
    """Spearman's rank correlation of two (T,) attributions (nan when one is constant)."""
    from scipy.stats import spearmanr

    if a.numel() < 2 or bool((a == a[0]).all()) or bool((b == b[0]).all()):
        return float("nan")
    return float(spearmanr(a.numpy(), b.numpy()).statistic)


def token_saliency(
    encoder: Encoder,
    text_a: str,
    text_b: str | None,
    *,
    target: str = "similarity",
    classifier: Classifier | None = None,
    baseline: str = "zeros",
    steps: int = 32,
    progress: Callable[[float], None] | None = None,
) -> Saliency:
    """Gradient x input and integrated gradients of `target` for the pair, each sentence
    encoded alone, beside each sentence's rollout from its [CLS] row (the similarity only)."""
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}: choose one of {', '.join(TARGETS)}")
    if target == "next" or encoder.kind == "decoder":
        return next_token_saliency(
            encoder, text_a, text_b, baseline=baseline, steps=steps, progress=progress
        )
    if text_b is None:
        raise ValueError("the similarity and the verdict compare two sentences: type B too")
    readings = _readings(encoder, text_a, text_b)
    sizes = [len(r.tokens) for r in readings]
    x = torch.cat([r.input_embeddings for r in readings]).float()  # (T, d)
    start = baseline_rows(encoder, readings, baseline)
    label = None
    rollout = None
    if target == "similarity":
        forward = similarity_forward(encoder, sizes)
        rollouts = [attention_rollout(r.every_attention())[-1, 0] for r in readings]
        rollout = torch.cat(rollouts)  # (T,)
    else:
        if classifier is None:
            raise ValueError("the verdict needs a trained NLI classifier")
        with torch.no_grad():
            label = int(verdict_forward(classifier, sizes)(x).argmax())
        forward = verdict_forward(classifier, sizes, label)
    return Saliency(
        tokens=[label for r in readings for label in r.labels],
        sentence=[i for i, size in enumerate(sizes) for _ in range(size)],
        special=[s for r in readings for s in r.special],
        target=target,
        label=label,
        rollout=rollout,
        **_attributed(forward, x, start, steps, progress),
    )


def _attributed(
    forward: Callable[[torch.Tensor], torch.Tensor],
    x: torch.Tensor,
    start: torch.Tensor | None,
    steps: int,
    progress: Callable[[float], None] | None,
    batch: int = 1,
) -> dict[str, Any]:
    """The target at x and at the baseline, gradient x input and integrated gradients
    (`batch` points of the path a forward call)."""
    with torch.no_grad():
        value = float(forward(x))
        baseline_value = float(forward(torch.zeros_like(x) if start is None else start))
    return {
        "value": value,
        "baseline_value": baseline_value,
        "gradient_x_input": saliency.gradient_x_input(forward, x),
        "integrated": saliency.integrated_gradients(
            forward, x, baseline=start, steps=steps, progress=progress, batch=batch
        ),
    }


def next_token_saliency(
    encoder: Encoder,
    text_a: str,
    text_b: str | None,
    *,
    baseline: str = "zeros",
    steps: int = 32,
    progress: Callable[[float], None] | None = None,
) -> Saliency:
    """A causal language model's saliency: gradient x input and integrated gradients of the
    log-probability of the token it predicts after the text (A, a newline, B), beside the
    last position's row of the last-layer rollout (the position that predicts it)."""
    if encoder.kind != "decoder":
        raise ValueError(
            f"the next token's probability needs a causal language model, not a {encoder.kind}"
        )
    reading = encoder.encode(text_a, text_b)
    x = reading.input_embeddings.float()  # (T, d)
    assert reading.next_token_ids is not None
    token = int(reading.next_token_ids[-1, 0])
    forward = next_token_forward(encoder, token)
    start = baseline_rows(encoder, [reading], baseline)
    return Saliency(
        tokens=list(reading.labels),
        sentence=list(reading.segments),
        special=list(reading.special),
        target="next",
        label=token,
        rollout=attention_rollout(reading.every_attention())[-1, -1],
        **_attributed(forward, x, start, steps, progress, max(1, BATCH_ROWS // x.shape[0])),
    )


def correlations(result: Saliency) -> dict[str, float]:
    """Spearman's rank correlations: rollout against |gradient x input| and |integrated
    gradients| (rollout has no sign), and the two saliencies against each other (signed)."""
    found = {"gxi_ig": spearman(result.gradient_x_input, result.integrated)}
    if result.rollout is not None:
        found["rollout_gxi"] = spearman(result.rollout, result.gradient_x_input.abs())
        found["rollout_ig"] = spearman(result.rollout, result.integrated.abs())
    return found


def hide_first(attn: torch.Tensor) -> torch.Tensor:
    """(..., T, T) -> (..., T - 1, T - 1): the first token's row and column dropped and each
    row renormalised over the rest, as Model attention hides a decoder's attention sink."""
    return renormalise(attn[..., 1:, 1:])


def without_first(result: Saliency) -> Saliency:
    """The result without its first token, the rollout row renormalised over the rest; the
    target's values stay those of the whole text (the completeness gap is the whole's)."""
    return dataclasses.replace(
        result,
        tokens=result.tokens[1:],
        sentence=result.sentence[1:],
        special=result.special[1:],
        gradient_x_input=result.gradient_x_input[1:],
        integrated=result.integrated[1:],
        rollout=None if result.rollout is None else renormalise(result.rollout[1:]),
    )


def completeness_gap(result: Saliency) -> float:
    """|sum of integrated gradients - (f(x) - f(x'))| / |f(x) - f(x')| (nan for no change)."""
    change = result.value - result.baseline_value
    total = float(result.integrated.sum())
    return abs(total - change) / abs(change) if change else float("nan")


def step_ladder(after: int, choices: Sequence[int]) -> list[int]:
    """The step counts to try after `after`: the choices above it, then doubling up to
    saliency.MAX_STEPS."""
    counts = [s for s in choices if s > after]
    top = max([after, *counts])
    while top * 2 <= saliency.MAX_STEPS:
        top *= 2
        counts.append(top)
    return counts


def closing_steps(
    attribute: Callable[[int, Callable[[float], None] | None], Saliency],
    counts: Sequence[int],
    progress: Callable[[float], None] | None = None,
) -> tuple[int, float] | None:
    """The first of `counts` whose integrated gradients close the completeness gap to under
    CLOSE_GAP, with its gap, measured by `attribute(steps, progress)`; None when none does."""
    total, done = sum(counts), 0
    for steps in counts:

        def part(share: float, start: int = done, steps: int = steps) -> None:
            if progress is not None:
                progress((start + share * steps) / total)

        gap = completeness_gap(attribute(steps, part))
        if gap < CLOSE_GAP:
            return steps, gap
        done += steps
    return None
