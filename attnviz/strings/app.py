"""Strings of the shell every page shares: navigation, language, presenter mode, errors, downloads,
export, links.

English (EN) and Korean (KO), key for key.
"""

EN: dict[str, str] = {
    "progress.done": "{label} {percent}%",
    "progress.left": "(about {seconds} s left)",
    "app.name": "attnviz",
    "lang.notice_unknown": "Unknown language {lang!r}: showing English.",
    "lang.label": "Language · 언어",
    "present.label": "Presenter mode",
    "present.help": (
        "For a projector: large text and the sidebar folded away (the » button at the top left "
        "opens it again). The page's link keeps it as present=1."
    ),
    "download.csv": "{name} (CSV)",
    "error.compute": "Cannot compute attention: {detail}",
    "error.input": "{what}: {detail}",
    "export.menu_help": "Download this figure as a PNG image or an interactive HTML page.",
    "export.png": "PNG image",
    "export.png_help": (
        "A picture of the figure at twice the screen resolution. It is made when you click, which "
        "takes a few seconds the first time."
    ),
    "export.no_kaleido": (
        "PNG export is not available: the kaleido package is not installed. The HTML and CSV "
        "downloads still work."
    ),
    "export.no_browser": (
        "PNG export is not available: it needs Chromium or Chrome, and neither was found (install "
        "Debian's chromium package, or set BROWSER_PATH to the browser). The HTML and CSV "
        "downloads still work."
    ),
    "export.no_korean_font": (
        "This figure has Korean text, and the server has no Korean font: the PNG is drawn on "
        "the server, so that text would come out as boxes. The server needs one (Debian's "
        "fonts-noto-cjk package); the HTML download keeps the text as text."
    ),
    "export.html": "Interactive HTML",
    "export.html_help": (
        "A standalone web page with the interactive figure (about 5 MB). It opens in any browser, "
        "without an internet connection."
    ),
    "links.bad_values": (
        "The link had values this page cannot use, so their defaults are shown instead: {names}."
    ),
    "links.unknown": "The link had {count} setting(s) this page does not know; they were ignored.",
    "links.moved": (
        "The link's `{name}` = {given} is not one of this control's steps: the nearest step, "
        "{used}, is shown."
    ),
    "links.too_long": (
        "Some typed text is too long for a link ({chars} characters, at most {limit}): a copied "
        "link keeps the other settings. Save the state as a file (Share, below) to pass it on."
    ),
    "links.heading": "Share",
    "links.help": (
        "The address in the browser's address bar opens this view: copy it to share what you see "
        "(seed, sizes, scoring function, masks and the selected query). Typed matrices too long "
        "for a link travel as a state file instead."
    ),
    "links.save": "Save state (JSON)",
    "links.load": "Load a state file",
    "links.loaded": "Loaded the state from {name}.",
    "links.load_error": "{name} is not an attnviz state file: {detail}",
    "links.load_not_json": "it is not JSON text ({detail})",
    "links.load_not_object": "it must hold one JSON object of settings",
    "links.load_bad": "these settings have values this page cannot use: {names}",
    "links.load_too_big": "it has {size} bytes, at most {limit} are allowed",
    "app.failover": (
        "The server this page was on stopped, and you are now on another one. Your settings came "
        "back from the page's link; what a link cannot hold is lost: uploaded files, matrices "
        "loaded from a state file, text too long for a link, and NLI models trained or loaded "
        "in the earlier session."
    ),
    "layers.embeddings": "embeddings",
    "sentences.other": (
        "The boxes hold your own sentences, not this example's: Load example puts its pair back."
    ),
}

KO: dict[str, str] = {
    "progress.done": "{label} {percent}%",
    "progress.left": "(약 {seconds}초 남음)",
    "app.name": "attnviz",
    "lang.notice_unknown": "알 수 없는 언어 {lang!r}: 영어로 표시합니다.",
    "lang.label": "Language · 언어",
    "present.label": "발표 모드",
    "present.help": (
        "프로젝터용입니다: 글씨를 크게 하고 사이드바를 접습니다(왼쪽 위의 » 버튼으로 다시 엽니다). "
        "페이지 링크에는 present=1로 남습니다."
    ),
    "download.csv": "{name} (CSV)",
    "error.compute": "어텐션을 계산할 수 없습니다: {detail}",
    "error.input": "{what}: {detail}",
    "export.menu_help": "이 그림을 PNG 이미지나 인터랙티브 HTML 페이지로 내려받습니다.",
    "export.png": "PNG 이미지",
    "export.png_help": (
        "화면 해상도의 두 배로 만든 그림입니다. 클릭할 때 만들어지며, 처음에는 몇 초 걸립니다."
    ),
    "export.no_kaleido": (
        "PNG 내보내기를 쓸 수 없습니다: kaleido 패키지가 설치되어 있지 않습니다. HTML과 CSV "
        "내려받기는 그대로 쓸 수 있습니다."
    ),
    "export.no_browser": (
        "PNG 내보내기를 쓸 수 없습니다: Chromium이나 Chrome이 필요한데 둘 다 찾지 못했습니다"
        "(Debian의 chromium 패키지를 설치하거나 BROWSER_PATH에 브라우저 경로를 지정하세요). HTML과 "
        "CSV 내려받기는 그대로 쓸 수 있습니다."
    ),
    "export.no_korean_font": (
        "이 그림에는 한국어 텍스트가 있는데 서버에 한국어 글꼴이 없습니다. PNG는 서버에서 그리므로 "
        "그 텍스트가 네모 상자로 나옵니다. 서버에 한국어 글꼴(Debian의 fonts-noto-cjk 패키지)이 "
        "있어야 합니다. HTML 내려받기는 텍스트를 텍스트 그대로 담습니다."
    ),
    "export.html": "인터랙티브 HTML",
    "export.html_help": (
        "인터랙티브 그림이 담긴 독립된 웹 페이지입니다(약 5 MB). 인터넷 연결 없이 어떤 "
        "브라우저에서도 열립니다."
    ),
    "links.bad_values": (
        "링크에 이 페이지에서 쓸 수 없는 값이 있어서 대신 기본값을 보여 줍니다: {names}."
    ),
    "links.unknown": "링크에 이 페이지가 모르는 설정이 {count}개 있어서 무시했습니다.",
    "links.moved": (
        "링크의 `{name}` = {given}: 이 컨트롤에 없는 값이어서 가장 가까운 단계로 바꿔 "
        "보여 줍니다({used})."
    ),
    "links.too_long": (
        "입력한 텍스트가 링크에 담기에는 너무 깁니다({chars}자, 최대 {limit}자). 복사한 링크에는 "
        "나머지 설정만 담깁니다. 텍스트까지 전하려면 아래 공유에서 상태를 파일로 저장하세요."
    ),
    "links.heading": "공유",
    "links.help": (
        "브라우저 주소 표시줄의 주소를 열면 지금 이 화면이 열립니다. 주소를 복사해 지금 보이는 "
        "설정(시드, 크기, 점수 함수, 마스크, 선택한 쿼리)을 공유하세요. 링크에 담기에 너무 긴 "
        "입력 행렬은 상태 파일로 대신 전달합니다."
    ),
    "links.save": "상태 저장(JSON)",
    "links.load": "상태 파일 불러오기",
    "links.loaded": "{name}에서 상태를 불러왔습니다.",
    "links.load_error": "{name}은(는) attnviz 상태 파일이 아닙니다: {detail}",
    "links.load_not_json": "JSON 텍스트가 아닙니다({detail})",
    "links.load_not_object": "설정을 담은 JSON 객체 하나여야 합니다",
    "links.load_bad": "이 설정들에 이 페이지에서 쓸 수 없는 값이 있습니다: {names}",
    "links.load_too_big": "크기가 {size}바이트입니다. 최대 {limit}바이트까지 허용됩니다",
    "app.failover": (
        "이 페이지가 연결되어 있던 서버가 멈춰서 지금은 다른 서버에 연결되었습니다. 설정은 페이지의 "
        "링크에서 되살렸지만, 링크에 담을 수 없는 것은 사라졌습니다: 올린 파일, 상태 파일에서 불러온 "
        "행렬, 링크에 담기에 너무 긴 텍스트, 이전 세션에서 학습하거나 불러온 NLI 모델."
    ),
    "layers.embeddings": "임베딩",
    "sentences.other": "입력란에는 이 예제가 아닌 직접 쓴 문장이 있습니다. 예제 불러오기를 누르면 예제 문장으로 돌아갑니다.",
}
