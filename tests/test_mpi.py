"""MPI programs through the `ompi` layer (raise-mpi, the MPI rules, lower-ompi) on real OpenMPI.

Each program in tests/programs/mpi/ is compiled by clang-19 with OpenMPI's flags (`mpicc
--showme:compile`), run through `xenzyme-opt -p enzyme -t obj`, linked with `mpicc --showme:link`
and run by `mpirun --oversubscribe` (`--allow-run-as-root` when root, as in CI).  Every rank
checks its own derivatives against central finite differences of the primal, which all ranks
evaluate together; rank 0 prints "PASS" and every rank exits 0, or the failures (tests/programs/
mpi/mpi_check.h).  A deadlock in a derivative would hang: each run has a time limit.

The matrix is chosen, not a product: every program at -O2 (with debug information, so that the
lowering keeps locations) at two of 2, 3 and 4 ranks (the last few at one), spread so that each
rank count runs often;
a few programs (blocking and non-blocking point to point, max/min, gathers, forward mode) also at
-O0.  Each build is shared by the runs that use it.
"""

from __future__ import annotations

import functools
import os
import shutil
from pathlib import Path

import pytest
from conftest import REPO, XENZYME_OPT, clang, run

PROGRAMS = REPO / "tests" / "programs" / "mpi"

RANKS = {
    "ring_blocking": (2, 3),
    "halo_sendrecv": (3, 4),
    "halo_isend": (2, 4),
    "dot_norm": (2, 3),
    "allreduce_loss": (3, 4),
    "reduce_bcast": (2, 4),
    "gather_scatter": (2, 3),
    "heat1d": (3, 4),
    "heat1d_isend": (2, 4),
    "maxmin": (2, 3),
    "inplace": (3, 4),
    "floats": (2, 4),
    "wait_test": (2, 3),
    "alltoall": (3, 4),
    "replace_ssend": (2, 4),
    "mixed_int": (2, 3),
    "forward": (3, 4),
    "forward_heat": (2, 4),
    "forward_width": (3,),
    "split_mode": (4,),
    "recv_in_loop": (3,),
    "calls_noinline": (3,),
}
"""The rank counts each program runs at, from -O2 IR."""

AT_O0 = {"ring_blocking": 4, "heat1d_isend": 3, "maxmin": 4, "gather_scatter": 3, "forward": 2, "recv_in_loop": 2,
         "calls_noinline": 2}
"""Programs also run from -O0 IR, at one rank count."""

CASES = [(p, "-O2", n) for p, ns in RANKS.items() for n in ns] + [(p, "-O0", n) for p, n in AT_O0.items()]


def _have_mpi() -> bool:
    return shutil.which("mpicc") is not None and shutil.which("mpirun") is not None


pytestmark = pytest.mark.skipif(not _have_mpi(), reason="OpenMPI is not installed (scripts/setup-toolchain.sh)")


@functools.cache
def mpi_flags(what: str) -> list[str]:
    r = run(["mpicc", f"--showme:{what}"])
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def mpirun(n: int) -> list[str]:
    cmd = ["mpirun", "--oversubscribe", "-np", str(n)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd


def run_ranks(exe: Path, n: int, *args: str) -> str:
    r = run([*mpirun(n), str(exe), *args], timeout=120)
    assert r.returncode == 0, f"{exe.name} on {n} ranks:\n{r.stdout}\n{r.stderr}"
    return r.stdout


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory):
    """`build(program, level)`: the program's executable through `enzyme`, made once."""
    root = tmp_path_factory.mktemp("mpi")

    @functools.cache
    def build(program: str, level: str) -> Path:
        d = root / f"{program}{level}"
        d.mkdir()
        src = PROGRAMS / f"{program}.c"
        debug = ["-g"] if level != "-O0" else []
        r = run([clang(), level, *debug, *mpi_flags("compile"), "-S", "-emit-llvm", str(src), "-o", str(d / "p.ll")])
        assert r.returncode == 0, r.stderr
        r = run([*XENZYME_OPT, str(d / "p.ll"), "-p", "enzyme", "-t", "obj", "-o", str(d / "p.o")])
        assert r.returncode == 0, f"xenzyme-opt failed on {program} {level}:\n{r.stderr}"
        r = run([clang(), str(d / "p.o"), *mpi_flags("link"), "-lm", "-o", str(d / "p")])
        assert r.returncode == 0, r.stderr
        return d / "p"

    return build


@pytest.mark.parametrize(("program", "level", "ranks"), CASES, ids=[f"{p}{lv}-np{n}" for p, lv, n in CASES])
def test_mpi_program(program: str, level: str, ranks: int, builds) -> None:
    out = run_ranks(builds(program, level), ranks)
    assert "PASS" in out and f"on {ranks} ranks" in out, out


def test_every_program_runs() -> None:
    """The matrix names every program of the folder, and covers each rank count."""
    assert set(RANKS) == {p.stem for p in PROGRAMS.glob("*.c")}
    assert {n for _, _, n in CASES} == {2, 3, 4}


def test_c_input_gets_mpi_flags(tmp_path: Path) -> None:
    """`xenzyme-opt prog.c` finds mpi.h by itself (OpenMPI's include flags) and builds the same
    program (one run at 2 ranks)."""
    clang()
    obj, exe = tmp_path / "p.o", tmp_path / "p"
    r = run([*XENZYME_OPT, str(PROGRAMS / "ring_blocking.c"), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    r = run([clang(), str(obj), *mpi_flags("link"), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    assert "PASS" in run_ranks(exe, 2)


def test_benchmark_program_checks_its_gradient(tmp_path: Path) -> None:
    """benchmarks/c/mpi_heat2d.c at a small size, no timing: its own gradient check passes at 2
    ranks, and benchmarks/mpi_scaling.py writes its section from such results."""
    clang()
    src = REPO / "benchmarks" / "c" / "mpi_heat2d.c"
    ll, obj, exe = tmp_path / "p.ll", tmp_path / "p.o", tmp_path / "p"
    r = run([clang(), "-O2", *mpi_flags("compile"), "-S", "-emit-llvm", str(src), "-o", str(ll)])
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    r = run([clang(), str(obj), *mpi_flags("link"), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    out = run_ranks(exe, 2, "32", "16", "4", "0")
    assert '"check": "ok"' in out, out

    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    import mpi_scaling

    env = {"machine": {"cpu": "CPU", "cores": 2}, "versions": {"xenzyme": "x"}, "openmpi": "4.1.4", "date": "d"}
    timing = {"primal_median_s": 0.01, "primal_min_s": 0.009, "gradient_median_s": 0.05, "gradient_min_s": 0.045}
    results = {1: dict(timing), 4: dict(timing, primal_median_s=0.004, gradient_median_s=0.024)}
    text = mpi_scaling.section(results, env)
    assert "| 4 (oversubscribed) | 4.00 (9.00) | 24.00 (45.00) | 6.00 (5.00) | 2.50 (1.00) | 2.08 (1.00) |" in text
    assert "is 1.20 times its value at 1 rank" in text and "is met" in text
