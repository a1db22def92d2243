"""Strings of the NLI training page.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "train_nli.nav": "Train NLI",
    "train_nli.tour": (
        "Train the NLI page's decomposable attention model on the shipped pairs or your own "
        "labelled file: live loss and accuracy, one dev pair's alignment sharpening epoch by "
        "epoch, then the model on the NLI page and as a download."
    ),
    "train_nli.title": "Train the NLI model",
    "train_nli.intro": (
        "Attention alignments are learned. Pick the data and the model's size, press **Train**, "
        "and watch the loss fall and the alignment of one dev pair sharpen after every epoch. "
        "The cosine attend step starts soft (sharpness k = 1, every row nearly uniform) and "
        "learns k, and a third more pairs give a hypothesis another pair's premise, labelled "
        "contradiction as SNLI labels a sentence about another scene: only a model that reads "
        "the premise gets those right, so aligning pays. "
        "Training runs in a worker process beside the app, one job at a time per server; the "
        "others wait their turn. The trained model can then give the NLI page its verdicts, "
        "and be downloaded and uploaded again later."
    ),
    "train_nli.data": "Data",
    "train_nli.data.shipped": "The shipped pairs (data/nli)",
    "train_nli.data.upload": "My labelled file",
    "train_nli.upload": (
        "Labelled pairs: SNLI / MultiNLI JSONL or .txt, or CSV with premise, hypothesis, label"
    ),
    "train_nli.upload_help": (
        "A tenth of the file's pairs (at least 10) is held out as the dev split, chosen with a "
        "fixed seed."
    ),
    "train_nli.read": "{name}: {kept} labelled pairs read ({unlabelled} without a label skipped).",
    "train_nli.bad_rows": "{count} rows could not be read; the first: {first}",
    "train_nli.need_upload": "Upload a labelled file, or train on the shipped pairs.",
    "train_nli.settings": "Model and training",
    "train_nli.source": "Token embeddings",
    "train_nli.source.static": "MiniLM static input embeddings (fast)",
    "train_nli.source.contextual": "MiniLM contextual, one layer (MiniLM runs once per sentence)",
    "train_nli.layer": "MiniLM layer whose output F, G and H read (numbered as on the model page)",
    "train_nli.scale": "Scale of e",
    "train_nli.align": "Attend step",
    "train_nli.entropy": (
        "Row entropy of this alignment after each epoch (lower is sharper; {uniform} would be "
        "uniform): {entropies}."
    ),
    "train_nli.hidden": "Hidden size of F, G and H",
    "train_nli.epochs": "Epochs",
    "train_nli.pairs": "Training pairs to use (at most)",
    "train_nli.pairs_help": "At most {static} pairs with static embeddings, {contextual} with contextual.",
    "train_nli.watch": "Dev pair whose alignment is drawn after each epoch",
    "train_nli.caps": (
        "Limits per job: {pairs} training pairs ({contextual} with contextual embeddings), "
        "{epochs} epochs, hidden size {hidden}, {minutes} minutes of wall time."
    ),
    "train_nli.start": "Train",
    "train_nli.cancel": "Cancel",
    "train_nli.queued": "Waiting: {ahead} job(s) ahead of yours in this server's queue.",
    "train_nli.stage.start": "Starting the worker and loading MiniLM…",
    "train_nli.stage.encode": "Encoding the sentences with MiniLM: {done} of {total}",
    "train_nli.stage.train": "Epoch {epoch} of {epochs}: {done} of {total} pairs",
    "train_nli.stage.read": "Reading the pairs…",
    "train_nli.done": "Trained in {seconds} s: best dev accuracy {dev} (epoch {epoch}).",
    "train_nli.cancelled": "The training was cancelled.",
    "train_nli.failed": "The training stopped: {detail}",
    "train_nli.curves": "Loss and accuracy per epoch",
    "train_nli.loss": "training loss",
    "train_nli.train_accuracy": "training accuracy",
    "train_nli.dev_accuracy": "dev accuracy",
    "train_nli.epoch_axis": "epoch",
    "train_nli.accuracy_axis": "accuracy",
    "train_nli.loss_axis": "loss",
    "train_nli.alignment_title": "Alignment after epoch {epoch}: hypothesis token → premise",
    "train_nli.alignment_epoch": "Epoch shown",
    "train_nli.watch_pair": "Watched dev pair: {premise} ||| {hypothesis} ({label})",
    "train_nli.result": "The trained model",
    "train_nli.use": "Use this model on the NLI page (this session)",
    "train_nli.using": "The NLI page now uses the model trained here.",
    "train_nli.download_weights": "Download the weights (.safetensors)",
    "train_nli.download_card": "Download the card (.json)",
    "train_nli.reupload": "Load a model saved earlier",
    "train_nli.reupload_weights": "Weights (.safetensors)",
    "train_nli.reupload_card": "Card (.json)",
    "train_nli.reupload_done": "Loaded {name}: the NLI page can use it in this session.",
    "train_nli.reupload_need_both": "Upload both the .safetensors weights and their .json card.",
    "train_nli.page_link": "Open the NLI page",
    "nli.classifier": "Classifier",
    "nli.classifier.default": "The default checkpoint",
    "nli.classifier.session": "Trained or loaded in this session: {name}",
}

KO: dict[str, str] = {
    "train_nli.nav": "NLI 학습",
    "train_nli.tour": (
        "NLI 페이지의 분해 가능 어텐션 모델을 함께 제공되는 쌍이나 직접 만든 레이블 파일로 "
        "학습합니다. 손실과 정확도가 실시간으로 바뀌고, dev 쌍 하나의 정렬이 에폭마다 또렷해지며, "
        "학습한 모델은 NLI 페이지에서 쓰거나 내려받을 수 있습니다."
    ),
    "train_nli.title": "NLI 모델 학습",
    "train_nli.intro": (
        "어텐션 정렬은 학습되는 것입니다. 데이터와 모델 크기를 고르고 **학습**을 누르면, 손실이 "
        "줄어들고 dev 쌍 하나의 정렬이 에폭마다 또렷해지는 것을 볼 수 있습니다. 코사인 주목 단계는 "
        "부드럽게 시작해(날카로움 k = 1, 모든 행이 거의 균등) k를 학습하며, 학습 쌍의 3분의 1만큼 "
        "가설에 다른 쌍의 전제를 붙이고, SNLI가 다른 장면에 관한 문장을 레이블하듯 모순으로 레이블한 쌍을 더합니다. 전제를 읽는 모델만 이 쌍을 "
        "맞히므로 정렬이 도움이 됩니다. 학습은 앱 옆의 작업자 "
        "프로세스에서 서버당 한 번에 하나씩 실행되며, 다른 작업은 차례를 기다립니다. 학습한 모델은 "
        "NLI 페이지의 판정에 쓸 수 있고, 내려받았다가 나중에 다시 올릴 수 있습니다."
    ),
    "train_nli.data": "데이터",
    "train_nli.data.shipped": "함께 제공되는 쌍(data/nli)",
    "train_nli.data.upload": "내 레이블 파일",
    "train_nli.upload": (
        "레이블이 있는 쌍: SNLI / MultiNLI JSONL 또는 .txt, 또는 premise, hypothesis, label 열이 "
        "있는 CSV"
    ),
    "train_nli.upload_help": (
        "파일의 쌍 중 10분의 1 (최소 10개)을 고정된 시드로 골라 dev 분할로 떼어 둡니다."
    ),
    "train_nli.read": "{name}: 레이블이 있는 쌍 {kept}개를 읽었습니다(레이블이 없는 {unlabelled}행은 건너뜀).",
    "train_nli.bad_rows": "읽을 수 없는 행이 {count}개 있습니다. 첫 번째: {first}",
    "train_nli.need_upload": "레이블 파일을 올리거나, 함께 제공되는 쌍으로 학습하세요.",
    "train_nli.settings": "모델과 학습",
    "train_nli.source": "토큰 임베딩",
    "train_nli.source.static": "MiniLM 정적 입력 임베딩(빠름)",
    "train_nli.source.contextual": "MiniLM 문맥 임베딩, 한 층(문장마다 MiniLM을 한 번 실행)",
    "train_nli.layer": "F, G, H가 읽는 MiniLM 층의 출력(모델 페이지와 같은 번호)",
    "train_nli.scale": "e의 스케일",
    "train_nli.align": "주목(attend) 단계",
    "train_nli.entropy": (
        "에폭마다 이 정렬의 행 엔트로피(낮을수록 날카로움, 균등하면 {uniform}): {entropies}."
    ),
    "train_nli.hidden": "F, G, H의 은닉 크기",
    "train_nli.epochs": "에폭",
    "train_nli.pairs": "사용할 학습 쌍(최대)",
    "train_nli.pairs_help": "정적 임베딩은 최대 {static}쌍, 문맥 임베딩은 최대 {contextual}쌍입니다.",
    "train_nli.watch": "에폭마다 정렬을 그릴 dev 쌍",
    "train_nli.caps": (
        "작업당 한도: 학습 쌍 {pairs}개(문맥 임베딩은 {contextual}개), 에폭 {epochs}번, 은닉 크기 "
        "{hidden}, 실행 시간 {minutes}분."
    ),
    "train_nli.start": "학습",
    "train_nli.cancel": "취소",
    "train_nli.queued": "대기 중: 이 서버의 대기열에서 앞에 작업이 {ahead}개 있습니다.",
    "train_nli.stage.start": "작업자를 시작하고 MiniLM을 불러오는 중…",
    "train_nli.stage.encode": "MiniLM으로 문장을 인코딩하는 중: {total}개 중 {done}개",
    "train_nli.stage.train": "{epochs}에폭 중 {epoch}번째: {total}쌍 중 {done}쌍",
    "train_nli.stage.read": "쌍을 읽는 중…",
    "train_nli.done": "{seconds}초 동안 학습했습니다: 가장 좋은 dev 정확도 {dev} ({epoch}번째 에폭).",
    "train_nli.cancelled": "학습을 취소했습니다.",
    "train_nli.failed": "학습이 멈췄습니다: {detail}",
    "train_nli.curves": "에폭별 손실과 정확도",
    "train_nli.loss": "학습 손실",
    "train_nli.train_accuracy": "학습 정확도",
    "train_nli.dev_accuracy": "dev 정확도",
    "train_nli.epoch_axis": "에폭",
    "train_nli.accuracy_axis": "정확도",
    "train_nli.loss_axis": "손실",
    "train_nli.alignment_title": "{epoch}번째 에폭 후의 정렬: 가설 토큰 → 전제",
    "train_nli.alignment_epoch": "보여 줄 에폭",
    "train_nli.watch_pair": "지켜보는 dev 쌍: {premise} ||| {hypothesis} ({label})",
    "train_nli.result": "학습한 모델",
    "train_nli.use": "이 모델을 NLI 페이지에서 사용(이 세션)",
    "train_nli.using": "이제 NLI 페이지가 여기서 학습한 모델을 씁니다.",
    "train_nli.download_weights": "가중치 내려받기(.safetensors)",
    "train_nli.download_card": "카드 내려받기(.json)",
    "train_nli.reupload": "전에 저장한 모델 불러오기",
    "train_nli.reupload_weights": "가중치(.safetensors)",
    "train_nli.reupload_card": "카드(.json)",
    "train_nli.reupload_done": "{name}을(를) 불러왔습니다. 이 세션의 NLI 페이지에서 쓸 수 있습니다.",
    "train_nli.reupload_need_both": ".safetensors 가중치와 그 .json 카드를 모두 올리세요.",
    "train_nli.page_link": "NLI 페이지 열기",
    "nli.classifier": "분류기",
    "nli.classifier.default": "기본 체크포인트",
    "nli.classifier.session": "이 세션에서 학습하거나 불러온 모델: {name}",
}
