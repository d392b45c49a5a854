# Two commands on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

export GLOSSARY_BOT_CACHE_DIR ?= $(CURDIR)/.cache
export GRADIO_ANALYTICS_ENABLED := False
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: install install-test browser postgres prebuilt prepare run test lint eval default-calibration borrowed-questions screenshots bench-load bench bench-scale clean

# Python 3.11 (pyproject.toml's requires-python): python3.11, or python3 when it is 3.11.
PYTHON ?= $(shell for p in python3.11 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null && { echo $$p; break; }; done)
# setuptools' notice about editable installs (nothing to act on: the checkout is the package).
PIP := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install --quiet

# `run` needs the runtime only; `test` adds the test extras (ruff, mypy, playwright, ...).
install: $(STAMP)
install-test: $(TEST_STAMP)

$(VENV)/bin/pip:
	@[ -n "$(PYTHON)" ] || { echo "error: Python 3.11 is needed and neither python3.11 nor python3 is 3.11;" \
		"install it (Debian/Ubuntu: apt-get install python3.11 python3.11-venv; or pyenv install 3.11)" \
		"or name it: make PYTHON=/path/to/python3.11" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

$(STAMP): pyproject.toml $(VENV)/bin/pip
	$(PIP) -e .
	touch $(STAMP)

$(TEST_STAMP): pyproject.toml $(STAMP)
	$(PIP) -e '.[test]'
	touch $(TEST_STAMP)

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

# The index and calibration shipped for the bundled glossary (bot/data/prebuilt/, bot/search/prebuilt.py):
# after a change of the glossary, the passages recipe, the calibration or the model. Built with an
# empty cache: the embedding store may hold vectors a bulk build made with another backend (equal to
# the serving encoder's at a cosine of 0.9999, not bit for bit), and what ships must be what a fresh
# machine builds (tests/test_prebuilt.py).
FRESH_CACHE = GLOSSARY_BOT_CACHE_DIR=$$(mktemp -d)
prebuilt: install
	$(FRESH_CACHE) $(BIN)/glossary-bot prebuild

# app.py serves the shipped prebuilt index of the bundled glossary, or builds the configured one.
run: install
	$(PY) app.py

test: install-test browser postgres
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/pytest -q

# Both dev sets with ablations: the bundled glossary (with and without its project-written paraphrases
# and aliases), its English-only and Hindi-only views, and the foreign CNCF glossary loaded as it is
# and as its English-only and Hindi-only views (glossary/views.py; every question kept: asking in the language a view
# lacks is what it measures). One summary table at the end, recorded in benchmarks/VIEWS.json.
EVAL_DIR := ../shared/eval
FOREIGN := $(EVAL_DIR)/foreign/cncf-hi
EVAL_OUT := .cache/eval
VIEWS_DIR := $(EVAL_OUT)/views
EVAL_RUNS := bundled bundled-no-extras bundled-en bundled-hi cncf-hi cncf-hi-en cncf-hi-hi
eval: install
	mkdir -p $(EVAL_OUT)
	$(BIN)/glossary-bot --no-extras view en --out $(VIEWS_DIR)/bundled-en --questions $(EVAL_DIR)/dev.jsonl
	$(BIN)/glossary-bot --no-extras view hi --out $(VIEWS_DIR)/bundled-hi --questions $(EVAL_DIR)/dev.jsonl
	$(BIN)/glossary-bot --glossary $(FOREIGN)/glossary.yaml view en --out $(VIEWS_DIR)/cncf-hi-en \
		--questions $(FOREIGN)/queries.jsonl
	$(BIN)/glossary-bot --glossary $(FOREIGN)/glossary.yaml view hi --out $(VIEWS_DIR)/cncf-hi-hi \
		--questions $(FOREIGN)/queries.jsonl
	$(BIN)/glossary-bot eval $(EVAL_DIR)/dev.jsonl --compare --save $(EVAL_OUT)/bundled.json
	$(BIN)/glossary-bot --no-extras eval $(EVAL_DIR)/dev.jsonl --compare --save $(EVAL_OUT)/bundled-no-extras.json
	for v in bundled-en bundled-hi; do \
		$(BIN)/glossary-bot --glossary $(VIEWS_DIR)/$$v/glossary.yaml eval $(VIEWS_DIR)/$$v/queries.jsonl \
			--save $(EVAL_OUT)/$$v.json || exit 1; \
	done
	$(BIN)/glossary-bot --glossary $(FOREIGN)/glossary.yaml eval $(FOREIGN)/queries.jsonl --compare \
		--save $(EVAL_OUT)/cncf-hi.json
	for v in cncf-hi-en cncf-hi-hi; do \
		$(BIN)/glossary-bot --glossary $(VIEWS_DIR)/$$v/glossary.yaml eval $(VIEWS_DIR)/$$v/queries.jsonl \
			--save $(EVAL_OUT)/$$v.json || exit 1; \
	done
	$(BIN)/glossary-bot summary $(EVAL_RUNS:%=$(EVAL_OUT)/%.json) --record benchmarks/VIEWS.json \
		--command "make eval"
	$(PY) -m benchmarks.lovo --views $(VIEWS_DIR) --out benchmarks/LOVO.json
	$(PY) -m benchmarks.ideas --views $(VIEWS_DIR) --out benchmarks/IDEAS.json
	$(PY) -m benchmarks.frames --views $(VIEWS_DIR) --out benchmarks/FRAMES.json
	$(PY) -m benchmarks.name_parts --views $(VIEWS_DIR) --out benchmarks/NAME_PARTS.json
	$(PY) -m benchmarks.courtesy --views $(VIEWS_DIR) --out benchmarks/COURTESY.json

# The calibration small glossaries get (bot/search/calibration.py MIN_ENTRIES_TO_FIT): fitted on the bundled
# glossary without its project-written paraphrases and aliases.
default-calibration: install
	$(FRESH_CACHE) $(BIN)/glossary-bot --no-extras calibrate --save bot/data/default_calibration.json

# Real questions (the bundled glossary's paraphrases) asked of its bilingual and one-language views,
# whose features every glossary's confidence model borrows (bot/search/transfer.py).
borrowed-questions: install
	$(FRESH_CACHE) $(BIN)/python -m bot.search.transfer_build

# The README's screenshots (docs/), remade by the browser tests that take them; `make test` leaves them.
screenshots: install-test browser
	GLOSSARY_BOT_UPDATE_DOCS=1 $(BIN)/pytest -q tests/e2e/test_browser.py -k "screenshot_desktop or mobile_layout"

# 50 concurrent chat sessions x 20 questions against the app on 127.0.0.1 (RELIABILITY.md, "Load").
bench-load: prepare install-test
	$(PY) -m tests.load.run --sessions 50 --questions 20

# Benchmarks with ratios to the physical floor: tables in benchmarks/RESULTS.md, plots beside it.
# `bench` runs every section, then benchmarks/deploy.py (starts, edits, a 5,000-entry glossary: hours
# on 2 cores, most of it encoding); `bench-scale` adds HNSW at 1M vectors.
bench: prepare install-test
	$(PY) -m benchmarks
	$(PY) -m benchmarks.deploy

bench-scale: install-test
	$(PY) -m benchmarks --scale-only

clean:
	rm -rf $(VENV) .cache .pytest_cache .ruff_cache .mypy_cache *.egg-info
