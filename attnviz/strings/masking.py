"""English strings of the masking page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "masking.title": "Masking",
    "masking.intro": (
        "Sentences in a batch have different lengths, so they are padded to one length m; "
        "the padding positions still hold numbers and would get attention unless they are "
        "**masked**. Here a batch of B random sequences (self-attention: queries = keys = "
        "values = X) goes through one masked softmax: keys at positions ≥ the sequence's "
        "valid length are masked (d2l's `valid_lens`), and a causal mask or hand-picked cells "
        "can be added on top. Masked scores are replaced by the fill value before the softmax, "
        "so their weights become 0."
    ),
    "masking.batch": "Sequences B",
    "masking.length": "Padded length m",
    "masking.seed": "Seed",
    "masking.valid_lens": "Valid lengths, one per sequence",
    "masking.valid_lens.help": (
        "{batch} whole numbers between 0 and {m}, separated by commas: sequence b has its "
        "first valid_len tokens, the rest is padding."
    ),
    "masking.sequence": "Sequence to view",
    "masking.sequence.option": "sequence {seq}",
    "masking.causal": "Causal mask",
    "masking.causal.help": "Query i may attend keys 0..i only, as a decoder does.",
    "masking.fill": "Fill value",
    "masking.fill.help": (
        "What masked scores are replaced with: d2l uses -1e6; -inf is exact. They differ only "
        "for a row whose keys are all masked."
    ),
    "masking.cells": "Hand-picked cells",
    "masking.cells.help": "Mask single (query, key) cells, in every sequence of the batch.",
    "masking.cells.heading": "Hand-picked cells (ticked = may attend)",
    "masking.cells.caption": "Untick a cell to forbid that query from attending to that key.",
    "masking.formula_heading": "The masked softmax with the current numbers",
    "masking.formula.true": "true = may attend",
    "masking.batch_heading": "The padded batch and the mask",
    "masking.padding.caption": (
        "Each row is one sequence; padded positions (pad) are the keys that `valid_lens` masks. "
        "The framed row is the sequence shown below."
    ),
    "masking.steps_heading": "Sequence {seq}: raw scores, masked scores, weights",
    "masking.rows_ok": (
        "Every query of sequence {seq} has a key it may attend; its weights sum to 1 "
        "(largest deviation {dev})."
    ),
    "masking.fully": (
        "{count} of the {m} queries of sequence {seq} ({rows}) have every key masked, so the "
        "softmax has nothing to choose between. With fill value {fill}: {what} These rows are "
        "drawn as masked (×) below; hover a cell to read its weight."
    ),
    "masking.fully.uniform": (
        "every score of such a row equals the fill value, so all {m} keys tie and each gets "
        "weight 1/{m} = {w}: the query averages every value, padding included."
    ),
    "masking.fully.zeros": (
        "exp(-inf) = 0 for every key, so the softmax would be 0/0; the weights are set to 0 "
        "instead of NaN (as PyTorch's scaled_dot_product_attention does), and the output row is 0."
    ),
    "masking.batch_check": (
        "Whole batch of {batch} sequences: {count} fully masked query row(s); every other row "
        "sums to 1."
    ),
    "masking.hover_note": "At this size some cells leave out their numbers: hover to read them.",
    "masking.pad_queries": (
        "Queries q{first}..q{last} are padding too: valid_lens masks keys only, so these rows "
        "still get weights; a model ignores their outputs later (in the loss, for instance)."
    ),
    "masking.reason.padding": "padding",
    "masking.reason.causal": "causal",
    "masking.reason.cell": "hand-picked",
    "masking.hover.raw": "raw score",
    "masking.hover.masked": "masked score",
    "masking.fig.padding": "The batch: tokens and padding",
    "masking.fig.positions": "Positions (keys)",
    "masking.fig.position": "position",
    "masking.fig.sequences": "Sequences",
    "masking.fig.seq_label": "seq {seq}",
    "masking.fig.token": "token",
    "masking.fig.pad": "pad",
    "masking.fig.mask": "Mask of sequence {seq} (1 = may attend)",
    "masking.fig.may_attend": "may attend",
    "parse.masking_lens_count": (
        "Valid lengths {value!r}: {found} number(s) for {batch} sequences; type exactly one "
        "whole number between 0 and {m} per sequence, separated by commas."
    ),
    "parse.masking_lens_value": (
        "Valid lengths: {value!r} (sequence {seq}) is not allowed; each valid length is a "
        "whole number between 0 and {m}."
    ),
}
