"""Rust sources -> LLVM bitcode with rustc (whose LLVM is the one xenzyme uses).

The crate is compiled to one bitcode module (`--emit=llvm-bc -C codegen-units=1`).  Unless the
user's flags say otherwise:

- `-C opt-level=2`, as C is compiled at -O2;
- `-C panic=abort`: with unwinding, every call in a function that owns something to drop (a
  `Vec`, a `Box`) becomes an `invoke` with a cleanup path, which derivatives cannot go through;
  with `abort` a panic stops the program, as it does in C;
- `--edition=2021`, and the crate's name from the file's;
- `--crate-type=bin` when the file defines `fn main`, `lib` otherwise (a crate attribute
  `#![crate_type = ...]` is left to decide).

Enzyme's convention from Rust: `extern "C" { fn __enzyme_autodiff(f: usize, ...) -> f64; }`
called with `f as usize` (a `#[no_mangle] extern "C" fn` or any Rust function), markers as
`extern "C" { static enzyme_dup: i32; }` read by value.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp

from xenzyme.diagnostics import XenzymeError
from xenzyme.frontend.toolchain import import_compiled, run_compiler

DEFAULT_OPT = ("-C", "opt-level=2")
"""The optimisation level used when the user's flags name none."""

_CANDIDATES = ("rustc",)
_MAIN = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?fn\s+main\s*\(", re.M)


def find_rustc() -> str:
    for c in (os.environ.get("XENZYME_RUSTC"), *_CANDIDATES, os.path.expanduser("~/.cargo/bin/rustc")):
        if c and (path := shutil.which(c)):
            return path
    raise XenzymeError(
        "rustc was not found",
        notes=["install Rust (https://rustup.rs), or set XENZYME_RUSTC to the rustc to use"],
    )


def rustc_flags(source: str, filename: str, flags: Sequence[str] | None) -> list[str]:
    """rustc's flags: the fixed ones, the defaults the user's `flags` do not override, theirs."""
    user = list(flags or ())
    joined = " ".join(user)
    out = ["--emit=llvm-bc", "-C", "codegen-units=1"]
    if "opt-level" not in joined and "-O" not in user:
        out += DEFAULT_OPT
    if "panic=" not in joined:
        out += ["-C", "panic=abort"]
    if "--edition" not in joined:
        out.append("--edition=2021")
    if "--crate-type" not in joined and "#![crate_type" not in source:
        out.append("--crate-type=" + ("bin" if _MAIN.search(source) else "lib"))
    if "--crate-name" not in joined and "#![crate_name" not in source:
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(filename))[0]) or "input"
        out.append("--crate-name=" + (stem if not stem[0].isdigit() else "_" + stem))
    return out + user


def compile_rust(source: str, filename: str = "input.rs", flags: Sequence[str] | None = None) -> bytes:
    """Compile a Rust crate (its root file's text) to LLVM bitcode; errors become a XenzymeError."""
    args = rustc_flags(source, filename, flags)
    directory = os.path.dirname(os.path.abspath(filename))
    return run_compiler(
        "rustc", source, filename, ".rs",
        lambda src, out, scratch: [find_rustc(), *args, "-L", directory, src, "-o", out],
    )  # fmt: skip


def load_rust(source: str, filename: str = "input.rs", flags: Sequence[str] | None = None) -> ModuleOp:
    """Compile and import: the xDSL module of the source."""
    return import_compiled(compile_rust(source, filename, flags), filename)


@functools.cache
def load_runtime() -> None:
    """Make Rust's standard library (its shared build, from rustc's sysroot) visible to the JIT:
    Rust code calls into it even where it computes only numbers (panics, formatting)."""
    import llvmlite.binding as llb

    proc = subprocess.run([find_rustc(), "--print", "target-libdir"], capture_output=True, text=True)
    found = sorted(glob.glob(os.path.join(proc.stdout.strip(), "libstd-*.so"))) if proc.returncode == 0 else []
    if not found:
        raise XenzymeError("Rust's standard library (libstd-*.so) was not found in rustc's sysroot",
                           notes=["the JIT needs it to run Rust code; `rustup component add rust-std` installs it"])  # fmt: skip
    llb.load_library_permanently(found[0])
