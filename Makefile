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

.PHONY: install prepare run test lint eval clean

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

prepare: install
	$(BIN)/glossary-bot prepare

run: prepare
	$(PY) app.py

test: install
	$(BIN)/ruff check .
	$(BIN)/pytest -q

eval: prepare
	$(BIN)/glossary-bot eval ../shared/eval/dev.jsonl --compare

clean:
	rm -rf $(VENV) .cache .pytest_cache .ruff_cache *.egg-info
