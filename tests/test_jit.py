"""The JIT: compile a module for this machine and call its functions from Python.

Floats and ints are passed by value, numpy arrays as pointers to their data (so functions write
into them in place), small structs come back as tuples.  Every test checks the values computed.
"""

from __future__ import annotations

import math
import shutil

import numpy as np
import pytest

import xenzyme as xz
from xenzyme.backend.jit import JITModule

needs_clang = pytest.mark.skipif(
    shutil.which("clang-19") is None, reason="clang-19 is not installed (run `make setup`)"
)

SCALARS = """
define double @axpb(double %a, double %x, double %b) {
  %m = fmul double %a, %x
  %r = fadd double %m, %b
  ret double %r
}
define float @halve(float %x) {
  %r = fmul float %x, 0.5
  ret float %r
}
define i64 @mix(i32 %a, i64 %b, i16 %c, i8 %d) {
  %a64 = sext i32 %a to i64
  %c64 = sext i16 %c to i64
  %d64 = sext i8 %d to i64
  %s1 = add i64 %a64, %b
  %s2 = mul i64 %c64, %d64
  %r = sub i64 %s1, %s2
  ret i64 %r
}
define i1 @is_negative(double %x) {
  %r = fcmp olt double %x, 0.0
  ret i1 %r
}
define void @nothing() {
  ret void
}
"""


@pytest.fixture(scope="module")
def scalars() -> JITModule:
    return xz.compile(xz.load(SCALARS, language="llvm"))


def test_float_arguments_and_result(scalars: JITModule) -> None:
    assert scalars.axpb(2.0, 3.5, -1.0) == 6.0
    assert scalars.axpb(1, 2, 3) == 5.0  # ints are accepted for doubles


def test_single_precision(scalars: JITModule) -> None:
    assert scalars.halve(3.0) == pytest.approx(1.5)
    assert isinstance(scalars.halve(1.0), float)


def test_integer_widths(scalars: JITModule) -> None:
    # -5 + 2**40 - (-300 * 7) with sign extension of every narrow operand
    assert scalars.mix(-5, 2**40, -300, 7) == -5 + 2**40 + 2100
    assert scalars.mix(0, 0, 2, -128) == 256


def test_bool_result(scalars: JITModule) -> None:
    assert scalars.is_negative(-0.5) is True
    assert scalars.is_negative(0.5) is False


def test_void_function(scalars: JITModule) -> None:
    assert scalars.nothing() is None


def test_listing_and_missing_functions(scalars: JITModule) -> None:
    assert set(scalars.names()) == {"axpb", "halve", "mix", "is_negative", "nothing"}
    with pytest.raises(AttributeError, match="no function named 'nope'"):
        scalars.nope  # noqa: B018
    assert "axpb" in repr(scalars.axpb)


def test_argument_errors(scalars: JITModule) -> None:
    with pytest.raises(xz.XenzymeError, match=r"axpb\(\) takes 3 arguments \(a, x, b\), 2 given"):
        scalars.axpb(1.0, 2.0)
    with pytest.raises(xz.XenzymeError, match=r"mix\(\): argument 0 \('a', i32\) must be an integer, got float 1.5"):
        scalars.mix(1.5, 2, 3, 4)
    with pytest.raises(xz.XenzymeError, match=r"argument 2 \('c', i16\) must fit in 16 bits, got 65536"):
        scalars.mix(1, 2, 1 << 16, 4)
    with pytest.raises(xz.XenzymeError, match=r"argument 1 \('x', double\) must be a real number, got str '2'"):
        scalars.axpb(1.0, "2", 3.0)
    with pytest.raises(xz.XenzymeError, match=r"argument 0 \('x', float\) must be a real number, got an array of float64"):
        scalars.halve(np.ones(2))
    assert scalars.mix(-5, np.int64(7), np.int16(2), -3) == -5 + 7 - 2 * -3  # numpy integers are integers


ARRAYS = """
define void @saxpy(i64 %n, double %a, ptr %x, ptr %y) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inext, %loop ]
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %vx = load double, ptr %px, align 8
  %vy = load double, ptr %py, align 8
  %m = fmul double %a, %vx
  %s = fadd double %m, %vy
  store double %s, ptr %py, align 8
  %inext = add nuw i64 %i, 1
  %more = icmp ult i64 %inext, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}
define i32 @count_positive(ptr %v, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %inext, %body ]
  %c = phi i32 [ 0, %entry ], [ %cnext, %body ]
  %end = icmp sge i32 %i, %n
  br i1 %end, label %done, label %body
body:
  %p = getelementptr inbounds i32, ptr %v, i32 %i
  %x = load i32, ptr %p, align 4
  %pos = icmp sgt i32 %x, 0
  %inc = zext i1 %pos to i32
  %cnext = add i32 %c, %inc
  %inext = add i32 %i, 1
  br label %loop
done:
  ret i32 %c
}
"""


@pytest.fixture(scope="module")
def arrays() -> JITModule:
    return xz.compile(xz.load(ARRAYS, language="llvm"))


def test_numpy_arrays_are_written_in_place(arrays: JITModule) -> None:
    x = np.arange(5.0)
    y = np.full(5, 10.0)
    assert arrays.saxpy(5, 2.0, x, y) is None
    np.testing.assert_array_equal(y, [10.0, 12.0, 14.0, 16.0, 18.0])
    np.testing.assert_array_equal(x, np.arange(5.0))  # read only


def test_numpy_int_arrays(arrays: JITModule) -> None:
    v = np.array([3, -1, 0, 7, 2, -9], dtype=np.int32)
    assert arrays.count_positive(v, len(v)) == 3
    assert arrays.count_positive(v, 2) == 1


def test_non_contiguous_array_is_refused(arrays: JITModule) -> None:
    x = np.arange(10.0)[::2]
    y = np.zeros(5)
    with pytest.raises(xz.XenzymeError, match=r"saxpy\(\): argument 2 \('x', ptr\) must be a C-contiguous array"):
        arrays.saxpy(5, 1.0, x, y)


def test_pointer_needs_an_array(arrays: JITModule) -> None:
    with pytest.raises(xz.XenzymeError, match=r"argument 2 \('x', ptr\) must be a numpy array of float64 \(double, as the function accesses it\), got list"):
        arrays.saxpy(1, 1.0, [1.0], np.zeros(1))


def test_array_dtype_is_checked_against_the_accesses(arrays: JITModule) -> None:
    """The IR loads doubles through `x` and `y` and i32s through `v`: other dtypes are refused
    (an int64 array read as doubles would be denormal garbage), the right ones work."""
    with pytest.raises(xz.XenzymeError, match=r"argument 3 \('y', ptr\) must be an array of float64 "
                       r"\(double, as the function accesses it\), got an array of float32"):
        arrays.saxpy(2, 1.0, np.zeros(2), np.zeros(2, dtype=np.float32))
    with pytest.raises(xz.XenzymeError, match=r"argument 0 \('v', ptr\) must be an array of int32 \(or uint32, as the function accesses it\)"):
        arrays.count_positive(np.ones(3), 3)
    with pytest.raises(xz.XenzymeError, match="note: convert it with np.asarray\\(a, dtype=np.int32\\)"):
        arrays.count_positive(np.ones(3, dtype=np.int64), 3)
    assert arrays.count_positive(np.array([1, 2, 0], dtype=np.uint32), 3) == 2


def test_written_arrays_must_be_writeable(arrays: JITModule) -> None:
    x, y = np.ones(3), np.ones(3)
    x.flags.writeable = False  # read only: fine, saxpy only reads x
    arrays.saxpy(3, 2.0, x, y)
    np.testing.assert_array_equal(y, [3.0, 3.0, 3.0])
    y.flags.writeable = False
    with pytest.raises(xz.XenzymeError, match=r"argument 3 \('y', ptr\) must be writeable \(the call writes into it\)"):
        arrays.saxpy(3, 2.0, x, y)


def test_addresses_and_ctypes_objects_pass_unchecked(arrays: JITModule) -> None:
    import ctypes

    buf = (ctypes.c_double * 2)(1.0, 2.0)
    y = np.zeros(2)
    arrays.saxpy(2, 1.0, buf, y)
    arrays.saxpy(2, 1.0, ctypes.addressof(buf), y)
    np.testing.assert_array_equal(y, [2.0, 4.0])


STATE = """
@counter = internal global i64 0, align 8
define i64 @tick(i64 %by) {
  %old = load i64, ptr @counter, align 8
  %new = add i64 %old, %by
  store i64 %new, ptr @counter, align 8
  ret i64 %new
}
"""


def test_globals_keep_their_state_between_calls() -> None:
    lib = xz.compile(xz.load(STATE, language="llvm"))
    assert [lib.tick(1), lib.tick(10), lib.tick(100)] == [1, 11, 111]
    other = xz.compile(xz.load(STATE, language="llvm"))  # a second module has its own global
    assert other.tick(5) == 5


def test_opt_levels_agree() -> None:
    module_text = ARRAYS
    for level in (0, 1, 3):
        lib = xz.compile(xz.load(module_text, language="llvm"), opt_level=level)
        y = np.ones(3)
        lib.saxpy(3, 3.0, np.array([1.0, 2.0, 3.0]), y)
        np.testing.assert_array_equal(y, [4.0, 7.0, 10.0])


@needs_clang
def test_struct_returns_and_libm_from_c() -> None:
    lib = xz.compile(
        xz.load(
            """
            #include <math.h>
            typedef struct { double r, phi; } polar;
            polar to_polar(double x, double y) { polar p = { hypot(x, y), atan2(y, x) }; return p; }
            double gauss(double x) { return exp(-x * x / 2) / sqrt(2 * M_PI); }
            long double third(void) { return 1.0L / 3; }
            """,
            language="c",
        )
    )
    r, phi = lib.to_polar(3.0, 4.0)
    assert r == 5.0
    assert phi == pytest.approx(math.atan2(4.0, 3.0), rel=1e-15)
    assert lib.gauss(0.0) == pytest.approx(1 / math.sqrt(2 * math.pi), rel=1e-15)
    assert lib.third() == pytest.approx(1 / 3, rel=1e-15)


@needs_clang
def test_declared_only_function_is_not_callable() -> None:
    lib = xz.compile(xz.load("double cos(double); double g(double x) { return cos(x) + 1; }", language="c"))
    assert lib.g(0.0) == 2.0
    with pytest.raises(AttributeError, match="only declared"):
        lib.cos  # noqa: B018


def test_unsupported_signature_is_an_error() -> None:
    lib = xz.compile(
        xz.load("define <2 x double> @v(<2 x double> %x) {\n  ret <2 x double> %x\n}\n", language="llvm")
    )
    with pytest.raises(xz.XenzymeError, match="cannot call a function"):
        lib.v  # noqa: B018


def test_compile_takes_text() -> None:
    lib = xz.compile("define i32 @seven() {\n  ret i32 7\n}\n")
    assert lib.seven() == 7


def test_unresolved_external_is_an_error_not_a_crash() -> None:
    module = xz.load(
        "declare double @xenzyme_test_missing(double)\n"
        "define double @f(double %x) {\n"
        "  %y = call double @xenzyme_test_missing(double %x)\n"
        "  ret double %y\n"
        "}\n",
        language="llvm",
    )
    with pytest.raises(xz.XenzymeError, match="cannot find 1 external symbol.*xenzyme_test_missing"):
        xz.compile(module)
