"""The `ompi` dialect: MPI calls as ops, with OpenMPI's handles kept as they are.

A C program compiled against OpenMPI's `mpi.h` calls MPI functions whose handles are
*addresses of OpenMPI's globals*: `MPI_COMM_WORLD` is `@ompi_mpi_comm_world`, `MPI_DOUBLE` is
`@ompi_mpi_double`, `MPI_SUM` is `@ompi_mpi_op_sum`, a request is a `ptr` slot, `MPI_IN_PLACE`
is `inttoptr (i64 1 to ptr)` and `MPI_STATUS_IGNORE` is `null`.  `raise-mpi` turns each call
into the op of the same name, one for one, operands in the C function's order and the `i32`
error code as result; `lower-ompi` turns them back into the very same calls.  What the op adds
is a name the derivative rules (`xenzyme/rules/mpi.py`) are found by, and what analyses need
to know: which buffers it reads and writes (xDSL memory effects, on the operands), and which
buffers receive data that may carry derivatives from another process (`ShadowedOperands`).

    %e = ompi.send %buf, %count, %datatype, %dest, %tag, %comm
    %e = ompi.recv %buf, %count, %datatype, %source, %tag, %comm, %status
    %e = ompi.isend %buf, %count, %datatype, %dest, %tag, %comm, %request
    %e = ompi.waitall %count, %requests, %statuses
    %e = ompi.allreduce %sendbuf, %recvbuf, %count, %datatype, %op, %comm
    %e = ompi.call @MPI_Comm_rank(%comm, %rank) : (!llvm.ptr, !llvm.ptr) -> i32

The ops, with the C function each one is (every operand is `!llvm.ptr` or `i32`, as in the C
prototype, so the syntax names no types):

    point to point  send ssend bsend rsend recv sendrecv sendrecv_replace
                    isend issend irecv wait waitall test
    collectives     barrier bcast reduce allreduce gather scatter allgather alltoall
                    reduce_scatter_block
    anything else   ompi.call @MPI_...(...) : (types) -> type   (MPI_Comm_rank, MPI_Wtime,
                    MPI_Init, ...; and MPI functions without a derivative rule, kept so that
                    differentiating through one is an error naming it)

Why not xDSL's `mpi` dialect.  Its ops take no communicator (every op means MPI_COMM_WORLD),
typed handles (`!mpi.datatype`, `!mpi.request`) that the llvm level does not have, no status
and no error code, and there is no barrier, scatter, allgather or sendrecv; its lowering
(xDSL's `lower-mpi`) writes MPICH's integer handles and 20-byte status, which is not OpenMPI's
ABI.  Raising OpenMPI's calls into it would lose the communicator and need a second set of
handles; these ops keep every operand the call had, so the lowering is exact.  The dialect is
named for the ABI it keeps (and so as not to clash with xDSL's `mpi`).

Ops the derivative rules emit.  Reverse mode needs, beyond MPI calls, a few steps with control
flow of their own, which `lower-ompi` turns into calls of small internal helper functions it
adds to the module (`xenzyme/transforms/lower_mpi.py`):

    ompi.accumulate %dst, %src, %count : f64            // dst[k] += src[k], k < count
    ompi.accumulate %dst, %src, %count mask %m : f64    // only where the byte m[k] is 1
    ompi.request_record isend %dreq, %dbuf, %count, %datatype, %peer, %tag, %comm : f64
    ompi.request_start %dreqs, %n                       // reverse of MPI_Wait/Waitall/Test
    ompi.request_finish %dreq                           // reverse of MPI_Isend/Irecv
    %m = ompi.owners max %x, %count, %datatype, %comm : f64
    %r = ompi.rank %comm                                // MPI_Comm_rank's result, as a value
    %n = ompi.size %comm                                // MPI_Comm_size's
    ompi.tape_push %p
    %p = ompi.tape_pop

A non-blocking send or receive keeps, in the shadow of its request slot, a record of what its
reverse needs (`request_record`: kind, the buffer's shadow, count, datatype, peer, tag,
communicator, and the slot's previous content, restored by `request_finish`).  The reverse of a
wait starts the opposite non-blocking operation from that record (a receive of the adjoint for
an `isend`, a send of it for an `irecv`); the reverse of the `isend`/`irecv` itself waits for
it, accumulates what arrived into the buffer's shadow (or clears the shadow), and frees the
record.  `owners` says which elements of a max/min reduction this rank supplied (the lowest
rank holding the extremum): a malloc'd byte per element; `tape_push`/`tape_pop` keep such
pointers, last in first out, from the forward to the reverse sweep.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_result_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from xenzyme.dialects.autodiff import ShadowedOperands

_PTR = LLVMPointerType()

# ---------------------------------------------------------------------------------------------
# OpenMPI's handles
# ---------------------------------------------------------------------------------------------

FLOAT_DATATYPES: dict[str, Attribute] = {
    "ompi_mpi_double": Float64Type(), "ompi_mpi_dblprec": Float64Type(), "ompi_mpi_real8": Float64Type(),
    "ompi_mpi_float": Float32Type(), "ompi_mpi_real": Float32Type(), "ompi_mpi_real4": Float32Type(),
}  # fmt: skip
"""Datatypes whose elements carry derivatives: MPI_DOUBLE and MPI_FLOAT (and their Fortran
names, usable from C), by the OpenMPI global that is their handle."""

INTEGER_DATATYPES = frozenset({
    "ompi_mpi_char", "ompi_mpi_signed_char", "ompi_mpi_unsigned_char", "ompi_mpi_short",
    "ompi_mpi_unsigned_short", "ompi_mpi_int", "ompi_mpi_unsigned", "ompi_mpi_long",
    "ompi_mpi_unsigned_long", "ompi_mpi_long_long_int", "ompi_mpi_unsigned_long_long",
    "ompi_mpi_wchar", "ompi_mpi_c_bool", "ompi_mpi_cxx_bool", "ompi_mpi_aint", "ompi_mpi_offset",
    "ompi_mpi_count", "ompi_mpi_int8_t", "ompi_mpi_uint8_t", "ompi_mpi_int16_t", "ompi_mpi_uint16_t",
    "ompi_mpi_int32_t", "ompi_mpi_uint32_t", "ompi_mpi_int64_t", "ompi_mpi_uint64_t", "ompi_mpi_2int",
    "ompi_mpi_integer", "ompi_mpi_logical",
})  # fmt: skip
"""Datatypes of integers: their messages never carry derivatives."""

BYTE_DATATYPES = frozenset({"ompi_mpi_byte", "ompi_mpi_packed"})
"""Untyped bytes: inactive, unless they move memory that may hold derivatives (an error)."""

REDUCTION_OPS = {"ompi_mpi_op_sum": "sum", "ompi_mpi_op_max": "max", "ompi_mpi_op_min": "min"}
"""The reduction operators with derivatives, by their OpenMPI global."""

COMMUNICATORS = {"ompi_mpi_comm_world": "MPI_COMM_WORLD", "ompi_mpi_comm_self": "MPI_COMM_SELF"}
"""The predefined communicators."""

REQUEST_NULL = "ompi_request_null"
"""MPI_REQUEST_NULL's global."""

IN_PLACE = 1
"""MPI_IN_PLACE, `(void *)1`."""

ANY = -1
"""MPI_ANY_SOURCE and MPI_ANY_TAG."""


def handle_name(v: SSAValue) -> str | None:
    """The OpenMPI global whose address `v` is (`MPI_DOUBLE` -> `ompi_mpi_double`), else None."""
    from xdsl.dialects.llvm import AddressOfOp

    owner = v.owner
    if isinstance(owner, AddressOfOp):
        return owner.global_name.string_value()
    return None


def int_constant(v: SSAValue) -> int | None:
    """The value of an integer constant operand (a literal count, rank or tag), else None."""
    from xdsl.dialects.llvm import ConstantOp, IntToPtrOp

    owner = v.owner
    if isinstance(owner, IntToPtrOp):
        return int_constant(owner.operands[0])
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def is_in_place(v: SSAValue) -> bool:
    """Whether buffer operand `v` is the constant MPI_IN_PLACE."""
    from xdsl.dialects.llvm import IntToPtrOp

    return isinstance(v.owner, IntToPtrOp) and int_constant(v) == IN_PLACE


def float_type(datatype: SSAValue) -> Attribute | None:
    """The element type of a floating-point datatype operand, else None."""
    name = handle_name(datatype)
    return FLOAT_DATATYPES.get(name) if name is not None else None


# ---------------------------------------------------------------------------------------------
# Memory effects and shadow demands, as the ops say
# ---------------------------------------------------------------------------------------------


class _Effects(MemoryEffect):
    """The op's reads and writes through its operands (`effects()`); None: unknown."""

    @classmethod
    def get_effects(cls, op: Operation):
        return op.effects()  # type: ignore[attr-defined]


def _on(kind: MemoryEffectKind, values: Sequence[SSAValue]) -> set[EffectInstance]:
    return {EffectInstance(kind, v) for v in values}


# ---------------------------------------------------------------------------------------------
# MPI calls
# ---------------------------------------------------------------------------------------------


class MPICallOp(IRDLOperation):
    """An MPI function call: operands in the order of the C prototype, the error code as result.

    Subclasses declare their operands (`!llvm.ptr` or `i32`, named as in the MPI standard) and
    the messages they move: `SENT` and `RECEIVED` list (buffer, datatype) operand pairs.  Those
    buffers are what the call reads and writes (its memory effects, with `WRITES`: statuses,
    request slots, flags; the communicator counts as written, so that no call is ever taken for
    side-effect free).  `REQUEST_SLOTS` are the request slots of non-blocking calls.  The syntax
    is the operands, comma-separated, and the attribute dictionary."""

    FUNCTION: ClassVar[str]
    """The C function (`MPI_Send`)."""
    SENT: ClassVar[tuple[tuple[str, str], ...]] = ()
    RECEIVED: ClassVar[tuple[tuple[str, str], ...]] = ()
    WRITES: ClassVar[tuple[str, ...]] = ()
    REQUEST_SLOTS: ClassVar[tuple[str, ...]] = ()

    res = result_def(i32)
    traits = traits_def(_Effects(), ShadowedOperands())

    def __init__(self, *args: SSAValue | Operation):
        super().__init__(operands=list(args), result_types=[i32])

    @classmethod
    def operand_names(cls) -> list[str]:
        return [name for name, _ in cls.get_irdl_definition().operands]

    @classmethod
    def signature(cls) -> list[Attribute]:
        """`i32` or `!llvm.ptr`, operand by operand."""
        return [d.constr.constraint.constr.attr for _, d in cls.get_irdl_definition().operands]  # type: ignore[attr-defined]

    def function(self) -> str:
        """The C function this op calls."""
        return self.FUNCTION

    def arg(self, name: str) -> SSAValue:
        """The operand called `name` in the MPI standard."""
        return self.operands[self.operand_names().index(name)]

    def messages(self) -> list[tuple[SSAValue, SSAValue]]:
        """(buffer, datatype) of every message the call sends or receives."""
        return [(self.arg(b), self.arg(d)) for b, d in (*self.SENT, *self.RECEIVED)]

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> MPICallOp:
        types = cls.signature()
        names = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(",") is not None:
            names.append(parser.parse_unresolved_operand())
        if len(names) != len(types):
            parser.raise_error(f"{cls.name} takes {len(types)} operands ({', '.join(cls.operand_names())}), "
                               f"{len(names)} given")  # fmt: skip
        attrs = parser.parse_optional_attr_dict()
        op = cls(*[parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)])
        op.attributes |= attrs
        return op

    def effects(self) -> set[EffectInstance]:
        comm = [self.arg("comm")] if "comm" in self.operand_names() else []
        reads = [self.arg(b) for b, _ in self.SENT]
        writes = [self.arg(b) for b, _ in self.RECEIVED] + [self.arg(n) for n in self.WRITES] + comm
        return _on(MemoryEffectKind.READ, reads) | _on(MemoryEffectKind.WRITE, writes)

    def shadowed_operands(self) -> list[SSAValue]:
        """Buffers receiving floating-point data; for a non-blocking call of floats, its buffer
        and request slot too (the derivative keeps its own message and request beside them)."""
        out = [self.arg(b) for b, d in self.RECEIVED if float_type(self.arg(d)) is not None]
        if self.REQUEST_SLOTS and any(float_type(d) is not None for _, d in self.messages()):
            out += [self.arg(b) for b, d in self.SENT] + [self.arg(r) for r in self.REQUEST_SLOTS]
        return out


def _call(function: str, sent=(), received=(), writes=(), request_slots=()):
    """`irdl_op_definition`, then what the call does (class constants IRDL does not take)."""

    def define(cls: type[MPICallOp]) -> type[MPICallOp]:
        cls = irdl_op_definition(cls)
        cls.FUNCTION, cls.SENT, cls.RECEIVED = function, sent, received
        cls.WRITES, cls.REQUEST_SLOTS = writes, request_slots
        return cls

    return define


def _ptr():
    return operand_def(_PTR)


def _int():
    return operand_def(i32)


class _SendLike(MPICallOp):
    """`%e = ompi.send %buf, %count, %datatype, %dest, %tag, %comm`: a blocking send."""

    buf = _ptr()
    count = _int()
    datatype = _ptr()
    dest = _int()
    tag = _int()
    comm = _ptr()


@_call("MPI_Send", sent=(("buf", "datatype"),))
class SendOp(_SendLike):
    """`%e = ompi.send %buf, %count, %datatype, %dest, %tag, %comm`: MPI_Send."""

    name = "ompi.send"


@_call("MPI_Ssend", sent=(("buf", "datatype"),))
class SsendOp(_SendLike):
    """`%e = ompi.ssend %buf, %count, %datatype, %dest, %tag, %comm`: MPI_Ssend (synchronous)."""

    name = "ompi.ssend"


@_call("MPI_Bsend", sent=(("buf", "datatype"),))
class BsendOp(_SendLike):
    """`%e = ompi.bsend %buf, %count, %datatype, %dest, %tag, %comm`: MPI_Bsend (buffered)."""

    name = "ompi.bsend"


@_call("MPI_Rsend", sent=(("buf", "datatype"),))
class RsendOp(_SendLike):
    """`%e = ompi.rsend %buf, %count, %datatype, %dest, %tag, %comm`: MPI_Rsend (ready)."""

    name = "ompi.rsend"


@_call("MPI_Recv", received=(("buf", "datatype"),), writes=("status",))
class RecvOp(MPICallOp):
    """`%e = ompi.recv %buf, %count, %datatype, %source, %tag, %comm, %status`: MPI_Recv
    (`%status` null: MPI_STATUS_IGNORE)."""

    name = "ompi.recv"
    buf = _ptr()
    count = _int()
    datatype = _ptr()
    source = _int()
    tag = _int()
    comm = _ptr()
    status = _ptr()


@_call("MPI_Sendrecv", sent=(("sendbuf", "sendtype"),), received=(("recvbuf", "recvtype"),), writes=("status",))
class SendrecvOp(MPICallOp):
    """`%e = ompi.sendrecv %sendbuf, %sendcount, %sendtype, %dest, %sendtag, %recvbuf,
    %recvcount, %recvtype, %source, %recvtag, %comm, %status`: MPI_Sendrecv."""

    name = "ompi.sendrecv"
    sendbuf = _ptr()
    sendcount = _int()
    sendtype = _ptr()
    dest = _int()
    sendtag = _int()
    recvbuf = _ptr()
    recvcount = _int()
    recvtype = _ptr()
    source = _int()
    recvtag = _int()
    comm = _ptr()
    status = _ptr()


@_call("MPI_Sendrecv_replace", sent=(("buf", "datatype"),), received=(("buf", "datatype"),), writes=("status",))
class SendrecvReplaceOp(MPICallOp):
    """`%e = ompi.sendrecv_replace %buf, %count, %datatype, %dest, %sendtag, %source, %recvtag,
    %comm, %status`: MPI_Sendrecv_replace (sends the buffer, then receives into it)."""

    name = "ompi.sendrecv_replace"
    buf = _ptr()
    count = _int()
    datatype = _ptr()
    dest = _int()
    sendtag = _int()
    source = _int()
    recvtag = _int()
    comm = _ptr()
    status = _ptr()


class _NonBlocking(MPICallOp):
    buf = _ptr()
    count = _int()
    datatype = _ptr()
    peer = _int()
    tag = _int()
    comm = _ptr()
    request = _ptr()


@_call("MPI_Isend", sent=(("buf", "datatype"),), writes=("request",), request_slots=("request",))
class IsendOp(_NonBlocking):
    """`%e = ompi.isend %buf, %count, %datatype, %dest, %tag, %comm, %request`: MPI_Isend (the
    request handle is written into the slot `%request`)."""

    name = "ompi.isend"


@_call("MPI_Issend", sent=(("buf", "datatype"),), writes=("request",), request_slots=("request",))
class IssendOp(_NonBlocking):
    """`%e = ompi.issend %buf, %count, %datatype, %dest, %tag, %comm, %request`: MPI_Issend."""

    name = "ompi.issend"


@_call("MPI_Irecv", received=(("buf", "datatype"),), writes=("request",), request_slots=("request",))
class IrecvOp(_NonBlocking):
    """`%e = ompi.irecv %buf, %count, %datatype, %source, %tag, %comm, %request`: MPI_Irecv
    (the buffer is written by the time a wait completes the request)."""

    name = "ompi.irecv"


@_call("MPI_Wait", writes=("request", "status"))
class WaitOp(MPICallOp):
    """`%e = ompi.wait %request, %status`: MPI_Wait."""

    name = "ompi.wait"
    request = _ptr()
    status = _ptr()


@_call("MPI_Waitall", writes=("requests", "statuses"))
class WaitallOp(MPICallOp):
    """`%e = ompi.waitall %count, %requests, %statuses`: MPI_Waitall (`%statuses` null:
    MPI_STATUSES_IGNORE)."""

    name = "ompi.waitall"
    count = _int()
    requests = _ptr()
    statuses = _ptr()


@_call("MPI_Test", writes=("request", "flag", "status"))
class TestOp(MPICallOp):
    """`%e = ompi.test %request, %flag, %status`: MPI_Test (`*flag` set to whether the request
    completed)."""

    name = "ompi.test"
    request = _ptr()
    flag = _ptr()
    status = _ptr()


@_call("MPI_Barrier")
class BarrierOp(MPICallOp):
    """`%e = ompi.barrier %comm`: MPI_Barrier."""

    name = "ompi.barrier"
    comm = _ptr()


@_call("MPI_Bcast", sent=(("buf", "datatype"),), received=(("buf", "datatype"),))
class BcastOp(MPICallOp):
    """`%e = ompi.bcast %buf, %count, %datatype, %root, %comm`: MPI_Bcast (the root's buffer to
    every rank's)."""

    name = "ompi.bcast"
    buf = _ptr()
    count = _int()
    datatype = _ptr()
    root = _int()
    comm = _ptr()


@_call("MPI_Reduce", sent=(("sendbuf", "datatype"),), received=(("recvbuf", "datatype"),))
class ReduceOp(MPICallOp):
    """`%e = ompi.reduce %sendbuf, %recvbuf, %count, %datatype, %op, %root, %comm`: MPI_Reduce
    (`%sendbuf` MPI_IN_PLACE on the root: its contribution is in `%recvbuf`)."""

    name = "ompi.reduce"
    sendbuf = _ptr()
    recvbuf = _ptr()
    count = _int()
    datatype = _ptr()
    op = _ptr()
    root = _int()
    comm = _ptr()


@_call("MPI_Allreduce", sent=(("sendbuf", "datatype"),), received=(("recvbuf", "datatype"),))
class AllreduceOp(MPICallOp):
    """`%e = ompi.allreduce %sendbuf, %recvbuf, %count, %datatype, %op, %comm`: MPI_Allreduce."""

    name = "ompi.allreduce"
    sendbuf = _ptr()
    recvbuf = _ptr()
    count = _int()
    datatype = _ptr()
    op = _ptr()
    comm = _ptr()


@_call("MPI_Reduce_scatter_block", sent=(("sendbuf", "datatype"),), received=(("recvbuf", "datatype"),))
class ReduceScatterBlockOp(MPICallOp):
    """`%e = ompi.reduce_scatter_block %sendbuf, %recvbuf, %recvcount, %datatype, %op, %comm`:
    MPI_Reduce_scatter_block (block k of the reduction to rank k)."""

    name = "ompi.reduce_scatter_block"
    sendbuf = _ptr()
    recvbuf = _ptr()
    recvcount = _int()
    datatype = _ptr()
    op = _ptr()
    comm = _ptr()


class _Rooted(MPICallOp):
    sendbuf = _ptr()
    sendcount = _int()
    sendtype = _ptr()
    recvbuf = _ptr()
    recvcount = _int()
    recvtype = _ptr()
    root = _int()
    comm = _ptr()


class _Everyone(MPICallOp):
    sendbuf = _ptr()
    sendcount = _int()
    sendtype = _ptr()
    recvbuf = _ptr()
    recvcount = _int()
    recvtype = _ptr()
    comm = _ptr()


_GATHERING = {"sent": (("sendbuf", "sendtype"),), "received": (("recvbuf", "recvtype"),)}


@_call("MPI_Gather", **_GATHERING)
class GatherOp(_Rooted):
    """`%e = ompi.gather %sendbuf, %sendcount, %sendtype, %recvbuf, %recvcount, %recvtype,
    %root, %comm`: MPI_Gather."""

    name = "ompi.gather"


@_call("MPI_Scatter", **_GATHERING)
class ScatterOp(_Rooted):
    """`%e = ompi.scatter %sendbuf, %sendcount, %sendtype, %recvbuf, %recvcount, %recvtype,
    %root, %comm`: MPI_Scatter."""

    name = "ompi.scatter"


@_call("MPI_Allgather", **_GATHERING)
class AllgatherOp(_Everyone):
    """`%e = ompi.allgather %sendbuf, %sendcount, %sendtype, %recvbuf, %recvcount, %recvtype,
    %comm`: MPI_Allgather."""

    name = "ompi.allgather"


@_call("MPI_Alltoall", **_GATHERING)
class AlltoallOp(_Everyone):
    """`%e = ompi.alltoall %sendbuf, %sendcount, %sendtype, %recvbuf, %recvcount, %recvtype,
    %comm`: MPI_Alltoall."""

    name = "ompi.alltoall"


CALL_OPS: dict[str, type[MPICallOp]] = {}
"""The op of each MPI function that has one (`MPI_Send` -> SendOp), filled below."""

# ---------------------------------------------------------------------------------------------
# Any other MPI function
# ---------------------------------------------------------------------------------------------

WRITTEN_OPERANDS: dict[str, tuple[int, ...]] = {
    "MPI_Comm_rank": (1,), "MPI_Comm_size": (1,), "MPI_Wtime": (), "MPI_Wtick": (),
    "MPI_Initialized": (0,), "MPI_Finalized": (0,), "MPI_Get_processor_name": (0, 1),
    "MPI_Type_size": (1,), "MPI_Get_count": (2,), "MPI_Query_thread": (0,),
}  # fmt: skip
"""What functions kept as `ompi.call` write, where that is known (operand indices); others
may write anything."""


@irdl_op_definition
class CallOp(IRDLOperation):
    """`%r = ompi.call @MPI_Comm_rank(%comm, %p) : (!llvm.ptr, !llvm.ptr) -> i32`: an MPI
    function that has no op of its own -- the inactive ones (MPI_Comm_rank, MPI_Wtime, ...),
    MPI_Init and MPI_Finalize, and those with no derivative rule, which are an error in
    differentiated code."""

    name = "ompi.call"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    res = opt_result_def()
    traits = traits_def(_Effects())

    def __init__(self, callee: str, args: Sequence[SSAValue | Operation], result: Attribute | None):
        super().__init__(
            operands=[list(args)],
            result_types=[[result] if result is not None else []],
            properties={"callee": SymbolRefAttr(callee)},
        )

    def function(self) -> str:
        return self.callee.string_value()

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : (")
        printer.print_list([a.type for a in self.args], printer.print_attribute)
        printer.print_string(") -> ")
        if self.res is not None:
            printer.print_attribute(self.res.type)
        else:
            printer.print_string("()")

    @classmethod
    def parse(cls, parser: Parser) -> CallOp:
        callee = parser.parse_symbol_name().data
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        result = None
        if parser.parse_optional_punctuation("(") is not None:
            parser.parse_punctuation(")")
        else:
            result = parser.parse_type()
        op = cls(callee, parser.resolve_operands(names, types, parser.pos), result)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        name = self.function()
        if not name.startswith(("MPI_", "PMPI_")):
            raise VerifyException(f"ompi.call calls MPI functions, not @{name}")
        if name in CALL_OPS:
            raise VerifyException(f"@{name} has an op of its own: {CALL_OPS[name].name}")

    def effects(self) -> set[EffectInstance] | None:
        written = WRITTEN_OPERANDS.get(self.function())
        if written is None:
            return {EffectInstance(MemoryEffectKind.WRITE)}  # anything
        return _on(MemoryEffectKind.WRITE, [self.args[i] for i in written])


# ---------------------------------------------------------------------------------------------
# What derivative rules emit
# ---------------------------------------------------------------------------------------------


def _float_elem(parser: Parser) -> Attribute:
    t = parser.parse_type()
    if not isinstance(t, Float32Type | Float64Type):
        parser.raise_error(f"expected f32 or f64, got {t}")
    return t


def _check_elem(t: Attribute) -> None:
    if not isinstance(t, Float32Type | Float64Type):
        raise VerifyException(f"the element type must be f32 or f64, got {t}")


def _print_kind_operands(printer: Printer, op: IRDLOperation, kind: StringAttr, elem: Attribute) -> None:
    """The syntax `KIND %a, %b, ... attr-dict : elem` shared by the ops that name a variant."""
    printer.print_string(f" {kind.data} ")
    printer.print_list(op.operands, printer.print_ssa_value)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(elem)


def _parse_kind_operands(
    parser: Parser, kinds: tuple[str, ...], types: list[Attribute]
) -> tuple[str, list[SSAValue], dict[str, Attribute], Attribute]:
    """Parse `KIND %a, %b, ... attr-dict : elem`, one operand per entry of `types`."""
    kind = parser.parse_optional_keyword_in(kinds)
    if kind is None:
        parser.raise_error(f"expected {' or '.join(kinds)}")
    names = [parser.parse_unresolved_operand()]
    for _ in types[1:]:
        parser.parse_punctuation(",")
        names.append(parser.parse_unresolved_operand())
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    elem = _float_elem(parser)
    return kind, [parser.resolve_operand(n, t) for n, t in zip(names, types, strict=True)], attrs, elem


@irdl_op_definition
class AccumulateOp(IRDLOperation):
    """`ompi.accumulate %dst, %src, %count : f64`: `dst[k] += src[k]` for `k < count`; with
    `mask %m` only where the byte `m[k]` is 1 (the elements this rank owns)."""

    name = "ompi.accumulate"

    dst = operand_def(_PTR)
    src = operand_def(_PTR)
    count = operand_def(i32)
    mask = opt_operand_def(_PTR)
    elem = prop_def(Attribute)
    traits = traits_def(_Effects())

    def __init__(self, dst: SSAValue, src: SSAValue, count: SSAValue, elem: Attribute, mask: SSAValue | None = None):
        super().__init__(operands=[dst, src, count, [mask] if mask is not None else []], properties={"elem": elem})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list([self.dst, self.src, self.count], printer.print_ssa_value)
        if self.mask is not None:
            printer.print_string(" mask ")
            printer.print_ssa_value(self.mask)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.elem)

    @classmethod
    def parse(cls, parser: Parser) -> AccumulateOp:
        dst = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        src = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        count = parser.parse_unresolved_operand()
        mask = parser.parse_unresolved_operand() if parser.parse_optional_keyword("mask") is not None else None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        elem = _float_elem(parser)
        op = cls(parser.resolve_operand(dst, _PTR), parser.resolve_operand(src, _PTR),
                 parser.resolve_operand(count, i32), elem,
                 parser.resolve_operand(mask, _PTR) if mask is not None else None)  # fmt: skip
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        _check_elem(self.elem)

    def effects(self) -> set[EffectInstance]:
        reads = [self.dst, self.src, *([self.mask] if self.mask is not None else [])]
        return _on(MemoryEffectKind.READ, reads) | _on(MemoryEffectKind.WRITE, [self.dst])


REQUEST_KINDS = ("isend", "irecv")


@irdl_op_definition
class RequestRecordOp(IRDLOperation):
    """`ompi.request_record isend %dreq, %dbuf, %count, %datatype, %peer, %tag, %comm : f64`:
    keep, in the shadow `%dreq` of a request slot, a record of a non-blocking float message for
    its reverse (the message's kind, the shadow of its buffer -- null when the buffer has none
    --, count, datatype, peer, tag and communicator); the record links to what the slot held
    before, which `request_finish` restores."""

    name = "ompi.request_record"

    kind = prop_def(StringAttr)
    dreq = operand_def(_PTR)
    dbuf = operand_def(_PTR)
    count = operand_def(i32)
    datatype = operand_def(_PTR)
    peer = operand_def(i32)
    tag = operand_def(i32)
    comm = operand_def(_PTR)
    elem = prop_def(Attribute)
    traits = traits_def(_Effects())

    def __init__(self, kind: str, dreq: SSAValue, dbuf: SSAValue, count: SSAValue, datatype: SSAValue,
                 peer: SSAValue, tag: SSAValue, comm: SSAValue, elem: Attribute):  # fmt: skip
        super().__init__(operands=[dreq, dbuf, count, datatype, peer, tag, comm],
                         properties={"kind": StringAttr(kind), "elem": elem})  # fmt: skip

    def print(self, printer: Printer) -> None:
        _print_kind_operands(printer, self, self.kind, self.elem)

    @classmethod
    def parse(cls, parser: Parser) -> RequestRecordOp:
        kind, operands, attrs, elem = _parse_kind_operands(
            parser, REQUEST_KINDS, [_PTR, _PTR, i32, _PTR, i32, i32, _PTR]
        )
        op = cls(kind, *operands, elem)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        if self.kind.data not in REQUEST_KINDS:
            raise VerifyException(f"unknown request kind '{self.kind.data}' (expected isend or irecv)")
        _check_elem(self.elem)

    def effects(self) -> set[EffectInstance]:
        return _on(MemoryEffectKind.READ, [self.dreq]) | _on(MemoryEffectKind.WRITE, [self.dreq])


@irdl_op_definition
class RequestStartOp(IRDLOperation):
    """`ompi.request_start %dreqs, %n`: the reverse of waiting for the `%n` requests whose
    shadows are at `%dreqs`: for each record there not started yet, start the opposite
    non-blocking operation (receive the adjoint of an `isend`'s buffer, send the adjoint of an
    `irecv`'s).  A slot without a record (an integer message, MPI_REQUEST_NULL) is skipped."""

    name = "ompi.request_start"

    dreqs = operand_def(_PTR)
    n = operand_def(i32)
    traits = traits_def(_Effects())
    assembly_format = "$dreqs `,` $n attr-dict"

    def __init__(self, dreqs: SSAValue, n: SSAValue):
        super().__init__(operands=[dreqs, n])

    def effects(self) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.WRITE)}


@irdl_op_definition
class RequestFinishOp(IRDLOperation):
    """`ompi.request_finish %dreq`: the reverse of the `isend`/`irecv` whose record is in the
    shadow `%dreq`: wait for the opposite operation (starting it first if no wait started it),
    add the adjoint received into the buffer's shadow (`isend`) or clear the shadow (`irecv`),
    put back what the slot held before, free the record."""

    name = "ompi.request_finish"

    dreq = operand_def(_PTR)
    traits = traits_def(_Effects())
    assembly_format = "$dreq attr-dict"

    def __init__(self, dreq: SSAValue):
        super().__init__(operands=[dreq])

    def effects(self) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.WRITE)}


EXTREMA = ("max", "min")


@irdl_op_definition
class OwnersOp(IRDLOperation):
    """`%m = ompi.owners max %x, %count, %datatype, %comm : f64`: which elements of a max (min)
    reduction of the `%x` of every rank this rank supplies -- the lowest rank holding the
    extremum: a malloc'd array of `%count` bytes, 1 where this rank is the owner.  Collective:
    every rank of `%comm` calls it."""

    name = "ompi.owners"

    kind = prop_def(StringAttr)
    x = operand_def(_PTR)
    count = operand_def(i32)
    datatype = operand_def(_PTR)
    comm = operand_def(_PTR)
    elem = prop_def(Attribute)
    mask = result_def(_PTR)
    traits = traits_def(_Effects())

    def __init__(self, kind: str, x: SSAValue, count: SSAValue, datatype: SSAValue, comm: SSAValue, elem: Attribute):
        super().__init__(operands=[x, count, datatype, comm], result_types=[_PTR],
                         properties={"kind": StringAttr(kind), "elem": elem})  # fmt: skip

    def print(self, printer: Printer) -> None:
        _print_kind_operands(printer, self, self.kind, self.elem)

    @classmethod
    def parse(cls, parser: Parser) -> OwnersOp:
        kind, operands, attrs, elem = _parse_kind_operands(parser, EXTREMA, [_PTR, i32, _PTR, _PTR])
        op = cls(kind, *operands, elem)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        if self.kind.data not in EXTREMA:
            raise VerifyException(f"unknown extremum '{self.kind.data}' (expected max or min)")
        _check_elem(self.elem)

    def effects(self) -> set[EffectInstance]:
        return (_on(MemoryEffectKind.READ, [self.x]) | _on(MemoryEffectKind.WRITE, [self.comm])
                | {EffectInstance(MemoryEffectKind.ALLOC, self.mask)})  # fmt: skip


class _Query(IRDLOperation):
    comm = operand_def(_PTR)
    res = result_def(i32)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$comm attr-dict"

    def __init__(self, comm: SSAValue):
        super().__init__(operands=[comm], result_types=[i32])


@irdl_op_definition
class RankOp(_Query):
    """`%r = ompi.rank %comm`: this process's rank in `%comm` (MPI_Comm_rank, as a value)."""

    name = "ompi.rank"


@irdl_op_definition
class SizeOp(_Query):
    """`%n = ompi.size %comm`: the number of processes in `%comm` (MPI_Comm_size, as a value)."""

    name = "ompi.size"


@irdl_op_definition
class TapePushOp(IRDLOperation):
    """`ompi.tape_push %p`: keep pointer `%p` for the reverse sweep (last in, first out)."""

    name = "ompi.tape_push"

    value = operand_def(_PTR)
    traits = traits_def(_Effects())
    assembly_format = "$value attr-dict"

    def __init__(self, value: SSAValue):
        super().__init__(operands=[value])

    def effects(self) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.WRITE, SymbolRefAttr("xenzyme.mpi.tape"))}


@irdl_op_definition
class TapePopOp(IRDLOperation):
    """`%p = ompi.tape_pop`: the pointer pushed last (and not popped yet)."""

    name = "ompi.tape_pop"

    value = result_def(_PTR)
    traits = traits_def(_Effects())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[_PTR])

    def effects(self) -> set[EffectInstance]:
        return {EffectInstance(MemoryEffectKind.WRITE, SymbolRefAttr("xenzyme.mpi.tape"))}


_CALLS = [
    SendOp, SsendOp, BsendOp, RsendOp, RecvOp, SendrecvOp, SendrecvReplaceOp, IsendOp, IssendOp, IrecvOp,
    WaitOp, WaitallOp, TestOp, BarrierOp, BcastOp, ReduceOp, AllreduceOp, ReduceScatterBlockOp, GatherOp,
    ScatterOp, AllgatherOp, AlltoallOp,
]  # fmt: skip
CALL_OPS.update({cls.FUNCTION: cls for cls in _CALLS})

_DERIVATIVE_OPS = [
    AccumulateOp, RequestRecordOp, RequestStartOp, RequestFinishOp, OwnersOp, RankOp, SizeOp, TapePushOp, TapePopOp,
]
OMPI = Dialect("ompi", [*_CALLS, CallOp, *_DERIVATIVE_OPS], [])
