"""Round trip of real programs: clang-19 -> LLVM IR -> xenzyme -> native code.

For every C/C++ program in tests/programs/roundtrip/ and every optimisation level, clang-19
writes P.ll; the reference executable is built straight from P.ll (codegen only, no further
optimisation), and the candidate from `xenzyme-opt P.ll -t obj`, both linked the same way.  Both
run; their stdout and exit status must be identical.  Besides behaviour, the test checks fidelity:
xenzyme's LLVM IR must be the module it read, modulo local names (`xenzyme.tools.ir_diff`).

Variants beyond the plain levels: `-O3 -ffast-math` for the programs listed in FASTMATH, debug
info (`-g` at -O0 and -O2) and bitcode input (`.bc`) for a rotating subset of programs.

clang's output and the reference run depend only on the source, the flags and the tools, so they
are cached between sessions in pytest's cache directory (`--cache-clear` forgets them).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
PROGRAMS = ROOT / "programs" / "roundtrip"
VENV_BIN = Path(sys.executable).parent
LEVELS = ("-O0", "-O1", "-O2", "-O3")
FASTMATH = "-O3 -ffast-math"
DEBUG_LEVELS = ("-O0 -g", "-O2 -g")
RUN_TIMEOUT = 20
CXX_SUFFIXES = (".cpp", ".cc", ".cxx")


# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------


def _which(*names: str) -> str | None:
    for n in names:
        if p := shutil.which(n):
            return p
    return None


CLANG = _which(os.environ.get("XENZYME_CLANG", ""), "clang-19", "/usr/lib/llvm-19/bin/clang")
LLC = _which("llc-19", "/usr/lib/llvm-19/bin/llc")
XENZYME_OPT = _which(str(VENV_BIN / "xenzyme-opt"), "xenzyme-opt")


def _tool_versions() -> str:
    """Part of the cache key: a new clang or llc must not reuse old results."""
    if CLANG is None:
        return ""
    parts = [subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout]
    parts.append(LLC or "clang-codegen")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Collection
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    source: Path
    flags: str
    bitcode: bool = False

    @property
    def id(self) -> str:
        flags = self.flags.replace(" ", "")
        return f"{self.source.name}{flags}{'-bc' if self.bitcode else ''}"

    @property
    def cxx(self) -> bool:
        return self.source.suffix in CXX_SUFFIXES


def _programs() -> list[Path]:
    if not PROGRAMS.is_dir():
        return []
    return sorted(
        p for p in PROGRAMS.iterdir() if p.suffix in (".c", *CXX_SUFFIXES) and p.is_file()
    )


def _fastmath_list() -> set[str]:
    path = PROGRAMS / "FASTMATH"
    if not path.exists():
        return set()
    names = (ln.split("#", 1)[0].strip() for ln in path.read_text().splitlines())
    return {n for n in names if n}


def _cases() -> list[Case]:
    """Every program at every level; debug info and bitcode for every third program."""
    fast = _fastmath_list()
    cases: list[Case] = []
    for i, src in enumerate(_programs()):
        cases += [Case(src, lvl) for lvl in LEVELS]
        if src.name in fast or src.stem in fast:
            cases.append(Case(src, FASTMATH))
        if i % 3 == 0 or src.suffix in CXX_SUFFIXES:
            cases += [Case(src, lvl) for lvl in DEBUG_LEVELS]
        if i % 3 == 1:
            cases.append(Case(src, "-O2", bitcode=True))
    return cases


CASES = _cases()


# ---------------------------------------------------------------------------------------------
# Building and running
# ---------------------------------------------------------------------------------------------


def _run(cmd: list[str], what: str, cwd: Path | None = None, timeout: int = 300) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    if proc.returncode != 0:
        pytest.fail(f"{what} failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-4000:]}")
    return proc.stdout


def _compile_ir(case: Case, out: Path) -> None:
    lang = "c++" if case.cxx else "c"
    emit = ["-c", "-emit-llvm"] if case.bitcode else ["-S", "-emit-llvm"]
    std = ["-std=c++17"] if case.cxx else ["-std=gnu11"]
    _run(
        [CLANG, "-x", lang, *std, *case.flags.split(), *emit, str(case.source), "-o", str(out)],
        "clang-19",
    )


def _codegen_reference(ir: Path, obj: Path) -> None:
    """Object code for `ir` with LLVM 19's code generator and no optimisation pipeline."""
    if LLC is not None:
        cmd = [LLC, "-O2", "-relocation-model=pic", "-filetype=obj", str(ir), "-o", str(obj)]
    else:
        cmd = [CLANG, "-c", "-O2", "-fPIC", "-Xclang", "-disable-llvm-passes", str(ir), "-o", str(obj)]
    _run(cmd, "reference codegen")


def _link(case: Case, obj: Path, exe: Path) -> None:
    driver = "c++" if case.cxx else "cc"
    _run([driver, str(obj), "-lm", "-o", str(exe)], f"linking {obj.name}")


def _execute(exe: Path) -> dict[str, object]:
    try:
        proc = subprocess.run(
            [str(exe)], capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=exe.parent,
            stdin=subprocess.DEVNULL, errors="replace",
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"stdout": "", "status": "timeout"}
    return {"stdout": proc.stdout, "status": proc.returncode}


def _cache_key(case: Case) -> str:
    h = hashlib.sha256()
    h.update(case.source.read_bytes())
    h.update(f"\0{case.flags}\0{case.bitcode}\0{case.cxx}\0".encode())
    h.update(TOOL_VERSIONS.encode())
    return h.hexdigest()[:32]


TOOL_VERSIONS = _tool_versions()


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _reference(case: Case, cache: Path, work: Path) -> tuple[Path, dict[str, object]]:
    """clang's IR for the case and the reference run's result, from the cache when possible."""
    key = _cache_key(case)
    ir_cached = cache / f"{key}{'.bc' if case.bitcode else '.ll'}"
    ref_cached = cache / f"{key}.json"
    ir = work / ("P.bc" if case.bitcode else "P.ll")
    if ir_cached.exists() and ref_cached.exists():
        shutil.copyfile(ir_cached, ir)
        return ir, json.loads(ref_cached.read_text())
    _compile_ir(case, ir)
    _codegen_reference(ir, work / "ref.o")
    _link(case, work / "ref.o", work / "ref")
    result = _execute(work / "ref")
    _write_atomic(ir_cached, ir.read_bytes())
    _write_atomic(ref_cached, json.dumps(result).encode())
    return ir, result


@pytest.fixture(scope="session")
def roundtrip_cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = getattr(request.config, "cache", None)  # absent under `-p no:cacheprovider`
    if cache is None:
        return tmp_path_factory.mktemp("roundtrip-cache")
    return Path(cache.mkdir("xenzyme-roundtrip"))


# ---------------------------------------------------------------------------------------------
# The test
# ---------------------------------------------------------------------------------------------


def _fidelity(ir: Path, text_round_trip: bool) -> str:
    """Diff between LLVM's reading of `ir` and of xenzyme's export of it ('' when equal).

    The imported module must also pass xDSL's verifier (passes verify after they run) and print
    as xDSL text; with `text_round_trip`, its generic text (with locations) is parsed back and
    must export to the same module (parsing is slow, so only some cases do it).  The custom
    syntax is not checked that way: xDSL's `llvm.func` has no syntax for the parameter
    attributes of declarations.
    """
    import io

    from xdsl.parser import Parser
    from xdsl.printer import Printer

    from xenzyme.backend.llvm_export import export_module
    from xenzyme.dialects import make_context
    from xenzyme.frontend.llvm_import import import_llvm_ir
    from xenzyme.tools.ir_diff import canonical_text, diff

    data = ir.read_bytes()
    source: str | bytes = data if data[:2] == b"BC" else data.decode()
    module = import_llvm_ir(source, str(ir))
    module.verify()
    exported = canonical_text(export_module(module))
    d = diff(canonical_text(source), exported)
    if d:
        return d
    if not text_round_trip:
        return ""
    str(module)  # the custom syntax prints
    text = io.StringIO()
    Printer(stream=text, print_generic_format=True, print_debuginfo=True).print_op(module)
    reparsed = Parser(make_context(), text.getvalue(), "roundtrip.mlir").parse_module()
    d = diff(exported, canonical_text(export_module(reparsed)))
    return f"after printing and parsing the xDSL text:\n{d}" if d else ""


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_roundtrip(case: Case, tmp_path: Path, roundtrip_cache: Path) -> None:
    ir, expected = _reference(case, roundtrip_cache, tmp_path)
    obj = tmp_path / "xz.o"
    _run([XENZYME_OPT or "xenzyme-opt", str(ir), "-t", "obj", "-o", str(obj)], "xenzyme-opt")
    _link(case, obj, tmp_path / "xz")
    actual = _execute(tmp_path / "xz")
    assert actual["status"] == expected["status"], f"exit status differs for {case.id}"
    assert actual["stdout"] == expected["stdout"], f"output differs for {case.id}"
    d = _fidelity(ir, text_round_trip=case.flags == "-O2" and not case.bitcode)
    assert not d, f"xenzyme's LLVM IR differs from the input (modulo local names):\n{d}"


def test_programs_present() -> None:
    """The round trip is only meaningful with programs to run."""
    assert len(_programs()) >= 20, f"expected the round-trip programs in {PROGRAMS}"
