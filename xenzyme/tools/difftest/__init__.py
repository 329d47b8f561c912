"""The differential tester: random C programs (generator.py) differentiated by xenzyme and
checked against central finite differences of the primal (runner.py), at clang's -O0, -O2 and
-O3, in reverse and forward mode; `python -m xenzyme.tools.difftest --help`."""
