"""Strings of the across-layers lesson (rollout, flow, head statistics, saliency).

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "across.nav": "Across layers",
    "across.title": "Across layers and heads",
    "across.tour": (
        "Attention followed through a model's layers (all-MiniLM-L6-v2, SmolLM2 or any picked "
        "folder: rollout and flow), what each head does in numbers, and gradient saliency "
        "beside attention."
    ),
    "across.intro": (
        "One head's weights say little about what a model uses: each layer mixes the tokens "
        "again, and the residual connection carries every token past the attention. This page "
        "follows attention through all layers of the picked model (all-MiniLM-L6-v2 unless the "
        "sidebar names another; Abnar & Zuidema 2020, "
        "*Quantifying Attention Flow in Transformers*), measures what each head does (Clark et "
        "al. 2019, *What Does BERT Look At?*), and sets gradient saliency beside attention, "
        "since attention weights are not explanations by themselves (Jain & Wallace 2019; "
        "Wiegreffe & Pinter 2019). A pair is read as on the Model attention page: "
        "`[CLS] A [SEP] B [SEP]` by MiniLM, A, a newline, B by a causal model such as SmolLM2."
    ),
    "across.view": "View",
    "across.view.rollout": "Rollout",
    "across.view.flow": "Flow",
    "across.view.heads": "Head statistics",
    "across.view.saliency": "Saliency beside attention",
    "across.view.finder": "Head finder and ablations",
    "across.finder.explain": (
        "What does a head do? Five scores per head, measured by running the model: **induction** "
        "(on a random sequence repeated, attention from a token to the one that followed its "
        "earlier occurrence: Olsson et al. 2022), **duplicate token** (to the earlier occurrence "
        "itself), **previous token**, **first token** (the attention sink) and **diagonal** "
        "(itself), the last three over a few ordinary sentences. Click a head to pick it; take "
        "heads out below and see what the model predicts without them."
    ),
    "across.finder.needs_decoder": (
        "The head finder and the ablations run a causal language model; {name} is not one. "
        "Pick SmolLM2-135M-Instruct in the sidebar."
    ),
    "across.finder.computing": "Scoring every head…",
    "across.finder.score": "Score",
    "across.finder.score.induction": "Induction",
    "across.finder.score.duplicate": "Duplicate token",
    "across.finder.score.previous": "Previous token",
    "across.finder.score.first": "First token (sink)",
    "across.finder.score.diagonal": "Diagonal",
    "across.finder.table": "The {score} ranking (layer.head)",
    "across.finder.open": (
        "Layer {layer}, head {head}: open it in the [head view]({heads}) or the "
        "[neuron view]({neuron}) of the Model attention page."
    ),
    "across.col.head": "head",
    "across.ablation": "Take heads out",
    "across.ablation.heads": "Heads taken out (layer.head); the five strongest induction heads to start",
    "across.ablation.mode": "How",
    "across.ablation.zero": "Zero",
    "across.ablation.mean": "Mean over the text",
    "across.ablation.before": "Next token, every head in",
    "across.ablation.after": "Next token, heads out: {count}",
    "across.ablation.summary": (
        "The model's first choice **{token}**: {before} before, {after} after; now it says "
        "**{top}**. KL(before || after) = {kl} nats; the loss on the text {loss_before} -> "
        "{loss_after} nats a token."
    ),
    "across.ablation.summary_same": (
        "The model's first choice **{token}**: {before} before, {after} after; it still says "
        "**{top}**. KL(before || after) = {kl} nats; the loss on the text {loss_before} -> "
        "{loss_after} nats a token."
    ),
    "across.fusion": "Heads fused by",
    "across.fusion.help": (
        "Each layer's heads are combined into one matrix before the layers are chained: their "
        "mean (the paper's choice), or the largest or smallest weight of each cell."
    ),
    "across.fusion.mean": "mean",
    "across.fusion.max": "max",
    "across.fusion.min": "min",
    "across.layer": "Through layer",
    "across.layer.option": "layers 0–{layer}",
    "across.row": "Row to attribute",
    "across.row.help": (
        "The position of the top layer whose attribution to the input tokens is shown: [CLS] "
        "(position 0) for an encoder, whose [CLS] row stands for the sentence; the last "
        "position for a decoder, which predicts the next token (its position 0 can only attend "
        "to itself)."
    ),
    "across.hide_first": "Hide the first token (the attention sink)",
    "across.hide_first.help": (
        "A decoder's heads park much of their attention on the first token, whatever it is "
        "(an attention sink: Xiao et al. 2023), and rollout multiplies that through every "
        "layer. Hiding it drops its row and column and renormalises each row over the rest, "
        "as on Model attention."
    ),
    "across.first_hidden": (
        "The first token is hidden: each row is renormalised over the other tokens (divided by "
        "what they hold)."
    ),
    "across.one_token": (
        "The row “{row}” puts {share} of its weight on “{token}”: through the layers it draws "
        "almost only from that token, so the others barely show."
    ),
    "across.one_token.first": (
        "The row “{row}” puts {share} of its weight on “{token}”, the first token: a decoder's "
        "heads park their attention there (an attention sink), and rollout multiplies that "
        "through every layer: hide the first token (the switch “Hide the first token”) to see "
        "how the other tokens share the row, renormalised."
    ),
    "across.rollout.explain": (
        "**Rollout.** Each layer's heads are fused into one matrix A, the residual connection is "
        "added as Ã = 0.5·A + 0.5·I with rows renormalised, and the layers are multiplied: "
        "R₀ = Ã₀, Rₗ = Ãₗ·Rₗ₋₁. Row i of Rₗ says how much position i after layer l draws from "
        "each input token, through every path; its rows sum to 1."
    ),
    "across.rollout.title": "Rollout through layers 0–{layer}",
    "across.row_title": "Row “{token}”, layers 0–{layer}",
    "across.by_layer_title": "Row “{token}”: what it draws from each input token, layer by layer",
    "across.rollout.csv": "rollout through layer {layer}",
    "across.series.rollout": "rollout",
    "across.series.raw": "raw attention (heads' mean)",
    "across.series.flow": "flow",
    "across.share": "share of the row",
    "across.flow.explain": (
        "**Flow.** The layers as a graph: position i of layer l + 1 joins position j of layer l "
        "by an edge of capacity Ãₗ[i, j]. The flow from an output to an input token is the "
        "maximum flow between them (scipy's `maximum_flow`), each output's flows divided by "
        "their sum. Where rollout multiplies along every path, flow is limited by each path's "
        "narrowest edge. One maximum flow per pair of tokens: inputs of up to {limit} tokens."
    ),
    "across.flow.too_long": (
        "This input has {count} tokens; attention flow solves one maximum flow per pair of "
        "tokens and takes at most {limit}. Shorten the sentences, or look at rollout, which "
        "has no limit."
    ),
    "across.flow.computing": "Solving {pairs} maximum flows through {layers} layers…",
    "across.flow.title": "Flow through layers 0–{layer}",
    "across.flow.spearman": (
        "Spearman's rank correlation of the “{token}” row's flow and rollout: {rho}."
    ),
    "across.flow.csv": "flow through layer {layer}",
    "across.heads.explain": (
        "**Head statistics**, one grid per statistic, layers down and heads across; each is a "
        "mean over the query rows. Entropy is in nats (at most log T, a uniform row) and mean "
        "distance in tokens; *broad* is the entropy divided by log T. The shares on [CLS], "
        "[SEP] and the first token show attention sinks; previous, next and diagonal are the "
        "share on the key just before, just after, or at the query (TransformerLens's head "
        "detector). Click a cell to enlarge its head."
    ),
    "across.stat.entropy": "Entropy (nats)",
    "across.stat.distance": "Mean distance (tokens)",
    "across.stat.broad": "Broad (entropy / log T)",
    "across.stat.cls": "Share on [CLS]",
    "across.stat.sep": "Share on [SEP]",
    "across.stat.first": "Share on the first token",
    "across.stat.previous": "Previous token",
    "across.stat.next": "Next token",
    "across.stat.diagonal": "Diagonal (itself)",
    "across.heads.click": (
        "Layer {layer}, head {head} is enlarged below. Click a cell of any grid to enlarge another."
    ),
    "across.heads.table": "**Layer {layer}, head {head}**: each statistic, and its rank among all heads",
    "across.heads.table_csv": "statistics of layer {layer}, head {head}",
    "across.heads.csv": "every head's statistics",
    "across.col.statistic": "statistic",
    "across.col.value": "value",
    "across.col.rank": "rank (largest first)",
    "across.target": "Target",
    "across.target.similarity": "Similarity of A and B (cosine)",
    "across.target.verdict": "NLI verdict (trained classifier)",
    "across.target.next": "The next token's log-probability",
    "across.saliency.next": (
        "The model's most probable token after the text is **{token}**; the target, its "
        "log-probability, is **{value}**."
    ),
    "across.saliency.title.next": "The next token: rollout and saliency per token",
    "across.series.rollout_last": "rollout from the last position",
    "across.saliency.decoder": (
        "A causal language model reads A, a newline and B as one text; the target is the "
        "log-probability of the token it predicts next."
    ),
    "across.baseline": "Baseline of integrated gradients",
    "across.baseline.zeros": "zero vectors",
    "across.baseline.pad": "the pad token's rows, special tokens kept",
    "across.baseline.help": (
        "Integrated gradients walk from this input to the sentences' own embeddings; the "
        "attributions sum to the change of the target along the way. The pad token is "
        "MiniLM's [PAD] ([CLS] and [SEP] kept), SmolLM2's `<|im_end|>`; a decoder starts from "
        "it, since from zero vectors its completeness gap does not close."
    ),
    "across.steps": "Integration steps",
    "across.steps.help": (
        "Gauss-Legendre nodes of the path integral (captum's default method): more steps, a "
        "smaller gap between the attributions' sum and the target's change."
    ),
    "across.saliency.explain": (
        "**Saliency** asks what the output depends on, where attention shows what the model "
        "looks at. Both methods take gradients with respect to the word-embedding output, one "
        "number per token: gradient × input (x·∂f/∂x, summed over the dimensions) and "
        "integrated gradients (Sundararajan et al. 2017). MiniLM gives a pair's similarity "
        "with each sentence encoded alone, so here each sentence is read alone, and its "
        "rollout starts from its own [CLS] row. The trained NLI classifier also reads each "
        "sentence alone; its attention is the cross-alignment its own page shows, so its "
        "target has saliency only."
    ),
    "across.saliency.needs_b": (
        "Both targets compare two sentences: type a sentence B to see saliency."
    ),
    "across.saliency.no_classifier": (
        "The NLI verdict needs a trained classifier that reads MiniLM's embeddings, and none "
        "could be used here ({detail}); the similarity is shown instead."
    ),
    "across.saliency.computing": "Integrated gradients over {steps} steps…",
    "across.saliency.similarity": "Cosine similarity of A and B, each mean-pooled: **{value}**.",
    "across.saliency.verdict": (
        "The classifier predicts **{label}**; its logit, the target, is **{value}**."
    ),
    "across.saliency.title.similarity": "Similarity of A and B: rollout and saliency per token",
    "across.saliency.title.verdict": "NLI verdict: saliency per token",
    "across.series.rollout_cls": "rollout from its [CLS]",
    "across.series.gxi": "gradient × input",
    "across.series.ig": "integrated gradients",
    "across.attribution": "attribution",
    "across.saliency.complete": (
        "Completeness: integrated gradients over {steps} steps sum to {total}; the target went "
        "from {baseline} at the baseline to {value}, a change of {change} (gap {gap})."
    ),
    "across.gap.advice": (
        "A gap over {limit} means the integral is not yet converged: the attributions do not "
        "add up to the change. More steps may close it; the button measures how many do, "
        "trying larger counts up to {most}."
    ),
    "across.gap.find": "Find the steps that close the gap",
    "across.gap.finding": "Integrated gradients at {counts} steps, until the gap is small…",
    "across.gap.found": (
        "Measured: {steps} steps bring the gap under {limit} ({gap}); pick {steps} under "
        "Integration steps."
    ),
    "across.gap.found_off": (
        "Measured: {steps} steps bring the gap under {limit} ({gap}), more than the {top} the "
        "slider offers (notebooks: `integrated_gradients(..., steps={steps})`)."
    ),
    "across.gap.none": (
        "Measured: no number of steps up to {most} brings the gap under {limit}. The path from "
        "this baseline changes too sharply for the integral (a normalised model reads a scaled "
        "input almost as the input itself, except near zero); another baseline ({others}) may "
        "close it."
    ),
    "across.rho.heading": "Spearman's rank correlations",
    "across.rho.gxi_ig": "gradient × input and integrated gradients",
    "across.rho.rollout_gxi": "rollout and |gradient × input|",
    "across.rho.rollout_ig": "rollout and |integrated gradients|",
    "across.col.pair": "between",
    "across.col.rho": "ρ",
    "across.col.token": "token",
    "across.col.sentence": "sentence",
    "across.saliency.csv": "saliency per token",
    "across.output": "output",
    "across.input": "input",
    "across.outputs": "Output position (top layer)",
    "across.inputs": "Input token",
    "across.through": "Through",
    "across.layers": "Layer",
    "across.heads": "Head",
}

KO: dict[str, str] = {
    "across.nav": "층을 가로질러",
    "across.title": "층과 헤드를 가로질러",
    "across.tour": (
        "모델(all-MiniLM-L6-v2, SmolLM2 또는 고른 폴더)의 층을 따라가는 어텐션(롤아웃과 플로), "
        "각 헤드가 하는 일을 나타내는 수치, 그리고 어텐션 옆에 놓은 그래디언트 중요도."
    ),
    "across.intro": (
        "헤드 하나의 가중치만으로는 모델이 무엇을 쓰는지 알기 어렵습니다. 층마다 토큰이 다시 "
        "섞이고, 잔차 연결이 모든 토큰을 어텐션 너머로 실어 나르기 때문입니다. 이 페이지는 "
        "고른 모델(사이드바에서 바꾸지 않으면 all-MiniLM-L6-v2)의 모든 층을 따라 어텐션을 "
        "추적하고(Abnar & Zuidema 2020, "
        "*Quantifying Attention Flow in Transformers*), 각 헤드가 하는 일을 재며(Clark et al. "
        "2019, *What Does BERT Look At?*), 어텐션 가중치만으로는 설명이 되지 않으므로(Jain & "
        "Wallace 2019; Wiegreffe & Pinter 2019) 어텐션 옆에 그래디언트 중요도를 놓습니다. 문장 "
        "쌍은 모델의 어텐션 페이지에서처럼 읽습니다. MiniLM은 `[CLS] A [SEP] B [SEP]`로, "
        "SmolLM2 같은 인과 모델은 A, 줄바꿈, B로 읽습니다."
    ),
    "across.view": "보기",
    "across.view.rollout": "롤아웃",
    "across.view.flow": "플로",
    "across.view.heads": "헤드 통계",
    "across.view.saliency": "어텐션 옆의 중요도",
    "across.view.finder": "헤드 찾기와 제거",
    "across.finder.explain": (
        "헤드는 무엇을 할까요? 모델을 실행해 헤드마다 다섯 점수를 잽니다: **귀납**(무작위 수열을 "
        "두 번 반복했을 때, 토큰에서 그 토큰이 앞서 나왔을 때 뒤따른 토큰으로 가는 어텐션: Olsson 외 "
        "2022), **중복 토큰**(앞선 같은 토큰 자체로), **이전 토큰**, **첫 토큰**(어텐션 싱크), "
        "**대각선**(자기 자신). 뒤의 셋은 평범한 문장 몇 개로 잽니다. 헤드를 클릭해 고르고, 아래에서 "
        "헤드를 빼서 모델의 예측이 어떻게 바뀌는지 보세요."
    ),
    "across.finder.needs_decoder": (
        "헤드 찾기와 제거는 인과 언어 모델로 합니다. {name}은(는) 그렇지 않으니 사이드바에서 "
        "SmolLM2-135M-Instruct를 고르세요."
    ),
    "across.finder.computing": "모든 헤드의 점수를 재는 중…",
    "across.finder.score": "점수",
    "across.finder.score.induction": "귀납",
    "across.finder.score.duplicate": "중복 토큰",
    "across.finder.score.previous": "이전 토큰",
    "across.finder.score.first": "첫 토큰(싱크)",
    "across.finder.score.diagonal": "대각선",
    "across.finder.table": "{score} 순위(층.헤드)",
    "across.finder.open": (
        "{layer}층, {head}번 헤드: 모델 어텐션 페이지의 [헤드 보기]({heads})나 "
        "[뉴런 보기]({neuron})에서 여세요."
    ),
    "across.col.head": "헤드",
    "across.ablation": "헤드 빼기",
    "across.ablation.heads": "뺀 헤드(층.헤드). 처음에는 귀납 점수가 가장 큰 다섯 헤드",
    "across.ablation.mode": "방법",
    "across.ablation.zero": "0으로",
    "across.ablation.mean": "글 전체의 평균으로",
    "across.ablation.before": "다음 토큰, 모든 헤드 포함",
    "across.ablation.after": "다음 토큰, 뺀 헤드: {count}개",
    "across.ablation.summary": (
        "모델의 첫 선택 **{token}**: 전 {before}, 후 {after}. 이제 모델은 **{top}**을(를) "
        "고릅니다. KL(전 || 후) = {kl} nats, 글에 대한 손실은 토큰당 {loss_before} -> "
        "{loss_after} nats."
    ),
    "across.ablation.summary_same": (
        "모델의 첫 선택 **{token}**: 전 {before}, 후 {after}. 모델은 여전히 **{top}**을(를) "
        "고릅니다. KL(전 || 후) = {kl} nats, 글에 대한 손실은 토큰당 {loss_before} -> "
        "{loss_after} nats."
    ),
    "across.fusion": "헤드를 합치는 방법",
    "across.fusion.help": (
        "층을 잇기 전에 각 층의 헤드를 행렬 하나로 합칩니다. 평균(논문의 선택), 또는 각 칸의 "
        "가장 큰 값이나 가장 작은 값을 씁니다."
    ),
    "across.fusion.mean": "평균",
    "across.fusion.max": "최댓값",
    "across.fusion.min": "최솟값",
    "across.layer": "어느 층까지",
    "across.layer.option": "층 0–{layer}",
    "across.row": "기여를 볼 행",
    "across.row.help": (
        "입력 토큰에 대한 기여를 보여 줄 맨 위 층의 위치입니다. 인코더에서는 [CLS](위치 0)의 "
        "행이 문장 전체를 대표하고, 디코더에서는 다음 토큰을 예측하는 마지막 위치에서 "
        "시작합니다(디코더의 위치 0은 자기 자신만 볼 수 있습니다)."
    ),
    "across.hide_first": "첫 토큰 숨기기(어텐션 싱크)",
    "across.hide_first.help": (
        "디코더의 헤드는 첫 토큰이 무엇이든 어텐션의 많은 몫을 그 토큰에 둡니다(어텐션 싱크: "
        "Xiao et al. 2023). 롤아웃은 이를 모든 층에 걸쳐 곱합니다. 숨기면 그 행과 열을 빼고 "
        "각 행을 나머지에 대해 다시 정규화합니다(모델 어텐션 페이지와 같습니다)."
    ),
    "across.first_hidden": (
        "첫 토큰을 숨겼습니다. 각 행은 나머지 토큰에 대해 다시 정규화됩니다(그 토큰들이 가진 "
        "몫으로 나눕니다)."
    ),
    "across.one_token": (
        "“{row}” 행은 무게의 {share}을(를) “{token}”에 둡니다. 층을 거치며 거의 그 토큰에서만 "
        "가져오므로 다른 토큰은 거의 보이지 않습니다."
    ),
    "across.one_token.first": (
        "“{row}” 행은 무게의 {share}을(를) 첫 토큰 “{token}”에 둡니다. 디코더의 헤드는 "
        "어텐션을 그곳에 모아 두고(어텐션 싱크), 롤아웃은 이를 모든 층에 걸쳐 곱합니다. "
        "나머지를 보려면 “첫 토큰 숨기기”를 켜세요(다시 정규화해 보여 줍니다)."
    ),
    "across.rollout.explain": (
        "**롤아웃.** 각 층의 헤드를 행렬 A 하나로 합치고, 잔차 연결을 Ã = 0.5·A + 0.5·I로 "
        "더한 뒤 행을 다시 정규화하고, 층들을 곱합니다: R₀ = Ã₀, Rₗ = Ãₗ·Rₗ₋₁. Rₗ의 i번째 행은 "
        "l층을 지난 위치 i가 모든 경로를 거쳐 각 입력 토큰에서 얼마나 가져오는지를 나타내며, "
        "행의 합은 1입니다."
    ),
    "across.rollout.title": "층 0–{layer}을 거친 롤아웃",
    "across.row_title": "“{token}” 행, 층 0–{layer}",
    "across.by_layer_title": "“{token}” 행이 층마다 각 입력 토큰에서 가져오는 몫",
    "across.rollout.csv": "{layer}층까지의 롤아웃",
    "across.series.rollout": "롤아웃",
    "across.series.raw": "원래 어텐션(헤드 평균)",
    "across.series.flow": "플로",
    "across.share": "행에서 차지하는 몫",
    "across.flow.explain": (
        "**플로.** 층들을 그래프로 봅니다. l + 1층의 위치 i와 l층의 위치 j를 용량 Ãₗ[i, j]의 "
        "간선으로 잇습니다. 출력에서 입력 토큰으로 가는 플로는 둘 사이의 최대 유량(scipy의 "
        "`maximum_flow`)이며, 출력마다 그 합으로 나눕니다. 롤아웃은 모든 경로를 따라 곱하지만, "
        "플로는 각 경로의 가장 좁은 간선에 묶입니다. 토큰 쌍마다 최대 유량을 한 번씩 풀기 "
        "때문에 입력은 {limit}개 토큰까지입니다."
    ),
    "across.flow.too_long": (
        "이 입력은 토큰이 {count}개입니다. 어텐션 플로는 토큰 쌍마다 최대 유량을 한 번씩 풀기 "
        "때문에 {limit}개까지만 받습니다. 문장을 줄이거나, 제한이 없는 롤아웃을 보세요."
    ),
    "across.flow.computing": "{layers}개 층을 거치는 최대 유량 {pairs}개를 푸는 중…",
    "across.flow.title": "층 0–{layer}을 거친 플로",
    "across.flow.spearman": "“{token}” 행의 플로와 롤아웃의 스피어만 순위 상관계수: {rho}.",
    "across.flow.csv": "{layer}층까지의 플로",
    "across.heads.explain": (
        "**헤드 통계**: 통계마다 격자 하나이며, 아래로 층, 옆으로 헤드입니다. 모두 쿼리 행에 "
        "대한 평균입니다. 엔트로피의 단위는 nat(균등한 행이면 최대 log T), 평균 거리의 단위는 "
        "토큰이고, *넓음*은 엔트로피를 log T로 나눈 값입니다. [CLS], [SEP], 첫 토큰이 받는 몫은 "
        "어텐션 싱크를 보여 주고, 이전·다음·대각선은 쿼리 바로 앞, 바로 뒤, 쿼리 자신의 키가 "
        "받는 몫입니다(TransformerLens의 헤드 탐지기). 칸을 누르면 그 헤드가 크게 나타납니다."
    ),
    "across.stat.entropy": "엔트로피(nat)",
    "across.stat.distance": "평균 거리(토큰)",
    "across.stat.broad": "넓음(엔트로피 / log T)",
    "across.stat.cls": "[CLS]가 받는 몫",
    "across.stat.sep": "[SEP]이 받는 몫",
    "across.stat.first": "첫 토큰이 받는 몫",
    "across.stat.previous": "이전 토큰",
    "across.stat.next": "다음 토큰",
    "across.stat.diagonal": "대각선(자기 자신)",
    "across.heads.click": (
        "아래에 크게 보이는 것은 {layer}층 {head}번 헤드입니다. 아무 격자의 칸을 누르면 다른 "
        "헤드가 크게 나타납니다."
    ),
    "across.heads.table": "**{layer}층 {head}번 헤드**: 각 통계와 모든 헤드 가운데의 순위",
    "across.heads.table_csv": "{layer}층 {head}번 헤드의 통계",
    "across.heads.csv": "모든 헤드의 통계",
    "across.col.statistic": "통계",
    "across.col.value": "값",
    "across.col.rank": "순위(큰 값부터)",
    "across.target": "대상",
    "across.target.similarity": "A와 B의 유사도(코사인)",
    "across.target.verdict": "NLI 판정(학습된 분류기)",
    "across.target.next": "다음 토큰의 로그 확률",
    "across.saliency.next": (
        "글 다음에 올 가장 그럴듯한 토큰은 **{token}**이며, 대상인 그 로그 확률은 "
        "**{value}**입니다."
    ),
    "across.saliency.title.next": "다음 토큰: 토큰별 롤아웃과 중요도",
    "across.series.rollout_last": "마지막 위치에서 시작한 롤아웃",
    "across.saliency.decoder": (
        "인과 언어 모델은 A, 줄바꿈, B를 한 글로 읽습니다. 대상은 모델이 다음에 예측하는 "
        "토큰의 로그 확률입니다."
    ),
    "across.baseline": "적분 그래디언트의 기준점",
    "across.baseline.zeros": "영벡터",
    "across.baseline.pad": "패딩 토큰의 행(특수 토큰은 유지)",
    "across.baseline.help": (
        "적분 그래디언트는 이 입력에서 문장의 실제 임베딩까지 걸어갑니다. 기여의 합은 그 길을 따라 대상이 바뀐 양과 같습니다. 패딩 토큰은 MiniLM에서는"
        " [PAD]([CLS]와 [SEP]은 유지), SmolLM2에서는 `<|im_end|>`입니다. 디코더는 영벡터에서 시작하면 완전성 차이가 줄지 않아 패딩"
        " 토큰에서 시작합니다."
    ),
    "across.steps": "적분 단계 수",
    "across.steps.help": (
        "경로 적분의 가우스-르장드르 노드 수(captum의 기본 방법)입니다. 단계가 많을수록 기여의 "
        "합과 대상의 변화 사이 차이가 작아집니다."
    ),
    "across.saliency.explain": (
        "**중요도**는 출력이 무엇에 달려 있는지를 묻고, 어텐션은 모델이 무엇을 보는지를 "
        "보여 줍니다. 두 방법 모두 단어 임베딩 출력에 대한 그래디언트를 구해 토큰마다 수 하나를 "
        "냅니다: 그래디언트 × 입력(x·∂f/∂x를 차원에 대해 합함)과 적분 그래디언트(Sundararajan "
        "et al. 2017). MiniLM은 문장 쌍의 유사도를 각 문장을 따로 인코딩해서 구하므로, 여기서도 "
        "각 문장을 따로 읽고 롤아웃은 그 문장 자신의 [CLS] 행에서 시작합니다. 학습된 NLI "
        "분류기도 각 문장을 따로 읽습니다. 그 어텐션은 분류기 페이지가 보여 주는 교차 정렬이므로, "
        "이 대상에는 중요도만 있습니다."
    ),
    "across.saliency.needs_b": "두 대상 모두 두 문장을 비교합니다. 중요도를 보려면 문장 B를 입력하세요.",
    "across.saliency.no_classifier": (
        "NLI 판정에는 MiniLM의 임베딩을 읽는 학습된 분류기가 필요한데, 여기서는 쓸 수 있는 "
        "분류기가 없어({detail}) 유사도를 대신 보여 줍니다."
    ),
    "across.saliency.computing": "{steps}단계로 적분 그래디언트를 구하는 중…",
    "across.saliency.similarity": "평균 풀링한 A와 B의 코사인 유사도: **{value}**.",
    "across.saliency.verdict": "분류기의 예측은 **{label}**이며, 대상인 그 로짓은 **{value}**입니다.",
    "across.saliency.title.similarity": "A와 B의 유사도: 토큰별 롤아웃과 중요도",
    "across.saliency.title.verdict": "NLI 판정: 토큰별 중요도",
    "across.series.rollout_cls": "자기 [CLS]에서 시작한 롤아웃",
    "across.series.gxi": "그래디언트 × 입력",
    "across.series.ig": "적분 그래디언트",
    "across.attribution": "기여",
    "across.saliency.complete": (
        "완전성: {steps}단계 적분 그래디언트의 합은 {total}이고, 대상은 기준점의 {baseline}에서 "
        "{value}로 {change}만큼 바뀌었습니다(차이 {gap})."
    ),
    "across.gap.advice": (
        "차이가 {limit}를 넘으면 적분이 아직 수렴하지 않은 것입니다. 기여의 합이 변화량과 "
        "맞지 않습니다. 단계를 늘리면 줄어들 수 있습니다. 버튼은 {most}단계까지 더 큰 수를 "
        "차례로 시도해 몇 단계면 되는지 측정합니다."
    ),
    "across.gap.find": "차이를 줄이는 단계 수 찾기",
    "across.gap.finding": "{counts}단계로 적분 그래디언트를 구하는 중(차이가 작아질 때까지)…",
    "across.gap.found": (
        "측정 결과: {steps}단계면 차이가 {limit} 아래로 내려갑니다({gap}). 적분 단계 수에서 "
        "{steps}을(를) 고르세요."
    ),
    "across.gap.found_off": (
        "측정 결과: {steps}단계면 차이가 {limit} 아래로 내려갑니다({gap}). 슬라이더의 최대 "
        "{top}보다 많습니다(노트북에서: `integrated_gradients(..., steps={steps})`)."
    ),
    "across.gap.none": (
        "측정 결과: {most}단계까지 어느 단계 수도 차이를 {limit} 아래로 내리지 못합니다. 이 "
        "기준점에서 시작하는 경로는 적분하기에 너무 급하게 변합니다(정규화하는 모델은 크기를 "
        "줄인 입력을 0 근처가 아니면 원래 입력과 거의 같게 읽습니다). 다른 기준점({others})이 "
        "차이를 줄일 수 있습니다."
    ),
    "across.rho.heading": "스피어만 순위 상관계수",
    "across.rho.gxi_ig": "그래디언트 × 입력과 적분 그래디언트",
    "across.rho.rollout_gxi": "롤아웃과 |그래디언트 × 입력|",
    "across.rho.rollout_ig": "롤아웃과 |적분 그래디언트|",
    "across.col.pair": "비교",
    "across.col.rho": "ρ",
    "across.col.token": "토큰",
    "across.col.sentence": "문장",
    "across.saliency.csv": "토큰별 중요도",
    "across.output": "출력",
    "across.input": "입력",
    "across.outputs": "출력 위치(맨 위 층)",
    "across.inputs": "입력 토큰",
    "across.through": "거친 층",
    "across.layers": "층",
    "across.heads": "헤드",
}
