"""`raise-openmp`: clang's OpenMP runtime calls -> `par` ops (xenzyme/dialects/par.py).

Pattern-based on the runtime calls, not on the shape of clang's loops (which differs between
-O0 and -O2):

    __kmpc_fork_call(loc, n, @outlined, args...)      ->  par.parallel @outlined(args...)
      (a __kmpc_push_num_threads / _push_proc_bind just before it: num_threads / proc_bind)
    __kmpc_serialized_parallel; @outlined(&gtid, &zero, args...); __kmpc_end_serialized_parallel
                                                      ->  par.parallel @outlined(args...) serial
    __kmpc_for_static_init_{4,4u,8,8u}(.., &last, &lb, &ub, &stride, incr, chunk)
                                                      ->  %lb, %ub, %stride, %last = par.static_init ...
    __kmpc_for_static_fini                            ->  par.static_fini
    __kmpc_dispatch_init_* / _next_* / _deinit         ->  par.dispatch_init / _next / _fini
    __kmpc_reduce[_nowait] + switch {1: combine, 2: atomics}
                                                      ->  par.reduce <kind> %shared, %private, per variable
    compare-exchange loop updating a float            ->  par.atomic_update <kind> %p, %v
    __kmpc_barrier, __kmpc_flush                      ->  omp.barrier, omp.flush
    __kmpc_critical / _end_critical (lock @g)         ->  par.critical_begin @g / par.critical_end @g
    __kmpc_single / __kmpc_master (+ their ends)      ->  par.single_begin / par.master_begin (+ ends)
    omp_get_thread_num(), omp_get_num_threads()       ->  par.thread_num, par.num_threads

Runtime-written memory becomes SSA values: the op's results are stored into the slots the call
wrote (for `dispatch_next`, only when a chunk was handed out, as the runtime does), and the
slots are then promoted to SSA values where they can be (xenzyme/transforms/promote.py), so the
loop reads the op's results.  The thread id each call took becomes dead and goes, as do the
`ident_t` globals, reduction lists, reduction functions and locks nothing uses any more.

Reductions.  The meaning of a reduction is read from the code clang generated for it, never
guessed: the combining code (case 1 of the switch, up to `__kmpc_end_reduce*`) is executed
symbolically (xenzyme/analysis/symbolic.py), giving, for each location it writes, an expression
of what it loaded; a location of the shared variable must be `shared <op> private` with the
private copy of one of the reduction list's variables, for one op of par.reduce's kinds (an
instruction, an intrinsic, or `?:` on a comparison -- as branches and a phi at -O0).  The
compare-exchange loops of `#pragma omp atomic` on floats are read the same way.  Code not
recognised stays as it is.

What is not raised -- tasks, `target`/`teams`, `ordered`, cancellation, `copyprivate`,
`masked`, a reduction with an unrecognised combiner, ... -- passes through untouched, and
`lower-par` leaves it alone, unless the function is reached (through calls, parallel regions
and function addresses) by a derivative request (`autodiff.*`): that is an error naming the
construct and its source line.

Outlined functions must stay functions until this pass has run: clang's -O2 marks them
`alwaysinline`, and LLVM's optimiser would inline the serialized (`if(...)`) path's direct call.
`keep_outlined_regions` marks them `noinline`; the `enzyme` pipeline calls it before optimising.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects import omp
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i8,
    i32,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xenzyme.analysis.alias import callee_name
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow, constant_int
from xenzyme.analysis.symbolic import Executor, Expr, PathEnd, binary_kind, contains, merge
from xenzyme.analysis.types import size_align
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.transforms import omp_runtime as rt
from xenzyme.transforms.promote import erase_unreachable_blocks, promote

_PTR = ext.LLVMPointerType()
_PUSHES = ("__kmpc_push_num_threads", "__kmpc_push_proc_bind")


def keep_outlined_regions(module: ModuleOp) -> None:
    """Mark every function `__kmpc_fork_call` runs `noinline` (and not `alwaysinline`), so that
    the serialized path's direct call to it stays a call through LLVM's optimiser."""
    names: set[str] = set()
    for op in module.walk():
        if callee_name(op) == "__kmpc_fork_call" and len(op.operands) >= 3:
            fn = op.operands[2].owner
            if isinstance(fn, xllvm.AddressOfOp):
                names.add(fn.global_name.string_value())
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data in names and op.body.blocks:
            words = list(op.passthrough.data) if op.passthrough is not None else []
            kept = [a for a in words if not (isinstance(a, StringAttr) and a.data == "alwaysinline")]
            if not any(isinstance(a, StringAttr) and a.data == "noinline" for a in kept):
                kept.append(StringAttr("noinline"))
            op.properties["passthrough"] = ArrayAttr(kept)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _float_of_width(bits: int) -> Attribute | None:
    return {32: Float32Type(), 64: Float64Type()}.get(bits)


def _addressed_global(v: SSAValue) -> str | None:
    op = v.owner
    if isinstance(op, xllvm.AddressOfOp):
        return op.global_name.string_value()
    return None


def _predecessors(region: Region) -> dict[Block, list[Block]]:
    preds: dict[Block, list[Block]] = {b: [] for b in region.blocks}
    for b in region.blocks:
        term = b.last_op
        if term is None:
            continue
        for s in dict.fromkeys(term.successors):
            preds[s].append(b)
    return preds


def _erase(op: Operation) -> None:
    op.detach()
    op.erase()


_REMOVABLE = (
    xllvm.LoadOp, ext.GEPOp, xllvm.ConstantOp, xllvm.AddressOfOp, xllvm.UndefOp, ext.PoisonOp, xllvm.ZeroOp,
    xllvm.ZExtOp, xllvm.SExtOp, xllvm.TruncOp, xllvm.BitcastOp, ext.ICmpOp,
)  # fmt: skip


def _erase_dead(roots: Iterable[SSAValue]) -> None:
    """Erase the computations and allocas among `roots` (and what they use) that nothing needs
    any more: loads, address arithmetic, casts, `__kmpc_global_thread_num` calls, and allocas
    only stored to."""
    work = list(roots)
    seen: set[Operation] = set()
    while work:
        v = work.pop()
        op = v.owner
        if not isinstance(op, Operation) or op.parent is None or op in seen:
            continue
        if isinstance(op, xllvm.AllocaOp):
            if _only_stored(op):
                seen.add(op)
                for u in [u.operation for u in op.res.uses]:
                    work.extend(u.operands)
                    _erase(u)
                _erase(op)
            continue
        if any(r.uses for r in op.results):
            continue
        removable = isinstance(op, _REMOVABLE) or callee_name(op) == "__kmpc_global_thread_num"
        if isinstance(op, xllvm.LoadOp) and "volatile_" in op.attributes:
            removable = False
        if not removable:
            continue
        seen.add(op)
        work.extend(op.operands)
        _erase(op)


def _only_stored(alloca: xllvm.AllocaOp) -> bool:
    for use in alloca.res.uses:
        u = use.operation
        if ext.is_annotation(u):
            continue
        if isinstance(u, ext.StoreOp) and u.ptr is alloca.res and u.value is not alloca.res and u.volatile_ is None:
            continue
        return False
    return True


# ---------------------------------------------------------------------------------------------
# One function
# ---------------------------------------------------------------------------------------------


@dataclass
class _FunctionRaiser:
    fn: xllvm.FuncOp
    functions: dict[str, xllvm.FuncOp]
    failed: dict[Operation, str] = field(default_factory=dict)
    """Runtime calls left in place, with the reason."""
    dead: list[SSAValue] = field(default_factory=list)
    """Operands of erased calls: candidates for `_erase_dead`."""
    slots: list[xllvm.AllocaOp] = field(default_factory=list)
    """Slots the runtime wrote, to promote."""
    reduce_functions: set[str] = field(default_factory=set)
    changed: bool = False
    dispatcher_kept: bool = False
    """A dynamically scheduled loop of this function stays with the runtime (an ordered one):
    its dispatch_next / _deinit calls stay calls too."""

    def run(self) -> None:
        region = self.fn.body
        calls = [op for op in self.fn.walk() if callee_name(op) is not None]
        names = {callee_name(op) for op in calls}
        has_atomics = any(isinstance(op, ext.CmpXchgOp) for op in self.fn.walk())
        if not names & rt.RAISED and not has_atomics:
            return
        for op in calls:
            if callee_name(op) in ("__kmpc_reduce", "__kmpc_reduce_nowait") and op.parent is not None:
                self._reduction(op)  # type: ignore[arg-type]
        for x in [op for op in self.fn.walk() if isinstance(op, ext.CmpXchgOp)]:
            if x.parent is not None:
                self._atomic_loop(x)
        if self.changed:
            erase_unreachable_blocks(region)  # the reductions' switch cases, the atomics' loops
        calls = [op for op in self.fn.walk() if callee_name(op) is not None]
        for op in calls:  # initialisations first: a loop left to the runtime keeps all its calls
            if callee_name(op) in rt.DISPATCH_INIT:
                self._simple(op)  # type: ignore[arg-type]
        self.dispatcher_kept = any(callee_name(op) in rt.DISPATCH_INIT for op in self.failed)
        for op in calls:
            if op.parent is not None and callee_name(op) not in rt.DISPATCH_INIT:
                self._simple(op)  # type: ignore[arg-type]
        pushes: set[Operation] = set()
        for op in calls:
            if op.parent is None:
                continue
            name = callee_name(op)
            if name == "__kmpc_fork_call":
                self._fork(op, pushes)  # type: ignore[arg-type]
            elif name == "__kmpc_serialized_parallel":
                self._serialized(op)  # type: ignore[arg-type]
        for p in pushes:
            self._replaced(p)
        if not self.changed:
            return
        erase_unreachable_blocks(region)
        _erase_dead(self.dead)
        slots = [s for s in dict.fromkeys(self.slots) if s.parent is not None]
        if slots:
            try:
                promote(slots, CFG(region))
            except IrreducibleControlFlow:
                pass

    def _fail(self, op: Operation, why: str) -> None:
        self.failed[op] = why

    def _replaced(self, call: Operation, result: SSAValue | None = None) -> None:
        """Erase a runtime call (its uses now use `result`)."""
        if call.results and result is not None:
            call.results[0].replace_all_uses_with(result)
        self.dead.extend(call.operands)
        _erase(call)
        self.changed = True

    # ---- one call, one op ---------------------------------------------------------------

    def _simple(self, op: xllvm.CallOp) -> None:
        name = callee_name(op)
        b = Builder(InsertPoint.before(op))

        def put(new: Operation) -> Operation:
            new.location = op.location
            b.insert(new)
            return new

        if name in rt.STATIC_INIT:
            self._static_init(op, b, put)
        elif name in rt.DISPATCH_INIT:
            self._dispatch_init(op, put)
        elif name in rt.DISPATCH_NEXT and not self.dispatcher_kept:
            self._dispatch_next(op, b, put)
        elif name == "__kmpc_for_static_fini":
            put(par.StaticFiniOp())
            self._replaced(op)
        elif name == "__kmpc_dispatch_deinit" and not self.dispatcher_kept:
            put(par.DispatchFiniOp())
            self._replaced(op)
        elif name == "__kmpc_barrier":
            put(omp.BarrierOp.create())
            self._replaced(op)
        elif name == "__kmpc_flush":
            put(omp.FlushOp.create())
            self._replaced(op)
        elif name in ("__kmpc_critical", "__kmpc_end_critical"):
            lock = _addressed_global(op.args[2]) if len(op.args) == 3 else None
            if lock is None:
                self._fail(op, "the lock is not a global")
                return
            put(par.CriticalBeginOp(lock) if name == "__kmpc_critical" else par.CriticalEndOp(lock))
            self._replaced(op)
        elif name in ("__kmpc_single", "__kmpc_master"):
            flag = put(par.SingleBeginOp() if name == "__kmpc_single" else par.MasterBeginOp())
            self._replaced(op, put(xllvm.ZExtOp(flag.results[0], i32)).results[0])
        elif name in ("__kmpc_end_single", "__kmpc_end_master"):
            put(par.SingleEndOp() if name == "__kmpc_end_single" else par.MasterEndOp())
            self._replaced(op)
        elif name == "omp_get_thread_num" and not op.args:
            self._replaced(op, put(par.ThreadNumOp()).results[0])
        elif name == "omp_get_num_threads" and not op.args:
            self._replaced(op, put(par.NumThreadsOp()).results[0])

    def _static_init(self, op: xllvm.CallOp, b: Builder, put) -> None:
        t, unsigned = rt.STATIC_INIT[callee_name(op)]  # type: ignore[index]
        if len(op.args) != 9:
            return self._fail(op, "unexpected arguments")
        _, _, sched, plast, plb, pub, pst, incr, chunk = op.args
        value = constant_int(sched)
        decoded = rt.decode_schedule(value, {33: "static_chunked", 34: "static"}) if value is not None else None
        if decoded is None:
            if value is not None and value in rt.DISTRIBUTE_SCHEDULES:
                return self._fail(op, "distribute")
            return self._fail(op, f"schedule kind {value}")
        lb0 = put(xllvm.LoadOp(plb, t)).results[0]
        ub0 = put(xllvm.LoadOp(pub, t)).results[0]
        init = put(par.StaticInitOp(lb0, ub0, incr, chunk, decoded[0], decoded[1], unsigned))
        lb, ub, stride, last = init.results
        for v, slot in ((lb, plb), (ub, pub), (stride, pst)):
            put(ext.StoreOp(v, slot))
        put(ext.StoreOp(put(xllvm.ZExtOp(last, i32)).results[0], plast))
        self._keep_slots(plb, pub, pst, plast)
        self._replaced(op)

    def _dispatch_init(self, op: xllvm.CallOp, put) -> None:
        _, unsigned = rt.DISPATCH_INIT[callee_name(op)]  # type: ignore[index]
        if len(op.args) != 7:
            return self._fail(op, "unexpected arguments")
        _, _, sched, lb, ub, st, chunk = op.args
        value = constant_int(sched)
        decoded = rt.decode_schedule(value) if value is not None else None
        if decoded is None:
            if value is not None and value & 0xFF in rt.ORDERED_SCHEDULES:
                return self._fail(op, "ordered")
            return self._fail(op, f"schedule kind {value}")
        put(par.DispatchInitOp(lb, ub, st, chunk, decoded[0], decoded[1], unsigned))
        self._replaced(op)

    def _dispatch_next(self, op: xllvm.CallOp, b: Builder, put) -> None:
        t, unsigned = rt.DISPATCH_NEXT[callee_name(op)]  # type: ignore[index]
        if len(op.args) != 6:
            return self._fail(op, "unexpected arguments")
        _, _, plast, plb, pub, pst = op.args
        nxt = put(par.DispatchNextOp(t, unsigned))
        more, lb, ub, stride, last = nxt.results
        last32 = put(xllvm.ZExtOp(last, i32)).results[0]
        for v, slot in ((lb, plb), (ub, pub), (stride, pst), (last32, plast)):
            # the runtime writes the slots only when it hands out a chunk
            old = put(xllvm.LoadOp(slot, v.type)).results[0]
            put(ext.StoreOp(put(ext.SelectOp(more, v, old)).results[0], slot))
        self._keep_slots(plb, pub, pst, plast)
        self._replaced(op, put(xllvm.ZExtOp(more, i32)).results[0])

    def _keep_slots(self, *slots: SSAValue) -> None:
        for s in slots:
            if isinstance(s.owner, xllvm.AllocaOp):
                self.slots.append(s.owner)

    # ---- parallel regions ---------------------------------------------------------------

    def _fork(self, op: xllvm.CallOp, pushes: set[Operation]) -> None:
        args = list(op.args)
        if len(args) < 3:
            return self._fail(op, "unexpected arguments")
        n, callee = constant_int(args[1]), _addressed_global(args[2])
        fn = self.functions.get(callee) if callee else None
        if fn is None or not fn.body.blocks:
            return self._fail(op, "the outlined region is not a function of this module")
        captured = args[3:]
        params = fn.function_type.inputs.data
        if n != len(captured) or len(params) != len(captured) + 2 or any(
            a.type != p for a, p in zip(captured, params[2:], strict=True)
        ):
            return self._fail(op, "the captured values do not match the outlined function")
        found = self._pushes_before(op)
        nthreads = found["__kmpc_push_num_threads"].args[2] if "__kmpc_push_num_threads" in found else None
        bind = None
        if "__kmpc_push_proc_bind" in found:
            k = constant_int(found["__kmpc_push_proc_bind"].args[2])
            if k is None or not 0 <= k < len(par.PROC_BINDS):
                del found["__kmpc_push_proc_bind"]
            else:
                bind = par.PROC_BINDS[k]
        if nthreads is not None and nthreads.type != i32:
            return self._fail(op, "num_threads is not an i32")
        new = par.ParallelOp(callee, captured, nthreads, bind)  # type: ignore[arg-type]
        new.location = op.location
        Builder(InsertPoint.before(op)).insert(new)
        pushes.update(found.values())
        self._replaced(op)

    def _pushes_before(self, op: Operation) -> dict[str, xllvm.CallOp]:
        """The push calls that set up the fork `op`: walking back from it through straight-line
        code (single-predecessor blocks), up to any other call."""
        found: dict[str, xllvm.CallOp] = {}
        preds = _predecessors(self.fn.body)
        block = op.parent_block()
        cur = op.prev_op
        seen: set[Block] = set()
        while block is not None and block not in seen:
            seen.add(block)
            while cur is not None:
                name = callee_name(cur)
                if name in _PUSHES:
                    found.setdefault(name, cur)  # type: ignore[arg-type]
                elif isinstance(cur, par.ParallelOp) or (
                    isinstance(cur, xllvm.CallOp | ext.InvokeOp | xllvm.CallIntrinsicOp)
                    and name != "__kmpc_global_thread_num" and not ext.is_annotation(cur)
                ):  # another region, or a call that may fork one, takes what was pushed before it
                    return found
                cur = cur.prev_op
            ps = preds[block]
            if len(ps) != 1:
                break
            block = ps[0]
            cur = block.last_op.prev_op if block.last_op is not None else None
        return found

    def _serialized(self, op: xllvm.CallOp) -> None:
        """`__kmpc_serialized_parallel`, the direct call of the outlined function, the end."""
        call: xllvm.CallOp | None = None
        cur = op.next_op
        while cur is not None:
            name = callee_name(cur)
            if name == "__kmpc_end_serialized_parallel":
                break
            if isinstance(cur, ext.StoreOp | xllvm.ConstantOp | ext.PoisonOp | xllvm.UndefOp) or ext.is_annotation(cur):
                pass
            elif call is None and name is not None and name in self.functions and self.functions[name].body.blocks:
                call = cur  # type: ignore[assignment]
            else:
                return self._fail(op, "the serialized region is not a call of its outlined function")
            cur = cur.next_op
        if cur is None or call is None:
            return self._fail(op, "the serialized region is not a call of its outlined function")
        args = list(call.args)
        if len(args) < 2 or any(a.type != _PTR for a in args[:2]):
            return self._fail(op, "the serialized region is not a call of an outlined function")
        new = par.ParallelOp(callee_name(call), args[2:], serial=True)  # type: ignore[arg-type]
        new.location = call.location
        Builder(InsertPoint.before(call)).insert(new)
        self._replaced(call)
        self._replaced(cur)
        self._replaced(op)

    # ---- reductions ---------------------------------------------------------------------

    def _reduction(self, op: xllvm.CallOp) -> None:
        why = self._try_reduction(op)
        if why is not None:
            self._fail(op, why)

    def _try_reduction(self, op: xllvm.CallOp) -> str | None:
        nowait = callee_name(op) == "__kmpc_reduce_nowait"
        if len(op.args) != 7:
            return "unexpected arguments"
        _, _, nvars, _, red_list, reduce_fn, _ = op.args
        n = constant_int(nvars)
        block = op.parent_block()
        term = block.last_op if block is not None else None
        result = op.results[0]
        if not isinstance(term, ext.SwitchOp) or term.value is not result or op.next_op is not term or n is None:
            return "the runtime's answer is not switched on right after the call"
        cases = {v: (d, a) for v, d, a in term.cases()}
        if 1 not in cases or set(cases) - {1, 2} or cases[1][1]:
            return "the switch on the runtime's answer has unexpected cases"
        c1, join = cases[1][0], term.default_dest
        if join.args or c1 is join or _predecessors(self.fn.body)[c1] != [block]:
            return "unexpected control flow after the call"
        ex = Executor(allowed_calls=("__kmpc_end_reduce", "__kmpc_end_reduce_nowait"))
        privates = self._reduction_list(red_list, n, ex)
        if privates is None:
            return "the reduction list is not a list of private copies"
        paths = ex.explore(c1, stop_blocks=(join,))
        if paths is None or any(p.block is not join for p in paths):
            return "the combining code is not understood"
        found = _combines(paths, privates)
        if isinstance(found, str):
            return found
        b = Builder(InsertPoint.before(term))
        for k in range(n):
            kind, t, shared, count = found[k]
            s = _materialise(shared, ex, b, op)
            p = _materialise(privates[k], ex, b, op)
            red = par.ReduceOp(kind, s, p, t, count, nowait)
            red.location = op.location
            b.insert(red)
        br = xllvm.BrOp(join, *term.default_operands)
        br.location = term.location
        b.insert(br)
        _erase(term)
        fname = _addressed_global(reduce_fn)
        if fname is not None:
            self.reduce_functions.add(fname)
        self._replaced(op)
        return None

    def _reduction_list(self, red_list: SSAValue, n: int, ex: Executor) -> list[Expr] | None:
        """The private copies a reduction list points to, by position."""
        entries: dict[int, SSAValue] = {}

        def stored_at(ptr: SSAValue, offset: int) -> bool:
            for use in ptr.uses:
                u = use.operation
                if isinstance(u, ext.StoreOp) and u.ptr is ptr:
                    if offset % 8 or offset // 8 in entries:
                        return False
                    entries[offset // 8] = u.value
                elif not (callee_name(u) in ("__kmpc_reduce", "__kmpc_reduce_nowait") or ext.is_annotation(u)
                          or (isinstance(u, ext.GEPOp) and ptr is red_list)):  # fmt: skip
                    return False
            return True

        if not isinstance(red_list.owner, xllvm.AllocaOp):
            return None
        for use in red_list.uses:
            u = use.operation
            if isinstance(u, ext.GEPOp) and u.ptr is red_list:
                addr = ex.value({}, u.result)
                if not (isinstance(addr, tuple) and addr[0] == "addr") or not stored_at(u.result, addr[2]):
                    return None
        if not stored_at(red_list, 0) or sorted(entries) != list(range(n)):
            return None
        out = []
        for k in range(n):
            e = ex.value({}, entries[k])
            if isinstance(e, tuple) and e[0] in ("leaf", "load"):
                e = ("addr", e, 0)
            if not (isinstance(e, tuple) and e[0] == "addr"):
                return None
            out.append(e)
        return out

    # ---- atomic updates -----------------------------------------------------------------

    def _atomic_loop(self, x: ext.CmpXchgOp) -> None:
        """A compare-exchange loop storing `f(old)` for a float `old` -> `par.atomic_update`."""
        latch = x.parent_block()
        term = latch.last_op if latch is not None else None
        if not isinstance(term, xllvm.CondBrOp):
            return
        if not _extracts(term.cond, x, 1):
            return
        header, exit_ = term.else_block, term.then_block
        if len(header.args) != 1 or len(term.else_arguments) != 1:
            return
        if not _extracts(term.else_arguments[0], x, 0):
            return
        old = header.args[0]
        ftype = _float_of_width(old.type.width.data) if isinstance(old.type, IntegerType) else None
        if ftype is None:
            return
        preds = _predecessors(self.fn.body)
        outside = [p for p in preds[header] if p is not latch]
        if len(outside) != 1 or not isinstance(outside[0].last_op, xllvm.BrOp):
            return
        pre = outside[0]
        loop = _loop_blocks(header, latch, exit_, preds)
        if loop is None or pre in loop:
            return
        for b in loop:
            for o in b.ops:
                for r in o.results:
                    if any(u.operation.parent_block() not in loop for u in r.uses):
                        return
        ex = Executor()
        paths = ex.explore(header, stop_at=lambda o: o is x, start_env={old: ("leaf", old)})
        if not paths or any(p.op is not x for p in paths):
            return
        ptrs = {p.op_operands[0] for p in paths}
        if len(ptrs) != 1 or any(p.op_operands[1] != ("leaf", old) for p in paths):
            return
        (ptr,) = ptrs
        for p in paths:
            for base, _ in p.memory:
                if not _loop_temporary(base, loop):
                    return
        new = merge(paths, lambda p: p.op_operands[2], old.type)
        if not (isinstance(new, tuple) and new[0] == "op" and new[1] == "bitcast"):
            return
        inner, old_f = new[2][0], ("op", "bitcast", (("leaf", old),), ftype)
        found = {(k, v) for v in _operands_without(inner, ("leaf", old)) if (k := binary_kind(inner, old_f, v))}
        if len(found) != 1:
            return
        kind, value = found.pop()
        if kind not in par.ATOMIC_UPDATE_KINDS or contains(value, ("leaf", old)):
            return
        for e in (ptr, value):  # both must be computable before the loop
            if any(_defined_in(leaf[1], loop) for leaf in _leaves(e)):
                return
            if any(_loop_temporary(a[1], loop) for a in _loads(e)):
                return
        if any(isinstance(a.owner, Operation) and a.owner.parent_block() in loop for a in term.then_arguments):
            return
        b = Builder(InsertPoint.before(pre.last_op))  # type: ignore[arg-type]
        p_ssa = _materialise(ptr, ex, b, x)
        v_ssa = _materialise(value, ex, b, x)
        upd = par.AtomicUpdateOp(kind, p_ssa, v_ssa, x.success_ordering.data)
        upd.location = x.location
        b.insert(upd)
        br = xllvm.BrOp(exit_, *term.then_arguments)
        br.location = pre.last_op.location  # type: ignore[union-attr]
        old_br = pre.last_op
        b.insert(br)
        self.dead.extend(old_br.operands)  # type: ignore[union-attr]
        _erase(old_br)  # type: ignore[arg-type]
        self.changed = True


def _extracts(v: SSAValue, x: ext.CmpXchgOp, index: int) -> bool:
    """Whether `v` is field `index` of the compare-exchange's result (0: the value seen, 1: ok)."""
    op = v.owner
    return isinstance(op, xllvm.ExtractValueOp) and op.container is x.res and list(op.position.iter_values()) == [index]


def _loop_blocks(header: Block, latch: Block, exit_: Block, preds: dict[Block, list[Block]]) -> set[Block] | None:
    """The blocks of a compare-exchange loop, if it is a closed loop leaving only at `latch`."""
    loop: set[Block] = set()
    work = [header]
    while work:
        b = work.pop()
        if b in loop:
            continue
        loop.add(b)
        term = b.last_op
        if term is None:
            return None
        for s in term.successors:
            if s is exit_ and b is latch:
                continue
            if s is exit_:
                return None
            work.append(s)
    for b in loop:
        if b is not header and any(p not in loop for p in preds[b]):
            return None
    return loop


def _defined_in(v: SSAValue, blocks: set[Block]) -> bool:
    owner = v.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    return block in blocks


def _loop_temporary(base: Expr, loop: set[Block]) -> bool:
    """A stack slot used only inside `loop` (clang's -O0 temporaries of an atomic update)."""
    if not (isinstance(base, tuple) and base[0] == "leaf" and isinstance(base[1].owner, xllvm.AllocaOp)):
        return False
    return all(u.operation.parent_block() in loop or ext.is_annotation(u.operation) for u in base[1].uses)


def _sub_exprs(e: Expr) -> Iterable[Expr]:
    yield e
    if isinstance(e, tuple) and e and e[0] == "op":
        for a in e[2]:
            yield from _sub_exprs(a)
    elif isinstance(e, tuple) and e and e[0] == "addr":
        yield from _sub_exprs(e[1])
    elif isinstance(e, tuple) and e and e[0] == "load":
        yield from _sub_exprs(e[1])


def _leaves(e: Expr) -> list[Expr]:
    return [s for s in _sub_exprs(e) if isinstance(s, tuple) and s and s[0] == "leaf"]


def _loads(e: Expr) -> list[Expr]:
    """The addresses of the loads in `e`."""
    return [s[1] for s in _sub_exprs(e) if isinstance(s, tuple) and s and s[0] == "load"]


def _operands_without(e: Expr, leaf: Expr) -> set[Expr]:
    """The largest parts of `e` that do not contain `leaf` (the candidates for the other
    operand of an update of `leaf`)."""
    out: set[Expr] = set()
    if not contains(e, leaf):
        return {e}
    if isinstance(e, tuple) and e and e[0] == "op":
        for a in e[2]:
            out |= _operands_without(a, leaf)
    return out


def _combines(paths: Sequence[PathEnd], privates: list[Expr]) -> dict[int, tuple[str, Attribute, Expr, int]] | str:
    """What a reduction's combining code does to each variable: (kind, element type, first
    shared address, element count) by position in the reduction list; or why it is not
    recognised."""
    locations: dict[tuple[Expr, int], Attribute] = {}
    for p in paths:
        for loc, (_, t) in p.memory.items():
            if locations.setdefault(loc, t) != t:
                return "the combining code stores different types to one place"
    bases = [a[1] for a in privates]
    per_var: dict[int, list[tuple[int, int, str, Attribute, Expr]]] = {}
    for (base, off), t in locations.items():
        shared = ("load", ("addr", base, off), t)
        value = merge(paths, lambda p, loc=(base, off), s=shared: p.memory[loc][0] if loc in p.memory else s, t)
        if value is None:
            return "the combining code is not understood"
        matches = set()
        for addr in _loads(value):
            if addr[1] in bases and ("load", addr, t) != shared:
                k = bases.index(addr[1])
                kind = binary_kind(value, shared, ("load", addr, t))
                kinds = par.FLOAT_REDUCE_KINDS if isinstance(t, AnyFloat) else par.INT_REDUCE_KINDS
                if kind in kinds:
                    matches.add((k, addr[2], kind))
        if len(matches) != 1:
            return "the combiner is not one of +, *, max, min, &, |, ^"
        k, poff, kind = matches.pop()
        per_var.setdefault(k, []).append((off, poff, kind, t, base))
    out: dict[int, tuple[str, Attribute, Expr, int]] = {}
    for k in range(len(privates)):
        entries = sorted(per_var.get(k, []), key=lambda e: e[0])
        if not entries:
            return "a reduction variable is not combined"
        off0, poff0, kind, t, base = entries[0]
        size = size_align(t)[0]  # type: ignore[index]
        for i, (off, poff, kind_i, t_i, base_i) in enumerate(entries):
            if (off, poff, kind_i, t_i, base_i) != (off0 + i * size, poff0 + i * size, kind, t, base):
                return "the combining code does not combine one array element by element"
        if poff0 != privates[k][2]:
            return "the combining code does not start at the private copy"
        out[k] = (kind, t, ("addr", base, off0), len(entries))
    return out


def _materialise(e: Expr, ex: Executor, b: Builder, at: Operation) -> SSAValue:
    """An SSA value for a pointer or value expression, at the builder's position: the value it
    came from where there is one, else new address arithmetic, loads or constants."""
    origin = ex.origin.get(e)
    if origin is not None:
        return origin

    def put(op: Operation) -> SSAValue:
        op.location = at.location
        b.insert(op)
        return op.results[0]

    tag = e[0]
    if tag == "leaf":
        return e[1]
    if tag == "addr":
        base = _materialise(e[1], ex, b, at) if e[1][0] != "leaf" else e[1][1]
        if e[2] == 0:
            return base
        return put(ext.GEPOp(base, [e[2]], i8))
    if tag == "load":
        return put(xllvm.LoadOp(_materialise(e[1], ex, b, at), e[2]))
    if tag == "const" and e[1] is not None:
        t = e[2]
        attr = FloatAttr(e[1], t) if isinstance(t, AnyFloat) else IntegerAttr(e[1], t)
        return put(xllvm.ConstantOp(attr, t))
    raise AssertionError(f"cannot materialise {e}")


# ---------------------------------------------------------------------------------------------
# The module
# ---------------------------------------------------------------------------------------------


def _symbol_uses(module: ModuleOp) -> dict[str, int]:
    counts: dict[str, int] = {}
    for op in module.walk():
        for a in (*op.properties.values(), *op.attributes.values()):
            if isinstance(a, SymbolRefAttr):
                name = a.string_value()
                counts[name] = counts.get(name, 0) + 1
    return counts


def _is_ident(g: xllvm.GlobalOp) -> bool:
    t = g.global_type
    return isinstance(t, ext.LLVMStructType) and t.struct_name.data == "struct.ident_t"


def _floats_by_value(fn: xllvm.FuncOp, forks: list[par.ParallelOp]) -> None:
    """A floating-point value captured by value (`firstprivate`) travels to the outlined
    function as an integer holding its bits (clang passes captured values in pointer-sized
    integers): it becomes a parameter of its own type again, so that its derivative can follow
    it.  The outlined function read it back as that type: through a bitcast, or from the stack
    slot the parameter was stored into.  (`lower-par` passes the bits to the runtime again.)"""
    params = list(fn.body.blocks.first.args)  # type: ignore[union-attr]
    for i, param in enumerate(params[2:]):
        if not isinstance(param.type, IntegerType) or any(len(op.args) != len(params) - 2 for op in forks):
            continue
        t = _float_read_as(param)
        if t is None or size_align(t) != size_align(param.type):
            continue
        for op in forks:
            op.operands[i] = _as_float(op, op.args[i], t)
        _retype_parameter(fn, param, t)


def _read_only_slots(fn: xllvm.FuncOp, forks: list[par.ParallelOp]) -> None:
    """A shared variable kept in a stack slot of the caller whose address goes nowhere else (a
    local scalar: clang passes its address) is memory no other pointer of the region reaches:
    its parameter is marked `xenzyme.local_slot`, and `noalias` too when the region only reads
    it.  LLVM may then keep the value in a register across the region's loops, and the reverse
    tells its adjoints from those of the arrays the region reads (`analysis/ownership.py`) and
    sums those of a read-only one in a thread-private partial instead of an atomic update per
    iteration (`GradientBuilder.accumulate_memory`)."""
    params = list(fn.body.blocks.first.args)  # type: ignore[union-attr]
    attrs = list(fn.arg_attrs.data) if fn.arg_attrs is not None else [DictionaryAttr({})] * len(params)
    changed = False
    for i, param in enumerate(params[2:]):
        d = dict(attrs[i + 2].data)  # type: ignore[attr-defined]
        if not all(len(op.args) == len(params) - 2 and _private_slot(op.args[i], op) for op in forks):
            continue
        d[par.LOCAL_SLOT] = UnitAttr()
        if "llvm.readonly" in d or "llvm.readnone" in d:
            d["llvm.noalias"] = UnitAttr()
        attrs[i + 2] = DictionaryAttr(d)
        changed = True
    if changed:
        fn.properties["arg_attrs"] = ArrayAttr(attrs)


def _private_slot(v: SSAValue, fork: par.ParallelOp) -> bool:
    """A stack slot whose address is only loaded from, stored to and passed to parallel regions,
    once to `fork`."""
    if not isinstance(v.owner, xllvm.AllocaOp) or sum(a is v for a in fork.args) != 1:
        return False
    for u in ext.real_users(v):
        if isinstance(u, xllvm.LoadOp | par.ParallelOp) or isinstance(u, ext.StoreOp) and u.value is not v:
            continue
        return False
    return True


def _float_read_as(param: BlockArgument) -> Attribute | None:
    """The float type an integer parameter is only ever read as, if it is."""
    users = ext.real_users(param)
    if users and all(isinstance(u, xllvm.BitcastOp) for u in users):
        types = {u.results[0].type for u in users}
        t = types.pop() if len(types) == 1 else None
        return t if isinstance(t, AnyFloat) else None
    if len(users) == 1 and isinstance(users[0], ext.StoreOp) and users[0].value is param:
        slot = users[0].ptr
        if not isinstance(slot.owner, xllvm.AllocaOp):
            return None
        loads = [u for u in ext.real_users(slot) if u is not users[0]]
        if loads and all(isinstance(ld, xllvm.LoadOp) for ld in loads):
            types = {ld.results[0].type for ld in loads}
            t = types.pop() if len(types) == 1 else None
            return t if isinstance(t, AnyFloat) else None
    return None


def _as_float(at: Operation, v: SSAValue, t: Attribute) -> SSAValue:
    """`v`'s bits as a float of type `t`, before `at`: the float it was made from when it is a
    bitcast of one, or a typed load of the memory it was loaded from."""
    owner = v.owner
    if isinstance(owner, xllvm.BitcastOp) and owner.operands[0].type == t:
        return owner.operands[0]
    block = at.parent_block()
    assert block is not None
    new: Operation = xllvm.LoadOp(owner.ptr, t) if isinstance(owner, xllvm.LoadOp) else xllvm.BitcastOp(v, t)
    new.location = at.location
    block.insert_op_before(new, at)
    return new.results[0]


def _retype_parameter(fn: xllvm.FuncOp, param: BlockArgument, t: Attribute) -> None:
    entry = fn.body.blocks.first
    assert entry is not None
    new = entry.insert_arg(t, param.index)
    for use in list(param.uses):
        user = use.operation
        if isinstance(user, xllvm.BitcastOp) and user.results[0].type == t:
            user.results[0].replace_all_uses_with(new)
            user.detach()
            user.erase()
        else:  # the store into the stack slot
            user.operands[use.index] = new
    entry.erase_arg(param)
    inputs = list(fn.function_type.inputs.data)
    inputs[new.index] = t
    fn.properties["function_type"] = ext.LLVMFunctionType(inputs, fn.function_type.output, fn.function_type.is_variadic)


def _remove_dead_symbols(module: ModuleOp, candidates: set[str]) -> None:
    """Erase the functions and globals named in `candidates` that nothing refers to, and the
    private constants only they referred to."""
    while candidates:
        uses = _symbol_uses(module)
        dead = [
            op for op in module.ops
            if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp) and op.sym_name.data in candidates
            and not uses.get(op.sym_name.data)
        ]  # fmt: skip
        if not dead:
            return
        for op in dead:
            for inner in op.walk():
                if isinstance(inner, xllvm.AddressOfOp):
                    target = inner.global_name.string_value()
                    g = SymbolTable.lookup_symbol(module, target)
                    if isinstance(g, xllvm.GlobalOp) and g.linkage is not None and g.linkage.linkage.data == "private":
                        candidates.add(target)
            candidates.discard(op.sym_name.data)
            _erase(op)


def _reached_functions(module: ModuleOp, functions: dict[str, xllvm.FuncOp]) -> dict[str, str]:
    """Functions a derivative request reaches -> the function requested (through calls,
    parallel regions and addresses of functions)."""
    reached: dict[str, str] = {}
    work: list[tuple[str, str]] = []
    for op in module.walk():
        if op.name.startswith("autodiff.") and isinstance(getattr(op, "callee", None), SymbolRefAttr):
            name = op.callee.string_value()  # type: ignore[attr-defined]
            work.append((name, name))
    while work:
        name, root = work.pop()
        if name in reached or name not in functions:
            continue
        reached[name] = root
        for op in functions[name].walk():
            target = None
            if isinstance(op, xllvm.CallOp | par.ParallelOp) and op.callee is not None:
                target = op.callee.string_value()
            elif isinstance(op, xllvm.AddressOfOp):
                target = op.global_name.string_value()
            elif op.name.startswith("autodiff.") and isinstance(getattr(op, "callee", None), SymbolRefAttr):
                target = op.callee.string_value()  # type: ignore[attr-defined]
            if target is not None and target in functions:
                work.append((target, root))
    return reached


def _location(op: Operation, module: ModuleOp) -> SourceLocation | None:
    from xenzyme.transforms.diff.errors import location_of

    fallback = module.attributes.get("llvm.source_filename")
    return location_of(op, fallback.data if isinstance(fallback, StringAttr) else None)


class Raiser:
    def __init__(self, module: ModuleOp):
        self.module = module

    def run(self) -> None:
        functions = {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.FuncOp)}
        failed: dict[Operation, str] = {}
        candidates: set[str] = set()
        raised: set[str] = set()
        for fn in functions.values():
            if not fn.body.blocks:
                continue
            names = {callee_name(op) for op in fn.walk()}
            r = _FunctionRaiser(fn, functions)
            r.run()
            failed.update(r.failed)
            candidates |= r.reduce_functions
            if r.changed:
                raised |= {n for n in names if n in rt.RAISED}
        self._check_reached(functions, failed)
        candidates |= raised - {"__kmpc_fork_call"}  # its declaration carries !callback, for LLVM
        for g in self.module.ops:
            if isinstance(g, xllvm.GlobalOp) and (_is_ident(g) or g.sym_name.data.startswith(".gomp_critical_user_")):
                candidates.add(g.sym_name.data)
        _remove_dead_symbols(self.module, candidates)
        forks: dict[str, list[par.ParallelOp]] = {}
        addressed = {op.global_name.string_value() for op in self.module.walk() if isinstance(op, xllvm.AddressOfOp)}
        for fn in functions.values():
            for op in fn.walk():
                if isinstance(op, par.ParallelOp):
                    forks.setdefault(op.callee.string_value(), []).append(op)
        for name, ops in forks.items():
            if (outlined := functions.get(name)) is not None and outlined.body.blocks:
                _floats_by_value(outlined, ops)
                if name not in addressed:  # (called by its regions only)
                    _read_only_slots(outlined, ops)

    def _check_reached(self, functions: dict[str, xllvm.FuncOp], failed: dict[Operation, str]) -> None:
        """Constructs left as runtime calls in code a derivative request reaches are errors."""
        reached = _reached_functions(self.module, functions)
        for name, root in reached.items():
            via = f", which the derivative of @{root} reaches," if root != name else ""
            for op in functions[name].walk():
                callee = callee_name(op)
                if callee is None or not rt.is_runtime_call(callee):
                    continue
                construct = rt.construct_of(callee)
                why = failed.get(op)
                if why in rt.NAMED_FAILURES:
                    construct, why = why, None
                detail = f" ({why})" if why else ""
                raise XenzymeError(
                    f"OpenMP construct '{construct}'{detail} in @{name}{via} is not supported for differentiation "
                    f"(runtime call @{callee})",
                    _location(op, self.module),
                    notes=[
                        "supported: parallel (num_threads, proc_bind, if), for with static, dynamic, guided, "
                        "runtime and auto schedules, collapse, reduction (+, *, max, min, &, |, ^, array sections), "
                        "critical, atomic, single, master, barrier, flush, omp_get_thread_num/omp_get_num_threads",
                        "move the construct out of the differentiated code, or rewrite it with the supported ones",
                    ],
                )


@dataclass(frozen=True)
class RaiseOpenMPPass(ModulePass):
    """OpenMP runtime calls -> `par` ops; unsupported constructs in differentiated code are errors."""

    name = "raise-openmp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        Raiser(op).run()
