"""`lower-ompi`: `ompi` ops -> calls of OpenMPI's C functions (and of xenzyme's helpers).

An MPI call op becomes the call it was raised from, operand for operand, with OpenMPI's handles
as they are (addresses of `ompi_*` globals; MPI_IN_PLACE `(void *)1`; MPI_STATUS_IGNORE null),
so the object links with `$(mpicc --showme:link)`:

    %e = ompi.send %x, %n, %dt, %dest, %tag, %comm  ->  %e = llvm.call @MPI_Send(%x, %n, %dt, %dest, %tag, %comm)
    %r = ompi.call @MPI_Wtime() : () -> f64        ->  %r = llvm.call @MPI_Wtime() : () -> f64

xDSL's own `lower-mpi` lowers xDSL's `mpi` dialect with MPICH's integer handles; this pass is
named for the dialect it lowers, and never touches xDSL's ops.

The ops derivative rules emit become calls of internal helper functions, written in LLVM IR in
`mpi_helpers.ll` beside this file and copied into the module when used (with what they call):

    ompi.accumulate %d, %s, %n : f64 [mask %m]     ->  @xenzyme.mpi.add[_masked].f64(%d, %s, %n[, %m])
    ompi.request_record <kind> %dreq, ... : T      ->  @xenzyme.mpi.record(%dreq, kind, ..., sizeof T, ...)
    ompi.request_start %dreqs, %n                  ->  @xenzyme.mpi.start(%dreqs, %n)
    ompi.request_finish %dreq                      ->  @xenzyme.mpi.finish(%dreq)
    %m = ompi.owners max %x, %n, %dt, %comm : T    ->  @xenzyme.mpi.owners(%x, %n, %dt, %comm, MPI_MAX, sizeof T)
    %r = ompi.rank %comm / ompi.size %comm         ->  @xenzyme.mpi.rank / @xenzyme.mpi.size (MPI_Comm_rank/_size)
    ompi.tape_push %p / %p = ompi.tape_pop         ->  @xenzyme.mpi.tape_push / @xenzyme.mpi.tape_pop

It runs after differentiation (the `enzyme` pipeline: after forward-diff, before lower-par).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import Float64Type, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import mpi
from xenzyme.rules.emitter import call_op, ensure_declaration

HELPERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi_helpers.ll")
_PTR = ext.LLVMPointerType()
_KIND_CODES = {"isend": 0, "irecv": 1}
_EXTREMUM_OPS = {"max": "ompi_mpi_op_max", "min": "ompi_mpi_op_min"}


@functools.cache
def _helper_module() -> ModuleOp:
    from xenzyme.frontend.llvm_import import import_llvm_ir

    with open(HELPERS) as f:
        return import_llvm_ir(f.read(), HELPERS)


def _symbol(op: Operation) -> str | None:
    sym = op.properties.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


def _references(op: Operation) -> set[str]:
    """The symbols (functions, globals) `op`'s body refers to."""
    out: set[str] = set()
    for o in op.walk():
        for attr in (*o.properties.values(), *o.attributes.values()):
            if isinstance(attr, SymbolRefAttr):
                out.add(attr.string_value())
    return out


def link_helpers(module: ModuleOp, names: Sequence[str]) -> None:
    """Copy the helpers `names`, and what they use, into `module` (those it has not got)."""
    helpers = {_symbol(op): op for op in _helper_module().ops if _symbol(op) is not None}
    present = {_symbol(op) for op in module.ops}
    work = [n for n in names if n not in present]
    while work:
        name = work.pop()
        if name in present:
            continue
        present.add(name)
        op = helpers[name]
        module.body.block.add_op(op.clone())
        work += [r for r in _references(op) if r in helpers and r not in present]


class _Lowering:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.helpers: set[str] = set()

    def call(self, at: Operation, callee: str, args: Sequence[SSAValue], result: Attribute | None,
             declare: bool = True) -> xllvm.CallOp:  # fmt: skip
        """A call of `callee` before `at`, with `at`'s location; declared unless a helper."""
        if declare:
            ensure_declaration(self.module, callee, ext.LLVMFunctionType([a.type for a in args], result or ext.LLVMVoidType()))
        else:
            self.helpers.add(callee)
        c = call_op(callee, args, result)
        c.location = at.location
        self._insert(at, c)
        return c

    def _insert(self, at: Operation, op: Operation) -> SSAValue | None:
        block = at.parent_block()
        assert block is not None
        block.insert_op_before(op, at)
        return op.results[0] if op.results else None

    def const(self, at: Operation, value: int) -> SSAValue:
        return self._insert(at, xllvm.ConstantOp(IntegerAttr(value, i32), i32))  # type: ignore[return-value]

    def address(self, at: Operation, name: str) -> SSAValue:
        if not any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name for o in self.module.ops):
            link_helpers(self.module, [name])  # an external global of OpenMPI's
        return self._insert(at, xllvm.AddressOfOp(name, _PTR))  # type: ignore[return-value]

    def lower(self, op: Operation) -> None:
        new: Operation | None
        if isinstance(op, mpi.MPICallOp):
            new = self.call(op, op.FUNCTION, list(op.operands), i32)
        elif isinstance(op, mpi.CallOp):
            new = self.call(op, op.function(), list(op.args), op.res.type if op.res is not None else None)
        elif isinstance(op, mpi.AccumulateOp):
            suffix = "f64" if isinstance(op.elem, Float64Type) else "f32"
            if op.mask is None:
                new = self.call(op, f"xenzyme.mpi.add.{suffix}", [op.dst, op.src, op.count], None, declare=False)
            else:
                new = self.call(op, f"xenzyme.mpi.add_masked.{suffix}", [op.dst, op.src, op.count, op.mask], None,
                                declare=False)  # fmt: skip
        elif isinstance(op, mpi.RequestRecordOp):
            kind = self.const(op, _KIND_CODES[op.kind.data])
            elem = self.const(op, _size(op.elem))
            args = [op.dreq, kind, op.dbuf, op.count, elem, op.datatype, op.peer, op.tag, op.comm]
            new = self.call(op, "xenzyme.mpi.record", args, None, declare=False)
        elif isinstance(op, mpi.RequestStartOp):
            new = self.call(op, "xenzyme.mpi.start", [op.dreqs, op.n], None, declare=False)
        elif isinstance(op, mpi.RequestFinishOp):
            new = self.call(op, "xenzyme.mpi.finish", [op.dreq], None, declare=False)
        elif isinstance(op, mpi.OwnersOp):
            extremum = self.address(op, _EXTREMUM_OPS[op.kind.data])
            elem = self.const(op, _size(op.elem))
            args = [op.x, op.count, op.datatype, op.comm, extremum, elem]
            new = self.call(op, "xenzyme.mpi.owners", args, _PTR, declare=False)
        elif isinstance(op, mpi.RankOp | mpi.SizeOp):
            helper = "xenzyme.mpi.rank" if isinstance(op, mpi.RankOp) else "xenzyme.mpi.size"
            new = self.call(op, helper, [op.comm], i32, declare=False)
        elif isinstance(op, mpi.TapePushOp):
            new = self.call(op, "xenzyme.mpi.tape_push", [op.value], None, declare=False)
        elif isinstance(op, mpi.TapePopOp):
            new = self.call(op, "xenzyme.mpi.tape_pop", [], _PTR, declare=False)
        else:
            raise AssertionError(f"no lowering for {op.name}")
        for old, r in zip(op.results, new.results, strict=True):
            old.replace_all_uses_with(r)
        op.detach()
        op.erase()


def _size(t: Attribute) -> int:
    return 8 if isinstance(t, Float64Type) else 4


@dataclass(frozen=True)
class LowerOMPIPass(ModulePass):
    """`ompi` ops -> calls (see the module docstring)."""

    name = "lower-ompi"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        ops = [o for o in op.walk() if o.dialect_name() == "ompi"]
        if not ops:
            return
        lowering = _Lowering(op)
        for o in ops:
            lowering.lower(o)
        if lowering.helpers:
            link_helpers(op, sorted(lowering.helpers))
