"""Rust and Fortran programs written for Enzyme, end to end.

Each program in tests/programs/rust/ and tests/programs/fortran/ asks for derivatives the way
Enzyme's users do in that language (`__enzyme_autodiff(f as usize, ...)` in Rust; a subroutine
whose name contains `__enzyme_autodiff`, arguments by reference, in Fortran), compares them with
central finite differences of the primal computed in the program itself, and prints PASS.  Each
is compiled from source by `xenzyme-opt` at -O0 and -O2 of its compiler (rustc's opt-level,
flang-new-19's -O), differentiated by the `enzyme` pipeline, linked as the README says (rustc for
Rust, flang-new-19 with its runtime for Fortran) and run: one build per program and level.

A case that fails because of a gap of the differentiation engine is an xfail naming the gap; it
counts as expected only when xenzyme-opt stops with that gap's message (a wrong derivative, or
another error, fails the test), and it fails when it starts passing (strict).

The Python API is checked on Rust and Fortran sources too (`xz.gradient`, `xz.tangent`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO, XENZYME_OPT, run

PROGRAMS = REPO / "tests" / "programs"
RUST = sorted((PROGRAMS / "rust").glob("*.rs"))
FORTRAN = sorted((PROGRAMS / "fortran").glob("*.f90"))
LEVELS = ["0", "2"]

RUST_VEC_O0 = (
    "at opt-level 0 a Vec grows and is freed by std's out-of-line RawVecInner functions (try_allocate_in, "
    "grow_amortized, deallocate), compiled in the standard library: no derivative rules (their effect on "
    "the buffer depends on std's private layouts)"
)
XFAIL: dict[tuple[str, str], tuple[str, str]] = {
    # (program, level): (reason, what xenzyme-opt's error must say)
    ("heap_vec", "0"): (RUST_VEC_O0, "grow_amortized"),
}


class EngineGap(AssertionError):
    """xenzyme-opt stopped with the message of a known gap of the differentiation engine."""


def rustc() -> str:
    path = shutil.which("rustc") or os.path.expanduser("~/.cargo/bin/rustc")
    if not os.path.exists(path):
        pytest.skip("rustc is not installed")
    return path


def flang() -> str:
    path = shutil.which("flang-new-19")
    if path is None:
        pytest.skip("flang-new-19 is not installed (run `make setup`)")
    return path


def _cases(programs: list[Path]) -> list:
    cases = []
    for p in programs:
        for level in LEVELS:
            gap = XFAIL.get((p.stem, level))
            marks = [pytest.mark.xfail(reason=gap[0], raises=EngineGap, strict=True)] if gap else []
            cases.append(pytest.param(p, level, marks=marks, id=f"{p.stem}-O{level}"))
    return cases


def _differentiate(program: Path, level: str, flag: str, obj: Path) -> None:
    r = run([*XENZYME_OPT, str(program), f"{flag}{level}", "-p", "enzyme", "-t", "obj", "-o", str(obj)])
    if r.returncode == 0:
        return
    gap = XFAIL.get((program.stem, level))
    if gap is not None and gap[1] in r.stderr:
        raise EngineGap(r.stderr)
    raise AssertionError(f"xenzyme-opt failed on {program.name} -O{level}:\n{r.stderr}")


def _run(exe: Path, program: Path, level: str) -> None:
    r = run([str(exe)], timeout=60)
    assert r.returncode == 0 and "PASS" in r.stdout, f"{program.name} -O{level}:\n{r.stdout}\n{r.stderr}"


@pytest.mark.parametrize(("program", "level"), _cases(RUST))
def test_rust_program(program: Path, level: str, tmp_path: Path) -> None:
    compiler = rustc()
    obj, exe = tmp_path / "prog.o", tmp_path / "prog"
    _differentiate(program, level, "--rustc-arg=-Copt-level=", obj)
    # The object holds `main`; rustc links it with Rust's standard library.
    r = run([compiler, "-", "--edition=2021", "-C", "panic=abort", "-C", f"link-arg={obj}", "-o", str(exe)],
            input="#![no_main]\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    _run(exe, program, level)


@pytest.mark.parametrize(("program", "level"), _cases(FORTRAN))
def test_fortran_program(program: Path, level: str, tmp_path: Path) -> None:
    compiler = flang()
    obj, exe = tmp_path / "prog.o", tmp_path / "prog"
    _differentiate(program, level, "--flang-arg=-O", obj)
    r = run([compiler, str(obj), "-o", str(exe)])  # flang's runtime and libm
    assert r.returncode == 0, r.stderr
    _run(exe, program, level)


# ---------------------------------------------------------------------------------------------
# The Python API on Rust and Fortran sources
# ---------------------------------------------------------------------------------------------

RUST_MODEL = """
/// A library crate (no `fn main`): the exported function is the one differentiated.
#[no_mangle]
pub extern "C" fn loss(x: *const f64, n: usize, t: f64) -> f64 {
    let xs = unsafe { std::slice::from_raw_parts(x, n) };
    xs.iter().enumerate().map(|(i, v)| (v * t).sin() * (i as f64 + 1.0)).sum::<f64>() + t * t
}
"""

FORTRAN_MODEL = """
subroutine loss(n, x, t, r)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), t
  real(8), intent(out) :: r
  integer :: i
  r = t * t
  do i = 1, n
    r = r + sin(x(i) * t) * i
  end do
end subroutine
"""


def _loss(x: np.ndarray, t: float) -> float:
    return float(np.sum(np.sin(x * t) * np.arange(1, x.size + 1)) + t * t)


def _fd(f, x: np.ndarray, i: int) -> float:
    h = 1e-6 * max(1.0, abs(x[i]))
    up, down = x.copy(), x.copy()
    up[i] += h
    down[i] -= h
    return (f(up) - f(down)) / (2 * h)


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("api")
    (d / "model.rs").write_text(RUST_MODEL)
    (d / "model.f90").write_text(FORTRAN_MODEL)
    return {"rust": d / "model.rs", "fortran": d / "model.f90"}


X = np.array([0.3, -0.7, 1.1, 0.25])
T = 0.8


@pytest.mark.parametrize("level", LEVELS)
def test_api_gradient_rust(sources: dict[str, Path], level: str) -> None:
    import xenzyme as xz

    rustc()
    g = xz.gradient(sources["rust"], "loss", ["dup", "const", "active"], rustc_flags=[f"-Copt-level={level}"])
    dx = np.zeros_like(X)
    dt = g(X, dx, X.size, T)
    for i in range(X.size):
        assert dx[i] == pytest.approx(_fd(lambda v: _loss(v, T), X, i), rel=1e-6, abs=1e-8)
    assert dt == pytest.approx(_fd(lambda v: _loss(X, v[0]), np.array([T]), 0), rel=1e-6)


@pytest.mark.parametrize("level", LEVELS)
def test_api_gradient_fortran(sources: dict[str, Path], level: str) -> None:
    """Fortran passes everything by reference: scalars are one-element arrays with shadows."""
    import xenzyme as xz

    flang()
    g = xz.gradient(sources["fortran"], "loss_", ["const", "dup", "dup", "dup"], flang_flags=[f"-O{level}"])
    n = np.array([X.size], dtype=np.int32)
    t, dt, r, dr = np.array([T]), np.zeros(1), np.zeros(1), np.ones(1)
    dx = np.zeros_like(X)
    g(n, X, dx, t, dt, r, dr)
    assert r[0] == pytest.approx(_loss(X, T), rel=1e-12)
    for i in range(X.size):
        assert dx[i] == pytest.approx(_fd(lambda v: _loss(v, T), X, i), rel=1e-6, abs=1e-8)
    assert dt[0] == pytest.approx(_fd(lambda v: _loss(X, v[0]), np.array([T]), 0), rel=1e-6)


def test_api_tangent_and_load_rust(sources: dict[str, Path]) -> None:
    """Forward mode, `load` of a path and of source text (the language guessed), and the JIT
    running Rust code that calls into Rust's standard library (slice iterators at opt-level 0)."""
    import xenzyme as xz

    rustc()
    tan = xz.tangent(sources["rust"], "loss", ["dup", "const", "dup"], rustc_flags=["-Copt-level=0"])
    v = np.array([1.0, 0.5, -2.0, 0.0])
    got = tan(X, v, X.size, T, 0.3)
    h = 1e-6
    want = (_loss(X + h * v, T + 0.3 * h) - _loss(X - h * v, T - 0.3 * h)) / (2 * h)
    assert got == pytest.approx(want, rel=1e-6)
    lib = xz.compile(xz.load(RUST_MODEL, rustc_flags=["-Copt-level=0"]))
    assert lib.loss(X, X.size, T) == pytest.approx(_loss(X, T), rel=1e-12)


def test_api_load_fortran_text() -> None:
    """Fortran source text: the language guessed, the module named after flang's default file."""
    import xenzyme as xz

    flang()
    module = xz.load(FORTRAN_MODEL)
    assert module.attributes["llvm.source_filename"].data == "input.f90"
    n = np.array([X.size], dtype=np.int32)
    r = np.zeros(1)
    xz.compile(module).loss_(n, X, np.array([T]), r)
    assert r[0] == pytest.approx(_loss(X, T), rel=1e-12)


def test_api_errors(tmp_path: Path) -> None:
    """A compiler's error is a XenzymeError naming the file."""
    import xenzyme as xz

    rustc()
    flang()
    bad_rs = tmp_path / "bad.rs"
    bad_rs.write_text("pub fn f() -> i32 { \"text\" }\n")
    with pytest.raises(xz.XenzymeError, match=r"rustc failed on .*bad\.rs: error\[E0308\]"):
        xz.load(bad_rs)
    bad_f = tmp_path / "bad.f90"
    bad_f.write_text("subroutine s(x)\n  x = \nend subroutine\n")
    with pytest.raises(xz.XenzymeError, match=r"flang failed on .*bad\.f90: .*bad\.f90:2:\d+: error"):
        xz.load(bad_f)
