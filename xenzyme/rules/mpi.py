"""Derivative rules for MPI calls (the `ompi` dialect, xenzyme/dialects/mpi.py).

Enzyme's convention, which programs written for it rely on: every rank differentiates its own
part (each calls `__enzyme_autodiff`), and each return value is seeded with 1.0, so the shadows
receive the derivative of the *sum over ranks* of the returned values.  A message carries data
from one rank's memory to another's; its derivative travels the other way in reverse mode, and
with it in forward mode:

    op                      reverse sweep (adjoints: d(buf) is the shadow of buf)
    send(x -> p)            receive from p into a temporary, d(x) += it
    recv(y <- p)            send d(y) back to p, d(y) = 0
    sendrecv, _replace      one sendrecv of the adjoints the other way (an inactive half goes to
                            MPI_PROC_NULL, so the pairing stays the primal's)
    (MPI_PROC_NULL peers: nothing moves, nothing is received, and a buffer received from it
    keeps its adjoint)
    isend / irecv           the forward sweep keeps a record in the shadow of the request slot
                            (`ompi.request_record`); the reverse of the wait (waitall, test)
                            starts the opposite non-blocking operation (`request_start`); the
                            reverse of the isend/irecv waits for it and adds into d(x) or clears
                            d(y) (`request_finish`)
    allreduce sum           t = allreduce(d(y), sum); d(y) = 0; d(x) += t (MPI_IN_PLACE: d(y) = t)
    reduce sum to root      t = bcast(root's d(y)); root: d(y) = 0; d(x) += t
    allreduce/reduce max,   as sum, but only the rank that held the extremum (the lowest such
    min                     rank; `ompi.owners`, computed in the forward sweep and kept on a
                            tape) receives t, element by element
    bcast from root         t = reduce(d(buf), sum) to root; root: d(buf) = t, others 0
    gather / scatter        scatter / gather of the adjoints (MPI_IN_PLACE at the root handled)
    allgather               reduce_scatter_block of the adjoints; reduce_scatter_block (sum) ->
                            allgather; alltoall -> alltoall
    barrier                 barrier

Forward mode sends the tangents with a second message: the same call on the shadows (a temporary
of zeros for a float buffer without one), the tangent request of a non-blocking call kept in the
shadow of its request slot; a max/min reduction sends the owner's tangent (a masked sum).  One
message packing value and tangent would halve the latency of small messages, and costs two
copies of each buffer: measured with a ring of MPI_Sendrecv at 2 and 4 ranks on this project's
2-core machine (benchmarks/c/mpi_tangent_messages.c), packing was about 2x faster up to 128
doubles a message, and 1.3-1.9x slower at 64K doubles (noisy in between, around OpenMPI's 4 KiB
eager limit).  A second message needs no copies, works unchanged for non-blocking calls (whose
packed receive could only be unpacked at the wait) and for receives posted with a larger count
than was sent (where the receiver cannot tell where the tangents start), and is what this file
does.

Activity.  Buffers of MPI_DOUBLE and MPI_FLOAT (and the Fortran names of these types) are
active when their memory is (`ctx.shadowed`); a receive gives its buffer a shadow (the
`ShadowedOperands` the ops declare, read by the activity analyses), since another rank may send
data with derivatives.  A message of floats always has its derivative message -- adjoints of
zero where a buffer has no shadow -- so that what one rank sends the other receives whatever
each rank's activity is.  Integer datatypes are inactive; MPI_BYTE and MPI_PACKED, user-defined
or unknown datatypes are inactive when no buffer is shadowed, an error otherwise; so is a
reduction operator other than sum, max and min, MPI_ANY_SOURCE or MPI_ANY_TAG in a receive
whose derivative travels back, a communicator that is not a predefined one or a value the
function received (MPI_COMM_NULL, an integer handle), and any MPI function without a rule
(`ompi.call`) except those that neither read nor write floating-point data (`INACTIVE_CALLS`).

Not detected: a receive posted with a larger count than the message it gets (the adjoint goes
back with the receive's count, which the sender's reverse does not expect), MPI_ANY_SOURCE or
MPI_ANY_TAG in a variable, and split-mode reverse calls of max/min reductions out of the order
opposite to their forward calls (`ompi.tape_push` keeps one stack per process).  The owners'
masks would be better kept on the gradient's own tape, which rules cannot reach yet.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import StringAttr, i32, i64
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import mpi
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext

_PTR = ext.LLVMPointerType()
PROC_NULL = -2
"""MPI_PROC_NULL in OpenMPI."""

INACTIVE_CALLS = frozenset({
    "MPI_Comm_rank", "MPI_Comm_size", "MPI_Wtime", "MPI_Wtick", "MPI_Initialized", "MPI_Finalized",
    "MPI_Abort", "MPI_Get_processor_name", "MPI_Get_version", "MPI_Get_library_version",
    "MPI_Query_thread", "MPI_Type_size", "MPI_Get_count", "MPI_Error_string", "MPI_Error_class",
    "MPI_Comm_get_name",
})  # fmt: skip
"""MPI functions with nothing to differentiate: they move no floating-point data."""

_OUTSIDE = ("MPI_Init", "MPI_Init_thread", "MPI_Finalize")

# ---- what a call is about ------------------------------------------------------------------


def _function(op: Operation) -> str:
    return op.function()  # type: ignore[attr-defined]


def _message_type(ctx, op: Operation, buffers: Sequence[SSAValue], datatype: SSAValue) -> Attribute | None:
    """The element type (f32, f64) of a message of floats, None for an inactive message; an error
    where the message may move derivatives xenzyme cannot follow."""
    t = mpi.float_type(datatype)
    if t is not None:
        return t
    name = mpi.handle_name(datatype)
    if name in mpi.INTEGER_DATATYPES:
        return None
    shadowed = [b for b in buffers if not mpi.is_in_place(b) and ctx.shadowed(b)]
    if not shadowed:
        return None
    fn = _function(op)
    if name in mpi.BYTE_DATATYPES:
        ctx.fail(op, f"{fn} moves memory that holds derivatives as untyped bytes ({_datatype_name(name)})",
                 ["send floating-point data as MPI_DOUBLE or MPI_FLOAT"])  # fmt: skip
    what = (f"datatype {_datatype_name(name)}" if name is not None
            else "a datatype that is not a predefined one (user-defined, or chosen at run time)")  # fmt: skip
    ctx.fail(op, f"{fn} moves data that carries derivatives with {what}; only MPI_DOUBLE and MPI_FLOAT "
                 "(and integer types) are supported",
             ["send the floating-point fields as MPI_DOUBLE or MPI_FLOAT, or mark the data enzyme_const"])  # fmt: skip


def _datatype_name(name: str | None) -> str:
    if name is None:
        return "?"
    return "MPI_" + name.removeprefix("ompi_mpi_").upper()


def _same_type(ctx, op: Operation, a: Attribute | None, b: Attribute | None) -> Attribute | None:
    if a is not None and b is not None and a != b:
        ctx.fail(op, f"{_function(op)} sends {a} and receives {b}: the datatypes of its two halves differ",
                 ["use the same floating-point datatype on both sides"])  # fmt: skip
    return a or b


def _check_comm(ctx, op: Operation) -> None:
    """The communicator must be one the reverse sweep can use as it is: a predefined one, or a
    value made outside the function (an argument, a load)."""
    comm = op.arg("comm")  # type: ignore[attr-defined]
    seen: set[SSAValue] = set()
    work = [comm]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, BlockArgument):
            if v.block is not ctx.cfg.entry:  # a phi: what flows into it
                work += [ctx.cfg.incoming(v.block, p)[v.index] for p in ctx.cfg.preds[v.block]]
            continue
        owner = v.owner
        if isinstance(owner, xllvm.AddressOfOp):
            name = owner.global_name.string_value()
            if name in mpi.COMMUNICATORS:
                continue
            what = "MPI_COMM_NULL" if name == "ompi_mpi_comm_null" else f"@{name}, which is not an MPI communicator"
            _bad_comm(ctx, op, what)
        if isinstance(owner, ext.SelectOp):
            work += [owner.lhs, owner.rhs]
            continue
        if isinstance(owner, xllvm.LoadOp):
            continue
        _bad_comm(ctx, op, f"a value made by '{owner.name}'")


def _bad_comm(ctx, op: Operation, what: str):
    ctx.fail(op, f"{_function(op)} uses a communicator xenzyme cannot follow ({what})",
             ["use MPI_COMM_WORLD, MPI_COMM_SELF, or a communicator created outside the differentiated "
              "code and passed in (or kept in memory)"])  # fmt: skip


def _check_peer(ctx, op: Operation, names: Sequence[str]) -> None:
    for n in names:
        if mpi.int_constant(op.arg(n)) == mpi.ANY:  # type: ignore[attr-defined]
            which = "MPI_ANY_SOURCE" if "source" in n or n == "peer" else "MPI_ANY_TAG"
            ctx.fail(op, f"{_function(op)} receives from {which}: the derivative must travel back to the "
                         "rank and tag the data came from, which xenzyme needs to know at compile time",
                     ["receive from a named rank with a named tag"])  # fmt: skip


def _reduction_kind(ctx, op: Operation, t: Attribute | None) -> str | None:
    name = mpi.handle_name(op.arg("op"))  # type: ignore[attr-defined]
    kind = mpi.REDUCTION_OPS.get(name) if name is not None else None
    if t is None or kind is not None:
        return kind
    buffers = [op.arg("sendbuf"), op.arg("recvbuf")]  # type: ignore[attr-defined]
    if any(not mpi.is_in_place(b) and ctx.shadowed(b) for b in buffers):
        what = f"MPI_{name.removeprefix('ompi_mpi_op_').upper()}" if name else "a user-defined operator"
        ctx.fail(op, f"{_function(op)} with {what} on floating-point data that carries derivatives is not "
                     "supported (only MPI_SUM, MPI_MAX and MPI_MIN)",
                 ["reduce with MPI_SUM, MPI_MAX or MPI_MIN, or mark the data enzyme_const"])  # fmt: skip
    return None


# ---- building blocks -------------------------------------------------------------------------


def _size(t: Attribute) -> int:
    return 8 if t == mpi.FLOAT_DATATYPES["ompi_mpi_double"] else 4


def _bytes(e, count: SSAValue, t: Attribute) -> SSAValue:
    return e.insert(xllvm.MulOp(e.to_i64(count), e.i64(_size(t))))


def _malloc(e, nbytes: SSAValue, zeroed: bool = False) -> SSAValue:
    if zeroed:
        e.declare("calloc", [i64, i64], _PTR)
        return e.call_function("calloc", [nbytes, e.i64(1)], _PTR)
    e.declare("malloc", [i64], _PTR)
    return e.call_function("malloc", [nbytes], _PTR)


def _free(e, p: SSAValue) -> None:
    e.declare("free", [_PTR])
    e.call_function("free", [p])


def _null(e) -> SSAValue:
    return e.insert(xllvm.ZeroOp.create(result_types=[_PTR]))


def _in_place(e) -> SSAValue:
    return e.insert(xllvm.IntToPtrOp(e.i64(mpi.IN_PLACE)))


def _is_in_place(e, p: SSAValue) -> SSAValue:
    return e.insert(ext.ICmpOp(p, _in_place(e), "eq"))


def _select(e, c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.insert(ext.SelectOp(c, a, b))


def _and(e, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.insert(xllvm.AndOp(a, b))


def _mul(e, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.insert(xllvm.MulOp(a, b))


def _handle(ctx, name: str) -> SSAValue:
    """The address of OpenMPI's global `name` (declared in the module if it is not)."""
    module = ctx.module
    if not any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name for o in module.ops):
        kind = "op" if name.startswith("ompi_mpi_op_") else "request" if "request" in name else "datatype"
        t = ext.LLVMOpaqueStructType(StringAttr(f"struct.ompi_predefined_{kind}_t"))
        module.body.block.add_op(xllvm.GlobalOp(t, name, "external", alignment=1))
    return ctx.e.insert(xllvm.AddressOfOp(name, _PTR))


def _gep(e, p: SSAValue, k: SSAValue, t: Attribute) -> SSAValue:
    return e.insert(ext.GEPOp(p, [ext.GEP_USE_SSA_VAL], t, [k]))


class _Temps:
    """Temporary buffers of one rule application, freed at its end."""

    def __init__(self, e):
        self.e = e
        self.made: list[SSAValue] = []

    def new(self, count: SSAValue, t: Attribute, zeroed: bool) -> SSAValue:
        p = _malloc(self.e, _bytes(self.e, count, t), zeroed)
        self.made.append(p)
        return p

    def free(self) -> None:
        for p in self.made:
            _free(self.e, p)


def _adjoint_buffer(ctx, temps: _Temps, buf: SSAValue, count: SSAValue, t: Attribute) -> tuple[SSAValue, bool]:
    """The shadow of `buf` in the reverse sweep, or zeros when it has none (and whether it is
    the shadow)."""
    if mpi.is_in_place(buf):
        return ctx.get(buf), False
    if ctx.shadowed(buf):
        return ctx.shadow(buf), True
    return temps.new(count, t, zeroed=True), False


def _clear(ctx, p: SSAValue, nbytes: SSAValue) -> None:
    ctx.e.memset_zero(p, nbytes)


def _args(op: Operation, replace: dict[str, SSAValue], get) -> list[SSAValue]:
    """The operands of `op` as `get` gives them, some replaced by name."""
    names = op.operand_names()  # type: ignore[attr-defined]
    return [replace[n] if n in replace else get(v) for n, v in zip(names, op.operands, strict=True)]


def _emit(e, cls: type[mpi.MPICallOp], args: Sequence[SSAValue]) -> None:
    e.insert(cls(*args))


# ---- reverse mode: point to point ------------------------------------------------------------


def _live(e, count: SSAValue, peer: SSAValue) -> SSAValue:
    """`count`, or 0 when the peer is MPI_PROC_NULL (nothing was sent or received)."""
    live = e.insert(ext.ICmpOp(peer, e.i32(PROC_NULL), "ne"))
    return _select(e, live, count, e.i32(0))


def _reverse_send(ctx: ReverseContext, op: Operation) -> None:
    buf = op.arg("buf")  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [buf], op.arg("datatype"))  # type: ignore[attr-defined]
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    count, dest = g(op.arg("count")), g(op.arg("dest"))  # type: ignore[attr-defined]
    temps = _Temps(e)
    tmp = temps.new(count, t, zeroed=False)
    e.insert(mpi.RecvOp(tmp, count, g(op.arg("datatype")), dest, g(op.arg("tag")),  # type: ignore[attr-defined]
                        g(op.arg("comm")), _null(e)))  # type: ignore[attr-defined]  # fmt: skip
    if ctx.shadowed(buf):
        e.insert(mpi.AccumulateOp(ctx.shadow(buf), tmp, _live(e, count, dest), t))
    temps.free()


def _reverse_recv(ctx: ReverseContext, op: Operation) -> None:
    buf = op.arg("buf")  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [buf], op.arg("datatype"))  # type: ignore[attr-defined]
    if t is None:
        return
    _check_comm(ctx, op)
    _check_peer(ctx, op, ["source", "tag"])
    e, g = ctx.e, ctx.get
    count = g(op.arg("count"))  # type: ignore[attr-defined]
    temps = _Temps(e)
    d, is_shadow = _adjoint_buffer(ctx, temps, buf, count, t)
    source = g(op.arg("source"))  # type: ignore[attr-defined]
    e.insert(mpi.SendOp(d, count, g(op.arg("datatype")), source, g(op.arg("tag")), g(op.arg("comm"))))  # type: ignore[attr-defined]
    if is_shadow:  # (a receive from MPI_PROC_NULL left the buffer as it was)
        _clear(ctx, d, _bytes(e, _live(e, count, source), t))
    temps.free()


def _reverse_sendrecv(ctx: ReverseContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    ts = _message_type(ctx, op, [a("sendbuf")], a("sendtype"))
    tr = _message_type(ctx, op, [a("recvbuf")], a("recvtype"))
    if ts is None and tr is None:
        return
    _check_comm(ctx, op)
    if tr is not None:
        _check_peer(ctx, op, ["source", "recvtag"])
    e, g = ctx.e, ctx.get
    temps = _Temps(e)
    proc_null = e.i32(PROC_NULL)
    # The adjoint of what was received goes back to its source; that of what was sent comes back.
    if tr is not None:
        rcount = g(a("recvcount"))
        dr, r_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), rcount, tr)
        send = [dr, rcount, g(a("recvtype")), g(a("source")), g(a("recvtag"))]
    else:
        send = [_null(e), e.i32(0), g(a("recvtype")), proc_null, e.i32(0)]
    if ts is not None:
        scount = g(a("sendcount"))
        tmp = temps.new(scount, ts, zeroed=False)
        recv = [tmp, scount, g(a("sendtype")), g(a("dest")), g(a("sendtag"))]
    else:
        recv = [_null(e), e.i32(0), g(a("sendtype")), proc_null, e.i32(0)]
    e.insert(mpi.SendrecvOp(*send, *recv, g(a("comm")), _null(e)))
    if tr is not None and r_shadow:
        _clear(ctx, dr, _bytes(e, _live(e, rcount, g(a("source"))), tr))
    if ts is not None and ctx.shadowed(a("sendbuf")):
        e.insert(mpi.AccumulateOp(ctx.shadow(a("sendbuf")), tmp, _live(e, scount, g(a("dest"))), ts))
    temps.free()


def _reverse_sendrecv_replace(ctx: ReverseContext, op: Operation) -> None:
    """The buffer is sent to `dest` and replaced by what `source` sends (kept when `source` is
    MPI_PROC_NULL): d(buf) goes back to `source`, and the adjoint of what was sent comes back
    from `dest` into d(buf)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("buf")], a("datatype"))
    if t is None:
        return
    _check_comm(ctx, op)
    _check_peer(ctx, op, ["source", "recvtag"])
    e, g = ctx.e, ctx.get
    count, source, dest = g(a("count")), g(a("source")), g(a("dest"))
    temps = _Temps(e)
    d, is_shadow = _adjoint_buffer(ctx, temps, a("buf"), count, t)
    back = temps.new(count, t, zeroed=False)
    e.insert(mpi.SendrecvOp(d, count, g(a("datatype")), source, g(a("recvtag")),
                            back, count, g(a("datatype")), dest, g(a("sendtag")), g(a("comm")), _null(e)))  # fmt: skip
    if is_shadow:
        _clear(ctx, d, _bytes(e, _live(e, count, source), t))
        e.insert(mpi.AccumulateOp(d, back, _live(e, count, dest), t))
    temps.free()


# ---- reverse mode: non-blocking --------------------------------------------------------------


def _augment_nonblocking(ctx: AugmentContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("buf")], a("datatype"))
    if t is None:
        return
    _check_comm(ctx, op)
    if isinstance(op, mpi.IrecvOp):
        _check_peer(ctx, op, ["peer", "tag"])
    req = a("request")
    if not ctx.shadowed(req):
        ctx.fail(op, f"the request of this {_function(op)} is kept in memory without a shadow, where its "
                     "derivative keeps what the reverse sweep needs",
                 ["keep MPI_Request variables in the differentiated function, or pass their array with a "
                  "shadow (enzyme_dup)"])  # fmt: skip
    e, f = ctx.e, ctx.fwd
    dbuf = ctx.fwd_shadow(a("buf")) if ctx.shadowed(a("buf")) else _null(e)
    kind = "irecv" if isinstance(op, mpi.IrecvOp) else "isend"
    e.insert(mpi.RequestRecordOp(kind, ctx.fwd_shadow(req), dbuf, f(a("count")), f(a("datatype")),
                                 f(a("peer")), f(a("tag")), f(a("comm")), t))  # fmt: skip


def _reverse_nonblocking(ctx: ReverseContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    if mpi.float_type(a("datatype")) is None or not ctx.shadowed(a("request")):
        return
    ctx.e.insert(mpi.RequestFinishOp(ctx.shadow(a("request"))))


def _reverse_wait(ctx: ReverseContext, op: Operation) -> None:
    req = op.arg("request")  # type: ignore[attr-defined]
    if ctx.shadowed(req):
        ctx.e.insert(mpi.RequestStartOp(ctx.shadow(req), ctx.e.i32(1)))


def _reverse_waitall(ctx: ReverseContext, op: Operation) -> None:
    reqs = op.arg("requests")  # type: ignore[attr-defined]
    if ctx.shadowed(reqs):
        ctx.e.insert(mpi.RequestStartOp(ctx.shadow(reqs), ctx.get(op.arg("count"))))  # type: ignore[attr-defined]


def _reverse_barrier(ctx: ReverseContext, op: Operation) -> None:
    _check_comm(ctx, op)
    ctx.e.insert(mpi.BarrierOp(ctx.get(op.arg("comm"))))  # type: ignore[attr-defined]


# ---- reverse mode: collectives -------------------------------------------------------------


def _reverse_bcast(ctx: ReverseContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("buf")], a("datatype"))
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    count = g(a("count"))
    temps = _Temps(e)
    d, is_shadow = _adjoint_buffer(ctx, temps, a("buf"), count, t)
    total = temps.new(count, t, zeroed=True)  # the root's sum; zero elsewhere
    e.insert(mpi.ReduceOp(d, total, count, g(a("datatype")), _handle(ctx, "ompi_mpi_op_sum"), g(a("root")), g(a("comm"))))
    if is_shadow:
        e.insert(ext.MemcpyOp([d, total, _bytes(e, count, t)]))
    temps.free()


def _rank(ctx, op: Operation) -> SSAValue:
    return ctx.e.insert(mpi.RankOp(ctx.get(op.arg("comm"))))  # type: ignore[attr-defined]


def _targets(ctx, e, x: SSAValue, y: SSAValue, in_place: SSAValue, count: SSAValue,
             at_y: SSAValue | None = None) -> list[tuple[SSAValue, SSAValue]]:  # fmt: skip
    """Where the adjoint of the input goes: d(x), or with MPI_IN_PLACE d(y) (at `at_y` in it);
    (pointer, count) pairs, the count zero for the one not taken."""
    zero = e.i32(0)
    out = []
    if not mpi.is_in_place(x) and ctx.shadowed(x):
        out.append((ctx.shadow(x), _select(e, in_place, zero, count)))
    if ctx.shadowed(y):
        dy = ctx.shadow(y) if at_y is None else at_y
        out.append((dy, _select(e, in_place, count, zero)))
    return out


def _augment_reduction(ctx: AugmentContext, op: Operation) -> None:
    """max/min: which elements this rank supplies, before the call (MPI_IN_PLACE overwrites
    them), kept for the reverse sweep."""
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("sendbuf"), a("recvbuf")], a("datatype"))
    kind = _reduction_kind(ctx, op, t)
    if t is not None and kind in mpi.EXTREMA:
        _check_comm(ctx, op)
        e, f = ctx.e, ctx.fwd
        x = _select(e, _is_in_place(e, f(a("sendbuf"))), f(a("recvbuf")), f(a("sendbuf")))
        mask = e.insert(mpi.OwnersOp(kind, x, f(a("count")), f(a("datatype")), f(a("comm")), t))
        e.insert(mpi.TapePushOp(mask))
    ctx.copy(op)


def _reverse_reduction(ctx: ReverseContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("sendbuf"), a("recvbuf")], a("datatype"))
    kind = _reduction_kind(ctx, op, t)
    if t is None or kind is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    count, dt = g(a("count")), g(a("datatype"))
    mask = e.insert(mpi.TapePopOp()) if kind in mpi.EXTREMA else None
    temps = _Temps(e)
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), count, t)
    in_place = _is_in_place(e, g(a("sendbuf")))
    total = temps.new(count, t, zeroed=False)
    nbytes = _bytes(e, count, t)
    if isinstance(op, mpi.AllreduceOp):
        e.insert(mpi.AllreduceOp(dy, total, count, dt, _handle(ctx, "ompi_mpi_op_sum"), g(a("comm"))))
        if y_shadow:
            _clear(ctx, dy, nbytes)
    else:  # reduce: the root's adjoint to every rank
        is_root = e.insert(ext.ICmpOp(_rank(ctx, op), g(a("root")), "eq"))
        e.insert(ext.MemcpyOp([total, dy, _select(e, is_root, nbytes, e.i64(0))]))
        e.insert(mpi.BcastOp(total, count, dt, g(a("root")), g(a("comm"))))
        if y_shadow:
            _clear(ctx, dy, _select(e, is_root, nbytes, e.i64(0)))
    for dst, n in _targets(ctx, e, a("sendbuf"), a("recvbuf"), in_place, count):
        e.insert(mpi.AccumulateOp(dst, total, n, t, mask))
    temps.free()
    if mask is not None:
        _free(e, mask)


def _reverse_reduce_scatter_block(ctx: ReverseContext, op: Operation) -> None:
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("sendbuf"), a("recvbuf")], a("datatype"))
    kind = _reduction_kind(ctx, op, t)
    if t is None:
        return
    if kind != "sum" and any(not mpi.is_in_place(b) and ctx.shadowed(b) for b in (a("sendbuf"), a("recvbuf"))):
        ctx.fail(op, "MPI_Reduce_scatter_block with MPI_MAX or MPI_MIN on data that carries derivatives is "
                     "not supported", ["reduce with MPI_SUM"])  # fmt: skip
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    rcount, dt = g(a("recvcount")), g(a("datatype"))
    size = e.insert(mpi.SizeOp(g(a("comm"))))
    all_count = _mul(e, rcount, size)
    temps = _Temps(e)
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), all_count, t)
    in_place = _is_in_place(e, g(a("sendbuf")))
    gathered = temps.new(all_count, t, zeroed=False)
    e.insert(mpi.AllgatherOp(dy, rcount, dt, gathered, rcount, dt, g(a("comm"))))
    if y_shadow:  # in place the whole buffer was the input; otherwise its first block the result
        _clear(ctx, dy, _bytes(e, _select(e, in_place, all_count, rcount), t))
    for dst, n in _targets(ctx, e, a("sendbuf"), a("recvbuf"), in_place, all_count):
        e.insert(mpi.AccumulateOp(dst, gathered, n, t))
    temps.free()


def _gathering_types(ctx, op: Operation) -> Attribute | None:
    a = op.arg  # type: ignore[attr-defined]
    ts = None if mpi.is_in_place(a("sendbuf")) else _message_type(ctx, op, [a("sendbuf")], a("sendtype"))
    tr = None if mpi.is_in_place(a("recvbuf")) else _message_type(ctx, op, [a("recvbuf")], a("recvtype"))
    return _same_type(ctx, op, ts, tr)


def _reverse_gather(ctx: ReverseContext, op: Operation) -> None:
    """y_root[r] = x_r: scatter the root's d(y) back (the root's own part stays where it was
    with MPI_IN_PLACE)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _gathering_types(ctx, op)
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    comm, root = g(a("comm")), g(a("root"))
    rcount, rtype = g(a("recvcount")), g(a("recvtype"))
    in_place = _is_in_place(e, g(a("sendbuf")))
    own_count = _select(e, in_place, rcount, g(a("sendcount")))
    own_type = _select(e, in_place, rtype, g(a("sendtype")))
    size = e.insert(mpi.SizeOp(comm))
    rank = e.insert(mpi.RankOp(comm))
    is_root = e.insert(ext.ICmpOp(rank, root, "eq"))
    temps = _Temps(e)
    all_count = _mul(e, rcount, size)
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), all_count, t)
    mine = temps.new(own_count, t, zeroed=False)
    e.insert(mpi.ScatterOp(dy, rcount, rtype, mine, own_count, own_type, root, comm))
    if y_shadow:
        _clear(ctx, dy, _select(e, is_root, _bytes(e, all_count, t), e.i64(0)))
    own_slot = _gep(e, dy, e.to_i64(_mul(e, rank, rcount)), t) if y_shadow else None
    for dst, n in _targets(ctx, e, a("sendbuf"), a("recvbuf"), in_place, own_count, own_slot):
        e.insert(mpi.AccumulateOp(dst, mine, n, t))
    temps.free()


def _reverse_scatter(ctx: ReverseContext, op: Operation) -> None:
    """y_r = x_root[r]: gather the d(y) of every rank to the root's d(x)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _gathering_types(ctx, op)
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    comm, root = g(a("comm")), g(a("root"))
    scount = g(a("sendcount"))
    size = e.insert(mpi.SizeOp(comm))
    is_root = e.insert(ext.ICmpOp(e.insert(mpi.RankOp(comm)), root, "eq"))
    in_place = _is_in_place(e, g(a("recvbuf")))
    temps = _Temps(e)
    all_count = _mul(e, scount, size)
    gathered = temps.new(all_count, t, zeroed=True)  # the root's own part stays 0 with MPI_IN_PLACE
    rcount = g(a("recvcount"))
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), rcount, t)
    e.insert(mpi.GatherOp(_select(e, in_place, _in_place(e), dy), rcount, g(a("recvtype")), gathered, scount,
                          g(a("sendtype")), root, comm))  # fmt: skip
    if y_shadow:
        _clear(ctx, dy, _bytes(e, rcount, t))
    if ctx.shadowed(a("sendbuf")):
        e.insert(mpi.AccumulateOp(ctx.shadow(a("sendbuf")), gathered, _select(e, is_root, all_count, e.i32(0)), t))
    temps.free()


def _reverse_allgather(ctx: ReverseContext, op: Operation) -> None:
    """y[q] = x_q on every rank: d(x_r) += sum over ranks of d(y)[r] (reduce_scatter_block)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _gathering_types(ctx, op)
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    comm = g(a("comm"))
    rcount, rtype = g(a("recvcount")), g(a("recvtype"))
    in_place = _is_in_place(e, g(a("sendbuf")))
    size = e.insert(mpi.SizeOp(comm))
    rank = e.insert(mpi.RankOp(comm))
    temps = _Temps(e)
    all_count = _mul(e, rcount, size)
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), all_count, t)
    mine = temps.new(rcount, t, zeroed=False)
    e.insert(mpi.ReduceScatterBlockOp(dy, mine, rcount, rtype, _handle(ctx, "ompi_mpi_op_sum"), comm))
    if y_shadow:
        _clear(ctx, dy, _bytes(e, all_count, t))
    own_slot = _gep(e, dy, e.to_i64(_mul(e, rank, rcount)), t) if y_shadow else None
    for dst, n in _targets(ctx, e, a("sendbuf"), a("recvbuf"), in_place, rcount, own_slot):
        e.insert(mpi.AccumulateOp(dst, mine, n, t))
    temps.free()


def _reverse_alltoall(ctx: ReverseContext, op: Operation) -> None:
    """y_r[q] = x_q[r]: the adjoints go back by the same exchange."""
    a = op.arg  # type: ignore[attr-defined]
    t = _gathering_types(ctx, op)
    if t is None:
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    comm = g(a("comm"))
    rcount, rtype = g(a("recvcount")), g(a("recvtype"))
    in_place = _is_in_place(e, g(a("sendbuf")))
    scount = _select(e, in_place, rcount, g(a("sendcount")))
    stype = _select(e, in_place, rtype, g(a("sendtype")))
    size = e.insert(mpi.SizeOp(comm))
    temps = _Temps(e)
    dy, y_shadow = _adjoint_buffer(ctx, temps, a("recvbuf"), _mul(e, rcount, size), t)
    back = temps.new(_mul(e, scount, size), t, zeroed=False)
    e.insert(mpi.AlltoallOp(dy, rcount, rtype, back, scount, stype, comm))
    if y_shadow:
        _clear(ctx, dy, _bytes(e, _mul(e, rcount, size), t))
    for dst, n in _targets(ctx, e, a("sendbuf"), a("recvbuf"), in_place, _mul(e, scount, size)):
        e.insert(mpi.AccumulateOp(dst, back, n, t))
    temps.free()


# ---- other MPI functions ---------------------------------------------------------------------


def _unsupported(ctx, op: Operation) -> None:
    name = _function(op)
    if name in INACTIVE_CALLS:
        return
    if name in _OUTSIDE:
        ctx.fail(op, f"{name} is called in differentiated code",
                 ["call MPI_Init and MPI_Finalize outside the function whose derivative is taken"])  # fmt: skip
    ctx.fail(op, f"no derivative rule for {name}",
             ["supported: point-to-point (send, recv, sendrecv, isend, irecv, wait, waitall, test), "
              "collectives (barrier, bcast, reduce, allreduce, gather, scatter, allgather, alltoall, "
              "reduce_scatter_block) and inactive queries (MPI_Comm_rank, MPI_Comm_size, MPI_Wtime, ...)",
              "move the call out of the differentiated code"])  # fmt: skip


def _augment_call(ctx: AugmentContext, op: Operation) -> None:
    _unsupported(ctx, op)


def _tangent_call(ctx: ForwardContext, op: Operation) -> None:
    _unsupported(ctx, op)


# ---- forward mode ----------------------------------------------------------------------------


def _tangent_buffers(ctx: ForwardContext, temps: _Temps, buf: SSAValue, count: SSAValue, t: Attribute) -> list[SSAValue]:
    """The `width` shadows of a message buffer: MPI_IN_PLACE stays; a buffer without a shadow
    has zeros (sent) or a scratch buffer (received into)."""
    if mpi.is_in_place(buf):
        return [ctx.get(buf)] * ctx.width
    if ctx.shadowed(buf):
        return ctx.shadows(buf)  # type: ignore[attr-defined]
    z = temps.new(count, t, zeroed=True)
    if isinstance(buf.owner, ext.SelectOp):  # MPI_IN_PLACE on some ranks only
        z = _select(ctx.e, _is_in_place(ctx.e, ctx.get(buf)), ctx.get(buf), z)
    return [z] * ctx.width


def _tangent_repeat(ctx: ForwardContext, op: Operation) -> None:
    """The same call on the tangents (a second message), for every call whose tangent is that
    call on the shadows: point to point, bcast, sums, gathers."""
    a = op.arg  # type: ignore[attr-defined]
    messages = [(b, d) for b, d in op.SENT + op.RECEIVED]  # type: ignore[attr-defined]
    types = [None if mpi.is_in_place(a(b)) else _message_type(ctx, op, [a(b)], a(d)) for b, d in messages]
    t = None
    for u in types:
        t = _same_type(ctx, op, t, u)
    if t is None:
        return
    if "op" in op.operand_names() and _reduction_kind(ctx, op, t) != "sum":  # type: ignore[attr-defined]
        ctx.fail(op, f"{_function(op)} with MPI_MAX or MPI_MIN is not supported in forward mode",
                 ["reduce with MPI_SUM"])  # fmt: skip
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    counts = _counts(ctx, op)
    temps = _Temps(e)
    shadows = {b: _tangent_buffers(ctx, temps, a(b), counts[b], t) for b, _ in messages}
    for k in range(ctx.width):
        replace = {b: s[k] for b, s in shadows.items()}
        if "status" in op.operand_names():  # type: ignore[attr-defined]
            replace["status"] = _null(e)
        e.insert(type(op)(*_args(op, replace, g)))
    temps.free()


def _counts(ctx, op: Operation) -> dict[str, SSAValue]:
    """How many elements each buffer of `op` holds (what a scratch buffer needs)."""
    a, g, e = op.arg, ctx.get, ctx.e  # type: ignore[attr-defined]
    names = op.operand_names()  # type: ignore[attr-defined]
    if "buf" in names:
        return {"buf": g(a("count"))}
    if "sendcount" in names:  # gathers: a buffer of all ranks' parts needs the size of the team
        size = e.insert(mpi.SizeOp(g(a("comm"))))
        whole = {"ompi.gather": "recvbuf", "ompi.allgather": "recvbuf", "ompi.scatter": "sendbuf"}.get(op.name)
        out = {"sendbuf": g(a("sendcount")), "recvbuf": g(a("recvcount"))}
        if op.name == "ompi.alltoall":
            return {b: _mul(e, c, size) for b, c in out.items()}
        if whole is not None:
            out[whole] = _mul(e, out[whole], size)
        return out
    if "recvcount" in names:  # reduce_scatter_block
        size = e.insert(mpi.SizeOp(g(a("comm"))))
        return {"sendbuf": _mul(e, g(a("recvcount")), size), "recvbuf": _mul(e, g(a("recvcount")), size)}
    return {"sendbuf": g(a("count")), "recvbuf": g(a("count"))}


def _tangent_reduction(ctx: ForwardContext, op: Operation) -> None:
    """Sums: the same reduction of the tangents.  max/min: the tangent of the result is the
    owner's tangent, a masked sum (the owners found before the call, which may overwrite x)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("sendbuf"), a("recvbuf")], a("datatype"))
    kind = _reduction_kind(ctx, op, t)
    if t is None or kind not in mpi.EXTREMA:
        ctx.copy(op)
        _tangent_repeat(ctx, op)
        return
    _check_comm(ctx, op)
    e, g = ctx.e, ctx.get
    count, dt, comm = g(a("count")), g(a("datatype")), g(a("comm"))
    in_place = _is_in_place(e, g(a("sendbuf")))
    x = _select(e, in_place, g(a("recvbuf")), g(a("sendbuf")))
    mask = e.insert(mpi.OwnersOp(kind, x, count, dt, comm, t))
    ctx.copy(op)
    temps = _Temps(e)
    dxs = _tangent_buffers(ctx, temps, a("sendbuf"), count, t)
    dys = _tangent_buffers(ctx, temps, a("recvbuf"), count, t)
    total = _handle(ctx, "ompi_mpi_op_sum")
    for dx, dy in zip(dxs, dys, strict=True):
        mine = temps.new(count, t, zeroed=True)
        e.insert(mpi.AccumulateOp(mine, _select(e, in_place, dy, dx), count, t, mask))
        if isinstance(op, mpi.AllreduceOp):
            e.insert(mpi.AllreduceOp(mine, dy, count, dt, total, comm))
        else:
            e.insert(mpi.ReduceOp(mine, dy, count, dt, total, g(a("root")), comm))
    _free(e, mask)
    temps.free()


def _tangent_nonblocking(ctx: ForwardContext, op: Operation) -> None:
    """The tangent's own request is kept in the shadow of the request slot (MPI_REQUEST_NULL
    for a message without derivatives, so that waiting for it does nothing)."""
    a = op.arg  # type: ignore[attr-defined]
    t = _message_type(ctx, op, [a("buf")], a("datatype"))
    req = a("request")
    e, g = ctx.e, ctx.get
    if t is None:
        if ctx.shadowed(req):
            null = _handle(ctx, mpi.REQUEST_NULL)
            for s in ctx.shadows(req):  # type: ignore[attr-defined]
                e.insert(ext.StoreOp(null, s))
        return
    _check_comm(ctx, op)
    if isinstance(op, mpi.IrecvOp):
        _check_peer(ctx, op, ["peer", "tag"])
    if not ctx.shadowed(req) or not ctx.shadowed(a("buf")):
        what = "request" if not ctx.shadowed(req) else "buffer"
        ctx.fail(op, f"the {what} of this {_function(op)} has no shadow, which the tangent message of a "
                     "non-blocking call needs",
                 ["pass the buffer and the MPI_Request array with shadows (enzyme_dup), or keep them in the "
                  "differentiated function"])  # fmt: skip
    for s, r in zip(ctx.shadows(a("buf")), ctx.shadows(req), strict=True):  # type: ignore[attr-defined]
        e.insert(type(op)(*_args(op, {"buf": s, "request": r}, g)))


def _tangent_wait(ctx: ForwardContext, op: Operation) -> None:
    req = op.arg("request")  # type: ignore[attr-defined]
    if ctx.shadowed(req):
        for s in ctx.shadows(req):  # type: ignore[attr-defined]
            ctx.e.insert(mpi.WaitOp(s, _null(ctx.e)))


def _tangent_waitall(ctx: ForwardContext, op: Operation) -> None:
    reqs = op.arg("requests")  # type: ignore[attr-defined]
    if ctx.shadowed(reqs):
        for s in ctx.shadows(reqs):  # type: ignore[attr-defined]
            ctx.e.insert(mpi.WaitallOp(ctx.get(op.arg("count")), s, _null(ctx.e)))  # type: ignore[attr-defined]


def _tangent_test(ctx: ForwardContext, op: Operation) -> None:
    """Done when the value and the tangent messages are: test the tangent's request first,
    then the primal's, and leave the conjunction in the flag."""
    req, flag = op.arg("request"), op.arg("flag")  # type: ignore[attr-defined]
    if not ctx.shadowed(req):
        ctx.copy(op)
        return
    e = ctx.e
    pflag = ctx.get(flag)
    done = None
    for s in ctx.shadows(req):  # type: ignore[attr-defined]
        e.insert(mpi.TestOp(s, pflag, _null(e)))
        f = e.insert(xllvm.LoadOp(pflag, i32))
        done = f if done is None else _and(e, done, f)
    ctx.copy(op)
    assert done is not None
    e.insert(ext.StoreOp(_and(e, done, e.insert(xllvm.LoadOp(pflag, i32))), pflag))


def _copy(ctx: AugmentContext, op: Operation) -> None:
    ctx.copy(op)


# ---- the table -------------------------------------------------------------------------------

_REDUCTION = OpRule(reverse=_reverse_reduction, augment=_augment_reduction, tangent=_tangent_reduction,
                    emits_primal=True)
"""max/min find their owners before the call (an in-place reduction overwrites its input)."""

RULES: dict[type[Operation], OpRule] = {
    mpi.SendOp: OpRule(reverse=_reverse_send, tangent=_tangent_repeat),
    mpi.SsendOp: OpRule(reverse=_reverse_send, tangent=_tangent_repeat),
    mpi.BsendOp: OpRule(reverse=_reverse_send, tangent=_tangent_repeat),
    mpi.RsendOp: OpRule(reverse=_reverse_send, tangent=_tangent_repeat),
    mpi.RecvOp: OpRule(reverse=_reverse_recv, tangent=_tangent_repeat),
    mpi.SendrecvOp: OpRule(reverse=_reverse_sendrecv, tangent=_tangent_repeat),
    mpi.SendrecvReplaceOp: OpRule(reverse=_reverse_sendrecv_replace, tangent=_tangent_repeat),
    mpi.IsendOp: OpRule(reverse=_reverse_nonblocking, augment=_augment_nonblocking, tangent=_tangent_nonblocking),
    mpi.IssendOp: OpRule(reverse=_reverse_nonblocking, augment=_augment_nonblocking, tangent=_tangent_nonblocking),
    mpi.IrecvOp: OpRule(reverse=_reverse_nonblocking, augment=_augment_nonblocking, tangent=_tangent_nonblocking),
    mpi.WaitOp: OpRule(reverse=_reverse_wait, tangent=_tangent_wait),
    mpi.WaitallOp: OpRule(reverse=_reverse_waitall, tangent=_tangent_waitall),
    mpi.TestOp: OpRule(reverse=_reverse_wait, augment=_copy, tangent=_tangent_test, emits_primal=True),
    mpi.BarrierOp: OpRule(reverse=_reverse_barrier),
    mpi.BcastOp: OpRule(reverse=_reverse_bcast, tangent=_tangent_repeat),
    mpi.ReduceOp: _REDUCTION,
    mpi.AllreduceOp: _REDUCTION,
    mpi.ReduceScatterBlockOp: OpRule(reverse=_reverse_reduce_scatter_block, tangent=_tangent_repeat),
    mpi.GatherOp: OpRule(reverse=_reverse_gather, tangent=_tangent_repeat),
    mpi.ScatterOp: OpRule(reverse=_reverse_scatter, tangent=_tangent_repeat),
    mpi.AllgatherOp: OpRule(reverse=_reverse_allgather, tangent=_tangent_repeat),
    mpi.AlltoallOp: OpRule(reverse=_reverse_alltoall, tangent=_tangent_repeat),
    mpi.CallOp: OpRule(augment=_augment_call, tangent=_tangent_call),
}
"""Rules of the MPI call ops, by op class (the ops rules emit are never differentiated)."""


def rule_for(op: Operation) -> OpRule | None:
    return RULES.get(type(op))

