"""Natural language inference with decomposable attention: the NLI wing of attnviz.

Parikh et al. 2016, "A Decomposable Attention Model for Natural Language Inference", as taught
in d2l 16.5 and Murphy, PML1 ch. 15. The package's modules:

- `alignment`: attend, compare and aggregate through untrained seeded layers (the mechanics),
  hard alignments, pairs from typed text and CSV;
- `model`: the trained model's steps (`Alignment`), `DecomposableAttentionModel`, sentence
  embeddings, `Classifier` (calibrated by the card's temperature) and `Verdicts`;
- `data`: LABELS and the readers of labelled pairs (SNLI / MultiNLI JSONL and .txt, CSV);
- `checkpoint`: safetensors weights beside a JSON card, `load_classifier`;
- `store`, `training`, `cli`: the sentence store, the trainer (with calibration) and
  `attnviz train-nli`;
- `evaluation`: what a trained model is judged by (alignment hits, premise swaps, the hard
  set's tags);
- `jobs`: training jobs off the app's script thread.

The names below are public and stable (notebooks import them from `attnviz.nli`). They are
loaded on first use, so `attnviz.nli.data` and `attnviz.nli.jobs` stay light to import.
"""

from __future__ import annotations

from attnviz.exports import lazy_names

_FROM: dict[str, str] = {
    **dict.fromkeys(
        (
            "F_CHOICES", "MAX_PAIRS", "MAX_PAIRS_BYTES", "MAX_PAIRS_CHARS", "AlignedPairs",
            "align_pairs", "aligned_pairs", "decomposable_attention", "hard_alignment",
            "load_labelled_pairs_csv", "load_pairs_csv", "orient", "parse_labelled_pairs",
            "parse_pairs", "sentence_similarity",
        ),
        "alignment",
    ),
    **dict.fromkeys(("SCALES", "SOURCES", "Card"), "card"),
    **dict.fromkeys(("Alignment",), "model"),
    **dict.fromkeys(("Classifier", "Verdicts"), "classifier"),
    **dict.fromkeys(("sentence_embeddings",), "vectors"),
    **dict.fromkeys(("LABELS", "LABEL_KEYS"), "data"),
    **dict.fromkeys(("load_classifier",), "checkpoint"),
}  # fmt: skip

__all__ = sorted(_FROM)


__getattr__, __dir__ = lazy_names(__name__, _FROM, globals())
