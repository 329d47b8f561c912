"""AddressSanitizer and LeakSanitizer on the code xenzyme generates.

Each gradient program of tests/programs/ad and tests/programs/fwd is differentiated by
`xenzyme-opt -p enzyme -t llvm` from clang-19's IR, its LLVM IR spelled for LLVM 19
(xenzyme/tools/llvm19.py) and compiled by clang-19 with `-fsanitize=address`: the primal and the
generated derivatives alike are instrumented -- shadow memory, caches, tapes, the shadows of
heap memory whose address lives in memory.  Linked with the sanitizer's runtime and run with
leak detection, the program must print PASS with no report: no out-of-bounds access, no use
after free, no double free, no leak.

`make test` runs a subset (every fourth program, at -O2) to keep its time; `make sanitize`
runs all of them at -O0, -O2 and -O3 (`XENZYME_SANITIZE=all`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import REPO, XENZYME_OPT, clang, run
from test_gradients import extra_cflags

from xenzyme.tools.llvm19 import downgrade

ALL = os.environ.get("XENZYME_SANITIZE") == "all"
PROGRAMS = sorted((REPO / "tests" / "programs" / "ad").glob("*.c*")) + sorted(
    (REPO / "tests" / "programs" / "fwd").glob("*.c")
)
LEVELS = ["-O0", "-O2", "-O3"] if ALL else ["-O2"]
CASES = PROGRAMS if ALL else PROGRAMS[::4]
WRAPPER_LEAK = (
    "LeakSanitizer: the shadow of heap memory a wrapper function allocates and returns (its derivative "
    "returns the shadow) is never freed when the caller frees the memory"
)
TAPE_SHADOW_LEAK = (
    "LeakSanitizer: in reverse over reverse, the shadows the outer derivative callocs for the inner gradient's "
    "heap memory (its tape and caches) are never freed"
)
KNOWN: dict[tuple[str, str], str] = {
    # (program, level): what the sanitizer reports (strict: the test fails once it is fixed)
    ("heap_allocator_indirect", "-O2"): WRAPPER_LEAK,
    ("heap_allocator_indirect", "-O3"): WRAPPER_LEAK,
    **{("higher_order_reverse", level): TAPE_SHADOW_LEAK for level in ("-O0", "-O2", "-O3")},
}


def _asan_runtime() -> None:
    r = run([clang(), "-print-file-name=libclang_rt.asan-x86_64.a"])
    if not os.path.exists(r.stdout.strip()):
        pytest.skip("clang-19's AddressSanitizer runtime is missing (libclang-rt-19-dev; run `make setup`)")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("program", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_sanitized(program: Path, level: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    _asan_runtime()
    if (program.stem, level) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[(program.stem, level)], strict=True))
    cxx = program.suffix == ".cpp"
    ll, ll19, obj, exe = tmp_path / "prog.ll", tmp_path / "prog19.ll", tmp_path / "prog.o", tmp_path / "prog"
    r = run([clang(), level, *extra_cflags(program), "-S", "-emit-llvm", str(program), "-o", str(ll)])
    assert r.returncode == 0, r.stderr
    r = run([*XENZYME_OPT, str(ll), "-p", "enzyme", "-t", "llvm", "-o", str(ll)])
    assert r.returncode == 0, f"xenzyme-opt failed:\n{r.stderr}"
    ll19.write_text(downgrade(ll.read_text()))
    # -O1: the instrumented code keeps every access it checks, and compiles quickly.
    r = run([clang(), "-O1", "-fsanitize=address", "-fno-omit-frame-pointer", "-c", str(ll19), "-o", str(obj)])
    assert r.returncode == 0, f"clang-19 cannot compile the generated IR:\n{r.stderr[-3000:]}"
    linker = (shutil.which("clang++-19") or "clang++") if cxx else clang()
    r = run([linker, "-fsanitize=address", str(obj), "-lm", "-o", str(exe)])
    assert r.returncode == 0, r.stderr
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1")
    r = run([str(exe)], timeout=120, env=env)
    report = r.stderr.strip()
    assert r.returncode == 0 and "PASS" in r.stdout and "Sanitizer" not in report, (
        f"{program.name} {level}:\n{r.stdout[-2000:]}\n{report[-4000:]}"
    )
