"""Training jobs for the NLI classifier, run outside the Streamlit script thread.

A server has one JobQueue. It runs at most one job at a time, each in its own worker process
(spawned, with one torch thread), so a shared server stays responsive while someone trains:
the script threads keep the other core. The other jobs wait in order and can read their place
in the queue. A job is stopped when its owner cancels it, when its owner's session has ended,
or when it runs longer than the wall-time cap. Its data, its progress and its result travel
through a pipe and stay in memory: no temporary file is ever written, so none can be left
behind.

The worker streams what the page draws: the stage and its progress, after each epoch the loss
and the accuracies and the alignment of one chosen dev pair (so the learning shows in the
attention itself), and at the end the weights (safetensors) and the card.
"""

from __future__ import annotations

import math
import multiprocessing
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from attnviz.errors import InputError

MAX_PAIRS = 20_000  # training pairs a job may use (static embeddings)
MAX_CONTEXTUAL_PAIRS = 4_000  # with contextual embeddings: MiniLM runs once per sentence
MAX_DEV_PAIRS = 2_000
MAX_EPOCHS = 30
MAX_HIDDEN = 400
MAX_SECONDS = 600  # wall time a job may run, from its start
MAX_WAITING = 8  # jobs waiting behind the running one
KEEP_SECONDS = 3600  # a finished job stays readable this long
PROGRESS_EVERY = 0.25  # seconds between two progress messages from the worker

Row = tuple[str, str, int]  # premise, hypothesis, label index in LABELS


@dataclass(frozen=True)
class JobSpec:
    """What a job trains on and how."""

    train: Sequence[Row]
    dev: Sequence[Row]
    config: Any  # attnviz.nli.training.TrainConfig (not imported here: torch loads in the worker)
    watch: int = 0  # the dev pair whose alignment is sent after every epoch
    data: dict[str, Any] = field(default_factory=dict)  # the card's data section


@dataclass
class Job:
    """One training job as the page reads it (a snapshot: see JobQueue.get)."""

    id: str
    owner: str
    spec: JobSpec
    state: str = "queued"  # queued, running, done, cancelled, failed
    stage: str = ""  # start, read, encode, train
    done: int = 0
    total: int = 0
    epoch: int = 0  # epochs finished
    loss: list[float] = field(default_factory=list)
    train_accuracy: list[float] = field(default_factory=list)
    dev_accuracy: list[float] = field(default_factory=list)
    tokens: tuple[list[str], list[str]] = ([], [])  # the watched pair: premise, hypothesis
    alignments: list[list[list[float]]] = field(default_factory=list)  # per epoch (lb, la)
    weights: bytes | None = None  # safetensors, when done
    card: dict[str, Any] | None = None
    error: str = ""  # why it failed or was stopped
    submitted: float = field(default_factory=time.time)
    started: float = 0.0
    finished: float = 0.0

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")


def check_spec(spec: JobSpec) -> None:
    """An InputError for a job over the caps, before it is queued."""
    config = spec.config
    limit = MAX_CONTEXTUAL_PAIRS if config.source == "contextual" else MAX_PAIRS
    if not spec.train:
        raise InputError("pairs_empty")
    if len(spec.train) > limit:
        raise InputError("job_pairs", found=len(spec.train), limit=limit, source=config.source)
    if not spec.dev or len(spec.dev) > MAX_DEV_PAIRS:
        raise InputError("job_dev", found=len(spec.dev), limit=MAX_DEV_PAIRS)
    if not 1 <= config.epochs <= MAX_EPOCHS:
        raise InputError("job_epochs", found=config.epochs, limit=MAX_EPOCHS)
    if not 1 <= config.hidden <= MAX_HIDDEN:
        raise InputError("job_hidden", found=config.hidden, limit=MAX_HIDDEN)
    if not 0 <= spec.watch < len(spec.dev):
        raise InputError("job_watch", found=spec.watch + 1, limit=len(spec.dev))


class JobQueue:
    """Jobs in order, one running at a time in a worker process; safe across script threads.

    `is_alive(owner)` says whether the session that submitted a job still exists: a job whose
    owner is gone is dropped (waiting) or stopped (running).
    """

    def __init__(
        self,
        is_alive: Callable[[str], bool] | None = None,
        max_seconds: float = MAX_SECONDS,
        worker: Callable[..., None] | None = None,
    ) -> None:
        self._is_alive = is_alive or (lambda owner: True)
        self._max_seconds = max_seconds
        self._worker = worker or work
        self._lock = threading.Lock()
        self._jobs: dict[str, Job] = {}
        self._waiting: deque[str] = deque()
        self._running: str | None = None
        self._stop: set[str] = set()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="attnviz-nli-jobs", daemon=True)
        self._thread.start()

    def submit(self, owner: str, spec: JobSpec) -> Job:
        """Queue a job (InputError over a cap, when the owner has one queued or running, or
        when the queue is full)."""
        check_spec(spec)
        with self._lock:
            if any(job.owner == owner and job.active for job in self._jobs.values()):
                raise InputError("job_one_each")
            if len(self._waiting) >= MAX_WAITING:
                raise InputError("job_queue_full", limit=MAX_WAITING)
            job = Job(uuid.uuid4().hex[:12], owner, spec)
            self._jobs[job.id] = job
            self._waiting.append(job.id)
        self._wake.set()
        return self.get(job.id) or job

    def get(self, job_id: str) -> Job | None:
        """A copy of the job as it is now (None when unknown or forgotten)."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                return None
            return replace(
                job,
                loss=list(job.loss),
                train_accuracy=list(job.train_accuracy),
                dev_accuracy=list(job.dev_accuracy),
                alignments=list(job.alignments),
            )

    def position(self, job_id: str) -> int | None:
        """0 while running, k while k - 1 jobs wait ahead of it, None when neither."""
        with self._lock:
            if job_id == self._running:
                return 0
            if job_id in self._waiting:
                return self._waiting.index(job_id) + 1
            return None

    def cancel(self, job_id: str) -> None:
        """Stop a running job, or take a waiting one out of the queue."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None or not job.active:
                return
            if job_id in self._waiting:
                self._waiting.remove(job_id)
                self._finish(job, "cancelled")
            else:
                self._stop.add(job_id)
        self._wake.set()

    def forget(self, job_id: str) -> None:
        """Drop a finished job and its weights."""
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None and not job.active:
                del self._jobs[job_id]

    def _finish(self, job: Job, state: str, error: str = "") -> None:
        """Called under the lock: a finished job is neither running nor waiting, even while its
        worker process is still being joined."""
        job.state, job.error, job.finished = state, error, time.time()
        if self._running == job.id:
            self._running = None

    def _tidy(self) -> None:
        """Drop the jobs of sessions that have ended and finished jobs past KEEP_SECONDS."""
        with self._lock:
            jobs = list(self._jobs.values())
        gone = {job.owner for job in jobs if not self._is_alive(job.owner)}
        now = time.time()
        with self._lock:
            for job in jobs:
                if job.owner in gone and job.id in self._waiting:
                    self._waiting.remove(job.id)
                    self._finish(job, "cancelled", "session ended")
                if job.owner in gone and job.id == self._running:
                    self._stop.add(job.id)
                if not job.active and (job.owner in gone or now - job.finished > KEEP_SECONDS):
                    self._jobs.pop(job.id, None)

    def _loop(self) -> None:
        while True:
            self._wake.wait(timeout=1.0)
            self._wake.clear()
            self._tidy()
            with self._lock:
                job_id = self._waiting.popleft() if self._waiting else None
                self._running = job_id
                job = self._jobs.get(job_id) if job_id else None
                if job is not None:
                    job.state, job.started, job.stage = "running", time.time(), "start"
            if job is not None:
                try:
                    self._run(job)
                except Exception as err:  # the queue must outlive any one job
                    with self._lock:
                        self._finish(job, "failed", f"{type(err).__name__}: {err}")
                with self._lock:
                    self._running = None
                    self._stop.discard(job.id)
                self._wake.set()

    def _run(self, job: Job) -> None:
        context = multiprocessing.get_context("spawn")
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=self._worker, args=(job.spec, send), daemon=True)
        process.start()
        send.close()
        try:
            self._follow(job, process, receive)
        finally:
            if process.is_alive():
                process.kill()
            process.join(timeout=10)
            receive.close()

    def _follow(self, job: Job, process: Any, receive: Any) -> None:
        """Read the worker's messages until it finishes, fails, or must be stopped."""
        while True:
            with self._lock:
                stop = job.id in self._stop
            overdue = time.time() - job.started > self._max_seconds
            if stop or overdue or not self._is_alive(job.owner):
                process.kill()
                with self._lock:
                    if overdue and not stop:
                        self._finish(job, "failed", f"over the {self._max_seconds:.0f} s limit")
                    else:
                        self._finish(job, "cancelled")
                return
            if receive.poll(0.2):
                try:
                    message = receive.recv()
                except EOFError:
                    message = ("error", f"the worker stopped (exit code {process.exitcode})")
                if self._apply(job, message):
                    return
            elif not process.is_alive() and not receive.poll(0):
                with self._lock:
                    self._finish(
                        job, "failed", f"the worker stopped (exit code {process.exitcode})"
                    )
                return

    def _apply(self, job: Job, message: tuple[Any, ...]) -> bool:
        """Record one message; True when the job is over."""
        kind = message[0]
        with self._lock:
            if kind == "progress":
                job.stage, job.done, job.total = message[1], message[2], message[3]
            elif kind == "tokens":
                job.tokens = (message[1], message[2])
            elif kind == "epoch":
                _, epoch, loss, train_accuracy, dev_accuracy, alignment = message
                job.epoch = epoch + 1
                job.loss.append(loss)
                job.train_accuracy.append(train_accuracy)
                job.dev_accuracy.append(dev_accuracy)
                job.alignments.append(alignment)
            elif kind == "done":
                job.weights, job.card = message[1], message[2]
                self._finish(job, "done")
                return True
            elif kind == "error":
                self._finish(job, "failed", str(message[1]))
                return True
        return False


def _examples(rows: Sequence[Row], name: str) -> tuple[list[Any], Any]:
    from attnviz.nli.data import LABELS, Example, ReadSummary

    summary = ReadSummary(name, "jsonl", rows=len(rows), kept=len(rows))
    summary.by_label = [sum(1 for row in rows if row[2] == k) for k in range(len(LABELS))]
    return [Example(p, h, label) for p, h, label in rows], summary


def work(spec: JobSpec, send: Any) -> None:
    """The worker process: train as `spec` says and send what happens through `send`."""
    try:
        _train(spec, send)
    except InputError as err:
        send.send(("error", str(err)))
    except Exception as err:
        traceback.print_exc()
        send.send(("error", f"{type(err).__name__}: {err}"))
    finally:
        send.close()


def _train(spec: JobSpec, send: Any) -> None:
    import torch

    torch.set_num_threads(1)
    from attnviz.nli import checkpoint, training
    from attnviz.nli import store as stores
    from attnviz.transformer.encoder import load_encoder

    last = [0.0]

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY or done == total:
            last[0] = now
            send.send(("progress", stage, done, total))

    progress("start", 0, 0)
    encoder = load_encoder()
    config = spec.config
    store = stores.SentenceStore(encoder, config.source, config.layer)
    sets = {}
    for name, rows in (("train", spec.train), ("dev", spec.dev)):
        examples, summary = _examples(rows, name)
        sets[name] = stores.gather(examples, summary, store)
    store.encode(None, stores.MEMORY_CACHE_BYTES, progress)
    watched = (sets["dev"].premises[spec.watch], sets["dev"].hypotheses[spec.watch])
    tokens = [
        encoder.tokenizer.convert_ids_to_tokens(
            list(store.ids[store.starts[i] : store.starts[i + 1]])
        )
        for i in watched
    ]
    send.send(("tokens", tokens[0], tokens[1]))

    def epoch_done(epoch: int, history: Any, model: Any) -> bool:
        a, lens_a = store.batch([watched[0]])
        b, lens_b = store.batch([watched[1]])
        model.train(False)
        with torch.inference_mode():
            alignment, _ = model.steps(a, b, lens_a, lens_b)
        weights = alignment.weights_alpha[0, : int(lens_b[0]), : int(lens_a[0])]  # (lb, la)
        dev = history.dev_accuracy[-1]
        send.send((
            "epoch", epoch, history.loss[-1], history.train_accuracy[-1],
            None if math.isnan(dev) else dev, weights.tolist(),
        ))  # fmt: skip
        return True

    model, history = training.train(config, sets["train"], store, sets["dev"], progress, epoch_done)
    data = {name: {"pairs": len(pairs), **spec.data.get(name, {})} for name, pairs in sets.items()}
    card = training.card(config, encoder, history, data, None)
    weights, _ = checkpoint.to_bytes(model, card)
    send.send(("done", weights, card))
