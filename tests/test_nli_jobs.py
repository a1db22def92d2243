"""The NLI training queue with its real worker processes: a small job to the end, cancelling, the
queue order, sessions that end, the wall-time cap, the caps, and no file left behind."""

from __future__ import annotations

import json
import os
import tempfile
import time

import pytest
import torch

from attnviz.errors import InputError
from attnviz.nli import checkpoint as nli_checkpoint
from attnviz.nli import jobs as nli_jobs
from attnviz.nli.jobs import JobQueue, JobSpec
from attnviz.nli.training import TrainConfig
from tests.test_nli_train import TINY

ROWS = [(p, h, ("entailment", "neutral", "contradiction").index(g)) for p, h, g in TINY]


def spec(epochs: int = 2, rows=ROWS * 4, **config) -> JobSpec:
    settings = {"hidden": 16, "dropout": 0.0, "epochs": epochs, "batch_size": 8} | config
    return JobSpec(rows, ROWS, TrainConfig(**settings), watch=1)


def wait(queue: JobQueue, job_id: str, states=("done", "cancelled", "failed"), timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = queue.get(job_id)
        if job is not None and job.state in states:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still {queue.get(job_id).state} after {timeout} s")


def test_a_small_job_runs_to_the_end_in_a_worker(encoder, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"  # the temporary folder of this process and of its worker
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", None)
    queue = JobQueue()
    job = queue.submit("session-a", spec(epochs=3))
    assert job.state in ("queued", "running")
    done = wait(queue, job.id)
    assert done.state == "done", done.error
    assert len(done.loss) == len(done.dev_accuracy) == len(done.alignments) == 3
    premise, hypothesis = done.tokens
    assert premise == encoder.tokenizer.tokenize(ROWS[1][0])
    assert hypothesis == encoder.tokenizer.tokenize(ROWS[1][1])
    weights = torch.tensor(done.alignments[-1])  # (lb, la): each hypothesis token's softmax
    assert weights.shape == (len(hypothesis), len(premise))
    torch.testing.assert_close(weights.sum(-1), torch.ones(len(hypothesis)))
    classifier = nli_checkpoint.classifier_from_bytes(
        done.weights, json.dumps(done.card).encode(), encoder
    )
    read = classifier.read([ROWS[1][:2]])  # the weights kept are the best dev epoch's
    best = torch.tensor(done.alignments[done.card["training"]["best_epoch"]])
    torch.testing.assert_close(read.alignment.weights_alpha[0], best, rtol=1e-4, atol=1e-5)
    assert done.card["data"]["train"]["pairs"] == len(ROWS) * 4
    assert queue.position(job.id) is None
    assert os.listdir(scratch) == []  # the job wrote no file: everything went through the pipe


def test_jobs_wait_in_order_and_cancel_stops_them():
    queue = JobQueue()
    first = queue.submit("session-a", spec(epochs=30, rows=ROWS * 200))
    second = queue.submit("session-b", spec())
    third = queue.submit("session-c", spec())
    wait(queue, first.id, states=("running",))
    assert (queue.position(first.id), queue.position(second.id), queue.position(third.id)) == (
        0,
        1,
        2,
    )
    with pytest.raises(InputError, match="already"):
        queue.submit("session-b", spec())
    queue.cancel(third.id)  # a waiting job leaves the queue at once
    assert queue.get(third.id).state == "cancelled" and queue.position(third.id) is None
    queue.cancel(first.id)  # a running one is stopped
    assert wait(queue, first.id).state == "cancelled"
    assert wait(queue, second.id).state == "done"


def test_a_job_whose_session_ended_is_dropped_and_the_wall_time_cap_stops_a_job():
    alive = {"session-a": True, "session-b": True}
    queue = JobQueue(is_alive=lambda owner: alive.get(owner, False), max_seconds=4)
    long = queue.submit("session-a", spec(epochs=30, rows=ROWS * 400))
    waiting = queue.submit("session-b", spec())
    wait(queue, long.id, states=("running",))
    alive["session-b"] = False
    deadline = time.monotonic() + 10
    while queue.get(waiting.id) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert queue.get(waiting.id) is None and queue.position(waiting.id) is None  # forgotten
    stopped = wait(queue, long.id, timeout=30)
    assert stopped.state == "failed" and "4 s limit" in stopped.error


class SlowToTidy(JobQueue):
    """A queue that takes its time after each worker exits, as a loaded machine does."""

    def _run(self, job):
        super()._run(job)
        time.sleep(3)


def test_a_done_job_is_not_running_while_the_queue_tidies_its_worker():
    queue = SlowToTidy()
    job = queue.submit("session-a", spec(epochs=1))
    done = wait(queue, job.id)
    assert done.state == "done", done.error
    assert queue.position(job.id) is None  # not "running" (0) in the seconds after


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows": ROWS * 4000}, "24000 training pairs: a job may use at most 20000 with static"),
        ({"rows": ROWS * 700, "source": "contextual", "layer": 3}, "at most 4000 with contextual"),
        ({"epochs": 31}, "31 epochs: a job may run 1 to 30"),
        ({"hidden": 401}, "hidden size of 401"),
        ({"rows": []}, "no pairs"),
    ],
)
def test_jobs_over_the_caps_are_refused_before_they_queue(change, message):
    rows = change.pop("rows", ROWS * 4)
    with pytest.raises(InputError, match=message):
        nli_jobs.check_spec(spec(rows=rows, **change))
