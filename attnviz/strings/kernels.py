"""English strings of the kernels page (merged into attnviz.i18n's catalogue)."""

EN: dict[str, str] = {
    "kernels.title": "Kernel regression",
    "kernels.intro": (
        "Nadaraya-Watson kernel regression (1964) is attention with nothing to learn but a width. "
        "Each **test point x** is a query, the **training inputs xᵢ** are the keys and their "
        "**targets yᵢ** the values. The weight of xᵢ is its kernel value K((x − xᵢ)/h) divided by "
        "the sum over all training points, so every row of weights sums to 1 and the prediction "
        "is a weighted average of the yᵢ. With the Gaussian kernel the weights are exactly "
        "softmax attention over the scores −(x − xᵢ)²/(2h²)."
    ),
    "kernels.controls": "Data and kernel",
    "kernels.kernel": "Kernel K",
    "kernels.kernel.gaussian": "Gaussian  exp(−u²/2)",
    "kernels.kernel.boxcar": "Boxcar  1 if |u| ≤ 1, else 0",
    "kernels.kernel.constant": "Constant  1",
    "kernels.kernel.epanechnikov": "Epanechnikov  max(1 − u², 0)",
    "kernels.bandwidth": "Bandwidth h",
    "kernels.bandwidth.help": (
        "The kernel's width: training points farther than about h from x get little weight "
        "(boxcar and Epanechnikov: none at all)."
    ),
    "kernels.n_train": "Training points n",
    "kernels.noise": "Noise σ of the targets",
    "kernels.seed": "Data seed",
    "kernels.data_note": (
        "{n} training inputs xᵢ drawn uniformly from [0, 5) with seed {seed}, targets "
        "yᵢ = 2 sin(xᵢ) + xᵢ^0.8 + noise from N(0, {noise}²) (d2l 11.2); {q} test points "
        "x = 0, 0.1, …, 4.9."
    ),
    "kernels.formula_heading": "The formula with the current kernel and h",
    "kernels.softmax_note": "With the Gaussian kernel the weights are softmax attention:",
    "kernels.probe": "Predict at x =",
    "kernels.probe.help": (
        "One number between {low} and {high}: its prediction is written out term by term."
    ),
    "kernels.example": "At x = {x}, the {count} largest of the {n} weights (they sum to 1):",
    "kernels.example_none": (
        "At x = {x} no training point lies within h = {h}: every weight is 0, so there is no "
        "prediction."
    ),
    "kernels.weights_title": "Weights α(x, xᵢ): {kernel}, h = {h}",
    "kernels.test_points": "Test points x (queries)",
    "kernels.train_points": "Training inputs xᵢ (keys)",
    "kernels.hover.test": "test point",
    "kernels.hover.train": "training point",
    "kernels.fit_title": "Prediction f̂(x) = Σᵢ α(x, xᵢ) yᵢ",
    "kernels.fig.data": "training data (xᵢ, yᵢ)",
    "kernels.fig.truth": "true f(x) = 2 sin x + x^0.8",
    "kernels.fig.prediction": "prediction, h = {h}",
    "kernels.fig.gap": "no prediction",
    "kernels.fig.gap_hover": "x = {x}: no training point within h = {h}, so no prediction",
    "kernels.fig.probe": "f̂ at the chosen x",
    "kernels.fig.x": "x",
    "kernels.fig.y": "y",
    "kernels.rows_ok": (
        "Every test point with a training point in reach has weights summing to 1 "
        "(largest deviation {dev})."
    ),
    "kernels.gaps": (
        "{count} of {q} test points have no training point within h = {h}: their weight rows are "
        "all zero (dark rows in the heatmap) and they get no prediction, so the curve has gaps "
        "(× under it). Widen h or add training points."
    ),
    "kernels.learned_heading": "Learning the bandwidth",
    "kernels.learned_intro": (
        "Gradient descent can fit h (Gaussian kernel, Adam on log h, {steps} steps from "
        "h = {init}). On the **training loss** each training point is predicted from all the "
        "training points, *itself included*: the smaller h, the more of its own yᵢ it copies, so "
        "h shrinks until the curve runs through every noisy point (overfitting, as PML1 15.4 "
        "shows). **Leave-one-out** predicts each point from the others only; its loss has a "
        "minimum at a useful h."
    ),
    "kernels.metric.train": "h from the training loss",
    "kernels.metric.loo": "h from leave-one-out",
    "kernels.metric.loss": "loss {loss}",
    "kernels.learned_title": "Gaussian kernel with the learned bandwidths",
    "kernels.fig.train_fit": "training loss: h = {h}",
    "kernels.fig.loo_fit": "leave-one-out: h = {h}",
    "kernels.loss_title": "Loss versus bandwidth (Gaussian kernel)",
    "kernels.fig.h": "bandwidth h (log scale)",
    "kernels.fig.loss": "mean squared error",
    "kernels.fig.train_loss": "training loss (itself included)",
    "kernels.fig.loo_loss": "leave-one-out loss",
    "kernels.fig.fitted": "fitted by gradient descent",
    "parse.kernels_probe_count": "Type one number for x, not {count} values.",
    "parse.kernels_probe_range": (
        "x = {value} is outside [{low}, {high}]: type a number in that range."
    ),
}
