"""End-to-end gradients: C programs that check their own derivatives.

Each program in tests/programs/ad/ (C, or C++ for `.cpp`) calls __enzyme_autodiff and compares the result with central
finite differences or exact values, printing PASS and exiting 0 when every check holds.  Each is
compiled by clang-19 at -O0, -O2 and -O3, differentiated by `xenzyme-opt -p enzyme` (once for these
tests and the sanitizer's: tests/differentiated.py), compiled by xenzyme's backend, linked with the
system C compiler and run.

Each is also differentiated without LLVM's optimiser first (`enzyme{preopt=0}`, on -O2 IR): the
analyses then see the IR as clang left it.

A program that needs extra clang flags names them on its first line, `// CFLAGS: -ffast-math`
(for example to see math calls become `llvm.*` intrinsics, or to let the vectoriser reassociate).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO, XENZYME_OPT, clang, run
from differentiated import differentiated_ir, extra_cflags

PROGRAMS = sorted((REPO / "tests" / "programs" / "ad").glob("*.c*"))  # C and C++ (.cpp)
LEVELS = ["-O0", "-O2", "-O3"]


def _build_and_run(program: Path, level: str, pipeline: str, tmp_path: Path, flags: tuple[str, ...] = ()) -> None:
    ll = tmp_path / "prog.ll"
    obj = tmp_path / "prog.o"
    exe = tmp_path / "prog"
    if pipeline == "enzyme" and not flags:
        # the IR the sanitizer tests build too (tests/differentiated.py), compiled here by
        # xenzyme's backend as `-t obj` would
        from xenzyme.backend.native import object_code

        obj.write_bytes(object_code(Path(differentiated_ir(program, level, tmp_path)).read_text()))
    else:
        r = run([clang(), level, *flags, *extra_cflags(program), "-S", "-emit-llvm", str(program), "-o", str(ll)])
        assert r.returncode == 0, r.stderr
        r = run([*XENZYME_OPT, str(ll), "-p", pipeline, "-t", "obj", "-o", str(obj)])
        assert r.returncode == 0, f"xenzyme-opt failed:\n{r.stderr}"
    libs = ["-lstdc++"] if program.suffix == ".cpp" else []
    r = run(["cc", str(obj), "-lm", *libs, "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    r = run([str(exe)], timeout=60)
    assert r.returncode == 0 and "PASS" in r.stdout, f"{program.name} {level}:\n{r.stdout}\n{r.stderr}"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_gradient_program(program: Path, level: str, tmp_path: Path) -> None:
    _build_and_run(program, level, "enzyme", tmp_path)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_gradient_program_without_preopt(program: Path, tmp_path: Path) -> None:
    _build_and_run(program, "-O2", "enzyme{preopt=0}", tmp_path)


DEBUG_PROGRAMS = PROGRAMS[::6]


@pytest.mark.parametrize("program", DEBUG_PROGRAMS, ids=[p.stem for p in DEBUG_PROGRAMS])
def test_gradient_program_with_debug_info(program: Path, tmp_path: Path) -> None:
    """Every sixth program, compiled with -g: debug records and metadata must not get in the way."""
    _build_and_run(program, "-O2", "enzyme", tmp_path, ("-g",))
