"""English strings of the sqrt d page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "sqrt_d.title": "Why divide by √d?",
    "sqrt_d.intro": (
        "Scaled dot-product attention computes softmax(q·k / √d). Vaswani et al. (2017, "
        "footnote 4) explain the √d: if the entries of q and k are independent with mean 0 and "
        "variance 1, the dot product q·k has variance d. For large d the scores are large, the "
        "softmax puts almost all its weight on one key, and its gradient almost vanishes. "
        "Below, q and k are drawn from N(0, 1) with a seed, so every number is reproducible."
    ),
    "sqrt_d.d": "Size d of q and k",
    "sqrt_d.d.help": "The number of entries of each query and key vector.",
    "sqrt_d.m": "Keys m per query",
    "sqrt_d.m.help": "How many keys each query's softmax is over (sections 2 and 3).",
    "sqrt_d.samples": "Samples (q, k pairs)",
    "sqrt_d.samples.help": "How many dot products the histograms and the variance curve use.",
    "sqrt_d.seed": "Seed",
    "sqrt_d.variance.heading": "1. The dot product grows with d",
    "sqrt_d.variance.explain": (
        "Each term $q_i k_i$ has mean 0 and variance "
        "$\\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2] = 1$, and the d terms are independent, "
        "so their variances add up:"
    ),
    "sqrt_d.saturation.heading": "2. Large scores saturate the softmax",
    "sqrt_d.saturation.explain": (
        "Each query gets its own {m} keys; the curves average over {queries} seeded queries. "
        "Without scaling the scores spread over about ±√d, so as d grows the largest weight "
        "goes to 1 and the entropy of the weights to 0: attention looks at one key only. With "
        "scaling they stay where they are at d = 1."
    ),
    "sqrt_d.gradient.heading": "3. …and its gradient vanishes",
    "sqrt_d.gradient.explain": (
        "Learning flows back through the softmax's Jacobian. When one weight is near 1 and the "
        "others near 0, every entry $\\alpha_i(\\delta_{ij} - \\alpha_j)$ is near 0, so the "
        "queries and keys hardly learn. The curve shows the Frobenius norm of the Jacobian, "
        "averaged over the queries."
    ),
    "sqrt_d.tex.measured": "measured:",
    "sqrt_d.tex.unscaled": "(without scaling)",
    "sqrt_d.tex.scaled": "(with scaling)",
    "sqrt_d.fig.raw": "q·k (not scaled)",
    "sqrt_d.fig.scaled": "q·k / √d (scaled)",
    "sqrt_d.fig.normal": "normal density with the theoretical variance",
    "sqrt_d.fig.hist_title": "{samples} dot products of N(0, 1) vectors, same bins",
    "sqrt_d.fig.hist_raw": "q·k with d = {d}   (dashed: N(0, {d}))",
    "sqrt_d.fig.hist_scaled": "q·k / √{d}   (dashed: N(0, 1))",
    "sqrt_d.fig.density": "density",
    "sqrt_d.fig.score_axis": "score",
    "sqrt_d.fig.d_axis": "d (log scale)",
    "sqrt_d.fig.variance_title": "Variance of the scores against d",
    "sqrt_d.fig.variance_axis": "sample variance (log scale)",
    "sqrt_d.fig.theory_d": "theory: Var = d",
    "sqrt_d.fig.theory_1": "theory: Var = 1",
    "sqrt_d.fig.current": "chosen d = {d}",
    "sqrt_d.fig.saturation_title": "Softmax over m = {m} keys: saturation without scaling",
    "sqrt_d.fig.weight_axis": "largest weight max α_j (mean)",
    "sqrt_d.fig.entropy_axis": "entropy H(α) in nats (mean)",
    "sqrt_d.fig.uniform_weight": "uniform: 1/m = 1/{m}",
    "sqrt_d.fig.uniform_entropy": "uniform: log m = log {m}",
    "sqrt_d.fig.grad_title": "Size of the softmax gradient against d",
    "sqrt_d.fig.grad_axis": "mean ‖J‖_F",
    "parse.sqrt_d_range": (
        "{name} = {value} is out of range: choose a whole number from {low} to {high}."
    ),
}
