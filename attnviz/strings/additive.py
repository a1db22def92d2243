"""English strings of the additive page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "additive.title": "Additive attention",
    "additive.intro": (
        "Scaled dot-product attention needs queries and keys of the same size. **Additive "
        "attention** (Bahdanau et al. 2015; d2l 11.3; Murphy, PML1 15.4) learns its scoring "
        "function instead: it projects query and key into a shared hidden space of size h, adds "
        "them, squashes the sum with tanh and reads one number off it with w_v. So a query of "
        "size q can be scored against a key of size k ≠ q."
    ),
    "additive.sizes_heading": "Sizes and seeds",
    "additive.n": "Queries n",
    "additive.m": "Keys m",
    "additive.d_q": "Query size q",
    "additive.d_k": "Key size k",
    "additive.d_v": "Value size d_v",
    "additive.seed": "Seed of Q, K, V",
    "additive.h": "Hidden size h",
    "additive.param_seed": "Seed of W_q, W_k, w_v",
    "additive.param_seed.help": (
        "W_q, W_k and w_v are drawn from N(0, 1/fan_in) with this seed, as attend does."
    ),
    "additive.inputs_note": "Q, K and V are drawn from N(0, 1) with seed {seed}.",
    "additive.params_heading": "Parameters W_q, W_k, w_v (edit them)",
    "additive.params_help": (
        "One row per line, numbers separated by commas. W_q has h = {h} rows of q = {d_q} "
        "numbers, W_k has h = {h} rows of k = {d_k} numbers, w_v is one row of h = {h} numbers. "
        "Changing h, q, k or the parameter seed draws all three anew."
    ),
    "additive.W_q": "W_q (h × q = {h} × {d_q})",
    "additive.W_k": "W_k (h × k = {h} × {d_k})",
    "additive.w_v": "w_v (h = {h} numbers)",
    "additive.redraw": "Re-draw from seed",
    "additive.formula_heading": "The scoring function with the current sizes",
    "additive.inputs_heading": "1. Queries, keys and values",
    "additive.projection_heading": "2. Project queries and keys to the hidden size h",
    "additive.projection_text": (
        "W_q maps every query (size {d_q}) and W_k every key (size {d_k}) to a vector of size "
        "h = {h}: after this step queries and keys live in the same space."
    ),
    "additive.features_heading": "3. The tanh features of one query",
    "additive.features_text": (
        "For the chosen query, each key j gives a feature vector tanh(W_q q_i + W_k k_j) of size "
        "h; its dot product with w_v is the score of that key."
    ),
    "additive.query": "Query to inspect",
    "additive.compare_heading": "4. Additive vs scaled dot-product on the same inputs",
    "additive.compare_text": (
        "Left: additive scores, weights and outputs. Right: scaled dot-product attention of the "
        "projected queries and keys, (W_q q_i)ᵀ(W_k k_j) / √h, with the same values."
    ),
    "additive.compare_additive": "Additive  w_vᵀ tanh(W_q q + W_k k)",
    "additive.compare_dot": "Scaled dot product after projection",
    "additive.difference": (
        "Largest difference between the two weight matrices: {diff}. Queries whose most "
        "attended key differs: {queries}."
    ),
    "additive.difference_none": "none",
    "additive.fig.queries": "Queries Q (n × q)",
    "additive.fig.keys": "Keys K (m × k)",
    "additive.fig.values": "Values V (m × d_v)",
    "additive.fig.q_proj": "Projected queries Q W_qᵀ (n × h)",
    "additive.fig.k_proj": "Projected keys K W_kᵀ (m × h)",
    "additive.fig.features": "tanh(W_q q + W_k k_j) for query {query} (m × h)",
    "additive.fig.query_scores": "Scores of {query}",
    "additive.fig.scores": "Additive scores",
    "additive.fig.weights": "Additive weights",
    "additive.fig.output": "Additive outputs",
    "additive.fig.dot_scores": "Scaled dot-product scores",
    "additive.fig.dot_weights": "Scaled dot-product weights",
    "additive.fig.dot_output": "Scaled dot-product outputs",
    "additive.fig.units": "Hidden units",
    "additive.fig.unit": "unit",
    "additive.fig.dims": "Dimensions",
    "additive.fig.feature": "feature",
    "additive.fig.score": "score",
    "parse.additive_overflow": (
        "W_q q or W_k k overflows float32 (beyond about ±3.4e38): use smaller numbers in W_q "
        "and W_k."
    ),
    "parse.additive_shape": (
        "{name} has shape {found} but must be {expected}: fix the text or press "
        "“Re-draw from seed”."
    ),
}
