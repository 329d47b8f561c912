"""Rules for the parallel layer (`par`, and xDSL's `omp.barrier` / `omp.flush`).

A parallel region is its outlined function run by every thread of a team, so its derivative is
that function's derivative run by every thread of a team: `par.parallel @f(args)` becomes, in
the forward sweep, a region running `f`'s augmented function (each thread keeps its own tape),
and in the reverse sweep a region of the same size running `f`'s reverse function, each thread
reversing its own work from its own tape -- the iterations it ran, in the schedule it had,
whatever the schedule (static, chunked, dynamic: the bounds a thread received are on its tape).
The two halves are generated in *team* mode (`GradientGenerator.split_functions(team=True)`):
adjoints into memory other threads may update too are added atomically, and they receive the
team's shared memory (`team_memory`) after their arguments.

Two wrappers join a region's halves to the caller (one pair per augmented function):

    @<aug>.team(gtid, btid, slot, args...)    thread 0 allocates the team's tapes buffer
        [team size T | unused | tape of thread 0 .. T-1 | team memory] and puts it in `slot`;
        after a barrier every thread runs the augmented function and files its tape
    @<rev>.team(gtid, btid, tapes, args...)   every thread runs the reverse function on its tape
        (the region must have the team size the forward one had: it is forked with
        `num_threads(T)`, and a team of another size stops the program with a message)

The tapes buffer is cached by the caller like any value its reverse sweep needs, and freed
after the reverse region.  Forward mode needs none of this: the region runs the tangent
function of `f` on the team (the tangents are computed where the values are).

Inside a region:

* thread numbers and team sizes are the same in both sweeps (the same thread reverses the work
  it did), so the reverse sweep recomputes them rather than caching them;
* worksharing (`static_init`, `dispatch_next`, ...) is not repeated in the reverse sweep: the
  bounds a thread got are primal values, cached on its tape like any other;
* a barrier is mirrored by a barrier: what happened after it in the forward sweep is reversed
  before it;  `critical` sections are reversed as critical sections (begin and end swap);
* `reduce add` gives each thread the adjoint of the shared result (the private copy's adjoint
  is that of the sum); a blocking reduction is preceded by a barrier in the reverse sweep, so
  that every adjoint of the result is in before any thread reads it;
* `atomic_update add` / `sub` and `atomicrmw fadd` / `fsub` pass the adjoint of the updated
  memory to the value (negated for `sub`), without changing it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects import omp
from xdsl.dialects.builtin import DenseArrayBase, Float32Type, ModuleOp, StringAttr, i8, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.activity import carries_derivative, is_pointer_like
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.rules.context import AugmentContext, ForwardContext, OpRule, ReverseContext
from xenzyme.rules.emitter import LLVMEmitter
from xenzyme.rules.helpers import HelperFunction, has_function

_PTR = ext.LLVMPointerType()
_HEADER = 2
"""Words before the tapes in a team's buffer: the team size, and one word unused."""
_TEAM_FIXED_BYTES = 64
"""The team memory every region gets before what its collectives need per thread (its first
word: the counter ordering the team's critical sections)."""


# ---- par.parallel -----------------------------------------------------------------------


def _region_activities(ctx: AugmentContext | ReverseContext, op: par.ParallelOp, fn: xllvm.FuncOp) -> list[str]:
    """The outlined function's activities: its two thread-id pointers are constant; a captured
    pointer is duplicated where the memory behind it carries derivatives."""
    acts = ["const", "const"]
    params = fn.body.blocks.first.args if fn.body.blocks.first is not None else ()
    for i, o in enumerate(op.args):
        if is_pointer_like(o.type):
            holds_constant = i + 2 < len(params) and _holds_only_constant_pointers(ctx, o, params[i + 2])
            acts.append("dup" if ctx.shadowed(o) and not holds_constant else "const")
        elif ad.is_float_like(o.type) and ctx.active(o):
            acts.append("active")  # (firstprivate: every thread's copy has an adjoint)
        elif carries_derivative(o.type) and ctx.active(o):
            ctx.fail(op, f"captured value {i} of the parallel region ({o.type}) carries a derivative by value, "
                         "which is not supported yet",
                     ["let the region read it from memory (a shared variable) instead of a firstprivate copy"])  # fmt: skip
        else:
            acts.append("const")
    if len(fn.function_type.inputs.data) != len(acts):
        ctx.fail(op, f"@{fn.sym_name.data} takes {len(fn.function_type.inputs.data)} parameters, but the region "
                     f"passes {len(acts) - 2} values after the two thread-id pointers")  # fmt: skip
    return acts


def _holds_only_constant_pointers(ctx: AugmentContext | ReverseContext | ForwardContext, captured: SSAValue,
                                  param: SSAValue) -> bool:
    """Whether a captured variable is a stack slot of the caller holding a pointer without a
    shadow (an `enzyme_const` array), which the region only reads.  The region may then take it
    as constant: duplicated, its shadow would hold the array itself, and the region's reverse
    would add adjoints into the constant array."""
    if not isinstance(captured.owner, xllvm.AllocaOp):
        return False
    users = ext.real_users(captured)
    stored = [u for u in users if isinstance(u, ext.StoreOp) and u.ptr is captured]
    others = [u for u in users
              if not isinstance(u, ext.StoreOp | xllvm.LoadOp | par.ParallelOp) or
              isinstance(u, ext.StoreOp) and u.ptr is not captured]  # fmt: skip
    if others or not stored or not all(is_pointer_like(s.value.type) and not ctx.shadowed(s.value) for s in stored):
        return False
    return not any(isinstance(u, ext.StoreOp) and u.ptr is param for u in ext.real_users(param))


def _outlined(ctx: AugmentContext | ReverseContext | ForwardContext, op: par.ParallelOp) -> xllvm.FuncOp:
    name = op.callee.string_value()
    fn = ctx.calls.function(name)
    if fn is None or not fn.body.blocks:
        ctx.fail(op, f"the parallel region runs @{name}, whose body is not in this module")
    return fn


def _fork(e: LLVMEmitter, op: par.ParallelOp, callee: str, args: Sequence[SSAValue], num_threads: SSAValue | None) -> None:
    e.insert(par.ParallelOp(callee, list(args), num_threads,
                            op.proc_bind.data if op.proc_bind is not None else None, op.serial is not None))  # fmt: skip


def _interleaved(values: Sequence[SSAValue], shadows: Sequence[SSAValue | None]) -> list[SSAValue]:
    out: list[SSAValue] = []
    for v, s in zip(values, shadows, strict=True):
        out.append(v)
        if s is not None:
            out.append(s)
    return out


def _augment_parallel(ctx: AugmentContext, op: Operation) -> None:
    assert isinstance(op, par.ParallelOp)
    fn = _outlined(ctx, op)
    acts = _region_activities(ctx, op, fn)
    aug, rev = ctx.calls.team_split(fn, acts)
    e = ctx.e
    slot = ctx.stack_slot(_PTR)
    shadows = [ctx.fwd_shadow(o) if a == "dup" else None for o, a in zip(op.args, acts[2:], strict=True)]
    args = _interleaved([ctx.fwd(o) for o in op.args], shadows)
    wrapper = _augment_wrapper(ctx.module, aug, [a.type for a in args], team_memory_bytes_per_thread(ctx.module, fn))
    n = ctx.fwd(op.num_threads) if op.num_threads is not None else None
    _fork(e, op, wrapper, [slot, *args], n)
    tapes = e.insert(xllvm.LoadOp(slot, _PTR))
    tapes.name_hint = "team_tapes"
    ctx.save((op, "tapes"), tapes)
    actives = [o.type for o, a in zip(op.args, acts[2:], strict=True) if a == "active"]
    _reverse_wrapper(ctx.module, rev, [a.type for a in args], actives)  # (named now: its body needs no values)


def _reverse_parallel(ctx: ReverseContext, op: Operation) -> None:
    assert isinstance(op, par.ParallelOp)
    fn = _outlined(ctx, op)
    acts = _region_activities(ctx, op, fn)
    _, rev = ctx.calls.team_split(fn, acts)
    e = ctx.e
    tapes = ctx.restore((op, "tapes"))
    shadows = [ctx.shadow(o) if a == "dup" else None for o, a in zip(op.args, acts[2:], strict=True)]
    args = _interleaved([ctx.get(o) for o in op.args], shadows)
    actives = [o for o, a in zip(op.args, acts[2:], strict=True) if a == "active"]
    sums = []
    for k, o in enumerate(actives):  # the team's adjoints of values each thread got a copy of
        slot = ctx.stack_slot(o.type, (op, "sum", k))
        e.insert(ext.StoreOp(e.zero(o.type), slot))
        sums.append(slot)
    wrapper = _reverse_wrapper(ctx.module, rev, [a.type for a in args], [o.type for o in actives])
    team_size = e.insert(xllvm.TruncOp(e.insert(xllvm.LoadOp(tapes, i64)), i32))  # type: ignore[arg-type]
    _fork(e, op, wrapper, [tapes, *sums, *args], team_size)
    e.declare("free", [_PTR])
    e.call_function("free", [tapes])
    for o, slot in zip(actives, sums, strict=True):
        ctx.accumulate(o, e.insert(xllvm.LoadOp(slot, o.type)))


def _tangent_parallel(ctx: ForwardContext, op: Operation) -> None:
    """Forward mode: the region runs the outlined function's tangent function."""
    assert isinstance(op, par.ParallelOp)
    fn = _outlined(ctx, op)
    info = ctx.info
    acts = ["const", "const"]
    args: list[SSAValue] = []
    params = fn.body.blocks.first.args if fn.body.blocks.first is not None else ()
    for i, o in enumerate(op.args):
        args.append(ctx.get(o))
        constant = is_pointer_like(o.type) and i + 2 < len(params) and _holds_only_constant_pointers(ctx, o, params[i + 2])
        if (o in info.varied or o in info.shadowed) and not constant:
            acts.append("dup")
            args += ctx.tangent(o)
        else:
            acts.append("const")
    name = ctx.calls.tangent_name(fn, acts, "none")
    n = ctx.get(op.num_threads) if op.num_threads is not None else None
    _fork(ctx.e, op, name, args, n)


# ---- the wrappers -----------------------------------------------------------------------


def _function(module: ModuleOp, name: str) -> xllvm.FuncOp | None:
    for f in module.ops:
        if isinstance(f, xllvm.FuncOp) and f.sym_name.data == name:
            return f
    return None


def _augment_wrapper(module: ModuleOp, aug: str, arg_types: list[Attribute], per_thread: int) -> str:
    """`@<aug>.team(gtid, btid, slot, args...)`: see the module docstring."""
    name = f"{aug}.team"
    if _function(module, name) is not None:
        return name
    entry = Block(arg_types=[_PTR, _PTR, _PTR, *arg_types])
    gtid, btid, slot, *args = entry.args
    alloc, join = Block(), Block()
    e = LLVMEmitter(Builder(InsertPoint.at_end(entry)), module)
    tid = e.insert(par.ThreadNumOp())
    n = e.to_i64(e.insert(par.NumThreadsOp()))
    first = e.insert(ext.ICmpOp(tid, e.i32(0), "eq"))
    e.insert(xllvm.CondBrOp(first, alloc, [], join, []))
    e = LLVMEmitter(Builder(InsertPoint.at_end(alloc)), module)
    e.declare("malloc", [i64], _PTR)
    words = e.insert(xllvm.AddOp(n, e.i64(_HEADER)))  # type: ignore[arg-type]
    team_bytes = e.insert(xllvm.AddOp(e.insert(xllvm.MulOp(words, e.i64(per_thread))), e.i64(_TEAM_FIXED_BYTES)))  # type: ignore[arg-type]
    size = e.insert(xllvm.AddOp(e.insert(xllvm.MulOp(words, e.i64(8))), team_bytes))  # type: ignore[arg-type]
    buffer = e.call_function("malloc", [size], _PTR)
    e.memset_zero(_team_memory(e, buffer, n), team_bytes)
    e.insert(ext.StoreOp(n, buffer))
    e.insert(ext.StoreOp(buffer, slot))
    e.insert(xllvm.BrOp(join))
    e = LLVMEmitter(Builder(InsertPoint.at_end(join)), module)
    e.insert(omp.BarrierOp())
    tapes = e.insert(xllvm.LoadOp(slot, _PTR))
    team = _team_memory(e, tapes, n)
    aug_fn = _function(module, aug)
    result_type = aug_fn.function_type.output if aug_fn is not None else ext.LLVMStructType.from_type_list([_PTR])
    r = e.call_function(aug, [gtid, btid, *args, team], result_type)
    tape = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), r, _PTR))
    slot_of_tape = e.insert(ext.GEPOp(tapes, [ext.GEP_USE_SSA_VAL], i64, [e.insert(xllvm.AddOp(e.to_i64(tid), e.i64(_HEADER)))]))  # type: ignore[arg-type]
    e.insert(ext.StoreOp(tape, slot_of_tape))
    e.insert(xllvm.ReturnOp())
    _add(module, name, entry, [alloc, join])
    return name


def _reverse_wrapper(module: ModuleOp, rev: str, arg_types: list[Attribute], actives: Sequence[Attribute] = ()) -> str:
    """`@<rev>.team(gtid, btid, tapes, sums..., args...)`: see the module docstring; `sums`:
    where the team adds up the adjoints of the values it captured by value (`actives`)."""
    name = f"{rev}.team"
    if _function(module, name) is not None:
        return name
    entry = Block(arg_types=[_PTR, _PTR, _PTR, *[_PTR for _ in actives], *arg_types])
    gtid, btid, tapes, *rest = entry.args
    sums, args = rest[: len(actives)], rest[len(actives) :]
    run, wrong = Block(), Block()
    e = LLVMEmitter(Builder(InsertPoint.at_end(entry)), module)
    tid = e.insert(par.ThreadNumOp())
    n = e.to_i64(e.insert(par.NumThreadsOp()))
    team_size = e.insert(xllvm.LoadOp(tapes, i64))
    same = e.insert(ext.ICmpOp(n, team_size, "eq"))
    e.insert(xllvm.CondBrOp(same, run, [], wrong, []))
    e = LLVMEmitter(Builder(InsertPoint.at_end(wrong)), module)
    _stop(e, module, "xenzyme: the reverse of a parallel region got a team of another size than its forward "
                     "sweep had (the runtime gave fewer threads: OMP_DYNAMIC or a thread limit?); stopping\n")
    e = LLVMEmitter(Builder(InsertPoint.at_end(run)), module)
    at = e.insert(ext.GEPOp(tapes, [ext.GEP_USE_SSA_VAL], i64, [e.insert(xllvm.AddOp(e.to_i64(tid), e.i64(_HEADER)))]))  # type: ignore[arg-type]
    tape = e.insert(xllvm.LoadOp(at, _PTR))
    team = _team_memory(e, tapes, team_size)
    result = ad.derivative_result_type(list(actives))
    derivatives = e.call_function(rev, [gtid, btid, *args, team, tape], result)
    for k, (slot, t) in enumerate(zip(sums, actives, strict=True)):
        d = derivatives if len(actives) == 1 else e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), derivatives, t))
        e.insert(ext.AtomicRMWOp("fadd", slot, d, "monotonic"))
    e.insert(xllvm.ReturnOp())
    _add(module, name, entry, [run, wrong])
    return name


def _team_memory(e: LLVMEmitter, tapes: SSAValue, team_size: SSAValue) -> SSAValue:
    words = e.insert(xllvm.AddOp(team_size, e.i64(_HEADER)))  # type: ignore[arg-type]
    return e.insert(ext.GEPOp(tapes, [ext.GEP_USE_SSA_VAL], i64, [words]))


def _stop(e: LLVMEmitter, module: ModuleOp, text: str) -> None:
    """Print `text` on stderr and abort (the block ends unreachable)."""
    name = _message(module, text)
    e.declare("write", [i32, _PTR, i64], i64)
    e.declare("abort", [])
    e.call_function("write", [e.i32(2), e.insert(xllvm.AddressOfOp(name, _PTR)), e.i64(len(text))], i64)
    e.call_function("abort", [])
    e.insert(xllvm.UnreachableOp())


def _message(module: ModuleOp, text: str) -> str:
    for op in module.ops:
        if isinstance(op, xllvm.GlobalOp) and isinstance(op.value, StringAttr) and op.value.data == text:
            return op.sym_name.data
    taken = {op.sym_name.data for op in module.ops if isinstance(op, xllvm.GlobalOp | xllvm.FuncOp)}
    name, k = "xenzyme.message.par", 1
    while name in taken:
        k += 1
        name = f"xenzyme.message.par.{k}"
    module.body.block.add_op(
        xllvm.GlobalOp(ext.LLVMArrayType(len(text), i8), name, "private", constant=True, value=StringAttr(text))
    )
    return name


def _add(module: ModuleOp, name: str, entry: Block, blocks: list[Block]) -> None:
    fn = xllvm.FuncOp(name, ext.LLVMFunctionType(list(entry.arg_types), ext.LLVMVoidType()),
                      linkage=xllvm.LinkageAttr("internal"), body=Region([entry, *blocks]))  # fmt: skip
    module.body.block.add_op(fn)


# ---- synchronisation --------------------------------------------------------------------


def _reverse_barrier(ctx: ReverseContext, op: Operation) -> None:
    ctx.e.insert(omp.BarrierOp())


def _reverse_flush(ctx: ReverseContext, op: Operation) -> None:
    ctx.e.insert(omp.FlushOp())


# A team replays its critical sections (and order-dependent atomic updates) in the reverse of
# the order in which it ran them: the reverse of a running maximum, or of `p *= v`, depends on
# who came last.  Each section draws a number from the team's counter (its first word of team
# memory) when it runs; in the reverse sweep a section waits until the counter is one past its
# number, runs, and sets the counter to its number -- the counter counts back to 0.  Outside a
# team (one thread) nothing waits.


def _counter(ctx: AugmentContext | ReverseContext) -> SSAValue | None:
    return ctx.team_memory()


def _draw(ctx: AugmentContext, counter: SSAValue) -> SSAValue:
    """The next number of the team's order (inside the section's lock)."""
    return ctx.e.insert(ext.AtomicRMWOp("add", counter, ctx.e.i64(1), "acq_rel"))


def _wait_turn(ctx: ReverseContext, counter: SSAValue, number: SSAValue) -> None:
    e = ctx.e
    after = e.insert(xllvm.AddOp(number, e.i64(1)))  # type: ignore[arg-type]
    e.call_function(_wait_helper(ctx.module), [counter, after])


def _pass_turn(ctx: ReverseContext, counter: SSAValue, number: SSAValue) -> None:
    ctx.e.insert(ext.AtomicRMWOp("xchg", counter, number, "release"))


def _wait_helper(module: ModuleOp) -> str:
    """`xenzyme.par.wait_turn(counter, value)`: spin (yielding) until *counter == value."""
    name = "xenzyme.par.wait_turn"
    if has_function(module, name):
        return name
    entry, spin, done = Block(arg_types=[_PTR, i64]), Block(), Block()
    counter, value = entry.args
    LLVMEmitter(Builder(InsertPoint.at_end(entry)), module).insert(xllvm.BrOp(spin))
    e = LLVMEmitter(Builder(InsertPoint.at_end(spin)), module)
    now = e.insert(ext.AtomicRMWOp("add", counter, e.i64(0), "acquire"))
    there = e.insert(ext.ICmpOp(now, value, "eq"))
    wait = Block()
    e.insert(xllvm.CondBrOp(there, done, [], wait, []))
    e = LLVMEmitter(Builder(InsertPoint.at_end(wait)), module)
    e.declare("sched_yield", [], i32)
    e.call_function("sched_yield", [], i32)
    e.insert(xllvm.BrOp(spin))
    done.add_op(xllvm.ReturnOp())
    _add(module, name, entry, [spin, wait, done])
    return name


def _augment_critical_begin(ctx: AugmentContext, op: Operation) -> None:
    assert isinstance(op, par.CriticalBeginOp)
    if (counter := _counter(ctx)) is None:
        return
    ctx.e.insert(ext.StoreOp(_draw(ctx, counter), ctx.stack_slot(i64, ("critical", op.lock.string_value()))))


def _augment_critical_end(ctx: AugmentContext, op: Operation) -> None:
    assert isinstance(op, par.CriticalEndOp)
    if _counter(ctx) is None:
        return
    slot = ctx.stack_slot(i64, ("critical", op.lock.string_value()))
    ctx.save((op, "turn"), ctx.e.insert(xllvm.LoadOp(slot, i64)))


def _reverse_critical_end(ctx: ReverseContext, op: Operation) -> None:
    """The section's reverse begins: in its turn, under its lock."""
    assert isinstance(op, par.CriticalEndOp)
    if (counter := _counter(ctx)) is not None:
        number = ctx.restore((op, "turn"))
        _wait_turn(ctx, counter, number)
        ctx.e.insert(ext.StoreOp(number, ctx.stack_slot(i64, ("critical", op.lock.string_value()))))
    ctx.e.insert(par.CriticalBeginOp(op.lock))


def _reverse_critical_begin(ctx: ReverseContext, op: Operation) -> None:
    """The section's reverse ends: the lock, then the turn, go to the section before it."""
    assert isinstance(op, par.CriticalBeginOp)
    ctx.e.insert(par.CriticalEndOp(op.lock))
    if (counter := _counter(ctx)) is not None:
        number = ctx.e.insert(xllvm.LoadOp(ctx.stack_slot(i64, ("critical", op.lock.string_value())), i64))
        _pass_turn(ctx, counter, number)


# ---- reductions and atomic updates ------------------------------------------------------


def _elements(e: LLVMEmitter, ptr: SSAValue, op: par.ReduceOp) -> list[SSAValue]:
    t = op.element_type
    return [ptr if k == 0 else e.insert(ext.GEPOp(ptr, [k], t)) for k in range(op.elements)]


def _float_reduce(op: par.ReduceOp) -> bool:
    return carries_derivative(op.element_type)


def _augment_reduce(ctx: AugmentContext, op: Operation) -> None:
    """'+' reductions stay as they are.  For '*', max and min the reverse sweep needs every
    thread's contribution: the team combines them itself, in thread order, through its shared
    memory, and each thread keeps the factor its private copy's adjoint is the result's times
    (and thread 0 the shared value's): `_combine_and_record`."""
    assert isinstance(op, par.ReduceOp)
    kind = op.kind.data
    if kind == "add" or not _float_reduce(op) or not ctx.shadowed(op.private):
        ctx.copy(op)
        return
    e = ctx.e
    n = op.elements
    e.declare("malloc", [i64], _PTR)
    factors = e.call_function("malloc", [e.i64(16 * n)], _PTR)
    helper = _combine_and_record(ctx.module, kind, op.element_type)
    team = ctx.team_memory()
    if team is None:
        ctx.fail(op, f"a '{kind}' reduction outside a parallel region (an orphaned worksharing loop called from "
                     "serial code) cannot be differentiated in reverse mode yet",
                 ["call the function from inside the parallel region, or use a '+' reduction"])  # fmt: skip
    e.call_function(helper, [ctx.fwd(op.shared), ctx.fwd(op.private), e.i64(n), team, factors])
    ctx.save((op, "factors"), factors)


def _reverse_reduce(ctx: ReverseContext, op: Operation) -> None:
    """shared = shared (kind) private: the private copy's adjoint from the result's."""
    assert isinstance(op, par.ReduceOp)
    t = op.element_type
    if not _float_reduce(op) or not ctx.shadowed(op.private) or not ctx.shadowed(op.shared):
        return
    e = ctx.e
    if op.kind.data != "add":
        factors = ctx.restore((op, "factors"))
        helper = _reverse_recorded(ctx.module, t)
        e.call_function(helper, [ctx.shadow(op.shared), ctx.shadow(op.private), e.i64(op.elements), factors])
        e.declare("free", [_PTR])
        e.call_function("free", [factors])
        return
    if op.nowait is None:
        e.insert(omp.BarrierOp())  # every adjoint of the result is in before it is read
    shared = _elements(e, ctx.shadow(op.shared), op)
    private = _elements(e, ctx.shadow(op.private), op)
    for s, p in zip(shared, private, strict=True):
        ctx.accumulate_memory(p, e.insert(xllvm.LoadOp(s, t)), primal=op.private)


def _tangent_reduce(ctx: ForwardContext, op: Operation) -> None:
    """'+': the tangents are reduced alongside the values.  '*', max, min: value and tangents are
    combined together under a lock (the tangent of s * p needs the s it is combined with)."""
    assert isinstance(op, par.ReduceOp)
    info = ctx.info
    kind = op.kind.data
    if op.private not in info.shadowed or not _float_reduce(op):
        ctx.copy(op)
        return
    if kind == "add":
        ctx.copy(op)
        for ds, dp in zip(ctx.shadows(op.shared), ctx.shadows(op.private), strict=True):
            ctx.e.insert(par.ReduceOp("add", ds, dp, op.element_type, op.elements, op.nowait is not None))
        return
    _tangent_combine(ctx, op, kind, op.shared, op.private, op.elements, op.element_type, True)
    if op.nowait is None:
        ctx.e.insert(omp.BarrierOp())


def _tangent_combine(ctx: ForwardContext, op: Operation, kind: str, shared: SSAValue, value: SSAValue, n: int,
                     t: Attribute, value_in_memory: bool) -> None:
    e = ctx.e
    if value_in_memory:
        private, dprivates = ctx.get(value), list(ctx.shadows(value))
    else:  # an atomic update's value: put it and its tangents in memory for the helper
        private = ctx.stack_slot(t)
        e.insert(ext.StoreOp(ctx.get(value), private))
        dprivates = []
        for dv in ctx.tangent(value):
            dprivates.append(ctx.stack_slot(t))
            e.insert(ext.StoreOp(dv, dprivates[-1]))
    helper = _combine_with_tangent(ctx.module, kind, t, ctx.width)
    e.call_function(helper, [ctx.get(shared), *ctx.shadows(shared), private, *dprivates, e.i64(n)])


_ATOMIC_LOCK = "xenzyme.par.atomic"
"""The lock under which order-dependent atomic updates of data with derivatives run."""


def _augment_atomic_update(ctx: AugmentContext, op: Operation) -> None:
    """add/sub stay atomic; for '*', '/', max and min the reverse needs the value the memory
    held and the order of the updates: they run under a lock, drawing their number."""
    assert isinstance(op, par.AtomicUpdateOp)
    kind = op.kind.data
    if kind in ("add", "sub") or not ctx.active(op.value) or not ctx.shadowed(op.ptr):
        ctx.copy(op)
        return
    e = ctx.e
    _lock(ctx.module, _ATOMIC_LOCK)
    e.insert(par.CriticalBeginOp(_ATOMIC_LOCK))
    if (counter := _counter(ctx)) is not None:
        ctx.save((op, "turn"), _draw(ctx, counter))
    t = op.value.type
    p, v = ctx.fwd(op.ptr), ctx.fwd(op.value)
    old = e.insert(xllvm.LoadOp(p, t))
    e.insert(ext.StoreOp(_combine(e, kind, old, v), p))
    e.insert(par.CriticalEndOp(_ATOMIC_LOCK))
    ctx.save((op, "old"), old)


def _reverse_atomic_update(ctx: ReverseContext, op: Operation) -> None:
    """*p = *p (kind) v: for add and sub the value's adjoint is the memory's (negated for sub),
    which keeps its adjoint; for the others, in the update's turn, from the value `p` held."""
    assert isinstance(op, par.AtomicUpdateOp)
    if not ctx.active(op.value):
        return
    kind = op.kind.data
    e = ctx.e
    t = op.value.type
    dp_ptr = ctx.shadow(op.ptr)
    if kind in ("add", "sub"):
        d = e.insert(xllvm.LoadOp(dp_ptr, t))
        ctx.accumulate(op.value, d if kind == "add" else e.neg(d))
        return
    counter = _counter(ctx)
    number = ctx.restore((op, "turn")) if counter is not None else None
    if counter is not None and number is not None:
        _wait_turn(ctx, counter, number)
    old, v = ctx.restore((op, "old")), ctx.get(op.value)
    d = e.insert(xllvm.LoadOp(dp_ptr, t))
    if kind == "mul":
        dv, dold = e.mul(d, old), e.mul(d, v)
    elif kind == "div":
        q = e.div(d, v)
        dv, dold = e.neg(e.mul(q, e.div(old, v))), q
    else:  # max / min: the memory kept `old` unless `v` won (clang: old > v ? old : v)
        kept = e.fcmp("ogt" if kind == "max" else "olt", old, v)
        zero = e.zero(t)
        dv, dold = e.select(kept, zero, d), e.select(kept, d, zero)
    e.insert(ext.StoreOp(dold, dp_ptr))
    ctx.accumulate(op.value, dv)
    if counter is not None and number is not None:
        _pass_turn(ctx, counter, number)


def _tangent_atomic_update(ctx: ForwardContext, op: Operation) -> None:
    assert isinstance(op, par.AtomicUpdateOp)
    info = ctx.info
    if op.ptr not in info.shadowed or op.value not in info.varied:
        ctx.copy(op)
        return
    kind = op.kind.data
    if kind not in ("add", "sub"):
        _tangent_combine(ctx, op, kind, op.ptr, op.value, 1, op.value.type, False)
        return
    ctx.copy(op)
    for s, t in zip(ctx.shadows(op.ptr), ctx.tangent(op.value), strict=True):
        ctx.e.insert(par.AtomicUpdateOp(kind, s, t, op.ordering.data))


# ---- helpers ----------------------------------------------------------------------------

_LOCK = "xenzyme.par.lock"
"""The lock of the helpers that combine values and tangents together."""


def _type_name(t: Attribute) -> str:
    return "f32" if isinstance(t, Float32Type) else "f64"


def _combine(e: LLVMEmitter, kind: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a <kind> b` as clang's combiners compute it (max: a > b ? a : b)."""
    if kind == "mul":
        return e.mul(a, b)
    if kind == "add":
        return e.add(a, b)
    if kind == "sub":
        return e.sub(a, b)
    if kind == "div":
        return e.div(a, b)
    return e.select(e.fcmp("ogt" if kind == "max" else "olt", a, b), a, b)


def _element(e: LLVMEmitter, base: SSAValue, k: SSAValue, t: Attribute) -> SSAValue:
    return e.insert(ext.GEPOp(base, [ext.GEP_USE_SSA_VAL], t, [k]))


def _team_values(e: LLVMEmitter, team: SSAValue) -> SSAValue:
    return e.insert(ext.GEPOp(team, [_TEAM_FIXED_BYTES], i8))


def _combine_and_record(module: ModuleOp, kind: str, t: Attribute) -> str:
    """`helper(shared, private, n, team, factors)`, run by every thread of the team: the team's
    private copies go to its shared memory; thread 0 combines them into `shared` in thread
    order, starting from shared's value; then each thread finds in `factors[k]` the derivative
    of the result with respect to its `private[k]`, and in `factors[n + k]` with respect to
    shared's value before.  Barriers separate the steps (and the next use of the memory)."""
    name = f"xenzyme.par.reduce.{kind}.{_type_name(t)}"
    if has_function(module, name):
        return name
    h = HelperFunction(module, name, [_PTR, _PTR, i64, _PTR, _PTR])
    shared, private, n, team, factors = h.args
    e = h.e
    tid = e.to_i64(e.insert(par.ThreadNumOp()))
    nt = e.to_i64(e.insert(par.NumThreadsOp()))
    values = _team_values(e, team)
    before = _element(e, values, e.insert(xllvm.MulOp(nt, n)), t)  # type: ignore[arg-type]
    acc = e.insert(xllvm.AllocaOp.create(operands=[e.i64(1)], result_types=[_PTR], properties={"elem_type": t}))
    winner = e.insert(xllvm.AllocaOp.create(operands=[e.i64(1)], result_types=[_PTR], properties={"elem_type": i64}))
    with h.loop(n) as k:
        e = h.e
        at = e.insert(xllvm.AddOp(e.insert(xllvm.MulOp(tid, n)), k))  # type: ignore[arg-type]
        e.insert(ext.StoreOp(e.insert(xllvm.LoadOp(_element(e, private, k, t), t)), _element(e, values, at, t)))
    h.e.insert(omp.BarrierOp())
    with h.when(h.e.insert(ext.ICmpOp(tid, h.e.i64(0), "eq"))):
        with h.loop(n) as k:
            e = h.e
            s0 = e.insert(xllvm.LoadOp(_element(e, shared, k, t), t))
            e.insert(ext.StoreOp(s0, _element(e, before, k, t)))
            e.insert(ext.StoreOp(s0, acc))
            with h.loop(nt) as u:
                e = h.e
                p = e.insert(xllvm.LoadOp(_element(e, values, e.insert(xllvm.AddOp(e.insert(xllvm.MulOp(u, n)), k)), t), t))  # type: ignore[arg-type]
                e.insert(ext.StoreOp(_combine(e, kind, e.insert(xllvm.LoadOp(acc, t)), p), acc))
            e = h.e
            e.insert(ext.StoreOp(e.insert(xllvm.LoadOp(acc, t)), _element(e, shared, k, t)))
    h.e.insert(omp.BarrierOp())
    with h.loop(n) as k:
        e = h.e
        s0 = e.insert(xllvm.LoadOp(_element(e, before, k, t), t))
        e.insert(ext.StoreOp(s0, acc))
        e.insert(ext.StoreOp(e.i64(-1), winner))
        whole = e.insert(xllvm.AllocaOp.create(operands=[e.i64(1)], result_types=[_PTR], properties={"elem_type": t}))
        e.insert(ext.StoreOp(e.const(1, t), whole))
        with h.loop(nt) as u:
            e = h.e
            p = e.insert(xllvm.LoadOp(_element(e, values, e.insert(xllvm.AddOp(e.insert(xllvm.MulOp(u, n)), k)), t), t))  # type: ignore[arg-type]
            a = e.insert(xllvm.LoadOp(acc, t))
            if kind == "mul":
                mine = e.insert(ext.ICmpOp(u, tid, "eq"))
                e.insert(ext.StoreOp(e.select(mine, a, e.mul(a, p)), acc))  # s0 * prod of the others
                e.insert(ext.StoreOp(e.mul(e.insert(xllvm.LoadOp(whole, t)), p), whole))
            else:
                keeps = e.fcmp("ogt" if kind == "max" else "olt", a, p)  # (clang: s > p ? s : p)
                e.insert(ext.StoreOp(e.select(keeps, a, p), acc))
                e.insert(ext.StoreOp(e.insert(ext.SelectOp(keeps, e.insert(xllvm.LoadOp(winner, i64)), u)), winner))
        e = h.e
        if kind == "mul":
            mine_factor, before_factor = e.insert(xllvm.LoadOp(acc, t)), e.insert(xllvm.LoadOp(whole, t))
        else:
            w = e.insert(xllvm.LoadOp(winner, i64))
            one, zero = e.const(1, t), e.zero(t)
            mine_factor = e.select(e.insert(ext.ICmpOp(w, tid, "eq")), one, zero)
            before_factor = e.select(e.insert(ext.ICmpOp(w, e.i64(-1), "eq")), one, zero)
        e.insert(ext.StoreOp(mine_factor, _element(e, factors, k, t)))
        e.insert(ext.StoreOp(before_factor, _element(e, factors, e.insert(xllvm.AddOp(n, k)), t)))  # type: ignore[arg-type]
    h.e.insert(omp.BarrierOp())
    return h.finish()


def _reverse_recorded(module: ModuleOp, t: Attribute) -> str:
    """`helper(dshared, dprivate, n, factors)`: every thread adds the result's adjoint times
    its factor to its private copy's adjoint; then thread 0 scales the shared adjoint to that of
    shared's value before (barriers: the adjoint of the result is complete before it is read,
    and read by all before it changes)."""
    name = f"xenzyme.par.reduce.reverse.{_type_name(t)}"
    if has_function(module, name):
        return name
    h = HelperFunction(module, name, [_PTR, _PTR, i64, _PTR])
    dshared, dprivate, n, factors = h.args
    tid = h.e.to_i64(h.e.insert(par.ThreadNumOp()))
    h.e.insert(omp.BarrierOp())
    with h.loop(n) as k:
        e = h.e
        d = e.insert(xllvm.LoadOp(_element(e, dshared, k, t), t))
        at = _element(e, dprivate, k, t)
        f = e.insert(xllvm.LoadOp(_element(e, factors, k, t), t))
        e.insert(ext.StoreOp(e.add(e.insert(xllvm.LoadOp(at, t)), e.mul(d, f)), at))
    h.e.insert(omp.BarrierOp())
    with h.when(h.e.insert(ext.ICmpOp(tid, h.e.i64(0), "eq"))):
        with h.loop(n) as k:
            e = h.e
            at = _element(e, dshared, k, t)
            f = e.insert(xllvm.LoadOp(_element(e, factors, e.insert(xllvm.AddOp(n, k)), t), t))  # type: ignore[arg-type]
            e.insert(ext.StoreOp(e.mul(e.insert(xllvm.LoadOp(at, t)), f), at))
    h.e.insert(omp.BarrierOp())
    return h.finish()


def _combine_with_tangent(module: ModuleOp, kind: str, t: Attribute, width: int = 1) -> str:
    """`helper(shared, dshared_1..w, value, dvalue_1..w, n)`: shared[k] = shared[k] <kind>
    value[k] and its `width` tangents, under one lock (each tangent needs the shared value the
    value meets, so all of them are combined before the value is)."""
    name = f"xenzyme.par.combine.{kind}.{_type_name(t)}" + (f".x{width}" if width > 1 else "")
    if has_function(module, name):
        return name
    _lock(module)
    h = HelperFunction(module, name, [_PTR] * (2 + 2 * width) + [i64])
    shared, dshared, value, dvalue, n = (h.args[0], h.args[1:1 + width], h.args[1 + width],
                                         h.args[2 + width:2 + 2 * width], h.args[-1])  # fmt: skip
    h.e.insert(par.CriticalBeginOp(_LOCK))
    with h.loop(n) as k:
        e = h.e
        ps = _element(e, shared, k, t)
        s = e.insert(xllvm.LoadOp(ps, t))
        v = e.insert(xllvm.LoadOp(_element(e, value, k, t), t))
        for dshared_j, dvalue_j in zip(dshared, dvalue, strict=True):
            pd = _element(e, dshared_j, k, t)
            ds = e.insert(xllvm.LoadOp(pd, t))
            dv = e.insert(xllvm.LoadOp(_element(e, dvalue_j, k, t), t))
            if kind in ("add", "sub"):
                tangent = _combine(e, kind, ds, dv)
            elif kind == "mul":
                tangent = e.add(e.mul(ds, v), e.mul(s, dv))
            elif kind == "div":
                tangent = e.div(e.sub(ds, e.mul(e.div(s, v), dv)), v)
            else:
                tangent = e.select(e.fcmp("ogt" if kind == "max" else "olt", s, v), ds, dv)
            e.insert(ext.StoreOp(tangent, pd))
        e.insert(ext.StoreOp(_combine(e, kind, s, v), ps))
    h.e.insert(par.CriticalEndOp(_LOCK))
    return h.finish()


def _lock(module: ModuleOp, name: str = _LOCK) -> None:
    if any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name for o in module.ops):
        return
    t = ext.LLVMArrayType(8, i32)
    zero = xllvm.ZeroOp.create(result_types=[t])
    module.body.block.add_op(xllvm.GlobalOp(t, name, "internal", alignment=8,
                                            body=Region([Block([zero, xllvm.ReturnOp(zero.results[0])])])))  # fmt: skip


def team_memory_bytes_per_thread(module: ModuleOp, fn: xllvm.FuncOp) -> int:
    """What the collectives of a region (in `fn` and the functions it calls) need of the team's
    shared memory per thread: one value per element of the widest '*', max or min reduction."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
    seen, work, widest = set(), [fn], 0
    while work:
        f = work.pop()
        if f.sym_name.data in seen:
            continue
        seen.add(f.sym_name.data)
        for op in f.walk():
            if isinstance(op, par.ReduceOp) and op.kind.data != "add" and carries_derivative(op.element_type):
                widest = max(widest, op.elements)
            elif isinstance(op, xllvm.CallOp) and op.callee is not None and (g := functions.get(op.callee.string_value())):
                work.append(g)
    return 8 * widest


RULES: dict[type[Operation], OpRule] = {
    par.ParallelOp: OpRule(augment=_augment_parallel, reverse=_reverse_parallel, tangent=_tangent_parallel,
                           emits_primal=True),
    par.ThreadNumOp: OpRule(recomputable=True),
    par.NumThreadsOp: OpRule(recomputable=True),
    par.MasterBeginOp: OpRule(recomputable=True),
    omp.BarrierOp: OpRule(reverse=_reverse_barrier),
    omp.FlushOp: OpRule(reverse=_reverse_flush),
    par.CriticalBeginOp: OpRule(augment=_augment_critical_begin, reverse=_reverse_critical_begin),
    par.CriticalEndOp: OpRule(augment=_augment_critical_end, reverse=_reverse_critical_end),
    par.ReduceOp: OpRule(augment=_augment_reduce, reverse=_reverse_reduce, tangent=_tangent_reduce, emits_primal=True),
    par.AtomicUpdateOp: OpRule(augment=_augment_atomic_update, reverse=_reverse_atomic_update,
                               tangent=_tangent_atomic_update, emits_primal=True),
}


def rule_for(op: Operation) -> OpRule | None:
    return RULES.get(type(op))

