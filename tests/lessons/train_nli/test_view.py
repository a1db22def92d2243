"""The training page through AppTest, with real jobs in worker processes: a small job to the
end, cancel, the queue, bad uploads, the model on the NLI page, a model loaded again."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from attnviz.app import jobs
from attnviz.lessons.nli import view as nli_view
from attnviz.lessons.train_nli import view
from attnviz.nli import jobs as nli_jobs
from attnviz.nli.training import TrainConfig
from tests.apptest import chart, open_page, texts_of
from tests.test_nli_train import TINY

TRAIN, NLI = "pages/9_Train_NLI.py", "pages/7_NLI_alignment.py"


def small(at):
    at.number_input(key=view.PAIRS.key).set_value(60).run()
    at.slider(key=view.EPOCHS.key).set_value(2).run()
    at.number_input(key=view.HIDDEN.key).set_value(16).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def run_until(at, done, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        if done(at):
            return at
    raise AssertionError(texts_of(at))


def finished(at) -> bool:
    return any("Trained in" in str(s.value) for s in at.success)


def test_a_small_job_trains_with_progress_and_serves_the_nli_page():
    at = small(open_page(TRAIN))
    at.button(key="train_start").click().run()
    assert at.get("progress") or "Waiting" in texts_of(at)  # the job's progress element
    run_until(at, finished)
    curves = chart(at, "train_curves")["data"]
    assert [len(trace["x"]) for trace in curves] == [2, 2, 2]
    alignment = chart(at, "train_alignment")
    assert alignment["layout"]["title"]["text"].startswith("Alignment after epoch")
    job = jobs.queue().get(at.session_state[view.JOB])
    assert job.state == "done" and len(job.loss) == 2
    name = f"trained-{job.id[:6]}"
    # Offered, not swapped in: the NLI page keeps the shipped model until the person chooses.
    assert jobs.MODEL_CHOICE not in at.session_state or not at.session_state[jobs.MODEL_CHOICE]
    at.switch_page(NLI).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=jobs.MODEL_CHOICE).value == ""
    assert name in at.selectbox(key=jobs.MODEL_CHOICE).options[1]
    at.switch_page(TRAIN).run()
    at.button(key="train_use").click().run()
    assert at.session_state[jobs.MODEL_CHOICE] == name
    at.switch_page(NLI).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key=jobs.MODEL_CHOICE).value == name
    from attnviz.app.model import _load_encoder
    from attnviz.nli.checkpoint import classifier_from_bytes

    card = json.dumps(job.card, indent=1, ensure_ascii=False).encode()
    trained = classifier_from_bytes(job.weights, card, _load_encoder())
    expected = trained.predict([(nli_view._PREMISE, nli_view._HYPOTHESIS)])[0]
    from tests.plotly_data import decode

    bars = decode(chart(at, "nli_verdict")["data"][0]["x"])
    np.testing.assert_allclose(bars, expected.numpy(), rtol=1e-5)
    at.selectbox(key=jobs.MODEL_CHOICE).set_value("").run()  # back to the default checkpoint
    assert not at.exception


def test_cancel_stops_the_job_and_the_page_stays_usable():
    at = open_page(TRAIN)
    at.number_input(key=view.PAIRS.key).set_value(4000).run()
    at.slider(key=view.EPOCHS.key).set_value(30).run()
    at.button(key="train_start").click().run()
    run_until(at, lambda at: any("Epoch" in p.proto.text for p in at.get("progress")))
    at.button(key="train_cancel").click().run()
    run_until(at, lambda at: "cancelled" in texts_of(at))
    assert jobs.queue().get(at.session_state[view.JOB]).state == "cancelled"
    small(at).button(key="train_start").click().run()  # usable: a new job starts
    run_until(at, finished)


def test_a_second_job_waits_in_the_queue_with_its_place():
    other = nli_jobs.JobSpec(
        [(p, h, 0) for p, h, _ in TINY] * 600, [(p, h, 0) for p, h, _ in TINY],
        TrainConfig(hidden=16, epochs=30),
    )  # fmt: skip
    first = jobs.queue().submit("another-session", other)
    try:
        at = small(open_page(TRAIN))
        at.button(key="train_start").click().run()
        assert "Waiting: 0 job(s) ahead" in texts_of(at) or "Waiting: 1" in texts_of(at)
        run_until(at, lambda at: jobs.queue().position(at.session_state[view.JOB]) == 1)
        assert "Waiting: 0 job(s) ahead of yours" in texts_of(at)
    finally:
        jobs.queue().cancel(first.id)
    run_until(at, finished)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("pairs.csv", b"sentence1,sentence2\nA.,B.\n", "needs the columns premise, hypothesis"),
        ("pairs.jsonl", b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8 text"),
        ("pairs.jsonl", b'{"sentence1": "A.", "sentence2": "B.", "gold_label": "neutral"}\n',
         "at least 20"),
    ],
)  # fmt: skip
def test_bad_uploads_give_a_message_and_keep_the_page(name, data, message):
    at = open_page(TRAIN)
    at.slider(key=view.EPOCHS.key).set_value(7).run()
    at.get("button_group")[0].set_value("upload").run()
    at.file_uploader(key=view.UPLOAD).set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert message in texts_of(at)
    assert at.session_state[view.EPOCHS.key] == 7


def test_an_uploaded_file_is_split_and_a_saved_model_loads_again(tmp_path):
    rows = [json.dumps({"sentence1": f"{p} ({i})", "sentence2": h, "gold_label": g})
            for i in range(5) for p, h, g in TINY]  # fmt: skip
    at = open_page(TRAIN)
    at.get("button_group")[0].set_value("upload").run()
    data = "\n".join(rows).encode()
    at.file_uploader(key=view.UPLOAD).set_value(("mine.jsonl", data, "text/plain")).run()
    said = " ".join(str(s.value) for s in at.success).replace("\\", "")
    assert "mine.jsonl: 30 labelled pairs read (0 without a label skipped)" in said
    assert at.selectbox(key=view.WATCH.key).value == 0  # its dev split has 10 pairs, not 34
    weights, card = saved_model()
    at.file_uploader(key="train_reupload_weights").set_value(
        ("saved.safetensors", weights, "x")
    ).run()
    at.file_uploader(key="train_reupload_card").set_value(("saved.json", card, "x")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert "Loaded saved" in " ".join(str(s.value) for s in at.success)
    assert "saved" in at.session_state[jobs.SESSION_MODELS]
    at.file_uploader(key="train_reupload_card").set_value(("bad.json", b"{}", "x")).run()
    assert "not an attnviz NLI checkpoint" in texts_of(at)


def saved_model() -> tuple[bytes, bytes]:
    """A small model's weights and card, as the page's download buttons give them."""
    from attnviz.nli import checkpoint, training
    from attnviz.transformer.encoder import load_encoder

    config = training.TrainConfig(hidden=8)
    model = training.model_for(config, 384)
    history = training.History(loss=[1.0], train_accuracy=[0.5], dev_accuracy=[0.5])
    return checkpoint.to_bytes(model, training.card(config, load_encoder(), history, {}, None))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("snli_test.csv", "gold_label,sentence1,sentence2\n{rows}"),
        ("mnli_dev.txt", "index\tpremise\thypothesis\tgold_label\n{rows}"),
    ],
)
def test_a_real_sets_own_format_is_read_for_training(name, data):
    """SNLI's test CSV and the MultiNLI dev file HANS ships, in their own columns."""
    separator = "," if name.endswith(".csv") else "\t"
    rows = [
        separator.join([g, f"{p} ({i})", h] if separator == "," else [str(i), f"{p} ({i})", h, g])
        for i in range(5)
        for p, h, g in TINY
    ]
    at = open_page(TRAIN)
    at.get("button_group")[0].set_value("upload").run()
    text = data.format(rows="\n".join(rows)).encode()
    at.file_uploader(key=view.UPLOAD).set_value((name, text, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    said = " ".join(str(s.value) for s in at.success).replace("\\", "")
    assert f"{name}: 30 labelled pairs read" in said
