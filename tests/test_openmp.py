"""OpenMP programs through the parallel layer (raise-openmp, lower-par) against the real libomp.

Each program in tests/programs/omp/ is compiled by clang-19 at -O0 and -O2 with -fopenmp, run
through `xenzyme-opt -p enzyme -t obj`, linked with `clang-19 -fopenmp`, and run with 1, 2 and 4
threads (more threads than the machine has cores); what it prints must be what the same program
built by clang alone prints with as many threads -- the same numbers, within a tolerance for the
sums a reduction adds up in another order.  A program with a derivative request checks its own
gradient and prints "gradient ok" (its clang-only build, given a stub for __enzyme_autodiff,
prints something else on that line, which is not compared).

A few programs also go through the serial lowering (`lower-par{serial=true}`): linked without
libomp, they must print what the program prints on one thread.  The JIT runs an OpenMP module
on two threads.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, XENZYME_OPT, clang, run

PROGRAMS = sorted((REPO / "tests" / "programs" / "omp").glob("*.c"))
LEVELS = ["-O0", "-O2"]
THREADS = (1, 2, 4)
SERIAL = ["static_loops", "reductions", "stencil", "atomics"]
_STUB = "double __enzyme_autodiff(void *f, ...) { return 0; }\n"


@pytest.fixture(scope="session")
def builds(tmp_path_factory: pytest.TempPathFactory):
    """`build(program, level)`: a folder with clang's IR and its clang-only executable, made once."""
    root = tmp_path_factory.mktemp("omp")

    @functools.cache
    def build(program: Path, level: str) -> Path:
        d = root / f"{program.stem}{level}"
        d.mkdir()
        cc = clang()
        r = run([cc, level, "-fopenmp", "-S", "-emit-llvm", str(program), "-o", str(d / "prog.ll")])
        assert r.returncode == 0, r.stderr
        extra = []
        if "__enzyme_autodiff" in program.read_text():
            (d / "stub.c").write_text(_STUB)
            extra = [str(d / "stub.c")]
        r = run([cc, level, "-fopenmp", str(program), *extra, "-lm", "-o", str(d / "ref")])
        assert r.returncode == 0, r.stderr
        return d

    return build


def _run(exe: Path, threads: int) -> str:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    r = run([str(exe)], timeout=60, env=env)
    assert r.returncode == 0, f"{exe} with {threads} threads:\n{r.stdout}\n{r.stderr}"
    return r.stdout


_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$")


def _same(token: str, ref: str) -> bool:
    """Equal tokens, or numbers equal to the precision printed (a reduction's sum may come out
    in the last digits differently)."""
    if token == ref:
        return True
    if not (_NUMBER.match(token) and _NUMBER.match(ref)):
        return False
    a, b = float(token), float(ref)
    digits = len(re.sub(r"[^0-9]", "", ref.split("e")[0].split("E")[0]).lstrip("0")) or 1
    return abs(a - b) <= 10.0 ** (2 - digits) * max(abs(a), abs(b)) + 1e-300


def compare(out: str, ref: str, what: str) -> None:
    lines, ref_lines = out.splitlines(), ref.splitlines()
    assert len(lines) == len(ref_lines), f"{what}:\n{out}\nexpected:\n{ref}"
    for line, ref_line in zip(lines, ref_lines, strict=True):
        if "gradient" in line:
            assert "gradient ok" in line, f"{what}: {line}"
            continue
        tokens, ref_tokens = line.split(), ref_line.split()
        assert len(tokens) == len(ref_tokens) and all(map(_same, tokens, ref_tokens)), (
            f"{what}:\n{line}\nexpected:\n{ref_line}"
        )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_openmp_program(program: Path, level: str, builds) -> None:
    d = builds(program, level)
    obj, exe = d / "xz.o", d / "xz"
    r = run([*XENZYME_OPT, str(d / "prog.ll"), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, f"xenzyme-opt failed:\n{r.stderr}"
    r = run([clang(), str(obj), "-fopenmp", "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    for t in THREADS:
        compare(_run(exe, t), _run(d / "ref", t), f"{program.name} {level}, {t} threads")


@pytest.mark.parametrize("program", ["teams", "reductions"])
def test_openmp_program_with_debug_info(program: str, builds, tmp_path: Path) -> None:
    """With -g: the runtime calls carry debug locations, the lowering keeps them (a call to a
    function with debug information needs one)."""
    src = REPO / "tests" / "programs" / "omp" / f"{program}.c"
    ll, obj, exe = tmp_path / "p.ll", tmp_path / "p.o", tmp_path / "p"
    r = run([clang(), "-O2", "-g", "-fopenmp", "-S", "-emit-llvm", str(src), "-o", str(ll)])
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, f"xenzyme-opt failed:\n{r.stderr}"
    r = run([clang(), str(obj), "-fopenmp", "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    compare(_run(exe, 3), _run(builds(src, "-O2") / "ref", 3), f"{program} -g")


@pytest.mark.parametrize("program", SERIAL)
def test_serial_lowering(program: str, builds, tmp_path: Path) -> None:
    """lower-par{serial=true}: no runtime left (linked with the C compiler alone), and the output
    of the program on one thread."""
    d = builds(REPO / "tests" / "programs" / "omp" / f"{program}.c", "-O2")
    obj, exe = tmp_path / "serial.o", tmp_path / "serial"
    pipeline = "raise-openmp,lower-par{serial=true},llvm-opt{level=2}"
    r = run([*XENZYME_OPT, str(d / "prog.ll"), "-p", pipeline, "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, f"xenzyme-opt failed:\n{r.stderr}"
    r = run(["cc", str(obj), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    compare(_run(exe, 4), _run(d / "ref", 1), f"{program} serial")


def test_gcc_link_line(builds, tmp_path: Path) -> None:
    """The object links with gcc too, given libomp's directory (README)."""
    if shutil.which("gcc") is None or shutil.which("llvm-config-19") is None:
        pytest.skip("gcc or llvm-config-19 missing")
    d = builds(REPO / "tests" / "programs" / "omp" / "reductions.c", "-O2")
    obj, exe = tmp_path / "p.o", tmp_path / "p"
    r = run([*XENZYME_OPT, str(d / "prog.ll"), "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    assert r.returncode == 0, r.stderr
    libdir = run(["llvm-config-19", "--libdir"]).stdout.strip()
    r = run(["gcc", str(obj), f"-L{libdir}", "-lomp", "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    compare(_run(exe, 2), _run(d / "ref", 2), "reductions linked by gcc")


JIT_SOURCE = r"""
#include <omp.h>
double weighted(int n, const double *x, double *y, int nt, int *team) {
  double s = 0;
#pragma omp parallel for reduction(+ : s) num_threads(nt)
  for (int i = 0; i < n; i++) {
    y[i] = 2 * x[i];
    s += x[i] * x[i];
    team[omp_get_thread_num()] = omp_get_num_threads();
  }
  return s;
}
"""


def test_jit_openmp() -> None:
    """An OpenMP module from C source (-fopenmp added by itself) through the pipeline and the
    JIT, called with numpy arrays on two threads."""
    import xenzyme as xz

    module = xz.load(JIT_SOURCE)
    xz.run_pipeline(module, "enzyme")
    lib = xz.compile(module)
    x = np.linspace(-1.0, 2.0, 1000)
    y = np.zeros_like(x)
    team = np.zeros(8, dtype=np.int32)
    s = lib.weighted(len(x), x, y, 2, team)
    assert s == pytest.approx(float(np.dot(x, x)), rel=1e-12)
    np.testing.assert_array_equal(y, 2 * x)
    assert list(team[:2]) == [2, 2] and not team[2:].any()
