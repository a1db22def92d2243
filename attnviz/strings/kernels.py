"""Strings of the kernel regression lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "kernels.nav": "Kernel regression",
    "kernels.tour": (
        "Nadaraya-Watson kernel regression as non-parametric attention: kernels, bandwidth, and a "
        "learned bandwidth that overfits beside leave-one-out."
    ),
    "kernels.title": "Kernel regression",
    "kernels.intro": (
        "Nadaraya-Watson kernel regression (1964) is attention with nothing to learn but a width. "
        "Each **test point x** is a query, the **training inputs xᵢ** are the keys and their "
        "**targets yᵢ** the values. The weight of xᵢ is its kernel value K((x − xᵢ)/h) divided by "
        "the sum over all training points, so every row of weights sums to 1 and the prediction is "
        "a weighted average of the yᵢ. With the Gaussian kernel the weights are exactly softmax "
        "attention over the scores −(x − xᵢ)²/(2h²)."
    ),
    "kernels.controls": "Data and kernel",
    "kernels.kernel": "Kernel K",
    "kernels.kernel.gaussian": "Gaussian  exp(−u²/2)",
    "kernels.kernel.boxcar": "Boxcar  1 if |u| ≤ 1, else 0",
    "kernels.kernel.constant": "Constant  1",
    "kernels.kernel.epanechnikov": "Epanechnikov  max(1 − u², 0)",
    "kernels.bandwidth": "Bandwidth h",
    "kernels.bandwidth.help": (
        "The kernel's width: training points farther than about h from x get little weight (boxcar "
        "and Epanechnikov: none at all)."
    ),
    "kernels.n_train": "Training points n",
    "kernels.noise": "Noise σ of the targets",
    "kernels.seed": "Data seed",
    "kernels.data_note": (
        "{n} training inputs xᵢ drawn uniformly from [0, 5) with seed {seed}, targets yᵢ = 2 "
        "sin(xᵢ) + xᵢ^0.8 + noise from N(0, {noise}²); {q} test points x = 0, 0.1, …, 4.9. These "
        "are the data of d2l 0.17, section 10.2 (there with n = 50 and σ = 0.5); the kernels and "
        "leave-one-out follow d2l 1.0, section 11.2, whose own data are 2 sin(x) + x with n = 40 "
        "and unit noise."
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
        "Every test point with a training point in reach has weights summing to 1 (largest "
        "deviation {dev})."
    ),
    "kernels.gaps": (
        "{count} of {q} test points have no training point within h = {h}: their weight rows are "
        "all zero (dark rows in the heatmap) and they get no prediction, so the curve has gaps (× "
        "under it). Widen h or add training points."
    ),
    "kernels.learned_heading": "Learning the bandwidth",
    "kernels.learned_intro": (
        "Gradient descent can fit h (Gaussian kernel, Adam on log h, {steps} steps from h = "
        "{init}). On the **training loss** each training point is predicted from all the training "
        "points, *itself included*: the smaller h, the more of its own yᵢ it copies, so h shrinks "
        "until the curve runs through every noisy point (overfitting, as PML1 15.4 shows). "
        "**Leave-one-out** predicts each point from the others only; its loss has a minimum at a "
        "useful h."
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

KO: dict[str, str] = {
    "kernels.nav": "커널 회귀",
    "kernels.tour": (
        "비모수(non-parametric) 어텐션으로 보는 나다라야-왓슨(Nadaraya-Watson) 커널 회귀: 커널, "
        "대역폭(bandwidth), 그리고 과적합하는 학습된 대역폭과 LOO(leave-one-out) 교차 검증의 "
        "비교."
    ),
    "kernels.title": "커널 회귀",
    "kernels.intro": (
        "나다라야-왓슨 커널 회귀(Nadaraya-Watson kernel regression, 1964)는 폭 말고는 학습할 것이 "
        "없는 어텐션입니다. 각 **테스트 점 x**가 쿼리, **훈련 입력 xᵢ**가 키, 그 **타깃 yᵢ**가 "
        "값입니다. xᵢ의 가중치는 커널 값 K((x − xᵢ)/h)를 모든 훈련 점에 대한 합으로 나눈 것이므로, "
        "가중치의 각 행은 합이 1이고 예측은 yᵢ의 가중 평균입니다. 가우스 커널을 쓰면 가중치는 점수 "
        "−(x − xᵢ)²/(2h²)에 대한 소프트맥스 어텐션과 정확히 같습니다."
    ),
    "kernels.controls": "데이터와 커널",
    "kernels.kernel": "커널 K",
    "kernels.kernel.gaussian": "가우스  exp(−u²/2)",
    "kernels.kernel.boxcar": "박스카  |u| ≤ 1이면 1, 아니면 0",
    "kernels.kernel.constant": "상수  1",
    "kernels.kernel.epanechnikov": "에파네치니코프  max(1 − u², 0)",
    "kernels.bandwidth": "대역폭 h",
    "kernels.bandwidth.help": (
        "커널의 폭입니다. x에서 대략 h보다 멀리 있는 훈련 점은 가중치를 거의 받지 못합니다"
        "(박스카와 에파네치니코프 커널에서는 전혀 받지 못합니다)."
    ),
    "kernels.n_train": "훈련 점 개수 n",
    "kernels.noise": "타깃의 잡음 σ",
    "kernels.seed": "데이터 시드",
    "kernels.data_note": (
        "훈련 입력 xᵢ {n}개를 시드 {seed}로 [0, 5)에서 균등하게 뽑고, 타깃은 yᵢ = 2 sin(xᵢ) + "
        "xᵢ^0.8 + 잡음(N(0, {noise}²)에서 뽑음)입니다. 테스트 점 {q}개는 x = 0, 0.1, …, 4.9입니다. "
        "이 데이터는 d2l 0.17의 10.2절에서 가져왔고(그곳에서는 n = 50, σ = 0.5), 커널과 "
        "LOO(leave-one-out) 교차 검증은 d2l 1.0의 11.2절을 따릅니다. 11.2절 자체의 데이터는 2 sin(x) + x에 분산이 "
        "1인 잡음을 더한 40개입니다."
    ),
    "kernels.formula_heading": "현재 커널과 h를 대입한 수식",
    "kernels.softmax_note": "가우스 커널에서 가중치는 소프트맥스 어텐션입니다:",
    "kernels.probe": "예측할 x =",
    "kernels.probe.help": "{low}에서 {high} 사이의 숫자 하나: 그 점의 예측을 항별로 풀어 씁니다.",
    "kernels.example": "x = {x}에서 가중치 {n}개 중 가장 큰 {count}개(전체 합은 1):",
    "kernels.example_none": (
        "x = {x}에서는 h = {h} 안에 훈련 점이 없습니다. 모든 가중치가 0이므로 예측이 없습니다."
    ),
    "kernels.weights_title": "가중치 α(x, xᵢ): {kernel}, h = {h}",
    "kernels.test_points": "테스트 점 x (쿼리)",
    "kernels.train_points": "훈련 입력 xᵢ (키)",
    "kernels.hover.test": "테스트 점",
    "kernels.hover.train": "훈련 점",
    "kernels.fit_title": "예측 f̂(x) = Σᵢ α(x, xᵢ) yᵢ",
    "kernels.fig.data": "훈련 데이터(xᵢ, yᵢ)",
    "kernels.fig.truth": "참 함수 f(x) = 2 sin x + x^0.8",
    "kernels.fig.prediction": "예측, h = {h}",
    "kernels.fig.gap": "예측 없음",
    "kernels.fig.gap_hover": "x = {x}: h = {h} 안에 훈련 점이 없어 예측이 없습니다",
    "kernels.fig.probe": "선택한 x에서의 f̂",
    "kernels.fig.x": "x",
    "kernels.fig.y": "y",
    "kernels.rows_ok": (
        "닿는 거리 안에 훈련 점이 있는 모든 테스트 점은 가중치의 합이 1입니다(최대 편차 {dev})."
    ),
    "kernels.gaps": (
        "테스트 점 {q}개 중 {count}개는 h = {h} 안에 훈련 점이 없습니다. 이 점들의 가중치 행은 "
        "모두 0이고(히트맵의 어두운 행) 예측도 없어서 곡선이 끊깁니다(곡선 아래의 ×). h를 "
        "넓히거나 훈련 점을 늘려 보세요."
    ),
    "kernels.learned_heading": "대역폭 학습하기",
    "kernels.learned_intro": (
        "경사 하강법으로 h를 학습할 수 있습니다(가우스 커널, log h에 대한 Adam, h = {init}에서 "
        "시작해 {steps}단계). **훈련 손실**에서는 각 훈련 점을 *자기 자신을 포함한* 모든 훈련 "
        "점으로 예측합니다. h가 작을수록 자기 yᵢ를 더 많이 베끼므로, 곡선이 잡음 섞인 모든 점을 "
        "지나갈 때까지 h가 줄어듭니다(PML1 15.4가 보여 주는 과적합(overfitting)). "
        "**LOO(leave-one-out) 교차 검증**은 각 점을 나머지 점들로만 예측하며, 그 손실은 쓸모 있는 "
        "h에서 최솟값을 가집니다."
    ),
    "kernels.metric.train": "훈련 손실로 구한 h",
    "kernels.metric.loo": "LOO 교차 검증으로 구한 h",
    "kernels.metric.loss": "손실 {loss}",
    "kernels.learned_title": "학습한 대역폭을 쓴 가우스 커널",
    "kernels.fig.train_fit": "훈련 손실: h = {h}",
    "kernels.fig.loo_fit": "LOO 교차 검증: h = {h}",
    "kernels.loss_title": "대역폭에 따른 손실(가우스 커널)",
    "kernels.fig.h": "대역폭 h (로그 스케일)",
    "kernels.fig.loss": "평균 제곱 오차",
    "kernels.fig.train_loss": "훈련 손실(자기 자신 포함)",
    "kernels.fig.loo_loss": "LOO 교차 검증 손실",
    "kernels.fig.fitted": "경사 하강법으로 학습한 값",
    "parse.kernels_probe_count": "x에는 값 {count}개가 아니라 숫자 하나를 입력하세요.",
    "parse.kernels_probe_range": (
        "x = {value}: [{low}, {high}] 범위를 벗어났습니다. 이 범위 안의 숫자를 입력하세요."
    ),
}
