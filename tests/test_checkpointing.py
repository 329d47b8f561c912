"""Checkpointed reverse mode of long loops (xenzyme/transforms/checkpoint_loops.py).

Gradients of the time loops in tests/programs/checkpoint/ (carrying SSA values: time_loops.c;
overwriting arrays in place: memory_loops.c; an LSTM over a long sequence: lstm.c; an implicit
stepper with a Newton iteration in each step: implicit.c) under binomial, periodic and online checkpointing, at clang -O0 and -O2 and at the trip counts where schedules go wrong
(0, 1, 2, c-1, c, c+1 and a long run), against the cached gradient (`checkpoint=off`) and
central finite differences; the number of steps binomial checkpointing runs again against
revolve's optimum, and online checkpointing's against its schedule simulated here; and the loops and options that are refused.
"""

from __future__ import annotations

import ctypes
import functools
import mmap
from math import comb
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, XENZYME_OPT, clang, run

import xenzyme as xz
from xenzyme.diagnostics import XenzymeError

PROGRAMS = REPO / "tests" / "programs" / "checkpoint"
LOOPS = PROGRAMS / "time_loops.c"
MEMORY = PROGRAMS / "memory_loops.c"
C = 3  # checkpoints (binomial) and period (periodic): the edge cases are near it
TRIPS = [0, 1, 2, C - 1, C, C + 1, 7, 400]
SCHEMES = ["off", "binomial", "periodic"]


@functools.cache
def _gradient(function: str, activity: tuple[str, ...], level: str, scheme: str, program: Path = LOOPS):
    return xz.gradient(str(program), function, list(activity), clang_flags=[level], cache=False,
                       checkpoint=scheme, checkpoints=C, period=C)  # fmt: skip


@functools.cache
def _primal(level: str, program: Path = LOOPS):
    return xz.compile(xz.load(str(program), clang_flags=[level]))


def _ode_case(level: str, scheme: str, n: int) -> tuple[np.ndarray, float]:
    g = _gradient("ode", ("dup", "active", "const"), level, scheme)
    p, dp = np.array([1.3, 0.2]), np.zeros(2)
    dx0 = g(p, dp, 0.7, n)
    return dp, float(dx0)


def _fd(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    out = np.zeros_like(x)
    for i in range(len(x)):
        a, b = x.copy(), x.copy()
        a[i] += h
        b[i] -= h
        out[i] = (f(a) - f(b)) / (2 * h)
    return out


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("scheme", ["binomial", "periodic", "online"])
def test_ode_gradient_at_every_trip_count(level: str, scheme: str) -> None:
    lib = _primal(level)
    for n in TRIPS:
        dp, dx0 = _ode_case(level, scheme, n)
        ref_dp, ref_dx0 = _ode_case(level, "off", n)
        np.testing.assert_allclose(dp, ref_dp, rtol=1e-12, atol=1e-15, err_msg=f"n={n}")
        assert dx0 == pytest.approx(ref_dx0, rel=1e-12, abs=1e-15), n
        fd = _fd(lambda v, n=n: lib.ode(v[:2].copy(), float(v[2]), n), np.array([1.3, 0.2, 0.7]))
        np.testing.assert_allclose([*dp, dx0], fd, rtol=1e-5, atol=1e-8, err_msg=f"n={n}")


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
def test_nested_loop_checkpoints_the_outer(level: str, scheme: str) -> None:
    lib = _primal(level)
    g = _gradient("nested", ("dup", "const", "active", "const"), level, scheme)
    ref = _gradient("nested", ("dup", "const", "active", "const"), level, "off")
    w0 = np.array([0.3, -0.2, 0.5, 0.1])
    for n in (0, 1, C, C + 1, 50):
        dw, dwr = np.zeros(4), np.zeros(4)
        dx = g(w0, dw, 4, 0.4, n)
        dxr = ref(w0, dwr, 4, 0.4, n)
        np.testing.assert_allclose(dw, dwr, rtol=1e-12, atol=1e-15)
        assert float(dx) == pytest.approx(float(dxr), rel=1e-12, abs=1e-15)
        fd = _fd(lambda v, n=n: lib.nested(v[:4].copy(), 4, float(v[4]), n), np.array([*w0, 0.4]))
        np.testing.assert_allclose([*dw, float(dx)], fd, rtol=1e-5, atol=1e-8, err_msg=f"n={n}")


@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
def test_loop_reading_a_constant_array(scheme: str) -> None:
    """w without a shadow (const): the loop reads it through the state, as an address."""
    lib = _primal("-O2")
    g = _gradient("nested", ("const", "const", "active", "const"), "-O2", scheme)
    w0 = np.array([0.3, -0.2, 0.5, 0.1])
    for n in (0, 1, C, C + 1, 50):
        h = 1e-6
        fd = (lib.nested(w0.copy(), 4, 0.4 + h, n) - lib.nested(w0.copy(), 4, 0.4 - h, n)) / (2 * h)
        assert float(g(w0, 4, 0.4, n)) == pytest.approx(fd, rel=1e-6, abs=1e-9), n


@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
def test_f32_loop_with_a_shifted_counter(scheme: str) -> None:
    g = _gradient("logistic", ("dup", "active", "const", "const"), "-O2", scheme)
    ref = _gradient("logistic", ("dup", "active", "const", "const"), "-O2", "off")
    for lo, hi in ((5, 5), (5, 6), (-3, 1), (2, 2 + C), (10, 300)):
        r, dr, drr = np.array([1.1, 0.5], np.float32), np.zeros(2, np.float32), np.zeros(2, np.float32)
        dx = g(r, dr, np.float32(0.3), lo, hi)
        dxr = ref(r, drr, np.float32(0.3), lo, hi)
        np.testing.assert_allclose(dr, drr, rtol=1e-5, atol=1e-7, err_msg=f"{lo}..{hi}")
        assert float(dx) == pytest.approx(float(dxr), rel=1e-5, abs=1e-7)


# ---- memory overwritten in place ---------------------------------------------------------------


_PAGE = mmap.PAGESIZE


def _fenced(m: int) -> np.ndarray:
    """m doubles that end where an unreadable page begins: a snapshot that copied past the end
    of the memory the loop writes stops the process (a copy that writes back what it read would
    leave guard values unchanged)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    base = libc.mmap(None, 2 * _PAGE, mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, -1, 0)
    assert base not in (None, ctypes.c_void_p(-1).value)
    assert libc.mprotect(base + _PAGE, _PAGE, 0) == 0  # (PROT_NONE)
    return np.ctypeslib.as_array((ctypes.c_double * m).from_address(base + _PAGE - 8 * m))


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
@pytest.mark.parametrize("function", ["heat", "jacobi"])
def test_arrays_overwritten_in_place(function: str, scheme: str, level: str) -> None:
    lib = _primal(level, MEMORY)
    acts = ("dup", "const", "active", "const") if function == "heat" else ("dup", "dup", "const", "active", "const")
    g = _gradient(function, acts, level, scheme, MEMORY)
    ref = _gradient(function, acts, level, "off", MEMORY)

    def run_gradient(grad, u0: np.ndarray, n: int) -> tuple[np.ndarray, float]:
        m = len(u0)
        u, du, t, dt = (_fenced(m) for _ in range(4))
        u[:], du[:], t[:], dt[:] = u0, 0, 0, 0
        dk = grad(u, du, m, 0.2, n) if function == "heat" else grad(u, du, t, dt, m, 0.2, n)
        return du.copy(), float(dk)

    def primal(u0: np.ndarray, k: float, n: int) -> float:
        u = u0.copy()
        return lib.heat(u, len(u), k, n) if function == "heat" else lib.jacobi(u, np.zeros(len(u)), len(u), k, n)

    for m in (1, 2, 3, 4, 9):  # (1, 2: the inner loops do not run)
        u0 = np.sin(np.linspace(0.1, 3.0, m))
        for n in TRIPS:
            du, dk = run_gradient(g, u0, n)
            du_ref, dk_ref = run_gradient(ref, u0, n)
            np.testing.assert_allclose(du, du_ref, rtol=1e-12, atol=1e-15, err_msg=f"m={m} n={n}")
            assert dk == pytest.approx(dk_ref, rel=1e-12, abs=1e-15), (m, n)
            fd = _fd(lambda v, n=n: primal(v[:-1], float(v[-1]), n), np.array([*u0, 0.2]))
            np.testing.assert_allclose([*du, dk], fd, rtol=1e-5, atol=1e-7, err_msg=f"m={m} n={n}")


@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
def test_scalar_accumulated_in_memory(scheme: str) -> None:
    g = _gradient("accumulate", ("dup", "dup", "const"), "-O2", scheme, MEMORY)
    lib = _primal("-O2", MEMORY)
    for n in (0, 1, C, C + 1, 100):
        p, dp, acc, dacc = np.array([0.3, 0.8]), np.zeros(2), np.array([0.5]), np.array([1.0])
        g(p, dp, acc, dacc, n)

        def f(v: np.ndarray, n: int = n) -> float:
            a = np.array([0.5])
            lib.accumulate(v.copy(), a, n)
            return float(a[0])

        np.testing.assert_allclose(dp, _fd(f, np.array([0.3, 0.8])), rtol=1e-6, atol=1e-9, err_msg=f"n={n}")
        assert dacc[0] == 1.0  # (acc += ...: its own derivative passes through)


# ---- revolve's optimum -------------------------------------------------------------------------


def _beta(c: int, r: int) -> int:
    return comb(c + r, c)


def revolve_optimum(n: int, c: int) -> int:
    """Griewank's closed form of the fewest steps run again to reverse n steps with c
    checkpoints (the state at the start among them): r n - beta(c+1, r-1), r the fewest
    repetitions with beta(c, r) >= n."""
    if n <= 1:
        return 0
    r = 0
    while _beta(c, r) < n:
        r += 1
    return r * n - _beta(c + 1, r - 1)


@functools.cache
def _dynamic_optimum(n: int, c: int) -> int:
    if n <= 1:
        return 0
    if c == 1:
        return n * (n - 1) // 2
    return min(m + _dynamic_optimum(n - m, c - 1) + _dynamic_optimum(m, c) for m in range(1, n))


def test_closed_form_matches_the_dynamic_programme() -> None:
    for c in range(1, 6):
        for n in range(0, 80):
            assert revolve_optimum(n, c) == _dynamic_optimum(n, c), (n, c)


@pytest.mark.parametrize("c", [1, 2, 5])
def test_binomial_recomputes_revolves_optimum(c: int, tmp_path: Path) -> None:
    src = PROGRAMS / "schedule.c"
    ll, obj, exe = tmp_path / "s.ll", tmp_path / "s.o", tmp_path / "s"
    assert run([clang(), "-O2", "-S", "-emit-llvm", str(src), "-o", str(ll)]).returncode == 0
    r = run([*XENZYME_OPT, str(ll), "-p", f"enzyme{{checkpoint=binomial checkpoints={c}}}", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    assert run(["cc", str(obj), "-lm", "-o", str(exe)]).returncode == 0
    trips = [0, 1, 2, c - 1, c, c + 1, 17, 100, 1000] if c > 1 else [0, 1, 2, 17, 60]
    r = run([str(exe), *map(str, trips)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")[:-1]
    assert len(lines) == 2 * len(trips)
    for line in lines:
        _, n, steps, dp, fd = line.split()
        assert int(steps) == revolve_optimum(int(n), c), line
        assert float(dp) == pytest.approx(float(fd), rel=1e-5, abs=1e-9), line


# ---- online checkpointing ----------------------------------------------------------------------


def online_snapshots(n: int, c: int) -> list[int]:
    """The steps before which the online scheme keeps a snapshot, as the runtime documents it:
    the state at entry, then every s-th step's; when one is due and the c slots are full, those
    at odd multiples of s go and s doubles."""
    kept, s = [0], 1
    for k in range(1, n):
        if k % s == 0:
            if len(kept) == c:
                kept = [p for p in kept if p % (2 * s) == 0]
                s *= 2
            if k % s == 0:
                kept.append(k)
    assert len(kept) <= c
    return kept


def online_steps(n: int, c: int) -> int:
    """The steps run again: the kept snapshots' steps p_0 .. p_m (p_m = n) reversed as
    stretches p_i .. p_e, from the last, each by revolve from snapshot i with the c - i slots
    left (at most its length), the stretches chosen for the fewest steps in all."""
    p = [*online_snapshots(n, c), n]

    @functools.cache
    def best(e: int) -> int:
        if e == 0:
            return 0
        return min(best(i) + revolve_optimum(p[e] - p[i], min(c - i, p[e] - p[i])) for i in range(e))

    return best(len(p) - 1)


def test_online_schedule_by_hand() -> None:
    """The simulation itself, on cases worked out by hand (c = 3)."""
    assert online_snapshots(3, 3) == [0, 1, 2]
    assert online_snapshots(4, 3) == [0, 2]  # (step 3 due when full: 1 goes, s = 2)
    assert online_snapshots(5, 3) == [0, 2, 4]
    assert online_snapshots(7, 3) == [0, 4]  # (step 6 due when full: 2 goes, s = 4)
    assert online_steps(7, 3) == revolve_optimum(4, 3) + revolve_optimum(3, 2) == 5  # (less than 9: all 7 from 0)
    assert online_steps(7, 3) < revolve_optimum(7, 3) == 9
    for c in (1, 2, 3, 8):  # (reversing all n from the first snapshot, binomial's way, is one choice)
        for n in (0, 1, 5, 40, 333):
            assert online_steps(n, c) <= revolve_optimum(n, min(c, max(n, 1))), (n, c)


def _schedule_binary(tmp: Path, pipeline: str) -> Path:
    ll, obj, exe = tmp / "s.ll", tmp / "s.o", tmp / "s"
    if not ll.exists():
        assert run([clang(), "-O2", "-S", "-emit-llvm", str(PROGRAMS / "schedule.c"), "-o", str(ll)]).returncode == 0
    r = run([*XENZYME_OPT, str(ll), "-p", pipeline, "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    assert run(["cc", str(obj), "-lm", "-o", str(exe)]).returncode == 0
    return exe


@pytest.fixture(scope="module")
def schedule_off(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _schedule_binary(tmp_path_factory.mktemp("off"), "enzyme")


@pytest.mark.parametrize("c", [1, 2, 5])
def test_online_recomputes_its_schedule(c: int, schedule_off: Path, tmp_path: Path) -> None:
    """schedule.c's counted loop (chain) and loop run until a limit (until): the steps run
    again are those of the documented schedule, the gradient the uncheckpointed one's and
    finite differences'."""
    exe = _schedule_binary(tmp_path, f"enzyme{{checkpoint=online checkpoints={c}}}")
    trips = [0, 1, 2, c - 1, c, c + 1, 17, 100, 1000] if c > 1 else [0, 1, 2, 17, 60]
    r, ref = run([str(exe), *map(str, trips)]), run([str(schedule_off), *map(str, trips)])
    assert r.returncode == 0 and ref.returncode == 0, r.stderr + ref.stderr
    lines, ref_lines = r.stdout.split("\n")[:-1], ref.stdout.split("\n")[:-1]
    assert len(lines) == len(ref_lines) == 2 * len(trips)
    for line, off in zip(lines, ref_lines, strict=True):
        _, n, steps, dp, fd = line.split()
        assert int(steps) == online_steps(int(n), c), line
        assert float(dp) == pytest.approx(float(off.split()[3]), rel=1e-12, abs=1e-15), (line, off)
        assert float(dp) == pytest.approx(float(fd), rel=1e-5, abs=1e-9), line


# ---- a memory budget ---------------------------------------------------------------------------


_SNAPSHOT = 8 * 1024  # (u[1..m-2] of budget.c's heat, m = 1026; its state block adds a few dozen bytes)
BUDGET_TRIPS = [0, 1, 2, 3, 4, 6, 7, 40]


def _budget_program(tmp: Path, pipeline: str) -> list[list[str]]:
    ll, obj, exe = tmp / "b.ll", tmp / "b.o", tmp / "b"
    if not ll.exists():
        assert run([clang(), "-O2", "-S", "-emit-llvm", str(PROGRAMS / "budget.c"), "-o", str(ll)]).returncode == 0
    r = run([*XENZYME_OPT, str(ll), "-p", pipeline, "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    assert run(["cc", str(obj), "-lm", "-o", str(exe)]).returncode == 0
    r = run([str(exe), *map(str, BUDGET_TRIPS)])
    assert r.returncode == 0, r.stderr
    return [line.split() for line in r.stdout.split("\n")[:-1]]


@pytest.fixture(scope="module")
def uncheckpointed(tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    return _budget_program(tmp_path_factory.mktemp("off"), "enzyme")


@pytest.mark.parametrize(("snapshots", "c"), [(0.1, 1), (3.5, 3), (6.5, 6), (1e6, None)])
def test_budget_chooses_the_checkpoints(snapshots: float, c: int | None, uncheckpointed: list, tmp_path: Path) -> None:
    """A budget of `snapshots` heat states: c of them (None: more than any n here, so c = n),
    the steps run again revolve's optimum for that c, the gradient the uncached one's and
    finite differences'."""
    mb = snapshots * _SNAPSHOT / (1 << 20)
    lines = _budget_program(tmp_path, f"enzyme{{tape-budget-mb={mb!r}}}")
    assert len(lines) == len(BUDGET_TRIPS)
    for line, ref in zip(lines, uncheckpointed, strict=True):
        n, steps, used = map(int, line[:3])
        expected = 0 if n == 0 else min(c or n, n)
        assert used == expected, line
        assert steps == revolve_optimum(n, max(expected, 1)), line
        values, fd, off = np.array(line[3::2], float), np.array(line[4::2], float), np.array(ref[3::2], float)
        np.testing.assert_allclose(values, off, rtol=1e-12, atol=1e-15, err_msg=f"n={n}")
        np.testing.assert_allclose(values, fd, rtol=1e-5, atol=1e-6, err_msg=f"n={n}")


@pytest.mark.parametrize("c", [1, 3])
def test_online_snapshots_of_memory_overwritten(c: int, uncheckpointed: list, tmp_path: Path) -> None:
    """budget.c's heat loop (8 KiB overwritten in place each step) under online checkpointing:
    the snapshots the primal's run kept (at most c) and the steps run again are the simulated
    schedule's, the gradient the uncheckpointed one's and finite differences'."""
    lines = _budget_program(tmp_path, f"enzyme{{checkpoint=online checkpoints={c}}}")
    assert len(lines) == len(BUDGET_TRIPS)
    for line, ref in zip(lines, uncheckpointed, strict=True):
        n, steps, kept = map(int, line[:3])
        assert kept == (len(online_snapshots(n, c)) if n else 0) and kept <= c, line
        assert steps == online_steps(n, c), line
        values, fd, off = np.array(line[3::2], float), np.array(line[4::2], float), np.array(ref[3::2], float)
        np.testing.assert_allclose(values, off, rtol=1e-12, atol=1e-15, err_msg=f"n={n}")
        np.testing.assert_allclose(values, fd, rtol=1e-5, atol=1e-6, err_msg=f"n={n}")


@pytest.mark.parametrize(("budget", "c"), [("0.000001", 1), ("100000000000000000000", None)])
def test_budget_of_a_loop_of_unknown_length(budget: str, c: int | None, tmp_path: Path) -> None:
    """schedule.c's counted loop and its loop run until a limit, under a budget of less than
    one snapshot (c = 1) and of more than any n (c = n; the bytes capped to an i64)."""
    ll, obj, exe = tmp_path / "s.ll", tmp_path / "s.o", tmp_path / "s"
    assert run([clang(), "-O2", "-S", "-emit-llvm", str(PROGRAMS / "schedule.c"), "-o", str(ll)]).returncode == 0
    r = run([*XENZYME_OPT, str(ll), "-p", f"enzyme{{tape-budget-mb={budget}}}", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    assert run(["cc", str(obj), "-lm", "-o", str(exe)]).returncode == 0
    trips = [0, 1, 2, 5, 30]
    r = run([str(exe), *map(str, trips)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")[:-1]
    assert len(lines) == 2 * len(trips)
    for line in lines:
        _, n, steps, dp, fd = line.split()
        assert int(steps) == revolve_optimum(int(n), c or max(int(n), 1)), line
        assert float(dp) == pytest.approx(float(fd), rel=1e-5, abs=1e-9), line


def test_budget_from_python() -> None:
    lib = _primal("-O2", MEMORY)
    acts = ["dup", "const", "active", "const"]
    g = xz.gradient(str(MEMORY), "heat", acts, clang_flags=["-O2"], cache=False, tape_budget_mb=1e-4)
    ref = _gradient("heat", tuple(acts), "-O2", "off", MEMORY)
    u0 = np.sin(np.linspace(0.1, 3.0, 9))
    for n in (0, 1, 2, 5, 60):  # (104 bytes: one snapshot, the 56 bytes of u[1..7] and a state block)
        du, dur = np.zeros(9), np.zeros(9)
        dk, dkr = float(g(u0.copy(), du, 9, 0.2, n)), float(ref(u0.copy(), dur, 9, 0.2, n))
        np.testing.assert_allclose([*du, dk], [*dur, dkr], rtol=1e-12, atol=1e-15, err_msg=f"n={n}")
        fd = _fd(lambda v, n=n: lib.heat(v[:-1].copy(), 9, float(v[-1]), n), np.array([*u0, 0.2]))
        np.testing.assert_allclose([*du, dk], fd, rtol=1e-5, atol=1e-7, err_msg=f"n={n}")


@pytest.mark.parametrize(("options", "message"), [
    ({"tape_budget_mb": 0}, "tape budget must be a positive number of MiB"),
    ({"tape_budget_mb": -3.0}, "tape budget must be a positive number of MiB"),
    ({"tape_budget_mb": float("nan")}, "tape budget must be a positive number of MiB"),
    ({"tape_budget_mb": "256"}, "tape budget must be a positive number of MiB"),
    ({"tape_budget_mb": 8, "checkpoints": 4}, "a tape budget chooses the number of checkpoints"),
    ({"tape_budget_mb": 8, "checkpoint": "periodic"}, "a tape budget chooses binomial checkpointing"),
    ({"tape_budget_mb": 8, "checkpoint": "online"}, "not checkpoint=online"),
])  # fmt: skip
def test_bad_budgets_are_errors(options: dict, message: str) -> None:
    with pytest.raises(XenzymeError, match=message):
        xz.gradient(str(LOOPS), "ode", ["dup", "active", "const"], cache=False, **options)


@pytest.mark.parametrize(("pipeline", "message"), [
    ("enzyme{tape-budget-mb=0}", "enzyme: the tape budget must be a positive number of MiB (got 0)"),
    ("enzyme{tape-budget-mb=64 checkpoints=8}", "a tape budget chooses the number of checkpoints"),
    ("checkpoint-loops{budget-mb=-1.5}", "checkpoint-loops: the tape budget must be a positive number"),
])  # fmt: skip
def test_bad_budgets_are_cli_errors(pipeline: str, message: str) -> None:
    r = run([*XENZYME_OPT, str(LOOPS), "-p", pipeline, "-t", "llvm"])
    assert r.returncode == 1 and message in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_budget_is_part_of_the_cache_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XENZYME_CACHE_DIR", str(tmp_path))
    src, acts = str(PROGRAMS / "unsupported.c"), ["dup", "dup", "const"]
    xz.gradient(src, "trajectory", acts)  # (off: builds, and is kept)
    with pytest.raises(XenzymeError, match="tape-budget-mb: cannot checkpoint"):  # not served from the cache
        xz.gradient(src, "trajectory", acts, tape_budget_mb=64)


# ---- what is refused ---------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "message"), [
    ({"checkpoint": "revolve"}, "unknown checkpointing scheme 'revolve'"),
    ({"checkpoint": "binomial", "checkpoints": 0}, "checkpoints must be a positive integer"),
    ({"checkpoint": "periodic", "period": -5}, "period must be a positive integer"),
    ({"checkpoint": "online", "checkpoints": 0}, "checkpoints must be a positive integer"),
    ({"checkpoint": "online", "checkpoints": 2.5}, "checkpoints must be a positive integer"),
])  # fmt: skip
def test_bad_options_are_errors(options: dict, message: str) -> None:
    with pytest.raises(XenzymeError, match=message):
        xz.gradient(str(LOOPS), "ode", ["dup", "active", "const"], cache=False, **options)


@pytest.mark.parametrize("scheme", ["binomial", "periodic"])
def test_loop_with_a_break(scheme: str) -> None:
    src = PROGRAMS / "while_loops.c"
    lib = _primal("-O2", src)
    g = _gradient("early_exit", ("dup", "const"), "-O2", scheme, src)
    for p1, n in ((1.5, 3), (1.5, 100), (0.5, 100), (1.5, 0), (1.1, 1)):
        dp = np.zeros(2)
        g(np.array([0.5, p1]), dp, n)
        fd = _fd(lambda v, n=n: lib.early_exit(v.copy(), n), np.array([0.5, p1]))
        np.testing.assert_allclose(dp, fd, rtol=1e-6, atol=1e-9, err_msg=f"{p1} {n}")


def test_parallel_region_in_the_loop_is_refused() -> None:
    with pytest.raises(XenzymeError) as err:
        xz.gradient(str(PROGRAMS / "unsupported_omp.c"), "omp_heat", ["dup", "const", "const"], cache=False,
                    checkpoint="binomial")  # fmt: skip
    assert "checkpoints do not capture yet" in str(err.value) and "checkpoint=off" in str(err.value)


def test_bad_pipeline_option_is_a_cli_error() -> None:
    r = run([*XENZYME_OPT, str(LOOPS), "-p", "enzyme{checkpoint=stumm}", "-t", "llvm"])
    assert r.returncode == 1 and "unknown checkpointing scheme 'stumm'" in r.stderr and "Traceback" not in r.stderr
    r = run([*XENZYME_OPT, str(LOOPS), "-p", "enzyme{checkpoint=online checkpoints=0}", "-t", "llvm"])
    assert r.returncode == 1 and "checkpoints must be a positive integer (got 0)" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize(("function", "activity", "line"), [
    ("trajectory", ["dup", "dup", "const"], 8),                          # traj[t]: a new place each step
    ("jacobi_vectorized", ["dup", "dup", "const", "active", "const"], 16),  # remainders counted by masks
])  # fmt: skip
def test_memory_of_unknown_extent_is_refused_with_its_location(function: str, activity: list, line: int) -> None:
    with pytest.raises(XenzymeError) as err:
        xz.gradient(str(PROGRAMS / "unsupported.c"), function, activity, cache=False, checkpoint="binomial")
    text = str(err.value)
    assert "extent is not known" in text and f"unsupported.c:{line}:" in text and "checkpoint=off" in text


@pytest.mark.parametrize("scheme", ["binomial", "periodic", "online"])
def test_while_loop_to_convergence(scheme: str) -> None:
    """Newton's iteration for sqrt(p) until it converges: the trip count is found as it runs."""
    src = PROGRAMS / "while_loops.c"
    lib = _primal("-O2", src)
    g = _gradient("converge", ("dup", "active"), "-O2", scheme, src)
    ref = _gradient("converge", ("dup", "active"), "-O2", "off", src)
    for p0, x0 in ((2.0, 1.0), (2.0, 1.5), (9.0, 100.0), (1e6, 0.5)):
        dp, dpr = np.zeros(1), np.zeros(1)
        dx0, dx0r = float(g(np.array([p0]), dp, x0)), float(ref(np.array([p0]), dpr, x0))
        assert dp[0] == pytest.approx(dpr[0], rel=1e-12) and dx0 == pytest.approx(dx0r, rel=1e-12, abs=1e-300)
        h = 1e-6 * p0
        fd = (lib.converge(np.array([p0 + h]), x0) - lib.converge(np.array([p0 - h]), x0)) / (2 * h)
        assert dp[0] == pytest.approx(fd, rel=1e-5), (p0, x0)


def test_checkpoint_options_are_part_of_the_cache_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XENZYME_CACHE_DIR", str(tmp_path))
    g_off = xz.gradient(str(LOOPS), "ode", ["dup", "active", "const"])
    src, acts = str(PROGRAMS / "unsupported.c"), ["dup", "dup", "const"]
    with pytest.raises(XenzymeError, match="extent is not known"):  # not served from the cache
        xz.gradient(src, "trajectory", acts, checkpoint="binomial")
    xz.gradient(src, "trajectory", acts)  # (off: builds, and is kept)
    with pytest.raises(XenzymeError, match="extent is not known"):
        xz.gradient(src, "trajectory", acts, checkpoint="binomial")
    p, dp = np.array([1.3, 0.2]), np.zeros(2)
    assert np.isfinite(g_off(p, dp, 0.7, 10))


# ---- a loop marked in C: __enzyme_checkpoint(c) ------------------------------------------------


MARKED_TRIPS = [0, 1, 2, 3 - 1, 3, 3 + 1, 7, 400]  # (marked.c marks its loop with 3 checkpoints)


@pytest.mark.parametrize(("level", "pipeline", "defines"), [
    ("-O0", "enzyme", []),
    ("-O2", "enzyme", []),
    ("-O2", "enzyme{checkpoint=periodic period=5}", []),  # (the marked loop keeps its own binomial c = 3)
    ("-O2", "enzyme", ["-DPRIMAL_BUILD"]),  # (the marker defined as a weak no-op)
])  # fmt: skip
def test_marked_loop(level: str, pipeline: str, defines: list, tmp_path: Path) -> None:
    """marked.c built and linked (its primal-only function's marker is gone, or it would not
    link): the marked loop re-runs revolve's optimum for c = 3, and its gradient is the
    unmarked loop's, bit for bit in effect, and central differences'."""
    ll, obj, exe = tmp_path / "m.ll", tmp_path / "m.o", tmp_path / "m"
    src = str(PROGRAMS / "marked.c")
    assert run([clang(), level, *defines, "-S", "-emit-llvm", src, "-o", str(ll)]).returncode == 0
    r = run([*XENZYME_OPT, str(ll), "-p", pipeline, "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    r = run(["cc", str(obj), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    r = run([str(exe), *map(str, MARKED_TRIPS)])
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")[:-1]
    assert len(lines) == len(MARKED_TRIPS)
    for line in lines:
        f = line.split()
        n, steps = int(f[0]), int(f[1])
        assert steps == revolve_optimum(n, 3), line
        values, ref, fd = np.array(f[2:5], float), np.array(f[5:8], float), np.array(f[8:11], float)
        np.testing.assert_allclose(values, ref, rtol=1e-12, atol=1e-15, err_msg=line)
        np.testing.assert_allclose(values, fd, rtol=1e-5, atol=1e-8, err_msg=line)
        x = 0.3
        for _ in range(n):
            x = 0.5 * x + 1.0
        assert float(f[11]) == pytest.approx(x, rel=1e-15), line



def test_markers_of_a_program_without_requests_are_removed(tmp_path: Path) -> None:
    """xz.compile of a program nothing differentiates: the marker goes, the program runs."""
    src = tmp_path / "p.c"
    src.write_text("extern void __enzyme_checkpoint(int checkpoints);\n"
                   "double h(double x, int n) {\n"
                   "  for (int t = 0; t < n; t++) { __enzyme_checkpoint(2); x = 0.5 * x + 1.0; }\n"
                   "  return x;\n}\n")  # fmt: skip
    for level in ("-O0", "-O2"):
        lib = xz.compile(xz.load(str(src), clang_flags=[level]), cache=False)
        assert lib.h(0.3, 3) == pytest.approx(((0.3 * 0.5 + 1) * 0.5 + 1) * 0.5 + 1, rel=1e-15)


_MARKER_ERRORS = r"""
extern void __enzyme_checkpoint(int checkpoints);
double nested(double x, int n, int m) {
  for (int t = 0; t < n; t++)
    for (int k = 0; k < m; k++) {
      __enzyme_checkpoint(4);
      x = x * 0.5 + 1.0;
    }
  return x;
}
double counted(double x, int n, int c) {
  for (int t = 0; t < n; t++) {
    __enzyme_checkpoint(c);
    x = x * 0.5 + 1.0;
  }
  return x;
}
double zero(double x, int n) {
  for (int t = 0; t < n; t++) {
    __enzyme_checkpoint(0);
    x = x * 0.5 + 1.0;
  }
  return x;
}
double outside(double x, int n) {
  __enzyme_checkpoint(2);
  for (int t = 0; t < n; t++) x = x * 0.5 + 1.0;
  return x;
}
"""


@pytest.mark.parametrize(("function", "activity", "message", "line"), [
    ("nested", ["active", "const", "const"], "marks a loop nested in another loop of @nested", 6),
    ("counted", ["active", "const", "const"], "must be a positive integer constant (got a value known only", 13),
    ("zero", ["active", "const"], "must be a positive integer constant (got 0)", 20),
    ("outside", ["active", "const"], "is not inside a loop of @outside", 26),
])  # fmt: skip
def test_marker_errors(function: str, activity: list, message: str, line: int, tmp_path: Path) -> None:
    src = tmp_path / "markers.c"
    src.write_text(_MARKER_ERRORS)
    with pytest.raises(XenzymeError) as err:
        xz.gradient(str(src), function, activity, clang_flags=["-O2", "-g"], cache=False)
    text = str(err.value)
    assert message in text and f"markers.c:{line}:" in text, text


# ---- an LSTM and an implicit stepper over long runs --------------------------------------------


LONG = 2000
_NW = 4 * 2 * (2 + 2 + 1) + 2 * 2  # (lstm.c's weights: D = 2 inputs, H = 2 units)
_LSTM_X = [1, 5, 2 * LONG - 1]  # (the inputs whose derivatives are checked: of the first, third and last steps)
_LONG_CASES = [  # (level, real, scheme, c): every scheme at two budgets at -O2, fewer at -O0 and in f32
    *[("-O2", "double", s, c) for s in ("binomial", "periodic", "online") for c in (3, 8)],
    ("-O0", "double", "binomial", 8), ("-O0", "double", "periodic", 3), ("-O0", "double", "online", 3),
    ("-O2", "float", "binomial", 3), ("-O2", "float", "online", 8),
]  # fmt: skip


@functools.cache
def _long_gradient(program: str, level: str, real: str, scheme: str, c: int):
    function, activity = {"lstm": ("lstm", ["dup", "dup", "const"]),
                          "implicit": ("backward_euler", ["dup", "active", "const"])}[program]  # fmt: skip
    flags = [level, "-DSINGLE"] if real == "float" else [level]
    return xz.gradient(str(PROGRAMS / f"{program}.c"), function, activity, clang_flags=flags, cache=False,
                       checkpoint=scheme, checkpoints=c, period=c)  # fmt: skip


@functools.cache
def _long_primal(program: str):
    return xz.compile(xz.load(str(PROGRAMS / f"{program}.c"), clang_flags=["-O2"]), cache=False)


def _lstm_point(real: str) -> tuple[np.ndarray, np.ndarray]:
    dtype = np.float64 if real == "double" else np.float32
    w = 0.5 * np.sin(0.7 * np.arange(_NW) + 0.3)
    x = np.cos(0.13 * np.arange(2 * LONG)) + 0.2 * np.sin(0.05 * np.arange(2 * LONG))
    return w.astype(dtype), x.astype(dtype)


def _long_run(program: str, level: str, real: str, scheme: str, c: int, n: int) -> tuple[np.ndarray, int, int]:
    """The derivatives (lstm: of all weights and a few inputs; implicit: of mu, k and x0) and the
    runtime's counts of steps run again and snapshots kept, from one call."""
    g = _long_gradient(program, level, real, scheme, c)
    addresses = [g.jit.engine.get_global_value_address(f"__xenzyme_checkpoint_{k}") for k in ("steps", "snapshots")]
    counters = [ctypes.c_long.from_address(a) if a else ctypes.c_long(0) for a in addresses]  # (off: no runtime)
    for k in counters:
        k.value = 0
    if program == "lstm":
        w, x = _lstm_point(real)
        dw, dx = np.zeros_like(w), np.zeros_like(x)
        g(w, dw, x, dx, n)
        out = np.array([*dw, *dx[_LSTM_X]], float)
    else:
        dtype = np.float64 if real == "double" else np.float32
        p, dp = np.array([2.0, 1.0], dtype), np.zeros(2, dtype)
        dx0 = g(p, dp, dtype(0.8), n)
        out = np.array([*dp, float(dx0)])
    return out, counters[0].value, counters[1].value


@functools.cache
def _long_fd(program: str, n: int) -> np.ndarray:
    """Central differences of the double-precision primal at the points _long_run differentiates."""
    lib = _long_primal(program)
    if program == "lstm":
        w, x = _lstm_point("double")
        fw = _fd(lambda v: lib.lstm(v, x, n), w)

        def at(v: np.ndarray) -> float:
            y = x.copy()
            y[_LSTM_X] = v
            return lib.lstm(w, y, n)

        return np.array([*fw, *_fd(at, x[_LSTM_X])])
    v0 = np.array([2.0, 1.0, 0.8])
    return _fd(lambda v: lib.backward_euler(v[:2].copy(), float(v[2]), n), v0)


@pytest.mark.parametrize("program", ["lstm", "implicit"])
@pytest.mark.parametrize(("level", "real", "scheme", "c"), _LONG_CASES)
def test_long_runs_at_every_trip_count(program: str, level: str, real: str, scheme: str, c: int) -> None:
    """lstm.c (hidden and cell state carried, gates through sigmoid and tanh, read-only weights)
    and implicit.c (backward Euler, each step a Newton iteration run to convergence) at the trip
    counts 0, 1, 2, c-1, c, c+1 and 2000: the derivatives are the uncheckpointed gradient's
    (tightly) and central differences' (of the double-precision primal), the steps run again and
    the snapshots kept those of the scheme's schedule."""
    for n in sorted({0, 1, 2, c - 1, c, c + 1, LONG}):
        values, steps, kept = _long_run(program, level, real, scheme, c, n)
        ref, _, _ = _long_run(program, level, real, "off", 1, n)  # (one build of it for every c)
        fd = _long_fd(program, n)
        tight, loose = (1e-12, 1e-5) if real == "double" else (1e-5, 2e-3)
        scale = np.max(np.abs(fd)) if n else 1.0
        np.testing.assert_allclose(values, ref, rtol=tight, atol=tight * scale, err_msg=f"n={n}")
        np.testing.assert_allclose(values, fd, rtol=loose, atol=loose * 1e-3 * scale, err_msg=f"n={n}")
        if scheme == "binomial":
            assert steps == revolve_optimum(n, c), n
        elif scheme == "periodic":
            assert steps == n, n
        else:
            assert steps == online_steps(n, c) and kept == (len(online_snapshots(n, c)) if n else 0), n
