"""What reverse mode cannot differentiate is a clear error, never a wrong derivative.

Each snippet is compiled by clang-19 with debug info and run through `xenzyme-opt -p enzyme`:
the command must exit with status 1 and print `xenzyme-opt: error: FILE:LINE:COL: ...` naming
the function and the reason, then the instruction and a note saying what the user can do --
and never a Python traceback.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import XENZYME_OPT, clang, run


@dataclass
class Case:
    name: str
    source: str
    line: int | None
    """The source line the error must point at (None: only the file)."""
    expect: tuple[str, ...]
    """Fragments the error output must contain."""
    suffix: str = ".c"
    levels: tuple[str, ...] = ("-O0", "-O2")
    in_source: bool = True
    """Whether the error points into the test's source file (else into a header it includes)."""


CASES = [
    Case(
        "external_function",
        """\
extern double __enzyme_autodiff(void *, ...);
double mystery(double);
static double f(double x) {
  return mystery(x * x) + x;
}
double df(double x) { return __enzyme_autodiff((void *)f, x); }
""",
        4,
        ("cannot differentiate @f", "no derivative is known for external function @mystery",
         "__enzyme_register_gradient_mystery"),
    ),
    Case(
        "external_function_float_loop",
        """\
extern void __enzyme_autodiff(void *, ...);
float mysteryf(float);
static float f(const float *x, int n) {
  float s = 0;
  for (int i = 0; i < n; i++) s += mysteryf(x[i]) * x[i];
  return s;
}
void df(float *x, float *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        5,
        ("cannot differentiate @f", "no derivative is known for external function @mysteryf",
         "__enzyme_register_gradient_mysteryf"),
    ),
    Case(
        "external_function_pointer_argument",
        """\
extern void __enzyme_autodiff(void *, ...);
void mystery_update(double *, int);
__attribute__((noinline)) static double inner(double *x, int n) {
  mystery_update(x, n);
  return x[0] * x[1];
}
static double f(double *x, int n) { return inner(x, n) + x[2]; }
void df(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        4,
        ("cannot differentiate @", "no derivative is known for external function @mystery_update",
         "__enzyme_register_gradient_mystery_update"),
    ),
    Case(
        # Three calls deep, next to a call of the same function whose arguments are all constant.
        "external_function_call_chain",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
double mystery_mix(int mode, double v, const char *tag);
__attribute__((noinline)) static double level3(double v) { return mystery_mix(2, v * v, "w") + v; }
__attribute__((noinline)) static double level2(double v) { return level3(v) * 2.0; }
static double f(double x, double c) { return level2(x) + mystery_mix(1, c, "const"); }
double df(double x, double c) { return __enzyme_autodiff((void *)f, x, enzyme_const, c); }
""",
        4,
        ("cannot differentiate @", "no derivative is known for external function @mystery_mix",
         "__enzyme_register_gradient_mystery_mix"),
    ),
    Case(
        # mystery(c) has a constant argument and needs no derivative; mystery(x) does.
        "external_function_const_and_active_calls",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
double mystery(double);
static double f(double x, double c) {
  double y = mystery(c);
  return y * x + mystery(x);
}
double df(double x, double c) { return __enzyme_autodiff((void *)f, x, enzyme_const, c); }
""",
        6,
        ("cannot differentiate @f", "no derivative is known for external function @mystery",
         "__enzyme_register_gradient_mystery"),
    ),
    Case(
        "external_buffer",
        """\
extern double __enzyme_autodiff(void *, ...);
double *scratch_buffer(int n);
static double f(const double *x, int n) {
  double *t = scratch_buffer(n);
  for (int i = 0; i < n; i++) t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i] * t[(i + 1) % n];
  return s;
}
void df(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        4,
        ("cannot differentiate @f", "@scratch_buffer returns a pointer to memory that receives derivatives",
         "__enzyme_register_gradient_scratch_buffer"),
    ),
    Case(
        "custom_gradient_arity",
        """\
extern void __enzyme_autodiff(void *, ...);
__attribute__((noinline)) void sq(const double *x, double *y) { *y = *x * *x; }
void *aug_sq(const double *x, const double *dx, double *y) { *y = *x * *x; return 0; }
void grad_sq(const double *x, double *dx, const double *y, double *dy, void *tape) { *dx += 2 * *x * *dy; }
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)aug_sq, (void *)grad_sq};
static void f(const double *x, double *y) { sq(x, y); }
void df(double *x, double *dx, double *y, double *dy) { __enzyme_autodiff((void *)f, x, dx, y, dy); }
""",
        6,
        ("custom gradient of @sq (__enzyme_register_gradient_sq)", "@aug_sq takes 3 arguments; it must take 4"),
    ),
    Case(
        "custom_gradient_scalar",
        """\
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) void scale(double a, double *y) { *y *= a; }
void *aug_scale(double a, double *y, double *dy) { *y *= a; return 0; }
void grad_scale(double a, double *y, double *dy, void *tape) { *dy *= a; }
void *__enzyme_register_gradient_scale[] = {(void *)scale, (void *)aug_scale, (void *)grad_scale};
static double f(double a, double *y) { scale(a, y); return *y; }
double df(double a, double *y, double *dy) { return __enzyme_autodiff((void *)f, a, y, dy); }
""",
        6,
        ("custom gradient of @scale", "@grad_scale must return the derivative of @scale's floating-point argument "
         "(a double)", "note: it returns !llvm.void"),
    ),
    Case(
        "custom_gradient_result_struct",
        """\
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double sq(double x) { return x * x; }
void *aug_sq(double x) { return 0; }
double grad_sq(double x, double differet, void *tape) { return 2 * x * differet; }
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)aug_sq, (void *)grad_sq};
static double f(double x) { return sq(x) + x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }
""",
        6,
        ("custom gradient of @sq", "@aug_sq returns !llvm.ptr; it must return a struct {void *tape; double result;}"),
    ),
    Case(
        "custom_gradient_no_differet",
        """\
extern double __enzyme_autodiff(void *, ...);
typedef struct { void *tape; double y; } Aug;
__attribute__((noinline)) double sq(double x) { return x * x; }
Aug aug_sq(double x) { Aug a = {0, x * x}; return a; }
double grad_sq(double x, void *tape) { return 2 * x; }
void *__enzyme_register_gradient_sq[] = {(void *)sq, (void *)aug_sq, (void *)grad_sq};
static double f(double x) { return sq(x) + x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }
""",
        7,
        ("custom gradient of @sq", "@grad_sq takes 2 arguments; it must take 3",
         "then the result's adjoint, then the tape"),
    ),
    Case(
        "custom_gradient_pointer_result",
        """\
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double *pick(double *x) { return x + 1; }
void *aug_pick(double *x, double *dx) { return 0; }
void grad_pick(double *x, double *dx, void *tape) {}
void *__enzyme_register_gradient_pick[] = {(void *)pick, (void *)aug_pick, (void *)grad_pick};
static double f(double *x) { return *pick(x) * 2; }
void df(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }
""",
        6,
        ("custom gradient of @pick", "custom gradients are supported for functions returning void or a scalar",
         "note: return the result through a pointer argument"),
    ),
    Case(
        "cxx_exceptions",
        """\
#include <vector>
double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; i++) v.push_back(x[i] * x[i]);
  double s = 0;
  for (double e : v) s += e;
  return s;
}
void df(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        None,
        ("cannot differentiate", "`invoke`", "note: compile with -fno-exceptions"),
        suffix=".cpp",
        in_source=False,  # (the store is std::vector's, in a C++ header)
    ),
    Case(
        "cxx_exceptions_invoke_result",  # (-O3: the vector's first blocks are `new`s invoked inline)
        """\
#include <vector>
double __enzyme_autodiff(void *, ...);
static int N = 6;
static double f(const double *x) {
  std::vector<double> v;
  for (int i = 0; i < N; i++) v.push_back(x[i] * x[i]);
  v.push_back(x[0]);
  double s = 0;
  for (double e : v) s += e;
  return s;
}
void df(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }
""",
        None,
        ("cannot differentiate", "`invoke`", "note: compile with -fno-exceptions"),
        suffix=".cpp",
        levels=("-O3",),
        in_source=False,
    ),
    Case(
        "floats_copied_into_doubles",  # (run-time length: no bitcast shows the pun)
        """\
#include <stdlib.h>
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
int n = 2;
static double f(const double *x) {
  float *a = malloc(2 * sizeof(float));
  a[0] = (float)x[0]; a[1] = (float)x[1];
  double *d = malloc(sizeof(double));
  memcpy(d, a, n * sizeof(float));
  double s = d[0] * x[2];
  free(a); free(d);
  return s;
}
void df(double *x, double *dx) { __enzyme_autodiff((void *)f, x, dx); }
""",
        9,
        ("cannot differentiate @f", "floating-point data of one type (f32) copied into memory holding another (f64)",
         "note: convert element by element"),
        levels=("-O0", "-O2", "-O3"),
    ),
    Case(
        "doubles_copied_into_floats_forward",
        """\
#include <string.h>
extern double __enzyme_fwddiff(void *, ...);
int n = 4;
static double f(const double *x) {
  double d[2] = {x[0], x[1]};
  float a[4] = {0};
  memcpy(a, d, n * sizeof(float));
  return a[0] * x[2] + a[3];
}
double tf(double *x, double *dx) { return __enzyme_fwddiff((void *)f, x, dx); }
""",
        7,
        ("cannot differentiate @f", "floating-point data of one type (f64) copied into memory holding another (f32)"),
        levels=("-O0", "-O2"),
    ),
    Case(
        "bytes_passed_as_integer_argument",  # (-O3 passes the 8 bytes the helper copies as an i64)
        """\
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) static void copy8(void *dst, const void *src) { memcpy(dst, src, 8); }
static double f(const double *x, double *c) {
  copy8(c, x);
  return c[0] * c[0];
}
void df(double *x, double *dx, double *c, double *dc) { __enzyme_autodiff((void *)f, x, dx, c, dc); }
""",
        3,
        ("cannot differentiate @copy8", "a floating-point value stored here is the bits of an integer this function "
         "was given or loaded"),
        levels=("-O3",),
    ),
    Case(
        "atomic_exchange",
        """\
extern void __enzyme_autodiff(void *, ...);
static void f(const double *x, double *last, int n) {
  for (int i = 0; i < n; i++)
    __atomic_exchange_n((long long *)last, *(const long long *)&x[i], __ATOMIC_RELAXED);
}
void df(double *x, double *dx, double *s, double *ds, int n) {
  __enzyme_autodiff((void *)f, x, dx, s, ds, n);
}
""",
        4,
        ("cannot differentiate @f", "atomic 'xchg'", "note:"),
    ),
    Case(
        "type_punning_bits",
        """\
#include <stdint.h>
#include <string.h>
extern double __enzyme_autodiff(void *, ...);
static float rsqrt(float x) {
  uint32_t i;
  memcpy(&i, &x, sizeof i);
  i = 0x5f3759df - (i >> 1);
  float y;
  memcpy(&y, &i, sizeof y);
  return y * (1.5f - 0.5f * x * y * y);
}
static double f(double x) { return rsqrt((float)x) * x; }
double df(double x) { return __enzyme_autodiff((void *)f, x); }
""",
        9,
        ("cannot differentiate @f", "changed, passed or returned as an integer (type punning)", "= bitcast i32 ",
         "note: compute with floating-point"),
    ),
    Case(
        "type_punning_in_memory",
        """\
#include <stdint.h>
#include <string.h>
extern void __enzyme_autodiff(void *, ...);
static double f(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, &x[i], sizeof b);
    b += 3;
    memcpy(&x[i], &b, sizeof b);
    s += x[i] * x[i];
  }
  return s;
}
void df(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        10,
        ("cannot differentiate @f", "type punning", "note:"),
    ),
    Case(
        "indirect_call",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
typedef double (*fn)(double);
static double f(double x, fn g) {
  return g(x) * x;
}
double df(double x, fn g) { return __enzyme_autodiff((void *)f, x, enzyme_const, g); }
""",
        5,
        ("cannot differentiate @f", "indirect call (through a function pointer)",
         "no function of this module of its type (f64 (f64)) has its address taken",
         "note: pass the address of a function defined in this module"),
    ),
    Case(
        "indirect_call_external_candidate",
        """\
extern double __enzyme_autodiff(void *, ...);
typedef double (*fn)(double);
double mystery(double);
__attribute__((noinline)) double square(double x) { return x * x; }
static fn const TABLE[2] = {square, mystery};
static double f(double x, int k) {
  return TABLE[k & 1](x) * x;
}
double df(double x, int k) { return __enzyme_autodiff((void *)f, x, k); }
""",
        7,
        ("cannot differentiate @f", "@mystery, which the function pointer called here may point to, is an external "
         "function with no known derivative", "__enzyme_register_gradient_mystery"),
    ),
    Case(
        "indirect_call_external_candidate_forward",
        """\
extern double __enzyme_fwddiff(void *, ...);
typedef double (*fn)(double);
double mystery(double);
__attribute__((noinline)) double square(double x) { return x * x; }
static fn const TABLE[2] = {square, mystery};
static double f(double x, int k) {
  return TABLE[k & 1](x) * x;
}
double df(double x, int k) { return __enzyme_fwddiff((void *)f, x, 1.0, k); }
""",
        7,
        ("cannot differentiate @f in forward mode", "@mystery, which the function pointer called here may point "
         "to, is an external function with no known derivative", "__enzyme_register_derivative_mystery"),
    ),
    Case(
        "indirect_call_candidate_fails",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
typedef double (*fn)(double);
double mystery(double);
__attribute__((noinline)) double wrapped(double x) { return mystery(x) + x; }
__attribute__((noinline)) double square(double x) { return x * x; }
static double f(double x, fn g) {
  return g(x) * x;
}
double df(double x) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, square) + __enzyme_autodiff((void *)f, x, enzyme_const, wrapped);
}
""",
        5,
        ("cannot differentiate @wrapped", "no derivative is known for external function @mystery",
         "note: @wrapped is differentiated as a function that the function pointer called in @f",
         "may point to"),
    ),
    Case(
        "irreducible_goto",
        """\
extern double __enzyme_autodiff(void *, ...);
static double f(double x, int k) {
  double y = x;
  if (k > 2) goto inside;
  for (int i = 0; i < k; i++) {
    y = y * x;
  inside:
    y = y + 0.5 * x;
    if (y > 100) break;
  }
  return y;
}
double df(double x, int k) { return __enzyme_autodiff((void *)f, x, k); }
""",
        8,
        ("cannot differentiate @f", "irreducible control flow", "note: loops must have a single entry"),
    ),
    Case(
        "alloca_in_loop",
        """\
extern double __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  double s = 0;
  for (int r = 1; r < n; r++) {
    double tmp[r];
    for (int i = 0; i < r; i++) tmp[i] = x[i] * x[r];
    for (int i = 0; i < r; i++) s += tmp[i] * tmp[r - 1 - i];
  }
  return s;
}
void df(double *x, double *dx, int n) { __enzyme_autodiff((void *)f, x, dx, n); }
""",
        5,
        ("cannot differentiate @f", "an alloca inside a loop holds active data", "= alloca double, i64 "),
    ),
    Case(
        "unshadowed_argument",
        """\
extern void __enzyme_autodiff(void *, ...);
extern int enzyme_const;
static void f(const double *x, double *out, int n) {
  for (int i = 0; i < n; i++)
    out[i] = x[i] * x[i];
}
void df(double *x, double *dx, double *out, int n) {
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, out, n);
}
""",
        5,
        ("cannot differentiate @f", "argument 1, which has no shadow (const)", "note: mark argument 1 enzyme_dup"),
    ),
    Case(
        "exceptions",
        """\
#include <stdexcept>
extern "C" double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) void check(double v) { if (v < 0) throw std::runtime_error("neg"); }
static double f(double x) {
  try { check(x); return x * x; } catch (...) { return -x; }
}
double df(double x) { return __enzyme_autodiff((void *)f, x); }
""",
        5,
        ("cannot differentiate @_ZL1fd", "'llvm.invoke' is not supported", "note: exception handling"),
        suffix=".cpp",
        levels=("-O2",),
    ),
    Case(
        "shadow_of_wrong_type",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
static double f(double *x, double y) { return x[0] * y; }
double df(double *x, double y) {
  return __enzyme_autodiff((void *)f, enzyme_dup, x, y);
}
""",
        5,
        ("invalid __enzyme_autodiff call", "the shadow of argument 0 has type f64"),
    ),
    Case(
        "struct_return",
        """\
extern double __enzyme_autodiff(void *, ...);
typedef struct { double a, b; } Pair;
static Pair f(double x) { Pair p = {x * x, 3 * x}; return p; }
double df(double x) {
  return __enzyme_autodiff((void *)f, x);
}
""",
        5,
        ("invalid __enzyme_autodiff call", "@f returns !llvm.struct<(f64, f64)>", "note: return a single double"),
    ),
    Case(
        "unknown_marker",
        """\
extern double __enzyme_autodiff(void *, ...);
int enzyme_duplicate;
static double f(double x) { return x * x; }
double df(double x) {
  return __enzyme_autodiff((void *)f, enzyme_duplicate, x);
}
""",
        5,
        ("invalid __enzyme_autodiff call", "unknown marker 'enzyme_duplicate'", "note: known markers"),
    ),
    Case(
        "dup_scalar",
        """\
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
static double f(double x, double y) { return x * y; }
double df(double x, double dx, double y) {
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx, y);
}
""",
        5,
        ("invalid __enzyme_autodiff call", "argument 0 (f64) is passed by value and marked enzyme_dup",
         "note: pass a floating-point argument without a marker or with enzyme_out"),
    ),
    Case(
        "dup_integer",
        """\
#include <stdint.h>
extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup;
static double f(intptr_t p) { double *q = (double *)p; return q[0] * q[0]; }
void df(double *x, double *dx) {
  __enzyme_autodiff((void *)f, enzyme_dup, (intptr_t)x, (intptr_t)dx);
}
""",
        6,
        ("invalid __enzyme_autodiff call", "argument 0 (i64) is marked enzyme_dup but is not a pointer"),
    ),
    Case(
        "return_size_mismatch",
        """\
extern double __enzyme_autodiff(void *, float);
static float f(float x) { return x * x; }
double df(float x) {
  return __enzyme_autodiff((void *)f, x);
}
""",
        4,
        ("invalid __enzyme_autodiff call", "cannot cast return type of gradient f32 (4 bytes) to the call's "
         "return type f64 (8 bytes)", "note: declare __enzyme_autodiff as returning float"),
    ),
    Case(
        "invoke_may_throw",
        """\
#include <vector>
extern double __enzyme_autodiff(void *, ...);
double measured(double);
void consume(std::vector<double> &);
static double f(double x) { return measured(x) * x; }
double df(double x) {
  std::vector<double> keep(4, x);
  double d = __enzyme_autodiff((void *)f, x);
  consume(keep);
  return d;
}
""",
        8,
        ("invalid __enzyme_autodiff call", "the request is an invoke", "may throw",
         "note: declare @_ZL1fd noexcept"),
        suffix=".cpp",
        levels=("-O2",),
    ),
    Case(
        "const_container_receives_derivatives",
        """\
#include <map>
extern double __enzyme_autodiff(void *, ...);
extern int enzyme_const;
static double f(double x, std::map<int, double> *m) {
  (*m)[3] = x * x;
  return (*m)[3] + x;
}
double df(double x, std::map<int, double> *m) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, m);
}
""",
        5,
        ("cannot differentiate", "active data is stored through a pointer loaded from memory that has no shadow",
         "enzyme_dup"),
        suffix=".cpp",
        levels=("-O2",),
    ),
    Case(
        "variadic_callee",
        """\
#include <stdarg.h>
extern double __enzyme_autodiff(void *, ...);
__attribute__((noinline)) double weighted(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double) * (i + 1);
  va_end(ap);
  return s;
}
static double f(double x, double y) { return weighted(2, x * y, y); }
double df(double x, double y) { return __enzyme_autodiff((void *)f, x, y); }
""",
        11,
        ("the call to @weighted carries derivatives, and @weighted is variadic", "pass the values in an array"),
    ),
    Case(
        "split_allocated_too_small",
        """\
extern void __enzyme_augmentfwd(void *, ...);
extern int enzyme_allocated, enzyme_tape;
static void f(double *x, int n) {
  for (int i = 0; i < n; i++) x[i] = x[i] * x[i] + 1.0 / x[i];
}
void aug(double *x, double *dx, int n, char *buf) {
  __enzyme_augmentfwd((void *)f, enzyme_allocated, 4, enzyme_tape, buf, x, dx, n);
}
""",
        7,
        ("invalid __enzyme_augmentfwd call: the tape of @f needs", "bytes, enzyme_allocated gives 4",
         "__enzyme_augmentsize"),
    ),
    Case(
        "split_missing_tape",
        """\
extern double __enzyme_reverse(void *, ...);
static double f(double x) { return x * x * x; }
double rev(double x, double seed) {
  return __enzyme_reverse((void *)f, x, seed);
}
""",
        4,
        ("invalid __enzyme_reverse call: missing tape argument", "enzyme_tape, tape"),
    ),
    Case(
        "split_mismatched_halves",
        """\
extern void *__enzyme_augmentfwd(void *, ...);
extern void __enzyme_reverse(void *, ...);
extern int enzyme_const;
static void f(double *x, double *y) { y[0] = x[0] * x[0] * y[0]; }
void both(double *x, double *dx, double *y, double *dy) {
  void *tape = __enzyme_augmentfwd((void *)f, x, dx, y, dy);
  dy[0] = 1.0;
  __enzyme_reverse((void *)f, enzyme_const, x, y, dy, tape);
}
""",
        8,
        ("invalid __enzyme_reverse call: its tape comes from an __enzyme_augmentfwd call that differs in its activities",
         "augmented: @f [dup, dup]; reversed: @f [const, dup]"),
    ),
    Case(
        "split_augment_returns_double",
        """\
extern double __enzyme_augmentfwd(void *, ...);
static double f(double x) { return x * x; }
double a(double x) {
  return __enzyme_augmentfwd((void *)f, x);
}
""",
        4,
        ("invalid __enzyme_augmentfwd call: cannot cast return type of the augmented forward pass",
         "to the call's return type f64", "the tape (unless enzyme_allocated keeps it in a buffer), the primal return"),
    ),
    Case(
        # The shadow struct would hold the primal pointer: the derivative of data[0] would be
        # added to w itself.
        "unshadowed_pointer_stored_into_shadowed_memory",
        """\
extern void __enzyme_autodiff(void *, ...);
extern int enzyme_dup, enzyme_const;
struct S { double *data; double scale; };
__attribute__((noinline)) static double use(struct S *s) { return s->data[0] * s->scale; }
static double f(struct S *s, double *w) {
  s->data = w;
  return use(s);
}
void df(struct S *s, struct S *ds, double *w) { __enzyme_autodiff((void *)f, enzyme_dup, s, ds, enzyme_const, w); }
""",
        6,
        ("cannot differentiate @f", "a pointer without a shadow (to memory that may hold floating-point data) is "
         "stored into memory that has one", "store ptr", "note: pass the memory it points to with a shadow"),
    ),
    Case(
        # q's shadow would be c itself: the tangent of q[0] would be read from c's values, and
        # reverse mode would add adjoints into the caller's constant array.
        "constant_argument_selected_with_active_one",
        """\
extern void __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
static double f(const double *x, const double *c, double s) {
  const double *q = s > 0 ? x : c + 1;
  return q[0] * q[1] + x[0];
}
void df(double *x, double *dx, double *c, double s) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c, enzyme_const, s); }
""",
        None,
        ("cannot differentiate @f", "a pointer with a shadow and a pointer into an argument without one "
         "(enzyme_const) are merged", "select", "note: pass that argument with a shadow (enzyme_dup"),
    ),
    Case(
        # The same in forward mode, the merge a phi of a loop (the last row with a positive weight).
        "constant_argument_merged_in_loop_forward",
        """\
extern double __enzyme_fwddiff(void *, ...);
extern int enzyme_dup, enzyme_const;
__attribute__((noinline)) static double f(const double *x, const double *rows, const double *w, int n) {
  const double *q = x;
  for (int i = 0; i < n; i++)
    if (w[i] > 0) q = rows + 2 * i;
  return q[0] * x[1];
}
double tf(double *x, double *dx, double *rows, double *w, int n) {
  return __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, rows, enzyme_const, w, enzyme_const, n);
}
""",
        None,
        ("cannot differentiate @f", "a pointer with a shadow and a pointer into an argument without one "
         "(enzyme_const) are merged", "note: pass that argument with a shadow (enzyme_dup"),
    ),
]


PARAMS = [pytest.param(c, level, id=f"{c.name}{level}") for c in CASES for level in c.levels]


@pytest.mark.parametrize(("case", "level"), PARAMS)
def test_reverse_error(case: Case, level: str, tmp_path: Path) -> None:
    src = tmp_path / f"{case.name}{case.suffix}"
    src.write_text(case.source)
    ll = tmp_path / "prog.ll"
    r = run([clang(), level, "-g", "-S", "-emit-llvm", src.name, "-o", str(ll)], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(tmp_path / "prog.o")])
    out = r.stderr
    assert r.returncode == 1, f"expected exit status 1, got {r.returncode}:\n{out}"
    assert "Traceback" not in out and "internal error" not in out, out
    where = f"xenzyme-opt: error: {src.name}:{case.line}:" if case.line else f"xenzyme-opt: error: {src.name}"
    if not case.in_source:
        where = "xenzyme-opt: error: /"
    assert where in out, f"expected the error at {where!r}:\n{out}"
    for fragment in case.expect:
        assert fragment in out, f"expected {fragment!r} in:\n{out}"


@pytest.mark.parametrize("request_name, known", [("__enzyme_autodiff", 6.75), ("__enzyme_fwddiff", 4.5)])
def test_indirect_call_unknown_target_stops(request_name: str, known: float, tmp_path: Path) -> None:
    """A function pointer that leads, at run time, to none of the functions whose derivatives
    were generated for the call (here: a function of another file) stops the program with a
    message instead of computing a wrong derivative, in reverse and forward mode; the known
    target works (d/dx of x^3 at 1.5 is 6.75; forward mode's tangent, along dx = 2/3, is 4.5)."""
    tangent = ", 2.0 / 3.0" if request_name == "__enzyme_fwddiff" else ""
    (tmp_path / "main.c").write_text(f"""\
#include <stdio.h>
extern double {request_name}(void *, ...);
extern int enzyme_const;
typedef double (*fn)(double);
fn elsewhere_pointer(void);
__attribute__((noinline)) double square(double x) {{ return x * x; }}
static double f(double x, fn g) {{ return g(x) * x; }}
int main(void) {{
  printf("known %g\\n", {request_name}((void *)f, 1.5{tangent}, enzyme_const, square));
  fflush(stdout);
  printf("unknown %g\\n", {request_name}((void *)f, 1.5{tangent}, enzyme_const, elsewhere_pointer()));
  return 0;
}}
""")
    (tmp_path / "other.c").write_text("""\
int enzyme_const;
static double cube(double x) { return x * x * x; }
double (*elsewhere_pointer(void))(double) { return cube; }
""")
    ll = tmp_path / "main.ll"
    r = run([clang(), "-O2", "-g", "-S", "-emit-llvm", "main.c", "-o", str(ll)], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(tmp_path / "main.o")])
    assert r.returncode == 0, r.stderr
    r = run([clang(), "main.o", "other.c", "-lm", "-o", "prog"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([str(tmp_path / "prog")], cwd=tmp_path)
    assert f"known {known:g}" in r.stdout, r.stdout
    assert r.returncode != 0 and "unknown" not in r.stdout, r.stdout
    assert "main.c:7" in r.stderr and "a function pointer leads to a function that is not one of the candidates" in r.stderr, r.stderr


@pytest.mark.parametrize("request_name", ["__enzyme_autodiff", "__enzyme_fwddiff"])
def test_global_pointer_set_outside_stops(request_name: str, tmp_path: Path) -> None:
    """A global pointer that the program pointed, outside the code differentiated, at memory of
    its own has no shadow for that memory: loading it in the derivative stops the program with
    a message naming the global, in reverse and forward mode.  The same global still holding
    its initial value, the address of a static array, works: its shadow is the array's (d/dx of
    sin(x^2) + x at 0.5 is 2 * 0.5 * cos(0.25) + 1)."""
    tangent = ", 1.0" if request_name == "__enzyme_fwddiff" else ""
    (tmp_path / "main.c").write_text(f"""\
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
extern double {request_name}(void *, ...);
static double storage[4];
double *work = storage;
static double f(double x) {{
  work[1] = x * x;
  return sin(work[1]) + x;
}}
int main(void) {{
  printf("initial %.6f\\n", {request_name}((void *)f, 0.5{tangent}));
  fflush(stdout);
  work = malloc(4 * sizeof(double));
  printf("elsewhere %g\\n", {request_name}((void *)f, 0.5{tangent}));
  return 0;
}}
""")
    ll = tmp_path / "main.ll"
    r = run([clang(), "-O2", "-g", "-S", "-emit-llvm", "main.c", "-o", str(ll)], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(tmp_path / "main.o")])
    assert r.returncode == 0, r.stderr
    r = run([clang(), "main.o", "-lm", "-o", "prog"], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run([str(tmp_path / "prog")], cwd=tmp_path)
    assert f"initial {2 * 0.5 * math.cos(0.25) + 1:.6f}" in r.stdout, r.stdout
    assert r.returncode != 0 and "elsewhere" not in r.stdout, r.stdout
    assert "main.c:" in r.stderr and "the global @work holds a pointer given to it outside" in r.stderr, r.stderr
