"""The NLI lesson through AppTest, with the real model (it loads in a few seconds)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from attnviz import nli
from attnviz.app import sentences
from attnviz.lessons.nli import view as nli_view
from attnviz.lessons.nli_batch import view as view_batch
from attnviz.lessons.nli_card import view as view_card
from attnviz.nli.card import Card
from attnviz.nli.checkpoint import DATA_DIR as DATA
from attnviz.transformer.encoder import MAX_TOKENS
from tests.apptest import chart, open_page, texts_of, z_of
from tests.plotly_data import annotation_texts, decode, panel_axis, panel_traces, panel_z

NLI, MODEL = "pages/7_NLI_alignment.py", "pages/8_Model_attention.py"


def alignment(at, name: str) -> tuple[dict, int]:
    """The alignment figure of panels and the panel that draws `name` ("nli_weights", ...):
    with a trained model the page draws six panels, without one three."""
    figure = chart(at, nli_view.ALIGNMENTS_CHART)
    trained = len(figure["layout"]["meta"]["traces"]) == len(nli_view.PANELS[True])
    return figure, nli_view.PANELS[trained][name]


def alignment_z(at, name: str) -> np.ndarray:
    return panel_z(*alignment(at, name))


def ticks(at, name: str, letter: str) -> list[str]:
    """The tick labels of the `letter` axis of the panel that draws `name`."""
    return list(panel_axis(*alignment(at, name), letter)["ticktext"])


def shapes(at, name: str) -> list[dict]:
    """The shapes drawn on the panel that draws `name` (on its axes)."""
    figure, panel = alignment(at, name)
    xaxis = panel_traces(figure, panel)[0].get("xaxis", "x")
    return [s for s in figure["layout"]["shapes"] if s.get("xref") == xaxis]


def test_nli_default_matches_the_backend(encoder):
    at = open_page(NLI)
    tokens_a, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    tokens_b, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    np.testing.assert_allclose(alignment_z(at, "nli_weights"), expected.weights_alpha[0], rtol=1e-4)
    np.testing.assert_allclose(alignment_z(at, "nli_e"), expected.e[0].T, rtol=1e-4, atol=1e-4)
    assert ticks(at, "nli_weights", "y") == tokens_b[0]  # hypothesis rows
    assert ticks(at, "nli_weights", "x") == tokens_a[0]
    # The hard alignment: a box around each row's largest weight.
    boxes = [(round(b["y0"] + 0.5), round(b["x0"] + 0.5)) for b in shapes(at, "nli_weights")]
    best = expected.weights_alpha[0].argmax(dim=-1)
    assert boxes == [(row, int(col)) for row, col in enumerate(best)]
    notes = annotation_texts(chart(at, nli_view.ALIGNMENTS_CHART))
    assert any("hard alignment" in note for note in notes)
    assert "untrained" in texts_of(at)


def test_nli_orientation_toggle_swaps_to_beta(encoder):
    at = open_page(NLI)
    at.toggle(key=nli_view.ROWS.key).set_value(False).run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    np.testing.assert_allclose(alignment_z(at, "nli_weights"), expected.weights_beta[0], rtol=1e-4)
    assert ticks(at, "nli_weights", "y") == ["i", "do", "need", "sleep"]


def test_nli_changed_pair_and_source(encoder):
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input("A cat sleeps").run()
    at.selectbox(key=nli_view.SOURCE.key).set_value("static").run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["A cat sleeps"], source="static")
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"], source="static")
    expected = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    np.testing.assert_allclose(alignment_z(at, "nli_weights"), expected.weights_alpha[0], rtol=1e-4)


@pytest.mark.parametrize(
    ("premise", "message"),
    [("", "is empty"), ("   \n ", "is empty")],
)
def test_nli_empty_sentence_is_an_error(premise, message):
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input(premise).run()
    assert not at.exception
    assert message in at.error[0].value
    assert at.text_area(key=nli_view.PREMISE.key).value == premise


def test_nli_long_korean_emoji_and_html_text():
    at = open_page(NLI)
    at.text_area(key=nli_view.PREMISE.key).input("word " * 2000).run()
    assert not at.exception, [e.value for e in at.exception]
    # Said beside the verdict, which reads only the first pieces.
    captions = " ".join(c.value for c in at.caption)
    assert f"first {MAX_TOKENS} word pieces: the verdict reads only those" in captions
    at.text_area(key=nli_view.PREMISE.key).input("나는 정말 잠이 필요해 🙂").run()
    assert not at.exception and "mean little" in texts_of(at)
    hostile = "<img src=x onerror=alert(1)>"
    at.text_area(key=nli_view.PREMISE.key).input(hostile).run()
    assert not at.exception
    assert all("<img" not in label for label in ticks(at, "nli_weights", "x"))


def test_nli_batch_with_padding_matches_pairs_alone(encoder):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    assert not at.exception, [e.value for e in at.exception]
    pairs = [(p, h) for _, p, h in sentences.PRESETS.values()]
    at.selectbox(key=nli_view.PAIR.key).set_value(1).run()
    premise, hypothesis = pairs[1]
    _, a, lens_a = nli.sentence_embeddings(encoder, [premise])
    _, b, lens_b = nli.sentence_embeddings(encoder, [hypothesis])
    alone = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    np.testing.assert_allclose(alignment_z(at, "nli_weights"), alone.weights_alpha[0], rtol=1e-4)
    assert len(at.dataframe[1].value) == len(pairs)  # [0] is the aligned pairs


def test_nli_batch_bad_line_is_an_error():
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    at.text_area(key=nli_view.BATCH.key).input("a premise without a hypothesis").run()
    assert not at.exception
    assert "Line 1" in at.error[0].value


@pytest.fixture(scope="module")
def trained(encoder):
    return nli.load_classifier(encoder=encoder)


def test_nli_verdict_is_the_trained_classifiers_with_its_card(trained):
    at = open_page(NLI)
    probabilities = trained.predict([("I do need sleep", "I am tired")])[0]
    verdict = next(m for m in at.metric if m.label == "Verdict")
    assert verdict.value == nli.LABELS[int(probabilities.argmax())]
    bars = chart(at, "nli_verdict")["data"][0]
    np.testing.assert_allclose(decode(bars["x"]), probabilities.numpy(), rtol=1e-5)
    card = view_card.card_text(trained.card, 6)
    name, scores = trained.card.headline
    assert name == "snli_test" and f"**{scores.accuracy:.3f}** on SNLI's test set" in card
    assert f"{scores.pairs:,} pairs" in card and f"**{scores.baseline:.3f}**" in card
    assert view_card.source_name(trained.card, 6) in card
    assert any(card in str(m.value) for m in at.markdown)
    captions = " ".join(str(c.value) for c in at.caption)
    assert "SNLI and MultiNLI, each sentence encoded alone as this page encodes them" in captions
    assert "both sentences describe the same scene" in captions
    read = trained.read([("I do need sleep", "I am tired")])
    np.testing.assert_allclose(
        alignment_z(at, "nli_trained_weights"),
        read.alignment.weights_alpha[0],
        rtol=1e-4,
        atol=1e-6,
    )
    np.testing.assert_allclose(alignment_z(at, "nli_trained_e"), read.alignment.e[0].T, rtol=1e-4)


def test_the_textbooks_pair_is_entailment_with_tired_aligned_to_sleep(trained):
    """Murphy's PML1 example, the page's default: the shipped model says entailment, calibrated,
    and in its trained panel "tired" puts most of its weight on "sleep"."""
    at = open_page(NLI)
    verdict = next(m for m in at.metric if m.label == "Verdict")
    assert verdict.value == "entailment"
    captions = " ".join(str(c.value) for c in at.caption)
    assert "The verdict of the shipped model, trained on pairs people wrote for SNLI" in captions
    assert (
        "calibrated on held-out SNLI and MultiNLI dev pairs "
        f"(temperature {trained.temperature:.2f})" in captions
    )
    weights = alignment_z(at, "nli_trained_weights")  # hypothesis rows, premise columns
    rows, cols = ticks(at, "nli_trained_weights", "y"), ticks(at, "nli_trained_weights", "x")
    tired = list(rows).index("tired")
    assert cols[int(np.argmax(weights[tired]))] == "sleep" and weights[tired].max() > 0.5


def test_nli_verdict_follows_the_hypothesis(trained):
    at = open_page(NLI)
    for hypothesis in ("A man is sleeping.", "Nobody is tired at all today."):
        at.text_area(key=nli_view.HYPOTHESIS.key).input(hypothesis).run()
        assert not at.exception, [e.value for e in at.exception]
        probabilities = trained.predict([("I do need sleep", hypothesis)])[0]
        bars = chart(at, "nli_verdict")["data"][0]
        np.testing.assert_allclose(decode(bars["x"]), probabilities.numpy(), rtol=1e-5)


@pytest.mark.parametrize(("scale", "value"), [("none", "none"), ("temperature", 10.0)])
def test_nli_scale_control_divides_e(encoder, scale, value):
    at = open_page(NLI)
    at.selectbox(key=nli_view.SCALE.key).set_value(scale).run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    expected = nli.decomposable_attention(a, b, lens_a, lens_b, scale=value)
    np.testing.assert_allclose(alignment_z(at, "nli_weights"), expected.weights_alpha[0], rtol=1e-4)


LABELLED = (
    "A man sleeps on a bench. ||| A man is awake. ||| contradiction\n"
    "A dog runs across a field. ||| An animal is moving. ||| entailment\n"
    "A woman sings on a stage. ||| The woman is a professional. ||| neutral\n"
    "Two kids play chess. ||| Children are playing a game."
)


def test_nli_batch_with_gold_labels_shows_accuracy_and_confusion(trained):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    at.text_area(key=nli_view.BATCH.key).input(LABELLED).run()
    assert not at.exception, [e.value for e in at.exception]
    pairs, labels = nli.parse_labelled_pairs(LABELLED)
    predicted = trained.predict(pairs).argmax(-1).tolist()
    correct = sum(p == g for p, g in zip(predicted[:3], labels[:3], strict=True))
    accuracy = next(m for m in at.metric if m.label == "Accuracy on the labelled pairs")
    assert accuracy.value == f"{correct / 3:.1%}"
    confusion = z_of(at, "nli_batch_confusion")
    assert confusion.sum() == 3 and np.trace(confusion) == correct
    frame = at.dataframe[1].value
    assert list(frame["gold label"]) == ["contradiction", "entailment", "neutral", ""]
    assert list(frame["verdict"]) == [nli.LABELS[i] for i in predicted]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        (
            "pairs.jsonl",
            b'{"sentence1": "A.", "sentence2": "B.", "gold_label": "maybe"}\n',
            "Line 1",
        ),
        ("pairs.csv", b"premise,hypothesis,label\nA cat.,A pet.,perhaps\n", "perhaps"),
        ("pairs.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text"),
        ("pairs.jsonl", b"\n\n", "no pairs"),
    ],
)
def test_nli_bad_upload_gives_a_message_and_keeps_the_batch(name, data, message):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    at.text_area(key=nli_view.BATCH.key).input(LABELLED).run()
    at.file_uploader(key="nli_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert message in texts_of(at)
    assert at.text_area(key=nli_view.BATCH.key).value == LABELLED


def test_nli_snli_upload_fills_the_batch_with_its_labels(trained):
    at = open_page(NLI)
    at.get("button_group")[0].set_value("batch").run()
    rows = [
        ("A boy kicks a ball.", "A child plays.", "entailment"),
        ("A girl reads.", "She is asleep.", "-"),
        ("A girl reads.", "She is asleep.", "contradiction"),
    ]
    rows = [json.dumps({"sentence1": p, "sentence2": h, "gold_label": g}) for p, h, g in rows]
    data = "\n".join(rows).encode()
    at.file_uploader(key="nli_upload").set_value(("dev.jsonl", data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(str(s.value) for s in at.success)
    assert "Loaded 2 pairs from dev.jsonl. 1 rows without a gold label (-) were skipped." in said
    frame = at.dataframe[1].value
    assert list(frame["gold label"]) == ["entailment", "contradiction"]


def test_nli_compare_chart_is_the_models_and_the_untrained_one_opens_on_request(encoder, trained):
    """The trained model's G outputs and v_A, v_B are drawn; the untrained ones (in a closed
    expander while a trained model is shown) are sent only once it is opened."""
    at = open_page(NLI)
    read = trained.read([("I do need sleep", "I am tired")]).alignment
    panels = chart(at, "nli_trained_compare")["data"]
    expected = (read.compare_a[0], read.compare_b[0], torch.stack([read.v_a[0], read.v_b[0]]))
    for panel, matrix in zip(panels, expected, strict=True):
        np.testing.assert_allclose(decode(panel["z"]), matrix.numpy(), rtol=1e-4, atol=1e-6)
    assert not [c for c in at.get("plotly_chart") if c.proto.id.endswith("-nli_compare")]
    at.session_state["nli_untrained_open"] = True
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    untrained = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    panels = chart(at, "nli_compare")["data"]
    np.testing.assert_allclose(decode(panels[0]["z"]), untrained.compare_a[0], rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(decode(panels[1]["z"]), untrained.compare_b[0], rtol=1e-4, atol=1e-6)


def test_nli_without_a_classifier_shows_the_untrained_steps_alone(monkeypatch, tmp_path):
    """No checkpoint to read: a message instead of the verdict, and the untrained view's
    charts (the hard alignment boxed on its weights, compare and aggregate open) and no other."""
    monkeypatch.setenv("ATTNVIZ_NLI_CHECKPOINT", str(tmp_path / "missing.safetensors"))
    at = open_page(NLI)
    assert not at.exception, [e.value for e in at.exception]
    keys = sorted(c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart"))
    assert keys == ["nli_alignments", "nli_compare"]
    assert "missing.safetensors" in texts_of(at)
    assert chart(at, nli_view.ALIGNMENTS_CHART)["layout"]["meta"]["titles"] == [
        "Alignment scores e",
        "Softmax over each row: Hypothesis token → Premise",
        "Softmax over each column: Premise token → Hypothesis",
    ]
    assert len(shapes(at, "nli_weights")) == 3  # a box per hypothesis token


def untrained_e(encoder, hidden_state: int) -> torch.Tensor:
    """The untrained e of the default pair over MiniLM's hidden state `hidden_state`."""
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"], layer=hidden_state)
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"], layer=hidden_state)
    return nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d").e[0].T


def test_nli_layers_are_numbered_as_on_the_model_page(encoder):
    at = open_page(NLI)
    layer = at.select_slider(key=nli_view.LAYER.key)
    assert layer.options == ["embeddings", "0", "1", "2", "3", "4", "5"]
    assert layer.value == 6  # hidden state 6, the output of layer 5, the last
    np.testing.assert_allclose(
        alignment_z(at, "nli_e"), untrained_e(encoder, 6), rtol=1e-4, atol=1e-4
    )
    layer.set_value(3).run()  # shown as "2": the output of layer 2 is hidden state 3
    assert not at.exception, [e.value for e in at.exception]
    np.testing.assert_allclose(
        alignment_z(at, "nli_e"), untrained_e(encoder, 3), rtol=1e-4, atol=1e-4
    )
    assert set(at.query_params) == {"output"} and at.query_params["output"] == "2"
    at.select_slider(key=nli_view.LAYER.key).set_value(0).run()
    np.testing.assert_allclose(
        alignment_z(at, "nli_e"), untrained_e(encoder, 0), rtol=1e-4, atol=1e-4
    )
    assert at.query_params["output"] == "embeddings"


@pytest.mark.parametrize(
    ("layer", "name"),
    [(6, "MiniLM layer 5's"), (-1, "MiniLM layer 5's"), (1, "MiniLM layer 0's"),
     (-7, "embedding output"), (0, "embedding output"), (None, "MiniLM layer 5's")],
)  # fmt: skip
def test_the_cards_hidden_state_is_named_in_the_model_pages_numbering(layer, name):
    assert name in view_card.card_text(card_of("contextual", layer), 6)
    static = view_card.card_text(card_of("static", None), 6)
    assert "MiniLM's embedding output (before layer 0)" not in static


def card_of(source: str, layer: int | None) -> Card:
    return Card.from_json({
        "format": "attnviz-nli/1", "labels": list(nli.LABELS), "scale": "none", "dropout": 0.2,
        "sizes": {"d": 384, "hidden": 200}, "embedding": {"source": source, "layer": layer},
    })  # fmt: skip


def own_pairs(count: int) -> list[dict[str, str]]:
    """`count` of attnviz's own labelled pairs (test split, then dev), as SNLI's JSONL rows."""
    rows = []
    for name in ("test.jsonl", "dev.jsonl"):
        rows += [json.loads(line) for line in (DATA / name).read_text().splitlines()]
    return rows[:count]


def test_a_scored_file_gives_accuracy_charts_and_the_wrong_pairs(trained):
    rows = own_pairs(1_000)
    data = "\n".join(json.dumps(row) for row in rows).encode()
    at = open_page(NLI)
    at.get("button_group")[0].set_value("file").run()
    assert "Upload a file to score every pair" in texts_of(at)
    at.file_uploader(key=view_batch.UPLOAD).set_value(("dev.jsonl", data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    pairs = [(row["sentence1"], row["sentence2"]) for row in rows]
    gold = torch.tensor([nli.LABELS.index(row["gold_label"]) for row in rows])
    predicted = trained.predict(pairs).argmax(-1)
    right = predicted == gold
    accuracy = next(m for m in at.metric if m.label == "Accuracy on the labelled pairs")
    assert accuracy.value == f"{float(right.float().mean()):.1%}"
    shares = z_of(at, "nli_score_confusion")
    np.testing.assert_allclose(shares.sum(axis=1), np.ones(3), rtol=1e-6)
    per_label = chart(at, "nli_score_labels")["data"][0]
    for k in range(3):
        assert decode(per_label["y"])[k] == pytest.approx(float(right[gold == k].float().mean()))
    wrong = at.dataframe(key=view_batch.WRONG).value
    assert list(wrong["pair"]) == (~right).nonzero().flatten().tolist()
    assert set(wrong["gold label"]) <= set(nli.LABELS) and "verdict" in wrong.columns[:4]
    # the first wrong pair is shown below with its verdict
    first = int(wrong["pair"].iloc[0])
    verdict = next(m for m in at.metric if m.label == "Verdict")
    assert verdict.value == nli.LABELS[int(predicted[first])]
    at.pills(key=view_batch.GOLD).set_value(["neutral"]).run()
    neutral = at.dataframe(key=view_batch.WRONG).value
    assert set(neutral["gold label"]) == {"neutral"}
    assert len(neutral) == int(((~right) & (gold == 1)).sum())


def test_nli_alignments_are_one_figure_the_trained_model_left(encoder, trained):
    """A new hypothesis redraws three charts: the verdict, the six alignment panels (trained
    left, untrained right: weights, e, the other direction down) and the trained compare."""
    at = open_page(NLI)
    keys = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert keys == ["nli_verdict", nli_view.ALIGNMENTS_CHART, "nli_trained_compare"]
    read = trained.read([("I do need sleep", "I am tired")]).alignment
    _, a, lens_a = nli.sentence_embeddings(encoder, ["I do need sleep"])
    _, b, lens_b = nli.sentence_embeddings(encoder, ["I am tired"])
    untrained = nli.decomposable_attention(a, b, lens_a, lens_b, scale="sqrt_d")
    expected = {
        "nli_trained_weights": read.weights_alpha[0], "nli_weights": untrained.weights_alpha[0],
        "nli_trained_e": read.e[0].T, "nli_e": untrained.e[0].T,
        "nli_trained_other": read.weights_beta[0].T, "nli_other": untrained.weights_beta[0].T,
    }  # fmt: skip
    for name, matrix in expected.items():
        np.testing.assert_allclose(alignment_z(at, name), matrix, rtol=1e-4, atol=1e-5)
        assert ticks(at, name, "y") == ["i", "am", "tired"], name
    for name in ("nli_trained_weights", "nli_weights"):
        assert len(shapes(at, name)) == 3, name  # the hard alignment of each model
    figure = chart(at, nli_view.ALIGNMENTS_CHART)
    # The two weights side by side share one colour bar, the right one's.
    bars = [panel_traces(figure, p)[0].get("showscale", True) for p in range(6)]
    assert bars == [False, True, True, True, False, True]
