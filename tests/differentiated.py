"""Each gradient program differentiated once per test session, for every test that runs it.

`xenzyme-opt` is the expensive step of the end-to-end tests, and two of them need the same
output: the gradient tests (tests/test_gradients.py, tests/test_forward.py) compile it to an
object with xenzyme's own backend, and the sanitizer tests (tests/test_sanitize.py) compile it
with AddressSanitizer.  `differentiated_ir` runs `xenzyme-opt -p enzyme -t llvm` once per
(program, level) and keeps the LLVM IR in a folder of the session that every pytest-xdist
worker shares; whichever test asks first makes it (the others wait on a lock), and a failure
is kept too, so that every test asking reports it.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from conftest import XENZYME_OPT, clang, run


def extra_cflags(program: Path) -> list[str]:
    """Flags from a first line `// CFLAGS: ...` of the program, if it has one."""
    with program.open() as f:
        first = f.readline().strip()
    return first[len(_CFLAGS) :].split() if first.startswith(_CFLAGS) else []


_CFLAGS = "// CFLAGS:"


def shared_folder(tmp_path: Path) -> Path:
    """The session's folder every worker sees: the parent of the workers' own base folders
    under pytest-xdist (`.../pytest-N/popen-gwK/test_x0`), else the base folder."""
    base = tmp_path.parent
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "differentiated"
    folder.mkdir(exist_ok=True)
    return folder


def differentiated_ir(program: Path, level: str, tmp_path: Path) -> str:
    """`program` compiled by clang-19 at `level` and differentiated by `xenzyme-opt -p enzyme
    -t llvm`: the path of its LLVM IR.  An AssertionError says what failed (clang's or
    xenzyme-opt's message), in every test that asks."""
    folder = shared_folder(tmp_path)
    key = f"{program.parent.name}-{program.name}{level}"
    out, err = folder / f"{key}.ll", folder / f"{key}.err"
    with open(folder / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists() and not err.exists():
            _make(program, level, folder / f"{key}.clang.ll", out, err)
    if err.exists():
        raise AssertionError(err.read_text())
    return str(out)


def _make(program: Path, level: str, primal: Path, out: Path, err: Path) -> None:
    r = run([clang(), level, *extra_cflags(program), "-S", "-emit-llvm", str(program), "-o", str(primal)])
    if r.returncode != 0:
        err.write_text(f"clang-19 {level} failed on {program.name}:\n{r.stderr}")
        return
    part = out.with_suffix(".part")
    r = run([*XENZYME_OPT, str(primal), "-p", "enzyme", "-t", "llvm", "-o", str(part)])
    if r.returncode != 0:
        err.write_text(f"xenzyme-opt failed on {program.name} {level}:\n{r.stderr}")
        return
    part.rename(out)
