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
    # f flat at the steps (its input's influence lost to rounding): a derivative of 0.36 is
    # wrong when rounding up or down moves f by 1e-16, ill-conditioned when it moves it by 1.
    flat = lambda x: 2.4  # noqa: E731
    h = 1e-5
    assert runner.judge(0.36, *at(flat, h), h, 1e-5, 1e-16)[0] == "wrong"
    assert runner.judge(0.36, *at(flat, h), h, 1e-5, 1.0)[0] == "ill-conditioned"
    assert runner.judge(float("nan"), *at(flat, h), h, 1e-5, 1.0)[0] == "wrong"


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


def _job(kind: str) -> str:
    """A job of the tester's child: a value, an error of xenzyme, an abort, a hang."""
    import os
    import time

    from xenzyme.diagnostics import XenzymeError

    if kind == "error":
        raise XenzymeError("cannot differentiate @p7_f")
    if kind == "abort":
        os.abort()
    if kind == "hang":
        time.sleep(30)
    return kind.upper()


def test_child_results_stay_with_their_jobs() -> None:
    """One child runs the jobs one after the other; an error, an abort (also in the child of
    its own that a job which killed the shared child gets) or a hang is the result of the job
    that caused it, and the jobs after it still run."""
    jobs = [("a",), ("error",), ("b",), ("abort",), ("c",), ("hang",), ("d",)]
    results = runner._in_child(_job, jobs, timeout=3)
    assert [s for s, _ in results] == ["ok", "error", "ok", "internal", "ok", "internal", "ok"]
    assert [v for s, v in results if s == "ok"] == ["A", "B", "C", "D"]
    assert "@p7_f" in results[1][1]
    assert "died (signal 6)" in results[3][1] and "more than 3 s" in results[5][1]


def test_failures_are_attributed_to_their_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a batch, an error of xenzyme on one program, xenzyme dying on another, a wrong
    reference for a third and a program that crashes at run time are each counted against
    their own seed, and the other programs are still checked."""
    seeds = [1000, 1001, 1002, 1003, 1004]
    err, died, wrong, crash = seeds[:4]
    original_diff, original_ref = runner._differentiate, runner.ref_source

    def differentiate(ll: str, obj: str) -> None:
        from xenzyme.diagnostics import XenzymeError

        if f"p{err}_" in ll:
            raise XenzymeError(f"xenzyme: error: cannot differentiate @p{err}_f: injected")
        if f"p{died}_" in ll:
            import os

            os.abort()
        original_diff(ll, obj)

    def ref(programs):
        text = original_ref(programs)
        text = text.replace(f"{{ return p{wrong}_f(", f"{{ return 1.5 * p{wrong}_f(")
        return text.replace(f"{{ return p{crash}_f(", f"{{ abort(); return p{crash}_f(")

    monkeypatch.setattr(runner, "_differentiate", differentiate)
    monkeypatch.setattr(runner, "ref_source", ref)
    report = runner.run_batch(seeds, levels=["-O2"])
    assert report.requests[("rev", "error")] == report.requests[("fwd", "error")] == 1, report.to_json()
    assert sorted((c["seed"], c["mode"]) for c in report.internal) == [(died, "fwd"), (died, "rev")], report.to_json()
    assert "died (signal 6)" in report.internal[0]["message"]
    assert report.wrong and {w["seed"] for w in report.wrong} == {wrong}, report.to_json()
    assert {c["seed"] for c in report.crashes} == {crash}, report.to_json()
    assert report.requests[("rev", "ok")] >= 2 and report.checks["ok"] > 0, report.to_json()


def test_same_ir_is_differentiated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A program whose IR is the same at -O2 and -O3 is differentiated once, and checked at
    both levels (against each level's reference)."""
    calls: list[str] = []
    original = runner._in_child

    def counting(fn, jobs, *args, **kw):
        calls.extend(ll for ll, _ in jobs)
        return original(fn, jobs, *args, **kw)

    monkeypatch.setattr(runner, "_in_child", counting)
    seeds = [3000, 3001]  # (the same IR at -O2 and -O3, with clang 19)
    report = runner.run_batch(seeds, levels=["-O2", "-O3"])
    assert len(calls) == len(seeds), calls
    assert report.requests[("rev", "ok")] == report.requests[("fwd", "ok")] == 2 * len(seeds), report.to_json()
    assert report.failures == 0, report.to_json()


class _Dual:
    """A value and its derivative along one input: forward-mode AD by hand, in double
    precision, so the derivative of the very computation the compiled program performs."""

    def __init__(self, v: float, d: float = 0.0) -> None:
        self.v, self.d = v, d

    @staticmethod
    def of(b: _Dual | float) -> _Dual:
        return b if isinstance(b, _Dual) else _Dual(b)

    def __add__(self, b):
        b = _Dual.of(b)
        return _Dual(self.v + b.v, self.d + b.d)

    __radd__ = __add__

    def __mul__(self, b):
        b = _Dual.of(b)
        return _Dual(self.v * b.v, self.d * b.v + self.v * b.d)

    __rmul__ = __mul__

    def __truediv__(self, b):
        b = _Dual.of(b)
        return _Dual(self.v / b.v, (self.d * b.v - self.v * b.d) / (b.v * b.v))

    def __rtruediv__(self, a):
        return _Dual.of(a) / self


def _seed_21394_by_hand(x: list[_Dual], n: int, s: _Dual) -> _Dual:
    """Program 21394 (`python -m xenzyme.tools.difftest --show 21394`), written out in Python."""
    import math

    def sin(a):
        return _Dual(math.sin(a.v), math.cos(a.v) * a.d)

    def tanh(a):
        t = math.tanh(a.v)
        return _Dual(t, (1 - t * t) * a.d)

    def soft(v):
        r = math.sqrt(1.0 + v.v * v.v)
        return v / _Dual(r, v.v * v.d / r)

    def ratio(v):
        return v / (1.0 + _Dual(abs(v.v), math.copysign(1.0, v.v) * v.d))

    w2, it1 = s, 0
    while w2.v < 2.065 and it1 < 8:
        w2 = w2 + (0.3 + 0.2 * tanh(s + x[1]) * 0.5)
        for _ in range(4):
            for i4 in range(n):
                w2 = w2 + 0.3 * sin((float(round(x[1].v)) * 0.533) + (w2 + x[(i4 + 1) % n]))
                x[i4] = sin((s + (0.5 * it1)) * (s + x[(i4 + 2) % n]))
                w2 = w2 + 0.3 * math.tanh(-0.693)
            s = s + 0.3 * soft(tanh(s + 0.5 * it1))
        w2 = ratio((1.252 * x[2]) + (s * 0.204))
        it1 += 1
    half_sin_b = 0.5 * sin(s / (1.5 + w2 * x[2]))
    expm1 = _Dual(math.expm1(half_sin_b.v), math.exp(half_sin_b.v) * half_sin_b.d)
    return x[0] + w2 + sin((x[1] + x[1]) + expm1)


def test_seed_21394_is_ill_conditioned_not_wrong() -> None:
    """Program 21394 first shrinks its input's influence below double precision's rounding
    (its loop multiplies by 0.014 eight times), then amplifies rounding errors (by up to 3.5
    a step, 56 steps): f(x +- h) are equal, so central differences give 0, while the
    derivative of the computation is -0.358 for x[2].  The tester once reported this as a
    wrong gradient.  Evaluated by hand in dual numbers, the derivative of the same double
    computation is what xenzyme gives; running the program rounding up and down moves f by
    more than 1, and the tester calls these checks ill-conditioned."""
    from xenzyme.tools.difftest.generator import generate

    p = generate(21394)
    report = runner.run_batch([21394], levels=["-O2"], modes=["rev"])
    assert not report.wrong, report.to_json()
    assert {c["component"] for c in report.ill_conditioned} == {2, 3}, report.to_json()
    for check in report.ill_conditioned:
        i = check["component"]
        x = [_Dual(v, float(j == i)) for j, v in enumerate(p.x0)]
        by_hand = _seed_21394_by_hand(x, p.n, _Dual(p.s0)).d
        assert by_hand == pytest.approx(check["ad"], rel=1e-9), (i, by_hand, check)
        assert check["fd"] == 0.0 and check["noise"] > 0.1, check
