"""The Python API on OpenMP programs: `python api_check.py CASE` (tests/test_openmp_gradients.py
runs it with OMP_NUM_THREADS=2).

`xz.gradient` (or `xz.tangent`) of a function with parallel regions, compiled from its C file, is
checked against central differences of the same file's primal, JIT-compiled by `xz.compile`.
The file is compiled with -DXZ_SELFCHECK, so that its `main` calls the serial references and the
API's request is the only derivative in the module.  Prints one line per check and PASS, exits 1
when a check fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import xenzyme as xz
from xenzyme.diagnostics import XenzymeError

HERE = Path(__file__).resolve().parent
FLAGS = ["-O2", "-DXZ_SELFCHECK"]
failures = 0


def check(what: str, got, want, tol: float = 1e-6) -> None:
    """got against want, elementwise, relative to max(|want|, 1) as check.h does."""
    global failures
    got, want = np.atleast_1d(np.asarray(got, float)), np.atleast_1d(np.asarray(want, float))
    err = np.abs(got - want) / np.maximum(np.abs(want), 1.0)
    if got.shape != want.shape or not np.all(err <= tol):
        failures += 1
        i = int(np.nanargmax(err)) if got.shape == want.shape else 0
        print(f"FAIL {what}: worst at [{i}]: got {got.flat[i]!r}, expected {want.flat[i]!r}")
    else:
        print(f"ok   {what} ({got.size} values, largest relative error {err.max():.2g})")


def fd_grad(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """Central differences of the scalar f() with respect to each entry of x (changed in place)."""
    g = np.zeros_like(x)
    for i in range(x.size):
        save, step = x[i], h * max(abs(x[i]), 1.0)
        x[i] = save + step
        up = f()
        x[i] = save - step
        down = f()
        x[i] = save
        g[i] = (up - down) / (2 * step)
    return g


def fd_scalar(f, a: float, h: float = 1e-6) -> float:
    step = h * max(abs(a), 1.0)
    return (f(a + step) - f(a - step)) / (2 * step)


def primal(name: str):
    return xz.compile(xz.load(HERE / f"{name}.c", clang_flags=FLAGS))


def case_for_static() -> None:
    """A void function: an active scalar (its derivative is returned), dup inputs and output."""
    path, n = HERE / "for_static.c", 101
    grad = xz.gradient(path, "f", ["const", "active", "dup", "dup", "dup"], clang_flags=FLAGS)
    lib = primal("for_static")
    i = np.arange(n)
    x, w, c, a = 1.5 * np.sin(0.37 * i + 0.2), 0.5 + (i % 7) * 0.25, np.cos(0.11 * i) + 0.1, 0.7

    def loss(a=a):
        y = np.zeros(n)
        lib.f(n, a, x, w, y)
        return float(c @ y)

    dx, dw, y, dy = np.zeros(n), np.zeros(n), np.zeros(n), c.copy()
    da = grad(n, a, x, dx, w, dw, y, dy)
    check("dx", dx, fd_grad(loss, x))
    check("dw", dw, fd_grad(loss, w))
    check("da", da, fd_scalar(loss, a))
    check("dy zeroed", dy, np.zeros(n), 0)


def case_reduction_sum() -> None:
    """A reduction returned by the function: the seed of the result is 1."""
    path, n = HERE / "reduction_sum.c", 150
    grad = xz.gradient(path, "dot_exp", ["const", "dup", "dup"], clang_flags=FLAGS)
    lib = primal("reduction_sum")
    i = np.arange(n)
    x, y = 2 * np.sin(0.61 * i), np.cos(0.17 * i)
    dx, dy = np.zeros(n), np.zeros(n)
    assert grad(n, x, dx, y, dy) is None
    check("dx", dx, fd_grad(lambda: lib.dot_exp(n, x, y), x))
    check("dy", dy, x * np.exp(-x), 1e-13)


def case_gmm_points() -> None:
    """A mixture log-likelihood, parallel over points: three parameter arrays, const data."""
    path, k, d, n = HERE / "gmm_points.c", 3, 2, 60
    grad = xz.gradient(path, "loglik", ["const", "dup", "dup", "dup", "const"], clang_flags=FLAGS)
    lib = primal("gmm_points")
    alpha = np.array([0.2, -0.4, 0.5])
    mu = np.array([-1.0, 0.5, 0.3, -0.8, 2.0, 1.1])
    ls = np.array([-0.2, 0.1, 0.3, -0.1, 0.05, 0.2])
    j = np.arange(n * d)
    data = 2.5 * np.sin(1.9 * j) + 0.3 * (j % d)
    da, dm, dl = np.zeros(k), np.zeros(k * d), np.zeros(k * d)
    grad(n, alpha, da, mu, dm, ls, dl, data)

    def loss():
        return lib.loglik(n, alpha, mu, ls, data)

    check("dalpha", da, fd_grad(loss, alpha))
    check("dmu", dm, fd_grad(loss, mu))
    check("dlogsig", dl, fd_grad(loss, ls))


def case_heat_explicit() -> None:
    """A time loop of parallel regions, state overwritten in place, active diffusion coefficient."""
    path, n, steps = HERE / "heat_explicit.c", 64, 25
    grad = xz.gradient(path, "heat", ["const", "const", "active", "dup", "dup", "const"], clang_flags=FLAGS)
    lib = primal("heat_explicit")
    i = np.arange(n)
    u0 = np.exp(-0.01 * (i - 20) ** 2) + 0.5 * np.sin(0.3 * i)
    w = 1 + 0.5 * np.cos(0.15 * i)
    kappa = 0.23

    def loss(kappa=kappa):
        return lib.heat(n, steps, kappa, u0.copy(), np.zeros(n), w)

    u, du, tmp, dtmp = u0.copy(), np.zeros(n), np.zeros(n), np.zeros(n)
    dk = grad(n, steps, kappa, u, du, tmp, dtmp, w)
    check("dkappa", dk, fd_scalar(loss, kappa))
    check("du0", du, fd_grad(loss, u0))


def case_fwd_lse() -> None:
    """Forward mode: the tangent of logsumexp (max then sum reductions in one region)."""
    path, n = HERE / "fwd_reduction.c", 123
    tangent = xz.tangent(path, "lse", ["const", "dup"], clang_flags=FLAGS)
    lib = primal("fwd_reduction")
    i = np.arange(n)
    x = 2 * np.sin(0.57 * i) + 0.002 * i
    v = 1 + 0.5 * np.sin(1.0 + 2.3 * i)  # the tangent averages v over the softmax: about 1
    t = tangent(n, x, v)
    h = 1e-6
    check("d lse . v", t, (lib.lse(n, x + h * v) - lib.lse(n, x - h * v)) / (2 * h))
    value = lib.lse(n, x)
    check("d lse . v (softmax)", t, float(np.exp(x - value) @ v), 1e-12)


def main() -> int:
    case = sys.argv[1]
    try:
        globals()[f"case_{case}"]()
    except XenzymeError as e:
        print(f"FAIL {case}: {e}")
        return 1
    if failures:
        print(f"{failures} check(s) FAILED")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
