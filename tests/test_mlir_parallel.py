"""scf.parallel loops (with and without reductions, one and two dimensions), differentiated in
both modes at both levels: at the structured level as scf.for nests (convert-scf-parallel-to-for,
on the module `to_scf` makes), lowered first as parallel regions on threads
(convert-scf-parallel-to-par; tests/test_mlir_parallel_threads.py varies the team size).

Every primal is checked against numpy, every derivative against central finite differences
of the compiled primal.  Programs are in tests/programs/mlir/parallel.mlir.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import fd, fd_array
from test_mlir_views import LEVELS
from test_mlir_views import _derivative as _derivative_at

import xenzyme as xz

PROGRAM = __import__("pathlib").Path(__file__).parent / "programs" / "mlir" / "parallel.mlir"


@pytest.fixture(scope="module")
def prog():
    m = xz.load(PROGRAM)
    return _Levels(m), xz.compile(m)


class _Levels:
    """The module for `_derivative`: its serial copy for the structured level (which the API
    does not choose for functions with loops on threads), itself for the lowered path."""

    def __init__(self, m):
        from xenzyme.transforms.lower_structured import to_scf

        self.m, self.serial = m, to_scf(m)


def _derivative(levels, name, activity, level, forward=False):
    return _derivative_at(levels.serial if level == "structured" else levels.m, name, activity, level, forward)


@pytest.mark.parametrize("level", LEVELS)
def test_iterations_reading_shared_memory(prog, level):
    m, lib = prog
    x0, w, wt = np.array([0.3, -0.7, 1.2, 0.4, -0.1, 0.9]), 0.8, np.array([1.0, -2.0, 0.5, 1.5, -0.5, 2.0])

    def run(x, ww):
        y = np.zeros(6)
        lib.scale(x.copy(), y, ww)
        return y

    np.testing.assert_allclose(run(x0, w), np.sin(x0 * w) + x0[0], rtol=1e-12)
    dx, dy = np.zeros(6), wt.copy()  # the gradient of wt . y
    dw = _derivative(m, "scale", ["dup", "dup", "active"], level)(x0.copy(), dx, np.zeros(6), dy, w)
    assert dw == pytest.approx(fd(lambda s: float(wt @ run(x0, s)), w), rel=1e-6)
    probe = x0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: float(wt @ run(probe, w)), probe), rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(dy, 0.0)
    tx, ty = np.linspace(-1.0, 1.0, 6), np.zeros(6)
    _derivative(m, "scale", ["dup", "dup", "dup"], level, forward=True)(x0.copy(), tx, np.zeros(6), ty, w, 0.5)
    h = 1e-6
    np.testing.assert_allclose(ty, (run(x0 + h * tx, w + 0.5 * h) - run(x0 - h * tx, w - 0.5 * h)) / (2 * h),
                               rtol=1e-6, atol=1e-9)  # fmt: skip


@pytest.mark.parametrize("level", LEVELS)
def test_two_dimensions_two_reductions(prog, level):
    m, lib = prog
    A0 = np.array([[0.3, -0.7, 1.2, 0.4], [-0.1, 0.9, 0.5, -0.3], [0.8, 0.2, -0.6, 1.1]])
    w = 0.6
    assert lib.sum_prod(A0.copy(), w) == pytest.approx(float(np.exp(A0 * w).sum() + np.prod(np.cos(A0))), rel=1e-12)
    dA = np.zeros_like(A0)
    dw = _derivative(m, "sum_prod", ["dup", "active"], level)(A0.copy(), dA, w)
    assert dw == pytest.approx(fd(lambda s: lib.sum_prod(A0.copy(), s), w), rel=1e-6)
    probe = A0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: lib.sum_prod(probe, w), probe), rtol=1e-6, atol=1e-9)
    tA = np.random.default_rng(6).standard_normal(A0.shape)
    d = _derivative(m, "sum_prod", ["dup", "dup"], level, forward=True)(A0.copy(), tA, w, -1.0)
    assert d == pytest.approx(fd(lambda s: lib.sum_prod(A0 + s * tA, w - s), 0.0), rel=1e-6)
