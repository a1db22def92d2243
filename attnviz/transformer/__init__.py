"""The transformer wing: real models read from disk, and what attnviz shows of them.

- `models`: model folders (roots, the resolver, discovery, `check_folder`), attnviz's cache,
  the shipped MiniLM and SmolLM2;
- `conversion`: SmolLM2 from its wheel's GGUF to a safetensors folder, once;
- `encoder`: `Encoder` (load, run) and `Encoded` (a reading: tokens, hidden states, attentions
  or a lazy reading, next tokens, residual norms);
- `words`: word pieces merged into words from their offsets;
- `views`: the attention a page shows, the MiniLM vocabulary caveat, the reference check
  (`recompute_attention`) for every family the neuron view reads;
- `tokens`: each piece as the text it encodes;
- `capture`: the one wrapper of each family's eager attention function;
- `lazy`: long readings that keep q, k, v and compute one head at a time;
- `neurons`: one head's q, k, v and its score term by term;
- `generation`, `interventions`, `head_finder`, `lens`: greedy generation with each step's
  attention, heads ablated, the induction-head finder, the logit lens;
- `patching`: activation patching, the share of a logit difference each head, residual stream,
  attention or MLP output carries from a clean prompt into a corrupted one;
- `attribution`: what each generated token drew on, gradient x input or integrated gradients
  of its log-probability over the prompt and the tokens written before it.

The names below are public and stable (notebooks import them from `attnviz.transformer`). They
are loaded on first use, so `import attnviz.transformer` loads neither torch nor transformers.
"""

from __future__ import annotations

from attnviz.exports import lazy_names

_FROM: dict[str, str] = {
    **dict.fromkeys(("Encoded", "Encoder", "load_encoder"), "encoder"),
    **dict.fromkeys(("resolve",), "models"),
    **dict.fromkeys(("generate",), "generation"),
    **dict.fromkeys(("next_token_probs",), "interventions"),
    **dict.fromkeys(("induction_scores",), "head_finder"),
    **dict.fromkeys(("logit_lens",), "lens"),
    **dict.fromkeys(("head_patching", "residual_patching", "logit_differences"), "patching"),
    **dict.fromkeys(("attention_patching", "mlp_patching"), "patching"),
    **dict.fromkeys(("Attribution", "generation_attribution"), "attribution"),
}

__all__ = sorted(_FROM)


__getattr__, __dir__ = lazy_names(__name__, _FROM, globals())
