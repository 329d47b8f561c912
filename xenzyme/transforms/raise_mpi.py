"""`raise-mpi`: calls of MPI functions -> `ompi` ops (xenzyme/dialects/mpi.py).

One op per call, operands as the call had them, the call's debug location kept:

    %e = llvm.call @MPI_Send(%x, %n, %dt, %dest, %tag, %comm) : (...) -> i32
        ->  %e = ompi.send %x, %n, %dt, %dest, %tag, %comm
    %r = llvm.call @MPI_Comm_rank(%comm, %p) : (!llvm.ptr, !llvm.ptr) -> i32
        ->  %r = ompi.call @MPI_Comm_rank(%comm, %p) : (!llvm.ptr, !llvm.ptr) -> i32

Every direct call of a function named `MPI_*` is raised: those with an op of their own
(`CALL_OPS`) into it, the others into `ompi.call`, which keeps the callee -- inactive functions
(MPI_Comm_rank, MPI_Wtime, ...) have a derivative rule saying so, the rest are an error where a
derivative would go through them, rather than a call differentiated as if it were any library
function.  Handles are not interpreted here: the rules read them (`handle_name`) where they
need to.  The calls must follow OpenMPI's ABI (handles are pointers); integer handles mean the
program was compiled against another MPI's `mpi.h` (MPICH's), which is an error.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from xenzyme.analysis.alias import callee_name
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import mpi
from xenzyme.transforms.diff.errors import location_of


def is_mpi_function(name: str | None) -> bool:
    return name is not None and name.startswith("MPI_")


def raise_call(call: xllvm.CallOp, filename: str | None = None) -> Operation:
    """The `ompi` op of an MPI call (not inserted)."""
    name = callee_name(call)
    assert name is not None
    cls = mpi.CALL_OPS.get(name)
    args = list(call.args)
    if cls is None:
        return mpi.CallOp(name, args, call.results[0].type if call.results else None)
    types = cls.signature()
    got = [a.type for a in args]
    if got != types or [r.type for r in call.results] != [i32]:
        integer_handles = len(got) == len(types) and any(
            t == xllvm.LLVMPointerType() and g == i32 for t, g in zip(types, got, strict=True)
        )
        notes = (["compile the program with OpenMPI's flags: clang-19 $(mpicc --showme:compile) ... "
                  "(and link it with $(mpicc --showme:link))"]
                 if integer_handles else ["declare it as OpenMPI's mpi.h does"])  # fmt: skip
        what = ("takes integer handles: the program was compiled against another MPI's mpi.h (MPICH's ABI), "
                "and xenzyme follows OpenMPI's, whose handles are pointers"
                if integer_handles else
                f"is called as ({', '.join(map(str, got))}), not as MPI's prototype says "
                f"({', '.join(map(str, types))}) -> i32")  # fmt: skip
        raise XenzymeError(f"@{name} {what}", location_of(call, filename) or SourceLocation(filename), notes)
    return cls(*args)


@dataclass(frozen=True)
class RaiseMPIPass(ModulePass):
    """MPI calls -> `ompi` ops (see the module docstring)."""

    name = "raise-mpi"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        filename = op.attributes.get("llvm.source_filename")
        fname = filename.data if filename is not None else None  # type: ignore[attr-defined]
        calls = [c for c in op.walk() if isinstance(c, xllvm.CallOp) and is_mpi_function(callee_name(c))]
        for call in calls:
            new = raise_call(call, fname)
            new.location = call.location
            block = call.parent_block()
            assert block is not None
            block.insert_op_before(new, call)
            for old, r in zip(call.results, new.results, strict=True):
                old.replace_all_uses_with(r)
            call.detach()
            call.erase()
