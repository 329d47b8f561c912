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


_SELECTS = """
define double @guard(double %d, double %b) {
  %c = fcmp une double %d, 0.000000e+00
  %q = fdiv double %d, %b
  %a = select i1 %c, double %q, double 0.000000e+00
  %n = fneg double %q
  %m = select nnan i1 %c, double 0.000000e+00, double %n
  %s = fadd double %a, %m
  ret double %s
}

define float @pick(float %x, float %y) {
  %c = fcmp olt float %x, %y
  %r = select i1 %c, float %x, float %y
  %t = select i1 %c, float 0x7FF0000000000000, float %r
  ret float %t
}
"""

_SELECTS_MAIN = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
double guard(double d, double b);
float pick(float x, float y);
static double ref_guard(double d, double b) {
  double q = d / b;
  return (d != 0 ? q : 0.0) + (d != 0 ? 0.0 : -q);
}
int main(void) {
  double v[] = {0.0, -0.0, 1.5, -2.0, INFINITY, -INFINITY, NAN, 1e-310, 3.0};
  int bad = 0, n = sizeof v / sizeof v[0];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double g = guard(v[i], v[j]), r = ref_guard(v[i], v[j]);
      float p = pick((float)v[i], (float)v[j]);
      float s = (float)v[i] < (float)v[j] ? INFINITY : (float)v[j];
      bad += memcmp(&g, &r, sizeof g) != 0 && !(isnan(g) && isnan(r));
      bad += memcmp(&p, &s, sizeof p) != 0 && !(isnan(p) && isnan(s));
    }
  printf("%d mismatches of %d\n", bad, 2 * n * n);
  return bad != 0;
}
"""


def test_floating_point_selects_of_huge_blocks_are_integer_selects(tmp_path, monkeypatch) -> None:
    """`branchless_selects` (used on modules with a huge basic block) rewrites every scalar
    float select, flags and constants included, and the object computes the same bits as C's
    `?:` on zeros of both signs, infinities, NaN and subnormals; the rewrite is checked also
    through the LLVM pipeline and code generation of `object_code`."""
    text = native.branchless_selects(_SELECTS)
    assert not re.search(r"select [^\n]*(double|float)", text), text
    assert text.count("select i1") == 4 and text.count("bitcast") == 12
    native.check_llvm_ir(text)
    monkeypatch.setattr(native, "BRANCHLESS_SELECT_BLOCK", 0)  # (read in the forked child)
    for level in (0, 3):
        obj, main, exe = tmp_path / f"sel{level}.o", tmp_path / "main.c", tmp_path / f"sel{level}"
        obj.write_bytes(native.object_code(_SELECTS, level=level))
        main.write_text(_SELECTS_MAIN)
        r = run(["cc", str(main), str(obj), "-lm", "-o", str(exe)])
        assert r.returncode == 0, r.stderr
        r = run([str(exe)], timeout=60)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "0 mismatches of 162" in r.stdout
