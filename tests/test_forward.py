"""End-to-end forward mode: C and C++ programs that check their own tangents.

Each program in tests/programs/fwd/ calls __enzyme_fwddiff -- plain forward mode, vector mode
(`enzyme_width`), or forward mode over a function that calls __enzyme_autodiff (Hessian-vector
products) -- and compares the result with central finite differences or exact values, printing
PASS and exiting 0 when every check holds.  Each is compiled by clang-19 at -O0, -O2 and -O3,
differentiated by `xenzyme-opt -p enzyme`, linked with the system C compiler and run; and once
more without LLVM's optimiser before differentiation (`enzyme{preopt=0}` on -O2 IR).

A program that needs extra clang flags names them on its first line, `// CFLAGS: -ffast-math`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from test_gradients import LEVELS, _build_and_run

PROGRAMS = sorted((REPO / "tests" / "programs" / "fwd").glob("*.c*"))  # C and C++ (.cpp)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_forward_program(program: Path, level: str, tmp_path: Path) -> None:
    _build_and_run(program, level, "enzyme", tmp_path)


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_forward_program_without_preopt(program: Path, tmp_path: Path) -> None:
    _build_and_run(program, "-O2", "enzyme{preopt=0}", tmp_path)
