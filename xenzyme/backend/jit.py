"""JIT: compile a module with LLVM (MCJIT) and call its functions from Python.

Code that calls the OpenMP runtime (a module compiled with `-fopenmp`) gets libomp, loaded when
a module first needs it.

Arguments are checked and converted (xenzyme/backend/arguments.py): Python floats for
`double`/`float`, ints for integers, numpy arrays for pointers -- the pointer is the array's
data, so the function reads and writes the array in place; an address (int) or a ctypes object
is passed as it is, unchecked.  Struct returns come back as tuples.

    lib = JITModule(module)
    y = lib.f(2.0, np.arange(4.0), 4)

Code compiled earlier -- an object file for this machine, as the derivative cache keeps them
(xenzyme/cache.py) -- is loaded by `ObjectModule`, with what its functions' parameters are.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import llvmlite.binding as llb
from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, StringAttr, f32, f64, f80
from xdsl.dialects.llvm import FuncOp
from xdsl.ir import Attribute

from xenzyme.analysis.signature import Parameter, signature
from xenzyme.backend.arguments import Arguments, Slot
from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import optimized_ir, parse_verified, target_machine
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext


@functools.cache
def _load_runtime_libraries() -> None:
    """Make libm and the C++ runtime resolvable from JIT-compiled code.

    The process may have them loaded already, but privately (numpy loads libstdc++ that way),
    where the JIT's symbol lookup does not see them.  Each is tried by its soname first: the
    dynamic loader finds those, while `find_library` runs `ldconfig` (milliseconds per library,
    on the path a cached derivative takes).
    """
    for lib, soname in (("m", "libm.so.6"), ("stdc++", "libstdc++.so.6"), ("gcc_s", "libgcc_s.so.1")):
        if not _load_library(soname) and (path := ctypes.util.find_library(lib)):
            _load_library(path)


def _load_library(path: str) -> bool:
    try:
        llb.load_library_permanently(path)
    except RuntimeError:
        return False
    return True


_OPENMP_PREFIXES = ("__kmpc_", "omp_", "kmp_", "__tgt_")
LIBOMP = "libomp.so.5"
"""LLVM's OpenMP runtime (Debian's libomp5-19, installed with libomp-19-dev), the one clang's
`-fopenmp` code calls."""


@functools.cache
def _libomp() -> ctypes.CDLL:
    """Load libomp for JIT-compiled code, once."""
    try:
        lib = ctypes.CDLL(LIBOMP, mode=ctypes.RTLD_GLOBAL)
        llb.load_library_permanently(lib._name)
    except (OSError, RuntimeError):
        raise XenzymeError(
            f"the module calls the OpenMP runtime, but {LIBOMP} cannot be loaded",
            notes=["install it: `apt-get install libomp-19-dev` (or `make setup`)"],
        ) from None
    return lib


def _resolve_openmp(llvm_module: llb.ModuleRef) -> None:
    """Bind the OpenMP functions the module declares to libomp's: explicitly, so that another
    runtime loaded in the process (GCC's libgomp also defines omp_get_thread_num, ...) is not
    picked instead."""
    _resolve_openmp_names([f.name for f in llvm_module.functions if f.is_declaration])


def _resolve_openmp_names(names: Sequence[str]) -> None:
    needed = [name for name in names if name.startswith(_OPENMP_PREFIXES)]
    if not needed:
        return
    lib = _libomp()
    for name in needed:
        try:
            llb.add_symbol(name, ctypes.cast(getattr(lib, name), ctypes.c_void_p).value)
        except AttributeError:
            pass  # not libomp's: _check_symbols reports it if nothing else defines it


_INT_TYPES = {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16, 32: ctypes.c_int32, 64: ctypes.c_int64}


def _ctype(t: llb.TypeRef) -> Any:
    kind = t.type_kind
    if kind == llb.TypeKind.void:
        return None
    if kind == llb.TypeKind.double:
        return ctypes.c_double
    if kind == llb.TypeKind.float:
        return ctypes.c_float
    if kind == llb.TypeKind.x86_fp80:
        return ctypes.c_longdouble
    if kind == llb.TypeKind.integer:
        width = t.type_width
        if width not in _INT_TYPES:
            raise XenzymeError(f"cannot call a function with an i{width} parameter or result from Python")
        return _INT_TYPES[width]
    if kind == llb.TypeKind.pointer:
        return ctypes.c_void_p
    if kind == llb.TypeKind.struct:
        fields = [(f"f{i}", _ctype(e)) for i, e in enumerate(t.elements)]
        return type("Struct", (ctypes.Structure,), {"_fields_": fields})
    if kind == llb.TypeKind.array:
        elems = list(t.elements)
        return _ctype(elems[0]) * t.element_count
    raise XenzymeError(f"cannot call a function with a {t} parameter or result from Python")


def ctype_of(t: Attribute) -> Any:
    """The ctypes type of an xDSL type of the `llvm` dialect (None for void), as `_ctype` gives
    for LLVM's."""
    if isinstance(t, ext.LLVMVoidType):
        return None
    if isinstance(t, AnyFloat):
        found = {64: ctypes.c_double, 32: ctypes.c_float, 80: ctypes.c_longdouble}.get(t.bitwidth)
        if found is not None:
            return found
    elif isinstance(t, IntegerType):
        width = t.width.data
        if width not in _INT_TYPES:
            raise XenzymeError(f"cannot call a function with an i{width} parameter or result from Python")
        return _INT_TYPES[width]
    elif isinstance(t, ext.LLVMPointerType):
        return ctypes.c_void_p
    elif isinstance(t, ext.LLVMStructType) and not isinstance(t, ext.LLVMPackedStructType):
        fields = [(f"f{i}", ctype_of(e)) for i, e in enumerate(t.types.data)]
        return type("Struct", (ctypes.Structure,), {"_fields_": fields})
    elif isinstance(t, ext.LLVMArrayType):
        return ctype_of(t.type) * t.size.data
    raise XenzymeError(f"cannot call a function with a {t} parameter or result from Python")


def _to_python(value: Any) -> Any:
    if isinstance(value, ctypes.Structure):
        return tuple(_to_python(getattr(value, name)) for name, _ in value._fields_)
    if isinstance(value, ctypes.Array):
        return tuple(_to_python(v) for v in value)
    return value


class JITFunction:
    """A compiled function, callable with Python numbers and numpy arrays.

    Arguments are checked first (xenzyme/backend/arguments.py) against what `params` says of
    the parameters -- their C types, the element type behind a pointer, whether the function
    writes through it -- or, without it, against the LLVM types alone."""

    def __init__(self, owner: _Engine, name: str, address: int, ftype: llb.TypeRef | FunctionInfo,
                 params: Sequence[Parameter] | None = None):  # fmt: skip
        self.owner = owner  # keeps the machine code alive
        self.name = name
        if isinstance(ftype, FunctionInfo):
            self.arg_types = [ctype_of(t) for t in ftype.inputs]
            self.res_type = ctype_of(ftype.output)
            self.vararg = ftype.vararg
            default = [Parameter(i, t) for i, t in enumerate(ftype.inputs)]
        else:
            llvm_params = list(ftype.get_function_parameters())
            self.arg_types = [_ctype(p) for p in llvm_params]
            self.res_type = _ctype(ftype.get_function_return())
            self.vararg = ftype.is_function_vararg
            default = [Parameter(i, _xdsl_type(p), c_type=str(p)) for i, p in enumerate(llvm_params)]
        proto = ctypes.CFUNCTYPE(self.res_type, *self.arg_types)
        self.cfunc = proto(address)
        self.address = address
        if params is None or len(params) != len(self.arg_types):
            params = default
        self.params = list(params)
        slots = [Slot(p, c, writes=p.written, raw_ok=True) for p, c in zip(self.params, self.arg_types, strict=True)]
        self.arguments = Arguments(name, slots)

    def __call__(self, *args: Any) -> Any:
        return _to_python(self.cfunc(*self.arguments.convert(args)))

    def __repr__(self) -> str:
        return f"<jit function {self.name} at {self.address:#x}>"


def _xdsl_type(t: llb.TypeRef) -> Attribute:
    """The xDSL type of a scalar or pointer parameter (others stay opaque: their LLVM spelling)."""
    kind = t.type_kind
    if kind == llb.TypeKind.pointer:
        return ext.LLVMPointerType()
    if kind == llb.TypeKind.integer:
        return IntegerType(t.type_width)
    return {llb.TypeKind.double: f64, llb.TypeKind.float: f32, llb.TypeKind.x86_fp80: f80}.get(kind, StringAttr(str(t)))


def _check_symbols(llvm_module: llb.ModuleRef) -> None:
    """Every function and global the module only declares must exist in this process.

    An unresolved one would be called at address 0: a crash, not an error.
    """
    missing = []
    for value in (*llvm_module.functions, *llvm_module.global_variables):
        if not value.is_declaration or value.name.startswith("llvm."):
            continue
        if value.linkage == llb.Linkage.external_weak:
            continue
        if not llb.address_of_symbol(value.name):
            missing.append(value.name)
    if missing:
        shown = ", ".join(sorted(missing)[:8]) + (", ..." if len(missing) > 8 else "")
        raise XenzymeError(
            f"the JIT cannot find {len(missing)} external symbol(s): {shown}",
            notes=["define them in the module, or load the library that has them "
                   "(llvmlite.binding.load_library_permanently)"],
        )


class _Engine:
    """The MCJIT engine and the LLVM module it owns, released engine first.

    Functions hold this object, not the `JITModule`: a module <-> function cycle would be
    freed by the garbage collector, which runs finalizers in no particular order, and an
    engine disposed after its module's context crashes the process.
    """

    def __init__(self, llvm_module: llb.ModuleRef, tm: llb.TargetMachine, objects: Sequence[bytes] = ()):
        self.llvm_module = llvm_module
        self.engine = llb.create_mcjit_compiler(llvm_module, tm)
        for data in objects:
            self.engine.add_object_file(llb.ObjectFileRef.from_data(data))
        self.engine.finalize_object()
        self.engine.run_static_constructors()

    def __del__(self) -> None:
        engine = getattr(self, "engine", None)
        if engine is not None:
            engine.close()


class JITModule:
    """A module compiled for this machine; its functions are attributes."""

    def __init__(self, module: ModuleOp | str, opt_level: int = 2):
        _load_runtime_libraries()
        text = export_module(module) if isinstance(module, ModuleOp) else module
        if opt_level > 0:
            text = optimized_ir(text, opt_level, cpu="native")
        llvm_module = parse_verified(text, own_context=False)
        _resolve_openmp(llvm_module)
        _check_symbols(llvm_module)
        tm = target_machine(cpu="native", opt=min(opt_level, 3), jit=True)
        self._engine = _Engine(llvm_module, tm)
        self.llvm_module = llvm_module
        self.engine = self._engine.engine
        self._functions: dict[str, JITFunction] = {}
        self._module = module if isinstance(module, ModuleOp) else None
        """What the parameters are is read from this module when a function is first asked for."""

    def function(self, name: str) -> JITFunction:
        if (f := self._functions.get(name)) is not None:
            return f
        try:
            ref = self.llvm_module.get_function(name)
        except NameError:
            raise AttributeError(f"no function named '{name}' in the compiled module") from None
        if ref.is_declaration:
            raise AttributeError(f"'{name}' is only declared in the compiled module")
        address = self.engine.get_function_address(name)
        f = JITFunction(self._engine, name, address, ref.global_value_type, self._parameters(name))
        self._functions[name] = f
        return f

    def _parameters(self, name: str) -> list[Parameter] | None:
        if self._module is None:
            return None
        fn = next((op for op in self._module.ops if isinstance(op, FuncOp) and op.sym_name.data == name), None)
        return signature(self._module, fn) if fn is not None and fn.body.blocks else None

    def __getattr__(self, name: str) -> JITFunction:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.function(name)

    def names(self) -> Sequence[str]:
        return [f.name for f in self.llvm_module.functions if not f.is_declaration]


class FunctionInfo(NamedTuple):
    """What calling a compiled function needs: its LLVM signature (xDSL types) and what is known
    of its parameters (`xenzyme.analysis.signature`)."""

    inputs: list[Attribute]
    output: Attribute
    vararg: bool = False
    params: list[Parameter] | None = None


class ObjectModule:
    """Machine code compiled earlier for this machine (an object file from
    `xenzyme.backend.native.jit_object`, as the derivative cache keeps them), loaded for calls:
    functions are attributes, as in `JITModule`, with the signatures in `functions`.

    `needed` names the symbols the code takes from the process (functions of libm, libomp,
    ...; with whether each may be missing): each is checked to be there before anything runs.
    Static constructors are not run: a module that has them is not made into one.
    """

    def __init__(self, data: bytes, functions: Mapping[str, FunctionInfo], needed: Sequence[tuple[str, bool]]):
        _load_runtime_libraries()
        _resolve_openmp_names([name for name, _ in needed])
        missing = sorted(name for name, weak in needed if not weak and not llb.address_of_symbol(name))
        if missing:
            shown = ", ".join(missing[:8]) + (", ..." if len(missing) > 8 else "")
            raise XenzymeError(
                f"the JIT cannot find {len(missing)} external symbol(s): {shown}",
                notes=["load the library that has them (llvmlite.binding.load_library_permanently)"],
            )
        empty = parse_verified("", "an empty module", own_context=False)
        self._engine = _Engine(empty, target_machine(cpu="native", opt=0, jit=True), [data])
        self.engine = self._engine.engine
        self.infos = dict(functions)
        self._declared = {name for name, _ in needed}
        self._functions: dict[str, JITFunction] = {}

    def function(self, name: str) -> JITFunction:
        if (f := self._functions.get(name)) is not None:
            return f
        info = self.infos.get(name)
        if info is None:
            if name in self._declared:
                raise AttributeError(f"'{name}' is only declared in the compiled module")
            raise AttributeError(f"no function named '{name}' in the compiled module")
        address = self.engine.get_function_address(name)
        f = self._functions[name] = JITFunction(self._engine, name, address, info, info.params)
        return f

    def __getattr__(self, name: str) -> JITFunction:
        if name.startswith("_"):
            raise AttributeError(name)
        return self.function(name)

    def names(self) -> Sequence[str]:
        return list(self.infos)
