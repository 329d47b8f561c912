"""The Python API for forward mode: `xenzyme.tangent` (plain and vector mode, output shadows,
a Hessian-vector product through a function calling __enzyme_autodiff) and `xenzyme.jacobian`
(forward columns or reverse rows, chosen by shape or forced), checked against finite differences
and closed forms; and their errors.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import xenzyme as xz

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed (run `make setup`)")

SRC = r"""
#include <math.h>
double f(double x, const double *p, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x * p[i]);
  return s;
}
void expand(const double *x, double *y, int n) {          /* R^n -> R^(3n) */
  for (int i = 0; i < n; i++) {
    y[3 * i] = x[i] * x[(i + 1) % n];
    y[3 * i + 1] = exp(x[i]);
    y[3 * i + 2] = sin(x[i]) * x[0];
  }
}
void contract(const double *x, const double *w, double *y, int n) {   /* R^(2n) -> R^2 */
  y[0] = 0; y[1] = 0;
  for (int i = 0; i < n; i++) { y[0] += x[i] * w[i] * w[i]; y[1] += cos(x[i] + w[i]); }
}
double cube_sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  return s;
}
"""

HVP_SRC = r"""
int enzyme_dup, enzyme_const;
extern void __enzyme_autodiff(void *, ...);
static double f(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += x[i] * x[i] * x[i + 1];
  return s;
}
void grad(const double *x, double *g, int n) {
  for (int i = 0; i < n; i++) g[i] = 0;
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, n);
}
"""


def _fd_columns(fn, x: np.ndarray, m: int, *rest) -> np.ndarray:
    """Central differences of fn(x, y, *rest) -> y (size m) with respect to x."""
    h = 1e-6
    jac = np.zeros((m, x.size))
    for j in range(x.size):
        xp, xm = x.copy(), x.copy()
        xp[j] += h
        xm[j] -= h
        yp, ym = np.zeros(m), np.zeros(m)
        fn(xp, yp, *rest)
        fn(xm, ym, *rest)
        jac[:, j] = (yp - ym) / (2 * h)
    return jac


@pytest.fixture(scope="module")
def lib():
    return xz.compile(SRC)


def test_tangent_scalar_and_pointer() -> None:
    t = xz.tangent(SRC, "f", ["dup", "dup", "const"])
    p, dp = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.0])
    x = 0.5
    got = t(x, 1.0, p, np.zeros(3), 3)
    assert got == pytest.approx(sum(pi * np.cos(x * pi) for pi in p), rel=1e-12)
    got = t(x, 0.0, p, dp, 3)
    assert got == pytest.approx(x * np.cos(x * 2.0), rel=1e-12)


def test_tangent_default_activity_and_width() -> None:
    t = xz.tangent(SRC, "f", width=2)  # x and p duplicated, n constant
    assert t.activity == ["dup", "dup", "const"]
    x, p = 0.3, np.array([1.0, -2.0])
    zero, dp = np.zeros(2), np.array([0.5, 3.0])
    d1, d2 = t(x, 1.0, 0.0, p, zero, dp, 2)  # directions (dx, dp) = (1, 0) and (0, dp)
    assert d1 == pytest.approx(float(np.sum(p * np.cos(x * p))), rel=1e-12)
    assert d2 == pytest.approx(float(np.sum(x * np.cos(x * p) * dp)), rel=1e-12)
    assert d1 != 0 and d2 != 0


def test_tangent_writes_output_shadows(lib) -> None:
    t = xz.tangent(SRC, "expand", ["dup", "dupnoneed", "const"])
    x, v = np.array([0.2, -0.4, 0.9]), np.array([1.0, 0.5, -2.0])
    y, dy = np.zeros(9), np.full(9, 7.0)  # stale values are overwritten
    assert t(x, v, y, dy, 3) is None
    want = _fd_columns(lib.expand, x, 9, 3) @ v
    np.testing.assert_allclose(dy, want, rtol=1e-6, atol=1e-8)


def test_tangent_hessian_vector_product() -> None:
    t = xz.tangent(HVP_SRC, "grad", ["dup", "dupnoneed", "const"])
    x, v = np.array([0.5, -1.0, 2.0, 0.3]), np.array([1.0, 0.0, -1.0, 0.5])
    g, hv = np.zeros(4), np.zeros(4)
    t(x, v, g, hv, 4)
    n = 4
    hess = np.zeros((n, n))
    for i in range(n - 1):  # f = sum x_i^2 x_{i+1}
        hess[i, i] += 2 * x[i + 1]
        hess[i, i + 1] += 2 * x[i]
        hess[i + 1, i] += 2 * x[i]
    np.testing.assert_allclose(hv, hess @ v, rtol=1e-12)
    np.testing.assert_allclose(g, [2 * x[0] * x[1], x[0] ** 2 + 2 * x[1] * x[2], x[1] ** 2 + 2 * x[2] * x[3], x[2] ** 2])


def test_jacobian_tall_uses_forward_columns(lib) -> None:
    jac = xz.jacobian(SRC, "expand", inputs=[0], output=1, width=2)
    x, y = np.array([0.3, -0.2, 0.7]), np.zeros(9)
    got = jac(x, y, 3)
    assert jac.last_mode == "forward"
    assert got.shape == (9, 3)
    np.testing.assert_allclose(got, _fd_columns(lib.expand, x, 9, 3), rtol=1e-6, atol=1e-8)
    ref = np.zeros(9)
    lib.expand(x, ref, 3)
    np.testing.assert_array_equal(y, ref)  # the output holds the primal result


def test_jacobian_wide_uses_reverse_rows(lib) -> None:
    jac = xz.jacobian(SRC, "contract", inputs=[0, 1], output=2)
    x, w, y = np.array([0.1, 0.4, -0.3]), np.array([1.0, -0.5, 2.0]), np.zeros(2)
    got = jac(x, w, y, 3)
    assert jac.last_mode == "reverse"
    assert got.shape == (2, 6)
    want = np.zeros((2, 6))
    want[0, :3], want[0, 3:] = w * w, 2 * x * w
    want[1, :3] = want[1, 3:] = -np.sin(x + w)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    forced = xz.jacobian(SRC, "contract", inputs=[0, 1], output=2, mode="forward", width=4)
    np.testing.assert_allclose(forced(x, w, y, 3), want, rtol=1e-12, atol=1e-14)


def test_jacobian_of_a_scalar_result() -> None:
    x = np.array([0.5, -1.5, 2.0])
    for mode in ("auto", "forward", "reverse"):
        jac = xz.jacobian(SRC, "cube_sum", inputs=[0], mode=mode, width=2)
        np.testing.assert_allclose(jac(x, 3), [3 * x**2], rtol=1e-12)


def test_errors() -> None:
    with pytest.raises(xz.XenzymeError, match="unknown activity 'active'"):
        xz.tangent(SRC, "f", ["active", "dup", "const"])
    with pytest.raises(xz.XenzymeError, match="has no tangent"):
        xz.tangent(SRC, "f", ["dup", "dup", "dup"])
    with pytest.raises(xz.XenzymeError, match="takes 3 arguments, 2 activities given"):
        xz.tangent(SRC, "f", ["dup", "dup"])
    with pytest.raises(xz.XenzymeError, match="width must be a positive integer"):
        xz.tangent(SRC, "f", width=0)
    with pytest.raises(xz.XenzymeError, match="no function named 'nope'"):
        xz.tangent(SRC, "nope")
    with pytest.raises(xz.XenzymeError, match="mode must be"):
        xz.jacobian(SRC, "expand", inputs=[0], output=1, mode="sideways")
    with pytest.raises(xz.XenzymeError, match="both an input and the output"):
        xz.jacobian(SRC, "expand", inputs=[1], output=1)
    with pytest.raises(xz.XenzymeError, match="has no argument 7"):
        xz.jacobian(SRC, "expand", inputs=[7], output=1)
    jac = xz.jacobian(SRC, "expand", inputs=[0], output=1)
    with pytest.raises(xz.XenzymeError, match=r"argument 0 \(an input\) must be a numpy array of float64 or float32, got list"):
        jac([0.1, 0.2], np.zeros(6), 2)
    with pytest.raises(xz.XenzymeError, match=r"argument 1 \(the output\) must be a numpy array, got list"):
        jac(np.zeros(2), [0.0] * 6, 2)
    with pytest.raises(xz.XenzymeError, match=r"takes its 3 arguments, 2 given"):
        jac(np.zeros(2), np.zeros(6))
