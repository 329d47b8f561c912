"""C, C++ and CUDA sources -> LLVM IR text with clang-19.

A source with `#pragma omp` directives is compiled with `-fopenmp` (unless the flags given
mention `-fopenmp...` or `-fno-openmp` themselves): the pragmas are what the program means.
A source that includes `<mpi.h>` or calls MPI (directly or through a header of its own) gets
OpenMPI's include flags (`mpicc --showme:compile`) when mpicc is there and the flags name no
include directory of their own with an `mpi.h`.

CUDA (`.cu`) is compiled for the device only (`--cuda-device-only`, NVPTX IR for sm_90 unless
a `--cuda-gpu-arch` flag says otherwise), without the CUDA toolkit's headers and libdevice
(which clang-19 cannot use with CUDA 13), and with xenzyme's prelude (`cuda/cuda_prelude.h`, shipped
in this package) included first: it defines CUDA's keywords, builtin variables, math functions
(as calls to libdevice's `__nv_*` declarations) and atomic functions.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import shutil
from collections.abc import Sequence

DEFAULT_FLAGS = ("-O2",)
"""clang flags used when the user gives none (DESIGN: `.c` input is compiled at -O2)."""

_CANDIDATES = ("clang-19", "/usr/lib/llvm-19/bin/clang")

_OPENMP_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b", re.MULTILINE)


def uses_openmp(source: str) -> bool:
    """Whether C/C++ source has an OpenMP directive (`#pragma omp ...`)."""
    return _OPENMP_PRAGMA.search(source) is not None


def with_openmp(source: str, flags: Sequence[str]) -> list[str]:
    """`flags`, plus `-fopenmp` when the source uses OpenMP and the flags do not say otherwise
    (without it clang ignores the pragmas: the program would silently run serially)."""
    flags = list(flags)
    if uses_openmp(source) and not any(f.startswith(("-fopenmp", "-fno-openmp")) for f in flags):
        flags.append("-fopenmp")
    return flags


_MPI_USE = re.compile(r'#[ \t]*include[ \t]*[<"]mpi\.h[>"]|\bMPI_[A-Z][a-z_]*\(')


@functools.cache
def mpi_compile_flags() -> tuple[str, ...]:
    """OpenMPI's flags for compiling (`mpicc --showme:compile`), or none without mpicc."""
    import subprocess

    mpicc = shutil.which("mpicc")
    if mpicc is None:
        return ()
    proc = subprocess.run([mpicc, "--showme:compile"], capture_output=True, text=True)
    return tuple(proc.stdout.split()) if proc.returncode == 0 else ()


def with_mpi(source: str, flags: Sequence[str]) -> list[str]:
    """`flags`, plus OpenMPI's include flags when the source uses MPI and the flags give no
    include directory holding an mpi.h."""
    flags = list(flags)
    if _MPI_USE.search(source) is None:
        return flags
    dirs = [f[2:] for f in flags if f.startswith("-I") and len(f) > 2]
    dirs += [b for a, b in itertools.pairwise(flags) if a in ("-I", "-isystem")]
    if any(os.path.exists(os.path.join(d, "mpi.h")) for d in dirs):
        return flags
    return flags + list(mpi_compile_flags())


CUDA_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda")
"""xenzyme's CUDA headers: the prelude, and a stand-in for a toolkit header clang's include."""


def cuda_flags(flags: Sequence[str]) -> list[str]:
    """clang's flags for CUDA device code, before the user's own."""
    out = ["--cuda-device-only", "-nocudainc", "-nocudalib", "-Wno-unknown-cuda-version",
           "-isystem", CUDA_INCLUDE, "-include", os.path.join(CUDA_INCLUDE, "cuda_prelude.h")]  # fmt: skip
    if not any(f.startswith("--cuda-gpu-arch") or f.startswith("--offload-arch") for f in flags):
        from xenzyme.dialects.gpu import DEFAULT_ARCH  # (imported here: this module stays light)

        out.append(f"--cuda-gpu-arch={DEFAULT_ARCH}")
    return out


def find_clang() -> str:
    for c in (os.environ.get("XENZYME_CLANG"), *_CANDIDATES):
        if c and (path := shutil.which(c)):
            return path
    from xenzyme.diagnostics import XenzymeError

    raise XenzymeError(
        "clang-19 was not found",
        notes=["install it (`apt-get install clang-19`, or run `make setup`), or set XENZYME_CLANG"],
    )


def language_of(filename: str, language: str | None = None) -> str:
    """`language` when given, else the one the file name says ("c", "c++", "cuda")."""
    suffix = os.path.splitext(filename)[1] or ".c"
    return language or {".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".cu": "cuda"}.get(suffix, "c")


def compile_to_llvm_ir(
    source: str,
    filename: str = "input.c",
    flags: Sequence[str] | None = None,
    language: str | None = None,
    read: list[str] | None = None,
) -> str:
    """Compile C/C++ source text to LLVM IR text; compiler errors become a XenzymeError.

    The language is `language` ("c", "c++", "cuda") when given, else told by the file name.
    `read`, when given, receives the files the compilation read besides the source itself
    (clang's dependency file), for the derivative cache's manifests (xenzyme/cache.py)."""
    import subprocess
    import tempfile

    from xenzyme.diagnostics import XenzymeError

    flags = with_mpi(source, with_openmp(source, DEFAULT_FLAGS if not flags else flags))
    suffix = os.path.splitext(filename)[1] or ".c"
    lang = language_of(filename, language)
    with tempfile.TemporaryDirectory(prefix="xenzyme-") as d:
        out = os.path.join(d, "out.ll")
        src = os.path.join(d, "in" + suffix)
        if _same_file_content(filename, source):
            src = filename  # keeps __FILE__, debug info and diagnostics pointing at the user's file
        else:
            with open(src, "w") as f:
                # The program's own name for the positions clang writes into strings (OpenMP's
                # source locations, __FILE__), which a rename of the file afterwards cannot fix.
                f.write(f'#line 1 "{_c_string(filename)}"\n{source}')
        directory = os.path.dirname(os.path.abspath(filename))
        extra = cuda_flags(flags) if lang == "cuda" else []
        deps = ["-MD", "-MF", os.path.join(d, "out.d")] if read is not None else []
        cmd = [find_clang(), "-x", lang, "-S", "-emit-llvm", "-I", directory, *extra, *flags, *deps, src, "-o", out]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            msg = proc.stderr.replace(src, filename).strip()
            first = next((ln for ln in msg.splitlines() if "error" in ln), msg.splitlines()[0] if msg else "")
            raise XenzymeError(
                f"clang failed on {filename}: {first}", notes=msg.splitlines()[1:6]
            )
        with open(out) as f:
            text = f.read()
        if read is not None:
            with open(deps[2]) as f:
                read += depfile_paths(f.read(), exclude=[src])
        if src == filename:
            return text
        # (the temporary file's name, where it remains: the module's and debug info's file names;
        # never inside typed string constants, whose length is part of their type)
        return "\n".join(ln if ' c"' in ln else ln.replace(src, filename) for ln in text.split("\n"))


def _same_file_content(path: str, source: str) -> bool:
    try:
        with open(path) as f:
            return f.read() == source
    except OSError:
        return False


def _c_string(s: str) -> str:
    """`s` as the inside of a C string literal."""
    return s.replace("\\", "\\\\").replace('"', '\\"')


def depfile_paths(text: str, exclude: Sequence[str] = ()) -> list[str]:
    """The files named in a Makefile dependency file (clang's `-MD -MF`), as absolute paths,
    without those in `exclude`."""
    body = text.replace("\\\n", " ")
    _, _, deps = body.partition(": ")
    out: list[str] = []
    word = ""
    i = 0
    while i < len(deps):
        c = deps[i]
        if c == "\\" and i + 1 < len(deps) and deps[i + 1] in " #":
            word += deps[i + 1]
            i += 2
            continue
        if c.isspace():
            if word:
                out.append(word)
            word = ""
        else:
            word += c
        i += 1
    if word:
        out.append(word)
    skip = {os.path.abspath(p) for p in exclude}
    return [p for p in (os.path.abspath(w) for w in out) if p not in skip]
