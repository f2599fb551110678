# Quick start: `make spec` runs the spec against the reference implementation; `make test` runs all tests.
# Both create .venv and install the project on first use.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
IMPL ?=

.PHONY: spec spec-loopback test determinism lint tox bench bench-quick mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,tokens]'
	touch $(STAMP)

## spec: the executable spec against the reference (or IMPL=module[:attr]), with the per-feature report
spec: $(STAMP)
	$(BIN)/python -m pytest features/ $(if $(IMPL),--synapse-impl=$(IMPL),--synapse-require=all)

## spec-loopback: the spec with every scripted model served over HTTP on 127.0.0.1, reached through the
## implementation's own Anthropic and then OpenAI client (reports in reports/loopback-<provider>/)
spec-loopback: $(STAMP)
	for provider in anthropic openai; do \
	  $(BIN)/python -m pytest features/ -q --synapse-llm=loopback:$$provider \
	    $(if $(IMPL),--synapse-impl=$(IMPL),--synapse-require=all) --synapse-report=reports/loopback-$$provider \
	    || exit 1; \
	done

## test: every test: the spec, the harness's own tests and the command-line tests
test: $(STAMP)
	$(BIN)/python -m pytest

## determinism: the spec in random order, every scenario twice in one process
determinism: $(STAMP)
	$(BIN)/python -m pytest features/ -p randomly --count=2 --synapse-report= -q

## lint: ruff and mypy
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## tox: the tests on Python 3.10, 3.11, 3.12 and 3.13
tox: $(STAMP)
	$(BIN)/tox run-parallel --parallel-no-spinner

## bench: speed and memory of every operation at full size, against the original's figures (reports/bench.json)
bench: $(STAMP)
	$(BIN)/python -m bench.suite

## bench-quick: the same cases at small sizes, a smoke run of seconds
bench-quick: $(STAMP)
	$(BIN)/python -m bench.suite --quick

## mutation: a CI-sized sample of the mutation score, failing below 80% (the full run: python -m tools.mutation)
mutation: $(STAMP)
	$(BIN)/python -m tools.mutation --sample 40 --seed 1 --min-score 80

clean:
	rm -rf $(VENV) .tox reports .pytest_cache .mypy_cache .ruff_cache
