"""MiniLM's layers numbered one way on every page, as the model page and the model count them:
"embeddings" for hidden state 0 (the embedding output) and layer k for hidden state k + 1.

Pages that read a hidden state (the NLI and training pages) keep it as an index into
hidden_states, as their links counted it before (?layer=k, k = 0 the embeddings); links now
name the layer (?output=embeddings, ?output=0 .. 5), and an old ?layer= still opens the same
view (`controls.renamed`).
"""

from __future__ import annotations

from attnviz.app import controls
from attnviz.i18n import t
from attnviz.transformer.encoder import model_layer

EMBEDDINGS = "embeddings"  # the link's name for hidden state 0, the embedding output
MAX_LAYERS = 48  # bounds for links; a page clamps to the model's own layer count
MAX_HEADS = 64  # and its head count


def _old_layer(raw: str) -> str:
    """Links made before ?output= named ?layer=k, counting hidden states (0 the embeddings, k
    layer k - 1's output): that k as ?output= writes it."""
    index = int(raw)
    if not 0 <= index <= MAX_LAYERS:
        raise ValueError(raw)
    return EMBEDDINGS if index == 0 else str(index - 1)


def hidden_state_control(key: str, default: int) -> controls.Control:
    """A hidden-state index kept under `key` (default `default`), linked as ?output=."""
    outputs = {EMBEDDINGS: 0} | {str(k): k + 1 for k in range(MAX_LAYERS)}
    return controls.renamed(
        controls.choice_control("output", key, default, outputs), "layer", _old_layer
    )


def output_label(hidden_state: int, num_layers: int) -> str:
    """Hidden state `hidden_state` as the model page numbers layers: "embeddings", or "3"."""
    layer = model_layer(hidden_state, num_layers)
    return t("layers.embeddings") if layer is None else str(layer)
