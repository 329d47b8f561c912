"""Structured-dialect input (func/arith/math/scf/cf/memref): lowered to llvm, run and
differentiated through the Python API.

Every derivative is checked against central finite differences of the compiled primal, and
every primal against a numpy reference; memrefs are numpy arrays.  Programs are in
tests/programs/mlir/; each is loaded and compiled once per module.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import fd, fd_array

import xenzyme as xz
from xenzyme.diagnostics import XenzymeError

PROGRAMS = Path(__file__).parent / "programs" / "mlir"


@pytest.fixture(scope="module")
def scalar():
    m = xz.load(PROGRAMS / "scalar.mlir")
    return m, xz.compile(m)


@pytest.fixture(scope="module")
def loops():
    m = xz.load(PROGRAMS / "loops.mlir")
    return m, xz.compile(m)


@pytest.fixture(scope="module")
def arrays():
    m = xz.load(PROGRAMS / "arrays.mlir")
    return m, xz.compile(m)


# ---- straight-line code ---------------------------------------------------------------------


def _chain_ref(x: float, y: float) -> float:
    q = x * x + 1
    r = math.exp(math.sin(x) * y) - math.log(q) / y
    return -math.tanh(r) + math.sqrt(q) ** y


@pytest.mark.parametrize(("x", "y"), [(0.3, 1.7), (-1.2, 0.6)])
def test_scalar_chain_f64(scalar, x, y):
    m, lib = scalar
    assert lib.chain(x, y) == pytest.approx(_chain_ref(x, y), rel=1e-12)
    g = xz.gradient(m, "chain")  # defaults: both floats active
    dx, dy = g(x, y)
    assert dx == pytest.approx(fd(lambda t: lib.chain(t, y), x), rel=1e-6)
    assert dy == pytest.approx(fd(lambda t: lib.chain(x, t), y), rel=1e-6)


def test_scalar_chain_f32(scalar):
    m, lib = scalar
    x, y = 0.4, 1.3
    ref = max(math.log1p(math.cos(x) * y), 2 * y) + math.exp(x)
    assert lib.chain32(x, y) == pytest.approx(ref, rel=1e-6)
    g = xz.gradient(m, "chain32", ["active", "active"])
    dx, dy = g(x, y)
    ref_dx = fd(lambda t: max(math.log1p(math.cos(t) * y), 2 * y) + math.exp(t), x)
    ref_dy = fd(lambda t: max(math.log1p(math.cos(x) * t), 2 * t) + math.exp(x), y)
    assert dx == pytest.approx(ref_dx, rel=1e-4)
    assert dy == pytest.approx(ref_dy, rel=1e-4)


def test_mixed_precision_and_casts(scalar):
    m, lib = scalar
    x, y, k = 0.7, np.float32(0.25), 3
    assert lib.mixed(x, y, k) == pytest.approx(math.atan(abs(x * float(y) * k)), rel=1e-12)
    g = xz.gradient(m, "mixed", ["active", "active", "const"])
    dx, dy = g(x, y, k)
    assert dx == pytest.approx(fd(lambda t: lib.mixed(t, y, k), x), rel=1e-6)
    assert dy == pytest.approx(fd(lambda t: math.atan(abs(x * t * k)), float(y)), rel=1e-5)


def test_scalar_forward_mode(scalar):
    m, lib = scalar
    x, y = 0.3, 1.7
    t = xz.tangent(m, "chain", ["dup", "dup"])
    want = fd(lambda s: lib.chain(x + s * 0.5, y - s * 2.0), 0.0)
    assert t(x, 0.5, y, -2.0) == pytest.approx(want, rel=1e-6)
    tv = xz.tangent(m, "chain", ["dup", "const"], width=2)
    d1, d2 = tv(x, 1.0, 3.0, y)
    dx = fd(lambda s: lib.chain(s, y), x)
    assert (d1, d2) == (pytest.approx(dx, rel=1e-6), pytest.approx(3 * dx, rel=1e-6))


# ---- loops ----------------------------------------------------------------------------------


def _recurrence_ref(x: float, n: int) -> float:
    p = 1.0
    for _ in range(n):
        p = p * x + math.sin(p)
    return p


@pytest.mark.parametrize("n", [0, 1, 7])
def test_for_iter_args(loops, n):
    m, lib = loops
    x = 0.8
    assert lib.recurrence(x, n) == pytest.approx(_recurrence_ref(x, n), rel=1e-12)
    g = xz.gradient(m, "recurrence", ["active", "const"])
    assert g(x, n) == pytest.approx(fd(lambda t: lib.recurrence(t, n), x), rel=1e-6, abs=1e-9)


def test_for_two_carried_values(loops):
    m, lib = loops
    x, n = 1.1, 5
    ref = sum(x ** (i + 1) * i for i in range(n)) + x**n
    assert lib.two_carried(x, n) == pytest.approx(ref, rel=1e-12)
    g = xz.gradient(m, "two_carried", ["active", "const"])
    assert g(x, n) == pytest.approx(fd(lambda t: lib.two_carried(t, n), x), rel=1e-6)


def test_dynamic_memref_f32(loops):
    m, lib = loops
    a = np.array([0.5, -1.25, 2.0, 0.75, 3.0], dtype=np.float32)
    assert lib.sumsq(a) == pytest.approx(float((a.astype(np.float64) ** 2).sum()), rel=1e-6)
    g = xz.gradient(m, "sumsq", ["dup"])
    da = np.zeros_like(a)
    assert g(a, da) is None
    np.testing.assert_allclose(da, 2 * a, rtol=1e-6)  # exact: d/da sum a^2 = 2a
    want = fd_array(lambda: lib.sumsq(a), a, h=1e-2)
    np.testing.assert_allclose(da, want, rtol=1e-2)


@pytest.mark.parametrize("n", [0, 3])
def test_unstructured_cf_loop(loops, n):
    m, lib = loops
    x = 1.3
    ref = x
    for _ in range(n):
        ref = ref * ref * 0.5
    assert lib.cf_loop(x, n) == pytest.approx(ref, rel=1e-12)
    g = xz.gradient(m, "cf_loop", ["active", "const"])
    assert g(x, n) == pytest.approx(fd(lambda t: lib.cf_loop(t, n), x), rel=1e-6)


# ---- memrefs --------------------------------------------------------------------------------


def test_matvec_reverse(arrays):
    m, lib = arrays
    rng = np.random.default_rng(1)
    A, x = rng.standard_normal((4, 3)), rng.standard_normal(3)
    y = np.zeros(4)
    lib.matvec(A, x, y)
    np.testing.assert_allclose(y, A @ x, rtol=1e-12)
    w = rng.standard_normal(4)  # the adjoint of y: the gradient of w . y
    g = xz.gradient(m, "matvec", ["dup", "dup", "dup"])
    dA, dx, dy = np.zeros_like(A), np.zeros_like(x), w.copy()
    g(A, dA, x, dx, y, dy)

    def wy():
        out = np.zeros(4)
        lib.matvec(A, x, out)
        return float(w @ out)

    np.testing.assert_allclose(dA, fd_array(wy, A), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dx, fd_array(wy, x), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dy, 0.0, atol=1e-12)  # y is overwritten: its adjoint is consumed


def test_matvec_forward(arrays):
    m, lib = arrays
    rng = np.random.default_rng(2)
    A, x = rng.standard_normal((4, 3)), rng.standard_normal(3)
    dA, dx = rng.standard_normal((4, 3)), rng.standard_normal(3)
    t = xz.tangent(m, "matvec", ["dup", "dup", "dup"])
    y, ty = np.zeros(4), np.zeros(4)
    t(A, dA, x, dx, y, ty)
    np.testing.assert_allclose(ty, dA @ x + A @ dx, rtol=1e-12)  # exact: bilinear


@pytest.mark.parametrize("shape", [(3, 2), (2, 5)])
def test_dynamic_2d_loss(arrays, shape):
    m, lib = arrays
    rng = np.random.default_rng(3)
    A, x = rng.standard_normal(shape), rng.standard_normal(shape[1])
    assert lib.loss(A, x) == pytest.approx(float(np.tanh(A @ x).sum()), rel=1e-12)
    g = xz.gradient(m, "loss", ["dup", "dup"])
    dA, dx = np.zeros_like(A), np.zeros_like(x)
    g(A, dA, x, dx)
    np.testing.assert_allclose(dA, fd_array(lambda: lib.loss(A, x), A), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.loss(A, x), x), rtol=1e-6, atol=1e-9)


def test_if_with_results_in_place(arrays):
    m, lib = arrays
    a0 = np.array([0.5, -0.3, 1.2, -2.0, 0.1])
    w = 0.9

    def ref(a, w):
        y = np.where(a > 0, a * w, np.sin(np.exp(a) * w))
        return y, float(y.sum())

    a = a0.copy()
    assert lib.activate(a, w) == pytest.approx(ref(a0, w)[1], rel=1e-12)
    np.testing.assert_allclose(a, ref(a0, w)[0], rtol=1e-12)
    g = xz.gradient(m, "activate", ["dup", "active"])
    a, da = a0.copy(), np.zeros(5)
    dw = g(a, da, w)

    def run(arr, ww):
        c = arr.copy()
        return lib.activate(c, ww)

    assert dw == pytest.approx(fd(lambda t: run(a0, t), w), rel=1e-6)
    probe = a0.copy()
    want = fd_array(lambda: run(probe, w), probe)
    np.testing.assert_allclose(da, want, rtol=1e-6, atol=1e-9)


def test_allocated_temporary_and_call(arrays):
    m, lib = arrays
    x = np.array([0.3, -0.1, 0.7, 0.2, -0.4, 0.5])
    c = np.cumsum(x)
    assert lib.prefix(x) == pytest.approx(float((c**2).sum() * c[-1]), rel=1e-12)
    g = xz.gradient(m, "prefix", ["dup"])
    dx = np.zeros_like(x)
    g(x, dx)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.prefix(x), x), rtol=1e-6, atol=1e-9)


def test_request_in_the_program(arrays):
    """`autodiff.autodiff` on a func.func, compiled by xz.compile (the enzyme pipeline)."""
    m, lib = arrays
    rng = np.random.default_rng(4)
    A, x = rng.standard_normal((3, 4)), rng.standard_normal(4)
    dA, dx = np.zeros_like(A), np.zeros_like(x)
    lib.grad_loss(A, dA, x, dx)
    np.testing.assert_allclose(dA, fd_array(lambda: lib.loss(A, x), A), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.loss(A, x), x), rtol=1e-6, atol=1e-9)


# ---- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((np.zeros((3, 4)), np.zeros(4), np.zeros(4)), "shape 4x3"),
        ((np.zeros((4, 3), dtype=np.float32), np.zeros(3), np.zeros(4)), "array of float64"),
        ((np.zeros((3, 4)).T, np.zeros(3), np.zeros(4)), "C-contiguous"),
        (([0.0] * 12, np.zeros(3), np.zeros(4)), "must be a numpy array"),
        ((np.zeros((4, 3)), np.zeros(3)), "takes 3 arguments"),
    ],
)
def test_wrong_arrays_are_errors(arrays, args, message):
    _, lib = arrays
    with pytest.raises(XenzymeError, match=message):
        lib.matvec(*args)


def test_shadow_checked_too(arrays):
    m, _ = arrays
    g = xz.gradient(m, "loss", ["dup", "dup"])
    A, x = np.zeros((2, 3)), np.zeros(3)
    with pytest.raises(XenzymeError, match="shadow of argument 1 must have the shape of the argument, 3, got 2"):
        g(A, np.zeros_like(A), x, np.zeros(2))
    with pytest.raises(XenzymeError, match="the shadow of argument 0 shares memory with the argument"):
        g(A, A, x, np.zeros(3))
    with pytest.raises(XenzymeError, match="the shadow of argument 1 must be an array of float64"):
        g(A, np.zeros_like(A), x, np.zeros(3, dtype=np.float32))


@pytest.mark.parametrize(
    ("activity", "message"),
    [
        (["active", "dup", "dup"], "argument 0 .* is marked 'active' but is not a float"),
        (["dup", "dup"], "takes 3 arguments, 2 activities given"),
        (["dup", "dup", "sideways"], "unknown activity 'sideways'"),
    ],
)
def test_bad_activities(arrays, activity, message):
    m, _ = arrays
    with pytest.raises(XenzymeError, match=message):
        xz.gradient(m, "matvec", activity)


def test_scalar_dup_in_reverse_is_an_error(scalar):
    m, _ = scalar
    with pytest.raises(XenzymeError, match="is not a memref"):
        xz.gradient(m, "chain", ["dup", "active"])


_UNSUPPORTED = """\
func.func @f(%x: i64) -> i64 {
  %c = arith.constant 3 : i64
  %y = arith.ceildivui %x, %c : i64
  func.return %y : i64
}
"""


def test_unsupported_op_api():
    m = xz.load(_UNSUPPORTED, language="mlir", filename="bad.mlir")
    with pytest.raises(XenzymeError) as e:
        xz.compile(m)
    assert "'arith.ceildivui' has no lowering" in e.value.message
    assert str(e.value.location) == "bad.mlir:3:3"
    assert e.value.notes


def test_unsupported_op_cli(tmp_path):
    path = tmp_path / "bad.mlir"
    path.write_text(_UNSUPPORTED)
    r = subprocess.run([sys.executable, "-m", "xenzyme.cli.xenzyme_opt", str(path), "-p", "enzyme"],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 1
    assert f"xenzyme-opt: error: {path}:3:3: 'arith.ceildivui' has no lowering" in r.stderr
    assert "note:" in r.stderr and "Traceback" not in r.stderr


# ---- models -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def models():
    m = xz.load(PROGRAMS / "models.mlir")
    return m, xz.compile(m)


@pytest.mark.parametrize("x", [0.5, 3.0, 40.0])  # no, some and many trips
def test_while_data_dependent_exit(models, x):
    m, lib = models
    k = 0.5
    v = x
    while v > 1:
        v = v * k + 0.1 * math.sin(v * k)
    assert lib.damp(x, k) == pytest.approx(v, rel=1e-12)
    g = xz.gradient(m, "damp", ["active", "active"])
    dx, dk = g(x, k)
    h = 1e-7  # small enough not to change the trip count
    assert dx == pytest.approx(fd(lambda t: lib.damp(t, k), x, h), rel=1e-5)
    assert dk == pytest.approx(fd(lambda t: lib.damp(x, t), k, h), rel=1e-5)


def test_logsumexp(models):
    m, lib = models
    x = np.array([0.3, 2.5, -1.0, 2.4, 0.0])
    ref = float(np.log(np.exp(x - x.max()).sum()) + x.max())
    assert lib.logsumexp(x) == pytest.approx(ref, rel=1e-12)
    g = xz.gradient(m, "logsumexp", ["dup"])
    dx = np.zeros_like(x)
    g(x, dx)
    np.testing.assert_allclose(dx, np.exp(x - ref), rtol=1e-10)  # exact: the softmax
    np.testing.assert_allclose(dx, fd_array(lambda: lib.logsumexp(x), x), rtol=1e-6)


def test_softmax_f32(models):
    m, lib = models
    x = np.array([0.1, -0.4, 0.9, 0.3, -1.2, 0.5], dtype=np.float32)
    y = np.zeros(6, dtype=np.float32)
    lib.softmax(x, y)
    p = np.exp(x.astype(np.float64)) / np.exp(x.astype(np.float64)).sum()
    np.testing.assert_allclose(y, p, rtol=1e-5)
    w = np.array([1.0, -2.0, 0.5, 0.0, 3.0, 1.5], dtype=np.float32)
    g = xz.gradient(m, "softmax", ["dup", "dup"])
    dx, dy = np.zeros_like(x), w.copy()
    g(x, dx, np.zeros(6, dtype=np.float32), dy)
    want = p * (w - (p * w).sum())  # exact: the softmax Jacobian applied to w
    np.testing.assert_allclose(dx, want, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("steps", [1, 20])
def test_ode_time_loop(models, steps):
    m, lib = models
    u0, k = np.array([0.4, -0.9, 1.3]), 0.8

    def run(u, kk):
        c = u.copy()
        return lib.euler(c, kk, steps)

    u = u0.copy()
    for _ in range(steps):
        u = u + 0.05 * (np.sin(u) - k * u)
    assert run(u0, k) == pytest.approx(float((u**2).sum()), rel=1e-12)
    g = xz.gradient(m, "euler", ["dup", "active", "const"])
    uu, du = u0.copy(), np.zeros(3)
    dk = g(uu, du, k, steps)
    assert dk == pytest.approx(fd(lambda t: run(u0, t), k), rel=1e-6)
    probe = u0.copy()
    np.testing.assert_allclose(du, fd_array(lambda: run(probe, k), probe), rtol=1e-6)


def test_matmul_f32_reverse_and_forward(models):
    m, lib = models
    rng = np.random.default_rng(5)
    A = rng.standard_normal((3, 4)).astype(np.float32)
    B = rng.standard_normal((4, 2)).astype(np.float32)
    C = np.zeros((3, 2), dtype=np.float32)
    lib.matmul(A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-5)
    W = rng.standard_normal((3, 2)).astype(np.float32)
    g = xz.gradient(m, "matmul", ["dup", "dup", "dup"])
    dA, dB, dC = np.zeros_like(A), np.zeros_like(B), W.copy()
    g(A, dA, B, dB, np.zeros_like(C), dC)
    np.testing.assert_allclose(dA, W @ B.T, rtol=1e-4, atol=1e-5)  # exact: bilinear
    np.testing.assert_allclose(dB, A.T @ W, rtol=1e-4, atol=1e-5)
    t = xz.tangent(m, "matmul", ["dup", "dup", "dup"], width=2)
    tA = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(2)]
    tB = [rng.standard_normal((4, 2)).astype(np.float32) for _ in range(2)]
    tC = [np.zeros((3, 2), dtype=np.float32) for _ in range(2)]
    t(A, *tA, B, *tB, np.zeros_like(C), *tC)
    for k in range(2):
        np.testing.assert_allclose(tC[k], tA[k] @ B + A @ tB[k], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("mode", ["forward", "reverse"])
def test_jacobian(arrays, mode):
    m, _ = arrays
    rng = np.random.default_rng(6)
    A, x, y = rng.standard_normal((4, 3)), rng.standard_normal(3), np.zeros(4)
    jac = xz.jacobian(m, "matvec", inputs=[1], output=2, mode=mode, width=3)
    np.testing.assert_allclose(jac(A, x, y), A, rtol=1e-12)  # exact: d (A x) / d x = A
    np.testing.assert_allclose(y, A @ x, rtol=1e-12)


@pytest.mark.parametrize("preopt", [0, 3])
def test_optimisation_levels(models, preopt):
    """Differentiated as lowered (no LLVM optimisation first: the lowering itself leaves no
    descriptor structs) and after -O3."""
    m, _ = models
    x = np.array([1.5, -0.2, 0.7, 3.1, 2.2, -4.0, 0.0])
    g = xz.gradient(m, "logsumexp", ["dup"], preopt=preopt, postopt=preopt)
    dx = np.zeros_like(x)
    g(x, dx)
    p = np.exp(x - x.max())
    np.testing.assert_allclose(dx, p / p.sum(), rtol=1e-12)  # exact: the softmax


_GATHER = """\
func.func @pick(%perm: memref<3xindex>, %x: memref<3xf64>) -> f64 {
  %c1 = arith.constant 1 : index
  %j = memref.load %perm[%c1] : memref<3xindex>
  %v = memref.load %x[%j] : memref<3xf64>
  %s = arith.mulf %v, %v : f64
  func.return %s : f64
}
"""


@pytest.mark.parametrize("j", [0, 2])
def test_memref_of_index_as_int64_array(j):
    m = xz.load(_GATHER, language="mlir")
    perm, x = np.array([1, j, 0]), np.array([1.5, -2.0, 3.0])
    assert xz.compile(m).pick(perm, x) == x[j] ** 2
    dx = np.zeros(3)
    xz.gradient(m, "pick", ["const", "dup"])(perm, x, dx)
    np.testing.assert_array_equal(dx, np.eye(3)[j] * 2 * x[j])  # exact


@pytest.mark.parametrize("k", [1, 3])
def test_memref_passed_on_and_recursion(arrays, k):
    m, lib = arrays
    a = np.array([0.5, -0.3, 0.8])
    assert lib.energy(a, k) == pytest.approx(float(a @ a) ** k, rel=1e-12)
    g = xz.gradient(m, "energy", ["dup", "const"])
    da = np.zeros_like(a)
    g(a, da, k)
    np.testing.assert_allclose(da, k * float(a @ a) ** (k - 1) * 2 * a, rtol=1e-12)  # exact
    assert xz.gradient(m, "power", ["active", "const"])(1.3, 4) == pytest.approx(4 * 1.3**3, rel=1e-12)
