# Quick start: `make spec` runs the spec against the reference implementation; `make test` runs all tests.
# Both create .venv and install the project on first use.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
IMPL ?=
MINIMAL_AREA ?= usage
OVERTONE_SRC ?= .overtone-src

.PHONY: spec spec-wire spec-loopback test determinism lint tox bench bench-quick bench-original mutation mutation-semantic installed \
	clean spec-js compliance-overtone compliance-synapse-agent compliance compliance-reference compliance-table

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,tokens]'
	touch $(STAMP)

## spec: the executable spec against the reference (or IMPL=module[:attr]), with the per-feature report
spec: $(STAMP)
	$(BIN)/python -m pytest features/ $(if $(IMPL),--synapse-impl=$(IMPL),--synapse-require=all)

## spec-wire: the whole spec against the reference served over the wire protocol (python -m synapse_ref.server)
spec-wire: $(STAMP)
	$(BIN)/python -m pytest features/ --synapse-server="$(BIN)/python -m synapse_ref.server" --synapse-require=all \
		--synapse-wire-validate --synapse-report=reports/wire

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
	$(BIN)/tox run-parallel --parallel-no-spinner $(if $(TOX_ENVS),-e $(TOX_ENVS))

## bench: speed and memory of every operation at full size, against the original's figures (reports/bench.json);
## ORIGINAL=reports/bench-original.json compares with figures measured by bench-original instead of the typed-in ones
bench: $(STAMP)
	$(BIN)/python -m bench.suite $(if $(ORIGINAL),--original $(ORIGINAL))

## bench-quick: the same cases at small sizes, a smoke run of seconds
bench-quick: $(STAMP)
	$(BIN)/python -m bench.suite --quick $(if $(ORIGINAL),--original $(ORIGINAL))

## bench-original: the original Synapse Agent (SYNAPSE_AGENT_SRC: a checkout of it; SYNAPSE_AGENT_COMMIT: its
## commit when it is no git checkout) timed on the suite's inputs under bun, each answer first compared with
## ours; writes reports/bench-original.json. BENCH_ORIGINAL_ARGS: e.g. --quick, --only read,compact
bench-original: $(STAMP)
	@test -n "$(SYNAPSE_AGENT_SRC)" || { echo "SYNAPSE_AGENT_SRC=/path/to/Synapse-Agent is required"; exit 2; }
	$(TS_HARNESS)/setup.sh $(SYNAPSE_AGENT_SRC)
	$(BIN)/python -m bench.original --src $(SYNAPSE_AGENT_SRC) \
		--bun $(abspath $(TS_HARNESS))/.bun-prefix/node_modules/bun/bin/bun.exe \
		$(if $(SYNAPSE_AGENT_COMMIT),--commit $(SYNAPSE_AGENT_COMMIT)) $(BENCH_ORIGINAL_ARGS)

## mutation: a CI-sized sample of the mutation score, failing below 80% (the full run: python -m tools.mutation)
mutation: $(STAMP)
	$(BIN)/python -m tools.mutation --sample 40 --seed 1 --min-score 80

## spec-js: the JavaScript servers' own checks: the unit tests of wire-js and of the Synapse Agent harness's
## port adapters (no original needed), and the spec through the wire against
## the minimal server (every scenario of its area passes, the rest is not applicable)
spec-js: $(STAMP)
	node=$$(harnesses/node.sh) && \
	$$node --test harnesses/wire-js/test/*.test.mjs harnesses/typescript-synapse-agent/tests/*.test.mjs && \
	$(BIN)/python -m pytest features/ -p no:randomly --synapse-report= -q \
		--synapse-server="$$node harnesses/javascript-minimal/server.mjs" --synapse-require=$(MINIMAL_AREA)

## compliance-overtone: the whole spec against the original Overtone (OVERTONE_SRC: its tree, prepared by
## harnesses/javascript-overtone/setup.sh; OVERTONE_MIRROR: a local bare mirror to take it from)
compliance-overtone: $(STAMP)
	harnesses/javascript-overtone/setup.sh $(OVERTONE_SRC)
	node=$$(harnesses/node.sh) && \
	OVERTONE_SRC=$(abspath $(OVERTONE_SRC)) $(BIN)/python -m pytest features/ -p no:randomly -q --tb=line \
		--synapse-server="$$node harnesses/javascript-overtone/server.mjs" \
		--synapse-report=compliance/overtone; test $$? -le 1
	$(BIN)/python -m tools.compliance

## compliance-synapse-agent: the whole spec against the original Synapse Agent (SYNAPSE_AGENT_SRC: a git
## checkout of it, prepared by harnesses/typescript-synapse-agent/setup.sh); writes compliance/synapse-agent/
## A call waits at most 60 s, so a scenario the original leaves hanging fails instead of stopping the run.
TS_HARNESS := harnesses/typescript-synapse-agent
compliance-synapse-agent: $(STAMP)
	@test -n "$(SYNAPSE_AGENT_SRC)" || { echo "SYNAPSE_AGENT_SRC=/path/to/Synapse-Agent is required"; exit 2; }
	$(TS_HARNESS)/setup.sh $(SYNAPSE_AGENT_SRC)
	SYNAPSE_WIRE_TIMEOUT=60 $(BIN)/python -m pytest features/ -p no:randomly -q --tb=line \
		--synapse-server="$(abspath $(TS_HARNESS))/.bun-prefix/node_modules/bun/bin/bun.exe \
			$(abspath $(TS_HARNESS))/server.ts $(abspath $(SYNAPSE_AGENT_SRC))" \
		--synapse-report=compliance/synapse-agent; test $$? -le 1
	$(BIN)/python -m tools.compliance

## compliance: both originals and the reference in process and over the wire, then the table of every
## implementation in compliance/README.md
compliance: compliance-synapse-agent compliance-overtone compliance-reference compliance-table

compliance-reference: $(STAMP)
	$(BIN)/python -m pytest features/ -p no:randomly -q --synapse-report=reports/reference-in-process
	$(BIN)/python -m pytest features/ -p no:randomly -q --synapse-report=reports/reference-wire \
		--synapse-server="$(abspath $(BIN))/python -m synapse_ref.server"; test $$? -le 1
	mkdir -p compliance/reference
	cp reports/reference-in-process/synapse-spec.json compliance/reference/in-process.json
	cp reports/reference-wire/synapse-spec.json compliance/reference/wire.json

compliance-table: $(STAMP)
	$(BIN)/python -m synapse_spec.summary \
		"reference (in process)=compliance/reference/in-process.json" \
		"reference (over the wire)=compliance/reference/wire.json" \
		"Synapse Agent 5190df1=compliance/synapse-agent/synapse-spec.json" \
		"Overtone 6b673e1=compliance/overtone/synapse-spec.json" \
		--write compliance/README.md

## installed: the kit as a user gets it: the wheel in a fresh environment, run from a directory outside the checkout
installed: $(STAMP)
	set -e; outside=$$(mktemp -d); trap 'rm -rf "$$outside"' EXIT; \
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir "$$outside/dist" .; \
	$(PYTHON) -m venv "$$outside/venv"; \
	"$$outside/venv/bin/python" -m pip install --quiet "$$outside"/dist/synapse_spec-*.whl; \
	cd "$$outside" && "$$outside/venv/bin/synapse-spec" run --impl synapse_ref.adapter --require all -- -q

## mutation-semantic: six semantic mutants, one per blind spot, each must be killed (all of them: --semantic)
mutation-semantic: $(STAMP)
	$(BIN)/python -m tools.mutation --semantic --jobs 2 --min-score 100 \
		--only reader_compact_utf16 --only ctx_scan_ratio_round --only usage_hit_rate_floor \
		--only runner_failures_per_result --only repl_highlight_exact_only --only wf_env_session_wins

clean:
	rm -rf $(VENV) .tox reports .pytest_cache .mypy_cache .ruff_cache build
