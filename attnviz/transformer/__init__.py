"""The transformer wing: real models read from disk, and what attnviz shows of them.

- `models`: model folders (roots, the resolver, discovery, `check_folder`), attnviz's cache,
  the shipped MiniLM and SmolLM2 (old path `attnviz.models`);
- `conversion`: SmolLM2 from its wheel's GGUF to a safetensors folder, once;
- `encoder`: `Encoder` (load, run) and `Encoded` (a reading: tokens, hidden states, attentions
  or a lazy reading, next tokens, residual norms);
- `words`: word pieces merged into words from their offsets;
- `views`: the attention a page shows, the MiniLM vocabulary caveat, the reference check
  (`recompute_attention`) for every family the neuron view reads;
- `tokens`: each piece as the text it encodes;
- `capture`: the one wrapper of each family's eager attention function;
- `lazy`: long readings that keep q, k, v and compute one head at a time;
- `neurons`: one head's q, k, v and its score term by term (old path `attnviz.neurons`).

`attnviz.encoder` names what `encoder`, `words` and `views` hold, as before the split.
"""
