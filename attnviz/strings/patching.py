"""Strings of the activation patching page.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "patching.nav": "Activation patching",
    "patching.tour": (
        "Which heads and positions carry the answer: a corrupted prompt read with one activation "
        "from the clean run, for every head, layer and position, as the share of the logit "
        "difference it brings back."
    ),
    "patching.title": "Which heads carry the answer: activation patching",
    "patching.intro": (
        "Two prompts of the same length that differ in a word or two: on the clean one the model "
        "prefers the answer, on the corrupted one the wrong answer. The model reads the "
        "corrupted prompt again with one activation, a head's output or the residual stream at "
        "one position, taken from its run on the clean prompt. Each cell is the share of the "
        "logit difference (answer minus wrong answer, at the last position) that this one patch "
        "recovers: 0 is the corrupted run, 1 the clean run (Wang et al. 2022; Meng et al. 2022)."
    ),
    "patching.needs_decoder": (
        "Activation patching reads a causal language model's logits for the next token; {name} "
        "is not one. Pick SmolLM2-135M-Instruct (shipped) in the sidebar, or here:"
    ),
    "patching.example": "Example",
    "patching.example.ioi": "Indirect object: Mary and John",
    "patching.example.paris": "A city: the Eiffel Tower and the Colosseum",
    "patching.look.ioi": (
        "What to look for: the repeated name is the only difference. The residual stream carries "
        "it at the name's position through about two thirds of the layers, then at the last "
        "position; a handful of late heads recover much of the difference on their own."
    ),
    "patching.look.paris": (
        "What to look for: the landmark's tokens. The residual stream recovers the answer there "
        "through about two thirds of the layers, then only at the last position: the fact is "
        "read at the subject and moved to the end late (Meng et al. 2022's causal tracing)."
    ),
    "patching.clean": "Clean prompt",
    "patching.corrupted": "Corrupted prompt",
    "patching.answer": "Answer (one token, its leading space included)",
    "patching.wrong": "Wrong answer (one token)",
    "patching.tokens_title": "The prompts token by token (the differing tokens boxed)",
    "patching.row.clean": "clean",
    "patching.row.corrupted": "corrupted",
    "patching.prompt": "prompt",
    "patching.differs": "a token that differs",
    "patching.same_count": "{count} tokens each; they differ at {positions}.",
    "patching.no_difference": "{count} tokens each, all the same: there is nothing to patch.",
    "patching.other_count": (
        "The clean prompt has {clean} tokens and the corrupted one {corrupted}: patching needs "
        "the same count."
    ),
    "patching.run": "Run",
    "patching.stop": "Stop",
    "patching.running": "Patching {what}",
    "patching.waiting": "Another session's patching runs first ({ahead} ahead of this one).",
    "patching.press": "Press **Run** to patch every head, layer and position.",
    "patching.partial": (
        "Stopped after {done} of {count} grids: the finished ones are below. Press **Run** to "
        "compute them all."
    ),
    "patching.not_finished": "Not finished before Stop: {what}. Press **Run** to compute it.",
    "patching.stopped": "Stopped before the grids were done: press **Run** to start again.",
    "patching.older": (
        "These grids are for the prompts and answers of the last run; press **Run** for the new "
        "ones."
    ),
    "patching.lds": (
        "Logit difference {answer} minus {wrong}: **{clean}** on the clean prompt, "
        "**{corrupted}** on the corrupted one. Each cell below is the share of that gap a patch "
        "recovers: 0 is the corrupted run, 1 the clean run."
    ),
    "patching.heads_title": "Each head's output patched: the share recovered",
    "patching.heads_click": (
        "Click a head to open its attention on the clean prompt in **Model attention**."
    ),
    "patching.site": "Layers x positions",
    "patching.site.residual": "Residual stream",
    "patching.site.attention": "Attention output",
    "patching.site.mlp": "MLP output",
    "patching.title.residual": "The residual stream entering each layer patched",
    "patching.title.attention": "Each layer's attention output patched",
    "patching.title.mlp": "Each layer's MLP output patched",
    "patching.share": "share recovered",
    "patching.top": "Heads in the table",
    "patching.table": "top heads",
    "patching.col.rank": "Rank",
    "patching.col.head": "Head (layer.head)",
    "patching.csv": "Every grid as CSV:",
    "patching.csv.heads": "heads grid",
}

KO: dict[str, str] = {
    "patching.nav": "활성화 패칭",
    "patching.tour": (
        "어느 헤드와 위치가 답을 나르는지: 손상된 프롬프트를 깨끗한 실행의 활성화 하나로 바꿔 "
        "읽고, 모든 헤드, 층, 위치마다 로짓 차이를 얼마나 되찾는지 봅니다."
    ),
    "patching.title": "어느 헤드가 답을 나르는가: 활성화 패칭",
    "patching.intro": (
        "길이가 같고 한두 단어만 다른 두 프롬프트: 깨끗한 프롬프트에서는 모델이 정답을, 손상된 "
        "프롬프트에서는 오답을 더 높게 봅니다. 모델은 손상된 프롬프트를 다시 읽되, 활성화 하나"
        "(헤드의 출력이나 한 위치의 잔차 스트림)를 깨끗한 프롬프트에서의 값으로 바꿉니다. 각 칸은 "
        "이 패치 하나가 되찾는 로짓 차이(마지막 위치에서 정답 빼기 오답)의 비율입니다. 0은 손상된 "
        "실행, 1은 깨끗한 실행입니다(Wang et al. 2022; Meng et al. 2022)."
    ),
    "patching.needs_decoder": (
        "활성화 패칭은 인과 언어 모델이 다음 토큰에 주는 로짓을 읽는데 {name}은(는) 그런 모델이 "
        "아닙니다. 사이드바나 여기에서 SmolLM2-135M-Instruct(기본 제공)를 고르세요:"
    ),
    "patching.example": "예시",
    "patching.example.ioi": "간접 목적어: Mary와 John",
    "patching.example.paris": "도시: 에펠탑과 콜로세움",
    "patching.look.ioi": (
        "볼 곳: 다른 것은 되풀이된 이름뿐입니다. 잔차 스트림은 층의 3분의 2쯤까지는 그 이름의 "
        "위치에서, 그 뒤로는 마지막 위치에서 차이를 나릅니다. 뒤쪽의 몇몇 헤드는 혼자서도 차이의 "
        "상당 부분을 되찾습니다."
    ),
    "patching.look.paris": (
        "볼 곳: 명소의 토큰들. 잔차 스트림은 층의 3분의 2쯤까지 그 위치에서 답을 되찾고, 그 "
        "뒤로는 마지막 위치에서만 되찾습니다. 사실은 주어에서 읽혀 늦게 끝으로 옮겨집니다(Meng "
        "et al. 2022의 인과 추적)."
    ),
    "patching.clean": "깨끗한 프롬프트",
    "patching.corrupted": "손상된 프롬프트",
    "patching.answer": "정답(토큰 하나, 앞 공백 포함)",
    "patching.wrong": "오답(토큰 하나)",
    "patching.tokens_title": "토큰별로 본 두 프롬프트(다른 토큰에 상자)",
    "patching.row.clean": "깨끗한",
    "patching.row.corrupted": "손상된",
    "patching.prompt": "프롬프트",
    "patching.differs": "다른 토큰",
    "patching.same_count": "둘 다 토큰 {count}개이고, {positions}에서 다릅니다.",
    "patching.no_difference": "둘 다 토큰 {count}개이고 모두 같습니다. 패칭할 것이 없습니다.",
    "patching.other_count": (
        "깨끗한 프롬프트는 토큰 {clean}개, 손상된 프롬프트는 {corrupted}개입니다. 패칭에는 같은 "
        "개수가 필요합니다."
    ),
    "patching.run": "실행",
    "patching.stop": "멈추기",
    "patching.running": "패칭 중: {what}",
    "patching.waiting": "다른 세션의 패칭이 먼저 돕니다(이 세션 앞에 {ahead}개).",
    "patching.press": "**실행**을 누르면 모든 헤드, 층, 위치를 패칭합니다.",
    "patching.partial": (
        "격자 {count}개 중 {done}개를 끝내고 멈췄습니다. 끝난 격자만 아래에 보입니다. 모두 "
        "계산하려면 **실행**을 누르세요."
    ),
    "patching.not_finished": "멈추기 전에 끝나지 않았습니다: {what}. 계산하려면 **실행**을 누르세요.",
    "patching.stopped": "격자가 끝나기 전에 멈췄습니다. 다시 하려면 **실행**을 누르세요.",
    "patching.older": (
        "이 격자는 마지막 실행의 프롬프트와 답에 대한 것입니다. 새 입력으로 보려면 **실행**을 "
        "누르세요."
    ),
    "patching.lds": (
        "로짓 차이 {answer} 빼기 {wrong}: 깨끗한 프롬프트에서 **{clean}**, 손상된 프롬프트에서 "
        "**{corrupted}**. 아래 각 칸은 패치 하나가 이 차이를 되찾는 비율입니다. 0은 손상된 실행, "
        "1은 깨끗한 실행입니다."
    ),
    "patching.heads_title": "헤드마다 출력을 패칭: 되찾은 비율",
    "patching.heads_click": (
        "헤드를 클릭하면 깨끗한 프롬프트에서 그 헤드의 어텐션을 **모델의 어텐션**에서 엽니다."
    ),
    "patching.site": "층 x 위치",
    "patching.site.residual": "잔차 스트림",
    "patching.site.attention": "어텐션 출력",
    "patching.site.mlp": "MLP 출력",
    "patching.title.residual": "층마다 들어가는 잔차 스트림을 패칭",
    "patching.title.attention": "층마다 어텐션 출력을 패칭",
    "patching.title.mlp": "층마다 MLP 출력을 패칭",
    "patching.share": "되찾은 비율",
    "patching.top": "표에 넣을 헤드 수",
    "patching.table": "상위 헤드",
    "patching.col.rank": "순위",
    "patching.col.head": "헤드(층.헤드)",
    "patching.csv": "모든 격자를 CSV로:",
    "patching.csv.heads": "헤드 격자",
}
