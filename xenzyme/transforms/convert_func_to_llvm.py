"""`convert-func-to-llvm`: `func.func`, `func.call`, `func.return` -> their llvm ops.

A memref parameter becomes its descriptor's fields, one parameter each (MLIR's calling
convention: allocated pointer, aligned pointer, offset, sizes..., strides...), and the body
rebuilds the descriptor from them; `index` becomes i64.  So a numpy array maps onto a memref
parameter as `(a, a, 0, *shape, *strides)` (xenzyme/backend/memrefs.py).

    func.func @f(%a: memref<4xf64>, %n: index) -> f64
    // becomes
    llvm.func @f(%p: !llvm.ptr, %q: !llvm.ptr, %o: i64, %s: i64, %t: i64, %n: i64) -> f64

A `par.parallel` forking a region outlined from an `scf.parallel` (a `func.func` taking the
values the loop uses) is a call too: its memref operands become descriptor fields the same way.

Derivative requests (`autodiff.autodiff`, `autodiff.fwddiff`) with memref operands get the same
expansion: a `dup` memref and its shadow become two `dup` pointer pairs (allocated, aligned)
and `const` integers for the rest.  A function returning several values returns a struct of them
(the derivative functions of the structured level return one derivative each); none returns
a memref.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, MemRefType, ModuleOp, StringAttr, i64
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.backend.memrefs import descriptor_type, field_types, llvm_type, rank
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import par
from xenzyme.transforms.llvm_lowering import (
    as_llvm,
    back_to,
    erase_dead_casts,
    replace,
    unsupported,
)


def lowered_inputs(types) -> list:
    """The llvm parameter types of a function taking `types`."""
    out: list = []
    for t in types:
        out += field_types(t) if isinstance(t, MemRefType) else [llvm_type(t)]
    return out


def expand_activity(types, activity: list[str]) -> list[str]:
    """Activities of the lowered parameters: a memref's pointers keep its activity, the
    offset, sizes and strides are `const`."""
    out: list[str] = []
    for t, a in zip(types, activity, strict=True):
        if isinstance(t, MemRefType):
            out += [a, a] + ["const"] * (1 + 2 * rank(t))
        else:
            out.append(a)
    return out


def _fields(value: SSAValue, before: Operation) -> list[SSAValue]:
    """A memref value's descriptor fields, extracted before `before`."""
    t = value.type
    assert isinstance(t, MemRefType)
    d = as_llvm(value, before)
    out = []
    for pos in [[0], [1], [2], *[[3, k] for k in range(rank(t))], *[[4, k] for k in range(rank(t))]]:
        ftype = xllvm.LLVMPointerType() if pos[0] < 2 else i64
        ex = xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, pos), d, ftype)
        Rewriter.insert_op(ex, InsertPoint.before(before))
        out.append(ex.res)
    return out


def _operands(values, before: Operation) -> list[SSAValue]:
    out: list[SSAValue] = []
    for v in values:
        out += _fields(v, before) if isinstance(v.type, MemRefType) else [as_llvm(v, before)]
    return out


def _lower_function(fn: func.FuncOp) -> xllvm.FuncOp:
    ftype = fn.function_type
    for t in ftype.outputs.data:
        if isinstance(t, MemRefType):
            raise unsupported(fn, f"@{fn.sym_name.data} returns a memref, which is not supported yet",
                              ["pass the memref to write into as an argument instead"])  # fmt: skip
    result = _result_type(ftype.outputs.data)
    lftype = xllvm.LLVMFunctionType(lowered_inputs(ftype.inputs.data), result)
    private = fn.sym_visibility is not None and fn.sym_visibility.data == "private"
    linkage = xllvm.LinkageAttr("internal" if private and not fn.is_declaration else "external")
    body = fn.detach_region(fn.body)
    if body.blocks:
        entry = body.blocks[0]
        for old in list(entry.args):
            t = old.type
            new_args = [entry.insert_arg(ft, len(entry.args)) for ft in (field_types(t) if isinstance(t, MemRefType) else [llvm_type(t)])]
            if old.name_hint is not None:
                for a, suffix in zip(new_args, _field_names(t), strict=True):
                    a.name_hint = old.name_hint + suffix
            point = InsertPoint.at_start(entry)
            if isinstance(t, MemRefType):
                d: SSAValue = _insert(xllvm.UndefOp(descriptor_type(t)), point)
                positions = [[0], [1], [2], *[[3, k] for k in range(rank(t))], *[[4, k] for k in range(rank(t))]]
                last: Operation = d.owner  # type: ignore[assignment]
                for pos, a in zip(positions, new_args, strict=True):
                    ins = xllvm.InsertValueOp(DenseArrayBase.from_list(i64, pos), d, a)
                    Rewriter.insert_op(ins, InsertPoint.after(last))
                    last, d = ins, ins.res
                value = back_to(d, t, InsertPoint.after(last))
            else:
                value = back_to(new_args[0], t, point)
            old.replace_all_uses_with(value)
            entry.erase_arg(old)
    new = xllvm.FuncOp(fn.sym_name.data, lftype, linkage=linkage, body=body if body.blocks else Region())
    return new


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(ModulePass):
    """func ops -> llvm ops, memref parameters as descriptor fields."""

    name = "convert-func-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        memref_params = {
            f.sym_name.data: list(f.function_type.inputs.data) for f in op.ops if isinstance(f, func.FuncOp)
        }
        for o in list(op.walk()):
            if isinstance(o, func.ReturnOp):
                args = [as_llvm(v, o) for v in o.arguments]
                if len(args) > 1:  # several results: one struct of them
                    ops: list[Operation] = [xllvm.UndefOp(_result_type([v.type for v in o.arguments]))]
                    for k, a in enumerate(args):
                        ops.append(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [k]), ops[-1].results[0], a))
                    replace(o, [*ops, xllvm.ReturnOp(ops[-1].results[0])], [])
                else:
                    replace(o, [xllvm.ReturnOp(args[0] if args else None)], [])
            elif isinstance(o, func.CallOp):
                rtype = _result_type([r.type for r in o.results]) if o.results else None
                call = xllvm.CallOp(o.callee.string_value(), *_operands(o.arguments, o), return_type=rtype)
                if len(o.results) > 1:
                    parts = [xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call.results[0], llvm_type(r.type))
                             for k, r in enumerate(o.results)]  # fmt: skip
                    replace(o, [call, *parts], [p.res for p in parts])
                else:
                    replace(o, [call], list(call.results))
            elif isinstance(o, par.ParallelOp):  # (a region outlined from an scf.parallel: a call)
                bind = o.proc_bind.data if o.proc_bind is not None else None
                new = par.ParallelOp(o.callee, _operands(o.args, o), o.num_threads, bind, o.serial is not None)
                replace(o, [new], [])
            elif isinstance(o, ad.AutodiffOp | ad.FwdDiffOp) and any(isinstance(v.type, MemRefType) for v in o.operands):
                _expand_request(o, memref_params)
        for f in list(op.ops):
            if isinstance(f, func.FuncOp):
                Rewriter.replace_op(f, _lower_function(f))
        erase_dead_casts(op)


def _expand_request(o: ad.AutodiffOp | ad.FwdDiffOp, params: dict[str, list]) -> None:
    """A derivative request with memref operands, on the lowered function's parameters."""
    callee = o.callee.root_reference.data
    if callee not in params:
        raise unsupported(o, f"differentiates @{callee}, which is not a func.func of this module")
    acts = [a.data for a in o.activity.data]
    width = o.width.value.data if isinstance(o, ad.FwdDiffOp) else 1
    operands = list(o.operands)
    new_operands: list[SSAValue] = []
    new_acts: list[str] = []
    it = iter(operands)
    for t, a in zip(params[callee], acts, strict=True):
        primal = next(it)
        shadows = [next(it) for _ in range(width)] if ad.has_shadow(a) else []
        if isinstance(t, MemRefType):
            pf = _fields(primal, o)
            sf = [_fields(s, o) for s in shadows]
            for k in range(2):
                new_operands += [pf[k], *[s[k] for s in sf]]
                new_acts.append(a)
            new_operands += pf[2:]
            new_acts += ["const"] * (len(pf) - 2)
        else:
            new_operands += [as_llvm(primal, o), *[as_llvm(s, o) for s in shadows]]
            new_acts.append(a)
    rest = list(it)  # split-mode operands (tape, ...) do not arise for structured requests
    if rest:
        raise unsupported(o, "has more operands than its activities describe")
    new = o.clone()
    new.operands = new_operands
    new.properties["activity"] = ArrayAttr([StringAttr(a) for a in new_acts])
    Rewriter.replace_op(o, new)



def _result_type(types) -> Attribute:
    """What a function returning `types` returns at the llvm level: nothing, the one value, or a
    struct of them (the derivative functions of the structured level return each derivative)."""
    if not types:
        return xllvm.LLVMVoidType()
    if len(types) == 1:
        return llvm_type(types[0])
    return xllvm.LLVMStructType.from_type_list([llvm_type(t) for t in types])


def _insert(op: Operation, point: InsertPoint) -> SSAValue:
    Rewriter.insert_op(op, point)
    return op.results[0]


def _field_names(t) -> list[str]:
    """Name suffixes of the parameters a parameter of type `t` becomes."""
    if not isinstance(t, MemRefType):
        return [""]
    n = rank(t)
    return ["_allocated", "_aligned", "_offset", *[f"_size{k}" for k in range(n)], *[f"_stride{k}" for k in range(n)]]
