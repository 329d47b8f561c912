"""Derivatives of OpenMP programs: reverse and forward mode of parallel regions, end to end.

Each program in tests/programs/omp_ad/ is written as Enzyme users write OpenMP code: noinline
functions with `#pragma omp` constructs (worksharing loops of every schedule, reductions,
critical sections, atomics, barriers, single/master, data-sharing clauses, hand partitioning by
thread id, time loops of regions), differentiated by `__enzyme_autodiff` / `__enzyme_fwddiff`
calls in `main`.  The program checks its derivatives against central differences of its own
(parallel) primal or against exact values, prints PASS and exits 0 when every check holds
(tests/programs/omp_ad/omp_check.h).

- Builds: `xenzyme-opt prog.c --clang-arg=LEVEL -p enzyme -t obj` (which adds -fopenmp) and
  `clang-19 prog.o -fopenmp -lm`, once per (program, level) for the whole session, shared by the
  tests below and between pytest-xdist workers.  Matrix: every program at -O2; in sorted order,
  the first of every four programs also at -O0 (clang's unoptimised IR, `optnone` stripped by
  the pipeline), the second also at -O3 (vectorised), the third at -O0 -g and the fourth at
  -O2 -g (debug records on every value, clang's `_debug__` outlined functions).
- Each build runs at OMP_NUM_THREADS=1, 2 and 4 (more threads than this machine's cores).
- Repeatability: the -O2 build of each program runs 20 times at 4 threads with XZ_PRINT=1 (each
  derivative printed with %.17g); every run must pass and print the same derivatives, up to the
  rounding that a different order of summation explains.  A racing adjoint -- two threads adding
  into one shadow element without synchronisation -- loses an update now and then, which shows
  up as a run that differs.
- The checks themselves are tested with clang alone: built with -DXZ_SELFCHECK, each program
  calls a hand-written serial derivative (kept in the program) in place of xenzyme's and must
  pass at -O0 and -O2 and at 1, 2 and 4 threads; with that derivative off by 0.1 %
  (-DXZ_SEED=1.001) it must fail.
- The Python API (`xz.gradient`, `xz.tangent`) on a few of the C files at 2 threads, against
  central differences of the same file's JIT-compiled primal (tests/programs/omp_ad/api_check.py).
"""

from __future__ import annotations

import fcntl
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO, XENZYME_OPT, clang, run

DIR = REPO / "tests" / "programs" / "omp_ad"
PROGRAMS = sorted(DIR.glob("*.c"))
THREADS = (1, 2, 4)
REPEATS = 20
EXTRA_LEVEL = ("-O0", "-O3", "-O0 -g", "-O2 -g")
"""The second build of the i-th program (sorted): EXTRA_LEVEL[i % 4]."""
MATRIX = [
    (p, level)
    for i, p in enumerate(PROGRAMS)
    for level in ("-O2", EXTRA_LEVEL[i % len(EXTRA_LEVEL)])
]
REL_TOL = {"D": 1e-11, "F": 1e-5}
"""Run-to-run tolerance of a printed derivative (double, float), relative to the largest
magnitude in the same derivative array: reductions and adjoints gathered from several threads
add up in a different order from run to run, nothing else may differ."""


def _run(exe: Path, threads: int, **env: str):
    return run([str(exe)], timeout=60, env=dict(os.environ, OMP_NUM_THREADS=str(threads), **env))


def _locked_once(folder: Path, make: Callable[[], str]) -> str:
    """`make()`'s message (empty: success), computed once per folder by whichever pytest-xdist
    worker comes first; the others wait for it and read it."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / "result.txt"
        if not done.exists():
            done.write_text(make())
        return done.read_text()


@pytest.fixture(scope="session")
def xenzyme_build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Path, str], Path]:
    """`build(program, level)`: the program through xenzyme-opt and clang-19, built once per
    session (the folder is shared by all workers); a failure fails every test that needs the
    build, with xenzyme's message."""
    base = tmp_path_factory.getbasetemp()
    # Under pytest-xdist each worker has its own folder in the session's: share the session's.
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "omp_ad_builds"

    def build(program: Path, level: str) -> Path:
        d = root / f"{program.stem}{level.replace(' ', '')}"
        obj, exe = d / "prog.o", d / "prog"

        def make() -> str:
            flags = [f"--clang-arg={f}" for f in level.split()]
            cmd = [*XENZYME_OPT, str(program), *flags, "-p", "enzyme", "-t", "obj", "-o", str(obj)]
            r = run(cmd)
            if r.returncode != 0:
                return (f"xenzyme-opt failed on {program.name} at {level} (exit status {r.returncode}):\n"
                        f"{r.stderr.strip() or r.stdout.strip()}\n\ncommand: xenzyme-opt {program.relative_to(REPO)} "
                        f"{' '.join(flags)} -p enzyme -t obj -o prog.o")  # fmt: skip
            r = run([clang(), str(obj), "-fopenmp", "-lm", "-o", str(exe)])
            if r.returncode != 0:
                return f"linking {program.name} ({level}) failed:\n{r.stderr.strip()}"
            return ""

        error = _locked_once(d, make)
        if error:
            pytest.fail(error, pytrace=False)
        return exe

    return build


@pytest.mark.parametrize(("program", "level"), MATRIX, ids=[f"{p.stem}{lvl.replace(' ', '')}" for p, lvl in MATRIX])
def test_gradient_program(program: Path, level: str, xenzyme_build) -> None:
    exe = xenzyme_build(program, level)
    for t in THREADS:
        r = _run(exe, t)
        assert r.returncode == 0 and "PASS" in r.stdout, (
            f"{program.name} {level}, {t} threads:\n{_failures(r.stdout)}{r.stderr}"
        )


def _failures(out: str) -> str:
    """The failed checks of a program's output (all of it if none is marked)."""
    failed = [line for line in out.splitlines() if line.startswith("FAIL") or "FAILED" in line]
    return "\n".join(failed[:20]) + "\n" if failed else out


def printed_derivatives(out: str) -> dict[tuple[str, str, int], float]:
    """XZ_PRINT's lines `D name index value` (F: float data), by (kind, name, index)."""
    values = {}
    for line in out.splitlines():
        parts = line.split(" ")
        if len(parts) >= 4 and parts[0] in REL_TOL:
            kind, name, index, value = parts[0], " ".join(parts[1:-2]), int(parts[-2]), float(parts[-1])
            values[kind, name, index] = value
    return values


def differences(runs: list[dict[tuple[str, str, int], float]]) -> list[str]:
    """Where runs disagree beyond REL_TOL (relative to the largest value of the same array)."""
    first = runs[0]
    scale: dict[tuple[str, str], float] = {}
    for (kind, name, _), v in first.items():
        scale[kind, name] = max(scale.get((kind, name), 0.0), abs(v))
    out = []
    for k, run_values in enumerate(runs[1:], start=2):
        if run_values.keys() != first.keys():
            out.append(f"run {k} printed other derivatives than run 1")
            continue
        for key, v in run_values.items():
            kind, name, index = key
            tol = REL_TOL[kind] * max(scale[kind, name], 1e-300)
            if not (abs(v - first[key]) <= tol) or math.isnan(v) != math.isnan(first[key]):
                out.append(f"{name}[{index}]: run {k} {v!r}, run 1 {first[key]!r}")
    return out


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_repeatable(program: Path, xenzyme_build) -> None:
    """20 runs at 4 threads: the same derivatives every time (a racing adjoint differs now and
    then)."""
    exe = xenzyme_build(program, "-O2")
    runs = []
    for k in range(REPEATS):
        r = _run(exe, 4, XZ_PRINT="1")
        assert r.returncode == 0 and "PASS" in r.stdout, (
            f"{program.name}, run {k + 1} of {REPEATS}:\n{_failures(r.stdout)}"
        )
        runs.append(printed_derivatives(r.stdout))
    assert runs[0], f"{program.name} printed no derivatives with XZ_PRINT=1"
    diffs = differences(runs)
    assert not diffs, f"{program.name}: derivatives differ between runs at 4 threads:\n" + "\n".join(diffs[:20])


# ---------------------------------------------------------------------------------------------
# The programs' checks, tested with clang alone
# ---------------------------------------------------------------------------------------------


def _clang_build(program: Path, level: str, out: Path, *defines: str) -> Path:
    warnings = ["-Wall", "-Wno-unused-function", "-Werror"]
    r = run([clang(), level, "-fopenmp", *warnings, *defines, str(program), "-lm", "-o", str(out)])
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_reference_passes(program: Path, level: str, tmp_path: Path) -> None:
    """With the hand-written serial derivative in place of xenzyme's, the program's checks pass
    at every thread count: its tolerances accept a right derivative of the parallel primal."""
    exe = _clang_build(program, level, tmp_path / "ref", "-DXZ_SELFCHECK")
    for t in THREADS:
        r = _run(exe, t, XZ_PRINT="1")
        assert r.returncode == 0 and "PASS" in r.stdout, f"{program.name} {level}, {t} threads:\n{_failures(r.stdout)}"
        assert printed_derivatives(r.stdout), f"{program.name} prints no derivatives with XZ_PRINT=1"


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_wrong_reference_fails(program: Path, tmp_path: Path) -> None:
    """With that derivative wrong by 0.1 % the program fails: its checks can fail."""
    exe = _clang_build(program, "-O0", tmp_path / "wrong", "-DXZ_SELFCHECK", "-DXZ_SEED=1.001")
    r = _run(exe, 2)
    assert r.returncode != 0 and "FAIL" in r.stdout, f"{program.name} passes with a wrong derivative:\n{r.stdout}"


def test_repeatability_comparison() -> None:
    """What the repeatability test accepts (rounding from another order of summation) and what
    it rejects: a lost update (one racing contribution missing), a value that is not a number,
    a derivative printed in one run only."""
    out = "ok   x\nD dx 0 1.5\nD dx 1 -0.25\nD dx 2 3.0000000000000004\nF dxf 0 0.125\nPASS\n"
    base = printed_derivatives(out)
    assert base == {("D", "dx", 0): 1.5, ("D", "dx", 1): -0.25, ("D", "dx", 2): 3.0000000000000004,
                    ("F", "dxf", 0): 0.125}  # fmt: skip
    rounding = printed_derivatives(
        out.replace("3.0000000000000004", "2.9999999999999996").replace("0.125", "0.12500001")
    )
    assert differences([base, rounding, base]) == []
    lost = printed_derivatives(out.replace("-0.25", "-0.24"))
    assert differences([base, base, lost]) == ["dx[1]: run 3 -0.24, run 1 -0.25"]
    assert differences([base, printed_derivatives(out.replace("1.5", "nan"))])
    assert differences([base, printed_derivatives(out.replace("D dx 2", "D dy 2"))])


def test_matrix_covers_every_level() -> None:
    assert len(PROGRAMS) >= 32
    levels = {lvl for _, lvl in MATRIX}
    assert levels == {"-O0", "-O2", "-O3", "-O0 -g", "-O2 -g"}
    assert {p for p, lvl in MATRIX if lvl == "-O2"} == set(PROGRAMS)


# ---------------------------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------------------------

API_CASES = ["for_static", "reduction_sum", "gmm_points", "heat_explicit", "fwd_lse"]


@pytest.mark.parametrize("case", API_CASES)
def test_python_api(case: str) -> None:
    """xz.gradient / xz.tangent on the C file, at 2 threads (in a process of its own, so that
    libomp starts with OMP_NUM_THREADS=2)."""
    env = dict(os.environ, OMP_NUM_THREADS="2", PYTHONPATH=str(REPO))
    r = run([sys.executable, str(DIR / "api_check.py"), case], timeout=300, env=env)
    if r.returncode != 0 or "PASS" not in r.stdout:
        pytest.fail(f"api_check.py {case} at 2 threads:\n{r.stdout}{r.stderr}", pytrace=False)
