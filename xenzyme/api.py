"""The Python API: load programs, run pipelines, print, compile and call.

    import xenzyme as xz
    mod = xz.load("model.c")                          # .c/.cpp/.f90/.rs/.ll/.bc/.mlir path, or source text
    xz.run_pipeline(mod, "llvm-opt{level=2}")         # any pipeline xenzyme-opt accepts
    print(xz.to_llvm_ir(mod))
    lib = xz.compile(mod)                             # JIT for this machine
    lib.f(2.0, np.ones(3), 3)

Derivative rules for functions of one's own: `xenzyme.derivative` (xenzyme/rules/registry.py).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import ParseError, VerifyException

from xenzyme.analysis.signature import Parameter, signature
from xenzyme.backend.arguments import Arguments, Slot
from xenzyme.backend.jit import FunctionInfo, JITModule, ObjectModule
from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import check_llvm_ir, jit_object, object_code
from xenzyme.diagnostics import SourceLocation, XenzymeError, error_at
from xenzyme.llvm_binding import paused_gc
from xenzyme.dialects import make_context
from xenzyme.frontend.clang import DEFAULT_FLAGS, compile_to_llvm_ir
from xenzyme.frontend.fortran import compile_fortran
from xenzyme.frontend.language import SUFFIXES, guess_language
from xenzyme.frontend.llvm_import import import_llvm_ir
from xenzyme.frontend.rust import compile_rust
from xenzyme.frontend.mlir_text import LocatingParser
from xenzyme.frontend.rust import load_runtime as load_rust_runtime
from xenzyme.frontend.toolchain import import_compiled
from xenzyme.rules.registry import derivative, load_rules  # noqa: F401 (the public API)
from xenzyme.transforms import get_available_passes

if TYPE_CHECKING:
    from xenzyme.cache import Cache

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
    flang_flags: Sequence[str] | None = None,
    rustc_flags: Sequence[str] | None = None,
) -> ModuleOp:
    """Load a program as an xDSL module of `llvm` ops (or, for `.mlir`, of the ops it is written
    in: a program in func/arith/math/scf/cf/memref stays structured until `compile`,
    `gradient`, `tangent` or `jacobian` lowers a copy of it, see xenzyme/transforms/lower_structured.py).

    `source` is a path (`.c`, `.cpp`, `.cu`, `.f90`/`.f`, `.rs`, `.ll`, `.bc`, `.mlir`), the program
    text itself, or bitcode (bytes).  For text, `language` ("c", "c++", "cuda",
    "fortran", "rust", "llvm", "mlir") is taken from the suffix of `filename` when it has a known one, else guessed
    from the text (xenzyme/frontend/language.py).  C and C++ are compiled by clang-19 with
    `clang_flags` (default -O2), to which `-g` is added unless they choose a debug level
    themselves: the debug information names the parameters and their C types, which the
    callables of `compile`, `gradient` and `tangent` check arguments against, and the source
    lines of errors; CUDA device code (xenzyme/frontend/clang.py) is compiled without `-g`.  Fortran is compiled by flang-new-19 with `flang_flags` (default -O2), Rust
    by rustc with `rustc_flags` (default `-C opt-level=2 -C panic=abort`; see
    xenzyme/frontend/rust.py).
    """
    flags = {"clang_flags": clang_flags, "flang_flags": flang_flags, "rustc_flags": rustc_flags}
    return _frontend(source, flags, language=language, filename=filename).load()


class _Front(NamedTuple):
    """What the frontend made of a source: the digest of that program (the LLVM IR, bitcode or
    xDSL text; None when unknown), by which the derivative cache knows it, and its import."""

    digest: str | None
    load: Callable[[], ModuleOp]
    language: str | None = None
    """"mlir" for xDSL text, "module" for a module given as such (both may be structured)."""


def _frontend(
    source: str | os.PathLike[str] | bytes,
    flags: dict[str, Sequence[str] | None],
    *,
    language: str | None = None,
    filename: str | None = None,
    cache: Cache | None = None,
) -> _Front:
    """`load`'s work up to the import.  With a `cache`, C and C++ are not compiled when a
    manifest of the cache says what clang made of them (xenzyme/cache.py): clang then runs
    only if the import is needed."""
    from xenzyme.cache import digest

    if isinstance(source, ModuleOp):
        return _Front(_module_digest(source) if cache is not None else None, lambda: source, "module")
    if isinstance(source, bytes):
        return _Front(digest(source), lambda: import_llvm_ir(source, filename or "<bitcode>"))
    if not isinstance(source, str | os.PathLike):
        raise XenzymeError(f"load() takes a path, program text or bitcode (bytes), got {type(source).__name__}")
    path = Path(source) if isinstance(source, os.PathLike) or _looks_like_path(source) else None
    if path is not None:
        if not path.exists():
            raise XenzymeError(f"cannot read '{path}': no such file")
        if path.is_dir():
            raise XenzymeError(f"cannot read '{path}': it is a directory")
        suffix = path.suffix
        name = str(path)
        data = path.read_bytes()
        if suffix == ".bc" or data[:2] == b"BC":
            return _Front(digest(data), lambda: import_llvm_ir(data, name))
        text = data.decode("utf-8", errors="replace")
        language = language or SUFFIXES.get(suffix) or guess_language(text)
    else:
        text = str(source)
        name = filename or "<input>"
        language = language or SUFFIXES.get(Path(name).suffix) or guess_language(text)
    if language == "llvm":
        return _Front(digest(text), lambda: import_llvm_ir(text, name))
    if language == "mlir":
        return _Front(digest("mlir\0" + text), functools.cache(lambda: _load_mlir(text, name)), "mlir")
    if language in ("c", "c++", "cuda"):
        if path is None and name == "<input>":
            name = "input.cpp" if language == "c++" else "input.c"
        return _c_frontend(text, name, _with_debug_info(flags["clang_flags"]), language, cache)
    if language == "fortran":
        name = "input.f90" if name == "<input>" else name
        bitcode = compile_fortran(text, name, flags["flang_flags"])
        return _Front(digest(bitcode), lambda: import_compiled(bitcode, name))
    if language == "rust":
        name = "input.rs" if name == "<input>" else name
        bitcode = compile_rust(text, name, flags["rustc_flags"])
        load_rust_runtime()  # for the JIT

        return _Front(digest(bitcode), lambda: import_compiled(bitcode, name))
    raise XenzymeError(f"unknown language '{language}' (use c, c++, cuda, fortran, rust, llvm or mlir)")


def _c_frontend(text: str, name: str, flags: list[str], language: str, cache: Cache | None) -> _Front:
    from xenzyme.cache import digest, source_manifest_key, uses_time_macros
    from xenzyme.frontend.clang import find_clang

    manifest = None
    if cache is not None and not uses_time_macros(text):
        manifest = source_manifest_key("clang", find_clang(), text, name, flags, language)
        found = cache.lookup_source(manifest)
        if found is not None:
            return _Front(found, lambda: import_llvm_ir(compile_to_llvm_ir(text, name, flags, language), name))
    read: list[str] | None = [] if manifest is not None else None
    ir = compile_to_llvm_ir(text, name, flags, language, read=read)
    if cache is not None and manifest is not None and read is not None:
        cache.record_source(manifest, read, digest(ir))
    return _Front(digest(ir), lambda: import_llvm_ir(ir, name))


def _module_digest(module: ModuleOp) -> str | None:
    """A module given as such is known by its LLVM IR (None if it has none yet)."""
    from xenzyme.cache import digest

    try:
        return digest(export_module(module))
    except Exception:  # noqa: BLE001 -- ops the exporter does not know: not cached
        return None


def _with_debug_info(flags: Sequence[str] | None) -> list[str]:
    """The user's clang flags (default -O2) with `-g` unless they set a debug level; value
    names are kept too (`-fno-discard-value-names`): neither changes the code generated."""
    out = list(flags) if flags else list(DEFAULT_FLAGS)
    if not any(f.startswith("-g") for f in out):
        out.append("-g")
    return [*out, "-fno-discard-value-names"]


def _load_mlir(text: str, name: str) -> ModuleOp:
    """xDSL text; parse and verifier errors become XenzymeErrors with the position."""
    try:
        module = LocatingParser(context(), text, name).parse_module()
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
    return "\n" not in s and len(s) < 4096 and Path(s).suffix in {*SUFFIXES, ".bc"}


def run_pipeline(module: ModuleOp, pipeline: str, *, verify: bool = True) -> ModuleOp:
    """Run a pass pipeline (`xenzyme-opt -p` syntax) on `module`, in place; returns it."""
    from xenzyme.cli.driver import check_pipeline

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


def compile(module: ModuleOp | str | os.PathLike[str], *, opt_level: int = 2, cache: bool = True):  # noqa: A001
    """JIT-compile for this machine; functions are attributes of the result.

    A module that still holds derivative requests (`__enzyme_autodiff`, `__enzyme_fwddiff`,
    the split-mode calls: a C program written for Enzyme) is differentiated first, by the
    `enzyme` pipeline on a copy of it: the functions of the result are those of
    `xenzyme-opt -p enzyme`.  Their arguments are checked when they are called
    (xenzyme/backend/arguments.py).  A structured module (`func.func`s) is lowered to llvm
    first, and its functions take numpy arrays for memrefs (xenzyme/backend/memrefs.py).

    The machine code is kept in the derivative cache (xenzyme/cache.py) unless `cache=False`:
    compiling the same program again, in this process or another, loads it from there.
    """
    store = _use_cache(cache)
    front = _frontend(module, _NO_FLAGS, cache=store)
    if (structured := _structured_module(front)) is not None:
        return _compile_structured(structured, opt_level)
    k = _entry_key(store, "compile", front.digest, opt_level)
    if k is not None and (hit := _cached_module(store, k)) is not None:
        return hit
    with paused_gc():  # (see xenzyme/llvm_binding.py: millions of objects, next to no garbage)
        return _compile(front.load(), opt_level, store, k)


def _compile(mod: ModuleOp, opt_level: int, store: Cache | None, k: str | None) -> ObjectModule | JITModule:
    """`compile`'s work when the cache does not have it."""
    if has_derivative_requests(mod):
        from xenzyme.transforms.enzyme import EnzymePass

        mod = mod.clone()
        EnzymePass(preopt=2, postopt=0).apply(context(), mod)
    elif any(isinstance(f, xllvm.FuncOp) and f.sym_name.data == "__enzyme_checkpoint" for f in mod.ops):
        from xenzyme.transforms.checkpoint_loops import remove_markers

        mod = mod.clone()  # (checkpoint markers with nothing differentiated: they go, as in `enzyme`)
        remove_markers(mod)
    functions = {
        op.sym_name.data: FunctionInfo(list(op.function_type.inputs.data), op.function_type.output,
                                       op.function_type.is_variadic, signature(mod, op))  # fmt: skip
        for op in mod.ops
        if isinstance(op, xllvm.FuncOp) and op.body.blocks and op.linkage.linkage.data not in ("internal", "private")
    }
    compiled = _compile_module(mod, opt_level, min(opt_level, 3), "native", functions, store, k, {"kind": "compile"})
    return compiled if compiled is not None else JITModule(mod, opt_level=opt_level)


_NO_FLAGS: dict[str, Sequence[str] | None] = {"clang_flags": None, "flang_flags": None, "rustc_flags": None}


# ---------------------------------------------------------------------------------------------
# Machine code, and the derivative cache
# ---------------------------------------------------------------------------------------------


class _NotCacheable(Exception):
    """What a compiled module needs cannot be written down (a type without a text form)."""


def _use_cache(enabled: bool) -> Cache | None:
    """The derivative cache, unless turned off, unusable (a warning says why), or derivative
    rules were registered from Python (what they do is not in any key)."""
    if not enabled:
        return None
    from xenzyme.cache import default_cache
    from xenzyme.rules.registry import RULES

    if RULES:
        return None
    store = default_cache()
    return store if store.usable() else None


def _entry_key(store: Cache | None, kind: str, program: str | None, *options: Any) -> str | None:
    """The key of what `kind` compiles of the program with digest `program` and `options`."""
    if store is None or program is None:
        return None
    from xenzyme.cache import compiler_identity, key, native_host

    return key("api", kind, compiler_identity(), native_host(), program, *options)


def _compile_module(module: ModuleOp, level: int, opt: int, opt_cpu: str, functions: dict[str, FunctionInfo],
                    store: Cache | None, k: str | None, meta: dict[str, Any]) -> ObjectModule | None:  # fmt: skip
    """Machine code for `module` (after LLVM's -O`level`; codegen at `opt`), loaded with the
    signatures `functions`, and kept in the cache under `k` with `meta`.  None when the module
    has static constructors, which only `JITModule` runs."""
    data, needed, constructors = jit_object(export_module(module), level, opt, opt_cpu)
    if constructors:
        return None
    compiled = ObjectModule(data, functions, needed)
    if store is not None and k is not None:
        try:
            meta = {**meta, "functions": {n: _info_json(i) for n, i in functions.items()}, "needed": needed}
        except _NotCacheable:
            return compiled
        store.put(k, meta, data)
    return compiled


def _cached_module(store: Cache | None, k: str) -> ObjectModule | None:
    found = _cached(store, k)
    return found[0] if found is not None else None


def _cached(store: Cache | None, k: str) -> tuple[ObjectModule, dict[str, Any]] | None:
    """The compiled module of entry `k` with its metadata, or None (also when the entry cannot
    be used: then it is compiled again and replaced)."""
    entry = store.get(k) if store is not None else None
    if entry is None:
        return None
    try:
        functions = {n: _info_from_json(i) for n, i in entry.meta["functions"].items()}
        needed = [(str(n), bool(w)) for n, w in entry.meta["needed"]]
    except (KeyError, TypeError, ValueError, ParseError):
        return None
    return ObjectModule(entry.payload, functions, needed), entry.meta


def _type_text(t: Any) -> str:
    text = str(t)
    if _type_of(text) != t:
        raise _NotCacheable(text)
    return text


_SCALARS: dict[str, Any] = {}


def _type_of(text: str) -> Any:
    """An xDSL type from its text (`f64`, `!llvm.ptr`, `!llvm.struct<(f64, i32)>`, ...)."""
    if not _SCALARS:
        from xdsl.dialects.builtin import f32, f64, f80

        from xenzyme.dialects import llvm_ext as ext

        _SCALARS.update({"f64": f64, "f32": f32, "f80": f80, "!llvm.ptr": ext.LLVMPointerType(),
                         "!llvm.void": ext.LLVMVoidType()})  # fmt: skip
    if (t := _SCALARS.get(text)) is not None:
        return t
    if text[:1] == "i" and text[1:].isdigit():
        from xdsl.dialects.builtin import IntegerType

        return IntegerType(int(text[1:]))
    return Parser(context(), text).parse_attribute()


def _param_json(p: Parameter) -> dict[str, Any]:
    return {"index": p.index, "type": _type_text(p.type), "name": p.name, "c_type": p.c_type,
            "pointee": _type_text(p.pointee) if p.pointee is not None else None, "pointee_from": p.pointee_from,
            "min_bytes": p.min_bytes, "written": p.written}  # fmt: skip


def _param_from_json(d: dict[str, Any]) -> Parameter:
    return Parameter(int(d["index"]), _type_of(d["type"]), d["name"], d["c_type"],
                     _type_of(d["pointee"]) if d["pointee"] is not None else None, str(d["pointee_from"]),
                     d["min_bytes"], bool(d["written"]))  # fmt: skip


def _info_json(info: FunctionInfo) -> dict[str, Any]:
    return {"inputs": [_type_text(t) for t in info.inputs], "output": _type_text(info.output), "vararg": info.vararg,
            "params": [_param_json(p) for p in info.params] if info.params is not None else None}  # fmt: skip


def _info_from_json(d: dict[str, Any]) -> FunctionInfo:
    params = d["params"]
    return FunctionInfo([_type_of(t) for t in d["inputs"]], _type_of(d["output"]), bool(d["vararg"]),
                        [_param_from_json(p) for p in params] if params is not None else None)  # fmt: skip


def _structured_module(front: _Front) -> ModuleOp | None:
    """The module, when the source is one of the structured dialects (`func.func`s), else None
    (without compiling C and the like: that is left to where the derivative cache is asked).
    Affine loops and accesses become scf.for and memref (a copy): both levels differentiate
    those.  `scf.parallel` loops stay: lowered, they run on threads (convert-scf-parallel-to-par),
    and the structured level takes them as scf.for nests (`_structured_gradient`)."""
    if front.language not in ("mlir", "module"):
        return None
    module = front.load()
    if not _structured_signatures(module):
        return None
    from xenzyme.transforms.lower_structured import to_scf

    return to_scf(module, serialize=False)


def _compile_structured(module: ModuleOp, opt_level: int) -> Any:
    """`compile` of a structured module: lowered to llvm (a copy), its requests differentiated;
    its functions take numpy arrays for memrefs."""
    from xenzyme.backend.memrefs import StructuredJIT
    from xenzyme.transforms.enzyme import EnzymePass
    from xenzyme.transforms.lower_structured import LowerStructuredPass

    signatures = _structured_signatures(module)
    module = module.clone()
    LowerStructuredPass().apply(context(), module)
    if has_derivative_requests(module) or any(o.dialect_name() == "autodiff" for o in module.walk()):
        EnzymePass(preopt=2, postopt=0).apply(context(), module)
    elif any(o.dialect_name() == "par" for o in module.walk()):  # (scf.parallel loops on threads)
        from xenzyme.transforms.lower_par import LowerParPass

        LowerParPass().apply(context(), module)
    return StructuredJIT(JITModule(module, opt_level=opt_level), signatures)


def _structured_derivative(kind: str, module: ModuleOp, function: str, activity: Sequence[str] | None, width: int,
                           preopt: int, postopt: int, cache: bool,
                           checkpoint: tuple = ("off", None, 100, None), digest: str | None = None) -> Any:  # fmt: skip
    """`gradient`/`tangent` of a structured module: the derivative of its lowered copy, called
    with numpy arrays for memrefs (xenzyme/backend/memrefs.py).  One built at the structured
    level is kept in the derivative cache under the source's `digest`; one of the lowered copy
    is kept by `gradient`/`tangent` of that copy.  Checkpointing takes `scf.parallel` loops
    serially (its snapshots do not capture parallel regions yet)."""
    from xenzyme.backend.memrefs import MemrefCall
    from xenzyme.transforms.lower_structured import to_scf

    forward = kind == "tangent"
    if checkpoint[0] != "off" or checkpoint[3] is not None:
        module = to_scf(module)
    store = _use_cache(cache)
    keyed = activity is None or (isinstance(activity, list | tuple) and all(isinstance(a, str) for a in activity))
    extra = [] if checkpoint[0] == "off" and checkpoint[3] is None else [list(checkpoint)]
    k = _entry_key(store, f"structured-{kind}", digest if keyed else None, function,
                   None if activity is None else list(activity), width, postopt, *extra)  # fmt: skip
    if k is not None and (hit := _cached(store, k)) is not None:
        try:
            return _structured_call(hit[0], hit[1], module, function, activity, width if forward else 0)
        except (KeyError, TypeError, ValueError, ParseError):
            pass  # an entry of another shape: built again below, and replaced
    made = _structured_gradient(module, function, activity, postopt, width if forward else 0, store, k)
    if made is not None:
        return made
    lowered, types, given, expanded = _lower_structured(module, function, activity, forward)
    pre = _structured_preopt(lowered, preopt)
    if forward:
        inner = tangent(lowered, function, expanded, width=width, preopt=pre, postopt=postopt, cache=cache)
        return MemrefCall(inner, function, types, given, width)
    scheme, checkpoints, period, budget = checkpoint
    return MemrefCall(gradient(lowered, function, expanded, preopt=pre, postopt=postopt, cache=cache,
                               checkpoint=scheme, checkpoints=checkpoints, period=period, tape_budget_mb=budget),
                      function, types, given)  # fmt: skip


def _structured_gradient(module: ModuleOp, function: str, activity: Sequence[str] | None, postopt: int,
                         width: int = 0, store: Cache | None = None, k: str | None = None) -> Any:  # fmt: skip
    """`gradient` (or with a `width`, `tangent`) differentiated at the structured level
    (xenzyme/transforms/diff/structured.py), lowered and compiled (and kept in the cache under
    `k`); None when that level cannot take the function (it is then lowered to llvm first and
    differentiated there), or when the function runs an `scf.parallel` loop that the lowering
    puts on threads (that level would run it serially)."""
    from xenzyme.transforms.convert_scf_parallel_to_for import serialize_parallel_loops
    from xenzyme.transforms.convert_scf_parallel_to_par import reaches_parallel_loop
    from xenzyme.transforms.diff.structured import gradient_entry, tangent_entry
    from xenzyme.transforms.lower_structured import LowerStructuredPass

    _, acts = _structured_activities(module, function, activity, width > 0)
    if reaches_parallel_loop(module, function):
        return None  # (lowered, its scf.parallel loops run on threads in the derivative too)
    source, module = module, module.clone()
    serialize_parallel_loops(module)
    made = tangent_entry(module, function, acts, width) if width else gradient_entry(module, function, acts)
    if made is None:
        return None
    entry, outs = made
    if any(o.dialect_name() == "autodiff" for o in module.walk()):  # the module's own requests too
        from xenzyme.transforms.enzyme import EnzymePass

        EnzymePass(preopt=2, postopt=0).apply(context(), module)
    else:
        LowerStructuredPass().apply(context(), module)
    level = max(postopt, 1)
    fn = _find_function(module, entry)
    info = {entry: FunctionInfo(list(fn.function_type.inputs.data), fn.function_type.output)}
    try:
        meta = {"entry": entry, "outs": [_type_text(t) for t in outs]}
    except _NotCacheable:
        k, meta = None, {}
    jit = _compile_module(module, level, min(level, 3), "native", info, store, k, meta)
    if jit is None:  # static constructors: the JIT runs them
        jit = JITModule(module, opt_level=level)
        meta = {"entry": entry, "outs": outs}
    return _structured_call(jit, meta, source, function, activity, width)


def _structured_call(jit: ObjectModule | JITModule, meta: dict[str, Any], module: ModuleOp, function: str,
                     activity: Sequence[str] | None, width: int) -> Any:  # fmt: skip
    """The callable of a gradient (tangent with a `width`) built at the structured level, whose
    entry `meta` names (with the types of what it writes out, as text in a cached entry)."""
    from xenzyme.backend.memrefs import GradientCall

    types, acts = _structured_activities(module, function, activity, width > 0)
    outs = [t if not isinstance(t, str) else _type_of(t) for t in meta["outs"]]
    return GradientCall(jit.function(meta["entry"]), function, types, acts, outs, max(width, 1))


def _structured_signatures(module: ModuleOp) -> dict[str, list]:
    """Parameter types of the module's `func.func`s (empty for a module of llvm ops)."""
    from xdsl.dialects import func

    return {op.sym_name.data: list(op.function_type.inputs.data) for op in module.ops if isinstance(op, func.FuncOp)}


def _lower_structured(module: ModuleOp, function: str, activity: Sequence[str] | None, forward: bool):
    """A structured module lowered to llvm (a copy), for `gradient`/`tangent` of `function`:
    (module, parameter types, activities as given, activities of the lowered parameters)."""
    from xenzyme.transforms.convert_func_to_llvm import expand_activity
    from xenzyme.transforms.lower_structured import LowerStructuredPass

    types, acts = _structured_activities(module, function, activity, forward)
    module = module.clone()
    LowerStructuredPass().apply(context(), module)
    return module, types, acts, expand_activity(types, acts)


def _structured_activities(module: ModuleOp, function: str, activity: Sequence[str] | None,
                           forward: bool) -> tuple[list, list[str]]:  # fmt: skip
    """The parameter types of `function` and its activities (defaults filled in), checked."""
    from xdsl.dialects.builtin import AnyFloat, MemRefType

    from xenzyme.dialects import autodiff as ad

    types = _structured_signatures(module).get(function)
    if types is None:
        raise XenzymeError(f"no function named '{function}' in the module")
    if activity is not None and (isinstance(activity, str) or not isinstance(activity, Sequence)):
        raise XenzymeError(f"activity must be a list of strings, one per argument of '{function}', got {activity!r}")
    if activity is None:
        activity = ["dup" if isinstance(t, MemRefType) else ("dup" if forward else "active")
                    if isinstance(t, AnyFloat) else "const" for t in types]  # fmt: skip
    acts = list(activity)
    if len(acts) != len(types):
        raise XenzymeError(f"'{function}' takes {len(types)} arguments, {len(acts)} activities given")
    allowed = ad.FWD_ARG_ACTIVITIES if forward else ad.ARG_ACTIVITIES
    for i, (t, a) in enumerate(zip(types, acts, strict=True)):
        who = f"argument {i} ({t}) of '{function}'"
        if a not in allowed:
            raise XenzymeError(f"unknown activity '{a}' (use {', '.join(allowed)})")
        if a == "active" and not isinstance(t, AnyFloat):
            raise XenzymeError(f"{who} is marked 'active' but is not a float",
                               notes=["use 'dup' for memrefs (with a shadow array) and 'const' for integers"])  # fmt: skip
        if ad.has_shadow(a) and not isinstance(t, MemRefType) and not (forward and isinstance(t, AnyFloat)):
            raise XenzymeError(f"{who} is marked '{a}' but "
                               + ("is not a float or a memref" if forward else "is not a memref: reverse mode gives "
                                  "shadows to memrefs only"),
                               notes=["mark floats 'active' to get their derivative returned, integers 'const'"]
                               if not forward else ["mark integers 'const'"])  # fmt: skip
        if isinstance(t, MemRefType) and a == "active":
            raise XenzymeError(f"{who} is a memref marked 'active'", notes=["mark it 'dup' and pass a shadow array"])
    return types, acts


def _structured_preopt(module: ModuleOp, preopt: int) -> int:
    """No optimisation before differentiation for a lowered module that holds derivative
    requests of its own (`autodiff` ops) or parallel regions (`par` ops, from `scf.parallel`
    loops): LLVM's optimiser cannot carry them."""
    return 0 if any(o.dialect_name() in ("autodiff", "par") for o in module.walk()) else preopt


def has_derivative_requests(module: ModuleOp) -> bool:
    """Whether the module calls one of Enzyme's entry points (`__enzyme_autodiff`, ...)."""
    from xenzyme.transforms.raise_enzyme_calls import is_forward_request, is_request, split_entry

    return any(is_request(op) or is_forward_request(op) or split_entry(op) is not None for op in module.walk())


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
    one float, a tuple of them, or None.  Arguments are checked before the call
    (xenzyme/backend/arguments.py): a mistake is a `XenzymeError` naming the argument.
    """

    def __init__(self, jit: JITModule, wrapper: str, activity: Sequence[str], result_types: Sequence[object],
                 arguments: Arguments):  # fmt: skip
        self.jit = jit
        self.activity = list(activity)
        self._fn = jit.function(wrapper)
        self._result_types = list(result_types)
        self.arguments = arguments

    def __call__(self, *args: object) -> object:
        import ctypes

        values = self.arguments.convert(args)
        if not self._result_types:
            self._fn.cfunc(*values)
            return None
        fields = [(f"d{i}", t) for i, t in enumerate(self._result_types)]
        out = type("Derivatives", (ctypes.Structure,), {"_fields_": fields})()
        self._fn.cfunc(ctypes.addressof(out), *values)
        values = tuple(getattr(out, name) for name, _ in fields)
        return values[0] if len(values) == 1 else values


def _module(source: ModuleOp | str | os.PathLike[str], flags: dict[str, Sequence[str] | None]) -> ModuleOp:
    """`source` itself when it is a module, else `load(source)` with each language's flags."""
    return source if isinstance(source, ModuleOp) else load(source, **flags)  # type: ignore[arg-type]


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


def _check_activities(function: str, params: Sequence[Parameter], acts: Sequence[str], forward: bool,
                      defaulted: bool) -> None:  # fmt: skip
    """The command line's rules for markers (xenzyme/transforms/raise_enzyme_calls.py), for
    the activities of `gradient` and `tangent`."""
    from xenzyme.analysis.activity import carries_derivative
    from xenzyme.dialects.autodiff import has_shadow, is_float_like

    for p, a in zip(params, acts, strict=True):
        who = f"argument {p.index} ({p.describe()}) of '{function}'"
        if forward:
            if has_shadow(a) and not (carries_derivative(p.type) or p.is_pointer):
                raise XenzymeError(f"{who} is marked '{a}' but has no tangent: it is not floating point or a pointer",
                                   notes=["mark integers 'const'"])  # fmt: skip
            continue
        if a == "active" and not is_float_like(p.type):
            raise XenzymeError(f"{who} is marked 'active' but is not floating point",
                               notes=["use 'dup' for pointers (with a shadow array) and 'const' for integers"])  # fmt: skip
        if has_shadow(a) and carries_derivative(p.type):
            raise XenzymeError(f"{who} is passed by value and marked '{a}': a shadow passed by value cannot "
                               "receive its derivative",
                               notes=["mark a floating-point argument 'active' to get its derivative returned, or 'const' "
                                "for none; 'dup' is for pointers"])  # fmt: skip
        if has_shadow(a) and not p.is_pointer:
            raise XenzymeError(f"{who} is marked '{a}' but is not a pointer: reverse mode gives shadows to pointers only",
                               notes=["mark integers 'const'"])  # fmt: skip
        if defaulted and a == "const" and carries_derivative(p.type):
            raise XenzymeError(f"{who} holds floating-point values passed by value, whose derivative reverse mode "
                               "cannot return yet",
                               notes=["mark it 'const' if it needs no derivative, or pass it by pointer with 'dup' and a "
                                "shadow array that receives its derivative"])  # fmt: skip


def _slots(params: Sequence[Parameter], shadowed: Sequence[bool], ctypes_: Sequence[object], width: int,
           reverse: bool) -> list[Slot]:  # fmt: skip
    """The arguments of a derivative's call: each parameter, then (where `shadowed`) its
    shadows or tangents."""
    out: list[Slot] = []
    it = iter(ctypes_)
    for p, shadow in zip(params, shadowed, strict=True):
        out.append(Slot(p, next(it), writes=p.written, raw_ok=not shadow))
        if shadow:
            role = "shadow" if p.is_pointer else "tangent"
            out += [Slot(p, next(it), role, k, width, writes=reverse or p.written) for k in range(width)]
    return out


def _differentiate(module: ModuleOp, checkpoint: tuple = ("off", None, 100, None)) -> None:
    """Every derivative request of the module (ours and the program's own `__enzyme_*` calls),
    as the `enzyme` pipeline does them after its first optimisation (done by `_prepare`); its
    last optimisation runs where the machine code is made."""
    from xenzyme.transforms.enzyme import EnzymePass

    scheme, checkpoints, period, budget = checkpoint
    EnzymePass(preopt=0, postopt=0, checkpoint=scheme, checkpoints=checkpoints, period=period,
               tape_budget_mb=budget).apply(context(), module)  # fmt: skip


def gradient(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    activity: Sequence[str] | None = None,
    *,
    preopt: int = 2,
    postopt: int = 3,
    clang_flags: Sequence[str] | None = None,
    flang_flags: Sequence[str] | None = None,
    rustc_flags: Sequence[str] | None = None,
    cache: bool = True,
    checkpoint: str = "off",
    checkpoints: int | None = None,
    period: int = 100,
    tape_budget_mb: float | None = None,
) -> GradientFunction:
    """Compile the reverse-mode derivative of `function` and return it as a Python callable.

        g = xenzyme.gradient("model.c", "loss", activity=["dup", "const"])
        dx = np.zeros_like(x)
        g(x, dx, n)          # dx += d loss / d x

    `activity` has one entry per argument (`active`, `dup`, `dupnoneed`, `const`); by default
    floats are active, pointers duplicated and integers constant, as in Enzyme.  A source file is
    compiled with the flags for its language (`clang_flags`, `flang_flags`, `rustc_flags`), as by
    `load`.  For a structured module (`.mlir` in func/arith/math/scf/cf/memref), memrefs are
    numpy arrays of their shape and dtype, a `dup` memref followed by its shadow array.  The
    compiled derivative is kept in the derivative cache (xenzyme/cache.py) unless
    `cache=False`: asking for it again, in this process or another, loads it from there.
    `checkpoint="binomial"` (with `checkpoints=c` snapshots), `"periodic"` (a snapshot every
    `period` steps) or `"online"` (c snapshots placed as the loop runs) reverses the outermost counted loops of the function from checkpoints of
    their state instead of a cache of every iteration (xenzyme/transforms/checkpoint_loops.py);
    `tape_budget_mb=256` chooses binomial checkpointing with as many snapshots as 256 MiB hold
    (not with `checkpoints`, `"periodic"` or `"online"`).
    """
    from xenzyme.transforms.checkpoint_options import check_options

    check_options(checkpoint, checkpoints, period, "gradient", tape_budget_mb)
    flags = {"clang_flags": clang_flags, "flang_flags": flang_flags, "rustc_flags": rustc_flags}
    return _derivative("gradient", _build_gradient, source, function, activity, 1, preopt, postopt, flags, cache,
                       (checkpoint, checkpoints, period, tape_budget_mb))


def _build_gradient(module: ModuleOp, function: str, activity: Sequence[str] | None, width: int,
                    preopt: int) -> tuple[ModuleOp, str, list, dict[str, Any]]:  # fmt: skip
    """The loaded `module`, optimised, with the gradient's wrapper; the wrapper's name and
    parameters' types; and what the callable needs to know (the metadata of a cache entry)."""
    from xdsl.builder import Builder
    from xdsl.ir import Block, Region
    from xdsl.rewriter import InsertPoint

    from xenzyme.dialects import autodiff as ad
    from xenzyme.dialects import llvm_ext as ext

    module, fn, acts, params = _prepare(module, function, activity, ad.ARG_ACTIVITIES, default_activity, False,
                                        preopt)  # fmt: skip
    ret = fn.function_type.output
    ret_act = "none" if isinstance(ret, ext.LLVMVoidType) else "active" if ad.is_float_like(ret) else "const"
    types = [p.type for p in params]
    actives = [t for t, a in zip(types, acts, strict=True) if a == "active"]
    rtype = ad.derivative_result_type(actives)
    # The wrapper: derivatives are stored through a pointer (portable across ABIs).
    wrapper_params: list = [ext.LLVMPointerType()] if rtype is not None else []
    for t, a in zip(types, acts, strict=True):
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
    results = [str(t) if str(t) in _CTYPES else "f64" for t in actives]
    return module, name, wrapper_params, {"activity": acts, "shadowed": [ad.has_shadow(a) for a in acts],
                                          "params": params, "out": rtype is not None, "results": results}  # fmt: skip


def _gradient_function(jit: ObjectModule | JITModule, name: str, function: str, width: int,
                       meta: dict[str, Any]) -> GradientFunction:  # fmt: skip
    acts, params = meta["activity"], meta["params"]
    wrapper_ctypes = jit.function(name).arg_types[1 if meta["out"] else 0 :]
    arguments = Arguments(function, _slots(params, meta["shadowed"], wrapper_ctypes, 1, reverse=True))
    return GradientFunction(jit, name, acts, [_CTYPES[r]() for r in meta["results"]], arguments)


def _ctype_double() -> Any:
    import ctypes

    return ctypes.c_double


def _ctype_float() -> Any:
    import ctypes

    return ctypes.c_float


_CTYPES = {"f64": _ctype_double, "f32": _ctype_float}


def _derivative(kind: str, build: Callable[..., tuple[ModuleOp, str, list, dict[str, Any]]], source: Any, function: str,
                activity: Sequence[str] | None, width: int, preopt: int, postopt: int,
                flags: dict[str, Sequence[str] | None], cache: bool,
                checkpoint: tuple = ("off", None, 100, None)) -> Any:  # fmt: skip
    """A derivative's callable (`kind` "gradient" or "tangent"): from the derivative cache when
    it has it, else built (`build` adds the wrapper), differentiated, compiled and kept there."""
    store = _use_cache(cache)
    front = _frontend(source, flags, cache=store)
    if (structured := _structured_module(front)) is not None:
        return _structured_derivative(kind, structured, function, activity, width, preopt, postopt, cache, checkpoint,
                                      front.digest)  # fmt: skip
    keyed = activity is None or (isinstance(activity, list | tuple) and all(isinstance(a, str) for a in activity))
    # (checkpointing changes the compiled code: its options are part of the key when it is on)
    extra = [] if checkpoint[0] == "off" and checkpoint[3] is None else [list(checkpoint)]
    k = _entry_key(store, kind, front.digest if keyed else None, function,
                   None if activity is None else list(activity), width, preopt, postopt, *extra)  # fmt: skip
    make = _gradient_function if kind == "gradient" else _tangent_function
    if k is not None and (hit := _cached(store, k)) is not None:
        jit, meta = hit
        try:
            params = [_param_from_json(p) for p in meta["params"]]
            return make(jit, meta["wrapper"], function, width, {**meta, "params": params})
        except (KeyError, TypeError, ValueError, ParseError, AttributeError):
            pass  # an entry of another shape: compiled again below, and replaced
    with paused_gc():  # (see xenzyme/llvm_binding.py: millions of objects, next to no garbage)
        return _derivative_compiled(kind, build, make, front, function, activity, width, preopt, postopt, store, k,
                                    checkpoint)  # fmt: skip


def _derivative_compiled(kind: str, build: Callable[..., tuple[ModuleOp, str, list, dict[str, Any]]],
                         make: Callable[..., Any], front: _Front, function: str, activity: Sequence[str] | None,
                         width: int, preopt: int, postopt: int, store: Cache | None, k: str | None,
                         checkpoint: tuple = ("off", None, 100, None)) -> Any:  # fmt: skip
    """`_derivative`'s compile, when the cache does not have it."""
    from xenzyme.dialects import llvm_ext as ext

    module, name, wrapper_params, meta = build(front.load(), function, activity, width, preopt)
    _differentiate(module, checkpoint)
    info = {name: FunctionInfo(wrapper_params, ext.LLVMVoidType())}
    try:
        entry_meta = {**meta, "kind": kind, "wrapper": name, "params": [_param_json(p) for p in meta["params"]]}
    except _NotCacheable:
        k = None
        entry_meta = {}
    jit = _compile_module(module, postopt, 0, "generic", info, store, k, entry_meta)
    if jit is None:  # static constructors: the JIT runs them
        from xenzyme.backend.native import optimized_ir

        jit = JITModule(optimized_ir(export_module(module), postopt), opt_level=0)
    return make(jit, name, function, width, meta)


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
    Arguments are checked before the call (xenzyme/backend/arguments.py).
    """

    def __init__(self, jit: JITModule, wrapper: str, activity: Sequence[str], width: int, result_type: object | None,
                 arguments: Arguments):  # fmt: skip
        self.jit = jit
        self.activity = list(activity)
        self.width = width
        self._fn = jit.function(wrapper)
        self._result_type = result_type
        self.arguments = arguments

    def __call__(self, *args: object) -> object:
        import ctypes

        values = self.arguments.convert(args)
        if self._result_type is None:
            self._fn.cfunc(*values)
            return None
        out = (self._result_type * self.width)()
        self._fn.cfunc(ctypes.addressof(out), *values)
        result = tuple(out)
        return result[0] if self.width == 1 else result


def _prepare(
    module: ModuleOp,
    function: str,
    activity: Sequence[str] | None,
    allowed: Sequence[str],
    default,
    forward: bool,
    preopt: int,
):
    """Check the activities of `function`, optimise the loaded `module`: (module, function,
    activities, parameters)."""
    from xenzyme.transforms.llvm_opt import keep_hinted_calls, run_llvm_pipeline, strip_optnone
    from xenzyme.transforms.raise_openmp import keep_outlined_regions

    fn = _find_function(module, function)
    if not fn.body.blocks:
        raise XenzymeError(f"'{function}' is only declared; its body is needed to differentiate it")
    if activity is not None and (isinstance(activity, str) or not isinstance(activity, Sequence)):
        raise XenzymeError(f"activity must be a list of strings, one per argument of '{function}', got {activity!r}")
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
    keep_outlined_regions(module)  # as the `enzyme` pipeline does: each parallel region stays whole
    if preopt:
        run_llvm_pipeline(module, preopt)
    fn = _find_function(module, function)
    described = signature(module, fn)
    _check_activities(function, described, acts, forward, activity is None)
    return module, fn, acts, described


def tangent(
    source: ModuleOp | str | os.PathLike[str],
    function: str,
    activity: Sequence[str] | None = None,
    *,
    width: int = 1,
    preopt: int = 2,
    postopt: int = 3,
    clang_flags: Sequence[str] | None = None,
    flang_flags: Sequence[str] | None = None,
    rustc_flags: Sequence[str] | None = None,
    cache: bool = True,
) -> TangentFunction:
    """Compile the forward-mode derivative of `function` and return it as a Python callable.

        t = xenzyme.tangent("model.c", "f", activity=["dup", "dup", "const"])
        df = t(x, dx, y, dy, n)      # tangent of f's result; dy receives the tangent of y

    `activity` has one entry per argument (`dup`, `dupnoneed`, `const`); by default floats and
    pointers are duplicated and integers constant, as in Enzyme's forward mode.  With
    `width=N` each `dup` argument takes N tangents and the result is a tuple of N tangents.
    The function may itself call `__enzyme_autodiff` (a Hessian-vector product).  As for
    `gradient`, the compiled derivative is kept in the derivative cache unless `cache=False`.
    """
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise XenzymeError(f"width must be a positive integer, got {width!r}")
    flags = {"clang_flags": clang_flags, "flang_flags": flang_flags, "rustc_flags": rustc_flags}
    return _derivative("tangent", _build_tangent, source, function, activity, width, preopt, postopt, flags, cache)


def _build_tangent(module: ModuleOp, function: str, activity: Sequence[str] | None, width: int,
                   preopt: int) -> tuple[ModuleOp, str, list, dict[str, Any]]:  # fmt: skip
    """As `_build_gradient`, for the tangent's wrapper."""
    from xdsl.builder import Builder
    from xdsl.ir import Block, Region
    from xdsl.rewriter import InsertPoint

    from xenzyme.dialects import autodiff as ad
    from xenzyme.dialects import llvm_ext as ext

    module, fn, acts, params = _prepare(module, function, activity, ad.FWD_ARG_ACTIVITIES, default_forward_activity,
                                        True, preopt)  # fmt: skip
    types = [p.type for p in params]
    ret = fn.function_type.output
    if isinstance(ret, ext.LLVMVoidType):
        ret_act = "none"
    elif str(ret) in _CTYPES:
        ret_act = "dupnoneed"
    else:
        ret_act = "const"  # no tangent to return (an integer, a pointer, a struct)
    rtype = ad.fwddiff_result_type(ret, ret_act, width)
    wrapper_params: list = [ext.LLVMPointerType()] if rtype is not None else []
    for t, a in zip(types, acts, strict=True):
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
    result = str(ret) if rtype is not None else None
    return module, name, wrapper_params, {"activity": acts, "shadowed": [ad.has_shadow(a) for a in acts],
                                          "params": params, "out": rtype is not None, "result": result}  # fmt: skip


def _tangent_function(jit: ObjectModule | JITModule, name: str, function: str, width: int,
                      meta: dict[str, Any]) -> TangentFunction:  # fmt: skip
    acts, params = meta["activity"], meta["params"]
    wrapper_ctypes = jit.function(name).arg_types[1 if meta["out"] else 0 :]
    arguments = Arguments(function, _slots(params, meta["shadowed"], wrapper_ctypes, width, reverse=False))
    result = _CTYPES[meta["result"]]() if meta["result"] is not None else None
    return TangentFunction(jit, name, acts, width, result, arguments)


class JacobianFunction:
    """The Jacobian of a function writing an output array (or returning a scalar) with respect
    to some of its input arrays, computed by forward vector mode (a block of columns per call)
    or by reverse mode (one row per call), whichever needs fewer calls.

    Called with the function's own arguments (numpy arrays for pointers); returns an m x n
    numpy array, m the output's size (1 for a scalar result) and n the total size of the
    inputs, concatenated in the order given.  The output array receives the primal result.
    """

    def __init__(self, source, function: str, inputs: Sequence[int], output: int | None, mode: str, width: int,
                 preopt: int, postopt: int, flags: dict[str, Sequence[str] | None]):  # fmt: skip
        self.source = source
        self.function = function
        self.inputs = list(inputs)
        self.output = output
        self.mode = mode
        self.width = width
        self._options = {"preopt": preopt, "postopt": postopt, **flags}
        module = _module(source, flags)
        self._source_text = module if isinstance(source, ModuleOp) else source
        structured = _structured_signatures(module).get(function)  # a func.func: its parameters as written
        self._nparams = len(structured if structured is not None else _find_function(module, function).function_type.inputs.data)
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
            raise XenzymeError(f"the Jacobian of {self.function}() takes its {self._nparams} arguments, {len(args)} given")
        arrays = []
        for i in self.inputs:
            a = args[i]
            if not isinstance(a, np.ndarray) or a.dtype not in (np.float64, np.float32):
                got = f"an array of {a.dtype}" if isinstance(a, np.ndarray) else type(a).__name__
                raise XenzymeError(f"the Jacobian of {self.function}(): argument {i} (an input) must be a numpy "
                                   f"array of float64 or float32, got {got}")  # fmt: skip
            arrays.append(a)
        n = sum(a.size for a in arrays)
        if self.output is not None:
            out = args[self.output]
            if not isinstance(out, np.ndarray):
                raise XenzymeError(f"the Jacobian of {self.function}(): argument {self.output} (the output) must be "
                                   f"a numpy array, got {type(out).__name__}")  # fmt: skip
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
    flang_flags: Sequence[str] | None = None,
    rustc_flags: Sequence[str] | None = None,
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
    flags = {"clang_flags": clang_flags, "flang_flags": flang_flags, "rustc_flags": rustc_flags}
    return JacobianFunction(source, function, inputs, output, mode, width, preopt, postopt, flags)
