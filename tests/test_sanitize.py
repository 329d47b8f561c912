"""AddressSanitizer and LeakSanitizer on the code xenzyme generates.

Each gradient program of tests/programs/ad and tests/programs/fwd is differentiated by
`xenzyme-opt -p enzyme -t llvm` from clang-19's IR (once for these tests and the gradient
tests: tests/differentiated.py), its LLVM IR spelled for LLVM 19 (xenzyme/tools/llvm19.py) and
compiled by clang-19 with `-fsanitize=address`: the primal and the generated derivatives alike
are instrumented -- shadow memory, caches, tapes, the shadows of heap memory whose address
lives in memory.  Linked with the sanitizer's runtime and run with leak detection, the program
must print PASS with no report: no out-of-bounds access, no use after free, no double free, no
leak.

`make test` runs every program at -O2 and a rotation of them at -O0 and -O3 (every eighth
program, each level a different eighth); `make sanitize` runs all of them at -O0, -O2 and -O3
(`XENZYME_SANITIZE=all`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from conftest import REPO, clang, run
from differentiated import differentiated_ir

from xenzyme.tools.llvm19 import downgrade

ALL = os.environ.get("XENZYME_SANITIZE") == "all"
PROGRAMS = sorted((REPO / "tests" / "programs" / "ad").glob("*.c*")) + sorted(
    (REPO / "tests" / "programs" / "fwd").glob("*.c*")
)
ROTATION = {"-O0": 1, "-O3": 5}
"""In `make test`, program i runs at -O0 when i % 8 == 1 and at -O3 when i % 8 == 5."""
CASES = [
    (p, level)
    for i, p in enumerate(PROGRAMS)
    for level in ("-O0", "-O2", "-O3")
    if ALL or level == "-O2" or i % 8 == ROTATION[level]
]
KNOWN: dict[tuple[str, str], str] = {}
"""(program, level): what the sanitizer reports (strict xfails: the test fails once it is fixed)."""


def _asan_runtime() -> None:
    r = run([clang(), "-print-file-name=libclang_rt.asan-x86_64.a"])
    if not os.path.exists(r.stdout.strip()):
        pytest.skip("clang-19's AddressSanitizer runtime is missing (libclang-rt-19-dev; run `make setup`)")


def _linker_flags() -> list[str]:
    """lld when it is there: it links the sanitizer's runtime in a fraction of ld's time."""
    return ["-fuse-ld=lld"] if shutil.which("ld.lld-19") or shutil.which("ld.lld") else []


@pytest.mark.parametrize(
    ("program", "level"), CASES, ids=[f"{p.parent.name}/{p.stem}{level}" for p, level in CASES]
)
def test_sanitized(program: Path, level: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    _asan_runtime()
    if (program.stem, level) in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[(program.stem, level)], strict=True))
    ll19, exe = tmp_path / "prog19.ll", tmp_path / "prog"
    ll19.write_text(downgrade(Path(differentiated_ir(program, level, tmp_path)).read_text()))
    # -O1: the instrumented code keeps every access it checks, and compiles quickly.
    driver = (shutil.which("clang++-19") or "clang++") if program.suffix == ".cpp" else clang()
    r = run([driver, "-O1", "-fsanitize=address", "-fno-omit-frame-pointer", *_linker_flags(), str(ll19),
             "-lm", "-o", str(exe)])  # fmt: skip
    assert r.returncode == 0, f"clang-19 cannot compile the generated IR:\n{r.stderr[-3000:]}"
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1")
    r = run([str(exe)], timeout=120, env=env)
    report = r.stderr.strip()
    assert r.returncode == 0 and "PASS" in r.stdout and "Sanitizer" not in report, (
        f"{program.name} {level}:\n{r.stdout[-2000:]}\n{report[-4000:]}"
    )
