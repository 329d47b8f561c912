"""scf.parallel loops on a team of threads: outlined into parallel regions of the `par` layer
(convert-scf-parallel-to-par, in lower-structured), run by libomp in the primal and, through the
parallel layer's rules, in the gradient and the tangent of the lowered module.

Programs are in tests/programs/mlir/parallel_threads.mlir: one and two dimensions, a strided
range split unevenly over the team, sum / product / maximum / minimum reductions, iterations
reading memory that others read too (their adjoints race), regions run in a time loop, a
long loop over a memref of dynamic size, and a loop whose combiner is not recognised (run
serially).  Each check runs at 1, 2 and 4 threads
(`omp_set_num_threads` on libomp, which the JIT-compiled code calls): the primal against numpy,
every derivative against central finite differences of the compiled primal at the same team
size.  Derivatives are built once per module and called at each team size.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import fd, fd_array

import xenzyme as xz

PROGRAM = Path(__file__).parent / "programs" / "mlir" / "parallel_threads.mlir"
THREADS = (1, 2, 4)
ON_THREADS = {"stencil", "grid", "heat", "thread_ids", "wide"}
"""The functions whose loops become parallel regions (@unrecognised's stays serial)."""


@pytest.fixture(scope="module")
def prog():
    m = xz.load(PROGRAM)
    return m, xz.compile(m)


@pytest.fixture(scope="module")
def derivative(prog):
    """`derivative(name, activity, forward=False)`: built once per module, on the lowered path."""
    m, _ = prog
    built: dict = {}

    def get(name: str, activity: list[str], forward: bool = False):
        key = (name, tuple(activity), forward)
        if key not in built:
            built[key] = xz.tangent(m, name, activity) if forward else xz.gradient(m, name, activity)
        return built[key]

    return get


@pytest.fixture(params=THREADS, ids=lambda n: f"{n}threads")
def team(request):
    """The team size of the parallel regions the test's calls fork."""
    from xenzyme.backend.jit import _libomp

    omp = _libomp()
    before = omp.omp_get_max_threads()
    omp.omp_set_num_threads(request.param)
    yield request.param
    omp.omp_set_num_threads(before)


def test_regions_are_outlined(prog):
    """The loops with recognised reductions are forked as regions, the other stays serial."""
    from xenzyme.dialects import par
    from xenzyme.transforms.lower_structured import LowerStructuredPass

    m = prog[0].clone()
    LowerStructuredPass().apply(xz.context(), m)
    forks = {o.callee.string_value() for o in m.walk() if isinstance(o, par.ParallelOp)}
    assert {f.split(".")[0] for f in forks} == ON_THREADS
    assert len([f for f in forks if f.startswith("heat.")]) == 2
    kinds = sorted(o.kind.data for o in m.walk() if isinstance(o, par.ReduceOp))
    assert kinds == ["add", "add", "max", "min", "mul"]


def test_iterations_run_on_the_team(prog, team):
    """Each thread runs its block of the iterations (a static schedule)."""
    _, lib = prog
    out = np.full(8, -1.0)
    lib.thread_ids(out)
    np.testing.assert_array_equal(out, np.repeat(np.arange(team), 8 // team))


X0 = np.random.default_rng(11).standard_normal(11)


def _stencil(x: np.ndarray, w: float) -> tuple[float, np.ndarray]:
    i = np.arange(1, 10, 2)
    t = np.sin(x[i] * w) * x[i - 1] + x[i + 1] * x[0]
    y = np.zeros(11)
    y[i] = t
    return 0.5 + float((t * t).sum()), y


def test_strided_sum_reading_neighbours(prog, derivative, team):
    _, lib = prog
    w, wy = 0.7, np.random.default_rng(12).standard_normal(11)

    def run(x, ww):
        y = np.zeros(11)
        return lib.stencil(x.copy(), y, ww) + float(wy @ y)  # the result and wy . y

    y = np.zeros(11)
    r = lib.stencil(X0.copy(), y, w)
    want_r, want_y = _stencil(X0, w)
    assert r == pytest.approx(want_r, rel=1e-12)
    np.testing.assert_allclose(y, want_y, rtol=1e-12, atol=1e-15)
    dx, dy = np.zeros(11), wy.copy()
    dw = derivative("stencil", ["dup", "dup", "active"])(X0.copy(), dx, np.zeros(11), dy, w)
    assert dw == pytest.approx(fd(lambda s: run(X0, s), w), rel=1e-6)
    probe = X0.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: run(probe, w), probe), rtol=1e-6, atol=1e-8)
    tx = np.linspace(-1.0, 1.0, 11)
    ty = np.zeros(11)
    dr = derivative("stencil", ["dup", "dup", "dup"], forward=True)(X0.copy(), tx, np.zeros(11), ty, w, 0.5)
    h = 1e-6
    up, down = np.zeros(11), np.zeros(11)
    r_up = lib.stencil(X0 + h * tx, up, w + 0.5 * h)
    r_down = lib.stencil(X0 - h * tx, down, w - 0.5 * h)
    assert dr == pytest.approx((r_up - r_down) / (2 * h), rel=1e-6)
    np.testing.assert_allclose(ty, (up - down) / (2 * h), rtol=1e-6, atol=1e-8)


A0 = np.random.default_rng(13).standard_normal((5, 3))


def test_two_dimensions_product_max_min(prog, derivative, team):
    _, lib = prog
    w, wb = 0.6, np.random.default_rng(14).standard_normal((5, 3))

    def run(A, ww):
        B = np.zeros((5, 3))
        return lib.grid(A.copy(), B, ww) + float((wb * B).sum())

    B = np.zeros((5, 3))
    r = lib.grid(A0.copy(), B, w)
    b = A0 * w + A0[0]
    want = np.prod(1 + 0.1 * A0**2) + 2 * (A0 * np.cos(A0 * w)).max() + 3 * (b * A0[0]).min()
    assert r == pytest.approx(float(want), rel=1e-12)
    np.testing.assert_allclose(B, b, rtol=1e-12)
    dA, dB = np.zeros_like(A0), wb.copy()
    dw = derivative("grid", ["dup", "dup", "active"])(A0.copy(), dA, np.zeros((5, 3)), dB, w)
    assert dw == pytest.approx(fd(lambda s: run(A0, s), w), rel=1e-6)
    probe = A0.copy()
    np.testing.assert_allclose(dA, fd_array(lambda: run(probe, w), probe), rtol=1e-6, atol=1e-8)
    tA = np.random.default_rng(15).standard_normal(A0.shape)
    tB = np.zeros((5, 3))
    d = derivative("grid", ["dup", "dup", "dup"], forward=True)(A0.copy(), tA, np.zeros((5, 3)), tB, w, -0.5)
    assert d == pytest.approx(fd(lambda s: lib.grid(A0 + s * tA, np.zeros((5, 3)), w - 0.5 * s), 0.0), rel=1e-6)
    np.testing.assert_allclose(tB, tA * w - 0.5 * A0 + tA[0], rtol=1e-12)  # B = A w + A[0], linear in A


U0 = np.sin(np.arange(8.0)) + 0.2


def _heat(u: np.ndarray, c: float) -> np.ndarray:
    u = u.copy()
    for _ in range(3):
        v = u.copy()
        v[1:7] = u[1:7] + u[1:7] ** 2 * c * (u[:6] - 2 * u[1:7] + u[2:])
        u[1:7] = v[1:7]
    return u


def test_regions_in_a_time_loop(prog, derivative, team):
    """Two regions per step, the second overwriting what the first read."""
    _, lib = prog
    c, wu = 0.3, np.random.default_rng(16).standard_normal(8)

    def run(u, cc):
        uu = u.copy()
        lib.heat(uu, np.zeros(8), cc)
        return float(wu @ uu)

    u = U0.copy()
    lib.heat(u, np.zeros(8), c)
    np.testing.assert_allclose(u, _heat(U0, c), rtol=1e-12)
    du = wu.copy()
    dc = derivative("heat", ["dup", "dup", "active"])(U0.copy(), du, np.zeros(8), np.zeros(8), c)
    assert dc == pytest.approx(fd(lambda s: run(U0, s), c), rel=1e-6)
    probe = U0.copy()
    np.testing.assert_allclose(du, fd_array(lambda: run(probe, c), probe), rtol=1e-6, atol=1e-8)


def test_unrecognised_combiner_runs_serially(prog, derivative, team):
    _, lib = prog
    x, w = X0[:6].copy(), 0.4
    assert lib.unrecognised(x.copy(), w) == pytest.approx(float(np.exp(x * w).sum()), rel=1e-12)
    dx = np.zeros(6)
    dw = derivative("unrecognised", ["dup", "active"])(x.copy(), dx, w)
    assert dw == pytest.approx(fd(lambda s: lib.unrecognised(x.copy(), s), w), rel=1e-6)
    probe = x.copy()
    np.testing.assert_allclose(dx, fd_array(lambda: lib.unrecognised(probe, w), probe), rtol=1e-6, atol=1e-9)


def test_repeatable_at_four_threads(prog, derivative):
    """Adjoints that threads add into one element race: a lost update would show as a run
    that differs from the others (beyond the rounding of a different order of additions)."""
    from xenzyme.backend.jit import _libomp

    omp = _libomp()
    before = omp.omp_get_max_threads()
    omp.omp_set_num_threads(4)
    try:
        g = derivative("stencil", ["dup", "dup", "active"])
        h = derivative("heat", ["dup", "dup", "active"])
        k = derivative("wide", ["dup", "dup", "active"])
        runs = []
        for _ in range(20):
            dx, du, dxw = np.zeros(11), np.zeros(8), np.zeros(N)
            dw = g(X0.copy(), dx, np.zeros(11), np.linspace(0.5, 1.5, 11), 0.7)
            dc = h(U0.copy(), du + np.linspace(-1.0, 1.0, 8), np.zeros(8), np.zeros(8), 0.3)
            dww = k(XW.copy(), dxw, np.zeros(N), np.ones(N), 0.9)
            runs.append(np.concatenate([dx, [dw, dc, dww], dxw]))
    finally:
        omp.omp_set_num_threads(before)
    first = runs[0]
    for r in runs[1:]:
        np.testing.assert_allclose(r, first, rtol=0, atol=1e-12 * np.abs(first).max())


def test_checkpointing_takes_the_loops_serially(prog):
    """Checkpoints do not capture parallel regions yet: with a checkpointing scheme the loops
    are differentiated as scf.for nests (and the derivative is still right)."""
    m, lib = prog
    c, wu = 0.3, np.random.default_rng(17).standard_normal(8)

    def run(u, cc):
        uu = u.copy()
        lib.heat(uu, np.zeros(8), cc)
        return float(wu @ uu)

    g = xz.gradient(m, "heat", ["dup", "dup", "active"], checkpoint="binomial", checkpoints=2)
    du = wu.copy()
    dc = g(U0.copy(), du, np.zeros(8), np.zeros(8), c)
    assert dc == pytest.approx(fd(lambda s: run(U0, s), c), rel=1e-6)
    probe = U0.copy()
    np.testing.assert_allclose(du, fd_array(lambda: run(probe, c), probe), rtol=1e-6, atol=1e-8)


N = 4001
XW = np.random.default_rng(18).standard_normal(N)


def test_long_loop_against_a_directional_difference(prog, derivative, team):
    """Thousands of iterations per region: the gradient along a random direction against the
    central difference of the primal along it (two primal runs instead of one per element)."""
    _, lib = prog
    w, wy, d = 0.9, np.random.default_rng(19).standard_normal(N), np.random.default_rng(20).standard_normal(N)

    def run(x, ww):
        y = np.zeros(N)
        return lib.wide(x.copy(), y, ww) + float(wy @ y)

    i = np.arange(1, N - 1)
    y = np.zeros(N)
    r = lib.wide(XW.copy(), y, w)
    t = np.sin(XW[i] * w) * XW[i - 1] + XW[i + 1] * XW[0]
    assert r == pytest.approx(float((t * XW[i]).sum()), rel=1e-11)
    np.testing.assert_allclose(y[i], t, rtol=1e-12, atol=1e-15)
    dx = np.zeros(N)
    dw = derivative("wide", ["dup", "dup", "active"])(XW.copy(), dx, np.zeros(N), wy.copy(), w)
    assert dw == pytest.approx(fd(lambda s: run(XW, s), w), rel=1e-6)
    assert float(dx @ d) == pytest.approx(fd(lambda s: run(XW + s * d, w), 0.0), rel=1e-6)
    assert dx[0] == pytest.approx(fd(lambda s: run(XW + s * np.eye(1, N, 0)[0], w), 0.0), rel=1e-6)
