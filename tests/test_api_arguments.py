"""The callables of `xenzyme.gradient`, `xenzyme.tangent` and `xenzyme.compile` check every
argument before native code runs: each mistake is a `XenzymeError` naming the argument (position,
C name and type), what was expected and what was given -- never a derivative computed from
misread bytes or written past the end of an array.  And correct calls still give the right
numbers (closed forms).

Where the element type behind a pointer comes from: the C declaration (debug information, which
`xenzyme.load` adds), else the function's loads, stores, GEPs and TBAA tags (IR without debug
information, -O0 code keeping the pointer in a stack slot); `xenzyme/analysis/signature.py`.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import xenzyme as xz
from xenzyme.analysis.signature import signature

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed (run `make setup`)")

SRC = r"""
#include <math.h>
#define SQ(v) ((v) * (v))
typedef struct { double x, y, z; } vec3;
double loss(const double *x, int n) {               /* sum x_i^2 sin x_i */
  double s = 0;
  for (int i = 0; i < n; i++) s += SQ(x[i]) * sin(x[i]);
  return s;
}
double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}
float lossf(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return s;
}
double scale(double a, int k) { return a * k; }
void three(const double *x, double *y) { y[0] = x[0] * x[1]; y[1] = x[1] * x[2]; }
double weighted(const double *x, const int *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w[i] * x[i] * x[i];
  return s;
}
double norm2(const vec3 *v) { return v->x * v->x + v->y * v->y + v->z * v->z; }
"""


def dloss(x: np.ndarray) -> np.ndarray:
    return 2 * x * np.sin(x) + x**2 * np.cos(x)


def raises(match: str):
    return pytest.raises(xz.XenzymeError, match=match)


@pytest.fixture(scope="module")
def grad_loss():
    return xz.gradient(SRC, "loss", ["dup", "const"])


@pytest.fixture(scope="module")
def grad_dot():
    return xz.gradient(SRC, "dot", ["dup", "dup", "const"])


@pytest.fixture(scope="module")
def tan_three():
    return xz.tangent(SRC, "three", ["dup", "dupnoneed"])


@pytest.fixture(scope="module")
def lib():
    return xz.compile(SRC)


# ---------------------------------------------------------------------------------------------
# Correct calls
# ---------------------------------------------------------------------------------------------


def test_correct_calls_give_the_derivative(grad_loss, grad_dot, tan_three) -> None:
    x, dx = np.array([0.3, -1.2, 2.0]), np.zeros(3)
    assert grad_loss(x, dx, 3) is None
    np.testing.assert_allclose(dx, dloss(x), rtol=1e-13)
    longer = np.zeros(5)  # a shadow longer than its primal is fine
    grad_loss(x, longer, np.int32(3))
    np.testing.assert_allclose(longer[:3], dloss(x), rtol=1e-13)
    assert not longer[3:].any()
    a, b, da, db = np.array([1.0, 2.0]), np.array([-3.0, 0.5]), np.zeros(2), np.zeros(2)
    grad_dot(a, da, b, db, 2)
    np.testing.assert_array_equal(da, b)
    np.testing.assert_array_equal(db, a)
    v, dy = np.array([0.0, 1.0, 0.0]), np.zeros(2)
    tan_three(np.array([2.0, 3.0, 5.0]), v, np.zeros(2), dy)
    np.testing.assert_array_equal(dy, [2.0, 5.0])  # d(x0 x1, x1 x2) along e1


def test_aliased_primals_take_aliased_shadows(grad_dot) -> None:
    """dot(x, x) = |x|^2: the same array twice, with the same shadow twice, as a C program
    passing one pointer twice would (both halves of the derivative accumulate into it)."""
    x, dx = np.array([1.5, -2.0, 0.25]), np.zeros(3)
    grad_dot(x, dx, x, dx, 3)
    np.testing.assert_allclose(dx, 2 * x, rtol=1e-15)


def test_single_precision_and_integer_arrays() -> None:
    g = xz.gradient(SRC, "lossf", ["dup", "const"])
    x = np.array([0.5, -2.0], dtype=np.float32)
    dx = np.zeros(2, dtype=np.float32)
    g(x, dx, 2)
    np.testing.assert_allclose(dx, 2 * x, rtol=1e-6)
    with raises(r"argument 0 \('x', const float \*\) must be an array of float32 \(float, as declared in C\), got an array of float64"):
        g(np.ones(2), np.zeros(2), 2)
    w = xz.gradient(SRC, "weighted", ["dup", "const", "const"])
    x, dx = np.array([1.0, 2.0, 3.0]), np.zeros(3)
    w(x, dx, np.array([1, 0, 2], dtype=np.int32), 3)
    np.testing.assert_array_equal(dx, [2.0, 0.0, 12.0])
    with raises(r"argument 2 \('w', const int \*\) must be an array of int32 \(or uint32, as declared in C\), got an array of float64"):
        w(x, dx, np.ones(3), 3)


def test_a_struct_of_doubles_takes_float64_arrays() -> None:
    g = xz.gradient(SRC, "norm2", ["dup"])
    v, dv = np.array([1.0, -2.0, 0.5]), np.zeros(3)
    g(v, dv)
    np.testing.assert_array_equal(dv, 2 * v)
    with raises(r"argument 0 \('v', const vec3 \*\) must be an array of float64 .*got an array of int64"):
        g(np.array([1, 2, 3]), np.zeros(3, dtype=np.int64))
    with raises(r"argument 0 \('v', const vec3 \*\) has 16 bytes, but the function reaches 24 bytes through it"):
        g(np.ones(2), np.zeros(2))


# ---------------------------------------------------------------------------------------------
# Arrays: dtype, length, layout
# ---------------------------------------------------------------------------------------------


def test_wrong_dtype_for_double_pointer(grad_loss) -> None:
    """An int64 array read as doubles gave denormal garbage (1e-323) as the derivative."""
    for dtype in (np.int64, np.float32, np.int32):
        with raises(rf"loss\(\): argument 0 \('x', const double \*\) must be an array of float64 \(double, as declared "
                    rf"in C\), got an array of {np.dtype(dtype)}"):
            grad_loss(np.arange(3, dtype=dtype), np.zeros(3), 3)


def test_shadow_must_match_its_primal(grad_loss) -> None:
    x = np.ones(3)
    with raises(r"argument 1 \(the shadow of parameter 0: 'x', const double \*\) has 2 elements, fewer than its "
                r"primal 'x' \(3\)\nnote: a shadow must be at least as long as its primal array"):
        grad_loss(x, np.zeros(2), 2)
    with raises(r"argument 1 \(the shadow of parameter 0: 'x', const double \*\) must be an array of float64"):
        grad_loss(x, np.zeros(3, dtype=np.float32), 3)
    with raises(r"argument 1 \(the shadow of parameter 0: 'x', const double \*\) shares memory with its primal 'x'"):
        grad_loss(x, x, 3)
    base = np.ones(5)
    with raises(r"argument 1 .* shares memory with its primal 'x'"):
        grad_loss(base[:3], base[2:], 3)


def test_shadows_share_memory_only_where_primals_do(grad_dot) -> None:
    a, b, d = np.ones(2), np.full(2, 2.0), np.zeros(2)
    with raises(r"dot\(\): argument 3 \(the shadow of parameter 1: 'b', const double \*\) shares memory with "
                r"argument 1 \(the shadow of parameter 0: 'a', const double \*\)"):
        grad_dot(a, d, b, d, 2)


def test_layout_and_writeability(grad_loss) -> None:
    with raises(r"argument 0 \('x', const double \*\) must be a C-contiguous array, got a strided view"):
        grad_loss(np.ones(6)[::2], np.zeros(3), 3)
    with raises(r"argument 1 .*must be a C-contiguous array"):
        grad_loss(np.ones(3), np.zeros((3, 2)).T[0], 3)
    frozen = np.zeros(3)
    frozen.flags.writeable = False
    with raises(r"argument 1 \(the shadow of parameter 0: 'x', const double \*\) must be writeable \(the call "
                r"writes into it\), got a read-only array"):
        grad_loss(np.ones(3), frozen, 3)
    x = np.ones(3)
    x.flags.writeable = False  # the primal is only read: a read-only array is fine
    dx = np.zeros(3)
    grad_loss(x, dx, 3)
    np.testing.assert_allclose(dx, dloss(x), rtol=1e-13)


def test_pointer_arguments_must_be_arrays(grad_loss) -> None:
    with raises(r"argument 0 \('x', const double \*\) must be a numpy array of float64 \(double, as declared in C\), "
                r"got list"):
        grad_loss([1.0, 2.0], np.zeros(2), 2)
    with raises(r"argument 1 \(the shadow of parameter 0.*\) must be a numpy array .*got None"):
        grad_loss(np.ones(2), None, 2)
    with raises(r"argument 0 \('x', const double \*\) must be a numpy array .*got None"):
        grad_loss(None, np.zeros(2), 2)  # a primal with a shadow: an array, to check the shadow against
    g = xz.gradient(SRC, "dot", ["dup", "const", "const"])
    a, da = np.array([1.0, 2.0]), np.zeros(2)
    g(a, da, None, 0)  # a constant pointer the call does not reach may be NULL
    assert not da.any()


def test_known_extent_is_checked(tan_three) -> None:
    """three() reads x[0..2] and writes y[0..1]: shorter arrays would be read and written past
    their ends."""
    with raises(r"three\(\): argument 0 \('x', const double \*\) has 16 bytes, but the function reaches 24 bytes"):
        tan_three(np.ones(2), np.ones(2), np.zeros(2), np.zeros(2))
    with raises(r"three\(\): argument 2 \('y', double \*\) has 8 bytes, but the function reaches 16 bytes"):
        tan_three(np.ones(3), np.ones(3), np.zeros(1), np.zeros(1))


# ---------------------------------------------------------------------------------------------
# Numbers, counts
# ---------------------------------------------------------------------------------------------


def test_argument_count_names_the_arguments(grad_loss, tan_three) -> None:
    with raises(r"loss\(\) takes 3 arguments \(x, shadow of x, n\), 2 given"):
        grad_loss(np.ones(3), 3)
    with raises(r"three\(\) takes 4 arguments \(x, shadow of x, y, shadow of y\), 5 given"):
        tan_three(np.ones(3), np.ones(3), np.zeros(2), np.zeros(2), 0)


def test_scalars_by_kind(grad_loss) -> None:
    x, dx = np.ones(3), np.zeros(3)
    with raises(r"argument 2 \('n', int\) must be an integer, got float 3.0\nnote: convert a whole number"):
        grad_loss(x, dx, 3.0)
    with raises(r"argument 2 \('n', int\) must fit in 32 bits, got 4294967296"):
        grad_loss(x, dx, 1 << 32)
    with raises(r"argument 2 \('n', int\) must be an integer, got str '3'"):
        grad_loss(x, dx, "3")
    g = xz.gradient(SRC, "scale", ["active", "const"])
    assert g(2.5, 4) == 4.0
    assert g(np.float32(2.5), np.int64(4)) == 4.0
    with raises(r"scale\(\): argument 0 \('a', double\) must be a real number, got an array of float64"):
        g(np.ones(1), 4)
    with raises(r"argument 0 \('a', double\) must be a real number, got bool True"):
        g(True, 4)


# ---------------------------------------------------------------------------------------------
# Activities against parameter types (as the command line checks markers)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "activity", "message"),
    [
        ("scale", ["dup", "const"], r"argument 0 \('a', double\) of 'scale' is passed by value and marked 'dup'"),
        ("scale", ["active", "dup"], r"argument 1 \('k', int\) of 'scale' is marked 'dup' but is not a pointer"),
        ("scale", ["active", "active"], r"argument 1 \('k', int\) of 'scale' is marked 'active' but is not floating point"),
        ("loss", ["active", "const"], r"argument 0 \('x', const double \*\) of 'loss' is marked 'active' but is not floating point"),
        ("loss", ["dup"], r"'loss' takes 2 arguments, 1 activities given"),
        ("loss", "dup", r"activity must be a list of strings"),
    ],
)
def test_reverse_activity_errors(function: str, activity, message: str) -> None:
    with raises(message):
        xz.gradient(SRC, function, activity)


def test_forward_activity_errors() -> None:
    with raises(r"argument 1 \('k', int\) of 'scale' is marked 'dup' but has no tangent"):
        xz.tangent(SRC, "scale", ["dup", "dup"])


# ---------------------------------------------------------------------------------------------
# Forward mode and compiled functions
# ---------------------------------------------------------------------------------------------


def test_tangent_refuses_integer_arrays() -> None:
    """Integer arrays for `double *` gave a tangent of 0.0."""
    t = xz.tangent(SRC, "loss", ["dup", "const"])
    x = np.array([0.4, 1.1, -0.7])
    assert t(x, np.ones(3), 3) == pytest.approx(dloss(x).sum(), rel=1e-13)
    with raises(r"argument 0 \('x', const double \*\) must be an array of float64"):
        t(np.array([0, 1, 2]), np.ones(3, dtype=np.int64), 3)
    with raises(r"argument 1 \(the tangent of parameter 0|argument 1 \(the shadow of parameter 0"):
        t(x, np.ones(3, dtype=np.float32), 3)


def test_vector_mode_names_each_tangent() -> None:
    t = xz.tangent(SRC, "loss", ["dup", "const"], width=2)
    x = np.array([0.4, 1.1])
    e0, e1 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    np.testing.assert_allclose(t(x, e0, e1, 2), dloss(x), rtol=1e-13)
    np.testing.assert_allclose(t(x, e0, e0, 2), [dloss(x)[0]] * 2, rtol=1e-13)  # one direction twice: read only
    with raises(r"argument 2 \(the shadow 2 of 2 of parameter 0: 'x', const double \*\) has 1 elements"):
        t(x, e0, np.ones(1), 2)


def test_compiled_functions_are_checked(lib) -> None:
    x = np.array([0.5, 1.5])
    assert lib.loss(x, 2) == pytest.approx(float(np.sum(x**2 * np.sin(x))), rel=1e-14)
    with raises(r"loss\(\): argument 0 \('x', const double \*\) must be an array of float64"):
        lib.loss(np.array([1, 2]), 2)
    y = np.zeros(2)
    lib.three(np.array([2.0, 3.0, 5.0]), y)
    np.testing.assert_array_equal(y, [6.0, 15.0])
    with raises(r"three\(\): argument 1 \('y', double \*\) must be writeable"):
        frozen = np.zeros(2)
        frozen.flags.writeable = False
        lib.three(np.ones(3), frozen)


def test_types_from_the_ir_without_debug_info() -> None:
    """-g0: names from the IR, element types from the accesses (TBAA at -O2; typed loads and the
    stack slot of -O0)."""
    for flags in (["-O2", "-g0"], ["-O0", "-g0"]):
        lib = xz.compile(xz.load(SRC, language="c", clang_flags=flags))
        with raises(r"loss\(\): argument 0 \('x', ptr\) must be an array of float64 \(double, as the function accesses it\)"):
            lib.loss(np.zeros(2, dtype=np.float32), 2)
        with raises(r"weighted\(\): argument 1 \('w', ptr\) must be an array of int32 \(or uint32, as the function accesses it\)"):
            lib.weighted(np.zeros(2), np.zeros(2), 2)
        assert lib.weighted(np.array([1.0, 2.0]), np.array([3, 1], dtype=np.int32), 2) == 7.0


def test_what_stays_unknown() -> None:
    """A `void *` is known by what the function reads through it; memory only handed to an
    external function, and a struct of mixed fields, say nothing about the elements: any dtype
    is taken there, and the function reads what it reads (README: Python API)."""
    src = r"""
    typedef struct { double v; int tag; } item;
    extern long consume(const void *, long);
    double first(const void *p) { return *(const double *)p; }
    long opaque(const void *p, long n) { return consume(p, n); }
    double value(const item *it) { return it->v * it->tag; }
    """
    module = xz.load(src)
    from xdsl.dialects import llvm

    fns = {op.sym_name.data: op for op in module.ops if isinstance(op, llvm.FuncOp)}
    (p,) = signature(module, fns["first"])
    assert (p.name, p.c_type, str(p.pointee), p.pointee_from, p.min_bytes) == (
        "p", "const void *", "f64", "as the function accesses it", 8)
    q, _ = signature(module, fns["opaque"])
    assert (q.c_type, q.pointee, q.min_bytes, q.written) == ("const void *", None, None, True)
    (it,) = signature(module, fns["value"])
    assert (it.name, it.c_type, it.pointee, it.written) == ("it", "const item *", None, False)
    lib = xz.compile(xz.load(src.replace("extern long consume", "static long consume").replace(
        "const void *, long);", "const void *p, long n) { return n; }")))
    assert lib.first(np.array([2.5, 0.0])) == 2.5
    assert lib.opaque(np.zeros(3, dtype=np.int8), 7) == 7  # unknown: any dtype
    with raises(r"first\(\): argument 0 \('p', const void \*\) must be an array of float64 \(double, as the function accesses it\)"):
        lib.first(np.zeros(2, dtype=np.int64))


def test_bytes_reached_on_every_call() -> None:
    """Only accesses made on every call set a minimum length: `cond` reads x[1] only when n > 1,
    so a one-element array is right for n = 1; `x[static 4]` promises four elements at any
    optimisation level; a callee's accesses count for its caller's pointer."""
    src = r"""
    double cond(const double *x, int n) { return n > 1 ? x[0] * x[1] : x[0]; }
    double fixed(const double x[static 4]) { return x[0] + x[3]; }
    __attribute__((noinline)) static double second(const double *p) { return p[1]; }
    double via(const double *x) { return second(x) * 2; }
    """
    for flags in (["-O2"], ["-O0"]):
        module = xz.load(src, clang_flags=flags)
        from xdsl.dialects import llvm

        fns = {op.sym_name.data: op for op in module.ops if isinstance(op, llvm.FuncOp)}
        assert signature(module, fns["fixed"])[0].min_bytes == 32
        assert signature(module, fns["via"])[0].min_bytes == 16
        assert signature(module, fns["cond"])[0].min_bytes in (8, None)  # (-O0: x[0] is read in both arms)
        lib = xz.compile(module)
        assert lib.cond(np.array([3.0]), 1) == 3.0
        with raises(r"fixed\(\): argument 0 \('x', const double \*\) has 24 bytes, but the function reaches 32"):
            lib.fixed(np.ones(3))
        with raises(r"via\(\): argument 0 .* has 8 bytes, but the function reaches 16"):
            lib.via(np.ones(1))
        assert lib.via(np.array([0.0, 1.5])) == 3.0
