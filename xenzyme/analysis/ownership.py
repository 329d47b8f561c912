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
iterations `iv .. iv+k-1`, stays within its own).  A vectorised loop counts from 0 and adds
the chunk's start to its counter (`base + s*(lb + j) + c`); its remainder loops start where
it stopped (`lb` plus the counter's limit).  Because a plain addition by one thread would
race with an atomic one by another at the same address, the answer is all or nothing: the loads
of floating-point data from memory that is not the thread's own (its stack slots, its heap
blocks) are owned together, or none is -- pointers the region receives may all alias -- except
that the loads from a `noalias` argument (a variable of the caller the region only reads,
`raise-openmp`) are owned or not on their own.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.activity import carries_derivative
from xenzyme.analysis.alias import allocator_of, noalias_argument, pointer_roots, underlying_objects
from xenzyme.analysis.cfg import CFG, AffineIV, affine_iv, constant_int, is_invariant
from xenzyme.analysis.types import size_align
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par

_INT_CASTS = (xllvm.SExtOp, xllvm.ZExtOp, xllvm.TruncOp)


def owned_loads(cfg: CFG, reads_into_shadows: set[Operation]) -> set[Operation]:
    """The loads among `reads_into_shadows` (the ops whose reverse adds into shadow memory)
    that only the running thread's iteration touches; empty unless all of them are."""
    chunks = _Chunks(cfg)
    if not chunks.ivs:
        return set()
    by_object: dict[SSAValue | None, list[xllvm.LoadOp]] = {}
    for op in reads_into_shadows:
        if not isinstance(op, xllvm.LoadOp):
            return set()
        if not _thread_private(op.ptr, cfg):
            by_object.setdefault(_own_object(op.ptr, cfg), []).append(op)
    owned: set[Operation] = set()
    for loads in by_object.values():
        if all(_in_own_iteration(op, chunks, cfg) for op in loads):
            owned.update(loads)
    return owned


def _own_object(ptr: SSAValue, cfg: CFG) -> SSAValue | None:
    """The `noalias` argument `ptr` points into, whose memory no other pointer of the function
    reaches (its loads are owned or not on their own); None for all other memory, which
    may all alias."""
    objects = underlying_objects(ptr, cfg)
    if len(objects) == 1 and isinstance(o := next(iter(objects)), BlockArgument) and noalias_argument(o, uncaptured=True):
        return o
    return None


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


class _Chunks:
    """The positions in the chunks the runtime hands this thread.

    `ivs`: induction variables of loops that run within a chunk -- starting at a chunk's first
    iteration, or where another such loop stopped (the remainder loops of an unrolled or
    vectorised loop), or at an outer such variable (the chunks of a chunked schedule).
    `counters`: induction variables counting from 0 (a vectorised loop's, added to a position),
    and `limits`, the values they stop at.  Positions are what these loops start from: a chunk's
    start, where another loop stopped, a few iterations after a position (peeled off a loop's
    front).  That such loops stay within the chunk is taken from how they are made (by clang and
    LLVM's loop transformations), not proved."""

    def __init__(self, cfg: CFG):
        self.cfg = cfg
        self.starts = _chunk_starts(cfg)
        self.ivs: dict[SSAValue, AffineIV] = {}
        self.counters: dict[SSAValue, AffineIV] = {}
        self.limits: set[SSAValue] = set()
        if not self.starts:
            return
        candidates = []
        for b in cfg.rpo:
            for a in b.args:
                iv = affine_iv(cfg, a)
                if iv is None or iv.element is not None or len(iv.step) != 1 or iv.step[0] <= 0:
                    continue
                candidates.append(iv)
                if constant_int(iv.start) == 0:
                    self.counters[a] = iv
                    self.limits |= _limits(iv, cfg)
        changed = True
        while changed:
            changed = False
            for iv in candidates:
                if iv.value not in self.ivs and self.position(iv.start, set()):
                    self.ivs[iv.value] = iv
                    changed = True

    def position(self, v: SSAValue, seen: set[SSAValue]) -> bool:
        """Whether `v` is an iteration of some chunk: a chunk's start, a chunk variable, the
        value one of them reaches (`iv + step`), or a position plus a counter's limit, through
        integer casts and phis."""
        v = _strip(v)
        if v in self.starts or v in self.ivs:
            return True
        if v in seen:
            return False
        seen.add(v)
        owner = v.owner
        if isinstance(owner, xllvm.AddOp):
            a, b = (_strip(o) for o in owner.operands)
            if a in self.ivs and constant_int(owner.operands[1]) == self.ivs[a].step[0]:
                return True  # where the loop stopped
            if (c := constant_int(owner.operands[1])) is not None and 0 < c <= _PEELED and self.position(a, seen):
                return True  # after iterations peeled off the front of a loop
            for x, y in ((a, b), (b, a)):
                if y in self.limits and self.position(x, seen):
                    return True  # where a counter added to a position stopped
            return False
        cfg = self.cfg
        if isinstance(v, BlockArgument) and isinstance(v.block, Block) and v.block is not cfg.entry and v not in self.ivs:
            preds = cfg.preds.get(v.block, [])
            return bool(preds) and all(self.position(cfg.incoming(v.block, p)[v.index], seen) for p in preds)
        return False

    def step_of(self, index: list[SSAValue]) -> int | None:
        """The step of the loop whose trip runs the iterations `sum(index) ..` on: `index` is a
        chunk variable, or a counter plus a position fixed in the counter's loop."""
        if len(index) == 1 and index[0] in self.ivs:
            return self.ivs[index[0]].step[0]
        if len(index) == 1 and self.position(index[0], set()):
            return 1  # one iteration, outside a loop over the chunk (peeled off it)
        if len(index) == 2:
            for z, p in (index, index[::-1]):
                c = self.counters.get(z)
                if c is not None and is_invariant(self.cfg, p, c.loop) and self.position(p, set()):
                    return c.step[0]
        return None


_PEELED = 8
"""The most iterations LLVM peels off the front of a loop that `_Chunks` follows."""


def _limits(iv: AffineIV, cfg: CFG) -> set[SSAValue]:
    """The values `iv`'s next value is compared with (the loop's bound)."""
    out: set[SSAValue] = set()
    for latch in iv.loop.latches:
        nxt = cfg.incoming(iv.value.block, latch)[iv.value.index]
        for use in nxt.uses:
            if isinstance(use.operation, ext.ICmpOp):
                out |= {_strip(o) for o in use.operation.operands if o is not nxt}
    return out


def _strip(v: SSAValue) -> SSAValue:
    while isinstance(v.owner, _INT_CASTS):
        v = v.owner.operands[0]  # type: ignore[union-attr]
    return v


# ---- addresses --------------------------------------------------------------------------


def _in_own_iteration(op: xllvm.LoadOp, chunks: _Chunks, cfg: CFG) -> bool:
    """`op` reads `base + s*i + c .. + size` within `[s*i, s*(i + step))` for the iteration `i`
    a trip starts at, with `base` the same on every thread."""
    size = size_align(op.dereferenced_value.type)
    address = _address(op.ptr)
    if size is None or address is None:
        return False
    base, terms, offset = address
    scales = set(terms.values())
    if len(scales) != 1 or not _uniform(base, cfg):
        return False
    scale = scales.pop()
    step = chunks.step_of(list(terms))
    if step is None or scale <= 0:
        return False
    return 0 <= offset and offset + size[0] <= scale * step


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
            for v, c in _summands(value):
                if v is None:
                    offset += c * scale
                else:
                    terms[v] = terms.get(v, 0) + c * scale
        ptr = gep.operands[0]
    return ptr, {k: s for k, s in terms.items() if s}, offset


def _summands(value: int | SSAValue) -> list[tuple[SSAValue | None, int]]:
    """An index as a sum of (value, 1) and (None, constant) through integer casts and adds."""
    if isinstance(value, int):
        return [(None, value)]
    v = _strip(value)
    if (c := constant_int(v)) is not None:
        return [(None, c)]
    if isinstance(v.owner, xllvm.AddOp):
        return [*_summands(v.owner.operands[0]), *_summands(v.owner.operands[1])]
    return [(v, 1)]


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
