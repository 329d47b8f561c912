"""The Python API: load programs, run pipelines, print, compile and call.

    import xenzyme as xz
    mod = xz.load("model.c")                          # .c/.cpp/.ll/.bc/.mlir path, or source text
    xz.run_pipeline(mod, "llvm-opt{level=2}")         # any pipeline xenzyme-opt accepts
    print(xz.to_llvm_ir(mod))
    lib = xz.compile(mod)                             # JIT for this machine
    lib.f(2.0, np.ones(3), 3)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import ParseError

from xenzyme.backend.jit import JITModule
from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import emit_object, parse_verified
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import make_context
from xenzyme.frontend.clang import compile_to_llvm_ir
from xenzyme.frontend.llvm_import import import_llvm_ir
from xenzyme.transforms import get_available_passes

_C_SUFFIXES = {".c", ".cpp", ".cc", ".cxx"}

_CONTEXT: Context | None = None


def context() -> Context:
    """The shared context with xenzyme's dialects."""
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = make_context()
    return _CONTEXT


def load(
    source: str | os.PathLike[str] | bytes,
    *,
    language: str | None = None,
    clang_flags: Sequence[str] | None = None,
    filename: str | None = None,
) -> ModuleOp:
    """Load a program as an xDSL module of `llvm` ops.

    `source` is a path (`.c`, `.cpp`, `.ll`, `.bc`, `.mlir`) or the program text itself; for
    text, `language` ("c", "c++", "llvm", "mlir") is guessed when not given.  C and C++ are
    compiled by clang-19 with `clang_flags` (default -O2).
    """
    if isinstance(source, bytes):
        return import_llvm_ir(source, filename or "<bitcode>")
    path = Path(source) if isinstance(source, os.PathLike) or _looks_like_path(source) else None
    if path is not None:
        if not path.exists():
            raise XenzymeError(f"cannot read '{path}': no such file")
        suffix = path.suffix
        name = str(path)
        if suffix == ".bc":
            return import_llvm_ir(path.read_bytes(), name)
        text = path.read_text()
        language = language or {".ll": "llvm", ".mlir": "mlir"}.get(suffix, "c++" if suffix in (".cpp", ".cc", ".cxx") else "c")
    else:
        text = str(source)
        name = filename or "<input>"
        language = language or _guess_language(text)
    if language == "llvm":
        return import_llvm_ir(text, name)
    if language == "mlir":
        try:
            module = Parser(context(), text, name).parse_module()
        except ParseError as e:
            raise XenzymeError(str(e).strip()) from None
        module.verify()
        return module
    if language in ("c", "c++"):
        if path is None and name == "<input>":
            name = "input.cpp" if language == "c++" else "input.c"
        return import_llvm_ir(compile_to_llvm_ir(text, name, clang_flags), name)
    raise XenzymeError(f"unknown language '{language}' (use c, c++, llvm or mlir)")


def _looks_like_path(s: str) -> bool:
    return "\n" not in s and len(s) < 4096 and Path(s).suffix in {*_C_SUFFIXES, ".ll", ".bc", ".mlir"}


def _guess_language(text: str) -> str:
    head = text.lstrip()
    if head.startswith(("builtin.module", "llvm.", '"builtin.module"', "module")):
        return "mlir"
    if "define " in text or "target triple" in text or "declare " in text and "#include" not in text:
        return "llvm"
    return "c"


def run_pipeline(module: ModuleOp, pipeline: str, *, verify: bool = True) -> ModuleOp:
    """Run a pass pipeline (`xenzyme-opt -p` syntax) on `module`, in place; returns it."""
    try:
        passes = PassPipeline.parse_spec(get_available_passes(), pipeline)
    except ValueError as e:
        raise XenzymeError(f"invalid pass pipeline '{pipeline}': {e}") from None
    passes.apply(context(), module)
    if verify:
        module.verify()
    return module


def to_llvm_ir(module: ModuleOp, *, verify: bool = True) -> str:
    """LLVM IR text of the module (checked by LLVM's verifier unless `verify=False`)."""
    text = export_module(module)
    if verify:
        parse_verified(text)
    return text


def compile(module: ModuleOp | str, *, opt_level: int = 2) -> JITModule:  # noqa: A001
    """JIT-compile for this machine; functions are attributes of the result."""
    if isinstance(module, str):
        module = load(module)
    return JITModule(module, opt_level=opt_level)


def to_object(module: ModuleOp, path: str | os.PathLike[str] | None = None, *, cpu: str = "generic") -> bytes:
    """A position-independent native object file (bytes; also written to `path` if given)."""
    data = emit_object(parse_verified(export_module(module)), cpu=cpu)
    if path is not None:
        Path(path).write_bytes(data)
    return data
