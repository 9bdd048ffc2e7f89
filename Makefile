# The two commands a newcomer needs: `make run` and `make test`. Both set themselves up.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON313 ?= $(shell scripts/find-python313)
ifeq ($(PYTHON313),)
$(error Python 3.13 is required: see the message above)
endif
VENV := .venv
TOOLS_VENV := .venv-tools
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 3000
# sam build finds the runtime's interpreter on PATH: put the real one first.
export PATH := $(dir $(PYTHON313)):$(PATH)
export SAM_CLI_TELEMETRY := 0
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help run test lint typecheck pytest cfn-lint sam-validate sam-build bench lock openapi clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/'

$(VENV)/.installed: requirements/dev.lock pyproject.toml
	@echo "==> creating $(VENV) with $(PYTHON313)"
	@test -x $(PY) || $(PYTHON313) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@$(PY) -m pip install --quiet -r requirements/dev.lock
	@$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	@touch $@

$(TOOLS_VENV)/.installed: requirements/tools.lock
	@echo "==> creating $(TOOLS_VENV) (aws-sam-cli, kept apart from the runtime dependencies)"
	@test -x $(TOOLS_VENV)/bin/python || $(PYTHON313) -m venv $(TOOLS_VENV)
	@$(TOOLS_VENV)/bin/python -m pip install --quiet --upgrade pip
	@$(TOOLS_VENV)/bin/python -m pip install --quiet -r requirements/tools.lock
	@touch $@

run: $(VENV)/.installed ## start the local stack on http://$(HOST):$(PORT)
	@$(BIN)/agent-memory serve --host $(HOST) --port $(PORT)

test: lint typecheck cfn-lint sam-validate sam-build pytest ## the whole suite (what CI runs)
	@echo "==> make test: all checks passed"

lint: $(VENV)/.installed ## ruff
	$(BIN)/ruff check layers functions tests benchmarks
	$(BIN)/ruff format --check layers functions tests benchmarks

typecheck: $(VENV)/.installed ## mypy (strict on the domain); each handler apart (all are app.py)
	$(BIN)/mypy
	@for f in functions/*/app.py; do $(BIN)/mypy --no-namespace-packages $$f || exit 1; done

pytest: $(VENV)/.installed $(TOOLS_VENV)/.installed ## unit + functional tests (e2e skip without AWS)
	SAM_CLI=$(abspath $(TOOLS_VENV))/bin/sam $(PY) -m pytest

cfn-lint: $(VENV)/.installed ## lint template.yaml
	$(BIN)/cfn-lint template.yaml

sam-validate: $(TOOLS_VENV)/.installed ## sam validate --lint
	$(TOOLS_VENV)/bin/sam validate --lint --template template.yaml

sam-build: $(TOOLS_VENV)/.installed ## sam build (arm64, no Docker)
	$(TOOLS_VENV)/bin/sam build --template template.yaml --build-dir .aws-sam/build --cached --parallel

bench: $(VENV)/.installed ## benchmarks (printed figures)
	@for b in benchmarks/bench_*.py; do echo "==> $$b"; $(PY) $$b; done

lock: ## re-resolve and pin requirements/*.lock from requirements/*.in
	rm -rf /tmp/agent-memory-lock && $(PYTHON313) -m venv /tmp/agent-memory-lock
	/tmp/agent-memory-lock/bin/pip install --quiet -r requirements/dev.in
	{ echo "# Pinned development environment (runtime + test + lint). Regenerate: make lock"; \
	  /tmp/agent-memory-lock/bin/pip freeze --all --exclude-editable | grep -v '^pip=='; } > requirements/dev.lock

clean: ## remove environments and build output
	rm -rf $(VENV) $(TOOLS_VENV) .aws-sam .mypy_cache .ruff_cache .pytest_cache
