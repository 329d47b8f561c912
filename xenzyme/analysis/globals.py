"""Mutable globals that may hold derivatives, and the functions that reach them.

Activity analysis works on one function at a time, and memory is shadowed where that function
stores varied data.  A global breaks this: one function (not inlined) may store into it and
another read it, or a function may read it with no pointer to it among its arguments -- LLVM
makes such functions itself, specialising a function called with a global's address into one
that reads the global directly.  So the globals are judged for the whole module:

* a mutable global is *writable* when some code of the module may write it: a store or a copy
  into it, an atomic, or its address handed to a call or stored in memory (then anyone may);
  every writable global whose contents may be floating point or pointers is given a shadow in
  every function differentiated (`shadowed_globals`), so that whatever one function stores
  there the others find;
* a function *touches* such a global when it, or a function it calls directly, uses its
  address (`touches_shadowed_globals`): a call of it may read or write derivatives that no
  argument shows, so it is differentiated like a call given varied data.

Constant globals, and mutable ones nothing writes, are constants for differentiation.  GPU
code keeps the rules of one function at a time (its globals are shared by every thread).

Adjoints and tangents left in the shadows of globals by one derivative must not reach the next:
the shadows are cleared before each derivative a program asks for
(`ModuleSymbols.clear_global_shadows`).
"""

from __future__ import annotations

import weakref

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, IntegerType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.analysis.alias import module_of
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext

_ADDRESS_OPS = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)


class _ModuleGlobals:
    def __init__(self, module: ModuleOp):
        self.size = len(module.body.block.ops)
        globals_ = {g.sym_name.data: g for g in module.ops if isinstance(g, xllvm.GlobalOp)}
        mutable = {n for n, g in globals_.items() if g.constant is None and _may_hold_derivatives(g.global_type)}
        if _gpu_code(module):
            mutable = set()  # (thousands of threads at once: globals keep the per-function rules)
        self.shadowed: set[str] = set()
        direct: dict[str, set[str]] = {}
        calls: dict[str, set[str]] = {}
        for fn in module.ops:
            if not isinstance(fn, xllvm.FuncOp) or not fn.body.blocks:
                continue
            name = fn.sym_name.data
            used, callees = set(), set()
            for op in fn.walk():
                if isinstance(op, xllvm.AddressOfOp) and (g := op.global_name.string_value()) in mutable:
                    used.add(g)
                    if _written_through(op.result):
                        self.shadowed.add(g)
                elif isinstance(op, xllvm.CallOp) and op.callee is not None:
                    callees.add(op.callee.string_value())
            direct[name], calls[name] = used, callees
        # Initialisers of other globals that hold a global's address let anyone write it.
        for g in globals_.values():
            if g.body.blocks:
                for op in g.body.block.ops:
                    if isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in mutable:
                        self.shadowed.add(op.global_name.string_value())
        self.touching: dict[str, bool] = {}
        for name in direct:
            seen, work, found = set(), [name], False
            while work and not found:
                f = work.pop()
                if f in seen or f not in direct:
                    continue
                seen.add(f)
                found = bool(direct[f] & self.shadowed)
                work += calls[f]
            self.touching[name] = found


def _gpu_code(module: ModuleOp) -> bool:
    triple = module.attributes.get("llvm.target_triple")
    if isinstance(triple, StringAttr) and triple.data.startswith("nvptx"):
        return True
    return any(isinstance(f, xllvm.FuncOp) and (gpu.is_kernel(f) or gpu.uses_gpu_layer(f)) for f in module.ops)


def _may_hold_derivatives(t: Attribute) -> bool:
    """Whether a global of type `t` may hold floating-point data or pointers (byte arrays and
    integers of pointer size included: memory is typed by its uses after optimisation)."""
    if isinstance(t, AnyFloat | ext.LLVMPointerType):
        return True
    if isinstance(t, IntegerType):
        return t.width.data in (8, 64)  # (raw bytes; doubles and pointers moved as integers)
    if isinstance(t, ext.LLVMArrayType):
        return _may_hold_derivatives(t.type)
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(_may_hold_derivatives(m) for m in t.types.data)
    from xdsl.dialects.builtin import VectorType

    return isinstance(t, VectorType) and _may_hold_derivatives(t.element_type)


def _written_through(p: SSAValue) -> bool:
    """Whether memory may be written through pointer `p` (or the pointer escapes)."""
    work, seen = [p], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            op = use.operation
            if isinstance(op, (*_ADDRESS_OPS, ext.SelectOp)):
                work += op.results
            elif isinstance(op, xllvm.LoadOp | ext.ICmpOp | ext.DbgRecordOp):
                continue
            elif isinstance(op, ext.StoreOp) and use.index == 1:
                return True
            elif isinstance(op, ext.StoreOp):
                return True  # the address itself stored: anyone may write through it
            else:
                return True  # copies, atomics, calls, returns: written, or handed over
    return False


_CACHE: weakref.WeakKeyDictionary[Operation, _ModuleGlobals] = weakref.WeakKeyDictionary()


def _of(op: Operation) -> _ModuleGlobals | None:
    module = module_of(op)
    if module is None:
        return None
    found = _CACHE.get(module)
    if found is None or found.size != len(module.body.block.ops):
        found = _CACHE[module] = _ModuleGlobals(module)
    return found


def shadowed_globals(op: Operation) -> set[str]:
    """The mutable globals of `op`'s module that may hold derivatives (see the docstring)."""
    m = _of(op)
    return set(m.shadowed) if m is not None else set()


def touches_shadowed_globals(op: Operation) -> bool:
    """Whether a direct call's callee (or what it calls) uses a global that may hold
    derivatives."""
    if not isinstance(op, xllvm.CallOp | ext.InvokeOp) or op.callee is None:
        return False
    m = _of(op)
    return m is not None and m.touching.get(op.callee.string_value(), False)
