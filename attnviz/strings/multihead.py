"""English strings of the multihead page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "multihead.title": "Multi-head self-attention",
    "multihead.intro": (
        "In **self-attention** the queries, keys and values all come from the same tokens: each "
        "token's vector x is projected three times, q = x W_q, k = x W_k, v = x W_v. "
        "**Multi-head** attention cuts these projections into h slices of d_head = d_model / h "
        "columns and runs scaled dot-product attention on each slice separately, so each head "
        "can look for something different. The heads' outputs are put side by side "
        "(*concatenated*) and mixed by one more matrix W_o. Here the token vectors are random "
        "but fixed (seeded): the same word always gets the same vector."
    ),
    "multihead.sentence": "Sentence",
    "multihead.sentence.help": (
        "Split into tokens at spaces and lower-cased, so “The” and “the” are the same token. "
        "At most {limit} tokens."
    ),
    "multihead.d_model": "d_model (vector size)",
    "multihead.heads": "Heads h",
    "multihead.heads.help": "d_model must be divisible by h: each head gets d_model / h columns.",
    "multihead.positional": "Positional encodings",
    "multihead.positional.help": (
        "Off: each token is only its word's vector, so the layer cannot tell where a word stands."
    ),
    "multihead.causal": "Causal mask",
    "multihead.causal.help": "Token i may attend only to tokens 0..i (itself and those before it).",
    "multihead.seed": "Seed",
    "multihead.seed.help": "Draws the token vectors and the matrices W_q, W_k, W_v, W_o.",
    "multihead.truncated": "The sentence has {found} tokens: only the first {limit} are used.",
    "multihead.inputs_heading": "Inputs: token vectors and positions",
    "multihead.pe_title": "Positional encodings PE (sin / cos)",
    "multihead.input_title": "Input X = embeddings + PE",
    "multihead.input_title_plain": "Input X = embeddings (no positions)",
    "multihead.pe_off": (
        "Positional encodings are off: the input X is just the word vectors. The encodings "
        "that would be added are still shown on the left."
    ),
    "multihead.heads_heading": "One weight matrix per head",
    "multihead.head_title": "Head {head} weights",
    "multihead.output_heading": "Concatenation and output",
    "multihead.concat_title": "Concat(head_1, …, head_h): before W_o",
    "multihead.concat_x": "Dimensions ({d_head} per head)",
    "multihead.output_title": "Output = Concat · W_o + b_o",
    "multihead.tokens": "Tokens",
    "multihead.token": "token",
    "multihead.formula_heading": "The formulas with the current sizes",
    "multihead.downloads_heading": "Downloads",
    "multihead.symmetry_same": (
        "Without positional encodings, “{a}” (row {i}) and “{b}” (row {j}) have the same vector, "
        "so every head gives them **identical rows of weights** (largest difference {diff}). "
        "Self-attention alone treats the sentence as a bag of words: permuting the tokens only "
        "permutes the outputs."
    ),
    "multihead.symmetry_causal": (
        "“{a}” (row {i}) and “{b}” (row {j}) have the same vector and no positional encodings, "
        "yet their rows of weights differ (largest difference {diff}): the causal mask itself "
        "tells them apart, since each sees a different number of earlier tokens."
    ),
    "multihead.symmetry_positions": (
        "With positional encodings, “{a}” (row {i}) and “{b}” (row {j}) get different inputs, so "
        "their rows of weights differ (largest difference {diff}). Turn the encodings off to "
        "see the two rows become identical."
    ),
    "multihead.symmetry_none": (
        "Repeat a word (like “the” in the default sentence) to see what positional encodings "
        "change: without them, the two copies cannot be told apart."
    ),
    "multihead.formula_sizes": "With the current sizes",
    "multihead.formula_row": "The last token's row of weights in head 1, as in the first heatmap:",
    "parse.multihead_empty": "The sentence is empty: type at least one word.",
    "parse.multihead_heads": (
        "d_model = {d_model} cannot be split into {heads} heads: d_model must be divisible by "
        "the number of heads (d_head = d_model / h). With d_model = {d_model}, these numbers "
        "of heads work: {options}."
    ),
}
