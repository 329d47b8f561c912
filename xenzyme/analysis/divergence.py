"""Divergence: which values of a GPU function may differ between the threads of a block, and
which blocks only some of its threads may execute.

A value *varies* when it depends on `gpu.thread_id`: through its operands; through memory a
thread keeps for itself (an `alloca` into which a varying value is stored, or which is written
under divergent control); as the old value an atomic returns; as the result of a call of a
function that reads thread ids or does atomics, or of an external function other than math;
and at the join of paths that some threads take and others do not (a block argument fed along
an edge leaving divergent control -- including a loop's own header, for values that differ
between iterations some threads run and others do not).  A load at an address that does not
vary gives every thread the same value (the CUDA memory model, between barriers).

A block is *divergent* when it is control dependent (post-dominance frontier) on a branch whose
condition varies, or on a divergent block.  CUDA requires every thread of a block to reach the
same barriers, so a barrier must not be in a divergent block: `check_barriers` says where one
is.  Block, grid and kernel-argument values are the same in all threads; the arguments of a
device function are too unless `varying_args` names them (a device function differentiated for
a kernel gets what its calls pass: `request_uniformity`).

`across_blocks=True` asks the same question for the whole grid: `gpu.block_id` is then a
source of variation too, and a value that does not vary is the same in every thread of the
launch (an array a kernel receives, `blockDim.x * gridDim.x`).

Pure functions of the IR, for lower-gpu (and for reverse rules deciding between per-thread and
block-uniform adjoint updates).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.cfg import successors
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext

_EXIT = "exit"
_POINTER_STEPS = (ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp)
_UNIFORM_EXTERNALS = ("__nv_", "llvm.")
"""External functions whose result depends on their arguments only (math)."""


def thread_dependent_functions(module: ModuleOp, across_blocks: bool = False) -> set[str]:
    """Functions whose result or effects may depend on which thread calls them: those reading
    thread ids (and block ids, `across_blocks`) or doing atomics, external ones other than
    math, and their callers."""
    sources = _sources(across_blocks)
    fns = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
    dependent: set[str] = set()
    for name, f in fns.items():
        if not f.body.blocks:
            if not name.startswith(_UNIFORM_EXTERNALS):
                dependent.add(name)
        elif any(isinstance(o, sources) for o in f.walk()):
            dependent.add(name)
    changed = True
    while changed:
        changed = False
        for name, f in fns.items():
            if name in dependent or not f.body.blocks:
                continue
            for o in f.walk():
                if isinstance(o, xllvm.CallOp) and (o.callee is None or o.callee.string_value() in dependent):
                    dependent.add(name)
                    changed = True
                    break
    return dependent


def underlying_alloca(p: SSAValue) -> xllvm.AllocaOp | None:
    """The alloca `p` points into, through address arithmetic and casts."""
    op = p.owner
    while isinstance(op, _POINTER_STEPS):
        op = op.operands[0].owner
    return op if isinstance(op, xllvm.AllocaOp) else None


def _sources(across_blocks: bool) -> tuple[type[Operation], ...]:
    ids: tuple[type[Operation], ...] = (gpu.ThreadIdOp, gpu.BlockIdOp) if across_blocks else (gpu.ThreadIdOp,)
    return (*ids, ext.AtomicRMWOp, ext.CmpXchgOp)


@dataclass
class Divergence:
    """The analysis of one function (see the module docstring)."""

    fn: xllvm.FuncOp
    dependent_functions: set[str]
    across_blocks: bool = False
    varying: set[SSAValue] = field(default_factory=set)
    divergent_blocks: set[Block] = field(default_factory=set)

    @staticmethod
    def of(fn: xllvm.FuncOp, module: ModuleOp | None = None, varying_args: set[int] | frozenset[int] = frozenset(),
           across_blocks: bool = False) -> Divergence:
        module = module or fn.parent_op()  # type: ignore[assignment]
        dependent = thread_dependent_functions(module, across_blocks) if isinstance(module, ModuleOp) else set()
        d = Divergence(fn, dependent, across_blocks)
        entry = fn.body.blocks.first
        if entry is not None:
            d.varying |= {a for a in entry.args if a.index in varying_args}
        d._run()
        return d

    def varies(self, v: SSAValue) -> bool:
        return v in self.varying

    def _control_dependences(self) -> dict[Block, set[Block]]:
        """Block -> the blocks whose branch decides whether it runs (post-dominance frontier)."""
        import networkx as nx  # (imported here: only GPU code needs it)

        g = nx.DiGraph()
        g.add_node(_EXIT)
        for b in self.fn.body.blocks:
            g.add_node(b)
            succ = successors(b)
            for s in succ:
                g.add_edge(s, b)  # reversed
            if not succ:
                g.add_edge(_EXIT, b)
        frontiers = nx.dominance_frontiers(g, _EXIT)
        return {b: set(f) - {_EXIT} for b, f in frontiers.items() if b != _EXIT}  # type: ignore[misc]

    def _run(self) -> None:
        blocks = list(self.fn.body.blocks)
        deps = self._control_dependences()
        unanalysed = [b for b in blocks if b not in deps]  # (no path to a return: an endless loop)
        preds: dict[Block, list[Block]] = {b: [] for b in blocks}
        for b in blocks:
            for s in successors(b):
                preds[s].append(b)
        private_varying: set[Operation] = set()
        changed = True
        while changed:
            changed = False

            def mark(v: SSAValue) -> None:
                nonlocal changed
                if v not in self.varying:
                    self.varying.add(v)
                    changed = True

            branching = {b for b in blocks if self._branch_varies(b)}
            for b in blocks:
                if b in self.divergent_blocks:
                    continue
                if b in unanalysed or deps.get(b, set()) & (branching | self.divergent_blocks):
                    self.divergent_blocks.add(b)
                    changed = True
            for b in blocks:
                joined = any(p in self.divergent_blocks or p in branching for p in preds[b])
                for i, arg in enumerate(b.args):
                    if joined or any(v in self.varying for v in _incoming(preds[b], b, i)):
                        mark(arg)
                for op in b.ops:
                    if isinstance(op, ext.StoreOp | xllvm.StoreOp):
                        a = underlying_alloca(op.operands[1])
                        if a is not None and a not in private_varying and (
                            op.operands[0] in self.varying or b in self.divergent_blocks
                        ):
                            private_varying.add(a)
                            changed = True
                    if op.results and self._result_varies(op, private_varying):
                        for r in op.results:
                            mark(r)
            for a in self._escaping_allocas():
                if a not in private_varying:
                    private_varying.add(a)
                    changed = True

    def _branch_varies(self, b: Block) -> bool:
        term = b.last_op
        if isinstance(term, xllvm.CondBrOp):
            return term.cond in self.varying
        if isinstance(term, ext.SwitchOp):
            return term.operands[0] in self.varying
        return False

    def _result_varies(self, op: Operation, private_varying: set[Operation]) -> bool:
        if isinstance(op, _sources(self.across_blocks)):
            return True
        if isinstance(op, xllvm.LoadOp):
            a = underlying_alloca(op.ptr)
            if a is not None and a in private_varying:
                return True
        if isinstance(op, xllvm.CallOp):
            if op.callee is None or op.callee.string_value() in self.dependent_functions:
                return True
        return any(o in self.varying for o in op.operands)

    def _escaping_allocas(self) -> list[Operation]:
        """Allocas whose address goes anywhere but loads and stores through it (a call, memory,
        a block argument): what happens to their contents is not followed."""
        out = []
        for op in self.fn.walk():
            if isinstance(op, xllvm.AllocaOp) and _escapes(op.res):
                out.append(op)
        return out


def _escapes(p: SSAValue) -> bool:
    for use in p.uses:
        user = use.operation
        if isinstance(user, _POINTER_STEPS):
            if _escapes(user.results[0]):
                return True
        elif isinstance(user, xllvm.LoadOp):
            continue
        elif isinstance(user, ext.StoreOp | xllvm.StoreOp) and use.index == 1:
            continue
        elif ext.is_annotation(user):
            continue
        else:
            return True
    return False


def _incoming(preds: list[Block], b: Block, i: int) -> list[SSAValue]:
    out = []
    for p in preds:
        for dest, operands in ext.successor_operands(p.last_op):  # type: ignore[arg-type]
            if dest is b and i < len(operands):
                out.append(operands[i])
    return out


def check_barriers(d: Divergence) -> gpu.BarrierOp | None:
    """The first barrier in divergent control flow, or None."""
    for b in d.fn.body.blocks:
        if b in d.divergent_blocks:
            for op in b.ops:
                if isinstance(op, gpu.BarrierOp):
                    return op
    return None


__all__ = ["Divergence", "check_barriers", "thread_dependent_functions", "underlying_alloca"]
_ = BlockArgument
