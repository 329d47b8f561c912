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
    at = lambda g, h: [g(1.0 + t) for t in (0, h, -h, h / 4, -h / 4, h / 64, -h / 64)]  # noqa: E731
    assert runner.judge(3.0, *at(f, h), h, 1e-5)[0] == "ok"
    assert runner.judge(3.3, *at(f, h), h, 1e-5)[0] == "wrong"
    assert runner.judge(float("nan"), *at(f, h), h, 1e-5)[0] == "wrong"
    jump = lambda x: 0.0 if x < 1.0002 else 1.0  # noqa: E731  (a jump between h/4 and h)
    assert runner.judge(5.0, *at(jump, h), h, 1e-5)[0] == "inconclusive"
    # A kink between h/64 and h/4 of the point (single precision's step, h = 1e-2): the
    # differences at h and h/4 both straddle it and agree (1.019, 1.017); the derivative at the
    # point, 1, is held to the difference at h/64.
    h = 1e-2
    kink = lambda x: max(x - (1 + h / 32), 0.0) * 0.04 + x  # noqa: E731
    assert runner.judge(1.0, *at(kink, h), h, 2e-3)[0] == "ok"
    assert runner.judge(1.2, *at(kink, h), h, 2e-3)[0] == "wrong"
    assert runner.judge(1.0175, *at(kink, h), h, 2e-3)[0] == "ok"  # (the straddling difference itself)


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
