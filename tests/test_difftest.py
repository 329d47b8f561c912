"""The differential tester (xenzyme/tools/difftest): random C programs differentiated by
xenzyme, each derivative checked against central finite differences of the primal compiled by
clang alone.  `make test` runs a fixed range of seeds at -O0, -O2 and -O3 in both modes; by hand,
`python -m xenzyme.tools.difftest --seeds 0-10000 -j 2` runs thousands."""

from __future__ import annotations

import re

import pytest

from xenzyme.tools.difftest import runner
from xenzyme.tools.difftest.__main__ import parse_seeds, run
from xenzyme.tools.difftest.generator import generate

SEEDS = list(range(1000, 1008))


def test_judge() -> None:
    """A derivative is ok within the tolerance of the finite differences, wrong outside it,
    and inconclusive where the function is not smooth enough to judge."""
    f = lambda x: x**3  # noqa: E731
    h = 1e-3
    values = (f(1.0), f(1 + h), f(1 - h), f(1 + h / 4), f(1 - h / 4))
    assert runner.judge(3.0, *values, h, 1e-5)[0] == "ok"
    assert runner.judge(3.3, *values, h, 1e-5)[0] == "wrong"
    assert runner.judge(float("nan"), *values, h, 1e-5)[0] == "wrong"
    jump = lambda x: 0.0 if x < 1.0002 else 1.0  # noqa: E731  (a jump between h/4 and h)
    values = (jump(1.0), jump(1 + h), jump(1 - h), jump(1 + h / 4), jump(1 - h / 4))
    assert runner.judge(5.0, *values, h, 1e-5)[0] == "inconclusive"


def test_generator_is_deterministic() -> None:
    assert generate(7).source() == generate(7).source()
    assert generate(7).source() != generate(8).source()
    assert parse_seeds("0-3,10") == [0, 1, 2, 10]  # (ranges are half-open: 0-10000 is 10,000 seeds)


def test_fixed_seeds_have_no_wrong_derivative() -> None:
    report = run(SEEDS, jobs=1, batch=len(SEEDS))
    assert report.programs == len(SEEDS)
    assert report.checks["ok"] > 10 * len(SEEDS), report.to_json()
    assert report.failures == 0, report.to_json()


def test_a_wrong_derivative_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a reference that is not the function differentiated (1.5 times it), the tester
    reports wrong derivatives: it compares with the reference, not with xenzyme's output."""
    original = runner.ref_source

    def scaled(programs):
        return re.sub(r"\{ return (p\d+_f)\(", r"{ return 1.5 * \1(", original(programs))

    monkeypatch.setattr(runner, "ref_source", scaled)
    report = runner.run_batch(SEEDS[:2], levels=["-O2"])
    assert report.wrong, report.to_json()
