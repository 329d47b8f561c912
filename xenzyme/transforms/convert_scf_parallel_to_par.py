"""`convert-scf-parallel-to-par`: an outermost `scf.parallel` -> a parallel region of the `par`
layer, run by a team of threads (libomp) in the primal and in its derivatives.

The loop is outlined into a function with the signature of clang's outlined regions
(`ptr gtid, ptr btid, captured...`), forked by `par.parallel`; each thread takes its share of
the loop's iterations (all dimensions collapsed into one range) from `par.static_init`, as
clang's `#pragma omp parallel for` does, and each reduction goes through a private copy
initialised to the combiner's identity, combined into a shared slot by `par.reduce`:

    %r = scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%z) -> f64 { ... scf.reduce(%v) {addf} }
      ==>
    %slot = llvm.alloca 1 x f64                     // at the function's entry
    llvm.store %z, %slot
    par.parallel @f.scf_parallel.0(%lb, %ub, %s, <values the body uses>, %slot)
    %r = llvm.load %slot

    func.func private @f.scf_parallel.0(%gtid: !llvm.ptr, %btid: !llvm.ptr, %lb, %ub, %s, ..., %shared) {
      %n = <trip count, the product of each dimension's>
      %part = scf.if %n > 0 {
        %lo, %hi, %stride, %last = par.static_init static 0 to %n - 1 step 1 chunk 1 : i64
        %acc = scf.for %k = %lo to min(%hi, %n - 1) + 1 iter_args(%a = 0.0) {
          <%i, ... recovered from %k; the body; the combiner of %a and %v>
        }
        par.static_fini
        scf.yield %acc
      } else { scf.yield 0.0 }
      llvm.store %part, %private                    // (an llvm.alloca of the region)
      par.reduce add %shared, %private nowait : f64 // the join of the region is the barrier
    }

The outlined function stays a `func.func` (its memref parameters are lowered to descriptor
fields with the rest; `convert-func-to-llvm` does the same to `par.parallel`'s operands), so
the pass runs before the other lowerings of `lower-structured`.  Derivatives come from the
parallel layer's rules (xenzyme/rules/par.py) on the lowered module: each thread reverses its
own iterations, adjoints into shared memory are added atomically or per thread, a reduction
gives each thread the adjoint of its result.

Reductions are recognised, never guessed: a combiner that is one `arith.addf`, `mulf`,
`maximumf`/`maxnumf`, `minimumf`/`minnumf` of its two arguments, or a `cmpf` + `select` choosing
the larger or smaller, on f32 or f64.  Loops that do not qualify -- another combiner, an
integer or index reduction, an `scf.parallel` nested in another or in a function that another's
body calls (the outer loop's threads run it) -- are left alone, and `lower-structured` runs
them serially (`convert-scf-parallel-to-for`).

The structured level of differentiation has no threads: the Python API differentiates a
function that runs (or calls one that runs) a loop this pass takes on the lowered path, so that
its derivative runs on threads too, and the other functions at the structured level with their
`scf.parallel` loops as `scf.for` nests; so is a gradient with a checkpointing scheme (snapshots
do not capture parallel regions yet).  A lowered module holding `par` ops skips LLVM's
optimiser before differentiation (it cannot carry them).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    i64,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.transforms.convert_scf_parallel_to_for import inline_combiners

_PTR = ext.LLVMPointerType()
_IDENTITY = {"add": 0.0, "mul": 1.0, "max": float("-inf"), "min": float("inf")}
_KINDS = {"arith.addf": "add", "arith.mulf": "mul", "arith.maximumf": "max", "arith.maxnumf": "max",
          "arith.minimumf": "min", "arith.minnumf": "min"}  # fmt: skip
_GREATER = ("ogt", "oge", "ugt", "uge")
_LESS = ("olt", "ole", "ult", "ule")


def reduction_kind(region: Region) -> str | None:
    """The `par.reduce` kind of an `scf.reduce` combiner, or None when it is not one of them."""
    block = region.blocks.first
    if block is None or len(block.args) != 2 or not isinstance(block.args[0].type, Float32Type | Float64Type):
        return None
    a, b = block.args
    ops = list(block.ops)
    ret = ops[-1]
    if not isinstance(ret, scf.ReduceReturnOp):
        return None
    if len(ops) == 2 and ops[0].name in _KINDS and ret.operands[0] is ops[0].results[0]:
        if set(ops[0].operands) == {a, b} and len(ops[0].operands) == 2:
            return _KINDS[ops[0].name]
    if len(ops) == 3 and isinstance(ops[0], arith.CmpfOp) and isinstance(ops[1], arith.SelectOp):
        cmp, sel = ops[0], ops[1]
        pred = arith.CMPF_COMPARISON_OPERATIONS[cmp.predicate.value.data]
        if sel.cond is not cmp.result or ret.operands[0] is not sel.result:
            return None
        lhs, rhs = cmp.lhs, cmp.rhs
        if {lhs, rhs} != {a, b} or lhs is rhs:
            return None
        # select(lhs > rhs, lhs, rhs) is the larger; select(lhs > rhs, rhs, lhs) the smaller
        picks_lhs = (sel.lhs, sel.rhs) == (lhs, rhs)
        picks_rhs = (sel.lhs, sel.rhs) == (rhs, lhs)
        if pred in _GREATER:
            return "max" if picks_lhs else "min" if picks_rhs else None
        if pred in _LESS:
            return "min" if picks_lhs else "max" if picks_rhs else None
    return None


def _kinds(op: scf.ParallelOp) -> list[str] | None:
    """The reduction kinds of a loop to run on threads, or None when it stays serial."""
    reduce = op.body.block.last_op
    if not isinstance(reduce, scf.ReduceOp):
        return None
    kinds = [reduction_kind(r) for r in reduce.regions]
    if any(k is None for k in kinds) or any(not isinstance(v.type, AnyFloat) for v in op.initVals):
        return None
    return kinds  # type: ignore[return-value]


def _inside(v: SSAValue, op: Operation) -> bool:
    """Whether `v` is defined within `op`."""
    o = v.owner if isinstance(v.owner, Operation) else v.owner.parent_op()
    while o is not None:
        if o is op:
            return True
        o = o.parent_op()
    return False


def _captured(op: scf.ParallelOp) -> tuple[list[SSAValue], list[arith.ConstantOp]]:
    """The values defined outside the loop that it uses (bounds and body, not the initial
    values of its reductions), and the constants among them (cloned into the region)."""
    seen: dict[SSAValue, None] = {}
    for v in [*op.lowerBound, *op.upperBound, *op.step]:
        seen[v] = None
    for o in op.body.walk():
        for v in o.operands:
            if not _inside(v, op):
                seen[v] = None
    values = [v for v in seen if not isinstance(v.owner, arith.ConstantOp)]
    constants = list(dict.fromkeys(v.owner for v in seen if isinstance(v.owner, arith.ConstantOp)))
    return values, constants  # type: ignore[return-value]


class _Emit:
    """Appends ops to a block."""

    def __init__(self, block: Block):
        self.block = block

    def __call__(self, o: Operation) -> SSAValue:
        self.block.add_op(o)
        return o.results[0] if o.results else None  # type: ignore[return-value]

    def index(self, n: int) -> SSAValue:
        return self(arith.ConstantOp(IntegerAttr(n, IndexType())))


def _region_function(op: scf.ParallelOp, name: str, kinds: list[str], captured: list[SSAValue],
                     constants: list[arith.ConstantOp]) -> func.FuncOp:  # fmt: skip
    """The outlined region (see the module docstring): the loop's body cloned into an scf.for
    over this thread's share, the iteration's indices recovered from the collapsed one."""
    types = [v.type for v in op.initVals]
    entry = Block(arg_types=[_PTR, _PTR, *[v.type for v in captured], *[_PTR] * len(kinds)])
    entry.args[0].name_hint, entry.args[1].name_hint = "gtid", "btid"
    e = _Emit(entry)
    mapping: dict[SSAValue, SSAValue] = {}
    for c in constants:
        e(cl := c.clone())
        mapping[c.result] = cl.result
    for v, a in zip(captured, entry.args[2:], strict=False):
        mapping[v] = a
        a.name_hint = v.name_hint
    shared = list(entry.args[2 + len(captured):])
    one = e(xllvm.ConstantOp(IntegerAttr(1, i64), i64))
    private = [e(xllvm.AllocaOp(one, t, 8)) for t in types]
    zero, step1 = e.index(0), e.index(1)
    lbs = [mapping[v] for v in op.lowerBound]
    steps = [mapping[v] for v in op.step]
    trips = []
    for lb, ub, st in zip(lbs, [mapping[v] for v in op.upperBound], steps, strict=True):
        t = e(arith.CeilDivSIOp(e(arith.SubiOp(ub, lb)), st))
        trips.append(e(arith.MaxSIOp(t, zero)))
    n = trips[0]
    for t in trips[1:]:
        n = e(arith.MuliOp(n, t))
    identities = [e(arith.ConstantOp(FloatAttr(_IDENTITY[k], t))) for k, t in zip(kinds, types, strict=True)]

    then = Block()
    te = _Emit(then)
    n64 = te(arith.IndexCastOp(n, i64))
    c0, c1 = te(arith.ConstantOp(IntegerAttr(0, i64))), te(arith.ConstantOp(IntegerAttr(1, i64)))
    last = te(arith.SubiOp(n64, c1))
    init = par.StaticInitOp(c0, last, c1, c1)
    then.add_op(init)
    lo = te(arith.IndexCastOp(init.lb, IndexType()))
    hi = te(arith.IndexCastOp(te(arith.AddiOp(te(arith.MinSIOp(init.ub, last)), c1)), IndexType()))

    body = Block(arg_types=[IndexType(), *types])
    be = _Emit(body)
    rest = body.args[0]
    ivs: list[SSAValue] = [rest] * len(trips)
    for d in range(len(trips) - 1, 0, -1):
        ivs[d] = be(arith.RemSIOp(rest, trips[d]))
        rest = be(arith.DivSIOp(rest, trips[d]))
    ivs[0] = rest
    src = op.body.block
    for d, (arg, k) in enumerate(zip(src.args, ivs, strict=True)):
        iv = be(arith.AddiOp(lbs[d], be(arith.MuliOp(k, steps[d]))))
        iv.name_hint = arg.name_hint
        mapping[arg] = iv
    reduce = src.last_op
    for o in list(src.ops)[:-1]:
        body.add_op(o.clone(value_mapper=mapping))
    body.add_op(scf.YieldOp(*inline_combiners(body, list(body.args[1:]), reduce, mapping)))  # type: ignore[arg-type]
    loop = scf.ForOp(lo, hi, step1, identities, Region(body))
    then.add_op(loop)
    then.add_op(par.StaticFiniOp())
    then.add_op(scf.YieldOp(*loop.results))
    otherwise = Block()
    otherwise.add_op(scf.YieldOp(*identities))
    cond = e(arith.CmpiOp(n, zero, "sgt"))
    branch = scf.IfOp(cond, types, Region(then), Region(otherwise))
    entry.add_op(branch)
    for k, t, part, s, p in zip(kinds, types, branch.results, shared, private, strict=True):
        e(ext.StoreOp(part, p))
        e(par.ReduceOp(k, s, p, t, nowait=True))
    e(func.ReturnOp())
    return func.FuncOp(name, ([_PTR, _PTR, *[v.type for v in captured], *[_PTR] * len(kinds)], []), Region(entry),
                       visibility="private")  # fmt: skip


def _outline(op: scf.ParallelOp, fn: func.FuncOp, kinds: list[str], name: str) -> func.FuncOp:
    """The region's function; the loop replaced by its fork.  The reductions' shared slots are
    allocated at the function's entry (the loop may be in another loop)."""
    captured, constants = _captured(op)
    region = _region_function(op, name, kinds, captured, constants)
    entry = fn.body.blocks.first
    assert entry is not None
    slots: list[SSAValue] = []
    if kinds:
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        Rewriter.insert_op(one, InsertPoint.at_start(entry))
        at: Operation = one
        for v in op.initVals:
            at = xllvm.AllocaOp(one, v.type, 8)
            Rewriter.insert_op(at, InsertPoint.after(slots[-1].owner if slots else one))  # type: ignore[arg-type]
            slots.append(at.results[0])
    before = InsertPoint.before(op)
    for v, s in zip(op.initVals, slots, strict=True):
        Rewriter.insert_op(ext.StoreOp(v, s), before)
    fork = par.ParallelOp(name, [*captured, *slots])
    Rewriter.insert_op(fork, before)
    for r, s in zip(op.results, slots, strict=True):
        load = xllvm.LoadOp(s, r.type)
        Rewriter.insert_op(load, InsertPoint.before(op))
        r.replace_all_uses_with(load.dereferenced_value)
    Rewriter.erase_op(op)
    return region


def outline_parallel_loops(module: ModuleOp) -> list[str]:
    """Every outermost `scf.parallel` whose reductions are recognised, as a parallel region;
    the names of the outlined functions."""
    taken = {o.sym_name.data for o in module.ops if hasattr(o, "sym_name")}
    inner = _called_in_loops(module)
    names: list[str] = []
    for fn in [f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
        if fn.sym_name.data in inner:
            continue  # (run by the threads of another loop: its loops are nested ones)
        loops = [o for o in fn.walk() if isinstance(o, scf.ParallelOp)]
        k = 0
        for op in [o for o in loops if not _nested(o)]:
            kinds = _kinds(op)
            if kinds is None:
                continue
            while (name := f"{fn.sym_name.data}.scf_parallel.{k}") in taken:
                k += 1
            taken.add(name)
            region = _outline(op, fn, kinds, name)
            Rewriter.insert_op(region, InsertPoint.after(fn))
            names.append(name)
    return names


def _callees(module: ModuleOp, roots: list[Operation]) -> set[str]:
    """The functions the ops `roots` call, directly or through other functions."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        for o in todo.pop().walk():
            if isinstance(o, func.CallOp) and (callee := o.callee.string_value()) not in seen:
                seen.add(callee)
                if callee in functions:
                    todo.append(functions[callee])
    return seen


def _called_in_loops(module: ModuleOp) -> set[str]:
    """The functions an `scf.parallel` body calls, directly or not."""
    return _callees(module, [o for o in module.walk() if isinstance(o, scf.ParallelOp)])


def reaches_parallel_loop(module: ModuleOp, function: str) -> bool:
    """Whether `function`, or a function it calls, holds a loop that runs on threads."""
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    inner = _called_in_loops(module)
    for name in {function} | _callees(module, [functions[function]] if function in functions else []):
        if name in functions and name not in inner and any(
            isinstance(o, scf.ParallelOp) and not _nested(o) and _kinds(o) is not None for o in functions[name].walk()
        ):
            return True
    return False


def _nested(op: Operation) -> bool:
    o = op.parent_op()
    while o is not None:
        if isinstance(o, scf.ParallelOp):
            return True
        o = o.parent_op()
    return False


@dataclass(frozen=True)
class ConvertScfParallelToParPass(ModulePass):
    """Outermost scf.parallel loops with recognised reductions -> par regions on threads."""

    name = "convert-scf-parallel-to-par"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_parallel_loops(op)
