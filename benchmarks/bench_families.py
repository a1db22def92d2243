"""Every family attnviz reads, against a bare transformers forward, and MiniLM at 512 tokens.

First, tiny random models of each family (tests/families.py, made in a temporary folder): the
median time of `Encoder.encode` (tokens, offsets, every attention, hidden states, a decoder's
next tokens, an encoder-decoder's three attentions) against the bare tokenizer call and forward
with output_attentions=True that it wraps, and their ratio (target: <= 1.2). Then the model page
through AppTest with a 512-token input: the first run (the forward pass), and a redraw for
another head once that pass is cached (target: < 1 s). Run with
`python -m benchmarks.bench_families`.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import torch

from attnviz.transformer.encoder import Encoder
from benchmarks.bench_model import paired_medians
from tests import families

REPEATS = 30
TEXT_A = "The old farmer watched the quick brown fox jump over his lazy dog near the wooden barn."
TEXT_B = "A tired dog slept in the warm sun while an animal ran past the farm without a sound."
TARGET = "The fox jumped over the dog."
LONG = " ".join(["the lorry reversed into the bollard outside the bakery"] * 60)


def bare_forward(encoder: Encoder) -> object:
    """What one would write by hand: tokenize, one forward asking for attentions."""
    inputs = encoder.tokenizer(TEXT_A, TEXT_B, return_tensors="pt")
    if encoder.kind == "encoder-decoder":
        start = int(encoder.model.config.decoder_start_token_id)
        target = encoder.tokenizer(TARGET, add_special_tokens=False)["input_ids"]
        inputs["decoder_input_ids"] = torch.tensor([[start, *target]])
    with torch.inference_mode():
        return encoder.model(**inputs, output_attentions=True)


def families_table() -> None:
    """The attentions (`next_tokens=False`) against the bare forward; for decoders also the
    page's reading, with the top next tokens (a top-k over the vocabulary at each position)."""
    print(f"{'family':>12} {'kind':>16} {'encode ms':>10} {'bare ms':>10} {'ratio':>7}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for name, path in families.make_all(Path(folder)).items():
            encoder = Encoder(path)
            target = TARGET if encoder.kind == "encoder-decoder" else None
            runs = [("", False)] + ([(" +next", True)] if encoder.kind == "decoder" else [])
            for suffix, top in runs:
                ours, theirs = paired_medians(
                    lambda e=encoder, t=target, n=top: e.encode(
                        TEXT_A, TEXT_B, max_length=512, target=t, next_tokens=n
                    ),
                    lambda e=encoder: bare_forward(e),
                    REPEATS,
                )
                if not top:
                    worst = max(worst, ours / theirs)
                print(
                    f"{name + suffix:>12} {encoder.kind:>16} {ours * 1e3:10.2f} "
                    f"{theirs * 1e3:10.2f} {ours / theirs:7.2f}"
                )
    print(f"worst ratio of the attentions: {worst:.2f} (target <= 1.2)")


def long_input_redraw() -> None:
    """The model page with 512 tokens of MiniLM: the forward, then another head's redraw."""
    from streamlit.testing.v1 import AppTest

    from attnviz.lessons.model_controls import view as model_controls

    root = Path(__file__).resolve().parent.parent
    at = AppTest.from_file(str(root / "dashboard.py"), default_timeout=180).run()
    at.switch_page("pages/8_Model_attention.py").run()
    at.text_area(key=model_controls.SENTENCE_A.key).input(LONG)
    timings = []
    for label, action in (
        ("512 tokens: the forward pass", lambda: None),
        (
            "another head (forward cached)",
            lambda: at.selectbox(key=model_controls.HEAD.key).set_value(5),
        ),
        (
            "another layer (forward cached)",
            lambda: at.selectbox(key=model_controls.LAYER.key).set_value(3),
        ),
    ):
        action()
        start = time.perf_counter()
        at.run()
        timings.append((label, time.perf_counter() - start))
        assert not at.exception, [e.value for e in at.exception]
    tokens = [c.value for c in at.caption if c.value.startswith("Tokens (")]
    print(f"model page, MiniLM, {tokens[0]} (target < 1 s once the forward is cached):")
    for label, seconds in timings:
        print(f"{label:>34} {seconds * 1e3:9.0f} ms")


if __name__ == "__main__":
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    families_table()
    long_input_redraw()
