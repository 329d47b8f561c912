"""The structured level's scf.while (reversed as a counted loop, tangents carried) and its
partials that divide, through the Python API, against central differences of the compiled
primal (tests/programs/mlir/while.mlir, zero_state.mlir)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fd, fd_array

import xenzyme as xz
from xenzyme.backend.memrefs import GradientCall

PROGRAMS = __import__("pathlib").Path(__file__).parent / "programs" / "mlir"


def _structured(g):
    assert isinstance(g, GradientCall), "not differentiated at the structured level"
    return g


# ---- states that start at the constant 0 ------------------------------------------------------


@pytest.fixture(scope="module")
def zero():
    m = xz.load(PROGRAMS / "zero_state.mlir")
    return m, xz.compile(m)


@pytest.mark.parametrize(("name", "dtype", "rel"), [("sqrt_state", np.float64, 1e-6), ("norm_state", np.float32, 2e-3)])
def test_zero_state_both_modes(zero, name, dtype, rel):
    m, lib = zero
    p = np.array([0.3, -0.2, 0.45, 0.1, -0.35], dtype=dtype)
    f = getattr(lib, name)
    h = 1e-6 if dtype == np.float64 else 1e-2
    want = fd_array(lambda: f(p), p, h)
    dp = np.zeros_like(p)
    _structured(xz.gradient(m, name, ["dup"]))(p, dp)
    assert np.all(np.isfinite(dp))
    np.testing.assert_allclose(dp, want, rtol=rel, atol=rel * 1e-2)
    v = (0.2 + 0.1 * np.arange(5)).astype(dtype)
    t = _structured(xz.tangent(m, name, ["dup"]))(p, v)
    assert np.isfinite(t)
    assert t == pytest.approx(fd(lambda s: f((p + s * v).astype(dtype)), 0.0, h), rel=rel)


@pytest.mark.parametrize("n", [1, 4])
def test_zero_state_sqrt_and_division(zero, n):
    m, lib = zero
    x = 0.8
    want = fd(lambda t: lib.sqrt_div_state(t, n), x)
    d = _structured(xz.gradient(m, "sqrt_div_state", ["active", "const"]))(x, n)
    assert d == pytest.approx(want, rel=1e-6)
    t = _structured(xz.tangent(m, "sqrt_div_state", ["dup", "const"]))(x, 1.0, n)
    assert t == pytest.approx(want, rel=1e-6)


# ---- scf.while ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loops():
    m = xz.load(PROGRAMS / "while.mlir")
    return m, xz.compile(m)


def _lowered_first(m, name, activity):
    """The same gradient with the module lowered to llvm first (the other level)."""
    from xenzyme.api import _lower_structured, gradient
    from xenzyme.backend.memrefs import MemrefCall

    lowered, types, given, expanded = _lower_structured(m, name, activity, False)
    return MemrefCall(gradient(lowered, name, expanded, preopt=2), name, types, given)


@pytest.mark.parametrize(("a", "x0"), [(2.0, 1.0), (30.0, 4.0), (8.0, 2.0)])  # some steps, many, none
def test_newton_to_convergence(loops, a, x0):
    m, lib = loops
    assert lib.newton_cbrt(a, x0) == pytest.approx(a ** (1 / 3), rel=1e-12)
    g = _structured(xz.gradient(m, "newton_cbrt", ["active", "active"]))
    da, dx0 = g(a, x0)
    # the converged root does not depend on x0 (up to the last step's residue); d/da a^(1/3)
    assert da == pytest.approx(fd(lambda t: lib.newton_cbrt(t, x0), a, 1e-7), rel=1e-5)
    assert da == pytest.approx(a ** (-2 / 3) / 3, rel=1e-6)
    assert abs(dx0) < 1e-6
    low = _lowered_first(m, "newton_cbrt", ["active", "active"])(a, x0)
    assert low == pytest.approx((da, dx0), rel=1e-12, abs=1e-15)
    t = _structured(xz.tangent(m, "newton_cbrt", ["dup", "const"]))(a, 1.0, x0)
    assert t == pytest.approx(da, rel=1e-9)


def test_bisection_f32(loops):
    m, lib = loops
    p, q, lo, hi = np.float32(1.5), np.float32(2.0), np.float32(0.0), np.float32(2.0)
    r = lib.bisect(p, q, lo, hi)
    assert r**3 + p * r - q == pytest.approx(0.0, abs=1e-5)
    slope = 3 * r * r + p  # the root's derivatives by the implicit function theorem
    g = _structured(xz.gradient(m, "bisect", ["active", "active", "const", "const"]))
    dp, dq = g(p, q, lo, hi)
    assert dq == pytest.approx(fd(lambda t: lib.bisect(p, t, lo, hi), q, 1e-2), rel=1e-2)
    assert dp == pytest.approx(fd(lambda t: lib.bisect(t, q, lo, hi), p, 1e-2), rel=1e-2)
    assert (dp, dq) == pytest.approx((-r / slope, 1 / slope), rel=1e-3)
    low = _lowered_first(m, "bisect", ["active", "active", "const", "const"])(p, q, lo, hi)
    assert low == pytest.approx((dp, dq), rel=1e-6)
    t = _structured(xz.tangent(m, "bisect", ["dup", "dup", "const", "const"]))(p, 1.0, q, -2.0, lo, hi)
    assert t == pytest.approx(dp - 2 * dq, rel=1e-5)


@pytest.mark.parametrize("limit", [0.5, 2.0, 100.0])  # stops early, midway, runs to the end
def test_memref_until_threshold(loops, limit):
    m, lib = loops
    x, c = np.array([0.3, -0.8, 0.5, 1.1, -0.4, 0.9]), 1.3
    acc, i, last = 0.0, 0, 0.0
    while acc < limit and i < len(x):
        acc, last, i = acc + c * x[i] ** 2, np.sin(x[i]), i + 1
    assert lib.until_threshold(x, c, limit) == pytest.approx(acc * last, rel=1e-12)
    dx = np.zeros_like(x)
    dc = _structured(xz.gradient(m, "until_threshold", ["dup", "active", "const"]))(x, dx, c, limit)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.until_threshold(x, c, limit), x, 1e-7), rtol=1e-5, atol=1e-9)
    assert dc == pytest.approx(fd(lambda t: lib.until_threshold(x, t, limit), c, 1e-7), rel=1e-5)
    dx_low = np.zeros_like(x)
    dc_low = _lowered_first(m, "until_threshold", ["dup", "active", "const"])(x, dx_low, c, limit)
    np.testing.assert_allclose(dx_low, dx, rtol=1e-12, atol=1e-15)
    assert dc_low == pytest.approx(dc, rel=1e-12)
    v = np.linspace(-1, 1, 6)
    t = _structured(xz.tangent(m, "until_threshold", ["dup", "const", "const"]))(x, v, c, limit)
    assert t == pytest.approx(fd(lambda s: lib.until_threshold(x + s * v, c, limit), 0.0, 1e-7), rel=1e-5)


def test_nested_while_falls_back_to_llvm(loops):
    m, lib = loops
    g = xz.gradient(m, "nested", ["active", "const"])
    assert not isinstance(g, GradientCall)
    for x in (0.7, 5.0):
        assert g(x, 3) == pytest.approx(fd(lambda t: lib.nested(t, 3), x, 1e-6), rel=1e-5, abs=1e-7)


def test_while_that_writes_falls_back_to_llvm(loops):
    m, lib = loops
    a0 = np.array([0.2, 0.3])  # three trips from x = 6
    g = xz.gradient(m, "writes", ["dup", "active"])
    assert not isinstance(g, GradientCall)
    a, da = a0.copy(), np.zeros(2)
    dx = g(a, da, 6.0)

    def run(x, a):
        return lib.writes(a.copy(), x)

    assert dx == pytest.approx(fd(lambda t: run(t, a0), 6.0, 1e-7), rel=1e-5)
    np.testing.assert_allclose(da, fd_array(lambda: run(6.0, a0), a0, 1e-7), rtol=1e-5)
