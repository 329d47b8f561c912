"""The shadow of a pointer kept in a global, checked where it is loaded.

A pointer a global holds (`double *work`, set by `main`, or by a static initializer) may lead to
memory that receives derivatives.  Its shadow lives in the global's shadow -- but only code being
differentiated writes shadows, and the shadows of globals are cleared before each derivative a
program asks for.  So where such a pointer is loaded, its shadow goes through a small function
defined in the module on first use (`GLOBAL_POINTER_SHADOW`):

* a shadow stored by differentiated code, or a null pointer: as loaded;
* the global still holds its initial value, the address of another global (`double *work =
  storage;`): that global's shadow (a function's address is its own);
* anything else -- memory the pointer was given outside the derivative, whose shadow nobody made:
  the program stops with a message naming the global, rather than writing derivatives through a
  null shadow.

A pointer only called through (a function pointer) needs no check: the derivative follows it.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, call_op, ensure_declaration, message_global

GLOBAL_POINTER_SHADOW = "xenzyme.global_pointer_shadow"
_PTR = ext.LLVMPointerType()


def global_loaded_from(ptr: SSAValue) -> str | None:
    """The global a load through `ptr` reads: its address, or an address into it at constant
    indices; None for other pointers."""
    while isinstance(ptr.owner, ext.GEPOp) and not ptr.owner.ssa_indices:
        ptr = ptr.owner.ptr
    if isinstance(ptr.owner, xllvm.AddressOfOp):
        return ptr.owner.global_name.string_value()
    return None


def only_called(p: SSAValue) -> bool:
    """Whether the pointer `p` is only called through or compared (a function pointer: what it
    leads to is code, and the derivative follows the pointer itself)."""
    for use in p.uses:
        user = use.operation
        if isinstance(user, xllvm.CallOp) and user.callee is None and use.index == 0:
            continue
        if isinstance(user, ext.ICmpOp):
            continue
        return False
    return True


def initial_target(module: ModuleOp, name: str) -> str | None:
    """The global whose address the global `name` holds initially (`double *p = storage;`)."""
    for op in module.ops:
        if isinstance(op, xllvm.GlobalOp) and op.sym_name.data == name:
            if len(op.body.blocks) != 1:
                return None
            ops = list(op.body.block.ops)
            if len(ops) == 2 and isinstance(ops[0], xllvm.AddressOfOp) and isinstance(ops[1], xllvm.ReturnOp):
                return ops[0].global_name.string_value()
            return None
    return None


def checked_shadow(e: LLVMEmitter, load: Operation, primal: SSAValue, shadow: SSAValue,
                   known: tuple[SSAValue, SSAValue] | None, name: str, where: str) -> SSAValue:  # fmt: skip
    """`shadow`, the shadow loaded for the pointer `primal` that `load` read from the global
    `name`, as `GLOBAL_POINTER_SHADOW` judges it; `known`: the global's initial value and its
    shadow, when it has one."""
    _define(e.module)
    text = (f"xenzyme: {where}the global @{name} holds a pointer given to it outside the code being "
            "differentiated: the memory it leads to has no shadow for its derivatives; stopping (pass that "
            "memory as an argument with enzyme_dup, or set the pointer inside the function differentiated)\n")  # fmt: skip
    msg, size = message_global(e.module, text)
    null = e.insert(xllvm.ZeroOp.create(result_types=[_PTR]))
    init, init_shadow = known if known is not None else (null, null)
    address = e.insert(xllvm.AddressOfOp(msg, _PTR))
    return e.insert(call_op(GLOBAL_POINTER_SHADOW, [primal, shadow, init, init_shadow, address, e.i64(size)], _PTR))


def _define(module: ModuleOp) -> None:
    """(primal, shadow, initial primal, its shadow, message, length) -> the shadow, or a stop."""
    if any(isinstance(op, xllvm.FuncOp) and op.sym_name.data == GLOBAL_POINTER_SHADOW for op in module.ops):
        return
    ensure_declaration(module, "write", ext.LLVMFunctionType([i32, _PTR, i64], i64))
    ensure_declaration(module, "abort", ext.LLVMFunctionType([], ext.LLVMVoidType()))
    entry = Block(arg_types=[_PTR, _PTR, _PTR, _PTR, _PTR, i64])
    initial, stop, done = Block(), Block(), Block(arg_types=[_PTR])
    primal, shadow, init, init_shadow, msg, size = entry.args

    b = LLVMEmitter(Builder(InsertPoint.at_end(entry)), module)
    null = b.insert(xllvm.ZeroOp.create(result_types=[_PTR]))
    has_shadow = b.insert(ext.ICmpOp(shadow, null, "ne"))
    no_memory = b.insert(ext.ICmpOp(primal, null, "eq"))
    b.insert(xllvm.CondBrOp(b.insert(xllvm.OrOp(has_shadow, no_memory)), done, [shadow], initial, []))

    b = LLVMEmitter(Builder(InsertPoint.at_end(initial)), module)
    same = b.insert(ext.ICmpOp(primal, init, "eq"))
    b.insert(xllvm.CondBrOp(same, done, [init_shadow], stop, []))

    b = LLVMEmitter(Builder(InsertPoint.at_end(stop)), module)
    b.insert(call_op("write", [b.i32(2), msg, size], i64))
    b.insert(call_op("abort", [], None))
    b.insert(xllvm.UnreachableOp())

    b = LLVMEmitter(Builder(InsertPoint.at_end(done)), module)
    b.insert(xllvm.ReturnOp(done.args[0]))
    fn = xllvm.FuncOp(GLOBAL_POINTER_SHADOW, ext.LLVMFunctionType([_PTR] * 5 + [i64], _PTR),
                      linkage=xllvm.LinkageAttr("internal"), body=Region([entry, initial, stop, done]))  # fmt: skip
    module.body.block.add_op(fn)
