"""One gradient in the making: its bookkeeping, and the context the rules work in.

`GradientBuilder` holds what the pieces of a gradient share -- the primal's analyses (control
flow, activity, types, writes), the forward-sweep copies of primal values and shadows, the
adjoint slots, the current point of the reverse sweep -- and answers the rules' questions
(`xenzyme.rules.context`): the forward value or shadow of a primal value, a primal value in the
reverse sweep (asking the cache policy how it gets there), adjoints and their accumulation.

The work itself is the pieces': `Sweeps` (sweep.py) walks the blocks, `Caching` (caching.py)
decides how primal values reach the reverse sweep, `ReverseCalls` (calls.py) differentiates
calls, `Tape` (tape.py) joins the two halves in split mode.  The adjoint of an op's float
result is an SSA sum while its contributions and its read stay in one reverse block (straight-line
code, a loop body); otherwise, and for block arguments and aggregates, it lives in a stack slot,
created -0.0 (the identity of fadd), read and cleared where the value was defined, which LLVM's
SROA turns into SSA.  Shadow memory receives adjoints through `autodiff.accumulate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, Float32Type, Float64Type, IntegerAttr, ModuleOp, StringAttr, i32, i64
from xdsl.ir import Attribute, Block, BlockArgument, OpResult, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.activity import (
    ActivityInfo,
    analyze_activity,
    has_derivative_output,
    is_pointer_like,
    read_back_with_derivative,
)
from xenzyme.analysis.alias import (
    MERGED_WITH_CONSTANT,
    WriteSummary, allocation_escapes, allocator_of, noalias_argument, pointer_roots, store_destinations, underlying_objects,
)
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.analysis.gpu_updates import DeviceUpdates
from xenzyme.analysis.hints import Hints
from xenzyme.analysis.ownership import owned_loads, reads_into_shadows
from xenzyme.analysis.types import Views, memory_contents
from xenzyme.diagnostics import SourceLocation
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, zero_constant
from xenzyme.transforms.diff import windows
from xenzyme.transforms.diff.caching import Caching
from xenzyme.transforms.diff.calls import ReverseCalls
from xenzyme.transforms.diff.errors import fail_at, irreducible
from xenzyme.transforms.diff.prepare import prepend
from xenzyme.transforms.diff.sweep import Sweeps
from xenzyme.transforms.diff.tape import Tape, augmented_fields

if TYPE_CHECKING:
    from xenzyme.transforms.diff.generator import GradientGenerator


@dataclass
class Position:
    """Where the reverse sweep is: the reverse of primal block `primal`, built in `block`."""

    primal: Block
    block: Block


class GradientBuilder:
    """Builds the gradient of one function for one activity pattern: one function doing both
    sweeps (combined mode), or the augmented and reverse functions (split mode)."""

    def __init__(
        self,
        module: ModuleOp,
        fn: xllvm.FuncOp,
        activities: Sequence[str],
        ret_activity: str,
        name: str | tuple[str, str],
        filename: str | None,
        generator: GradientGenerator | None = None,
        split: bool = False,
        tape_buffer: bool = False,
        mincut: bool = False,
        plan: set[SSAValue] | None = None,
        team: bool = False,
    ):
        self.module = module
        self.generator = generator
        if generator is not None:
            fn = generator.resolved(fn, activities, ret_activity)
        self.fn = fn
        self.acts = list(activities)
        self.ret_activity = ret_activity
        self.name = name
        self.filename = filename
        self.fname = fn.sym_name.data
        self.split = split
        """Split mode: the forward sweep (`augmented`) and the reverse sweep are two functions,
        joined by a tape that holds every cache; otherwise one function does both."""
        self.team = team
        """The functions run on every thread of a team at once (split mode): shadow memory
        other threads may update too receives adjoints atomically, and both functions take one
        more parameter, `team_memory` (memory the team shares for the duration of its region,
        for the collective operations' reverse: see `xenzyme.rules.par`)."""
        self.f_team_memory: SSAValue | None = None
        self.r_team_memory: SSAValue | None = None
        try:
            self.cfg = CFG(fn.body)
        except IrreducibleControlFlow as exc:
            raise irreducible(self.fname, exc, filename) from None
        globals_ = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.GlobalOp)}
        self.globals = globals_
        constant = {n for n, gl in globals_.items() if gl.constant is not None}
        self.info: ActivityInfo = analyze_activity(self.cfg, list(self.cfg.entry.args), self.acts, ret_activity, constant)
        self.writes = WriteSummary(self.cfg.rpo, self.cfg)
        self.partials: dict[tuple[SSAValue, Attribute], tuple[SSAValue, int | None]] = {}
        """In a team or GPU code: thread-private sums of adjoints for shared memory (`_partial`)."""
        self.written_objects: set[object] | bool | None = None
        """What `_objects_written` found (None: not asked yet)."""
        self.windows: dict[tuple[SSAValue, Attribute], SSAValue] = {}
        """In a team: thread-private windows of the shadow memory at varying offsets from a
        fixed pointer, by pointer and element type (`_window`)."""
        self.owned: set[SSAValue] = set()
        """In a team: primal pointers whose memory only this thread's iterations touch."""
        if team and (reads := reads_into_shadows(self.cfg, self.info.shadowed)) is not None:
            self.owned = {op.ptr for op in owned_loads(self.cfg, reads)}  # type: ignore[attr-defined]
        self.device: DeviceUpdates | None = None
        """In GPU code: which additions into memory only this thread makes, and which all the
        threads of a block make at one address (see `accumulate_memory`)."""
        if generator is not None and generator.device and not team:
            n = len(fn.function_type.inputs.data)
            every = set(range(n))
            in_block, in_grid = (every, every) if split else generator.device_varying.get(self.fname, (every, every))
            reads = reads_into_shadows(self.cfg, self.info.shadowed)
            self.device = DeviceUpdates(self.cfg, module, fn, reads, in_block, in_grid)
        self.views = Views(self.cfg, {n: gl.global_type for n, gl in globals_.items()})
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
        """The module's functions by name (callee attributes: what a call may keep)."""
        self.hints = generator.hints if generator is not None else Hints()
        self.values: dict[SSAValue, SSAValue] = {}
        """Forward-sweep copies of primal values."""
        self.shadows: dict[SSAValue, SSAValue] = {}
        """Forward-sweep shadows of primal pointers."""
        self.F: dict[Block, Block] = {}
        self.R: dict[Block, Block] = {}
        self.slots: dict[SSAValue, SSAValue] = {}
        """Adjoint slots of primal values."""
        self.sums: dict[SSAValue, tuple[SSAValue, Block, Operation | None]] = {}
        """Adjoints held as SSA values (see `accumulate`): the sum so far, and where it is
        defined, the block and the op it follows (None: the block's start), where its slot
        would be added to should it need one."""
        self.read_unset: set[SSAValue] = set()
        """Values whose adjoint was read as zero: nothing may be added to them after."""
        self.rparam: dict[SSAValue, SSAValue] = {}
        self.rshadow: dict[SSAValue, SSAValue] = {}
        """Split mode: the reverse function's parameters and their shadows."""
        self.memo: dict[tuple[Block, object], SSAValue] = {}
        self.fwd_entry_ops: list[Operation] = []
        self.rev_entry_ops: list[Operation] = []
        self.ret_blocks = [b for b in self.cfg.rpo if isinstance(b.last_op, xllvm.ReturnOp)]
        self.dominates_returns = {b for b in self.cfg.rpo if all(self.cfg.dominates(b, r) for r in self.ret_blocks)}
        self.pos: Position | None = None
        self.fwd_block: Block | None = None
        self.keyed_slots: dict[tuple[bool, object], SSAValue] = {}
        """The primal block the forward sweep is copying."""
        self.e: LLVMEmitter = None  # type: ignore[assignment]
        self.sweeps = Sweeps(self)
        self.caching = Caching(self, mincut, plan)
        self.calls = ReverseCalls(self)
        self.tape = Tape(self, tape_buffer)

    # ---- errors ---------------------------------------------------------------------------

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        fail_at(op, f"cannot differentiate @{self.fname}", message, self.filename, notes, self.module)

    def _fail_unshadowed_store(self, op: Operation) -> NoReturn:
        """Active data written where no shadow can follow it: say what that memory is."""
        ptr = op.operands[1] if isinstance(op, ext.StoreOp) else op.operands[0]
        for root in pointer_roots(ptr, self.cfg):
            owner = root.owner
            if isinstance(owner, xllvm.CallOp) and owner.callee is not None:
                callee = owner.callee.string_value()
                self.fail(op, f"active data is stored through the pointer returned by @{callee}, which has no shadow",
                          [f"define @{callee} in this module so that it is differentiated with its caller, "
                           f"or give it a custom derivative (__enzyme_register_gradient_{callee})"])  # fmt: skip
            if isinstance(owner, ext.InvokeOp):
                self.fail(op, "active data is stored in memory returned by an `invoke` (a call that may throw a C++ "
                              "exception); exception handling is not supported in reverse mode",
                          ["compile with -fno-exceptions, or declare the called functions noexcept"])  # fmt: skip
            if isinstance(owner, xllvm.LoadOp):
                self.fail(op, "active data is stored through a pointer loaded from memory that has no shadow",
                          ["pass the memory holding the pointer with its shadow (enzyme_dup)"])  # fmt: skip
            if isinstance(root, BlockArgument) and root.block is self.cfg.entry:
                self.fail(op, f"active data is stored through argument {root.index}, which has no shadow "
                              f"({self.acts[root.index]})",
                          [f"mark argument {root.index} enzyme_dup with a shadow, or the stored value enzyme_const"])  # fmt: skip
        self.fail(op, "an active value is stored into memory that has no shadow",
                  ["mark the pointer argument enzyme_dup (with a shadow), or the value enzyme_const"])  # fmt: skip

    # ---- the gradient function ------------------------------------------------------------

    def build(self) -> list[xllvm.FuncOp]:
        """The gradient function (combined mode), or the augmented and reverse functions; in a
        planning run (the minimum cut's first), nothing: only what the rules asked for."""
        for op in self.info.unshadowed_stores:
            if read_back_with_derivative(self.cfg, self.info, op, self.ret_activity):
                self._fail_unshadowed_store(op)
        if self.info.unshadowed_stores and not has_derivative_output(self.info, self.ret_activity):
            self._fail_unshadowed_store(self.info.unshadowed_stores[0])
        for op in self.info.aggregated_pointers:
            self.fail(op, "a pointer with a shadow is put into an aggregate value that is then stored as a whole "
                          "or taken apart after a branch; reverse mode follows the shadows of pointers held as "
                          "scalars only",
                      ["optimise before differentiating (clang -O1 or more, or preopt >= 1): LLVM then keeps such "
                       "pointers as scalars", "or pass the pointer as a separate argument"])  # fmt: skip
        for op in self.info.merged_pointers:
            self.fail(op, *MERGED_WITH_CONSTANT)
        for op in self.info.unshadowed_pointers:
            self.fail(op, "a pointer without a shadow (to memory that may hold floating-point data) is stored into "
                          "memory that has one: derivatives would be read and written through it in the primal data",
                      ["pass the memory it points to with a shadow (enzyme_dup), or keep that pointer out of the "
                       "memory with derivatives (a separate argument or struct)"])  # fmt: skip
        for op in self.info.reinterpreted:
            self.fail(
                op,
                "the bits of a floating-point value with a derivative are changed, passed or returned as an integer "
                "(type punning); its derivative would be lost",
                ["compute with floating-point operations (fabs, copysign, ldexp, frexp, ...), "
                 "or give the function a custom derivative"],
            )  # fmt: skip
        ftype = self.fn.function_type
        primal: list[Attribute] = []
        for t, act in zip(ftype.inputs.data, self.acts, strict=True):
            primal.append(t)
            if ad.has_shadow(act):
                primal.append(t)
        seed = [ftype.output] if self.ret_activity == "active" else []
        buffer = [ext.LLVMPointerType()] if self.tape.in_buffer else []
        team = [ext.LLVMPointerType()] if self.team else []
        self.g_entry = entry = Block(arg_types=primal + buffer + team if self.split else primal + seed)
        self.active_args = self._map_parameters(entry, self.values, self.shadows)
        self.seed = None if self.split else (entry.args[-1] if seed else None)
        if self.team:
            self.f_team_memory = entry.args[-1]
            self.f_team_memory.name_hint = "team"
        if self.split:
            self.r_entry = Block(arg_types=[*primal, *seed, *team, ext.LLVMPointerType()])
            self._map_parameters(self.r_entry, self.rparam, self.rshadow)
            self.seed = self.r_entry.args[len(primal)] if seed else None
            if self.team:
                self.r_team_memory = self.r_entry.args[-2]
                self.r_team_memory.name_hint = "team"
            self.tape.tape_in = self.r_entry.args[-1]
            self.tape.tape_in.name_hint = "tape"
            self.tape.allocate()
        if self.seed is not None:
            self.seed.name_hint = "differet"

        self.sweeps.forward()
        self.sweeps.reverse()
        if self.caching.planning:
            return []
        return self.finished()

    def finished(self) -> list[xllvm.FuncOp]:
        """The functions the sweeps built, finished (caches placed, entry ops, the tape).  Also
        for a planning run that asked for no value the cut could choose: it took the same path
        as a run with the (empty) plan would, so it is the gradient."""
        entry = self.g_entry
        self._finish()

        results = [a.type for a in self.active_args]
        rtype = ad.derivative_result_type(results) or ext.LLVMVoidType()
        forward_blocks = [entry] + [self.F[b] for b in self.cfg.rpo[1:]] + self.sweeps.exit_blocks
        attrs = ArrayAttr(inherited_attributes(self.fn))
        if not self.split:
            assert isinstance(self.name, str)
            gfn = xllvm.FuncOp(
                self.name, ext.LLVMFunctionType(entry.arg_types, rtype),
                linkage=xllvm.LinkageAttr("internal"), body=Region(forward_blocks + self.sweeps.reverse_blocks),
            )  # fmt: skip
            gfn.properties["passthrough"] = attrs
            return [gfn]
        aug_name, rev_name = self.name
        aug = xllvm.FuncOp(
            aug_name, ext.LLVMFunctionType(entry.arg_types, self.augmented_type()),
            linkage=xllvm.LinkageAttr("internal"), body=Region(forward_blocks),
        )  # fmt: skip
        rev = xllvm.FuncOp(
            rev_name, ext.LLVMFunctionType(self.r_entry.arg_types, rtype),
            linkage=xllvm.LinkageAttr("internal"), body=Region([self.r_entry, *self.sweeps.reverse_blocks]),
        )  # fmt: skip
        aug.properties["passthrough"] = attrs
        rev.properties["passthrough"] = attrs
        return [aug, rev]

    def _finish(self) -> None:
        """The entry ops (caches, slots, the tape), then the pushes and pops of the caches."""
        if self.split:
            self.tape.lay_out()
            prepend(self.g_entry, self.fwd_entry_ops)
            prepend(self.r_entry, self.rev_entry_ops)
        else:
            prepend(self.g_entry, self.fwd_entry_ops + self.rev_entry_ops)
        self.caching.place()
        if self.split:
            self.tape.free()
        self.caching.reserve()

    def _map_parameters(
        self, entry: Block, values: dict[SSAValue, SSAValue], shadows: dict[SSAValue, SSAValue]
    ) -> list[BlockArgument]:
        """Bind the primal's parameters (and their shadows) to `entry`'s arguments."""
        it = iter(entry.args)
        active: list[BlockArgument] = []
        for arg, act in zip(self.cfg.entry.args, self.acts, strict=True):
            g = next(it)
            values[arg] = g
            if arg.name_hint:
                g.name_hint = arg.name_hint
            if ad.has_shadow(act):
                sh = next(it)
                sh.name_hint = f"d_{arg.name_hint}" if arg.name_hint else None
                shadows[arg] = sh
            elif is_pointer_like(arg.type):
                shadows[arg] = g  # an inactive pointer is its own shadow
            if act == "active":
                active.append(arg)
        return active

    def augmented_type(self) -> Attribute:
        """What the augmented forward function returns: {primal result, its shadow, tape}."""
        return ext.LLVMStructType.from_type_list(augmented_fields(self.fn.function_type, self.ret_activity))

    @property
    def tape_type(self) -> Attribute | None:
        return self.tape.type

    def discard(self) -> None:
        """Drop what a planning run built, so that it leaves no uses behind."""
        blocks = [self.g_entry, *self.F.values(), *self.sweeps.exit_blocks, *self.sweeps.reverse_blocks]
        if self.split:
            blocks.append(self.r_entry)
        for b in blocks:
            for op in b.ops:
                op.drop_all_references()
        for op in self.fwd_entry_ops + self.rev_entry_ops:
            op.drop_all_references()

    # ---- the forward sweep: what rules ask (AugmentContext) --------------------------------

    def active(self, v: SSAValue) -> bool:
        return self.info.is_active(v)

    def shadowed(self, v: SSAValue) -> bool:
        return v in self.info.shadowed

    def fwd(self, v: SSAValue) -> SSAValue:
        return self.values[v]

    def fwd_shadow(self, v: SSAValue) -> SSAValue:
        """The forward-sweep shadow of primal pointer `v` (inactive pointers are their own)."""
        s = self.shadows.get(v)
        if s is not None:
            return s
        return self.values[v]

    def set_shadow(self, p: SSAValue, shadow: SSAValue) -> None:
        self.shadows[p] = shadow
        if p.name_hint and shadow is not self.values.get(p):
            shadow.name_hint = f"d_{p.name_hint}"

    def copy(self, op: Operation) -> Operation:
        new = self.clone_defined(op, self.values)
        self.e.b.insert(new)
        return new

    @staticmethod
    def clone_defined(op: Operation, mapping: dict[SSAValue, SSAValue]) -> Operation:
        """A copy of `op` for the gradient function in which float lanes are never poison.

        Rules multiply adjoints by primal values; where a primal lane is poison (a shuffle mask
        entry of -1, a vector built up from `poison`, an `undef` phi input) the adjoint lane is
        zero, but zero times poison is poison, and LLVM folds it to anything.  Such lanes are
        unused by the primal, so giving them the value zero (or a copy of a defined lane)
        changes nothing else.
        """
        if isinstance(op, ext.PoisonOp | xllvm.UndefOp) and ad.is_float_like(op.results[0].type):
            zero = zero_constant(op.results[0].type)
            mapping[op.results[0]] = zero.results[0]
            return zero
        new = op.clone_without_regions(mapping)
        if isinstance(new, xllvm.ShuffleVectorOp):
            mask = list(new.mask.iter_values())
            if any(m < 0 for m in mask):
                new.properties["mask"] = DenseArrayBase.from_list(i32, [max(m, 0) for m in mask])
        return new

    def contents(self, ptr: SSAValue):
        """What the objects `ptr` may point into hold (type analysis)."""
        types = {n: gl.global_type for n, gl in self.globals.items()}
        return memory_contents(ptr, self.cfg, self.cfg.rpo, types)

    def shadow_global(self, op: xllvm.AddressOfOp, k: int = 0) -> str | None:
        """The name of the shadow of the global `op` takes the address of (made once); None
        for the address of a function."""
        name = op.global_name.string_value()
        g = self.globals.get(name)
        if g is None:
            return None
        shadow_name = f"{name}.shadow"
        assert self.generator is not None
        self.generator.symbols.shadow_global(g, shadow_name)
        return shadow_name

    # ---- the reverse sweep: what rules ask (ReverseContext) --------------------------------

    def at(self, primal: Block, block: Block) -> None:
        """Build the reverse of `primal`'s code at the end of `block`."""
        self.pos = Position(primal, block)
        self.e = LLVMEmitter(Builder(InsertPoint.at_end(block)), self.module)

    def _slot(self, v: SSAValue) -> SSAValue:
        slot = self.slots.get(v)
        if slot is None:
            one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
            alloca = xllvm.AllocaOp.create(
                operands=[one.result], result_types=[ext.LLVMPointerType()], properties={"elem_type": v.type}
            )
            if v.name_hint:
                alloca.res.name_hint = f"d_{v.name_hint}"
            zero = zero_constant(v.type, negative=True)  # -0.0: x + -0.0 folds to x
            self.rev_entry_ops += [one, alloca, zero, ext.StoreOp(zero.results[0], alloca.res)]
            self.slots[v] = slot = alloca.res
        return slot

    def adjoint(self, v: SSAValue) -> SSAValue | None:
        if not self.info.is_active(v):
            return None
        e = self.e
        if v not in self.slots and _in_registers(v):
            held = self._held(v)
            if held is not None:
                del self.sums[v]
                return held
            if v not in self.slots:
                self.read_unset.add(v)
                return e.zero(v.type, negative=True)  # (nothing was added to it)
        slot = self._slot(v)
        d = e.insert(xllvm.LoadOp(slot, v.type))
        e.insert(ext.StoreOp(e.zero(v.type, negative=True), slot))
        return d

    def accumulate(self, v: SSAValue, delta: SSAValue) -> None:
        """Add `delta` to the adjoint of `v`.  The adjoint of an op's float result is a sum in
        SSA form while every addition and its one read (at the reverse of the op) are in one
        reverse block, as in straight-line code and within a loop body: no stack slot, load
        and store per use, which the optimiser would have to remove again.  Otherwise the sum
        is added to a slot where it is defined, and the slot is used from then on."""
        if not self.info.is_active(v):
            return
        if delta.type != v.type:
            raise AssertionError(f"adjoint of {v.type} accumulated with {delta.type}")
        if v in self.read_unset:
            raise AssertionError(f"adjoint of {v} added to after its read")
        if v not in self.slots and _in_registers(v):
            held = self._held(v)
            if v not in self.slots:  # (else the sum went to a slot just now)
                self.sums[v] = (delta if held is None else self.e.add(held, delta), *self._here())
                return
        self.e.insert(ad.AccumulateOp(self._slot(v), delta))

    def _held(self, v: SSAValue) -> SSAValue | None:
        """The SSA sum of `v`'s adjoint if it can be used where code is built now.  One built
        in another block is added to the slot where it was defined, and the slot takes over."""
        entry = self.sums.get(v)
        if entry is None:
            return None
        total, block, after = entry
        if block is self.e.b.insertion_point.block:
            return total
        del self.sums[v]
        where = InsertPoint.after(after) if after is not None else InsertPoint.at_start(block)
        Builder(where).insert(ad.AccumulateOp(self._slot(v), total))
        return None

    def _here(self) -> tuple[Block, Operation | None]:
        """Where code built now goes: its block and the op it follows (None: the start)."""
        ip = self.e.b.insertion_point
        after = ip.insert_before.prev_op if ip.insert_before is not None else ip.block.last_op
        return ip.block, after

    def accumulate_memory(self, shadow_ptr: SSAValue, delta: SSAValue, alignment: int | None = None,
                          primal: SSAValue | None = None) -> None:
        """Add `delta` into shadow memory; in a team, atomically unless the memory is this
        thread's own (its stack frame, its heap allocations, or shared memory that only its
        iterations of a worksharing loop touch: `xenzyme.analysis.ownership`), which `primal`,
        the primal pointer whose shadow this is, tells."""
        if self.device is not None:
            self._accumulate_device(shadow_ptr, delta, alignment, primal)
        elif not self.team or primal is not None and not self.shared(primal):
            self.e.insert(ad.AccumulateOp(shadow_ptr, delta, mode="plain", alignment=alignment))
        elif primal is not None and (partial := self._partial(primal, delta.type, alignment)) is not None:
            self.e.insert(ad.AccumulateOp(partial, delta, mode="plain"))
        elif primal is not None and (window := self._window(primal, delta.type)) is not None:
            self.e.call_function(windows.add_helper(self.module, delta.type), [window, shadow_ptr, delta])
        else:
            self.e.insert(ad.AccumulateOp(shadow_ptr, delta, mode="atomic", alignment=alignment))

    def _window(self, p: SSAValue, t: Attribute) -> SSAValue | None:
        """This thread's window (`xenzyme.transforms.diff.windows`) for adjoints added inside a
        loop into shared memory at `p`, one per pointer `p` is at an offset from and element
        type, where nothing in the function writes memory `p` may point into (so that nothing
        reads or resets its shadow before the window is added into it).  None otherwise (an
        atomic update is left)."""
        assert self.pos is not None
        s = windows.scalar_of(t)
        if self.device is not None or s is None or self.cfg.loop_of.get(self.pos.primal) is None:
            return None
        if self.written_objects is None:
            self.written_objects = self._objects_written()
        objects = underlying_objects(p, self.cfg)
        if self.written_objects is False or objects & self.written_objects:  # type: ignore[operator]
            return None
        base = p
        while isinstance(base.owner, ext.GEPOp):
            base = base.owner.operands[0]
        key = (base, s)
        if key not in self.windows:
            one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
            slot = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()],
                                         properties={"elem_type": windows.STATE})  # fmt: skip
            slot.res.name_hint = "window"
            empty = xllvm.ZeroOp.create(result_types=[windows.STATE])
            self.rev_entry_ops += [one, slot, empty, ext.StoreOp(empty.results[0], slot.res)]
            self.windows[key] = slot.res
        return self.windows[key]

    def _objects_written(self) -> set[object] | bool:
        """The objects the function writes, where each is this thread's own (stack slots, heap
        blocks it made) or a caller's variable that only the function reaches (a `noalias`
        argument it does not store); False where it may write other memory."""
        out: set[object] = set()
        for b in self.cfg.rpo:
            for op in b.ops:
                dests = store_destinations(op)
                if dests is None:
                    return False
                for d in dests:
                    if self._private(d):
                        continue
                    objects = underlying_objects(d, self.cfg)
                    if not all(noalias_argument(o, uncaptured=True) for o in objects):
                        return False
                    out |= objects
        return out

    def _accumulate_device(self, shadow_ptr: SSAValue, delta: SSAValue, alignment: int | None,
                           primal: SSAValue | None) -> None:
        """GPU code: many threads may add at one address.  Plain for this thread's own memory
        (its stack, its heap blocks), `gpu.owned_add` where the address is indexed by the
        thread's position (plain for one-dimensional launches), a thread-private partial sum
        for a fixed address in a loop (added once at the end, `_partial`), `gpu.combined_add`
        where the address is the same in all threads of the block and nothing in the function
        reads its adjoint back, an atomic update otherwise (`xenzyme.analysis.gpu_updates`)."""
        assert self.device is not None
        if primal is not None and self._private(primal):
            self.e.insert(ad.AccumulateOp(shadow_ptr, delta, mode="plain", alignment=alignment))
            return
        kind = self.device.kind(primal) if primal is not None and ad.is_float_like(delta.type) else "other"
        scalar = isinstance(delta.type, Float32Type | Float64Type)
        if kind == "owned" and scalar:
            self.e.insert(gpu.OwnedAddOp(shadow_ptr, delta))
        elif primal is not None and kind != "owned" and (partial := self._partial(primal, delta.type, alignment)) is not None:
            self.e.insert(ad.AccumulateOp(partial, delta, mode="plain"))
        elif kind == "uniform" and scalar and primal is not None and not self._written(primal):
            self.e.insert(gpu.CombinedAddOp(shadow_ptr, delta))
        else:
            self.e.insert(ad.AccumulateOp(shadow_ptr, delta, mode="atomic", alignment=alignment))

    def _written(self, p: SSAValue) -> bool:
        return self.writes.may_write(underlying_objects(p, self.cfg))

    def _partial(self, p: SSAValue, t: Attribute, alignment: int | None) -> SSAValue | None:
        """This thread's partial sum of the adjoints for the shared memory at `p`, added to the
        shadow once, atomically, when the reverse sweep ends (`add_partials`) instead of by an
        atomic update each time: for adjoints added inside a loop, to memory at an address fixed
        for the whole call (defined in the entry block) that nothing in the function may write
        (so that nothing reads or resets its shadow before the end)."""
        key = (p, t)
        if key in self.partials:
            return self.partials[key][0]
        assert self.pos is not None
        fixed = p.owner is self.cfg.entry if isinstance(p, BlockArgument) else p.owner.parent_block() is self.cfg.entry
        if (self.cfg.loop_of.get(self.pos.primal) is None or not fixed
                or self.writes.may_write(underlying_objects(p, self.cfg))):  # fmt: skip
            return None
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        slot = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()], properties={"elem_type": t})
        slot.res.name_hint = "partial"
        zero = zero_constant(t, negative=True)
        self.rev_entry_ops += [one, slot, zero, ext.StoreOp(zero.results[0], slot.res)]
        self.partials[key] = (slot.res, alignment)
        return slot.res

    def add_partials(self) -> None:
        """At the end of the reverse sweep: each partial sum into its shadow (see `_partial`)."""
        for (_, s), state in self.windows.items():
            self.e.call_function(windows.flush_helper(self.module, s), [state])
        for (p, t), (slot, alignment) in self.partials.items():
            total = self.e.insert(xllvm.LoadOp(slot, t))
            if self.device is not None and self.device.kind(p) == "uniform" and isinstance(t, Float32Type | Float64Type):
                self.e.insert(gpu.CombinedAddOp(self.shadow(p), total))  # (nothing writes it: see _partial)
            else:
                self.e.insert(ad.AccumulateOp(self.shadow(p), total, mode="atomic", alignment=alignment))

    def shared(self, p: SSAValue) -> bool:
        if self.device is not None:
            return not self._private(p)
        return self.team and p not in self.owned and not self._private(p)

    def _private(self, ptr: SSAValue) -> bool:
        """Whether `ptr` points only into memory no other thread of the team reaches: stack
        slots and heap blocks this function made, whose addresses do not escape it."""
        roots = pointer_roots(ptr, self.cfg)
        return bool(roots) and all(
            isinstance(r.owner, xllvm.AllocaOp)
            or isinstance(r.owner, xllvm.CallOp) and allocator_of(r.owner) is not None
            and not allocation_escapes(r, self.cfg, self.functions)
            for r in roots
        )  # fmt: skip

    # ---- values kept from the forward sweep for the reverse sweep ------------------------

    def save(self, key: object, value: SSAValue) -> None:
        """Keep the forward-sweep value `value` for the reverse sweep under `key` (a cache pushed
        where it is defined, popped where the reverse sweep passes the op being augmented)."""
        assert self.fwd_block is not None
        self.caching.register(("saved", key), value, self.fwd_block)

    def stack_slot(self, t: Attribute, key: object = None) -> SSAValue:
        reverse = self.pos is not None and self.split
        if key is not None and (reverse, key) in self.keyed_slots:
            return self.keyed_slots[(reverse, key)]
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        alloca = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()],
                                       properties={"elem_type": t})  # fmt: skip
        if reverse:
            self.rev_entry_ops += [one, alloca]
        else:
            self.fwd_entry_ops += [one, alloca]
        if key is not None:
            self.keyed_slots[(reverse, key)] = alloca.res
        return alloca.res

    def restore(self, key: object) -> SSAValue:
        """The value `save` kept under `key`, at the current point of the reverse sweep."""
        return self.caching.peek(("saved", key))

    def team_memory_here(self) -> SSAValue | None:
        """The team's shared memory, in the function being built at the current point."""
        return self.r_team_memory if self.pos is not None and self.split else self.f_team_memory

    def team_memory(self) -> SSAValue | None:
        return self.team_memory_here()

    def get(self, v: SSAValue) -> SSAValue:
        assert self.pos is not None
        key = (self.pos.block, v)
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self.caching.materialize(v)
        return r

    def shadow(self, p: SSAValue) -> SSAValue:
        assert self.pos is not None
        key = (self.pos.block, ("shadow", p))
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self.caching.materialize_shadow(p)
        return r

    def direct_value(self, v: SSAValue) -> SSAValue:
        """The forward value of `v` where it can be used as it is (split: the parameter)."""
        return self.rparam[v] if self.split else self.values[v]

    def direct_shadow(self, p: SSAValue) -> SSAValue:
        return self.rshadow[p] if self.split else self.fwd_shadow(p)


def inherited_attributes(fn: xllvm.FuncOp) -> list[Attribute]:
    """The primal's target attributes, so that a derivative function is compiled for the same
    CPU."""
    pt = fn.passthrough
    return [a for a in (pt.data if pt is not None else ())
            if isinstance(a, ArrayAttr) or (isinstance(a, StringAttr) and a.data in ("nounwind", "uwtable"))]  # fmt: skip


def _in_registers(v: SSAValue) -> bool:
    """Whether the adjoint of `v` may be an SSA sum (`accumulate`): the result of an op of a
    type `fadd` adds, not passed along an edge.  Its adjoint is read once, where the op is
    reversed, after every contribution was built: uses in its block are reversed before it,
    uses in blocks it dominates before its block.  A block argument's adjoint is read on each
    edge into its block; a value passed along a loop's back edge gets the header argument's
    adjoint where the header is reversed, which is built after the block that defines it."""
    return (isinstance(v, OpResult) and ad.is_float_like(v.type)
            and not any(use.operation.successors for use in v.uses))  # fmt: skip


__all__ = ["GradientBuilder", "SourceLocation", "inherited_attributes"]

