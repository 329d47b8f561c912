"""Fortran sources -> LLVM bitcode with flang-new-19.

flang is asked for bitcode (`-c -emit-llvm`), which LLVM 22 upgrades where it can; the `mul`
constant expressions flang-19 writes into its type descriptors are rewritten on import
(`xenzyme.frontend.ir_upgrade`).  Module files (`.mod`) that flang writes go to a scratch folder,
never beside the user's source; modules of other files are found in the source's folder (`-I`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp

from xenzyme.diagnostics import XenzymeError
from xenzyme.frontend.toolchain import import_compiled, run_compiler

DEFAULT_FLAGS = ("-O2",)
"""flang flags used when the user gives none (as for C: -O2)."""

SUFFIXES = (".f90", ".f95", ".f03", ".f08", ".f", ".for", ".F90", ".F")
"""Fortran source files by extension (`.f`/`.for`/`.F`: fixed form; the rest free form)."""

_CANDIDATES = ("flang-new-19", "flang-19", "/usr/lib/llvm-19/bin/flang-new")


def find_flang() -> str:
    for c in (os.environ.get("XENZYME_FLANG"), *_CANDIDATES):
        if c and (path := shutil.which(c)):
            return path
    raise XenzymeError(
        "flang-new-19 was not found",
        notes=["install it (`apt-get install flang-19`, or run `make setup`), or set XENZYME_FLANG"],
    )


def compile_fortran(source: str, filename: str = "input.f90", flags: Sequence[str] | None = None) -> bytes:
    """Compile Fortran source text to LLVM bitcode; compiler errors become a XenzymeError."""
    flags = list(DEFAULT_FLAGS if not flags else flags)
    suffix = os.path.splitext(filename)[1] if os.path.splitext(filename)[1] in SUFFIXES else ".f90"
    directory = os.path.dirname(os.path.abspath(filename))
    return run_compiler(
        "flang", source, filename, suffix,
        lambda src, out, scratch: [find_flang(), "-c", "-emit-llvm", "-module-dir", scratch, "-I", directory,
                                   *flags, src, "-o", out],
    )  # fmt: skip


def load_fortran(source: str, filename: str = "input.f90", flags: Sequence[str] | None = None) -> ModuleOp:
    """Compile and import: the xDSL module of the source."""
    return import_compiled(compile_fortran(source, filename, flags), filename)
