"""The Python API: load programs, run pipelines, print, compile and call.

    import xenzyme as xz
    mod = xz.load("model.c")                          # .c/.cpp/.ll/.bc/.mlir path, or source text
    xz.run_pipeline(mod, "llvm-opt{level=2}")         # any pipeline xenzyme-opt accepts
    print(xz.to_llvm_ir(mod))
    lib = xz.compile(mod)                             # JIT for this machine
    lib.f(2.0, np.ones(3), 3)

Derivative rules for functions of one's own: `xenzyme.derivative` (xenzyme/rules/registry.py).
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

from xenzyme.analysis.hints import keep_hinted_calls
from xenzyme.backend.jit import JITModule
from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import check_llvm_ir, object_code
from xenzyme.diagnostics import SourceLocation, XenzymeError, error_at
from xenzyme.dialects import make_context
from xenzyme.frontend.clang import compile_to_llvm_ir
from xenzyme.frontend.llvm_import import import_llvm_ir
from xenzyme.rules.registry import derivative, load_rules
from xenzyme.transforms import get_available_passes

_C_SUFFIXES = {".c", ".cpp", ".cc", ".cxx", ".cu"}

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

    `source` is a path (`.c`, `.cpp`, `.cu`, `.ll`, `.bc`, `.mlir`) or the program text itself;
    for text, `language` ("c", "c++", "cuda", "llvm", "mlir") is guessed when not given.  C, C++
    and CUDA (device code, see xenzyme/frontend/clang.py) are compiled by clang-19 with
    `clang_flags` (default -O2).
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
        language = language or {".ll": "llvm", ".mlir": "mlir", ".cu": "cuda"}.get(
            suffix, "c++" if suffix in (".cpp", ".cc", ".cxx") else "c"
        )
    else:
        text = str(source)
        name = filename or "<input>"
        language = language or _guess_language(text)
    if language == "llvm":
        return import_llvm_ir(text, name)
    if language == "mlir":
        return _load_mlir(text, name)
    if language in ("c", "c++", "cuda"):
        if path is None and name == "<input>":
            name = {"c++": "input.cpp", "cuda": "input.cu"}.get(language, "input.c")
        return import_llvm_ir(compile_to_llvm_ir(text, name, clang_flags), name)
    raise XenzymeError(f"unknown language '{language}' (use c, c++, cuda, llvm or mlir)")


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
    keep_hinted_calls(module)
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


# ---------------------------------------------------------------------------------------------
# Forward mode and Jacobians
# ---------------------------------------------------------------------------------------------


def default_forward_activity(module: ModuleOp, function: str) -> list[str]:
    """Enzyme's forward-mode defaults: floating point and pointers duplicated, integers constant."""
    from xenzyme.dialects.autodiff import is_float_like
    from xenzyme.dialects.llvm_ext import LLVMPointerType

    fn = _find_function(module, function)
    return ["dup" if is_float_like(t) or isinstance(t, LLVMPointerType) else "const" for t in fn.function_type.inputs.data]


class TangentFunction:
    """A compiled forward-mode derivative, called like Enzyme's `__enzyme_fwddiff`.

    Arguments are the function's, each `dup` argument followed by `width` tangents: floats for a
    scalar, numpy arrays (shadows) for a pointer -- input shadows hold the input tangents,
    output shadows receive the tangents of what the function writes.  The result is the
    tangent of the return value (a float; a tuple of `width` floats in vector mode), or None.
    """

    def __init__(self, jit: JITModule, wrapper: str, activity: Sequence[str], width: int, result_type: object | None):
        self.jit = jit
        self.activity = list(activity)
        self.width = width
        self._fn = jit.function(wrapper)
        self._result_type = result_type

    def __call__(self, *args: object) -> object:
        import ctypes

        if self._result_type is None:
            self._fn(*args)
            return None
        out = (self._result_type * self.width)()
        self._fn(ctypes.addressof(out), *args)
        values = tuple(out)
        return values[0] if self.width == 1 else values


def _prepare(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    activity: Sequence[str] | None,
    allowed: Sequence[str],
    default,
    preopt: int,
    clang_flags: Sequence[str] | None,
):
    """Load `source`, check the activities of `function`, optimise: (module, function, activities)."""
    from xdsl.dialects import llvm as xllvm

    from xenzyme.transforms.llvm_opt import run_llvm_pipeline, strip_optnone

    module = source if isinstance(source, ModuleOp) else load(source, clang_flags=clang_flags)
    fn = _find_function(module, function)
    if not fn.body.blocks:
        raise XenzymeError(f"'{function}' is only declared; its body is needed to differentiate it")
    acts = list(activity) if activity is not None else default(module, function)
    params = list(fn.function_type.inputs.data)
    if len(acts) != len(params):
        raise XenzymeError(f"'{function}' takes {len(params)} arguments, {len(acts)} activities given")
    for a in acts:
        if a not in allowed:
            raise XenzymeError(f"unknown activity '{a}' (use {', '.join(allowed)})")
    if fn.linkage.linkage.data in ("internal", "private"):
        fn.properties["linkage"] = xllvm.LinkageAttr("external")  # keep it through optimisation
    strip_optnone(module)
    keep_hinted_calls(module)
    if preopt:
        run_llvm_pipeline(module, preopt)
    return module, _find_function(module, function), acts


def tangent(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    activity: Sequence[str] | None = None,
    *,
    width: int = 1,
    preopt: int = 2,
    postopt: int = 3,
    clang_flags: Sequence[str] | None = None,
) -> TangentFunction:
    """Compile the forward-mode derivative of `function` and return it as a Python callable.

        t = xenzyme.tangent("model.c", "f", activity=["dup", "dup", "const"])
        df = t(x, dx, y, dy, n)      # tangent of f's result; dy receives the tangent of y

    `activity` has one entry per argument (`dup`, `dupnoneed`, `const`); by default floats and
    pointers are duplicated and integers constant, as in Enzyme's forward mode.  With
    `width=N` each `dup` argument takes N tangents and the result is a tuple of N tangents.
    The function may itself call `__enzyme_autodiff` (a Hessian-vector product).
    """
    import ctypes

    from xdsl.builder import Builder
    from xdsl.dialects import llvm as xllvm
    from xdsl.ir import Block, Region
    from xdsl.rewriter import InsertPoint

    from xenzyme.dialects import autodiff as ad
    from xenzyme.dialects import llvm_ext as ext
    from xenzyme.transforms.forward_diff import ForwardDiffPass
    from xenzyme.transforms.llvm_opt import run_llvm_pipeline
    from xenzyme.transforms.lower_autodiff import LowerAutodiffPass
    from xenzyme.transforms.raise_enzyme_calls import RaiseEnzymeCallsPass
    from xenzyme.transforms.reverse_diff import ReverseDiffPass

    if not isinstance(width, int) or width < 1:
        raise XenzymeError(f"width must be a positive integer, got {width!r}")
    module, fn, acts = _prepare(source, function, activity, ad.FWD_ARG_ACTIVITIES, default_forward_activity, preopt, clang_flags)
    params = list(fn.function_type.inputs.data)
    for i, (t, a) in enumerate(zip(params, acts, strict=True)):
        if ad.has_shadow(a) and not (ad.is_float_like(t) or isinstance(t, ext.LLVMPointerType)):
            raise XenzymeError(f"argument {i} of '{function}' ({t}) has no tangent; mark it 'const'")
    ret = fn.function_type.output
    ctypes_of = {"f64": ctypes.c_double, "f32": ctypes.c_float}
    if isinstance(ret, ext.LLVMVoidType):
        ret_act = "none"
    elif str(ret) in ctypes_of:
        ret_act = "dupnoneed"
    else:
        ret_act = "const"  # no tangent to return (an integer, a pointer, a struct)
    rtype = ad.fwddiff_result_type(ret, ret_act, width)
    wrapper_params: list = [ext.LLVMPointerType()] if rtype is not None else []
    for t, a in zip(params, acts, strict=True):
        wrapper_params += [t] * (1 + (width if ad.has_shadow(a) else 0))
    entry = Block(arg_types=wrapper_params)
    b = Builder(InsertPoint.at_end(entry))
    args = list(entry.args[1:] if rtype is not None else entry.args)
    req = b.insert(ad.FwdDiffOp(function, args, acts, ret_act, rtype, width))
    if rtype is not None:
        b.insert(ext.StoreOp(req.res, entry.args[0]))
    b.insert(xllvm.ReturnOp())
    name = f"__xenzyme_tangent_{function}"
    wrapper = xllvm.FuncOp(name, ext.LLVMFunctionType(wrapper_params, ext.LLVMVoidType()),
                           linkage=xllvm.LinkageAttr("external"), body=Region([entry]))  # fmt: skip
    module.body.block.add_op(wrapper)
    for p in (RaiseEnzymeCallsPass(), ReverseDiffPass(), LowerAutodiffPass(), ForwardDiffPass()):
        p.apply(context(), module)
    if postopt:
        run_llvm_pipeline(module, postopt)
    jit = JITModule(module, opt_level=0)
    return TangentFunction(jit, name, acts, width, ctypes_of[str(ret)] if rtype is not None else None)


class JacobianFunction:
    """The Jacobian of a function writing an output array (or returning a scalar) with respect
    to some of its input arrays, computed by forward vector mode (a block of columns per call)
    or by reverse mode (one row per call), whichever needs fewer calls.

    Called with the function's own arguments (numpy arrays for pointers); returns an m x n
    numpy array, m the output's size (1 for a scalar result) and n the total size of the
    inputs, concatenated in the order given.  The output array receives the primal result.
    """

    def __init__(self, source, function: str, inputs: Sequence[int], output: int | None, mode: str, width: int,
                 preopt: int, postopt: int, clang_flags: Sequence[str] | None):  # fmt: skip
        self.source = source
        self.function = function
        self.inputs = list(inputs)
        self.output = output
        self.mode = mode
        self.width = width
        self._options = {"preopt": preopt, "postopt": postopt, "clang_flags": clang_flags}
        module = source if isinstance(source, ModuleOp) else load(source, clang_flags=clang_flags)
        self._source_text = module if isinstance(source, ModuleOp) else source
        self._nparams = len(_find_function(module, function).function_type.inputs.data)
        for i in [*self.inputs, *([output] if output is not None else [])]:
            if not 0 <= i < self._nparams:
                raise XenzymeError(f"'{function}' has no argument {i}")
        self._forward: dict[int, TangentFunction] = {}
        self._reverse: GradientFunction | None = None
        self.last_mode: str | None = None

    def _activity(self, dup: set[int]) -> list[str]:
        return ["dup" if i in dup else "const" for i in range(self._nparams)]

    def _load(self):
        src = self._source_text
        if isinstance(src, ModuleOp):
            return src.clone()
        return src

    def __call__(self, *args: object):
        import numpy as np

        if len(args) != self._nparams:
            raise TypeError(f"{self.function}() takes {self._nparams} arguments ({len(args)} given)")
        arrays = []
        for i in self.inputs:
            a = args[i]
            if not isinstance(a, np.ndarray) or a.dtype not in (np.float64, np.float32):
                raise TypeError(f"argument {i} must be a float numpy array (an input of the Jacobian)")
            arrays.append(a)
        n = sum(a.size for a in arrays)
        if self.output is not None:
            out = args[self.output]
            if not isinstance(out, np.ndarray):
                raise TypeError(f"argument {self.output} must be a numpy array (the output)")
            m = out.size
        else:
            m = 1
        mode = self.mode if self.mode != "auto" else ("forward" if n < m else "reverse")
        self.last_mode = mode
        return self._by_columns(args, arrays, n, m) if mode == "forward" else self._by_rows(args, arrays, n, m)

    def _by_columns(self, args, arrays, n: int, m: int):
        import numpy as np

        w = max(1, min(self.width, n))
        t = self._forward.get(w)
        if t is None:
            dup = set(self.inputs) | ({self.output} if self.output is not None else set())
            t = self._forward[w] = tangent(self._load(), self.function, self._activity(dup), width=w, **self._options)
        jac = np.zeros((m, n), dtype=np.float64)
        offsets = np.cumsum([0] + [a.size for a in arrays])
        for start in range(0, n, w):
            cols = list(range(start, min(start + w, n)))
            seeds = {i: [np.zeros_like(a) for _ in range(w)] for i, a in zip(self.inputs, arrays, strict=True)}
            for k, c in enumerate(cols):
                j = int(np.searchsorted(offsets, c, side="right") - 1)
                seeds[self.inputs[j]][k].reshape(-1)[c - offsets[j]] = 1.0
            outs = [np.zeros_like(args[self.output]) for _ in range(w)] if self.output is not None else []
            call: list = []
            for i, a in enumerate(args):
                call.append(a)
                if i in seeds:
                    call += seeds[i]
                elif i == self.output:
                    call += outs
            r = t(*call)
            for k, c in enumerate(cols):
                if self.output is not None:
                    jac[:, c] = outs[k].reshape(-1)
                else:
                    jac[0, c] = r[k] if w > 1 else r  # type: ignore[index]
        return jac

    def _by_rows(self, args, arrays, n: int, m: int):
        import numpy as np

        if self._reverse is None:
            dup = set(self.inputs) | ({self.output} if self.output is not None else set())
            self._reverse = gradient(self._load(), self.function, self._activity(dup), **self._options)
        g = self._reverse
        jac = np.zeros((m, n), dtype=np.float64)
        for row in range(m):
            shadows = {i: np.zeros_like(a) for i, a in zip(self.inputs, arrays, strict=True)}
            if self.output is not None:
                seed = np.zeros_like(args[self.output])
                seed.reshape(-1)[row] = 1.0
                shadows[self.output] = seed
            call: list = []
            for i, a in enumerate(args):
                call.append(a)
                if i in shadows:
                    call.append(shadows[i])
            g(*call)
            jac[row] = np.concatenate([shadows[i].reshape(-1) for i in self.inputs])
        return jac


def jacobian(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    inputs: Sequence[int],
    output: int | None = None,
    *,
    mode: str = "auto",
    width: int = 8,
    preopt: int = 2,
    postopt: int = 3,
    clang_flags: Sequence[str] | None = None,
) -> JacobianFunction:
    """The Jacobian of `function` with respect to the arrays at argument positions `inputs`.

        jac = xenzyme.jacobian("model.c", "residuals", inputs=[0], output=1)
        J = jac(theta, r, n)      # J[i, j] = d r[i] / d theta[j]; r receives the residuals

    `output` is the position of the array the function writes, or None when the function
    returns the scalar whose Jacobian (a gradient row) is wanted.  `mode="auto"` picks forward
    vector mode (blocks of `width` columns per call) when the inputs are fewer than the outputs,
    reverse mode (a row per call) otherwise; `"forward"` and `"reverse"` force one.  The
    derivative functions are compiled on first use.
    """
    if mode not in ("auto", "forward", "reverse"):
        raise XenzymeError(f"mode must be 'auto', 'forward' or 'reverse', got {mode!r}")
    if not isinstance(width, int) or width < 1:
        raise XenzymeError(f"width must be a positive integer, got {width!r}")
    if not inputs:
        raise XenzymeError("jacobian needs at least one input argument")
    if output is not None and output in inputs:
        raise XenzymeError(f"argument {output} cannot be both an input and the output")
    return JacobianFunction(source, function, inputs, output, mode, width, preopt, postopt, clang_flags)
