"""Strings of the "why sqrt(d)" lesson.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "sqrt_d.nav": "Why √d",
    "sqrt_d.tour": (
        "Why scores are divided by √d: the variance of q·k grows with d and saturates the softmax."
    ),
    "sqrt_d.title": "Why divide by √d?",
    "sqrt_d.intro": (
        "Scaled dot-product attention computes softmax(q·k / √d). Vaswani et al. (2017, footnote "
        "4) explain the √d: if the entries of q and k are independent with mean 0 and variance 1, "
        "the dot product q·k has variance d. For large d the scores are large, the softmax puts "
        "almost all its weight on one key, and its gradient almost vanishes. Below, q and k are "
        "drawn from N(0, 1) with a seed, so every number is reproducible."
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
        "Each term $q_i k_i$ has mean 0 and variance $\\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2] = "
        "1$, and the d terms are independent, so their variances add up:"
    ),
    "sqrt_d.saturation.heading": "2. Large scores saturate the softmax",
    "sqrt_d.saturation.explain": (
        "Each query gets its own {m} keys; the curves average over {queries} seeded queries. "
        "Without scaling the scores spread over about ±√d, so as d grows the largest weight goes "
        "to 1 and the entropy of the weights to 0: attention looks at one key only. With scaling "
        "they stay where they are at d = 1."
    ),
    "sqrt_d.gradient.heading": "3. …and its gradient vanishes",
    "sqrt_d.gradient.explain": (
        "Learning flows back through the softmax's Jacobian. When one weight is near 1 and the "
        "others near 0, every entry $\\alpha_i(\\delta_{ij} - \\alpha_j)$ is near 0, so the "
        "queries and keys hardly learn. The curve shows the Frobenius norm of the Jacobian, "
        "averaged over the queries."
    ),
    "sqrt_d.small_d": (
        "At d = {d} the dashed normal curve does not fit: q·k is a sum of only {d} products "
        "q_i k_i, and one such product of two independent N(0, 1) numbers has the density "
        "K₀(|x|)/π (K₀ a modified Bessel function), sharply peaked at 0 and heavy-tailed. Its "
        "excess kurtosis, 0 for a normal, is 6/d = {theory} here (measured: {measured}); the sum "
        "comes close to a normal only as d grows. The histograms and the dashed curves share "
        "only their mean 0 and their variance (d, and 1 after scaling)."
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

KO: dict[str, str] = {
    "sqrt_d.nav": "왜 √d인가",
    "sqrt_d.tour": (
        "점수를 √d로 나누는 이유: q·k의 분산은 d와 함께 커져서 소프트맥스를 포화시킵니다."
    ),
    "sqrt_d.title": "왜 √d로 나눌까?",
    "sqrt_d.intro": (
        "스케일드 닷 프로덕트 어텐션은 softmax(q·k / √d)를 계산합니다. Vaswani et al. (2017, 각주 "
        "4)은 √d를 이렇게 설명합니다. q와 k의 성분이 서로 독립이고 평균이 0, 분산이 1이면 내적 "
        "q·k의 분산은 d입니다. d가 크면 점수가 커지고, 소프트맥스는 거의 모든 가중치를 키 하나에 "
        "몰아 주며, 그 그래디언트는 거의 사라집니다. 아래에서 q와 k는 시드를 정해 N(0, 1)에서 "
        "뽑으므로 모든 수치를 재현할 수 있습니다."
    ),
    "sqrt_d.d": "q와 k의 크기 d",
    "sqrt_d.d.help": "각 쿼리 벡터와 키 벡터의 성분 개수입니다.",
    "sqrt_d.m": "쿼리당 키 수 m",
    "sqrt_d.m.help": "각 쿼리의 소프트맥스가 몇 개의 키에 대해 계산되는지입니다(2절과 3절).",
    "sqrt_d.samples": "표본 수(q, k 쌍)",
    "sqrt_d.samples.help": "히스토그램과 분산 곡선에 쓰는 내적의 개수입니다.",
    "sqrt_d.seed": "시드",
    "sqrt_d.variance.heading": "1. 내적은 d와 함께 커집니다",
    "sqrt_d.variance.explain": (
        "각 항 $q_i k_i$는 평균이 0이고 분산이 $\\mathbb{E}[q_i^2]\\,\\mathbb{E}[k_i^2] = 1$이며, "
        "d개의 항은 서로 독립이므로 분산을 모두 더하면 됩니다:"
    ),
    "sqrt_d.saturation.heading": "2. 큰 점수는 소프트맥스를 포화시킵니다",
    "sqrt_d.saturation.explain": (
        "쿼리마다 자기만의 키 {m}개를 받으며, 곡선은 시드로 정한 쿼리 {queries}개에 대한 "
        "평균입니다. 스케일링하지 않으면 점수가 대략 ±√d 범위로 퍼지므로, d가 커질수록 최대 "
        "가중치는 1로, 가중치의 엔트로피는 0으로 갑니다. 즉 어텐션이 키 하나만 봅니다. "
        "스케일링하면 d = 1일 때의 값에 그대로 머뭅니다."
    ),
    "sqrt_d.gradient.heading": "3. …그리고 그래디언트가 사라집니다",
    "sqrt_d.gradient.explain": (
        "학습 신호는 소프트맥스의 야코비 행렬(Jacobian)을 거쳐 거꾸로 흐릅니다. 가중치 하나가 1에 "
        "가깝고 나머지가 0에 가까우면 모든 성분 $\\alpha_i(\\delta_{ij} - \\alpha_j)$가 0에 "
        "가까워져서 쿼리와 키가 거의 학습되지 않습니다. 곡선은 야코비 행렬의 프로베니우스 노름"
        "(Frobenius norm)을 쿼리에 대해 평균한 값입니다."
    ),
    "sqrt_d.small_d": (
        "d = {d}에서는 정규분포 점선이 맞지 않습니다. q·k는 곱 q_i k_i를 {d}개만 더한 것이고, "
        "서로 독립인 N(0, 1) 수 두 개의 곱 하나는 밀도가 K₀(|x|)/π (K₀는 변형 베셀 함수)여서 0에서 "
        "뾰족하고 꼬리가 두껍습니다. 정규분포에서 0인 초과 첨도가 여기서는 6/d = {theory}입니다"
        "(측정값: {measured}). d가 커져야 합이 정규분포에 가까워집니다. 히스토그램과 점선이 "
        "공유하는 것은 평균 0과 분산(d, 스케일링 후에는 1)뿐입니다."
    ),
    "sqrt_d.tex.measured": "측정값:",
    "sqrt_d.tex.unscaled": "(스케일링 없음)",
    "sqrt_d.tex.scaled": "(스케일링 적용)",
    "sqrt_d.fig.raw": "q·k (스케일링 없음)",
    "sqrt_d.fig.scaled": "q·k / √d (스케일링 적용)",
    "sqrt_d.fig.normal": "이론적 분산을 갖는 정규분포 밀도",
    "sqrt_d.fig.hist_title": "N(0, 1) 벡터의 내적 {samples}개, 같은 구간",
    "sqrt_d.fig.hist_raw": "q·k, d = {d}   (점선: N(0, {d}))",
    "sqrt_d.fig.hist_scaled": "q·k / √{d}   (점선: N(0, 1))",
    "sqrt_d.fig.density": "밀도",
    "sqrt_d.fig.score_axis": "점수",
    "sqrt_d.fig.d_axis": "d (로그 스케일)",
    "sqrt_d.fig.variance_title": "d에 따른 점수의 분산",
    "sqrt_d.fig.variance_axis": "표본 분산(로그 스케일)",
    "sqrt_d.fig.theory_d": "이론: Var = d",
    "sqrt_d.fig.theory_1": "이론: Var = 1",
    "sqrt_d.fig.current": "선택한 d = {d}",
    "sqrt_d.fig.saturation_title": "키 m = {m}개에 대한 소프트맥스: 스케일링하지 않으면 포화",
    "sqrt_d.fig.weight_axis": "최대 가중치 max α_j (평균)",
    "sqrt_d.fig.entropy_axis": "엔트로피 H(α), 단위 nat (평균)",
    "sqrt_d.fig.uniform_weight": "균등: 1/m = 1/{m}",
    "sqrt_d.fig.uniform_entropy": "균등: log m = log {m}",
    "sqrt_d.fig.grad_title": "d에 따른 소프트맥스 그래디언트의 크기",
    "sqrt_d.fig.grad_axis": "평균 ‖J‖_F",
    "parse.sqrt_d_range": (
        "{name} = {value}: 범위를 벗어났습니다. {low}에서 {high} 사이의 정수를 고르세요."
    ),
}
