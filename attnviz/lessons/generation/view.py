"""The generation lesson below its title: a prompt, the decoding settings, Generate (with a
progress bar), then a step slider: the new token and the 10 most probable at that step, the
attention row that predicted it in every layer and head (thumbnails, one enlarged), and the
key/value cache growing by one row a step."""

from __future__ import annotations

import functools

import plotly.graph_objects as go
import streamlit as st

from attnviz.app import controls, links
from attnviz.app.feedback import markdown_literal, show_error
from attnviz.app.model import MODEL, pick_decoder
from attnviz.app.plot import plot
from attnviz.app.selection import selected_head, store_click
from attnviz.app.state import init_state
from attnviz.figures.heatmap import heatmap
from attnviz.figures.model import model_view, next_token_bars
from attnviz.figures.style import style_layout
from attnviz.i18n import catalogue, t
from attnviz.transformer import models
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.generation import MAX_NEW_TOKENS, Generation, generate
from attnviz.transformer.tokens import readable

DEFAULT_PROMPT = "The cat sat on the mat. The dog sat on the rug. The cat sat on the"
MAX_PROMPT_CHARS = 3_000
DECODINGS = {"greedy": "generation.greedy", "sample": "generation.sample"}
STOPPED = {
    "length": "generation.stopped.length",
    "end": "generation.stopped.end",
    "stopped": "generation.stopped.stopped",
}

PROMPT = controls.text_control("prompt", "generation_prompt", DEFAULT_PROMPT)
CHAT = controls.bool_control("chat", "generation_chat")
NEW = controls.int_control("new", "generation_new", 32, 1, MAX_NEW_TOKENS)
DECODING = controls.choice_control("decoding", "generation_decoding", "greedy", tuple(DECODINGS))
TEMPERATURE = controls.float_control("T", "generation_temperature", 0.8, 0.05, 2.0, step=0.05)
TOP_K = controls.int_control("k", "generation_top_k", 0, 0, 200)
SEED = controls.seed_control("seed", "generation_seed")
STEP = controls.int_control("step", "generation_step", 1, 1, MAX_NEW_TOKENS)
LAYER = controls.int_control("layer", "generation_layer", 0, 0, 63)
HEAD = controls.int_control("head", "generation_head", 0, 0, 63)
LINK: tuple[controls.Control, ...] = (
    MODEL, PROMPT, CHAT, NEW, DECODING, TEMPERATURE, TOP_K, SEED, STEP, LAYER, HEAD,
)  # fmt: skip
RESULT = "generation_result"  # (settings, Generation) of the last run in this session
GRID = "generation_grid"


def _use_smollm2() -> None:
    st.session_state[MODEL.key] = models.SMOLLM2


def settings(model: Encoder) -> tuple[str, int, float, int | None, int]:
    """The prompt as the model reads it (the chat template applied when switched on), and the
    decoding settings."""
    prompt = controls.text_input(
        PROMPT, t("generation.prompt"), area=110, max_chars=MAX_PROMPT_CHARS
    )
    if getattr(model.tokenizer, "chat_template", None):
        chat = controls.toggle(CHAT, t("generation.chat"), help=t("generation.chat.help"))
        if chat:
            with model.tokenizer_lock:
                prompt = str(
                    model.tokenizer.apply_chat_template(
                        [{"role": "user", "content": prompt}],
                        tokenize=False,
                        add_generation_prompt=True,
                    )
                )
    columns = st.columns([2, 2, 2, 2, 2])
    new = int(controls.slider(NEW, t("generation.new"), where=columns[0]))
    decoding = controls.select(
        DECODING, t("generation.decoding"), lambda d: t(DECODINGS[d]), where=columns[1]
    )
    temperature, top_k = 0.0, None
    if decoding == "sample":
        temperature = float(
            controls.number(TEMPERATURE, t("generation.temperature"), where=columns[2])
        )
        k = int(
            controls.number(
                TOP_K, t("generation.top_k"), where=columns[3], help=t("generation.top_k.help")
            )
        )
        top_k = k or None
    seed = int(controls.number(SEED, t("generation.seed"), where=columns[4]))
    return prompt, new, temperature, top_k, seed


def run(
    model: Encoder, prompt: str, new: int, temperature: float, top_k: int | None, seed: int
) -> None:
    """Generate under a progress bar; the result kept in the session."""
    bar = st.progress(0.0, text=t("generation.running", done=0, count=new))

    def progress(done: int, count: int) -> None:
        bar.progress(done / count, text=t("generation.running", done=done, count=count))

    try:
        made = generate(
            model, prompt, max_new_tokens=new, temperature=temperature, top_k=top_k, seed=seed,
            progress=progress,
        )  # fmt: skip
    except ValueError as err:
        bar.empty()
        show_error(err)
        return
    bar.empty()
    st.session_state[RESULT] = (str(model.path), prompt, made)
    st.session_state[STEP.key] = 1


def show_result(model: Encoder, made: Generation) -> None:
    """The text, the step slider, the step's token, top tokens, attention and cache."""
    prompt_labels = readable(
        model.tokenizer.convert_ids_to_tokens(made.prompt_ids), model.token_style
    )
    new_labels = readable(made.tokens, model.token_style)
    shown = "".join(new_labels).replace("␣", " ").replace("↵", "\n")
    st.markdown(t("generation.text", count=len(made.ids), why=t(STOPPED[made.stopped])))
    st.code(shown, language=None, wrap_lines=True)
    count = len(made.steps)
    if not 1 <= int(st.session_state.get(STEP.key) or 1) <= count:
        st.session_state[STEP.key] = 1
    step = int(st.slider(t("generation.step"), 1, count, key=STEP.key)) if count > 1 else 1
    chosen = made.steps[step - 1]
    keys = [*prompt_labels, *new_labels[: step - 1]]
    text = catalogue()
    layer = _clamped(LAYER.key, model.num_layers)
    head = _clamped(HEAD.key, model.num_heads)
    st.caption(
        t(
            "generation.step_note",
            step=step,
            token=markdown_literal(new_labels[step - 1]),
            position=len(keys) - 1,
            previous=markdown_literal(keys[-1]),
            prob=f"{next((p for i, _, p in chosen.top if i == chosen.token_id), 0.0):.1%}",
        )
    )
    left, right = st.columns([3, 2])
    with left:
        row = chosen.attention[layer, head][None]  # (1, S)
        title = t("generation.row_title", layer=layer, head=head, token=new_labels[step - 1])
        figure = heatmap(
            row, title=title, kind="weights", text=text, row_labels=[keys[-1]],
            col_labels=keys, row_name=t("model.queries"), col_name=t("model.keys"),
            x_title=t("model.keys"), show_numbers=False,
        )  # fmt: skip
        plot(figure, key="generation_row")
    with right:
        tokens = readable([p for _, p, _ in chosen.top], model.token_style)
        probs = [p for _, _, p in chosen.top]
        plot(
            next_token_bars(tokens, probs, t("generation.top_title", step=step), text),
            key="generation_top",
        )
    grid = model_view(
        chosen.attention[:, :, None, :], text, selectable=True,
        title=t("generation.grid_title", step=step),
    )  # fmt: skip
    on_click = functools.partial(store_click, GRID, (LAYER.key, HEAD.key), selected_head)
    plot(grid, key=GRID, on_select=on_click)
    st.caption(t("generation.grid_click", layer=layer, head=head))
    plot(cache_figure(made, step, model), key="generation_cache")


def cache_figure(made: Generation, step: int, model: Encoder) -> go.Figure:
    """The key/value cache's size after each step, the chosen one marked."""
    sizes = [s.cache_bytes / 1e6 for s in made.steps]
    steps = list(range(1, len(sizes) + 1))
    layout = style_layout(t("generation.cache_title", layers=model.num_layers), height=300, top=60)
    layout.update(
        xaxis={"title": {"text": t("generation.step")}},
        yaxis={"title": {"text": "MB"}, "rangemode": "tozero"},
        plot_bgcolor="white",
        showlegend=False,
    )
    traces = [
        go.Scatter(
            x=steps, y=sizes, mode="lines+markers", hovertemplate="%{x}: %{y:.3f} MB<extra></extra>"
        ),
        go.Scatter(
            x=[step],
            y=[sizes[step - 1]],
            mode="markers",
            marker={"size": 14, "color": "#d62728"},
            hoverinfo="skip",
        ),
    ]
    return go.Figure(traces, layout)


def _clamped(key: str, count: int) -> int:
    value = int(st.session_state.get(key) or 0)
    if not 0 <= value < count:
        st.session_state[key] = value = 0
    return value


def show() -> None:
    links.restore_link(LINK, page="generation")
    for control in LINK:
        init_state(control.key, control.default)
    model = pick_decoder()
    links.publish_link(LINK)
    if model is None or model.kind != "decoder":
        name = "all-MiniLM-L6-v2" if model is None else model.name
        st.info(t("generation.needs_decoder", name=name))
        st.button(t("generation.use_smollm2"), on_click=_use_smollm2, icon=":material/swap_horiz:")
        return
    with st.sidebar:
        st.selectbox(t("model.layer"), range(model.num_layers), key=LAYER.key)
        st.selectbox(t("model.head"), range(model.num_heads), key=HEAD.key)
    prompt, new, temperature, top_k, seed = settings(model)
    if st.button(t("generation.go"), type="primary", icon=":material/play_arrow:"):
        run(model, prompt, new, temperature, top_k, seed)
    kept = st.session_state.get(RESULT)
    if kept and kept[0] == str(model.path):
        if kept[1] != prompt:
            st.caption(t("generation.older"))
        show_result(model, kept[2])
    else:
        st.info(t("generation.press"))
    links.share_panel(LINK, key="generation")
