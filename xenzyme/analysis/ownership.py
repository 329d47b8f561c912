"""Which shared memory a thread of a team owns: the addresses only it touches.

In the reverse of a parallel region every load of shared memory becomes an addition into the
shadow of that memory, by the thread that loaded.  Where two threads may add into one address
the additions must be atomic; where each address is added into by one thread only they can be
plain loads and stores -- which is the common case of a worksharing loop reading `x[i]` in
iteration `i`: the runtime hands out disjoint chunks of the iteration space, so the iteration
that owns `i` runs on exactly one thread.

`owned_loads` finds the loads whose address lies in the block of addresses of the loop
iteration being run, `base + s*iv + c` for an induction variable `iv` of a loop running over a
chunk the runtime handed out (`par.static_init`, `par.dispatch_next`) with step `k`, and
`0 <= c`, `c + size <= s*k` (so that an unrolled or vectorised trip, which runs the original
iterations `iv .. iv+k-1`, stays within its own).  Because a plain addition by one thread would
race with an atomic one by another at the same address, the answer is all or nothing: the loads
of floating-point data from memory that is not the thread's own (its stack slots, its heap
blocks) are owned together, or none is -- pointers the region receives may all alias.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.activity import carries_derivative
from xenzyme.analysis.alias import allocator_of, pointer_roots
from xenzyme.analysis.cfg import CFG, AffineIV, affine_iv, constant_int
from xenzyme.analysis.types import size_align
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par

_INT_CASTS = (xllvm.SExtOp, xllvm.ZExtOp, xllvm.TruncOp)


def owned_loads(cfg: CFG, reads_into_shadows: set[Operation]) -> set[Operation]:
    """The loads among `reads_into_shadows` (the ops whose reverse adds into shadow memory)
    that only the running thread's iteration touches; empty unless all of them are."""
    chunk_ivs = _chunk_ivs(cfg)
    if not chunk_ivs:
        return set()
    owned: set[Operation] = set()
    for op in reads_into_shadows:
        if not isinstance(op, xllvm.LoadOp):
            return set()
        if _thread_private(op.ptr, cfg):
            continue
        if not _in_own_iteration(op, chunk_ivs, cfg):
            return set()
        owned.add(op)
    return owned


def reads_into_shadows(cfg: CFG, shadowed: set[SSAValue]) -> set[Operation] | None:
    """The ops of a function whose reverse adds into shadow memory: loads of floating-point
    data through shadowed pointers.  None when something else may add there as well (a copy,
    a call of a function differentiated with it), which this analysis does not follow."""
    out: set[Operation] = set()
    for b in cfg.rpo:
        for op in b.ops:
            if isinstance(op, xllvm.LoadOp) and op.ptr in shadowed and carries_derivative(op.dereferenced_value.type):
                out.add(op)
            elif isinstance(op, ext.MemcpyOp | ext.MemmoveOp) and op.operands[1] in shadowed:
                return None
            elif isinstance(op, xllvm.CallOp | ext.InvokeOp) and any(o in shadowed for o in op.operands):
                return None
    return out


def _thread_private(ptr: SSAValue, cfg: CFG) -> bool:
    roots = pointer_roots(ptr, cfg)
    return bool(roots) and all(isinstance(r.owner, xllvm.AllocaOp) or allocator_of(r.owner) is not None  # type: ignore[arg-type]
                               for r in roots)  # fmt: skip


# ---- the loops over chunks --------------------------------------------------------------


def _chunk_starts(cfg: CFG) -> set[SSAValue]:
    """The first iteration of each chunk the runtime hands out."""
    out: set[SSAValue] = set()
    for b in cfg.rpo:
        for op in b.ops:
            if isinstance(op, par.StaticInitOp):
                out.add(op.results[0])
            elif isinstance(op, par.DispatchNextOp):
                out.add(op.results[1])
    return out


def _chunk_ivs(cfg: CFG) -> dict[SSAValue, AffineIV]:
    """Induction variables of loops that run within a chunk: starting at a chunk's first
    iteration, or where another such loop stopped (the remainder loops of an unrolled or
    vectorised loop), or at an outer such variable (the chunks of a chunked schedule)."""
    starts = _chunk_starts(cfg)
    if not starts:
        return {}
    ivs: dict[SSAValue, AffineIV] = {}
    candidates = [a for b in cfg.rpo for a in b.args if (iv := affine_iv(cfg, a)) is not None and iv.element is None]
    changed = True
    while changed:
        changed = False
        for a in candidates:
            if a in ivs:
                continue
            iv = affine_iv(cfg, a)
            assert iv is not None
            if _from_chunk(iv.start, starts, ivs, cfg, set()):
                ivs[a] = iv
                changed = True
    return ivs


def _strip(v: SSAValue) -> SSAValue:
    while isinstance(v.owner, _INT_CASTS):
        v = v.owner.operands[0]  # type: ignore[union-attr]
    return v


def _from_chunk(v: SSAValue, starts: set[SSAValue], ivs: dict[SSAValue, AffineIV], cfg: CFG, seen: set[SSAValue]) -> bool:
    """Whether `v` is an iteration of some chunk: a chunk's start, a chunk variable, or the
    value one of them reaches (`iv + step`), through integer casts and phis."""
    v = _strip(v)
    if v in starts or v in ivs:
        return True
    if v in seen:
        return False
    seen.add(v)
    owner = v.owner
    if isinstance(owner, xllvm.AddOp) and (base := _strip(owner.operands[0])) in ivs:
        return constant_int(owner.operands[1]) == ivs[base].step[0]  # where the loop stopped
    if isinstance(v, BlockArgument) and isinstance(v.block, Block) and v.block is not cfg.entry and v not in ivs:
        preds = cfg.preds.get(v.block, [])
        return bool(preds) and all(_from_chunk(cfg.incoming(v.block, p)[v.index], starts, ivs, cfg, seen) for p in preds)
    return False


# ---- addresses --------------------------------------------------------------------------


def _in_own_iteration(op: xllvm.LoadOp, ivs: dict[SSAValue, AffineIV], cfg: CFG) -> bool:
    """`op` reads `base + s*iv + c .. + size` within `[s*iv, s*(iv + step))`, with `base`
    the same on every thread."""
    size = size_align(op.dereferenced_value.type)
    address = _address(op.ptr)
    if size is None or address is None:
        return False
    base, terms, offset = address
    if len(terms) != 1 or not _uniform(base, cfg):
        return False
    ((v, scale),) = terms.items()
    iv = ivs.get(v)
    if iv is None or scale <= 0 or len(iv.step) != 1 or iv.step[0] <= 0:
        return False
    return 0 <= offset and offset + size[0] <= scale * iv.step[0]


def _address(ptr: SSAValue) -> tuple[SSAValue, dict[SSAValue, int], int] | None:
    """`ptr` as `base + sum(scale * value) + offset` (bytes) through GEPs; None if a GEP index
    is neither a constant nor an integer value."""
    terms: dict[SSAValue, int] = {}
    offset = 0
    while isinstance(ptr.owner, ext.GEPOp):
        gep = ptr.owner
        indexed = _gep_steps(gep)
        if indexed is None:
            return None
        for value, scale in indexed:
            if isinstance(value, int):
                offset += value * scale
            else:
                key = _strip(value)
                terms[key] = terms.get(key, 0) + scale
        ptr = gep.operands[0]
    return ptr, {k: s for k, s in terms.items() if s}, offset


def _gep_steps(gep: ext.GEPOp) -> list[tuple[int | SSAValue, int]] | None:
    """(index, bytes per unit) of each index of a GEP."""
    t = gep.elem_type
    out: list[tuple[int | SSAValue, int]] = []
    dynamic = iter(gep.operands[1:])
    for k, raw in enumerate(gep.rawConstantIndices.get_values()):  # type: ignore[attr-defined]
        value: int | SSAValue = next(dynamic) if raw == ext.GEP_USE_SSA_VAL else raw
        if isinstance(value, SSAValue) and (c := constant_int(value)) is not None:
            value = c
        if k == 0:
            size = size_align(t)
            if size is None:
                return None
            out.append((value, size[0]))
            continue
        if isinstance(t, ext.LLVMArrayType):
            t = t.type
            size = size_align(t)
            if size is None:
                return None
            out.append((value, size[0]))
        elif isinstance(t, ext.LLVMStructType) and isinstance(value, int):
            offsets = _field_offsets(t)
            if offsets is None:
                return None
            out.append((offsets[value], 1))
            t = t.types.data[value]
        else:
            return None
    return out


def _field_offsets(t: ext.LLVMStructType) -> list[int] | None:
    offsets, at = [], 0
    for m in t.types.data:
        sa = size_align(m)
        if sa is None:
            return None
        at = (at + sa[1] - 1) // sa[1] * sa[1]
        offsets.append(at)
        at += sa[0]
    return offsets


def _uniform(base: SSAValue, cfg: CFG) -> bool:
    """Whether `base` is the same pointer on every thread: an argument of the region, or loaded
    from one (a captured variable), not computed from the thread's number."""
    seen: set[SSAValue] = set()
    work = [base]
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        if isinstance(v, BlockArgument):
            if v.block is not cfg.entry:
                return False
            continue
        owner = v.owner
        if isinstance(owner, xllvm.LoadOp):
            work.append(owner.ptr)
        elif isinstance(owner, xllvm.AddressOfOp):
            continue
        elif isinstance(owner, ext.GEPOp) and all(constant_int(o) is not None for o in owner.operands[1:]):
            work.append(owner.operands[0])
        else:
            return False
    return True
