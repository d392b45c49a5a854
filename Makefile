# Two commands on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export GLOSSARY_BOT_CACHE_DIR ?= $(CURDIR)/.cache
export GRADIO_ANALYTICS_ENABLED := False
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install browser postgres prepare run test lint eval default-calibration bench-load bench bench-scale clean

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

# Headless Chromium (and a Devanagari font for screenshots) for tests/e2e, from Debian's packages.
# Playwright drives this system browser; it never downloads one of its own.
DEVANAGARI_FONT := /usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf
browser:
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || [ ! -e $(DEVANAGARI_FONT) ]; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver fonts-noto-core; \
	fi

# PostgreSQL's server programs for the store's tests (tests/postgres.py starts a throwaway server in
# a temp folder on a free port, as the unprivileged user `postgres` when run as root), from Debian.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql; \
	fi

# Convert the model and build the index, each only if missing or stale: the CLI command `prepare`
# (GlossaryBot.prepare is another thing: it cleans one question).
prepare: install
	$(BIN)/glossary-bot prepare

# app.py converts the model and builds the index itself when they are missing or stale.
run: install
	$(PY) app.py

test: install browser postgres
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -q

# Both dev sets with ablations: the bundled glossary (with and without its project-written paraphrases
# and aliases) and the foreign CNCF glossary loaded as it is; one summary table at the end.
EVAL_DIR := ../shared/eval
FOREIGN := $(EVAL_DIR)/foreign/cncf-hi
eval: install
	mkdir -p .cache/eval
	$(BIN)/glossary-bot eval $(EVAL_DIR)/dev.jsonl --compare --save .cache/eval/bundled.json
	$(BIN)/glossary-bot --no-extras eval $(EVAL_DIR)/dev.jsonl --compare --save .cache/eval/bundled-no-extras.json
	$(BIN)/glossary-bot --glossary $(FOREIGN)/glossary.yaml eval $(FOREIGN)/queries.jsonl --compare \
		--save .cache/eval/cncf-hi.json
	$(BIN)/glossary-bot summary .cache/eval/bundled.json .cache/eval/bundled-no-extras.json .cache/eval/cncf-hi.json

# The calibration small glossaries get (bot/calibration.py MIN_ENTRIES_TO_FIT): fitted on the bundled
# glossary without its project-written paraphrases and aliases.
default-calibration: install
	$(BIN)/glossary-bot --no-extras calibrate --save bot/data/default_calibration.json

# 50 concurrent chat sessions x 20 questions against the app on 127.0.0.1 (RELIABILITY.md, "Load").
bench-load: prepare
	$(PY) -m tests.load.run --sessions 50 --questions 20

# Benchmarks with ratios to the physical floor: tables in benchmarks/RESULTS.md, plots beside it.
# `bench` runs every section (about 30 min on 2 cores); `bench-scale` adds HNSW at 1M vectors.
bench: prepare
	$(PY) -m benchmarks

bench-scale: install
	$(PY) -m benchmarks --scale-only

clean:
	rm -rf $(VENV) .cache .pytest_cache .ruff_cache .mypy_cache *.egg-info
