"""Strings of the generation page.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "generation.nav": "Generation",
    "generation.tour": (
        "Watch a causal language model write: each new token, the 10 it weighed, the attention "
        "row that predicted it in every layer and head, its key/value cache growing, and what "
        "each new token drew on."
    ),
    "generation.title": "Watch a model generate",
    "generation.intro": (
        "A causal language model writes one token at a time: the last position's logits give "
        "the next token's probabilities, the token is chosen (the most probable, or drawn), "
        "appended, and read again. Each step reuses the keys and values of every earlier "
        "position from its cache, so a step computes one new row of attention per layer and "
        "head: the row shown here for the step you pick."
    ),
    "generation.needs_decoder": (
        "Generation needs a causal language model; {name} is not one. Pick SmolLM2-135M-Instruct "
        "(shipped) in the sidebar, or here:"
    ),
    "generation.prompt": "Prompt (at most 512 tokens)",
    "generation.chat": "Use the model's chat template",
    "generation.chat.help": (
        "Wrap the prompt as a user's message in the model's own chat format, as an assistant "
        "reads it, and generate the answer."
    ),
    "generation.new": "New tokens",
    "generation.decoding": "Decoding",
    "generation.greedy": "Greedy",
    "generation.sample": "Sampled",
    "generation.temperature": "Temperature",
    "generation.top_k": "Top-k (0: all)",
    "generation.top_k.help": "Draw only among the k most probable tokens; 0 keeps every token.",
    "generation.seed": "Seed",
    "generation.go": "Generate",
    "generation.press": "Press **Generate** to write from the prompt.",
    "generation.older": "Shown: the last text generated (the prompt has changed since).",
    "generation.running": "Generating: token {done} of {count},",
    "generation.text": "New tokens: {count} ({why})",
    "generation.stopped.length": "the count reached",
    "generation.stopped.end": "the model wrote its end token",
    "generation.stopped.stopped": "stopped",
    "generation.step": "Step",
    "generation.step_note": (
        "Step {step}: position {position} ({previous}) predicted **{token}**, which had "
        "probability {prob}."
    ),
    "generation.row_title": "Layer {layer}, head {head}: the row that predicted {token}",
    "generation.top_title": "The 10 most probable tokens at step {step}",
    "generation.grid_title": "Step {step}: the predicting row in every layer and head",
    "generation.grid_click": "Layer {layer}, head {head} is enlarged above: click another head's row.",
    "generation.heads_row": "layer·head",
    "generation.heads_hover": "layer %{customdata[0]}, head %{customdata[1]} (click to enlarge)<br>strongest key: %{text}",
    "generation.cache_title": (
        "Key/value cache after step {step}: {rows} positions x {layers} layers, {size} MB"
    ),
    "generation.cache.prompt": "the prompt's rows",
    "generation.cache.generated": "generated tokens' rows",
    "generation.cache.added": "added by this step",
    "generation.stop": "Stop",
    "generation.stopped_early": "Stopped before the first token. Press **Generate** to start again.",
    "generation.lens": "Logit lens: each layer's guess, and each head's part of the token",
    "generation.lens_explain": (
        "The **logit lens** reads the residual stream after each layer as if it were the last: "
        "through the final norm and the unembedding. Each cell names that layer's most "
        "probable next token at that position; its colour is the probability the layer gives "
        "the token the model finally puts first there. The last row is the model's own output. "
        "Below, each head's **direct** part of the logit of the token this step wrote: what "
        "the head adds straight into the residual stream, read through the final norm (its "
        "scale fixed), not what later layers make of it."
    ),
    "generation.lens_computing": "Reading every layer through the unembedding…",
    "generation.lens_title": "Step {step}: each layer's most probable next token (last 12 positions)",
    "generation.heads_title": "Each head's direct part of the logit of {token}",
    "generation.heads_note": (
        "The head that writes most directly towards {token} is layer {layer}, head {head} "
        "(+{value} to its logit). Click a head to enlarge its row above."
    ),
    "generation.drew": "What each new token drew on",
    "generation.drew.help": (
        "Attribute each new token's log-probability to the prompt and to the tokens written "
        "before it, beside the chosen head's attention. Computed when switched on: one "
        "backward pass a new token (integrated gradients: 32 points each)."
    ),
    "generation.drew_explain": (
        "Row i is **gradient x input** of log p(new token i | everything before it): for each "
        "earlier position, its input embedding times the gradient of that log-probability with "
        "respect to it, summed over the embedding. Positive cells made the token more likely, "
        "negative ones less. Beside it, the chosen head's attention row that predicted the same "
        "token: attention says where a head looked, the gradient what the output depended on, "
        "and the two need not agree. Click a row to show its step above."
    ),
    "generation.method": "Attribution",
    "generation.method.gxi": "Gradient x input",
    "generation.method.ig": "Integrated gradients (32 steps, slower)",
    "generation.normalise": "Normalise each row",
    "generation.normalise.help": (
        "Divide each row by its largest value in size, so that rows of very different sizes "
        "share one scale from -1 to 1."
    ),
    "generation.drew_computing": "Attributing {count} new tokens:",
    "generation.drew_waiting": (
        "Another session's attribution runs first ({ahead} ahead of this one)."
    ),
    "generation.drew_resuming": "Attributing the last {left} of {count} new tokens:",
    "generation.drew_stopped": (
        "Stopped. Switch **What each new token drew on** on again to go on from the tokens "
        "already attributed."
    ),
    "generation.drew_title": "{method} of each new token's log-probability",
    "generation.drew_title_normalised": "{method}, each row divided by its largest size",
    "generation.drew_attention_title": "Layer {layer}, head {head}: the row that predicted each token",
    "generation.drew_row": "new token",
    "generation.drew_keys": "Earlier token (input)",
    "generation.drew_hover": "step %{customdata} (click to show it)<br>most: %{text}",
    "generation.drew_note": (
        "Step {step} is framed. Empty cells lie after each token's position: a token draws "
        "only on what came before it."
    ),
}

KO: dict[str, str] = {
    "generation.nav": "생성",
    "generation.tour": (
        "인과 언어 모델이 글을 쓰는 모습: 새 토큰, 모델이 견준 10개 후보, 모든 층과 헤드에서 그 "
        "토큰을 예측한 어텐션 행, 자라나는 키/값 캐시, 그리고 새 토큰마다 무엇에 기댔는지."
    ),
    "generation.title": "모델이 글을 생성하는 과정",
    "generation.intro": (
        "인과 언어 모델은 한 번에 한 토큰씩 씁니다. 마지막 위치의 로짓이 다음 토큰의 확률을 "
        "주고, 토큰을 고르면(가장 그럴듯한 것, 또는 뽑기) 덧붙여 다시 읽습니다. 단계마다 앞선 "
        "위치의 키와 값을 캐시에서 다시 쓰므로, 한 단계는 층과 헤드마다 어텐션 한 행만 새로 "
        "계산합니다. 여기서 고른 단계의 그 행을 보여 줍니다."
    ),
    "generation.needs_decoder": (
        "생성에는 인과 언어 모델이 필요한데 {name}은(는) 그렇지 않습니다. 사이드바나 여기에서 "
        "SmolLM2-135M-Instruct(기본 제공)를 고르세요:"
    ),
    "generation.prompt": "프롬프트(최대 512개 토큰)",
    "generation.chat": "모델의 채팅 템플릿 쓰기",
    "generation.chat.help": (
        "프롬프트를 모델 고유의 채팅 형식에 사용자 메시지로 넣어, 어시스턴트로서 답을 생성합니다."
    ),
    "generation.new": "새 토큰 수",
    "generation.decoding": "디코딩",
    "generation.greedy": "탐욕",
    "generation.sample": "샘플링",
    "generation.temperature": "온도",
    "generation.top_k.help": "가장 그럴듯한 k개 토큰 가운데서만 뽑습니다. 0이면 모든 토큰을 둡니다.",
    "generation.top_k": "Top-k(0: 전부)",
    "generation.seed": "시드",
    "generation.go": "생성",
    "generation.press": "**생성**을 누르면 프롬프트에 이어 씁니다.",
    "generation.older": "보이는 것은 마지막으로 생성한 글입니다(그 뒤 프롬프트가 바뀌었습니다).",
    "generation.running": "생성 중: {count}개 중 {done}번째 토큰,",
    "generation.text": "새 토큰: {count}개({why})",
    "generation.stopped.length": "정한 개수에 도달",
    "generation.stopped.end": "모델이 끝 토큰을 씀",
    "generation.stopped.stopped": "멈춤",
    "generation.step": "단계",
    "generation.step_note": (
        "{step}단계: 위치 {position}({previous})이(가) **{token}**을(를) 예측했고, 그 확률은 "
        "{prob}였습니다."
    ),
    "generation.row_title": "{layer}층, {head}번 헤드: {token}을(를) 예측한 행",
    "generation.top_title": "{step}단계에서 가장 그럴듯한 토큰 10개",
    "generation.grid_title": "{step}단계: 모든 층과 헤드의 예측 행",
    "generation.grid_click": "{layer}층, {head}번 헤드를 위에 크게 보였습니다. 다른 헤드의 행을 클릭하세요.",
    "generation.heads_row": "층·헤드",
    "generation.heads_hover": "%{customdata[0]}층, %{customdata[1]}번 헤드(클릭하면 크게 보입니다)<br>가장 강한 키: %{text}",
    "generation.cache_title": "{step}단계 뒤 키/값 캐시: 위치 {rows}개 x {layers}개 층, {size} MB",
    "generation.cache.prompt": "프롬프트의 행",
    "generation.cache.generated": "생성된 토큰의 행",
    "generation.cache.added": "이 단계에서 추가됨",
    "generation.stop": "멈추기",
    "generation.stopped_early": "첫 토큰 전에 멈췄습니다. 다시 시작하려면 **생성**을 누르세요.",
    "generation.lens": "로짓 렌즈: 층마다의 추측과 헤드마다의 토큰 기여",
    "generation.lens_explain": (
        "**로짓 렌즈**는 각 층 뒤의 잔차 스트림을 마지막 층인 것처럼 최종 정규화와 언임베딩으로 "
        "읽습니다. 칸마다 그 층이 그 위치에서 가장 그럴듯하다고 보는 다음 토큰을 적고, 색은 모델이 "
        "결국 그 위치에서 1위로 두는 토큰에 그 층이 주는 확률입니다. 마지막 행이 모델 자신의 "
        "출력입니다. 아래는 이 단계에서 쓴 토큰의 로짓에 대한 헤드마다의 **직접** 기여입니다. "
        "헤드가 잔차 스트림에 곧바로 더하는 것을 최종 정규화(배율 고정)로 읽은 값이며, 뒤의 층이 "
        "그것으로 하는 일은 들어가지 않습니다."
    ),
    "generation.lens_computing": "모든 층을 언임베딩으로 읽는 중…",
    "generation.lens_title": "{step}단계: 층마다 가장 그럴듯한 다음 토큰(마지막 위치 12개)",
    "generation.heads_title": "{token}의 로짓에 대한 헤드마다의 직접 기여",
    "generation.heads_note": (
        "{token} 쪽으로 가장 직접 쓰는 헤드는 {layer}층 {head}번 헤드입니다(로짓에 +{value}). "
        "헤드를 클릭하면 위에서 그 행을 크게 봅니다."
    ),
    "generation.drew": "새 토큰마다 무엇에 기댔나",
    "generation.drew.help": (
        "새 토큰마다 로그 확률을 프롬프트와 그 앞에 쓴 토큰들에 나누어 주고, 고른 헤드의 "
        "어텐션과 나란히 보입니다. 켤 때 계산합니다. 새 토큰마다 역전파 한 번(통합 그래디언트는 "
        "32개 점)이 듭니다."
    ),
    "generation.drew_explain": (
        "i번째 행은 log p(새 토큰 i | 그 앞의 모든 것)의 **그래디언트 x 입력**입니다. 앞선 "
        "위치마다 입력 임베딩에 그 로그 확률의 그래디언트를 곱해 임베딩 차원으로 더한 값입니다. "
        "양수 칸은 그 토큰을 더 그럴듯하게, 음수 칸은 덜 그럴듯하게 만들었습니다. 옆은 같은 "
        "토큰을 예측한, 고른 헤드의 어텐션 행입니다. 어텐션은 헤드가 어디를 보았는지, "
        "그래디언트는 출력이 무엇에 달려 있었는지를 말하며, 둘이 꼭 같지는 않습니다. 행을 "
        "클릭하면 위에서 그 단계를 보여 줍니다."
    ),
    "generation.method": "기여도",
    "generation.method.gxi": "그래디언트 x 입력",
    "generation.method.ig": "통합 그래디언트(32단계, 더 느림)",
    "generation.normalise": "행마다 정규화",
    "generation.normalise.help": (
        "각 행을 그 행에서 크기가 가장 큰 값으로 나누어, 크기가 매우 다른 행들이 -1에서 1까지 "
        "한 척도를 쓰게 합니다."
    ),
    "generation.drew_computing": "새 토큰 {count}개의 기여도 계산 중:",
    "generation.drew_waiting": "다른 세션의 기여도 계산이 먼저 돕니다(이 세션 앞에 {ahead}개).",
    "generation.drew_resuming": "새 토큰 {count}개 중 남은 {left}개의 기여도 계산 중:",
    "generation.drew_stopped": (
        "멈췄습니다. **새 토큰마다 무엇에 기댔나**를 다시 켜면 이미 계산한 토큰 다음부터 "
        "이어서 계산합니다."
    ),
    "generation.drew_title": "새 토큰마다 로그 확률의 {method}",
    "generation.drew_title_normalised": "{method}, 행마다 크기가 가장 큰 값으로 나눔",
    "generation.drew_attention_title": "{layer}층, {head}번 헤드: 토큰마다 그것을 예측한 행",
    "generation.drew_row": "새 토큰",
    "generation.drew_keys": "앞선 토큰(입력)",
    "generation.drew_hover": "%{customdata}단계(클릭하면 보여 줍니다)<br>가장 큰 값: %{text}",
    "generation.drew_note": (
        "{step}단계에 테두리를 그렸습니다. 빈 칸은 각 토큰의 위치 뒤입니다. 토큰은 자기 앞에 "
        "온 것에만 기댈 수 있습니다."
    ),
}
