# xenzyme: `make demo` and `make test` set everything up themselves (idempotent).
VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
TOOLS   := $(VENV)/.toolchain
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: setup demo test lit pytest bench clean

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

bench: setup
	$(PYTHON) benchmarks/run.py

clean:
	rm -rf $(VENV) build *.egg-info tests/programs/out benchmarks/build
