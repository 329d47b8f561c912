"""Direct calls between the functions of a module: who calls whom, what a function reaches.

Only direct calls (`llvm.call @f`, `llvm.invoke @f`) are edges; a function whose address is
taken is reported by `address_taken`, for passes that must know it may be called indirectly.
Pure functions of the IR; nothing here rewrites.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation

from xenzyme.dialects import llvm_ext as ext


def functions(module: ModuleOp) -> dict[str, xllvm.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.FuncOp)}


def direct_callee(op: Operation) -> str | None:
    """The function a direct call or invoke calls."""
    if isinstance(op, xllvm.CallOp | ext.InvokeOp) and op.callee is not None:
        return op.callee.string_value()
    return None


def calls_in(fn: Operation) -> list[Operation]:
    """The direct calls in `fn`."""
    return [op for op in fn.walk() if direct_callee(op) is not None]


def reachable(module: ModuleOp, roots: Iterable[str]) -> list[xllvm.FuncOp]:
    """The defined functions that `roots` reach by direct calls, the roots included, in the
    order found."""
    table = functions(module)
    seen: dict[str, xllvm.FuncOp] = {}
    work = [r for r in roots if r in table]
    while work:
        name = work.pop()
        fn = table[name]
        if name in seen or not fn.body.blocks:
            continue
        seen[name] = fn
        work += [c for op in calls_in(fn) if (c := direct_callee(op)) in table and c not in seen]
    return list(seen.values())


def symbol_users(module: ModuleOp, name: str) -> list[Operation]:
    """Ops inside functions and global initialisers that refer to the symbol `name` (calls,
    `llvm.mlir.addressof` whose address is used, requests)."""
    users = []
    for op in module.walk():
        if op.parent_op() is None or op.parent_op() is module:
            continue
        if isinstance(op, xllvm.AddressOfOp) and not op.result.uses:
            continue
        for attr in op.properties.values():
            if isinstance(attr, SymbolRefAttr) and attr.string_value() == name:
                users.append(op)
                break
    return users


def address_taken(module: ModuleOp) -> set[str]:
    """Functions whose address is used by something other than a direct call."""
    table = functions(module)
    return {
        n
        for op in module.walk()
        if isinstance(op, xllvm.AddressOfOp) and (n := op.global_name.string_value()) in table and op.result.uses
    }
