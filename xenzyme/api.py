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
from xdsl.utils.exceptions import ParseError, VerifyException

from xenzyme.backend.jit import JITModule
from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import check_llvm_ir, object_code
from xenzyme.diagnostics import SourceLocation, XenzymeError, error_at
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
        return _load_mlir(text, name)
    if language in ("c", "c++"):
        if path is None and name == "<input>":
            name = "input.cpp" if language == "c++" else "input.c"
        return import_llvm_ir(compile_to_llvm_ir(text, name, clang_flags), name)
    raise XenzymeError(f"unknown language '{language}' (use c, c++, llvm or mlir)")


def _load_mlir(text: str, name: str) -> ModuleOp:
    """xDSL text; parse and verifier errors become XenzymeErrors with the position."""
    try:
        module = Parser(context(), text, name).parse_module()
    except ParseError as e:
        where = e.span.get_location()
        context_lines = [ln for ln in str(e).rstrip("\n").split("\n")[1:3] if ln.strip()]
        raise error_at(e.msg, where.file, where.line, where.col, context_lines) from None
    try:
        module.verify()
    except VerifyException as e:
        lines = str(e).strip().splitlines()
        message = lines[0] if lines else "verification failed"
        if message.endswith(":") and len(lines) > 1:
            message += " " + lines[1].strip()
        raise XenzymeError(f"the IR does not verify: {message}", SourceLocation(name)) from None
    return module


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
    from xenzyme.cli.xenzyme_opt import check_pipeline

    available = get_available_passes()
    check_pipeline(pipeline, available)  # the command line's messages: pass, option, value
    passes = PassPipeline.parse_spec(available, pipeline)
    passes.apply(context(), module)
    if verify:
        module.verify()
    return module


def to_llvm_ir(module: ModuleOp, *, verify: bool = True) -> str:
    """LLVM IR text of the module (checked by LLVM's verifier unless `verify=False`)."""
    text = export_module(module)
    if verify:
        check_llvm_ir(text)
    return text


def compile(module: ModuleOp | str, *, opt_level: int = 2) -> JITModule:  # noqa: A001
    """JIT-compile for this machine; functions are attributes of the result."""
    if isinstance(module, str):
        module = load(module)
    return JITModule(module, opt_level=opt_level)


def to_object(module: ModuleOp, path: str | os.PathLike[str] | None = None, *, cpu: str = "generic") -> bytes:
    """A position-independent native object file (bytes; also written to `path` if given)."""
    data = object_code(export_module(module), cpu=cpu)
    if path is not None:
        Path(path).write_bytes(data)
    return data


# ---------------------------------------------------------------------------------------------
# Derivatives
# ---------------------------------------------------------------------------------------------


class GradientFunction:
    """A compiled reverse-mode derivative, called like Enzyme's `__enzyme_autodiff`.

    Arguments are the function's, each `dup` argument followed by its shadow (a numpy array the
    derivative is accumulated into).  The result is the derivative of each `active` argument:
    one float, a tuple of them, or None.
    """

    def __init__(self, jit: JITModule, wrapper: str, activity: Sequence[str], result_types: Sequence[object]):
        self.jit = jit
        self.activity = list(activity)
        self._fn = jit.function(wrapper)
        self._result_types = list(result_types)

    def __call__(self, *args: object) -> object:
        import ctypes

        if not self._result_types:
            self._fn(*args)
            return None
        fields = [(f"d{i}", t) for i, t in enumerate(self._result_types)]
        out = type("Derivatives", (ctypes.Structure,), {"_fields_": fields})()
        self._fn(ctypes.addressof(out), *args)
        values = tuple(getattr(out, name) for name, _ in fields)
        return values[0] if len(values) == 1 else values


def default_activity(module: ModuleOp, function: str) -> list[str]:
    """Enzyme's defaults: floating point is active, pointers are duplicated, integers constant."""
    from xenzyme.dialects.autodiff import is_float_like
    from xenzyme.dialects.llvm_ext import LLVMPointerType

    fn = _find_function(module, function)
    return [
        "active" if is_float_like(t) else "dup" if isinstance(t, LLVMPointerType) else "const"
        for t in fn.function_type.inputs.data
    ]


def _find_function(module: ModuleOp, name: str):
    from xdsl.dialects.llvm import FuncOp

    for op in module.ops:
        if isinstance(op, FuncOp) and op.sym_name.data == name:
            return op
    raise XenzymeError(f"no function named '{name}' in the module")


def gradient(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    activity: Sequence[str] | None = None,
    *,
    preopt: int = 2,
    postopt: int = 3,
    clang_flags: Sequence[str] | None = None,
) -> GradientFunction:
    """Compile the reverse-mode derivative of `function` and return it as a Python callable.

        g = xenzyme.gradient("model.c", "loss", activity=["dup", "const"])
        dx = np.zeros_like(x)
        g(x, dx, n)          # dx += d loss / d x

    `activity` has one entry per argument (`active`, `dup`, `dupnoneed`, `const`); by default
    floats are active, pointers duplicated and integers constant, as in Enzyme.
    """
    import ctypes

    from xdsl.builder import Builder
    from xdsl.dialects import llvm as xllvm
    from xdsl.ir import Block, Region
    from xdsl.rewriter import InsertPoint

    from xenzyme.dialects import autodiff as ad
    from xenzyme.dialects import llvm_ext as ext
    from xenzyme.transforms.llvm_opt import run_llvm_pipeline, strip_optnone
    from xenzyme.transforms.lower_autodiff import LowerAutodiffPass
    from xenzyme.transforms.reverse_diff import ReverseDiffPass

    module = source if isinstance(source, ModuleOp) else load(source, clang_flags=clang_flags)
    fn = _find_function(module, function)
    if not fn.body.blocks:
        raise XenzymeError(f"'{function}' is only declared; its body is needed to differentiate it")
    acts = list(activity) if activity is not None else default_activity(module, function)
    params = list(fn.function_type.inputs.data)
    if len(acts) != len(params):
        raise XenzymeError(f"'{function}' takes {len(params)} arguments, {len(acts)} activities given")
    for a in acts:
        if a not in ad.ARG_ACTIVITIES:
            raise XenzymeError(f"unknown activity '{a}' (use {', '.join(ad.ARG_ACTIVITIES)})")
    if fn.linkage.linkage.data in ("internal", "private"):
        fn.properties["linkage"] = xllvm.LinkageAttr("external")  # keep it through optimisation
    strip_optnone(module)
    if preopt:
        run_llvm_pipeline(module, preopt)
    fn = _find_function(module, function)
    ret = fn.function_type.output
    ret_act = "none" if isinstance(ret, ext.LLVMVoidType) else "active" if ad.is_float_like(ret) else "const"
    actives = [t for t, a in zip(params, acts, strict=True) if a == "active"]
    rtype = ad.derivative_result_type(actives)
    # The wrapper: derivatives are stored through a pointer (portable across ABIs).
    wrapper_params: list = [ext.LLVMPointerType()] if rtype is not None else []
    for t, a in zip(params, acts, strict=True):
        wrapper_params += [t, t] if ad.has_shadow(a) else [t]
    entry = Block(arg_types=wrapper_params)
    b = Builder(InsertPoint.at_end(entry))
    args = list(entry.args[1:] if rtype is not None else entry.args)
    req = b.insert(ad.AutodiffOp(function, args, acts, ret_act, rtype))
    if rtype is not None:
        b.insert(ext.StoreOp(req.res, entry.args[0]))
    b.insert(xllvm.ReturnOp())
    name = f"__xenzyme_gradient_{function}"
    wrapper = xllvm.FuncOp(name, ext.LLVMFunctionType(wrapper_params, ext.LLVMVoidType()),
                           linkage=xllvm.LinkageAttr("external"), body=Region([entry]))  # fmt: skip
    module.body.block.add_op(wrapper)
    ReverseDiffPass().apply(context(), module)
    LowerAutodiffPass().apply(context(), module)
    if postopt:
        run_llvm_pipeline(module, postopt)
    jit = JITModule(module, opt_level=0)
    ctypes_of = {"f64": ctypes.c_double, "f32": ctypes.c_float}
    result_types = [ctypes_of.get(str(t), ctypes.c_double) for t in actives]
    return GradientFunction(jit, name, acts, result_types)
