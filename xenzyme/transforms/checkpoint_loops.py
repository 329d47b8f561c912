"""`checkpoint-loops`: reverse the outermost counted loops of differentiated functions from
checkpoints of their state, so that a gradient's memory does not grow with the trip count.

    checkpoint-loops{scheme=binomial checkpoints=32}   revolve: c snapshots, fewest steps re-run
    checkpoint-loops{scheme=periodic period=100}       a snapshot every M steps
    checkpoint-loops{scheme=online checkpoints=32}     c snapshots placed as the loop runs
    checkpoint-loops{budget-mb=256}                    binomial, as many snapshots as 256 MiB hold
    __enzyme_checkpoint(32);  (first in a loop's body)  that loop: binomial, 32 snapshots
    enzyme{checkpoint=binomial checkpoints=32}         the same inside the whole pipeline
    enzyme{tape-budget-mb=256}
    xz.gradient(src, "f", checkpoint="binomial", checkpoints=32)
    xz.gradient(src, "f", tape_budget_mb=256)

Without checkpoints the reverse sweep keeps what every iteration computed (O(n) memory for n
steps).  This pass runs before reverse-diff, on the functions that derivative requests name.
Each outermost loop of such a function (in the rotated form LLVM's optimiser leaves loops in:
`analysis/loop_state.py`) is outlined and replaced by a call:

    %S = alloca (the state)          ; the carried values, the outputs, the scalars it reads
    store <carried values at entry>, <scalar live-ins>  -> %S
    call @K.loop(i64 %n, ptr %S, <pointer live-ins>)   ; n calls of @K.step(%S, <pointers>),
                                                        ; or (n = -1) until a step says stop
    %out = load %S[...]                                 ; values the loop leaves

`@K.step` is one iteration (the loop's blocks moved into it: it loads the state, runs the body,
stores the next state).  `@K.loop` gets a custom gradient (Enzyme's convention,
`__enzyme_register_gradient_K.loop`), so the engine differentiates the call as it differentiates
any call with a user's gradient: nothing in the engine knows about checkpoints.  The two halves
call a small runtime (`checkpoint_runtime.c`, compiled to `checkpoint_runtime.ll` and copied into
the module): the forward half runs the n steps and keeps the snapshots of the scheme; the
reverse half rebuilds the state before each step from the nearest snapshot by running steps
again untaped, and calls the step's own gradient (an `autodiff.autodiff` request of @K.step,
which the engine builds with the full cache of that one step).  Periodic reversal calls the
gradient of a whole segment (`@K.segment`, taped as a whole), as the scheme says.  The runtime
runs steps without taping through `@K.advance(S, env, k)`: k steps in one call, the step
inlined into its loop, so that the state stays in registers between steps rather than going
through memory and an indirect call for each (a run of steps between snapshots costs what the
primal's loop does).

The schedule is computed at run time, not unrolled at compile time: trip counts are rarely
constants, and the schedule's arithmetic is a few operations per snapshot placed.  A loop whose
trip count is not known when it starts (a `while` loop run to convergence) keeps its exit test
in the step, which stores whether another step is wanted in the state; the forward half counts
the steps as the primal runs them, and the reverse half schedules them as those of a counted
loop: with binomial checkpointing the primal's run places only the first snapshot and
revolve's schedule starts from it.  `scheme=online` (c = `checkpoints` snapshots) places them
during the primal's run instead, for a trip count not known in advance: the state before every
s-th step, s doubling (and every other snapshot dropped) each time the c slots are full; the
reverse half reverses stretches between kept snapshots from the last, each by revolve with the
slots the stretches after it freed, choosing the stretches (some snapshots skipped) for the
fewest steps in all, never more than binomial's (the runtime's header comment has the exact
rule).  Memory stays at c snapshots.

A checkpoint holds the state: the loop-carried SSA values (the counter among them), the values
the loop leaves, the scalars it reads, and the memory the body overwrites -- per pointer the
body stores through (defined before the loop), the range of bytes its stores reach over the
inner loops' trips, computed where the loop starts (`analysis/loop_state.py`), recorded in the
state as (address, length) pairs that the runtime copies with each snapshot.  Memory the body
only reads is not copied.  Pointers into parameters that no request gives a shadow are carried
in the state as addresses (the custom gradient's convention gives every pointer argument a
shadow); other pointers the loop uses need shadows where the gradient is requested.

A memory budget (MiB, 2^20 bytes; a fraction is allowed) chooses binomial checkpointing and
its number of snapshots c = max(1, floor(budget / snapshot bytes)), counted by the runtime when
the loop starts: a snapshot's size (the state block and the lengths of the regions the body
writes) is known only then.  c is capped by the trip count (c = n when the budget holds n
snapshots or more; the reversal then runs n-1 steps again, as revolve with the primal's run
placing only the first snapshot does).  The budget bounds the snapshots; the tape of the one
step being reversed comes on top.  A budget replaces the scheme and the count: it turns
checkpointing on (`checkpoint=off` with a budget is binomial), and given with `checkpoints=`
or `checkpoint=periodic` it is an error rather than a silent choice of one of them.  The
runtime's weak `__xenzyme_checkpoint_snapshots` holds the c of the last reversal.

One loop can be marked in C instead: `extern void __enzyme_checkpoint(int checkpoints);`
called first in its body (a declared, never defined function, as Enzyme's `__enzyme_autodiff`,
and with its prefix: a call that exists only for the differentiator).  The marked loop, the
innermost one whose blocks hold the call -- at -O2 the call may sit in the rotated loop's
header, its body or a block split off it, so the call's block, not its place, decides -- must
be an outermost loop of a request-named function; it gets binomial checkpointing with that many
snapshots whatever the pass's scheme (`off` included, where only marked loops are outlined).
Every marker call is removed (and its declaration): in functions no request names it marks
nothing, and the program must link.  A program also built without xenzyme gives the marker a
weak empty definition, which is kept, unused.  A count that is not a positive integer constant,
a marker outside a loop or in an inner loop is an error at the call.

Refused with an error naming the loop or the store (what to do: `checkpoint=off` for that
function): a loop that leaves from more than one place (a `break`), a store
whose range cannot be bounded exactly enough where the loop starts (an address carried from one
iteration to the next, indexed by the loop's own counter or a loaded value, remainder loops
counted by masks as LLVM's vectoriser makes them), and a call in the body that may write memory.
Only the loops of the functions the requests name are checkpointed, not those of their callees.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    VectorType,
    i1,
    i8,
    i64,
)
from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from xenzyme.analysis.cfg import CFG, TripCount
from xenzyme.analysis.loop_state import Expr, LoopState, LoopStateError, loop_state
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import call_op
from xenzyme.rules.libm import MATH
from xenzyme.transforms.checkpoint_options import SCHEMES, check_options
from xenzyme.transforms.diff.errors import location_of
from xenzyme.transforms.runtime_ir import link_runtime, symbol

MARKER = "__enzyme_checkpoint"
RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoint_runtime.ll")
_PTR = ext.LLVMPointerType()
COUNTERS = ("__xenzyme_checkpoint_steps", "__xenzyme_checkpoint_snapshots")  # (the runtime's weak globals)
PURE_MATH = frozenset(name + suffix for name in MATH for suffix in ("", "f", "l"))
"""libm's functions a step may call (sin, sinf, sinl, ...): they write no memory a checkpoint holds."""


DEFAULT_CHECKPOINTS = 32
MIB = 1 << 20


@dataclass(frozen=True)
class CheckpointLoops(ModulePass):
    """Outline the outermost counted loops of differentiated functions into checkpointed calls."""

    name = "checkpoint-loops"

    scheme: str = "binomial"
    checkpoints: int | None = None
    """The snapshots of binomial and online checkpointing (32 when neither they nor a budget is
    given)."""
    period: int = 100
    budget_mb: int | float | None = None
    """The memory the snapshots may take, in MiB (2^20 bytes): binomial checkpointing with as
    many as it holds, counted when the loop starts."""

    def __post_init__(self) -> None:
        check_options(self.scheme, self.checkpoints, self.period, "checkpoint-loops", self.budget_mb)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        checkpoint_loops(op, self.scheme, self.checkpoints, self.period, self.budget_mb)


def checkpoint_loops(module: ModuleOp, scheme: str, checkpoints: int | None, period: int,
                     budget_mb: float | None = None) -> None:  # fmt: skip
    """Checkpoint the loops of the functions `module`'s requests name (options as checked by
    `check_options`; a budget makes the scheme binomial, its c counted at run time)."""
    if budget_mb is not None:
        scheme, param = "budget", min(max(1, int(budget_mb * MIB)), 1 << 62)  # (bytes, as an i64)
    elif scheme == "off":
        param = 0
        if not any(isinstance(f, xllvm.FuncOp) and f.sym_name.data == MARKER for f in module.ops):
            return
    else:
        param = (checkpoints or DEFAULT_CHECKPOINTS) if scheme in ("binomial", "online") else period
    names: list[str] = []
    const_args: dict[str, set[int]] = {}  # (parameters no request gives a shadow)
    for o in module.walk():
        if isinstance(o, ad.AutodiffOp | ad.AugmentOp | ad.ReverseOp):
            n = o.callee.string_value()
            if n not in names:
                names.append(n)
            mine = {i for i, a in enumerate(o.activities) if a == "const"}
            const_args[n] = const_args[n] & mine if n in const_args else mine
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
    filename = _filename(module)
    marked = _take_markers(module, names, filename)
    counter = 0
    for name in names:
        fn = functions.get(name)
        if fn is None or not fn.body.blocks:
            continue
        while True:  # (one loop at a time: the CFG changes with each)
            cfg = CFG(fn.body)
            todo = [lp for lp in cfg.loops if lp.parent is None and (scheme != "off" or lp.header in marked)]
            if not todo:
                break
            loop = min(todo, key=lambda lp: cfg.index[lp.header])
            mine = marked.get(loop.header)
            try:
                state = loop_state(cfg, loop, PURE_MATH)
            except LoopStateError as err:
                at = location_of(err.op, filename) if err.op is not None else None
                label = (f"{MARKER}({mine[0]}) at {mine[1]}" if mine is not None else
                         "tape-budget-mb" if scheme == "budget" else f"checkpoint={scheme}")  # fmt: skip
                raise XenzymeError(f"{label}: cannot checkpoint a loop of @{name}: {err.message}", at,
                                   [*err.notes, "use checkpoint=off for this function"]
                                   if "checkpoint=off" not in " ".join(err.notes) else list(err.notes)) from None  # fmt: skip
            key = f"__xenzyme_ckpt.{name}.{counter}"
            counter += 1
            loop_scheme, loop_param = ("binomial", mine[0]) if mine is not None else (scheme, param)
            _outline(module, fn, cfg, state, key, loop_scheme, loop_param, const_args.get(name, set()))


def remove_markers(module: ModuleOp) -> None:
    """Remove the checkpoint markers of a module no derivative request reaches (compiled as it
    is): they mark nothing there, and the program must link without them."""
    if any(isinstance(f, xllvm.FuncOp) and f.sym_name.data == MARKER for f in module.ops):
        _take_markers(module, [], None)


def _take_markers(module: ModuleOp, names: list[str], filename: str | None) -> dict[Block, tuple[int, str]]:
    """Remove every call of the marker `MARKER` from `module`; for those in the functions `names`
    (the request-named ones), the header of the loop each marks, with its count and where the
    call is.  The marked loop is the innermost one whose blocks hold the call (at -O2 the call
    may sit in the rotated loop's header, its body or a block the optimiser split off)."""
    marked: dict[Block, tuple[int, str]] = {}
    for fn in [f for f in module.ops if isinstance(f, xllvm.FuncOp) and f.body.blocks]:
        calls = [o for o in fn.walk() if isinstance(o, xllvm.CallOp) and o.callee is not None
                 and o.callee.string_value() == MARKER]  # fmt: skip
        if not calls:
            continue
        cfg = CFG(fn.body) if fn.sym_name.data in names else None
        for call in calls:
            where = location_of(call, filename)
            if cfg is not None:
                here = str(where) if where is not None else f"@{fn.sym_name.data}"
                count = _marker_count(call, where)
                loops = [lp for lp in cfg.loops if call.parent_block() in lp.blocks]
                if not loops:
                    raise XenzymeError(f"{MARKER}({count}) is not inside a loop of @{fn.sym_name.data}", where,
                                       [f"call {MARKER}(c) as the first statement of the body of the loop to "
                                        "checkpoint"])  # fmt: skip
                loop = min(loops, key=lambda lp: len(lp.blocks))
                if loop.parent is not None:
                    raise XenzymeError(f"{MARKER}({count}) marks a loop nested in another loop of "
                                       f"@{fn.sym_name.data}: only the outermost loops of a differentiated "
                                       "function are checkpointed", where,
                                       [f"move the {MARKER} call into the body of the outermost loop"])  # fmt: skip
                before = marked.get(loop.header)
                if before is not None and before[0] != count:
                    raise XenzymeError(f"{MARKER}({count}) marks a loop already marked with {before[0]} "
                                       f"checkpoints (at {before[1]})", where,
                                       ["mark each loop once"])  # fmt: skip
                marked[loop.header] = (count, here)
            count_ops = [a.owner for a in call.args if isinstance(a.owner, xllvm.ConstantOp)]
            call.detach()
            call.erase()
            for c in count_ops:
                if not c.results[0].uses:
                    c.detach()
                    c.erase()
    for f in list(module.ops):  # (a declaration without calls is dropped; a user's definition kept)
        if isinstance(f, xllvm.FuncOp) and f.sym_name.data == MARKER and not f.body.blocks:
            f.detach()
            f.erase()
    return marked


def _marker_count(call: xllvm.CallOp, where) -> int:
    """The marker's number of checkpoints: a positive integer constant."""
    args = list(call.args)
    v = args[0] if len(args) == 1 else None
    c = v.owner if v is not None else None
    value = c.value.value.data if isinstance(c, xllvm.ConstantOp) and isinstance(c.value, IntegerAttr) else None
    if value is None or value < 1:
        got = "a value known only at run time" if value is None else str(value)
        raise XenzymeError(f"{MARKER}: the number of checkpoints must be a positive integer constant (got {got})",
                           where, [f"for example {MARKER}(32); the count is fixed when the program is compiled"])  # fmt: skip
    return value


def _filename(module: ModuleOp) -> str | None:
    attr = module.attributes.get("llvm.source_filename") or module.attributes.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def _slot_size(t) -> int:
    if isinstance(t, VectorType):
        n = 1
        for d in t.get_shape():
            n *= d
        w = t.get_element_type()
        bits = getattr(w, "width", None)
        bits = bits.data if bits is not None and hasattr(bits, "data") else 64
        return max(16, (n * bits + 127) // 128 * 16)
    return 16 if str(t) in ("f128", "x86_fp80", "i128") else 8


def _constant_pointer(v: SSAValue, fn: xllvm.FuncOp, const_args: set[int]) -> bool:
    """Whether `v` points into a parameter that no request gives a shadow."""
    while isinstance(v.owner, ext.GEPOp):
        v = v.owner.operands[0]
    entry = fn.body.blocks.first
    return isinstance(v, BlockArgument) and v.block is entry and v.index in const_args


def _outline(module: ModuleOp, fn: xllvm.FuncOp, cfg: CFG, st: LoopState, key: str, scheme: str,
             param: int, const_args: set[int]) -> None:  # fmt: skip
    """Move the loop's blocks into `@K.step`, and call `@K.loop` where the loop was.  Pointers
    into memory without a shadow travel in the state as integers: the custom gradient's
    convention gives every pointer argument a shadow."""
    pointers, scalars, raw = [], [], set()
    for v in st.live_ins:
        if not isinstance(v.type, ext.LLVMPointerType):
            scalars.append(v)
        elif _constant_pointer(v, fn, const_args):
            scalars.append(v)
            raw.add(v)
        else:
            pointers.append(v)
    fields = [*st.carried, *st.outputs, *scalars]
    offsets, size = [], 0
    for v in fields:
        s = _slot_size(v.type)
        size = (size + s - 1) // s * s if s > 8 else size
        offsets.append(size)
        size += s
    roots: list[SSAValue] = []
    for r in st.regions:
        if r.root not in roots:
            roots.append(r.root)
    table = size  # (address and length of each region the body writes, as two i64)
    size += 16 * len(roots)
    flag = size  # (a loop of unknown length: whether the step just run wants another)
    size += 8 if st.trips is None else 0
    size = max(size, 8)
    slot = dict(zip(fields, offsets, strict=True))
    ncar, nout = len(st.carried), len(st.outputs)

    # ---- @K.step(ptr S, ptr p...): one iteration -------------------------------------------
    entry = Block(arg_types=[_PTR, *[p.type for p in pointers]])
    S = entry.args[0]
    region = Region([entry])

    def at(b: Block, base: SSAValue, off: int) -> SSAValue:
        if off == 0:
            return base
        g = ext.GEPOp(base, [off], i8)
        b.add_op(g)
        return g.results[0]

    mapping: dict[SSAValue, SSAValue] = {}
    for v in scalars:
        ld = xllvm.LoadOp(at(entry, S, slot[v]), i64 if v in raw else v.type)
        entry.add_op(ld)
        mapping[v] = ld.results[0]
        if v in raw:
            cast = xllvm.IntToPtrOp(ld.results[0])
            entry.add_op(cast)
            mapping[v] = cast.results[0]
    for v, p in zip(pointers, entry.args[1:], strict=True):
        mapping[v] = p
    loaded = []
    for v in st.carried:
        ld = xllvm.LoadOp(at(entry, S, slot[v]), v.type)
        entry.add_op(ld)
        loaded.append(ld.results[0])
    entry.add_op(xllvm.BrOp(st.loop.header, *loaded))

    # The loop's terminator: store the next state and the outputs, return.
    term = st.latch.last_op
    assert term is not None
    nxt = list(st.next)
    term.detach()
    test = term.cond.owner
    tail = st.latch
    if st.trips is None:
        more = term.cond
        if term.then_block is not st.loop.header:
            one = xllvm.ConstantOp(IntegerAttr(1, i1), i1)
            negated = xllvm.XOrOp(more, one.results[0])
            tail.add_ops([one, negated])
            more = negated.results[0]
        tail.add_op(ext.StoreOp(more, at(tail, S, flag)))
    for v, off in zip(nxt, offsets[:ncar], strict=True):
        tail.add_op(ext.StoreOp(v, at(tail, S, off)))
    for v, off in zip(st.outputs, offsets[ncar : ncar + nout], strict=True):
        tail.add_op(ext.StoreOp(v, at(tail, S, off)))
    tail.add_op(xllvm.ReturnOp())

    # ---- where the loop was: the state, the count, the call, the outputs -------------------
    # (the exit edge's operands, read before the terminator goes)
    exit_ops = list(next(o for d, o in ext.successor_operands(term) if d is st.exit))
    body = fn.body
    site = Block(arg_types=[a.type for a in st.loop.header.args])
    body.insert_block_after(site, st.entering)
    eterm = st.entering.last_op
    for i, s in enumerate(eterm.successors):
        if s is st.loop.header:
            eterm.successors[i] = site
    one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
    alloca = xllvm.AllocaOp(one, ext.LLVMArrayType(size, i8), 16)
    first = body.blocks.first
    first.insert_op_before(alloca, first.first_op)
    first.insert_op_before(one, alloca)
    SS = alloca.results[0]
    for a, off in zip(site.args, offsets[:ncar], strict=True):
        site.add_op(ext.StoreOp(a, at(site, SS, off)))
    for v in scalars:
        if v in raw:
            cast = xllvm.PtrToIntOp(v, i64)
            site.add_op(cast)
            site.add_op(ext.StoreOp(cast.results[0], at(site, SS, slot[v])))
        else:
            site.add_op(ext.StoreOp(v, at(site, SS, slot[v])))
    _store_regions(site, SS, table, roots, st)
    if st.trips is None:
        unknown = xllvm.ConstantOp(IntegerAttr(-1, i64), i64)
        site.add_op(unknown)
        n = unknown.results[0]
    else:
        n = _trip_count(site, st.trips, site.args[st.trips.iv.value.index])
    site.add_op(call_op(f"{key}.loop", [n, SS, *pointers], None))
    outs: dict[SSAValue, SSAValue] = {}
    for v, off in zip(st.outputs, offsets[ncar : ncar + nout], strict=True):
        ld = xllvm.LoadOp(at(site, SS, off), v.type)
        site.add_op(ld)
        outs[v] = ld.results[0]
    site.add_op(xllvm.BrOp(st.exit, *[outs.get(v, v) for v in exit_ops]))
    term.erase()
    if isinstance(test, Operation) and all(not r.uses for r in test.results):
        test.detach()
        test.erase()

    # Move the loop's blocks; uses of its values after it read the outputs instead.
    blocks = [b for b in cfg.rpo if b in st.loop.blocks]
    for v, new in outs.items():
        for use in list(v.uses):
            if use.operation.parent_block() not in st.loop.blocks:
                use.operation.operands[use.index] = new
    for b in blocks:
        body.detach_block(b)
        region.add_block(b)
        for op in b.ops:
            for i, v in enumerate(op.operands):
                if v not in mapping and isinstance(v.owner, xllvm.ConstantOp) and v.owner.parent_block() not in blocks:
                    c = v.owner.clone()  # (a constant of the function's the step uses: its own copy)
                    entry.insert_op_before(c, entry.last_op)
                    mapping[v] = c.results[0]
                if v in mapping:
                    op.operands[i] = mapping[v]
    step = xllvm.FuncOp(f"{key}.step", ext.LLVMFunctionType([_PTR] * (1 + len(pointers)), ext.LLVMVoidType()),
                        linkage=xllvm.LinkageAttr("internal"), body=region)  # fmt: skip
    module.body.block.add_op(step)
    _add_glue(module, key, len(pointers), size, len(roots), table, flag, scheme, param)


def _store_regions(b: Block, S: SSAValue, table: int, roots: list[SSAValue], st: LoopState) -> None:
    """The address and length of the memory the body overwrites, per pointer it is based on:
    the span of its stores' byte ranges."""

    def add(op: Operation) -> SSAValue:
        b.add_op(op)
        return op.results[0]

    def pick(pred: str, x: SSAValue, y: SSAValue) -> SSAValue:
        return add(ext.SelectOp(add(ext.ICmpOp(x, y, pred)), x, y))

    done: dict[Expr, SSAValue] = {}

    def emit(e: Expr) -> SSAValue:
        if e in done:
            return done[e]
        kind = e[0]
        if kind == "c":
            v = add(xllvm.ConstantOp(IntegerAttr(e[1], i64), i64))
        elif kind == "v":
            x = e[1]
            v = x if isinstance(x.type, IntegerType) and x.type.width.data == 64 else add(xllvm.SExtOp(x, i64))
        elif kind == "mul":
            v = add(xllvm.MulOp(emit(e[1]), emit(("c", e[2]))))
        elif kind == "and":
            v = add(xllvm.AndOp(emit(e[1]), emit(("c", e[2]))))
        elif kind == "div":
            x = emit(e[1])
            v = add(ext.SelectOp(add(ext.ICmpOp(x, emit(("c", 0)), "slt")), emit(("c", -1)),
                                 add(xllvm.SDivOp(x, emit(("c", e[2]))))))  # fmt: skip
        elif kind in ("add", "sub"):
            v = add((xllvm.AddOp if kind == "add" else xllvm.SubOp)(emit(e[1]), emit(e[2])))
        else:
            v = pick("slt" if kind == "min" else "sgt", emit(e[1]), emit(e[2]))
        done[e] = v
        return v

    for k, root in enumerate(roots):
        lo_v = hi_v = None
        for r in (r for r in st.regions if r.root is root):
            # (a store in a loop that does not run has an empty range: it widens nothing)
            lo, hi = emit(r.lo), emit(r.hi)
            some = add(ext.ICmpOp(hi, lo, "sgt"))
            for cond, way in r.guards:
                holds = cond if way else add(xllvm.XOrOp(cond, add(xllvm.ConstantOp(IntegerAttr(1, i1), i1))))
                some = add(xllvm.AndOp(some, holds))
            lo = add(ext.SelectOp(some, lo, emit(("c", 1 << 62))))
            hi = add(ext.SelectOp(some, hi, emit(("c", -(1 << 62)))))
            lo_v = lo if lo_v is None else pick("slt", lo_v, lo)
            hi_v = hi if hi_v is None else pick("sgt", hi_v, hi)
        assert lo_v is not None and hi_v is not None
        address = add(xllvm.AddOp(add(xllvm.PtrToIntOp(root, i64)), lo_v))
        length = pick("sgt", add(xllvm.SubOp(hi_v, lo_v)), emit(("c", 0)))
        for off, v in ((table + 16 * k, address), (table + 16 * k + 8, length)):
            g = ext.GEPOp(S, [off], i8)
            b.add_op(g)
            b.add_op(ext.StoreOp(v, g.results[0]))


def _trip_count(b: Block, tc: TripCount, start: SSAValue) -> SSAValue:
    """The number of iterations, as i64, from the counter's start and the exit test's limit
    (the loop is rotated: it runs once before its first test)."""
    step = tc.iv.step[0]

    def add(op: Operation) -> SSAValue:
        b.add_op(op)
        return op.results[0]

    def wide(v: SSAValue) -> SSAValue:
        t = v.type
        assert isinstance(t, IntegerType)
        if t.width.data == 64:
            return v
        return add(xllvm.ZExtOp(v, i64) if tc.unsigned else xllvm.SExtOp(v, i64))

    def const(k: int) -> SSAValue:
        return add(xllvm.ConstantOp(IntegerAttr(k, i64), i64))

    s0, lim = wide(start), wide(tc.limit)
    x0 = add(xllvm.AddOp(s0, const(step))) if tc.compares_next else s0
    diff = add(xllvm.SubOp(lim, x0)) if step > 0 else add(xllvm.SubOp(x0, lim))
    if tc.inclusive:
        diff = add(xllvm.AddOp(diff, const(1)))
    a = abs(step)
    k = add(xllvm.SDivOp(add(xllvm.AddOp(diff, const(a - 1))), const(a))) if a != 1 else diff
    pos = add(ext.ICmpOp(diff, const(0), "sgt"))
    k = add(ext.SelectOp(pos, k, const(0)))
    return add(xllvm.AddOp(k, const(1)))


_GLUE = """
declare void @"{K}.step"(ptr{PTYPES})
declare ptr @__xenzyme_checkpoint_forward(i64, ptr, i64, i64, i64, i64, ptr, ptr, i64, i64)
declare void @__xenzyme_checkpoint_reverse(ptr, ptr, ptr, ptr, ptr, ptr, ptr)
declare void @"{K}.step_gradient"(ptr, ptr{PPAIRTYPES})
declare void @"{K}.segment_gradient"(i64, ptr, ptr{PPAIRTYPES})

define internal void @"{K}.loop"(i64 %n, ptr %S{PARAMS}) noinline {{
entry:
  %unknown = icmp slt i64 %n, 0
  br i1 %unknown, label %until, label %head
until:
  call void @"{K}.step"(ptr %S{ARGS})
  %fp = getelementptr i8, ptr %S, i64 {FLAG}
  %f = load i8, ptr %fp
  %more = icmp ne i8 %f, 0
  br i1 %more, label %until, label %done
head:
  %k = phi i64 [ 0, %entry ], [ %k1, %body ]
  %c = icmp slt i64 %k, %n
  br i1 %c, label %body, label %done
body:
  call void @"{K}.step"(ptr %S{ARGS})
  %k1 = add i64 %k, 1
  br label %head
done:
  ret void
}}

define internal void @"{K}.segment"(i64 %n, ptr %S{PARAMS}) noinline {{
entry:
  br label %head
head:
  %k = phi i64 [ 0, %entry ], [ %k1, %body ]
  %c = icmp slt i64 %k, %n
  br i1 %c, label %body, label %done
body:
  call void @"{K}.step"(ptr %S{ARGS})
  %k1 = add i64 %k, 1
  br label %head
done:
  ret void
}}

define internal void @"{K}.advance"(ptr %S, ptr %env, i64 %n) {{
entry:
{LOADP}  br label %head
head:
  %k = phi i64 [ 0, %entry ], [ %k1, %body ]
  %c = icmp slt i64 %k, %n
  br i1 %c, label %body, label %done
body:
  call void @"{K}.step"(ptr %S{ARGS})
  %k1 = add i64 %k, 1
  br label %head
done:
  ret void
}}

define internal void @"{K}.back"(ptr %S, ptr %dS, ptr %env) {{
entry:
{LOADPD}  call void @"{K}.step_gradient"(ptr %S, ptr %dS{PAIRARGS})
  ret void
}}

define internal void @"{K}.segment_back"(i64 %n, ptr %S, ptr %dS, ptr %env) {{
entry:
{LOADPD}  call void @"{K}.segment_gradient"(i64 %n, ptr %S, ptr %dS{PAIRARGS})
  ret void
}}

define internal ptr @"{K}.augment"(i64 %n, ptr %S, ptr %dS{PAIRPARAMS}) {{
entry:
  %env = alloca [{ENVN} x ptr], align 8
{STOREENV}  %t = call ptr @__xenzyme_checkpoint_forward(i64 %n, ptr %S, i64 {SIZE}, i64 {NREG}, i64 {TABLE}, i64 {FLAG}, ptr @"{K}.advance", ptr %env, i64 {SCHEME}, i64 {PARAM})
  ret ptr %t
}}

define internal void @"{K}.gradient"(i64 %n, ptr %S, ptr %dS{PAIRPARAMS}, ptr %tape) {{
entry:
  %env = alloca [{ENVN} x ptr], align 8
{STOREENV}  call void @__xenzyme_checkpoint_reverse(ptr %tape, ptr %S, ptr %dS, ptr @"{K}.advance", ptr @"{K}.back", ptr @"{K}.segment_back", ptr %env)
  ret void
}}

@"__enzyme_register_gradient_{K}.loop" = internal global [3 x ptr] [ptr @"{K}.loop", ptr @"{K}.augment", ptr @"{K}.gradient"]
"""


def _add_glue(module: ModuleOp, key: str, npointers: int, size: int, nreg: int, table: int, flag: int,
              scheme: str, param: int) -> None:  # fmt: skip
    from xenzyme.frontend.llvm_import import import_llvm_ir

    r = range(npointers)
    text = _GLUE.format(
        K=key,
        PTYPES="".join(", ptr" for _ in r),
        PPAIRTYPES="".join(", ptr, ptr" for _ in r),
        PARAMS="".join(f", ptr %p{i}" for i in r),
        ARGS="".join(f", ptr %p{i}" for i in r),
        PAIRARGS="".join(f", ptr %p{i}, ptr %d{i}" for i in r),
        PAIRPARAMS="".join(f", ptr %p{i}, ptr %d{i}" for i in r),
        LOADP="".join(f"  %a{i} = getelementptr ptr, ptr %env, i64 {2 * i}\n  %p{i} = load ptr, ptr %a{i}\n" for i in r),
        LOADPD="".join(f"  %a{i} = getelementptr ptr, ptr %env, i64 {2 * i}\n  %p{i} = load ptr, ptr %a{i}\n"
                       f"  %b{i} = getelementptr ptr, ptr %env, i64 {2 * i + 1}\n  %d{i} = load ptr, ptr %b{i}\n"
                       for i in r),
        STOREENV="".join(f"  %a{i} = getelementptr ptr, ptr %env, i64 {2 * i}\n  store ptr %p{i}, ptr %a{i}\n"
                         f"  %b{i} = getelementptr ptr, ptr %env, i64 {2 * i + 1}\n  store ptr %d{i}, ptr %b{i}\n"
                         for i in r),
        ENVN=max(1, 2 * npointers),
        SIZE=size,
        NREG=nreg,
        TABLE=table,
        FLAG=flag,
        SCHEME={"binomial": 0, "periodic": 1, "budget": 2, "online": 3}[scheme],
        PARAM=param,
    )
    glue = import_llvm_ir(text, "<checkpoint-loops>")
    present = {symbol(o) for o in module.ops}
    for o in list(glue.ops):
        s = symbol(o)
        if s in present or (isinstance(o, xllvm.FuncOp) and not o.body.blocks):
            continue
        o.detach()
        module.body.block.add_op(o)
    _link_runtime(module)
    # The placeholders of the step's and the segment's gradients become derivative requests.
    pair_acts = ["dup"] * npointers
    for o in list(module.walk()):
        if isinstance(o, xllvm.CallOp) and o.callee is not None:
            callee = o.callee.string_value()
            if callee == f"{key}.step_gradient":
                req = ad.AutodiffOp(f"{key}.step", list(o.args), ["dup", *pair_acts], "none", None)
            elif callee == f"{key}.segment_gradient":
                req = ad.AutodiffOp(f"{key}.segment", list(o.args), ["const", "dup", *pair_acts], "none", None)
            else:
                continue
            o.parent_block().insert_op_before(req, o)
            o.detach()
            o.erase()


def _link_runtime(module: ModuleOp) -> None:
    """Copy the runtime's definitions into `module` (once); a program's own definition of the
    counters (`COUNTERS`) is kept, a declaration of one replaced."""
    link_runtime(module, RUNTIME, "__xenzyme_checkpoint_reverse", COUNTERS)
