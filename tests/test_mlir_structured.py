"""Reverse and forward mode at the structured level (func/arith/math/scf/memref differentiated as such,
xenzyme/transforms/diff/structured.py), through the Python API.

Every derivative is checked against central finite differences of the compiled primal (or
exact values); each test also checks that the structured level built it (a `GradientCall`),
not the fallback that lowers to llvm first.  Programs are in tests/programs/mlir/structured.mlir,
loaded and compiled once.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import fd, fd_array

import xenzyme as xz
from xenzyme.backend.memrefs import GradientCall

PROGRAM = __import__("pathlib").Path(__file__).parent / "programs" / "mlir" / "structured.mlir"


@pytest.fixture(scope="module")
def prog():
    m = xz.load(PROGRAM)
    return m, xz.compile(m)


def _grad(m, name, activity):
    g = xz.gradient(m, name, activity)
    assert isinstance(g, GradientCall), f"@{name} was not differentiated at the structured level"
    return g


@pytest.mark.parametrize(("x", "y"), [(0.7, 1.3), (1.9, -0.4)])  # both sides of the select and max
def test_arith_mix(prog, x, y):
    m, lib = prog
    dx, dy = _grad(m, "arith_mix", ["active", "active"])(x, y)
    assert dx == pytest.approx(fd(lambda t: lib.arith_mix(t, y), x), rel=1e-6)
    assert dy == pytest.approx(fd(lambda t: lib.arith_mix(x, t), y), rel=1e-6)


def test_math_mix(prog):
    m, lib = prog
    x, y = 0.6, 1.4
    dx, dy = _grad(m, "math_mix", ["active", "active"])(x, y)
    assert dx == pytest.approx(fd(lambda t: lib.math_mix(t, y), x), rel=1e-6)
    assert dy == pytest.approx(fd(lambda t: lib.math_mix(x, t), y), rel=1e-6)


def test_f32_with_conversions(prog):
    m, lib = prog
    x, y = 0.3, 1.1
    dx, dy = _grad(m, "mixed32", ["active", "active"])(x, y)
    ref = lambda a, b: math.sin(a * b) * math.exp(a)  # noqa: E731
    assert lib.mixed32(x, y) == pytest.approx(ref(x, y), rel=1e-6)
    assert dx == pytest.approx(fd(lambda t: ref(t, y), x), rel=1e-5)
    assert dy == pytest.approx(fd(lambda t: ref(x, t), y), rel=1e-5)


def test_y_only_active(prog):
    m, _ = prog
    dy = _grad(m, "mixed32", ["const", "active"])(0.3, 1.1)
    assert dy == pytest.approx(fd(lambda t: math.sin(0.3 * t) * math.exp(0.3), 1.1), rel=1e-5)


@pytest.mark.parametrize("n", [0, 2, 3, 11, 12])  # no trip, one, and trip counts that round
def test_strided_loop(prog, n):
    m, lib = prog
    x = 0.45
    ref = 1.0
    for i in range(2, n, 3):
        ref = ref * x + math.cos(i * x)
    assert lib.strided(x, n) == pytest.approx(ref, rel=1e-12)
    d = _grad(m, "strided", ["active", "const"])(x, n)
    assert d == pytest.approx(fd(lambda t: lib.strided(t, n), x), rel=1e-6, abs=1e-9)


def test_counter_and_two_carried(prog):
    m, lib = prog
    x, y = 0.8, 0.5
    dx, dy = _grad(m, "counter", ["active", "active"])(x, y)
    assert dx == pytest.approx(fd(lambda t: lib.counter(t, y), x), rel=1e-6)
    assert dy == pytest.approx(fd(lambda t: lib.counter(x, t), y), rel=1e-6)


@pytest.mark.parametrize("shape", [(2, 3, 4), (3, 1, 2)])
def test_matmul_dynamic(prog, shape):
    m, lib = prog
    mm, k, n = shape
    rng = np.random.default_rng(7)
    A, B = rng.standard_normal((mm, k)), rng.standard_normal((k, n))
    C = np.zeros((mm, n))
    lib.matmul(A, B, C)
    np.testing.assert_allclose(C, A @ B, rtol=1e-12)
    W = rng.standard_normal((mm, n))
    dA, dB, dC = np.zeros_like(A), np.zeros_like(B), W.copy()
    assert _grad(m, "matmul", ["dup", "dup", "dup"])(A, dA, B, dB, np.zeros_like(C), dC) is None
    np.testing.assert_allclose(dA, W @ B.T, rtol=1e-12)  # exact: bilinear
    np.testing.assert_allclose(dB, A.T @ W, rtol=1e-12)
    np.testing.assert_array_equal(dC, 0.0)  # C is overwritten: its adjoint is consumed


@pytest.mark.parametrize("x", [0.7, -0.6])  # each branch
def test_if_with_results(prog, x):
    m, lib = prog
    w = 1.3
    dx, dw = _grad(m, "branch", ["active", "active"])(x, w)
    assert dx == pytest.approx(fd(lambda t: lib.branch(t, w), x), rel=1e-6)
    assert dw == pytest.approx(fd(lambda t: lib.branch(x, t), w), rel=1e-6)


def test_in_place_overwrite(prog):
    m, lib = prog
    a0, w = np.array([0.9, 1.2, -0.7, 0.4, 1.5]), 0.8

    def run(a, ww):
        c = a.copy()
        lib.inplace(c, ww)
        return c

    ref = a0.copy()
    for i in range(1, 5):
        ref[i] = math.sin(ref[i] * ref[i - 1] * w)
    np.testing.assert_allclose(run(a0, w), ref, rtol=1e-12)
    wt = np.array([0.5, -1.0, 2.0, 0.25, 1.5])  # the gradient of wt . a_out
    a, da = a0.copy(), wt.copy()
    dw = _grad(m, "inplace", ["dup", "active"])(a, da, w)
    np.testing.assert_allclose(a, ref, rtol=1e-12)
    assert dw == pytest.approx(fd(lambda t: float(wt @ run(a0, t)), w), rel=1e-6)
    probe = a0.copy()
    np.testing.assert_allclose(da, fd_array(lambda: float(wt @ run(probe, w)), probe), rtol=1e-6, atol=1e-9)


def test_cut_caches_product_of_overwritten_loads(prog):
    """The minimum cut caches the product of two loads of memory the loop overwrites (one
    memref, beside the carried value's) instead of both loads; the gradient is right."""
    from xenzyme.transforms.diff.structured import StructuredGenerator

    m, lib = prog
    x0, w0, c = np.array([0.3, -1.2, 0.8, 0.5, -0.4]), np.array([1.1, 0.7, -0.6, 0.9, 1.4]), 0.35

    def primal(cc):
        return lib.overwritten_product(x0.copy(), w0.copy(), cc)

    ref = 0.0
    for a, b in zip(x0, w0, strict=True):
        ref = ref * math.exp(a * b * c) + math.exp(a * b * c)
    assert primal(c) == pytest.approx(ref, rel=1e-12)
    counts = []
    for mincut in (True, False):
        gen = StructuredGenerator(m.clone(), mincut)
        counts.append(len(gen.caches[gen.gradient("overwritten_product", ["const", "const", "active"], "active")]))
    assert counts == [2, 3]
    x, w = x0.copy(), w0.copy()
    dc = _grad(m, "overwritten_product", ["const", "const", "active"])(x, w, c)
    np.testing.assert_allclose(x, x0 * w0, rtol=1e-15)  # (the primal ran: memory overwritten)
    assert dc == pytest.approx(fd(primal, c), rel=1e-6)


def test_cut_in_f32_nest(prog):
    """The cut on a 2-D nest in f32: one cache memref of products instead of two of loads."""
    from xenzyme.transforms.diff.structured import StructuredGenerator

    m, lib = prog
    A0 = np.array([[0.3, -1.2, 0.8], [0.5, -0.4, 1.1]], dtype=np.float32)
    B0 = np.array([[1.1, 0.7, -0.6], [0.9, 1.4, -0.2]], dtype=np.float32)
    c = 0.35
    acts = ["const", "const", "active"]
    caches = []
    for mincut in (True, False):
        gen = StructuredGenerator(m.clone(), mincut)
        caches.append(gen.caches[gen.gradient("overwritten_rows", acts, "active")])
    assert [str(t) for t in caches[0]] == ["memref<?x?xf32>"] and len(caches[1]) == 2
    ref = float(np.exp(A0.astype(np.float64) * B0 * c).sum())
    assert lib.overwritten_rows(A0.copy(), B0.copy(), c) == pytest.approx(ref, rel=1e-5)
    dc = _grad(m, "overwritten_rows", acts)(A0.copy(), B0.copy(), c)
    assert dc == pytest.approx(float((A0.astype(np.float64) * B0 * np.exp(A0.astype(np.float64) * B0 * c)).sum()),
                               rel=1e-5)  # (exact)
    assert dc == pytest.approx(fd(lambda t: lib.overwritten_rows(A0.copy(), B0.copy(), t), c, h=1e-2), rel=1e-3)


def test_scratch_memref_read_only_by_dead_code(prog):
    """A temporary only dead code reads gets no shadow; the gradient and tangent are right."""
    m, lib = prog
    x, a0 = 0.8, np.array([0.4, -1.1, 0.9, 0.3])
    ref = sum(math.sin(v * x) for v in a0) + math.sin(a0[1] * x)
    assert lib.scratch(x, a0.copy(), 2) == pytest.approx(ref, rel=1e-12)
    a, da = a0.copy(), np.zeros(4)
    dx = _grad(m, "scratch", ["active", "dup", "const"])(x, a, da, 2)
    assert dx == pytest.approx(fd(lambda t: lib.scratch(t, a0.copy(), 2), x), rel=1e-6)
    probe = a0.copy()
    np.testing.assert_allclose(da, fd_array(lambda: lib.scratch(x, probe, 2), probe), rtol=1e-6)
    t = _tan(m, "scratch", ["dup", "const", "const"])
    assert t(x, 1.0, a0.copy(), 2) == pytest.approx(fd(lambda s: lib.scratch(s, a0.copy(), 2), x), rel=1e-6)


def test_allocated_temporary(prog):
    m, lib = prog
    x = np.array([0.3, -0.2, 0.5, 0.1, 0.4, -0.6])
    e = np.exp(x)
    assert lib.temporary(x) == pytest.approx(float(np.sqrt(e[:-1] * e[1:]).sum()), rel=1e-12)
    dx = np.zeros_like(x)
    _grad(m, "temporary", ["dup"])(x, dx)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.temporary(x), x), rtol=1e-6, atol=1e-9)


def test_call_with_two_active_floats(prog):
    m, lib = prog
    x, y = np.array([0.3, -1.2, 0.8, 0.1, 2.0]), 0.7
    dx = np.zeros_like(x)
    dy = _grad(m, "norms", ["dup", "active"])(x, dx, y)
    assert dy == pytest.approx(fd(lambda t: lib.norms(x, t), y), rel=1e-6)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.norms(x, y), x), rtol=1e-6)


@pytest.mark.parametrize("label", [0, 3])
def test_cross_entropy(prog, label):
    m, lib = prog
    x = np.array([0.3, 2.5, -1.0, 2.4, 0.0])
    lse = float(np.log(np.exp(x - x.max()).sum()) + x.max())
    assert lib.xent(x, label) == pytest.approx(lse - x[label], rel=1e-12)
    dx = np.zeros_like(x)
    _grad(m, "xent", ["dup", "const"])(x, dx, label)
    np.testing.assert_allclose(dx, np.exp(x - lse) - np.eye(5)[label], rtol=1e-10, atol=1e-14)  # exact


def test_softmax_through_temporary(prog):
    m, lib = prog
    x = np.array([0.1, -0.4, 0.9, 0.3])
    y = np.zeros(4)
    lib.softmax4(x, y)
    p = np.exp(x) / np.exp(x).sum()
    np.testing.assert_allclose(y, p, rtol=1e-12)
    w = np.array([1.0, -2.0, 0.5, 3.0])
    dx = np.zeros(4)
    _grad(m, "softmax4", ["dup", "dup"])(x, dx, np.zeros(4), w.copy())
    np.testing.assert_allclose(dx, p * (w - (p * w).sum()), rtol=1e-10, atol=1e-14)  # exact


@pytest.mark.parametrize("steps", [1, 30])
def test_ode_time_loop(prog, steps):
    m, lib = prog
    u0, k, pc = np.array([1.0, -0.3]), 2.0, np.array([0.4])

    def run(u, kk):
        c = u.copy()
        return lib.heun(c, kk, pc, steps)

    u, du = u0.copy(), np.zeros(2)
    dk = _grad(m, "heun", ["dup", "active", "const", "const"])(u, du, k, pc, steps)
    assert dk == pytest.approx(fd(lambda t: run(u0, t), k), rel=1e-6)
    probe = u0.copy()
    np.testing.assert_allclose(du, fd_array(lambda: run(probe, k), probe), rtol=1e-6)


@pytest.mark.parametrize("steps", [1, 6])
def test_nested_reduction_and_if_in_loop(prog, steps):
    m, lib = prog
    A, v0 = np.array([0.6, -0.2, 0.9]), 0.7
    dA = np.zeros(3)
    dv = _grad(m, "iterate", ["dup", "active", "const"])(A, dA, v0, steps)
    assert dv == pytest.approx(fd(lambda t: lib.iterate(A, t, steps), v0), rel=1e-6)
    np.testing.assert_allclose(dA, fd_array(lambda: lib.iterate(A, v0, steps), A), rtol=1e-6, atol=1e-9)


def test_const_weights(prog):
    m, lib = prog
    rng = np.random.default_rng(3)
    W, x, b = rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal(3)
    assert lib.layer(W, x, b) == pytest.approx(float((np.tanh(W @ x + b) ** 2).sum()), rel=1e-12)
    dx, db = np.zeros(4), np.zeros(3)
    _grad(m, "layer", ["const", "dup", "dup"])(W, x, dx, b, db)
    t = np.tanh(W @ x + b)
    g = 2 * t * (1 - t * t)
    np.testing.assert_allclose(db, g, rtol=1e-12)  # exact
    np.testing.assert_allclose(dx, W.T @ g, rtol=1e-12)


# ---- both levels, and the fallback ------------------------------------------------------


@pytest.mark.parametrize(("name", "activity", "make"), [
    ("layer", ["dup", "dup", "dup"], lambda r: [r.standard_normal((3, 4)), r.standard_normal(4), r.standard_normal(3)]),
    ("heun", ["dup", "active", "const", "const"], lambda r: [r.standard_normal(2), 1.5, np.array([0.3]), 12]),
    ("overwritten_product", ["const", "const", "active"],
     lambda r: [r.standard_normal(7), r.standard_normal(7), 0.4]),
])  # fmt: skip
def test_structured_equals_lowered_first(prog, name, activity, make):
    """The same program differentiated at the structured level and lowered to llvm first."""
    from xenzyme.api import _lower_structured, gradient
    from xenzyme.backend.memrefs import MemrefCall

    m, _ = prog
    structured = _grad(m, name, activity)
    lowered, types, given, expanded = _lower_structured(m, name, activity, False)
    low = MemrefCall(gradient(lowered, name, expanded, preopt=2), name, types, given)
    results = []
    for g in (structured, low):
        args = make(np.random.default_rng(11))
        call, shadows = [], []
        for a, act in zip(args, activity, strict=True):
            call.append(a.copy() if isinstance(a, np.ndarray) else a)
            if act == "dup":
                shadows.append(np.zeros_like(a))
                call.append(shadows[-1])
        out = g(*call)
        results.append((out, shadows))
    (o1, s1), (o2, s2) = results
    assert (o1 is None) == (o2 is None)
    if o1 is not None:
        assert o1 == pytest.approx(o2, rel=1e-12)
    for a, b in zip(s1, s2, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


def test_while_at_the_structured_level():
    """scf.while is reversed at the structured level (more in tests/test_mlir_while.py)."""
    m = xz.load(PROGRAM.parent / "models.mlir")
    g = _grad(m, "damp", ["active", "active"])
    lib = xz.compile(m)
    dx, dk = g(3.0, 0.5)
    assert dx == pytest.approx(fd(lambda t: lib.damp(t, 0.5), 3.0, 1e-7), rel=1e-5)
    assert dk == pytest.approx(fd(lambda t: lib.damp(3.0, t), 0.5, 1e-7), rel=1e-5)


def test_triangular_nest(prog):
    m, lib = prog
    x = np.array([0.4, -1.1, 0.9, 2.0, 0.3])
    ref = sum(x[j] * x[i] for i in range(5) for j in range(i))
    assert lib.triangle(x) == pytest.approx(ref, rel=1e-12)
    dx = np.zeros_like(x)
    _grad(m, "triangle", ["dup"])(x, dx)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.triangle(x), x), rtol=1e-6)


def test_triangular_nest_with_caches_falls_back(prog):
    m, lib = prog
    x = np.array([0.4, -1.1, 0.9, 2.0, 0.3])
    g = xz.gradient(m, "triangle_cached", ["dup"])
    assert not isinstance(g, GradientCall)
    dx = np.zeros_like(x)
    g(x, dx)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.triangle_cached(x), x), rtol=1e-6)


# ---- forward mode -----------------------------------------------------------------------------


def _tan(m, name, activity, width=1):
    t = xz.tangent(m, name, activity, width=width)
    assert isinstance(t, GradientCall), f"@{name} was not differentiated at the structured level"
    return t


@pytest.mark.parametrize("x", [0.7, -0.6])
def test_forward_if_and_math(prog, x):
    m, lib = prog
    w = 1.3
    t = _tan(m, "branch", ["dup", "dup"])
    want = fd(lambda s: lib.branch(x + 0.5 * s, w - 2.0 * s), 0.0)
    assert t(x, 0.5, w, -2.0) == pytest.approx(want, rel=1e-6)


def test_forward_vector_mode_loops_and_calls(prog):
    m, lib = prog
    x, y = np.array([0.3, -1.2, 0.8, 0.1, 2.0]), 0.7
    t = _tan(m, "norms", ["dup", "dup"], width=2)
    tx = [np.eye(5)[1], np.zeros(5)]
    d1, d2 = t(x, *tx, y, 0.0, 1.0)
    assert d1 == pytest.approx(fd(lambda s: lib.norms(x + s * np.eye(5)[1], y), 0.0), rel=1e-6)
    assert d2 == pytest.approx(fd(lambda s: lib.norms(x, y + s), 0.0), rel=1e-6)


@pytest.mark.parametrize("steps", [1, 30])
def test_forward_ode_in_place(prog, steps):
    m, lib = prog
    u0, k, pc = np.array([1.0, -0.3]), 2.0, np.array([0.4])
    du0 = np.array([0.3, -0.8])

    def run(s):
        c = u0 + s * du0
        return lib.heun(c, k + 0.5 * s, pc, steps)

    u, du = u0.copy(), du0.copy()
    d = _tan(m, "heun", ["dup", "dup", "const", "const"])(u, du, k, 0.5, pc, steps)
    assert d == pytest.approx(fd(run, 0.0), rel=1e-6)


def test_forward_temporary_and_in_place(prog):
    m, lib = prog
    x = np.array([0.3, -0.2, 0.5, 0.1, 0.4, -0.6])
    dx = np.array([1.0, 0.5, -0.25, 0.0, 2.0, -1.0])
    d = _tan(m, "temporary", ["dup"])(x, dx)
    assert d == pytest.approx(fd(lambda s: lib.temporary(x + s * dx), 0.0), rel=1e-6)
    a0, w = np.array([0.9, 1.2, -0.7, 0.4, 1.5]), 0.8
    a, da = a0.copy(), np.zeros(5)
    assert _tan(m, "inplace", ["dup", "dup"])(a, da, w, 1.0) is None

    def run(ww):
        c = a0.copy()
        lib.inplace(c, ww)
        return c

    np.testing.assert_allclose(da, (run(w + 1e-6) - run(w - 1e-6)) / 2e-6, rtol=1e-6, atol=1e-9)  # d a_out / d w


# ---- errors ---------------------------------------------------------------------------------

_STORE_CONST = """\
func.func @f(%x: f64, %out: memref<1xf64>) {
  %c0 = arith.constant 0 : index
  %y = arith.mulf %x, %x : f64
  memref.store %y, %out[%c0] : memref<1xf64>
  func.return
}
"""
_READ_BACK = """\
func.func @f(%x: f64, %out: memref<1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %y = arith.mulf %x, %x : f64
  memref.store %y, %out[%c0] : memref<1xf64>
  %z = memref.load %out[%c0] : memref<1xf64>
  func.return %z : f64
}
"""


@pytest.mark.parametrize("mode", ["reverse", "forward"])
@pytest.mark.parametrize("program", [_STORE_CONST, _READ_BACK], ids=["no-output", "read-back"])
def test_store_into_const_memref_is_an_error(mode, program):
    """Varied data stored into a const memref: an error when nothing else carries a derivative
    out, and when it is read back into the result (the derivative would be lost there)."""
    from xenzyme.diagnostics import XenzymeError

    m = xz.load(program, language="mlir", filename="store.mlir")
    with pytest.raises(XenzymeError) as e:
        if mode == "reverse":
            xz.gradient(m, "f", ["active", "const"])
        else:
            xz.tangent(m, "f", ["dup", "const"])
    assert "'memref.store' stores a value that carries a derivative into a memref without a shadow" in e.value.message
    assert str(e.value.location) == "store.mlir:4:3"
    assert e.value.notes


# ---- region shapes ----------------------------------------------------------------------------


def test_if_without_else_in_loop(prog):
    m, lib = prog
    x0, w, wt = np.array([0.5, -0.3, -1.2, 0.8]), 0.7, np.array([1.0, 2.0, -1.0, 0.5])

    def run(xx, ww):
        c = xx.copy()
        lib.masked(c, ww)
        return float(wt @ c)

    dx = wt.copy()
    dw = _grad(m, "masked", ["dup", "active"])(x0.copy(), dx, w)
    assert dw == pytest.approx(fd(lambda t: run(x0, t), w), rel=1e-6)
    probe = x0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: run(probe, w), probe), rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("flag", [True, False])
def test_loop_inside_if(prog, flag):
    m, lib = prog
    x0, w = np.array([0.5, -0.3, 1.2]), 0.9
    dx = np.zeros(3)
    dw = _grad(m, "loop_in_if", ["dup", "active", "const"])(x0.copy(), dx, w, flag)
    assert dw == pytest.approx(fd(lambda t: lib.loop_in_if(x0, t, flag), w), rel=1e-6)
    probe = x0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: lib.loop_in_if(probe, w, flag), probe), rtol=1e-6, atol=1e-10)


def test_outer_value_in_inner_loop_both_modes(prog):
    m, lib = prog
    rng = np.random.default_rng(1)
    A0, y0 = rng.standard_normal((3, 4)) * 0.5, rng.standard_normal(3) * 0.5

    def run(A, y):
        return lib.outer_value(A, y.copy())

    dA, dy = np.zeros_like(A0), np.zeros_like(y0)
    _grad(m, "outer_value", ["dup", "dup"])(A0.copy(), dA, y0.copy(), dy)
    pA, py = A0.copy(), y0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: run(pA, y0), pA), rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(dy, fd_array(lambda: run(A0, py), py), rtol=1e-6, atol=1e-9)
    tA, ty = rng.standard_normal((3, 4)), rng.standard_normal(3)
    d = _tan(m, "outer_value", ["dup", "dup"])(A0.copy(), tA, y0.copy(), ty.copy())
    assert d == pytest.approx(fd(lambda s: run(A0 + s * tA, y0 + s * ty), 0.0), rel=1e-6)


_TWO_ACTIVE = """\
func.func @f(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %p : f64
  func.return %s : f64
}

func.func @df(%x: f64, %y: f64, %out: memref<2xf64>) {
  %d = autodiff.autodiff @f(%x, %y) activity [active, active] ret active : (f64, f64) -> !llvm.struct<(f64, f64)>
  %a = llvm.extractvalue %d[0] : !llvm.struct<(f64, f64)>
  %b = llvm.extractvalue %d[1] : !llvm.struct<(f64, f64)>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %a, %out[%c0] : memref<2xf64>
  memref.store %b, %out[%c1] : memref<2xf64>
  func.return
}
"""


def test_request_with_two_derivatives_in_the_program():
    """A request returning a struct of two derivatives, built at the structured level."""
    lib = xz.compile(xz.load(_TWO_ACTIVE, language="mlir"))
    out = np.zeros(2)
    lib.df(0.7, 1.3, out)
    np.testing.assert_allclose(out, [math.cos(0.91) * 1.3, math.cos(0.91) * 0.7], rtol=1e-12)  # exact


def test_inner_bound_constant_inside_outer_loop(prog):
    m, lib = prog
    x = np.array([0.3, 0.9, -0.5, 1.1])
    dx = np.zeros(4)
    _grad(m, "inner_constant", ["dup"])(x, dx)
    np.testing.assert_allclose(dx, fd_array(lambda: lib.inner_constant(x), x), rtol=1e-6)


_SECOND = """\
func.func @f(%x: f64) -> f64 {
  %x2 = arith.mulf %x, %x : f64
  %x3 = arith.mulf %x2, %x : f64
  %s = math.sin %x3 : f64
  func.return %s : f64
}

func.func @g(%x: f64) -> f64 {
  %d = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
  func.return %d : f64
}

func.func @h(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %t = autodiff.fwddiff @g(%x, %one) activity [dup] ret dupnoneed : (f64, f64) -> f64
  func.return %t : f64
}
"""


def test_forward_over_reverse_requests():
    """g = f' by a reverse request (structured), h = g' by a forward request over it."""
    lib = xz.compile(xz.load(_SECOND, language="mlir"))
    x = 0.8
    g = lambda t: math.cos(t**3) * 3 * t * t  # noqa: E731
    assert lib.g(x) == pytest.approx(g(x), rel=1e-12)  # exact
    assert lib.h(x) == pytest.approx(fd(g, x), rel=1e-6)
