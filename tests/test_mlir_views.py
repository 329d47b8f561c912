"""Views of memrefs and copies (memref.subview, cast, reinterpret_cast, expand_shape,
collapse_shape, copy): lowered to llvm and differentiated, in both modes, at both levels (the
structured level, and the module lowered to llvm first).

Every derivative is checked against central finite differences of the compiled primal (or
exact values), every primal against numpy.  Programs are in tests/programs/mlir/views.mlir,
loaded and compiled once.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fd, fd_array

import xenzyme as xz
from xenzyme.backend.memrefs import GradientCall, MemrefCall
from xenzyme.diagnostics import XenzymeError

PROGRAM = __import__("pathlib").Path(__file__).parent / "programs" / "mlir" / "views.mlir"
LEVELS = ["structured", "llvm"]


@pytest.fixture(scope="module")
def prog():
    m = xz.load(PROGRAM)
    return m, xz.compile(m)


def _derivative(m, name, activity, level, forward=False):
    """The gradient (or tangent) of @name, built at the structured level or from the module
    lowered to llvm first."""
    from xenzyme.api import _lower_structured, _structured_preopt

    if level == "structured":
        d = xz.tangent(m, name, activity) if forward else xz.gradient(m, name, activity)
        assert isinstance(d, GradientCall), f"@{name} was not differentiated at the structured level"
        return d
    lowered, types, given, expanded = _lower_structured(m, name, activity, forward)
    pre = _structured_preopt(lowered, 2)
    if forward:
        return MemrefCall(xz.tangent(lowered, name, expanded, preopt=pre), name, types, given, 1)
    return MemrefCall(xz.gradient(lowered, name, expanded, preopt=pre), name, types, given)


A0 = np.array([[0.3, -0.8, 1.1], [0.6, 0.2, -0.4], [1.3, -1.0, 0.5], [-0.7, 0.9, 0.1]])


@pytest.mark.parametrize("level", LEVELS)
def test_row_through_subview(prog, level):
    m, lib = prog
    assert lib.row_sum(A0.copy(), 2) == pytest.approx(float((np.sin(A0[2]) * A0[2]).sum()), rel=1e-12)
    g = _derivative(m, "row_sum", ["dup", "const"], level)
    for k in (0, 2):
        dA = np.zeros_like(A0)
        g(A0.copy(), dA, k)
        probe = A0.copy()
        np.testing.assert_allclose(dA, fd_array(lambda: lib.row_sum(probe, k), probe), rtol=1e-6, atol=1e-9)
    t = _derivative(m, "row_sum", ["dup", "const"], level, forward=True)
    tA = np.random.default_rng(2).standard_normal(A0.shape)
    assert t(A0.copy(), tA, 3) == pytest.approx(fd(lambda s: lib.row_sum(A0 + s * tA, 3), 0.0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_rows_overwritten_through_views_in_a_loop(prog, level):
    """A row view made in each iteration, stored through while the matrix is read directly:
    the reverse sweep must not reread the overwritten matrix."""
    m, lib = prog
    w = 0.7

    def run(A, ww):
        return lib.scale_rows(A.copy(), ww)

    B = A0.copy()
    assert lib.scale_rows(B, w) == pytest.approx(float((A0 * np.sin(A0 * w)).sum()), rel=1e-12)
    np.testing.assert_allclose(B, np.sin(A0 * w), rtol=1e-12)
    dA = np.zeros_like(A0)
    dw = _derivative(m, "scale_rows", ["dup", "active"], level)(A0.copy(), dA, w)
    assert dw == pytest.approx(fd(lambda s: run(A0, s), w), rel=1e-6)
    probe = A0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: run(probe, w), probe), rtol=1e-6, atol=1e-9)
    tA = np.random.default_rng(3).standard_normal(A0.shape)
    d = _derivative(m, "scale_rows", ["dup", "dup"], level, forward=True)(A0.copy(), tA.copy(), w, 0.5)
    assert d == pytest.approx(fd(lambda s: run(A0 + s * tA, w + 0.5 * s), 0.0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_static_strided_column(prog, level):
    m, lib = prog
    w, wt = 1.4, np.random.default_rng(4).standard_normal(A0.shape)

    def run(A, ww):
        c = A.copy()
        lib.column(c, ww)
        return c

    ref = A0.copy()
    ref[:, 1] = np.exp(A0[:, 1]) * w
    np.testing.assert_allclose(run(A0, w), ref, rtol=1e-12)
    dA = wt.copy()  # the gradient of wt . A_out
    dw = _derivative(m, "column", ["dup", "active"], level)(A0.copy(), dA, w)
    assert dw == pytest.approx(fd(lambda s: float((wt * run(A0, s)).sum()), w), rel=1e-6)
    probe = A0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: float((wt * run(probe, w)).sum()), probe), rtol=1e-6, atol=1e-9)
    tA = np.random.default_rng(5).standard_normal(A0.shape)
    dA = tA.copy()
    assert _derivative(m, "column", ["dup", "dup"], level, forward=True)(A0.copy(), dA, w, -0.5) is None
    h = 1e-6
    np.testing.assert_allclose(dA, (run(A0 + h * tA, w - 0.5 * h) - run(A0 - h * tA, w + 0.5 * h)) / (2 * h),
                               rtol=1e-6, atol=1e-9)  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_copy_then_overwrite_in_place(prog, level):
    m, lib = prog
    x0, w = np.array([0.3, 0.5, -0.2, 0.9, 1.1]), 0.8

    def run(x, ww):
        return lib.copy_overwrite(x.copy(), ww)

    z = x0.copy()
    for i in range(1, 5):
        z[i] = np.sin(x0[i - 1] * w) + z[i] * x0[i]
    assert run(x0, w) == pytest.approx(float(z @ z), rel=1e-12)
    dx = np.zeros(5)
    dw = _derivative(m, "copy_overwrite", ["dup", "active"], level)(x0.copy(), dx, w)
    assert dw == pytest.approx(fd(lambda s: run(x0, s), w), rel=1e-6)
    probe = x0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: run(probe, w), probe), rtol=1e-6, atol=1e-9)
    tx = np.array([1.0, -0.5, 0.25, 2.0, -1.0])
    d = _derivative(m, "copy_overwrite", ["dup", "dup"], level, forward=True)(x0.copy(), tx.copy(), w, 0.3)
    assert d == pytest.approx(fd(lambda s: run(x0 + s * tx, w + 0.3 * s), 0.0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_copy_of_a_strided_row(prog, level):
    """A copy's adjoint goes into its source and the destination's is consumed (exact)."""
    m, lib = prog
    out = np.zeros(3)
    lib.copy_row(A0.copy(), out, 1)
    np.testing.assert_array_equal(out, A0[1])
    wt = np.array([0.5, -2.0, 1.5])
    dA, dout = np.zeros_like(A0), wt.copy()
    _derivative(m, "copy_row", ["dup", "dup", "const"], level)(A0.copy(), dA, np.zeros(3), dout, 1)
    want = np.zeros_like(A0)
    want[1] = wt
    np.testing.assert_array_equal(dA, want)
    np.testing.assert_array_equal(dout, 0.0)
    tA, tout = np.arange(12.0).reshape(4, 3), np.full(3, 9.0)
    _derivative(m, "copy_row", ["dup", "dup", "const"], level, forward=True)(A0.copy(), tA, np.zeros(3), tout, 3)
    np.testing.assert_array_equal(tout, tA[3])


@pytest.mark.parametrize("level", LEVELS)
def test_cast_to_dynamic_shape_passed_to_a_function(prog, level):
    m, lib = prog
    x0, y = np.array([0.3, 0.5, -0.2, 0.9]), 0.6
    assert lib.cast_call(x0.copy(), y) == pytest.approx(float(np.exp(x0 * y).sum() * x0[0]), rel=1e-12)
    dx = np.zeros(4)
    dy = _derivative(m, "cast_call", ["dup", "active"], level)(x0.copy(), dx, y)
    assert dy == pytest.approx(fd(lambda s: lib.cast_call(x0.copy(), s), y), rel=1e-6)
    probe = x0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: lib.cast_call(probe, y), probe), rtol=1e-6)
    tx = np.array([0.5, 1.0, -1.0, 2.0])
    d = _derivative(m, "cast_call", ["dup", "dup"], level, forward=True)(x0.copy(), tx, y, -1.5)
    assert d == pytest.approx(fd(lambda s: lib.cast_call(x0 + s * tx, y - 1.5 * s), 0.0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_reshaped_views(prog, level):
    m, lib = prog
    A = np.array([[0.3, -0.8, 1.1], [0.6, 0.2, -0.4]])
    f = A.ravel()
    e = f.reshape(3, 2)
    assert lib.reshapes(A.copy()) == pytest.approx(sum(f[i] * e[i // 2, i % 2] * np.sin(e[2 - i // 2, i % 2])
                                                       for i in range(6)), rel=1e-12)  # fmt: skip
    dA = np.zeros_like(A)
    _derivative(m, "reshapes", ["dup"], level)(A.copy(), dA)
    probe = A.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: lib.reshapes(probe), probe), rtol=1e-6, atol=1e-9)
    tA = np.array([[1.0, 0.5, -0.5], [2.0, -1.0, 0.25]])
    d = _derivative(m, "reshapes", ["dup"], level, forward=True)(A.copy(), tA)
    assert d == pytest.approx(fd(lambda s: lib.reshapes(A + s * tA), 0.0), rel=1e-6)


_COPY_OUT = """\
func.func @f(%x: memref<3xf64>, %out: memref<3xf64>) {
  "memref.copy"(%x, %out) : (memref<3xf64>, memref<3xf64>) -> ()
  func.return
}
"""


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_copy_into_const_memref_is_an_error(mode):
    m = xz.load(_COPY_OUT, language="mlir", filename="copy.mlir")
    with pytest.raises(XenzymeError) as e:
        (xz.tangent if mode == "forward" else xz.gradient)(m, "f", ["dup", "const"])
    assert "'memref.copy' copies a memref with a shadow into one without" in e.value.message
    assert str(e.value.location) == "copy.mlir:2:3"
    assert e.value.notes


@pytest.mark.parametrize("level", LEVELS)
def test_dynamic_block_copied_and_overwritten(prog, level):
    m, lib = prog
    A0, w = np.random.default_rng(1).standard_normal((5, 4)), 0.7

    def ref(A, i, n, ww):
        A = A.copy()
        t, acc = A[i:i + n, 1:3].copy(), 0.0
        for k in range(n):
            A[i + k, 2] = np.sin(t[k, 0] * t[k, 1] * ww)
            acc += A[i + k, 2]
        return acc * A[1, 0]

    assert lib.blk(A0.copy(), 1, 3, w) == pytest.approx(ref(A0, 1, 3, w), rel=1e-12)
    dA = np.zeros_like(A0)
    dw = _derivative(m, "blk", ["dup", "const", "const", "active"], level)(A0.copy(), dA, 1, 3, w)
    assert dw == pytest.approx(fd(lambda s: lib.blk(A0.copy(), 1, 3, s), w), rel=1e-6)
    probe = A0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: lib.blk(probe.copy(), 1, 3, w), probe), rtol=1e-6, atol=1e-9)
    tA = np.random.default_rng(2).standard_normal(A0.shape)
    d = _derivative(m, "blk", ["dup", "const", "const", "dup"], level, forward=True)(A0.copy(), tA.copy(), 2, 3, w, 0.5)
    assert d == pytest.approx(fd(lambda s: lib.blk(A0 + s * tA, 2, 3, w + 0.5 * s), 0.0), rel=1e-6)


_CALLS = [
    ("row_sum", lambda: [A0.copy(), 2]), ("scale_rows", lambda: [A0.copy(), 0.7]), ("column", lambda: [A0.copy(), 1.4]),
    ("copy_overwrite", lambda: [np.array([0.3, 0.5, -0.2, 0.9, 1.1]), 0.8]),
    ("copy_row", lambda: [A0.copy(), np.zeros(3), 3]), ("cast_call", lambda: [np.array([0.3, 0.5, -0.2, 0.9]), 0.6]),
    ("reshapes", lambda: [A0[:2, :3].copy()]), ("blk", lambda: [np.arange(20.0).reshape(5, 4) / 7, 1, 3, 0.7]),
]  # fmt: skip


@pytest.mark.skipif(__import__("shutil").which("mlir-opt-19") is None,
                    reason="mlir-opt-19 is not installed (scripts/setup-toolchain.sh --mlir)")  # fmt: skip
def test_views_lowered_as_mlir_opt_lowers_them(prog):
    """The views' descriptors as MLIR's own lowering builds them: each program lowered by
    mlir-opt-19 computes what xenzyme's lowering computes, arrays written included.  (Copies are
    made loops first, as lower-structured makes them: MLIR's lowering of a strided copy calls
    a runtime library the JIT does not have.)"""
    import io
    import subprocess

    from xdsl.printer import Printer

    from xenzyme.backend.jit import JITModule

    from xenzyme.transforms.convert_memref_to_llvm import expand_copies

    m, lib = prog
    looped = m.clone()
    expand_copies(looped)
    buf = io.StringIO()
    Printer(stream=buf).print_op(looped)
    passes = ["--expand-strided-metadata", "--lower-affine", "--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-math-to-libm", "--convert-arith-to-llvm",
              "--finalize-memref-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm", "--reconcile-unrealized-casts"]  # fmt: skip
    opt = subprocess.run(["mlir-opt-19", *passes], input=buf.getvalue(), capture_output=True, text=True, check=True)
    ll = subprocess.run(["mlir-translate-19", "--mlir-to-llvmir"], input=opt.stdout, capture_output=True, text=True,
                        check=True)  # fmt: skip
    jit = JITModule(ll.stdout, opt_level=1)
    from xenzyme.api import _structured_signatures

    sigs = _structured_signatures(m)
    for name, make in _CALLS:
        a, b = make(), make()
        ours = getattr(lib, name)(*a)
        theirs = MemrefCall(jit.function(name), name, sigs[name])(*b)
        assert (ours is None) == (theirs is None), name
        if ours is not None:
            assert ours == pytest.approx(theirs, rel=1e-12), name
        for x, y in zip(a, b, strict=True):
            if isinstance(x, np.ndarray):
                np.testing.assert_allclose(x, y, rtol=1e-12, err_msg=name)
