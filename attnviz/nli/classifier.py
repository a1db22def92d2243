"""The trained NLI classifier: a decomposable attention model (attnviz.nli.model) over the token
vectors its card names (attnviz.nli.vectors), with the card's temperature.

`predict` scores a batch of any size in bounded memory: the pairs are sorted by length (a
premise's pairs together, so it is encoded once), read PREDICT_CHUNK pairs at a time keeping only
the hidden state the model reads, and put back in their order; the probabilities do not depend
on the chunks or on the pairs' order (to float rounding). `read` gives every step of a few pairs
(at most MAX_PAIRS: the page recomputes the one it shows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import torch

from attnviz.errors import InputError
from attnviz.i18n import t
from attnviz.nli.data import LABELS
from attnviz.nli.model import Alignment, DecomposableAttentionModel
from attnviz.nli.vectors import Vectors, layer_vectors, sentence_embeddings, tuned_vectors

if TYPE_CHECKING:
    from attnviz.nli.card import Card
    from attnviz.nli.tuned import TunedLayers
    from attnviz.transformer.encoder import Encoder

PREDICT_CHUNK = 128  # pairs read at once by `predict`
MAX_READ_PAIRS = 64  # pairs `read` gives every step of (attnviz.nli.alignment.MAX_PAIRS)
Progress = Callable[[int, int], None]  # (pairs done, pairs in all)


@dataclass(frozen=True)
class Verdicts:
    """A batch of pairs as the classifier reads them: tokens, every step, probabilities."""

    premises: list[list[str]]
    hypotheses: list[list[str]]
    alignment: Alignment
    probabilities: torch.Tensor  # (B, 3) in LABELS order, rows sum to 1


class Classifier:
    """A trained decomposable attention model with the encoder and token vectors it was trained
    on (and, for a "tuned" card, MiniLM's layers fine-tuned with it).

    `predict(pairs)` gives (B, 3) probabilities in LABELS order; `read(pairs)` also the steps;
    `model(a, b, lens_a, lens_b)` is the differentiable forward from token vectors to logits.
    Both apply the card's `temperature` (fitted on dev or the real selection split: calibrated
    probabilities) when it has one; `model` always returns the uncalibrated logits.
    """

    def __init__(
        self,
        model: DecomposableAttentionModel,
        card: Card,
        encoder: Encoder,
        tuned: TunedLayers | None = None,
        plain: TunedLayers | None = None,
    ) -> None:
        if card.source == "tuned" and tuned is None:
            raise ValueError("a card with tuned layers needs them")
        self.model = model.train(False)
        self.card = card
        self.encoder = encoder
        self.tuned = tuned
        self.plain = plain  # the same layers untouched: what the attend step reads, if given
        self.source: str = card.source
        self.layer: int = card.layer if card.layer is not None else -1
        self.temperature: float | None = card.temperature

    def embed(self, sentences: list[str], names: Sequence[str] | None = None) -> Vectors:
        """Tokens, padded vectors and lengths of the classifier's own token vectors."""
        return self.embed_keys(sentences, names)[0]

    def embed_keys(
        self, sentences: list[str], names: Sequence[str] | None = None
    ) -> tuple[Vectors, torch.Tensor | None]:
        """`embed`, and the vectors the attend step scores when they are not those (MiniLM's
        own layer under tuned ones: `plain`), else None."""
        if self.tuned is not None:
            return tuned_vectors(self.tuned, self.encoder, sentences, names, self.plain)
        return self._vectors(sentences, names), None

    def _vectors(self, sentences: list[str], names: Sequence[str] | None) -> Vectors:
        if self.source == "contextual" and self.encoder.model_type == "bert":
            return layer_vectors(self.encoder, sentences, self.layer, names)
        return sentence_embeddings(
            self.encoder, sentences, source=self.source, layer=self.layer, names=names
        )

    def word_vectors(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        """(T, d) token vectors from one sentence's word-embedding rows (T, d), specials
        included, differentiably: the path saliency's gradients take (static: the rows); and
        the attend step's own vectors of them when they differ (`embed_keys`), else None."""
        if self.tuned is not None:
            keys = None if self.plain is None else self.plain.from_embeddings(rows)
            return self.tuned.from_embeddings(rows), keys
        return self._word_vectors(rows), None

    def _word_vectors(self, rows: torch.Tensor) -> torch.Tensor:
        if self.source == "contextual":
            ones = torch.ones(1, rows.shape[0], dtype=torch.long)
            types = {"token_type_ids": torch.zeros_like(ones)} if self.encoder.token_types else {}
            out = self.encoder.model(inputs_embeds=rows[None], attention_mask=ones,
                                     output_hidden_states=True, **types)  # fmt: skip
            return out.hidden_states[self.layer][0]
        return rows

    def probabilities(self, logits: torch.Tensor) -> torch.Tensor:
        """softmax(logits / T) with the card's temperature (T = 1 without one)."""
        return torch.softmax(logits / (self.temperature or 1.0), dim=-1)

    def read(self, pairs: Sequence[tuple[str, str]]) -> Verdicts:
        """Every step and the probabilities of at most MAX_READ_PAIRS pairs."""
        if not pairs:
            raise ValueError("no pairs to classify")
        if len(pairs) > MAX_READ_PAIRS:
            raise InputError("too_many_pairs", found=len(pairs), limit=MAX_READ_PAIRS)
        (tokens_a, a, lens_a), keys_a = self.embed_keys([p for p, _ in pairs])
        (tokens_b, b, lens_b), keys_b = self.embed_keys([h for _, h in pairs])
        keys = None if keys_a is None or keys_b is None else (keys_a, keys_b)
        with torch.inference_mode():
            alignment, logits = self.model.steps(a, b, lens_a, lens_b, keys)
        return Verdicts(tokens_a, tokens_b, alignment, self.probabilities(logits))

    def predict(
        self,
        pairs: Sequence[tuple[str, str]],
        *,
        progress: Progress | None = None,
        chunk: int = PREDICT_CHUNK,
    ) -> torch.Tensor:
        """(B, 3) probabilities of entailment, neutral, contradiction; rows sum to 1."""
        return self.probabilities(self.logits(pairs, progress=progress, chunk=chunk))

    def logits(
        self,
        pairs: Sequence[tuple[str, str]],
        *,
        progress: Progress | None = None,
        chunk: int = PREDICT_CHUNK,
    ) -> torch.Tensor:
        """(B, 3) uncalibrated logits, `chunk` pairs at a time in order of length."""
        if not pairs:
            raise ValueError("no pairs to classify")
        order = sorted(range(len(pairs)), key=lambda i: (len(pairs[i][0]), pairs[i][0]))
        out = torch.empty(len(pairs), len(LABELS))
        for start in range(0, len(order), chunk):
            rows = order[start : start + chunk]
            out[rows] = self._chunk([pairs[i] for i in rows], rows)
            if progress is not None:
                progress(min(start + chunk, len(order)), len(order))
        return out

    def _chunk(self, pairs: list[tuple[str, str]], rows: list[int]) -> torch.Tensor:
        """The logits of one chunk, each distinct sentence encoded once."""
        premises = list(dict.fromkeys(p for p, _ in pairs))
        hypotheses = list(dict.fromkeys(h for _, h in pairs))
        (_, a, lens_a), keys_a = self.embed_keys(
            premises, _names(t("nli.premise"), premises, pairs, rows, 0)
        )
        (_, b, lens_b), keys_b = self.embed_keys(
            hypotheses, _names(t("nli.hypothesis"), hypotheses, pairs, rows, 1)
        )
        where_a = {p: i for i, p in enumerate(premises)}
        where_b = {h: i for i, h in enumerate(hypotheses)}
        ia = torch.tensor([where_a[p] for p, _ in pairs])  # (B,)
        ib = torch.tensor([where_b[h] for _, h in pairs])  # (B,)
        with torch.inference_mode():
            keys = None if keys_a is None or keys_b is None else (keys_a[ia], keys_b[ib])
            return self.model(a[ia], b[ib], lens_a[ia], lens_b[ib], keys)  # (B, 3)


def _names(
    side: str, sentences: list[str], pairs: list[tuple[str, str]], rows: list[int], at: int
) -> list[str]:
    """How an error names each distinct sentence of a chunk: by the first pair (1-based) it is
    in, as the batch was given."""
    first: dict[str, int] = {}
    for pair, row in zip(pairs, rows, strict=True):
        first.setdefault(pair[at], row + 1)
    return [t("nli.sentence_of_pair", side=side, pair=first[s]) for s in sentences]
