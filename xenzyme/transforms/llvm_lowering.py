"""What the lowerings of the structured dialects to `llvm` share (convert-*-to-llvm).

Each lowering rewrites the ops of one dialect and leaves the others alone.  Where a rewritten
op meets a value of a type the llvm dialect does not have (`index`, a memref) that another
lowering has not converted yet, the two are joined by `builtin.unrealized_conversion_cast`;
`lower-structured` runs them all and then `reconcile-unrealized-casts` removes the pairs, so
the passes can run in any order and each one alone is testable.

    %d = builtin.unrealized_conversion_cast %m : memref<4xf64> to !llvm.struct<(...)>
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.backend.memrefs import llvm_type
from xenzyme.diagnostics import XenzymeError
from xenzyme.transforms.diff.errors import location_of


def as_llvm(value: SSAValue, before: Operation) -> SSAValue:
    """`value` with its llvm type: itself, the operand of the cast that made it, or a new cast."""
    t = llvm_type(value.type)
    if t == value.type:
        return value
    owner = value.owner
    if isinstance(owner, UnrealizedConversionCastOp) and owner.inputs[0].type == t:
        return owner.inputs[0]
    cast = UnrealizedConversionCastOp.get([value], [t])
    Rewriter.insert_op(cast, InsertPoint.before(before))
    return cast.results[0]


def back_to(value: SSAValue, t: Attribute, point: InsertPoint) -> SSAValue:
    """`value` (of an llvm type) as a value of the original type `t`, for unconverted users."""
    if value.type == t:
        return value
    cast = UnrealizedConversionCastOp.get([value], [t])
    Rewriter.insert_op(cast, point)
    return cast.results[0]


def replace(op: Operation, new_ops: list[Operation], results: list[SSAValue]) -> None:
    """Put `new_ops` in place of `op`; `results` (llvm-typed) stand for its results."""
    for n in new_ops:
        Rewriter.insert_op(n, InsertPoint.before(op))
    for old, new in zip(op.results, results, strict=True):
        if new.name_hint is None and old.name_hint is not None and new.owner in new_ops:
            new.name_hint = old.name_hint  # keep the program's names
        if old.uses:
            old.replace_all_uses_with(back_to(new, old.type, InsertPoint.before(op)))
    Rewriter.erase_op(op)


def declare(module: ModuleOp, name: str, ftype: xllvm.LLVMFunctionType) -> None:
    """An external declaration of `name` unless the module has one."""
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
            return
    module.body.block.add_op(xllvm.FuncOp(name, ftype, linkage=xllvm.LinkageAttr("external")))


def unsupported(op: Operation, what: str, notes: list[str] | None = None) -> XenzymeError:
    """The error for an op a lowering cannot handle: its name, its location, what to do."""
    return XenzymeError(f"'{op.name}' {what}", location_of(op), notes=notes or [])


def erase_dead_casts(module: ModuleOp) -> None:
    """Remove the casts back that no op uses any more (their users were lowered since)."""
    for o in reversed(list(module.walk())):
        if isinstance(o, UnrealizedConversionCastOp) and not any(r.uses for r in o.results):
            Rewriter.erase_op(o)
