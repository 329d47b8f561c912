"""The affine dialect (affine.for/load/store/apply), lowered to scf/memref/arith by
convert-affine-to-scf and differentiated in both modes at both levels (the structured level,
and the module lowered to llvm first).

Every primal is checked against numpy, every derivative against central finite differences
of the compiled primal (or exact values).  Programs are in tests/programs/mlir/affine.mlir.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from conftest import XENZYME_OPT, fd, fd_array
from test_mlir_views import LEVELS, _derivative

import xenzyme as xz

PROGRAM = __import__("pathlib").Path(__file__).parent / "programs" / "mlir" / "affine.mlir"


@pytest.fixture(scope="module")
def prog():
    m = xz.load(PROGRAM)
    return m, xz.compile(m)


@pytest.mark.parametrize("level", LEVELS)
def test_matvec(prog, level):
    m, lib = prog
    rng = np.random.default_rng(8)
    A, x = rng.standard_normal((4, 3)), rng.standard_normal(3)
    y = np.zeros(4)
    lib.matvec(A, x, y)
    np.testing.assert_allclose(y, A @ x, rtol=1e-12)
    W = rng.standard_normal(4)
    dA, dx, dy = np.zeros_like(A), np.zeros_like(x), W.copy()
    _derivative(m, "matvec", ["dup", "dup", "dup"], level)(A, dA, x, dx, np.zeros(4), dy)
    np.testing.assert_allclose(dA, np.outer(W, x), rtol=1e-12)  # exact: bilinear
    np.testing.assert_allclose(dx, A.T @ W, rtol=1e-12)
    np.testing.assert_array_equal(dy, 0.0)
    tA, tx, ty = rng.standard_normal((4, 3)), rng.standard_normal(3), np.zeros(4)
    _derivative(m, "matvec", ["dup", "dup", "dup"], level, forward=True)(A, tA, x, tx, np.zeros(4), ty)
    np.testing.assert_allclose(ty, tA @ x + A @ tx, rtol=1e-12)


@pytest.mark.parametrize("level", LEVELS)
def test_shifted_stencil_with_step(prog, level):
    m, lib = prog
    x, w = np.linspace(-1.0, 1.0, 8), 0.7
    ref = sum(x[i - 1] * x[i + 1] + np.sin(x[i] * w) for i in range(1, 7, 2))
    assert lib.stencil(x, w) == pytest.approx(ref, rel=1e-12)
    dx = np.zeros(8)
    dw = _derivative(m, "stencil", ["dup", "active"], level)(x, dx, w)
    assert dw == pytest.approx(fd(lambda s: lib.stencil(x, s), w), rel=1e-6)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.stencil(x, w), x), rtol=1e-6, atol=1e-9)
    tx = np.linspace(0.5, -0.5, 8)
    d = _derivative(m, "stencil", ["dup", "dup"], level, forward=True)(x, tx, w, 2.0)
    assert d == pytest.approx(fd(lambda s: lib.stencil(x + s * tx, w + 2 * s), 0.0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_symbol_bound_mod_map_in_place(prog, level):
    m, lib = prog
    x0, w = np.array([0.3, -0.2, 0.5, 0.1, 0.4]), 0.6

    def run(x, n, ww):
        return lib.rotate(x.copy(), n, ww)

    for n in (3, 5):
        z, acc = x0.copy(), 0.0
        for i in range(n):
            z[i] = np.exp(z[i] * z[(i + 2) % 5]) * w
            acc += z[i]
        assert run(x0, n, w) == pytest.approx(acc, rel=1e-12)
    g = _derivative(m, "rotate", ["dup", "const", "active"], level)
    for n in (3, 5):
        dx = np.zeros(5)
        dw = g(x0.copy(), dx, n, w)
        assert dw == pytest.approx(fd(lambda s: run(x0, n, s), w), rel=1e-6)
        probe = x0.copy()
        np.testing.assert_allclose(dx, fd_array(lambda: run(probe, n, w), probe), rtol=1e-6, atol=1e-9)
    tx = np.array([1.0, -0.5, 0.25, 0.5, -1.0])
    d = _derivative(m, "rotate", ["dup", "const", "dup"], level, forward=True)(x0.copy(), tx.copy(), 5, w, 0.5)
    assert d == pytest.approx(fd(lambda s: run(x0 + s * tx, 5, w + 0.5 * s), 0.0), rel=1e-6)


def test_floor_and_ceil_division_any_sign():
    """The divisions affine maps lower to (floordiv, ceildiv, mod) round as Python's do."""
    text = """\
func.func @fl(%a: i64, %b: i64) -> i64 {
  %r = arith.floordivsi %a, %b : i64
  func.return %r : i64
}
func.func @ce(%a: i64, %b: i64) -> i64 {
  %r = arith.ceildivsi %a, %b : i64
  func.return %r : i64
}
func.func @md(%a: index) -> index {
  %r = affine.apply affine_map<(d0) -> (d0 mod 3)>(%a)
  func.return %r : index
}
"""
    lib = xz.compile(xz.load(text, language="mlir"))
    for a in range(-7, 8):
        assert lib.md(a) == a % 3
        for b in (-3, -2, -1, 1, 2, 3):
            assert (lib.fl(a, b), lib.ce(a, b)) == (a // b, -((-a) // b)), (a, b)


def test_unsupported_affine_op_is_an_error(tmp_path):
    src = tmp_path / "if.mlir"
    src.write_text("""\
func.func @f(%x: memref<4xf64>) {
  %c = arith.constant 1.0 : f64
  affine.for %i = 0 to 4 {
    "affine.if"(%i) <{condition = affine_set<(d0) : (d0 - 2 >= 0)>}> ({
      affine.store %c, %x[%i] : memref<4xf64>
      "affine.yield"() : () -> ()
    }, {
      "affine.yield"() : () -> ()
    }) : (index) -> ()
  }
  func.return
}
""")
    r = subprocess.run([*XENZYME_OPT, str(src), "-p", "lower-structured"], capture_output=True, text=True)
    assert r.returncode == 1
    assert f"xenzyme-opt: error: {src}:4:5: 'affine.if' is not supported yet" in r.stderr
    assert "note: use affine.for, affine.load, affine.store, affine.apply and affine.min" in r.stderr
    assert "Traceback" not in r.stderr
