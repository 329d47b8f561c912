"""How the reverse of GPU code adds an adjoint into memory: which addresses belong to one thread,
and which are the same in every thread of a block.

In the reverse of a kernel every load of device memory becomes an addition into the shadow of
that memory, by the thread that loaded.  Many threads may add at one address (a stencil's
neighbours, a weight all threads read), so an addition is atomic unless something better is
known:

* *owned*: only this thread adds at the address -- it is `base + s*i + c` with `0 <= c`,
  `c + size <= s` and `i` the thread's x position in the grid (`blockIdx.x * blockDim.x +
  threadIdx.x`, or a grid-stride loop's counter starting there and stepping by
  `blockDim.x * gridDim.x`), `base` the same in the whole grid; or, in shared memory, `i` the
  thread's x position in its block (`threadIdx.x`).  That holds for a one-dimensional launch,
  which the update checks when it runs (`gpu.owned_add`).  As for worksharing loops
  (`analysis/ownership.py`), it is all or nothing: a plain addition by one thread would race
  with an atomic one by another at the same address, so the loads whose reverse adds into one
  memory -- a shared array, a `noalias` argument, or all other device memory together, which
  the function's pointers may all reach -- are owned together (with one base and one `s`: each
  thread's addresses then lie in its own slot `[base + s*i, base + s*(i+1))`), or none is;
* *uniform*: the address is the same in every thread of the block (it does not depend on the
  thread's position, `analysis/divergence.py`): the block's values can be summed before one
  atomic update (`gpu.combined_add`, which checks at run time that the threads met at one
  address);
* otherwise, nothing is known.

A device function differentiated for a kernel is analysed with what its calls pass: an
argument that varies between the threads at some request (a pointer `x + i`) varies inside it
too (`varying_args`).  Pure functions of the IR; the engine decides what to emit from them.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntAttr, ModuleOp
from xdsl.ir import BlockArgument, Operation, SSAValue

from xenzyme.analysis.alias import allocator_of, noalias_argument, pointer_roots, underlying_objects
from xenzyme.analysis.cfg import CFG
from xenzyme.analysis.divergence import Divergence
from xenzyme.analysis.ownership import _address
from xenzyme.analysis.types import size_align
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext

OWNED, UNIFORM, OTHER = "owned", "uniform", "other"

_INT_CASTS = (xllvm.SExtOp, xllvm.ZExtOp, xllvm.TruncOp)


class DeviceUpdates:
    """The analysis of one device function (see the module docstring).  `reads`: the loads whose
    reverse adds into shadow memory (`ownership.reads_into_shadows`; None: something else adds
    there too, and nothing is owned)."""

    def __init__(self, cfg: CFG, module: ModuleOp, fn: xllvm.FuncOp, reads: set[Operation] | None,
                 block_varying_args: set[int], grid_varying_args: set[int]):  # fmt: skip
        shared = {g.sym_name.data for g in module.ops if gpu.is_shared(g)}
        self.cfg = cfg
        self.in_block = Divergence.of(fn, module, block_varying_args)
        self.in_grid = Divergence.of(fn, module, grid_varying_args, across_blocks=True)
        self.owned: set[SSAValue] = set()
        groups: dict[object, list[xllvm.LoadOp]] = {}
        for op in reads or ():
            if not isinstance(op, xllvm.LoadOp):
                return
            if not _thread_private(op.ptr, cfg):
                groups.setdefault(_memory(op.ptr, cfg, shared), []).append(op)
        for loads in groups.values():
            slots = {self._slot(op) for op in loads}
            if len(slots) == 1 and None not in slots:
                self.owned |= {op.ptr for op in loads}

    def kind(self, p: SSAValue) -> str:
        """OWNED, UNIFORM or OTHER for an addition at the address `p` (the primal pointer a load
        read through)."""
        if p in self.owned:
            return OWNED
        if not self.in_block.varies(p):
            return UNIFORM
        return OTHER

    def _slot(self, op: xllvm.LoadOp) -> tuple[SSAValue, int] | None:
        """(base, s) when `op` reads within the slot `[base + s*i, base + s*(i+1))` of the thread's
        position `i`, else None."""
        sa = size_align(op.dereferenced_value.type)
        address = _address(op.ptr)
        if sa is None or address is None:
            return None
        base, terms, offset = address
        scales = set(terms.values())
        if len(scales) != 1 or self.in_grid.varies(base):
            return None
        scale = scales.pop()
        if scale <= 0 or not 0 <= offset or offset + sa[0] > scale:
            return None
        position = _terms_position(list(terms), self.cfg)
        if position == "grid" or (position == "block" and _shared_base(base)):
            return base, scale
        return None


def _memory(p: SSAValue, cfg: CFG, shared: set[str]) -> object:
    """Which memory `p` reaches, as far as telling additions apart goes: a shared array (by
    name), a `noalias` argument, or (None) the rest of device memory."""
    objects = underlying_objects(p, cfg)
    if len(objects) == 1:
        o = next(iter(objects))
        if isinstance(o, BlockArgument) and noalias_argument(o, uncaptured=True):
            return o
        if isinstance(o, str) and o in shared:
            return o
    return None


def _thread_private(p: SSAValue, cfg: CFG) -> bool:
    roots = pointer_roots(p, cfg)
    return bool(roots) and all(isinstance(r.owner, xllvm.AllocaOp) or allocator_of(r.owner) is not None  # type: ignore[arg-type]
                               for r in roots)  # fmt: skip


def _strip(v: SSAValue) -> SSAValue:
    while isinstance(v.owner, _INT_CASTS):
        v = v.owner.operands[0]
    return v


def _is(v: SSAValue, op_type: type[Operation]) -> bool:
    owner = _strip(v).owner
    return isinstance(owner, op_type) and owner.dim == "x"  # type: ignore[attr-defined]


def _product_of(v: SSAValue, a: type[Operation], b: type[Operation]) -> bool:
    """Whether `v` is `a.x * b.x` (either order)."""
    owner = _strip(v).owner
    if not isinstance(owner, xllvm.MulOp):
        return False
    x, y = owner.operands
    return (_is(x, a) and _is(y, b)) or (_is(x, b) and _is(y, a))


def _terms_position(terms: list[SSAValue], cfg: CFG) -> str | None:
    """The position that the sum of `terms` is (see `_position`): one term, or the thread's x
    position in its block plus `blockIdx.x * blockDim.x`."""
    if len(terms) == 1:
        return _position(terms[0], cfg)
    if len(terms) == 2:
        for t, bn in (terms, terms[::-1]):
            if _is(t, gpu.ThreadIdOp) and _product_of(bn, gpu.BlockIdOp, gpu.BlockDimOp):
                return "grid"
    return None


def _position(v: SSAValue, cfg: CFG, seen: frozenset[SSAValue] = frozenset()) -> str | None:
    """"block" for the thread's x position in its block, "grid" for its x position in the grid
    (or a grid-stride loop over positions starting there), None otherwise."""
    v = _strip(v)
    if _is(v, gpu.ThreadIdOp):
        return "block"
    owner = v.owner
    if isinstance(owner, xllvm.AddOp):
        x, y = owner.operands
        for t, bn in ((x, y), (y, x)):
            if _is(t, gpu.ThreadIdOp) and _product_of(bn, gpu.BlockIdOp, gpu.BlockDimOp):
                return "grid"
        return None
    if isinstance(v, BlockArgument) and v not in seen and v.block in cfg.preds:
        lp = cfg.loop_of.get(v.block)  # type: ignore[arg-type]
        if lp is None or lp.header is not v.block:
            return None
        for pred in cfg.preds[v.block]:  # type: ignore[index]
            incoming = _strip(cfg.incoming(v.block, pred)[v.index])  # type: ignore[arg-type]
            if pred in lp.blocks:
                step = incoming.owner
                if not (isinstance(step, xllvm.AddOp) and v in [_strip(o) for o in step.operands]):
                    return None
                other = next(o for o in step.operands if _strip(o) is not v)
                if not _product_of(other, gpu.BlockDimOp, gpu.GridDimOp):
                    return None
            elif _position(incoming, cfg, seen | {v}) != "grid":
                return None
        return "grid"
    return None


def _shared_base(base: SSAValue) -> bool:
    """Whether `base` is the start of a shared array (an address in shared memory, cast)."""
    op = base.owner
    while isinstance(op, ext.AddrSpaceCastOp | xllvm.BitcastOp):
        op = op.operands[0].owner
    if not isinstance(op, xllvm.AddressOfOp):
        return False
    space = op.result.type.addr_space  # type: ignore[attr-defined]
    return isinstance(space, IntAttr) and space.data == gpu.SHARED_ADDRESS_SPACE


__all__ = ["OTHER", "OWNED", "UNIFORM", "DeviceUpdates"]
