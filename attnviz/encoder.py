"""The old path of the transformer wing's readers: attnviz.transformer.encoder (Encoder,
Encoded, load_encoder and their limits), .words (word merging) and .views (attention views,
caveats, the reference check), all importable from here as before."""

from attnviz.transformer.encoder import *  # noqa: F403
from attnviz.transformer.encoder import (  # noqa: F401  (names kept at the old path)
    _OFFSET_POSITIONS,
    _SENTENCE_NAMES,
    MAX_GENERATED,
    MAX_TOKENS,
    MAX_TOTAL_TOKENS,
    MINILM_TRAINED_LENGTH,
    NEXT_TOKENS,
    Encoded,
    Encoder,
    Pieces,
    load_encoder,
    model_layer,
)
from attnviz.transformer.views import (  # noqa: F401
    UNK,
    alignment_caveat,
    attention_view,
    recompute_attention,
    tokens_caveat,
)
from attnviz.transformer.words import (  # noqa: F401
    merge_attention,
    merge_vectors,
    word_groups,
    word_labels,
)
