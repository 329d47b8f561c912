"""LLVM runs where its assertions cannot take the process down."""

from __future__ import annotations

import os

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


def test_avx2_code_that_trips_an_llvm_assertion_still_optimises(tmp_path) -> None:
    """clang -O3 -mavx2 -mfma on this program makes LLVM 22's loop vectoriser assert."""
    ll = tmp_path / "lse.ll"
    src = REPO / "tests" / "programs" / "ad" / "logsumexp.c"
    r = run([clang(), "-O3", "-mavx2", "-mfma", "-S", "-emit-llvm", str(src), "-o", str(ll)])
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "llvm-opt{level=2}", "-t", "llvm"])
    assert r.returncode == 0, r.stderr
    assert "define" in r.stdout
