"""Aggregates passed and returned by value across calls that stay calls (noinline): literal
structs and arrays of doubles as arguments and results of the augmented and reverse functions,
checked against finite differences of the JIT-compiled primal.  (C programs reach the same
through clang's calling convention: tests/programs/ad/struct_by_value.c.)
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import llvm as xllvm

import xenzyme as xz

PRIMAL = r"""
declare double @llvm.sin.f64(double)

define { double, double } @rot({ double, double } %p, double %a) noinline {
  %x = extractvalue { double, double } %p, 0
  %y = extractvalue { double, double } %p, 1
  %s = call double @llvm.sin.f64(double %a)
  %xs = fmul double %x, %s
  %ys = fmul double %y, %a
  %u = fsub double %xs, %ys
  %v = fadd double %ys, %xs
  %w = fmul double %v, %x
  %r0 = insertvalue { double, double } undef, double %u, 0
  %r1 = insertvalue { double, double } %r0, double %w, 1
  ret { double, double } %r1
}

define { i32, double } @tagged([2 x double] %q, i32 %k) noinline {
  %a = extractvalue [2 x double] %q, 0
  %b = extractvalue [2 x double] %q, 1
  %aa = fmul double %a, %a
  %bb = fmul double %b, %b
  %kf = sitofp i32 %k to double
  %t = fmul double %bb, %kf
  %r = fadd double %aa, %t
  %big = fcmp ogt double %a, %b
  %tag = select i1 %big, i32 1, i32 2
  %o0 = insertvalue { i32, double } undef, i32 %tag, 0
  %o1 = insertvalue { i32, double } %o0, double %r, 1
  ret { i32, double } %o1
}

define double @f(double %x, double %y, double %a) {
  %p0 = insertvalue { double, double } undef, double %x, 0
  %p1 = insertvalue { double, double } %p0, double %y, 1
  %q = call { double, double } @rot({ double, double } %p1, double %a)
  %q2 = call { double, double } @rot({ double, double } %q, double %x)
  %u = extractvalue { double, double } %q2, 0
  %v = extractvalue { double, double } %q2, 1
  %arr0 = insertvalue [2 x double] undef, double %u, 0
  %arr1 = insertvalue [2 x double] %arr0, double %v, 1
  %t = call { i32, double } @tagged([2 x double] %arr1, i32 3)
  %n = extractvalue { i32, double } %t, 1
  %tag = extractvalue { i32, double } %t, 0
  %tf = sitofp i32 %tag to double
  %r = fmul double %n, %tf
  ret double %r
}
"""

IR = PRIMAL + r"""
declare { double, double, double } @__enzyme_autodiff(...)

define void @df(ptr %out, double %x, double %y, double %a) {
  %d = call { double, double, double } (...) @__enzyme_autodiff(ptr @f, double %x, double %y, double %a)
  store { double, double, double } %d, ptr %out
  ret void
}
"""


@pytest.mark.parametrize("pipeline", ["enzyme", "enzyme{preopt=0}"])
def test_aggregates_by_value(pipeline: str) -> None:
    module = xz.load(IR)
    xz.run_pipeline(module, pipeline)
    lib = xz.compile(module)
    primal = xz.compile(xz.load(PRIMAL))
    for point in ((0.3, -0.7, 1.1), (-1.2, 0.4, 0.25)):
        got = np.zeros(3)
        lib.df(got, *point)
        h = 1e-6
        for i in range(3):
            up, down = list(point), list(point)
            up[i] += h
            down[i] -= h
            want = (primal.f(*up) - primal.f(*down)) / (2 * h)
            assert got[i] == pytest.approx(want, rel=1e-6, abs=1e-9)


def test_split_functions_take_and_return_aggregates() -> None:
    module = xz.load(IR)
    xz.run_pipeline(module, "enzyme{preopt=0 postopt=0}")
    funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.FuncOp)}
    rev = funcs["reverse_rot"].function_type
    # (p, a, the result's adjoint, tape) -> {adjoint of p, adjoint of a}
    assert str(rev.inputs.data[2]) == "!llvm.struct<(f64, f64)>"
    assert str(rev.output) == "!llvm.struct<(!llvm.struct<(f64, f64)>, f64)>"
    tagged = funcs["reverse_tagged"].function_type
    assert str(tagged.output) == "!llvm.array<2 x f64>"
