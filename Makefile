# xenzyme: `make demo` and `make test` set everything up themselves (idempotent).
VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
TOOLS   := $(VENV)/.toolchain
BENCH_STAMP := $(VENV)/.installed-bench
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: setup demo test lit pytest sanitize bench bench-mlir-lowering clean

setup: $(STAMP) $(TOOLS)

$(STAMP): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install -q --disable-pip-version-check -e '.[test]'
	touch $@

$(TOOLS): scripts/setup-toolchain.sh
	scripts/setup-toolchain.sh
	touch $@

demo: setup
	$(PYTHON) examples/demo.py

test: setup
	lit -s --order=smart tests/filecheck
	$(PYTHON) -m pytest -n auto tests

lit: setup
	lit -v --order=smart tests/filecheck

pytest: setup
	$(PYTHON) -m pytest -q tests

# AddressSanitizer and LeakSanitizer on every gradient program at -O0, -O2 and -O3 (`make test`
# runs every one at -O2 and an eighth of them at -O0 and at -O3).
sanitize: setup
	XENZYME_SANITIZE=all $(PYTHON) -m pytest -q -n auto tests/test_sanitize.py

# The benchmarks' peers (JAX, PyTorch, ...) and matplotlib come with the `bench` extra, installed
# only for `make bench`.  PyTorch: its CPU-only wheel when pip's wheel directory (its find-links
# setting) holds one for this Python, else whatever pip resolves (the default wheel, with CUDA).
$(BENCH_STAMP): $(STAMP) pyproject.toml
	cpu=$$(py=$$($(PYTHON) -c 'import sys; print("%d%d" % sys.version_info[:2])'); \
	  for d in $$($(PYTHON) -m pip config get global.find-links 2>/dev/null); do \
	    ls "$$d"/torch-*+cpu-cp$$py-*.whl 2>/dev/null; done | sort -V | tail -n 1); \
	$(PYTHON) -m pip install -q --disable-pip-version-check -e '.[test,bench]' $$cpu
	touch $@

bench: setup $(BENCH_STAMP)
	$(PYTHON) benchmarks/run.py

# xenzyme's lowering of the structured dialects against MLIR's mlir-opt-19 (installed here only:
# make test does not need it); rewrites its section of benchmarks/RESULTS.md.
bench-mlir-lowering: setup
	scripts/setup-toolchain.sh --mlir
	$(PYTHON) benchmarks/mlir_lowering.py --write

clean:
	rm -rf $(VENV) build *.egg-info tests/programs/out benchmarks/build
