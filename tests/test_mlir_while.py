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
