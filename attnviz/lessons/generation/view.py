"""The generation lesson below its title: a prompt, the decoding settings, Generate (with a
progress bar), then a step slider: the new token and the 10 most probable at that step, the
attention row that predicted it in every layer and head (thumbnails, one enlarged), and the
key/value cache growing by one row a step; on a switch, what each new token drew on (its
attribution over the tokens before it, one at a time per server, with a Stop button) beside the
chosen head's rows."""

from __future__ import annotations

import functools
import time

import streamlit as st

from attnviz.app import cache, controls, links
from attnviz.app.feedback import markdown_literal, progress_text, show_error
from attnviz.app.model import MODEL, decoder_page
from attnviz.app.plot import plot
from attnviz.app.selection import selected_head, store_click
from attnviz.figures.heatmap import heatmap
from attnviz.figures.model import next_token_bars
from attnviz.i18n import catalogue, t
from attnviz.lessons.generation.compute import probability_text
from attnviz.lessons.generation.figures import (
    cache_figure,
    head_logits_figure,
    heads_rows_figure,
    lens_figure,
)
from attnviz.lessons.generation_drew.view import DREW, DREW_ROW, METHOD, NORMALISE, show_drew_on
from attnviz.transformer import lens
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
RESULT = "generation_result"  # (settings, Generation) of the last run in this session
GRID = "generation_grid"
HEADS_GRID = "generation_heads"
GO = "generation_go"  # the Generate button
REQUEST = "generation_request"  # Generate pressed, not yet started
HALTED = "generation_halted"  # Stop pressed: the running generation keeps no more tokens
LENS_OPEN = "generation_lens_open"
LENS_POSITIONS = 12  # the last positions the lens reads
LINK: tuple[controls.Control, ...] = (
    MODEL, PROMPT, CHAT, NEW, DECODING, TEMPERATURE, TOP_K, SEED, STEP, LAYER, HEAD, DREW,
    METHOD, NORMALISE,
)  # fmt: skip


def _request() -> None:
    st.session_state[REQUEST] = True
    st.session_state[HALTED] = False


def _stop() -> None:
    st.session_state[HALTED] = True


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
    """Generate under a progress bar, with a Stop button; the result kept in the session.
    Each token is kept as it comes: a click on Stop reruns the page, which shows the tokens
    so far, and this run, interrupted at its next bar update, keeps no more after it."""
    st.session_state[STEP.key] = 1
    stop = st.empty()
    stop.button(t("generation.stop"), key="generation_stop", icon=":material/stop:", on_click=_stop)
    bar = st.progress(0.0, text=t("generation.running", done=0, count=new))

    def stopped() -> bool:
        return bool(st.session_state.get(HALTED))

    def keep(so_far: Generation) -> None:
        if not stopped():
            st.session_state[RESULT] = (str(model.path), prompt, so_far)

    started = time.monotonic()

    def progress(done: int, count: int) -> None:
        label = t("generation.running", done=done, count=count)
        text = progress_text(label, done / count, time.monotonic() - started)
        bar.progress(done / count, text=text)

    try:
        made = generate(
            model, prompt, max_new_tokens=new, temperature=temperature, top_k=top_k, seed=seed,
            progress=progress, on_token=keep, stop=stopped,
        )  # fmt: skip
    except ValueError as err:
        show_error(err)
        return
    finally:
        bar.empty()
        stop.empty()
    st.session_state[RESULT] = (str(model.path), prompt, made)


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
    step = _step_slider(count)
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
            prob=probability_text(chosen.probability),
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
        tokens = [model.readable_piece(i) for i, _, _ in chosen.top]  # alternatives, each alone
        probs = [p for _, _, p in chosen.top]
        plot(
            next_token_bars(tokens, probs, t("generation.top_title", step=step), text),
            key="generation_top",
        )
    grid = heads_rows_figure(
        chosen.attention, keys, t("generation.grid_title", step=step), (layer, head), text
    )
    on_click = functools.partial(store_click, GRID, (LAYER.key, HEAD.key), selected_head)
    plot(grid, key=GRID, on_select=on_click)
    st.caption(t("generation.grid_click", layer=layer, head=head))
    total = len(made.prompt_ids) + len(made.steps) - 1
    cached = cache_figure(
        len(made.prompt_ids), total, step, model.num_layers, chosen.cache_bytes, text
    )
    plot(cached, key="generation_cache")
    show_drew_on(model, made, [*prompt_labels, *new_labels], step, (layer, head))
    show_lens(model, made, step, (layer, head))


@cache.results
def read_lens(model_path: str, ids: tuple[int, ...], target: int, _model: Encoder) -> lens.Lens:
    """The logit lens over the last positions of `ids`, with each head's part of `target`."""
    return lens.logit_lens(_model, list(ids), positions=LENS_POSITIONS, target=target)


def show_lens(model: Encoder, made: Generation, step: int, selected: tuple[int, int]) -> None:
    """Step `step`'s logit lens and each head's direct part of its token's logit (in a folded
    expander: drawn only when open)."""
    box = st.expander(t("generation.lens"), key=LENS_OPEN, on_change="rerun")
    with box:
        if not box.open:
            return
        st.markdown(t("generation.lens_explain"))
        chosen = made.steps[step - 1]
        ids = (*made.prompt_ids, *made.ids[: step - 1])
        try:
            with st.spinner(t("generation.lens_computing")):
                read = read_lens(str(model.path), ids, chosen.token_id, model)
        except ValueError as err:
            show_error(err)
            return
        labels = readable(
            model.tokenizer.convert_ids_to_tokens([ids[i] for i in read.positions]),
            model.token_style,
        )
        pieces = [
            [[model.readable_piece(int(i)) for i in cell] for cell in row] for row in read.top_ids
        ]
        text = catalogue()
        plot(lens_figure(read, labels, pieces, step, text), key="generation_lens")
        token = model.readable_piece(chosen.token_id)
        on_click = functools.partial(store_click, HEADS_GRID, (LAYER.key, HEAD.key), selected_head)
        plot(head_logits_figure(read, token, selected, text), key=HEADS_GRID, on_select=on_click)
        assert read.head_logits is not None
        best = divmod(int(read.head_logits.argmax()), model.num_heads)
        st.caption(
            t(
                "generation.heads_note",
                token=markdown_literal(token),
                layer=best[0],
                head=best[1],
                value=f"{float(read.head_logits.max()):.2f}",
            )
        )


def _step_slider(count: int) -> int:
    """The step slider (1 .. `count`), moved first to the row a click on the attribution chart
    picked: its state is set before the slider is drawn, as Streamlit allows."""
    clicked = st.session_state.pop(DREW_ROW, None)
    if clicked is not None:
        st.session_state[STEP.key] = int(clicked) + 1
    if not 1 <= int(st.session_state.get(STEP.key) or 1) <= count:
        st.session_state[STEP.key] = 1
    return int(st.slider(t("generation.step"), 1, count, key=STEP.key)) if count > 1 else 1


def _clamped(key: str, count: int) -> int:
    value = int(st.session_state.get(key) or 0)
    if not 0 <= value < count:
        st.session_state[key] = value = 0
    return value


def show() -> None:
    model = decoder_page(LINK, "generation", "generation.needs_decoder")
    if model is None:
        return
    with st.sidebar:
        st.selectbox(t("model.layer"), range(model.num_layers), key=LAYER.key)
        st.selectbox(t("model.head"), range(model.num_heads), key=HEAD.key)
    prompt, new, temperature, top_k, seed = settings(model)
    st.button(
        t("generation.go"), type="primary", icon=":material/play_arrow:", on_click=_request, key=GO
    )
    # Taken at once: a run that Stop interrupts does not leave a press behind to start again.
    if st.session_state.pop(REQUEST, False):
        run(model, prompt, new, temperature, top_k, seed)
    kept = st.session_state.get(RESULT)
    if kept and kept[0] == str(model.path):
        if kept[1] != prompt:
            st.caption(t("generation.older"))
        show_result(model, kept[2])
    elif st.session_state.get(HALTED):
        st.info(t("generation.stopped_early"))
    else:
        st.info(t("generation.press"))
    links.share_panel(LINK, key="generation")
