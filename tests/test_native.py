"""LLVM runs where its assertions cannot take the process down."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import REPO, XENZYME_OPT, clang, run

from xenzyme.backend import native


def _abort() -> None:
    os.abort()


def test_a_crashing_child_is_reported_not_fatal() -> None:
    assert native.run_isolated(_abort) is native._CRASHED


def test_exceptions_come_back_from_the_child() -> None:
    def fail() -> None:
        raise ValueError("from the child")

    try:
        native.run_isolated(fail)
    except ValueError as e:
        assert "from the child" in str(e)
    else:
        raise AssertionError("the child's exception was lost")


def test_results_come_back_from_the_child() -> None:
    assert native.run_isolated(sum, [1, 2, 3]) == 6


def _cpu_has(*flags: str) -> bool:
    try:
        words = set(Path("/proc/cpuinfo").read_text().split())
    except OSError:
        return False
    return all(f in words for f in flags)


def test_avx2_code_that_trips_an_llvm_assertion_still_optimises(tmp_path) -> None:
    """clang -O3 -mavx2 -mfma on this program makes LLVM 22's loop vectoriser assert.  The
    optimisation must still succeed, and what it gives must still compute: the gradient built
    by the whole pipeline (whose first step is the same optimisation) is checked by the
    program itself against the exact softmax."""
    ll = tmp_path / "lse.ll"
    src = REPO / "tests" / "programs" / "ad" / "logsumexp.c"
    r = run([clang(), "-O3", "-mavx2", "-mfma", "-S", "-emit-llvm", str(src), "-o", str(ll)])
    assert r.returncode == 0, r.stderr
    opt = tmp_path / "lse.opt.ll"
    r = run([*XENZYME_OPT, str(ll), "-p", "llvm-opt{level=2}", "-t", "llvm", "-o", str(opt)])
    assert r.returncode == 0, r.stderr
    assert re.search(r"define internal .*@lse\(", opt.read_text()), "the primal is kept"
    obj, exe = tmp_path / "lse.o", tmp_path / "lse"
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    r = run(["cc", str(obj), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    if not _cpu_has("avx2", "fma"):
        pytest.skip("this CPU has no AVX2/FMA: the program is built but not run")
    r = run([str(exe)], timeout=60)
    assert r.returncode == 0 and "PASS" in r.stdout, r.stdout + r.stderr
    assert r.stdout.count("ok ") == 1 + 15 + 15  # every check ran: the sum and the softmax entries
