"""`reverse-diff`: generate gradient functions for `autodiff.autodiff` requests.

For `%g = autodiff.autodiff @f(...)` the pass builds `@diffe_f` -- forward sweep and reverse
sweep in one function, as Enzyme's combined mode does -- and replaces the request by a call:

    llvm.func @f(%x: f64) -> f64 { ... }
    %g = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
      ==>
    llvm.func internal @diffe_f(%x: f64, %seed: f64) -> f64 { forward ; reverse }
    %g = llvm.call @diffe_f(%x, %one) : (f64, f64) -> f64

The forward sweep is a copy of the primal function that also computes shadow pointers (GEPs on
shadows, shadow allocas, shadows of pointers in memory) and records, at the edges where control
flow merges, which predecessor was taken.  Each natural loop gets a counter, and its final value
is kept when the loop exits.  The reverse sweep visits the primal blocks backwards: a block's
instructions in reverse order, each through its derivative rule (`xenzyme.rules`), then the
edge back to the predecessor control came from -- chosen by the loop counter at loop headers and
by the recorded choice elsewhere.  Loop counters count down through the reverse loop.

Adjoints of SSA values live in stack slots (`alloca`), created zero, read and cleared where the
value was defined; LLVM's SROA turns them into SSA.  Shadow memory receives adjoints through
`autodiff.accumulate`.

When a rule needs a primal value the pass decides how it reaches the reverse sweep
(`ReverseBuilder.get`): used directly when its definition dominates every return and it is not
recomputed by a loop the use is in; recomputed when it is cheap and its inputs are available
(address arithmetic, casts, loop counters, loads from memory nothing writes); cached otherwise,
on an `autodiff.cache` stack that the forward sweep pushes and the reverse sweep pops.

Split mode builds the two sweeps as two functions, `@augmented_f` and `@reverse_f`, joined by a
tape that holds the state of every cache (calls inside differentiated code use them, and so do
the split-mode requests `autodiff.augment` / `autodiff.reverse`).  The tape is malloc'd by the
augmented function and freed by the reverse one -- or, for a request whose tape lives in the
caller's buffer (`enzyme_allocated`), laid out in that buffer, whose size
`autodiff.augmentsize` gives as a constant and which must be large enough.

Which values are cached is a minimum cut (`xenzyme.analysis.cache_plan`): the gradient is
generated once recording the values the rules ask for, the cut chooses the cheapest set of values
from which all of them can be recomputed (caching `a` and `b` rather than `a*b`, `a+b` and
`sin(a)`; arithmetic, divisions and math functions may be recomputed), and the gradient is
generated again caching exactly those.  A cached value that is the same in every iteration of a
loop is pushed once where the loop exits and popped after the loop's reverse.
`reverse-diff{mincut=false}` caches each needed value that cannot be recomputed, as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    SymbolRefAttr,
    VectorType,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.cache_plan import minimum_cache_cut
from xenzyme.analysis.hints import CustomGradient, Hints
from xenzyme.analysis.activity import ActivityInfo, analyze_activity, carries_derivative, is_pointer_like
from xenzyme.analysis.alias import (
    DEALLOCATORS,
    WriteSummary,
    allocation_escapes,
    allocator_of,
    callee_name,
    pointer_roots,
    store_destinations,
    underlying_objects,
)
from xenzyme.analysis.callees import CalleeIndex, Targets, call_type, is_indirect_call
from xenzyme.analysis.cfg import (
    CFG,
    AffineIV,
    IrreducibleControlFlow,
    Loop,
    TripCount,
    affine_iv,
    defining_block,
    trip_count,
)
from xenzyme.analysis.types import (
    FLOAT,
    INTEGER,
    POINTER,
    TBAA,
    UNKNOWN_KIND,
    copy_view,
    Views,
    integer_access,
    memory_contents,
    size_align,
)
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import PURE_CALL_ATTRS, Emitter, ensure_declaration, zero_constant
from xenzyme.rules.libm import math_base_name
from xenzyme.rules.memory import ADJOINT, COPY, ZERO, CopyPlan, copy_helper
from xenzyme.rules.llvm import FUNCTION_LIKE_ATTR, rule_for

# Ops that are cheap to repeat in the reverse sweep when their operands are available there.
_RECOMPUTABLE = (
    xllvm.AddOp, xllvm.SubOp, xllvm.MulOp, xllvm.AndOp, xllvm.OrOp, xllvm.XOrOp, xllvm.ShlOp,
    xllvm.LShrOp, xllvm.AShrOp, xllvm.TruncOp, xllvm.ZExtOp, xllvm.SExtOp, xllvm.SIToFPOp,
    ext.UIToFPOp, ext.FPToSIOp, ext.FPToUIOp, xllvm.FPExtOp, xllvm.FPTruncOp, xllvm.BitcastOp,
    xllvm.PtrToIntOp, xllvm.IntToPtrOp, ext.AddrSpaceCastOp, ext.ICmpOp, ext.FCmpOp,
    ext.GEPOp, ext.SelectOp, xllvm.ExtractValueOp, xllvm.InsertValueOp, ext.ExtractElementOp,
    xllvm.InsertElementOp, xllvm.ShuffleVectorOp, xllvm.FAddOp, xllvm.FSubOp, xllvm.FMulOp,
    xllvm.FNegOp, ext.FreezeOp,
)  # fmt: skip
_CONSTANT_OPS = (xllvm.ConstantOp, xllvm.ZeroOp, xllvm.UndefOp, ext.PoisonOp, xllvm.AddressOfOp, ext.MetadataOp)
_RECOMPUTE_DEPTH = 12
_LOOP_WEIGHT = 16
"""How many times more often a cache inside a loop is pushed than one outside it (a guess)."""
_SKIPPED_IN_GRADIENT = ("llvm.intr.lifetime.start", "llvm.intr.lifetime.end", "llvm.dbg_record")

# Library functions that neither read nor write memory the derivative depends on.
INACTIVE_FUNCTIONS = {
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "fflush", "abort", "exit",
    "__assert_fail", "clock", "time", "rand", "srand", "malloc_usable_size",
}  # fmt: skip


def location_of(op: Operation, fallback: str | None = None) -> SourceLocation | None:
    loc = op.location
    if isinstance(loc, NameLoc) and isinstance(loc.location, FileLineColLoc):
        f = loc.location
        return SourceLocation(f.filename.data, f.line.data or None, f.column.data or None)
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data or None, loc.column.data or None)
    return SourceLocation(fallback) if fallback else None


def _block_location(block: Block, filename: str | None) -> SourceLocation:
    """The source position of the first instruction in `block` that has one."""
    for op in block.ops:
        loc = location_of(op)
        if loc is not None and loc.line is not None:
            return loc
    return SourceLocation(filename)


def i64_const(e: Emitter, v: int) -> SSAValue:
    return e.insert(xllvm.ConstantOp(IntegerAttr(v, i64), i64))


@dataclass
class _Cache:
    init: ad.CacheInitOp
    """Where the forward sweep pushes."""
    handle: SSAValue
    """Where the reverse sweep peeks and pops: `init`'s result, or in split mode the
    `autodiff.cache.attach` of the reverse function."""
    value: SSAValue | None = None
    """The forward-sweep value pushed right after its definition (None: pushed explicitly)."""
    block: Block | None = None
    """The primal block at whose reverse the value is popped (None: popped explicitly)."""


@dataclass
class _CallPlan:
    """How a call to a differentiated function is split: activities, and the two halves."""

    activities: list[str]
    ret_activity: str
    augmented: str
    reverse: str


@dataclass
class _Position:
    primal: Block
    block: Block


class ReverseBuilder:
    """Builds the gradient of one function for one activity pattern."""

    def __init__(
        self,
        module: ModuleOp,
        fn: xllvm.FuncOp,
        activities: Sequence[str],
        ret_activity: str,
        name: str,
        filename: str | None,
        generator: GradientGenerator | None = None,
        split: bool = False,
        tape_buffer: bool = False,
        mincut: bool = False,
        plan: set[SSAValue] | None = None,
    ):
        self.module = module
        self.generator = generator
        if generator is not None:
            fn = generator.resolved(fn, activities, ret_activity)
        self.split = split
        """Split mode: the forward sweep (`augmented`) and the reverse sweep are two functions,
        joined by a tape that holds every cache; otherwise one function does both."""
        self.tape_buffer = tape_buffer
        """Split mode with the tape in the caller's memory: the augmented function takes it as
        its last argument instead of allocating it, and the reverse function does not free it."""
        self.tape_type: Attribute | None = None
        """Split mode: the tape's layout, once `_lay_out_tape` made it."""
        self.mincut = mincut
        """Choose what to cache by a minimum cut (`cache_plan`) and cache loop-invariant values
        once per loop entry; otherwise each needed value that cannot be recomputed is cached."""
        self.plan = plan
        """The values to cache (the cut); None while recording what the reverse sweep needs."""
        self.requests: list[tuple[SSAValue, Loop | None]] = []
        """Values the rules asked for and where (innermost loop), recorded when planning."""
        self._recomputing = 0
        self.hoisted: dict[Loop, list[tuple[SSAValue, _Cache]]] = {}
        self.exit_edges: dict[Loop, list[Block]] = {}
        self.entry_edges: dict[Loop, list[Block]] = {}
        self.invariant_memo: dict[tuple[SSAValue, Loop], bool] = {}
        self.loop_writes: dict[Loop, WriteSummary] = {}
        self.fn = fn
        self.acts = list(activities)
        self.ret_activity = ret_activity
        self.name = name
        self.filename = filename
        self.fname = fn.sym_name.data
        try:
            self.cfg = CFG(fn.body)
        except IrreducibleControlFlow as exc:
            raise XenzymeError(
                f"cannot differentiate @{self.fname}: irreducible control flow (a loop entered in more than one place)",
                _block_location(exc.block, filename),
                ["loops must have a single entry; restructure the code (e.g. avoid goto into loops)"],
            ) from None
        globals_ = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.GlobalOp)}
        self.globals = globals_
        constant = {n for n, g in globals_.items() if g.constant is not None}
        self.info: ActivityInfo = analyze_activity(self.cfg, list(self.cfg.entry.args), self.acts, ret_activity, constant)
        self.writes = WriteSummary(self.cfg.rpo, self.cfg)
        self.views = Views(self.cfg, {n: g.global_type for n, g in globals_.items()})
        self.fwd: dict[SSAValue, SSAValue] = {}
        self.fshadow: dict[SSAValue, SSAValue] = {}
        self.F: dict[Block, Block] = {}
        self.R: dict[Block, Block] = {}
        self.iv: dict[Loop, SSAValue] = {}
        self.iv_next: dict[tuple[Block, Loop], SSAValue] = {}
        self.token: dict[Block, SSAValue] = {}
        self.slots: dict[SSAValue, SSAValue] = {}
        self.riv_slots: dict[Loop, SSAValue] = {}
        self.caches: dict[object, _Cache] = {}
        self.limit_caches: dict[Loop, _Cache] = {}
        self.all_caches: list[_Cache] = []
        self.rparam: dict[SSAValue, SSAValue] = {}
        self.rshadow: dict[SSAValue, SSAValue] = {}
        self.memo: dict[tuple[Block, object], SSAValue] = {}
        self.recomputable_memo: dict[tuple[SSAValue, Loop | None], bool] = {}
        self.fwd_entry_ops: list[Operation] = []
        self.rev_entry_ops: list[Operation] = []
        self.call_plans: dict[Operation, _CallPlan] = {}
        self.trapped_calls: set[Operation] = set()
        self.ret_blocks = [b for b in self.cfg.rpo if isinstance(b.last_op, xllvm.ReturnOp)]
        self.dominates_returns = {
            b for b in self.cfg.rpo if all(self.cfg.dominates(b, r) for r in self.ret_blocks)
        }
        self.pos: _Position | None = None
        self.exit_blocks: list[Block] = []
        self._reverse_blocks: list[Block] = []
        self.e: Emitter = None  # type: ignore[assignment]
        self.shadow_globals: dict[str, str] = {}
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
        """The module's functions by name (callee attributes: what a call may keep)."""

    # ---- errors ---------------------------------------------------------------------------

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        text = str(op).strip().splitlines()[0] if op is not None else ""
        raise XenzymeError(
            f"cannot differentiate @{self.fname}: {message}",
            location_of(op, self.filename) if op is not None else SourceLocation(self.filename),
            [f"in: {text[:200]}", *notes] if text else list(notes),
        )

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
        """The gradient function (combined mode), or the augmented and reverse functions."""
        for op in self.info.unshadowed_stores:
            self._fail_unshadowed_store(op)
        for op in self.info.reinterpreted:
            self.fail(
                op,
                "the bits of a floating-point value with a derivative are changed as an integer "
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
        buffer = [ext.LLVMPointerType()] if self.tape_buffer else []
        self.g_entry = entry = Block(arg_types=primal + buffer if self.split else primal + seed)
        self.active_args = self._map_parameters(entry, self.fwd, self.fshadow)
        self.seed = None if self.split else (entry.args[-1] if seed else None)
        if self.split:
            self.r_entry = Block(arg_types=[*primal, *seed, ext.LLVMPointerType()])
            self._map_parameters(self.r_entry, self.rparam, self.rshadow)
            self.seed = self.r_entry.args[-2] if seed else None
            self.tape_in = self.r_entry.args[-1]
            self.tape_in.name_hint = "tape"
            self._allocate_tape()
        if self.seed is not None:
            self.seed.name_hint = "differet"

        self._forward()
        self._reverse()
        if self.mincut and self.plan is None:
            return []  # planning run: only `requests` is wanted
        self._finish()

        results = [a.type for a in self.active_args]
        rtype = ad.derivative_result_type(results) or ext.LLVMVoidType()
        forward_blocks = [entry] + [self.F[b] for b in self.cfg.rpo[1:]] + self.exit_blocks
        attrs = ArrayAttr(self._inherited_attributes())
        if not self.split:
            gfn = xllvm.FuncOp(
                self.name, ext.LLVMFunctionType(entry.arg_types, rtype),
                linkage=xllvm.LinkageAttr("internal"), body=Region(forward_blocks + self._reverse_blocks),
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
            linkage=xllvm.LinkageAttr("internal"), body=Region([self.r_entry, *self._reverse_blocks]),
        )  # fmt: skip
        aug.properties["passthrough"] = attrs
        rev.properties["passthrough"] = attrs
        return [aug, rev]

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
        return ext.LLVMStructType.from_type_list(self._augmented_fields())

    def _augmented_fields(self) -> list[Attribute]:
        return augmented_fields(self.fn.function_type, self.ret_activity)

    def _allocate_tape(self) -> None:
        """The tape: one heap block holding the state of every cache (split mode).  Its size is
        known once all caches are; `_finish` fills it in."""
        if self.tape_buffer:
            self.tape_ptr = self.g_entry.args[-1]
            self.tape_ptr.name_hint = "tape"
            return
        self.tape_size = xllvm.ConstantOp(IntegerAttr(0, i64), i64)
        self.tape = _call("malloc", [self.tape_size.result], ext.LLVMPointerType())
        self.tape.results[0].name_hint = "tape"
        self.tape_ptr: SSAValue = self.tape.results[0]
        ensure_declaration(self.module, "malloc", ext.LLVMFunctionType([i64], ext.LLVMPointerType()))
        ensure_declaration(self.module, "free", ext.LLVMFunctionType([ext.LLVMPointerType()], ext.LLVMVoidType()))
        self.fwd_entry_ops += [self.tape_size, self.tape]

    def _inherited_attributes(self) -> list[Attribute]:
        """The primal's target attributes, so that the gradient is compiled for the same CPU."""
        out: list[Attribute] = []
        pt = self.fn.passthrough
        for a in pt.data if pt is not None else ():
            if isinstance(a, ArrayAttr) or (isinstance(a, StringAttr) and a.data in ("nounwind", "uwtable")):
                out.append(a)
        return out

    # ---- forward sweep --------------------------------------------------------------------

    def _needs_token(self, b: Block) -> bool:
        preds = self.cfg.preds[b]
        if len(preds) <= 1:
            return False
        lp = self.cfg.loop_of.get(b)
        if lp is not None and lp.header is b and len(lp.entering) == 1 and len(lp.latches) == 1:
            return False
        return True

    def _token_type(self, b: Block) -> Attribute:
        return i8 if len(self.cfg.preds[b]) < 128 else i32

    def _forward(self) -> None:
        cfg = self.cfg
        self.F[cfg.entry] = self.g_entry
        for b in cfg.rpo[1:]:
            fb = Block(arg_types=[a.type for a in b.args])
            for a, fa in zip(b.args, fb.args, strict=True):
                self.fwd[a] = fa
                if a.name_hint:
                    fa.name_hint = a.name_hint
            for a in b.args:
                if a in self.info.shadowed:
                    self.fshadow[a] = fb.insert_arg(a.type, len(fb.args))
            if self._needs_token(b):
                self.token[b] = fb.insert_arg(self._token_type(b), len(fb.args))
            lp = cfg.loop_of.get(b)
            if lp is not None and lp.header is b:
                self.iv[lp] = fb.insert_arg(i64, len(fb.args))
                self.iv[lp].name_hint = "iv"
            self.F[b] = fb
        for b in cfg.rpo:
            fb = self.F[b]
            builder = Builder(InsertPoint.at_end(fb))
            self.e = Emitter(builder, self.module)
            for op in list(b.ops)[:-1]:
                self._forward_op(op, builder)
        for b in cfg.rpo:
            self._forward_terminator(b)
        for b, tok in self.token.items():
            self._register_cache(("token", b), tok, b)

    def _forward_op(self, op: Operation, builder: Builder) -> None:
        if op.name in _SKIPPED_IN_GRADIENT:
            return
        if isinstance(op, ad.AutodiffOp):
            self.fail(op, "nested derivative requests are not supported in reverse mode yet")
        if self._unresolved_with_derivatives(op):
            self._forward_unresolved_call(op)
            return
        if self._differentiated_call(op):
            self._forward_call(op)
            return
        new = _clone_defined(op, self.fwd)
        new.attributes.pop(FUNCTION_LIKE_ATTR, None)
        if isinstance(new, xllvm.CallOp) and new.callee is not None and math_base_name(new.callee.string_value()):
            new.attributes["fn_attrs"] = PURE_CALL_ATTRS  # errno aside, math is pure: unused calls go
        builder.insert(new)
        self._forward_shadow(op, new, builder)

    def _callee(self, op: Operation) -> xllvm.FuncOp | None:
        """The function a direct call calls: defined here, or given a custom gradient."""
        if not isinstance(op, xllvm.CallOp) or op.callee is None or self.generator is None:
            return None
        name = op.callee.string_value()
        if name in self.hints.gradients:
            return self.generator.function(name)
        return self.generator.defined_function(name)

    @property
    def hints(self) -> Hints:
        return self.generator.hints if self.generator is not None else Hints()

    def _inactive_call(self, op: Operation) -> bool:
        name = callee_name(op)
        return name is not None and (name in INACTIVE_FUNCTIONS or name in self.hints.inactive)

    def _differentiated_call(self, op: Operation) -> bool:
        """A call to a function of this module that derivatives flow through: it is replaced
        by its augmented forward function here and its reverse function in the reverse sweep."""
        fn = self._callee(op)
        if fn is None or rule_for(op) is not None or self._inactive_call(op):
            return False
        info = self.info
        return any(v in info.varied or v in info.shadowed for v in (*op.operands, *op.results))

    def _call_plan(self, op: xllvm.CallOp, fn: xllvm.FuncOp) -> _CallPlan:
        """The activities of a call's arguments and result.  An aggregate of floats passed or
        returned by value ({double, double} in registers) is `active` like a float: the
        reverse function returns its adjoint, or takes the result's as an aggregate."""
        info = self.info
        acts: list[str] = []
        for o in op.args:
            if ad.is_float_like(o.type):
                acts.append("active" if info.is_active(o) else "const")
            elif is_pointer_like(o.type) and not isinstance(o.type, VectorType):
                acts.append("dup" if o in info.shadowed else "const")
            elif (o in info.shadowed or o in info.varied) and _holds_pointer(o.type):
                self.fail(op, f"@{fn.sym_name.data} takes by value an aggregate that holds a pointer and carries derivatives, "
                              "which is not supported yet",
                          ["pass it through a pointer"])  # fmt: skip
            elif carries_derivative(o.type):
                acts.append("active" if info.is_active(o) else "const")
            else:
                acts.append("const")
        ret = "none"
        if op.returned is not None:
            r = op.returned
            if ad.is_float_like(r.type):
                ret = "active" if info.is_active(r) else "const"
            elif is_pointer_like(r.type) and r in info.shadowed:
                ret = "dup"
            elif (r in info.shadowed or r in info.varied) and _holds_pointer(r.type):
                self.fail(op, f"@{fn.sym_name.data} returns an aggregate that holds a pointer and carries derivatives, "
                              "which is not supported yet",
                          ["return it through a pointer argument"])  # fmt: skip
            elif carries_derivative(r.type):
                ret = "active" if info.is_active(r) else "const"
            else:
                ret = "const"
        assert self.generator is not None
        custom = self.hints.gradients.get(fn.sym_name.data)
        if custom is not None:
            return _CallPlan(acts, ret, *self._custom_augment(op, fn, acts, ret, custom))
        aug, rev = self.generator.split_functions(fn, acts, ret)
        return _CallPlan(acts, ret, aug, rev)

    def _custom_augment(self, op: xllvm.CallOp, fn: xllvm.FuncOp, acts: list[str], ret: str,
                        custom: CustomGradient) -> tuple[str, str]:
        """Check a call against the user's custom gradient in Enzyme's C convention and name its
        two halves in this pass's form.  The user's functions take every argument, each pointer
        followed by its shadow; the augmented one returns the tape (void function) or the struct
        {tape, result}; the gradient takes, after those, the result's adjoint (a floating-point
        result) and the tape, and returns the derivatives of the floating-point arguments: one
        value, or a struct of them in order."""
        name = fn.sym_name.data
        where = f"the custom gradient of @{name} ({custom.declared_in})"
        out = fn.function_type.output
        if not (isinstance(out, ext.LLVMVoidType) or _scalar(out)):
            self.fail(op, f"{where}: @{name} returns {out}; custom gradients are supported for functions returning "
                          "void or a scalar (double, float, an integer)",
                      ["return the result through a pointer argument"])  # fmt: skip
        for i, (o, a) in enumerate(zip(op.args, acts, strict=True)):
            if is_pointer_like(o.type) and a != "dup":
                self.fail(op, f"{where} takes a shadow for every pointer argument, but argument {i} has none here "
                              "(nothing active flows through it)",
                          [f"pass the memory of argument {i} with a shadow (enzyme_dup) where the gradient is requested"])  # fmt: skip
        n = len(op.args) + acts.count("dup")
        shape = "each argument, pointers followed by their shadows"
        returns_float = ad.is_float_like(out)
        aug = self._custom_function(op, where, custom.augment, n, f"({shape})")
        ptr = ext.LLVMPointerType()
        want_aug = ptr if isinstance(out, ext.LLVMVoidType) else ext.LLVMStructType.from_type_list([ptr, out])
        if aug.function_type.output != want_aug:
            self.fail(op, f"{where}: @{custom.augment} returns {aug.function_type.output}; it must return "
                          + ("the tape, a pointer (void *)" if want_aug == ptr else
                             f"a struct {{void *tape; {_c_type(out)} result;}} ({want_aug})"))  # fmt: skip
        grad = self.generator.function(custom.gradient)  # type: ignore[union-attr]
        sret = 1 if grad is not None and _sret_type(grad) is not None else 0
        tail = (", then the result's adjoint" if returns_float else "") + ", then the tape"
        grad = self._custom_function(op, where, custom.gradient, n + returns_float + 1 + sret, f"({shape}{tail})")
        floats = [o.type for o in op.args if ad.is_float_like(o.type)]
        if custom_derivative_fields(grad) != floats:
            kinds = ", ".join(_c_type(t) for t in floats)
            what = ("return void: it has no floating-point argument to return a derivative for" if not floats else
                    f"return the derivative of @{name}'s floating-point argument (a {kinds})" if len(floats) == 1 else
                    f"return the derivatives of @{name}'s floating-point arguments, a struct of {len(floats)} ({kinds}) in order")  # fmt: skip
            self.fail(op, f"{where}: @{custom.gradient} must {what}",
                      [f"it returns {grad.function_type.output}" + (" through its sret argument" if sret else "")])  # fmt: skip
        gen = self.generator
        assert gen is not None
        ftype = fn.function_type
        return gen.custom_augment_wrapper(custom, ftype), gen.custom_gradient_wrapper(custom, ftype, acts, ret)

    def _custom_function(self, op: Operation, where: str, fname: str, arity: int, shape: str) -> xllvm.FuncOp:
        """One of the user's halves of a custom gradient, with the number of parameters it must take."""
        f = self.generator.function(fname) if self.generator is not None else None
        if f is None or len(f.function_type.inputs.data) != arity:
            got = "is not a function of this module" if f is None else f"takes {len(f.function_type.inputs.data)} arguments"
            self.fail(op, f"{where}: @{fname} {got}; it must take {arity} {shape}")
        return f

    def _forward_call(self, op: Operation) -> None:
        assert isinstance(op, xllvm.CallOp)
        fn = self._callee(op)
        assert fn is not None
        try:
            plan = self.call_plans[op] = self._call_plan(op, fn)
        except XenzymeError as exc:
            if self.generator is None or op not in self.generator.pointer_calls:
                raise
            loc = location_of(op, self.filename)
            exc.notes = [*exc.notes, f"@{fn.sym_name.data} is differentiated as a function that the function pointer "
                                     f"called in @{self.fname}" + (f" ({loc})" if loc else "") + " may point to"]  # fmt: skip
            raise
        e = self.e
        args: list[SSAValue] = []
        for o, a in zip(op.args, plan.activities, strict=True):
            args.append(self.fwd[o])
            if ad.has_shadow(a):
                args.append(self.fwd_shadow(o))
        fields = augmented_fields(fn.function_type, plan.ret_activity)
        call = e.insert(_call(plan.augmented, args, ext.LLVMStructType.from_type_list(fields)))
        call.owner.location = op.location  # type: ignore[union-attr]
        k = 0
        if op.returned is not None:
            self.fwd[op.returned] = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), call, fields[0]))
            k = 1
            if plan.ret_activity == "dup":
                self.fshadow[op.returned] = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), call, fields[1]))
                k = 2
        tape = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call, fields[k]))
        tape.name_hint = f"tape_{fn.sym_name.data}"
        block = op.parent_block()
        assert block is not None
        self._register_cache(("tape", op), tape, block)

    def _reverse_call(self, op: Operation) -> None:
        """The reverse of a differentiated call: its reverse function, given the tape."""
        assert isinstance(op, xllvm.CallOp)
        plan = self.call_plans[op]
        e = self.e
        args: list[SSAValue] = []
        actives: list[SSAValue] = []
        for o, a in zip(op.args, plan.activities, strict=True):
            args.append(self.get(o))
            if ad.has_shadow(a):
                args.append(self.shadow(o))
            if a == "active":
                actives.append(o)
        if plan.ret_activity == "active":
            r = op.returned
            assert r is not None
            args.append(self.adjoint(r) or e.zero(r.type))
        args.append(self._peek(("tape", op)))
        rtype = ad.derivative_result_type([o.type for o in actives])
        res = e.insert(_call(plan.reverse, args, rtype))
        if rtype is not None:
            res.owner.location = op.location  # type: ignore[union-attr]
        if len(actives) == 1:
            self.accumulate(actives[0], res)
        else:
            for i, o in enumerate(actives):
                self.accumulate(o, e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), res, o.type)))
        if plan.ret_activity == "dup":
            self._free_returned_shadow(op)

    def _free_returned_shadow(self, op: xllvm.CallOp) -> None:
        """Fresh memory a callee returns (`noalias`) and this function frees without letting it
        escape: its shadow, made by the callee, ends after the callee's reverse."""
        fn = self._callee(op)
        r = op.returned
        res_attrs = fn.res_attrs.data if fn is not None and fn.res_attrs is not None else ()
        if r is None or not any("llvm.noalias" in d.data for d in res_attrs if isinstance(d, DictionaryAttr)):
            return
        frees = {callee_name(o) for b in self.cfg.rpo for o in b.ops
                 if callee_name(o) in DEALLOCATORS and r in pointer_roots(o.operands[0], self.cfg)}  # fmt: skip
        if len(frees) != 1 or allocation_escapes(r, self.cfg, self.functions):
            return
        (name,) = frees
        if name not in ("free", "_ZdlPv", "_ZdaPv"):
            return  # (sized and aligned deletes need arguments the reverse sweep lacks)
        self.e.insert(_call(name, [self.shadow(r)], None))

    def _unresolved_with_derivatives(self, op: Operation) -> bool:
        """An indirect call left for pointers to none of its guessed candidates, which
        derivatives would flow through."""
        if self.generator is None or op not in self.generator.unresolved_calls:
            return False
        info = self.info
        return any(v in info.varied or v in info.shadowed for v in (*op.operands[1:], *op.results))

    def _forward_unresolved_call(self, op: Operation) -> None:
        """Stop the program with a message: the pointer leads to a function whose derivative
        was not generated, so going on would compute a wrong derivative."""
        e = self.e
        loc = location_of(op, self.filename)
        where = f"{loc}: " if loc is not None else ""
        text = (f"xenzyme: {where}in the derivative of @{self.fname}, a function pointer leads to a function "
                "that is not one of the candidates differentiated for this indirect call; stopping\n")  # fmt: skip
        msg, size = self.generator.message_global(text)  # type: ignore[union-attr]
        ptr = ext.LLVMPointerType()
        ensure_declaration(self.module, "write", ext.LLVMFunctionType([i32, ptr, i64], i64))
        ensure_declaration(self.module, "abort", ext.LLVMFunctionType([], ext.LLVMVoidType()))
        stderr = e.insert(xllvm.ConstantOp(IntegerAttr(2, i32), i32))
        e.insert(_call("write", [stderr, e.insert(xllvm.AddressOfOp(msg, ptr)), i64_const(e, size)], i64))
        e.insert(_call("abort", [], None))
        for r in op.results:
            self.fwd[r] = e.insert(xllvm.UndefOp(r.type))
            if r in self.info.shadowed:
                self.fshadow[r] = self.fwd[r]
        self.trapped_calls.add(op)

    def _forward_shadow(self, op: Operation, new: Operation, builder: Builder) -> None:
        """Shadow pointers for pointer results that need them, and shadow writes of pointers."""
        info = self.info
        e = self.e
        if isinstance(op, ext.StoreOp) and op.ptr in info.shadowed and is_pointer_like(op.value.type):
            e.insert(ext.StoreOp(self.fwd_shadow(op.value), self.fwd_shadow(op.ptr), alignment=_align(op)))
            return
        if isinstance(op, ext.MemcpyOp | ext.MemmoveOp) and op.args[0] in info.shadowed:
            self._forward_copy_shadows(op)
            return
        for r in op.results:
            if r not in info.shadowed:
                continue
            self.fshadow[r] = self._shadow_of_result(op, r, new)

    def _shadow_of_result(self, op: Operation, r: SSAValue, new: Operation) -> SSAValue:
        e = self.e
        if isinstance(op, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp):
            ops = [self.fwd_shadow(op.operands[0]), *[self.fwd[o] for o in op.operands[1:]]]
            s = e.insert(type(op).create(operands=ops, result_types=[r.type], properties=dict(op.properties)))
        elif isinstance(op, ext.SelectOp):
            s = e.insert(ext.SelectOp(self.fwd[op.cond], self.fwd_shadow(op.lhs), self.fwd_shadow(op.rhs)))
        elif isinstance(op, xllvm.LoadOp):
            s = e.insert(xllvm.LoadOp(self.fwd_shadow(op.ptr), r.type, alignment=_align(op)))
        elif isinstance(op, xllvm.AllocaOp):
            if self.cfg.loop_of.get(op.parent_block()) is not None:  # type: ignore[arg-type]
                self.fail(op, "an alloca inside a loop holds active data; hoist it out of the loop")
            if self.split:
                # The reverse function needs the shadow after this frame is gone: heap memory,
                # freed where the reverse sweep reaches the alloca.
                ensure_declaration(self.module, "calloc", ext.LLVMFunctionType([i64, i64], ext.LLVMPointerType()))
                count = self._i64(self.fwd[op.size])
                s = e.insert(_call("calloc", [count, self._sizeof(op.elem_type, e)], ext.LLVMPointerType()))
                if r.name_hint:
                    s.name_hint = f"d_{r.name_hint}"
                return s
            s = e.insert(xllvm.AllocaOp.create(
                operands=[self.fwd[op.size]], result_types=[r.type], properties=dict(op.properties)
            ))  # fmt: skip
            self._zero_memory(s, op)
        elif isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() not in self.globals:
            # A function's address kept beside active data: its shadow is the function itself
            # (an indirect call with active arguments is reported where it happens).
            return self.fwd[r]
        elif isinstance(op, xllvm.AddressOfOp):
            s = e.insert(xllvm.AddressOfOp(self._shadow_global(op), r.type))  # type: ignore[arg-type]
        elif isinstance(op, xllvm.CallOp) and allocator_of(op) is not None:
            s = self._shadow_allocation(op)
        elif isinstance(op, xllvm.CallOp) and (name := callee_name(op)) is not None:
            self.fail(op, f"@{name} returns a pointer to memory that receives derivatives, and no derivative "
                          f"of @{name} is known to give that memory a shadow",
                      [f"define @{name} in this module, or give it a custom derivative "
                       f"(__enzyme_register_gradient_{name})"])  # fmt: skip
        else:
            self.fail(
                op,
                "this instruction produces a pointer to active memory, which is not supported here",
                ["calls returning pointers and pointer arithmetic through integers are not supported yet"],
            )
        if r.name_hint:
            s.name_hint = f"d_{r.name_hint}"
        return s

    def _shadow_allocation(self, op: xllvm.CallOp) -> SSAValue:
        """Zeroed memory of the same size from the same allocator (malloc's from calloc)."""
        e = self.e
        name = callee_name(op)
        alloc = allocator_of(op)
        assert name is not None and alloc is not None
        args = [self.fwd[o] for o in op.args]
        if name == "malloc":
            ensure_declaration(self.module, "calloc", ext.LLVMFunctionType([i64, i64], ext.LLVMPointerType()))
            return e.insert(_call("calloc", [i64_const(e, 1), self._i64(args[0])], ext.LLVMPointerType()))
        s = e.insert(_call(name, args, ext.LLVMPointerType()))
        if name != "calloc":
            size = self._i64(args[alloc.size_args[0]])
            for i in alloc.size_args[1:]:
                size = e.insert(xllvm.MulOp(size, self._i64(args[i])))  # type: ignore[arg-type]
            e.insert(ext.MemsetOp([s, e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8)), size]))
        return s

    def _reverse_allocation(self, op: xllvm.CallOp) -> None:
        """The shadow of a heap object ends where the reverse sweep reaches its allocation,
        unless its address may outlive the function (then the shadow lives on, like the
        primal memory, and whoever frees that does not free the shadow)."""
        if allocation_escapes(op.results[0], self.cfg, self.functions):
            return
        alloc = allocator_of(op)
        assert alloc is not None
        args = [self.shadow(op.results[0]), *[self.get(op.args[i]) for i in alloc.dealloc_args]]
        ensure_declaration(self.module, alloc.deallocator, ext.LLVMFunctionType([a.type for a in args], ext.LLVMVoidType()))
        self.e.insert(_call(alloc.deallocator, args, None))

    def _zero_memory(self, ptr: SSAValue, alloca: xllvm.AllocaOp) -> None:
        e = self.e
        t = alloca.elem_type
        size = self._sizeof(t, e)
        count = self.fwd[alloca.size]
        if count.type != i64:
            count = e.insert(xllvm.ZExtOp(count, i64))  # type: ignore[arg-type]
        nbytes = e.insert(xllvm.MulOp(size, count))  # type: ignore[arg-type]
        zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
        e.insert(ext.MemsetOp([ptr, zero8, nbytes]))

    def _sizeof(self, t: Attribute, e: Emitter) -> SSAValue:
        """sizeof(t) in bytes, as `ptrtoint (getelementptr t, ptr null, 1)`."""
        null = e.insert(xllvm.ZeroOp.create(result_types=[ext.LLVMPointerType()]))
        one = ext.GEPOp(null, [1], t)
        e.insert(one)
        return e.insert(xllvm.PtrToIntOp(one.result, i64))

    def _shadow_global(self, op: xllvm.AddressOfOp) -> str:
        name = op.global_name.string_value()
        if name in self.shadow_globals:
            return self.shadow_globals[name]
        g = self.globals.get(name)
        if g is None:
            self.fail(op, f"@{name} is not a global variable of this module")
        shadow_name = f"{name}.shadow"
        if shadow_name not in self.globals:
            sg = xllvm.GlobalOp(g.global_type, shadow_name, "internal", alignment=g.alignment.value.data if g.alignment else None)
            zero = xllvm.ZeroOp.create(result_types=[g.global_type]) if not _scalar(g.global_type) else None
            if zero is not None:
                sg.body.add_block(Block([zero, xllvm.ReturnOp(zero.results[0])]))
            else:
                from xdsl.dialects.builtin import FloatAttr

                sg.properties["value"] = FloatAttr(0.0, g.global_type) if not isinstance(g.global_type, IntegerType) else IntegerAttr(0, g.global_type)
            self.module.body.block.insert_op_after(sg, g)
            self.globals[shadow_name] = sg
        self.shadow_globals[name] = shadow_name
        return shadow_name

    def fwd_shadow(self, v: SSAValue) -> SSAValue:
        """The forward-sweep shadow of primal pointer `v` (inactive pointers are their own)."""
        s = self.fshadow.get(v)
        if s is not None:
            return s
        return self.fwd[v]

    def _forward_terminator(self, b: Block) -> None:
        term = b.last_op
        assert term is not None
        fb = self.F[b]
        builder = Builder(InsertPoint.at_end(fb))
        self.e = Emitter(builder, self.module)
        if isinstance(term, xllvm.ReturnOp):
            if self.split:
                self._augmented_return(b, term, builder)
                return
            # Returning from inside loops: the reverse sweep starts in their current iteration.
            for lp in self.cfg.loops_of(b):
                builder.insert(ext.StoreOp(self.iv[lp], self._riv_slot(lp)))
            builder.insert(xllvm.BrOp(self._rblock(b)))
            return
        if isinstance(term, xllvm.UnreachableOp):
            builder.insert(xllvm.UnreachableOp())
            return
        if not isinstance(term, xllvm.BrOp | xllvm.CondBrOp | ext.SwitchOp):
            self.fail(term, f"'{term.name}' is not supported in differentiated code",
                      ["exception handling (invoke/landingpad) cannot be differentiated"])  # fmt: skip
        edges = []
        for dest, args in ext.successor_operands(term):
            edges.append(self._forward_edge(b, dest, args))
        if isinstance(term, xllvm.BrOp):
            builder.insert(xllvm.BrOp(edges[0][0], *edges[0][1]))
        elif isinstance(term, xllvm.CondBrOp):
            (td, ta), (fd, fa) = edges
            builder.insert(xllvm.CondBrOp(self.fwd[term.cond], td, ta, fd, fa))
        else:
            assert isinstance(term, ext.SwitchOp)
            cases = [(v, d, a) for (v, _, _), (d, a) in zip(term.cases(), edges[1:], strict=True)]
            builder.insert(ext.SwitchOp(self.fwd[term.value], edges[0][0], edges[0][1], cases))

    def _forward_edge(self, b: Block, dest: Block, args: Sequence[SSAValue]) -> tuple[Block, list[SSAValue]]:
        cfg = self.cfg
        e = self.e
        values = [self.fwd[a] for a in args]
        values += [self.fwd_shadow(a) for a, da in zip(args, dest.args, strict=True) if da in self.info.shadowed]
        if dest in self.token:
            k = cfg.preds[dest].index(b)
            values.append(e.insert(xllvm.ConstantOp(IntegerAttr(k, self._token_type(dest)), self._token_type(dest))))
        lp = cfg.loop_of.get(dest)
        if lp is not None and lp.header is dest:
            if b in lp.blocks:
                values.append(self._iv_next(b, lp))
            else:
                values.append(i64_const(e, 0))
        exited = cfg.exited_loops(b, dest)
        if not exited:
            return self.F[dest], values
        # Leaving loops: remember how many iterations each ran (its counter's last value).
        edge = Block()
        self.exit_blocks.append(edge)
        eb = Builder(InsertPoint.at_end(edge))
        for lp in exited:
            self.exit_edges.setdefault(lp, []).append(edge)
            eb.insert(ad.CachePushOp(self._limit_cache(lp).init.res, self.iv[lp]))
        eb.insert(xllvm.BrOp(self.F[dest], *values))
        return edge, []

    def _iv_next(self, b: Block, lp: Loop) -> SSAValue:
        key = (b, lp)
        if key not in self.iv_next:
            e = self.e
            one = i64_const(e, 1)
            self.iv_next[key] = e.insert(xllvm.AddOp(self.iv[lp], one))  # type: ignore[arg-type]
        return self.iv_next[key]

    def _limit_cache(self, lp: Loop) -> _Cache:
        """Last iteration count of `lp`: pushed where the loop exits, popped where its reverse
        begins."""
        if lp not in self.limit_caches:
            self.limit_caches[lp] = self._new_cache(i64, single=lp.parent is None)
        return self.limit_caches[lp]

    # ---- reverse sweep ----------------------------------------------------------------------

    def _rblock(self, b: Block) -> Block:
        if b not in self.R:
            self.R[b] = Block()
        return self.R[b]

    def _augmented_return(self, b: Block, term: xllvm.ReturnOp, builder: Builder) -> None:
        """Split mode: return {result, its shadow, tape}, recording which return this was and
        the loop counters there, which the reverse function starts from."""
        e = self.e
        if len(self.ret_blocks) > 1:
            k = self.ret_blocks.index(b)
            token = e.insert(xllvm.ConstantOp(IntegerAttr(k, i32), i32))
            e.insert(ad.CachePushOp(self._return_cache(("return",), i32).init.res, token))
        for lp in self.cfg.loops_of(b):
            e.insert(ad.CachePushOp(self._return_cache(("return-iv", b, lp), i64).init.res, self.iv[lp]))
        fields = self._augmented_fields()
        values: list[SSAValue] = []
        if term.arg is not None:
            values.append(self.fwd[term.arg])
            if self.ret_activity == "dup":
                values.append(self.fwd_shadow(term.arg))
        values.append(self.tape_ptr)
        st = ext.LLVMStructType.from_type_list(fields)
        acc = e.insert(xllvm.UndefOp(st))
        for i, v in enumerate(values):
            acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, v))
        builder.insert(xllvm.ReturnOp(acc))

    def _return_cache(self, key: object, element: Attribute) -> _Cache:
        if key not in self.caches:
            self.caches[key] = self._new_cache(element, single=True)
        return self.caches[key]

    def _reverse(self) -> None:
        for b in reversed(self.cfg.rpo):
            rb = self._rblock(b)
            self._reverse_blocks.append(rb)
            self._reverse_block(b, rb)
        if self.split:
            self._reverse_entry()

    def _reverse_entry(self) -> None:
        """Split mode: start the reverse sweep at the return the forward sweep took, with the
        loop counters it had there."""
        targets: list[Block] = []
        for b in self.ret_blocks:
            start = Block()
            self._reverse_blocks.append(start)
            self._at(b, start)
            for lp in self.cfg.loops_of(b):
                riv = self.e.insert(ad.CachePeekOp(self._return_cache(("return-iv", b, lp), i64).handle))
                self.e.insert(ext.StoreOp(riv, self._riv_slot(lp)))
            self.e.insert(xllvm.BrOp(self._rblock(b)))
            targets.append(start)
        builder = Builder(InsertPoint.at_end(self.r_entry))
        if not targets:
            builder.insert(xllvm.UnreachableOp())
        elif len(targets) == 1:
            builder.insert(xllvm.BrOp(targets[0]))
        else:
            token = builder.insert(ad.CachePeekOp(self._return_cache(("return",), i32).handle)).results[0]
            builder.insert(ext.SwitchOp(token, targets[0], [], [(k, t, []) for k, t in enumerate(targets) if k]))

    def _at(self, primal: Block, block: Block) -> None:
        """Build the reverse of `primal`'s code at the end of `block`."""
        self.pos = _Position(primal, block)
        self.e = Emitter(Builder(InsertPoint.at_end(block)), self.module)

    def _reverse_block(self, b: Block, rb: Block) -> None:
        self._at(b, rb)
        term = b.last_op
        if isinstance(term, xllvm.ReturnOp) and term.arg is not None and self.seed is not None:
            self.accumulate(term.arg, self.seed)
        for op in reversed(list(b.ops)[:-1]):
            self._reverse_op(op)
        if b is self.cfg.entry:
            self._return_gradient()
            return
        d_args = [self.adjoint(a) for a in b.args]
        preds = self.cfg.preds[b]
        edges = {p: Block() for p in preds}
        e = self.e
        lp = self.cfg.loop_of.get(b)
        if len(preds) == 1:
            e.insert(xllvm.BrOp(edges[preds[0]]))
        elif b not in self.token:
            assert lp is not None and lp.header is b
            riv = e.insert(xllvm.LoadOp(self._riv_slot(lp), i64))
            more = e.insert(ext.ICmpOp(riv, i64_const(e, 0), "ne"))
            e.insert(xllvm.CondBrOp(more, edges[lp.latches[0]], [], edges[lp.entering[0]], []))
        else:
            tok = self._peek(("token", b))
            cases = [(k, edges[p], []) for k, p in enumerate(preds) if k > 0]
            e.insert(ext.SwitchOp(tok, edges[preds[0]], [], cases))
        for p, edge in edges.items():
            self._edge_block(b, p, edge, d_args)

    def _edge_block(self, b: Block, p: Block, edge: Block, d_args: list[SSAValue | None]) -> None:
        """Reverse of the edge p -> b: loop counters, then the phi adjoints flow to p's values."""
        self._reverse_blocks.append(edge)
        self._at(p, edge)
        e = self.e
        cfg = self.cfg
        if cfg.is_back_edge(p, b):
            lp = cfg.loop_of[b]
            assert lp is not None
            while lp.header is not b:
                lp = lp.parent  # type: ignore[assignment]
            slot = self._riv_slot(lp)
            riv = e.insert(xllvm.LoadOp(slot, i64))
            e.insert(ext.StoreOp(e.insert(xllvm.SubOp(riv, i64_const(e, 1))), slot))  # type: ignore[arg-type]
        if not cfg.is_back_edge(p, b) and (entered := cfg.loop_of.get(b)) is not None and entered.header is b:
            self.entry_edges.setdefault(entered, []).append(edge)
        for lp in cfg.exited_loops(p, b):
            cache = self._limit_cache(lp).handle
            limit = e.insert(ad.CachePeekOp(cache))
            e.insert(ad.CachePopOp(cache))
            e.insert(ext.StoreOp(limit, self._riv_slot(lp)))
        incoming = cfg.incoming(b, p)
        for v, d in zip(incoming, d_args, strict=True):
            if d is not None:
                self.accumulate(v, d)
        e.insert(xllvm.BrOp(self._rblock(p)))

    def _return_gradient(self) -> None:
        e = self.e
        grads = [self.adjoint(a) or e.zero(a.type) for a in self.active_args]
        if not grads:
            e.insert(xllvm.ReturnOp())
        elif len(grads) == 1:
            e.insert(xllvm.ReturnOp(grads[0]))
        else:
            st = ad.derivative_result_type([g.type for g in grads])
            acc = e.insert(xllvm.UndefOp(st))
            for i, g in enumerate(grads):
                acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, g))
            e.insert(xllvm.ReturnOp(acc))

    def _reverse_op(self, op: Operation) -> None:
        if op.name in _SKIPPED_IN_GRADIENT:
            return
        if op in self.call_plans:
            self._reverse_call(op)
            return
        if op in self.trapped_calls:
            return  # never reached: the forward sweep stopped the program there
        info = self.info
        if isinstance(op, ext.StoreOp):
            if op.ptr in info.shadowed and carries_derivative(op.value.type):
                rule_for(op)(self, op)  # type: ignore[misc]
            elif op.ptr in info.shadowed and _integer_like(op.value.type):
                self._reverse_integer_store(op)
            return
        if isinstance(op, ext.MemcpyOp | ext.MemmoveOp | ext.MemsetOp):
            self._reverse_memory_transfer(op)
            return
        if isinstance(op, xllvm.CallOp) and allocator_of(op) is not None:
            if op.results[0] in info.shadowed:
                self._reverse_allocation(op)
            return
        if isinstance(op, xllvm.AllocaOp) and self.split and op.res in info.shadowed:
            ensure_declaration(self.module, "free", ext.LLVMFunctionType([ext.LLVMPointerType()], ext.LLVMVoidType()))
            self.e.insert(_call("free", [self.shadow(op.res)], None))
            return
        if self._inactive_call(op):
            return  # no derivative, by the program's word (__enzyme_inactivefn) or by its nature
        if callee_name(op) in DEALLOCATORS:
            return  # given back in the forward sweep; the shadow ends at its allocation's reverse
        active_result = any(info.is_active(r) for r in op.results)
        if not active_result:
            self._check_inactive(op)
            return
        rule = rule_for(op)
        if rule is None:
            self._no_rule(op)
        rule(self, op)

    def _reverse_integer_store(self, op: ext.StoreOp) -> None:
        """An integer written over bytes that may have held a float: that float's adjoint ends
        here.  (Integer copies of bytes known to be floats were made float copies already.)"""
        kind, _ = integer_access(self.views.of(op.ptr), op.value.type)
        if kind == INTEGER:
            return
        src = op.value.owner
        if (isinstance(src, xllvm.LoadOp) and src.ptr in self.info.shadowed
                and integer_access(self.views.of(src.ptr), src.dereferenced_value.type)[0] != INTEGER):
            self.fail(op, "cannot tell whether the bytes copied here (as an integer) hold floating-point data",
                      ["copy the fields one by one with their own types, or mark the memory enzyme_const"])  # fmt: skip
        e = self.e
        e.insert(ext.StoreOp(e.zero(op.value.type), self.shadow(op.ptr), alignment=_align(op)))

    def _check_inactive(self, op: Operation) -> None:
        """Ops without active results must not hide derivatives (calls writing active memory)."""
        info = self.info
        if isinstance(op, xllvm.CallOp | ext.InvokeOp | xllvm.CallIntrinsicOp | xllvm.InlineAsmOp):
            if self._inactive_call(op):
                return
            if _pure_call(op) or rule_for(op) is not None:
                return  # a call with a derivative rule does nothing but compute its result
            if isinstance(op, xllvm.CallIntrinsicOp) and store_destinations(op) == []:
                return  # an intrinsic that writes no memory (llvm.is.fpclass, ...)
            if any(o in info.shadowed or o in info.varied for o in op.operands):
                self._no_rule(op)  # it may write derivatives somewhere: into memory, or a global
        if isinstance(op, ext.AtomicRMWOp | ext.CmpXchgOp) and op.ptr in info.shadowed:  # type: ignore[attr-defined]
            self.fail(op, "atomic updates of active memory are not supported in reverse mode yet",
                      ["use a plain update (the differentiated code runs on one thread), or mark the memory enzyme_const"])  # fmt: skip

    def _no_rule(self, op: Operation) -> NoReturn:
        if isinstance(op, xllvm.CallOp):
            callee = op.callee.string_value() if op.callee is not None else None
            if callee is None:
                self._fail_unknown_callee(op)
            if self.generator is not None and op in self.generator.pointer_calls:
                self.fail(op, f"@{callee}, which the function pointer called here may point to, is an external "
                              "function with no known derivative",
                          [f"give it one with __enzyme_register_gradient_{callee}, define it in this module, "
                           "or mark it inactive (__enzyme_inactivefn)"])  # fmt: skip
            defined = any(isinstance(o, xllvm.FuncOp) and o.sym_name.data == callee and o.body.blocks for o in self.module.ops)
            if defined:
                self.fail(op, f"the call to @{callee} (not inlined) has active arguments; calls are not supported yet",
                          ["inline it (static inline, or a higher preopt level)"])  # fmt: skip
            self.fail(op, f"no derivative is known for external function @{callee}",
                      [f"give one with __enzyme_register_gradient_{callee}, or mark it inactive"])  # fmt: skip
        self.fail(op, f"no derivative rule for '{op.name}'",
                  ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip

    def _fail_unknown_callee(self, op: xllvm.CallOp) -> NoReturn:
        """An indirect call with derivatives whose pointer may hold no function of this module."""
        ftype = call_type(op)
        args = ", ".join(str(t) for t in ftype.inputs.data)
        self.fail(op, "an indirect call (through a function pointer) has active arguments, but no function of "
                      f"this module of its type ({ftype.output} ({args})) has its address taken: the function "
                      "it calls is not in this module, so no derivative can be generated for it",
                  ["pass the address of a function defined in this module (its derivative is generated), "
                   "or mark the arguments enzyme_const"])  # fmt: skip

    def _forward_copy_shadows(self, op: Operation) -> None:
        """A copy of pointers copies their shadows too."""
        dst, src, n = op.operands[0], op.operands[1], op.operands[2]
        e = self.e
        view = copy_view(self.views, op)
        plan = CopyPlan.of(view, COPY) if view is not None else None
        if plan is not None and plan.dense or view is None and self._contents(dst)[0] == POINTER:
            # Nothing but pointers: the shadows are copied like the pointers.
            e.insert(type(op).create(operands=[self.fwd_shadow(dst), self.fwd_shadow(src), self.fwd[n]],
                                     properties=dict(op.properties)))  # fmt: skip
            return
        if plan is None:
            return
        helper = copy_helper(self.module, COPY, plan, isinstance(op, ext.MemmoveOp))
        e.insert(_call(helper, [self.fwd_shadow(src), self.fwd_shadow(dst), self._i64(self.fwd[n])], None))

    def _i64(self, v: SSAValue) -> SSAValue:
        return v if v.type == i64 else self.e.insert(xllvm.ZExtOp(v, i64))  # type: ignore[arg-type]

    def _reverse_memory_transfer(self, op: Operation) -> None:
        dst = op.operands[0]
        if dst not in self.info.shadowed:
            return
        e = self.e
        n = self.get(op.operands[2])
        if isinstance(op, ext.MemsetOp):
            zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
            e.insert(ext.MemsetOp([self.shadow(dst), zero8, n]))
            return
        src = op.operands[1]
        # From active memory the adjoints move back to the source; from inactive memory (a
        # constant table) they just end.
        action = ADJOINT if src in self.info.shadowed else ZERO
        plan = self._float_copy_plan(op, action)
        if plan is None:
            return
        if action == ZERO and plan.dense:
            zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
            e.insert(ext.MemsetOp([self.shadow(dst), zero8, n]))
            return
        helper = copy_helper(self.module, action, plan, isinstance(op, ext.MemmoveOp))
        from_shadow = self.shadow(src) if action == ADJOINT else self.shadow(dst)
        e.insert(_call(helper, [from_shadow, self.shadow(dst), self._i64(n)], None))

    def _float_copy_plan(self, op: Operation, action: str) -> CopyPlan | None:
        """The floats a copy moves, from the bytes' view, else from what the objects hold."""
        view = copy_view(self.views, op)
        if view is not None:
            return CopyPlan.of(view, action)
        kind, ftype = self._contents(op.operands[0])
        if kind == UNKNOWN_KIND:
            kind, ftype = self._contents(op.operands[1])  # what the source holds
        if kind in (POINTER, INTEGER):
            return None
        if kind != FLOAT and action == ZERO:
            # Data without derivatives overwrote these bytes: whatever they held, their adjoints
            # end here (a byte-wise plan: the caller clears the destination's shadow).
            return CopyPlan(((0, i8),), 1, 0)
        if kind != FLOAT:
            self.fail(op, f"cannot tell whether the copied memory holds floating-point data ({kind})",
                      ["copy typed data element by element, or keep floats and other data in separate arrays"])  # fmt: skip
        size = size_align(ftype)  # type: ignore[arg-type]
        assert size is not None
        return CopyPlan(((0, ftype),), size[0], 0)  # type: ignore[arg-type]

    def _contents(self, ptr: SSAValue):
        types = {n: g.global_type for n, g in self.globals.items()}
        return memory_contents(ptr, self.cfg, self.cfg.rpo, types)

    # ---- the ReverseContext interface used by rules -----------------------------------------

    def active(self, v: SSAValue) -> bool:
        return self.info.is_active(v)

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
        slot = self._slot(v)
        e = self.e
        d = e.insert(xllvm.LoadOp(slot, v.type))
        e.insert(ext.StoreOp(e.zero(v.type, negative=True), slot))
        return d

    def accumulate(self, v: SSAValue, delta: SSAValue) -> None:
        if not self.info.is_active(v):
            return
        if delta.type != v.type:
            raise AssertionError(f"adjoint of {v.type} accumulated with {delta.type}")
        self.e.insert(ad.AccumulateOp(self._slot(v), delta))

    def accumulate_memory(self, shadow_ptr: SSAValue, delta: SSAValue, alignment: int | None = None) -> None:
        self.e.insert(ad.AccumulateOp(shadow_ptr, delta, alignment=alignment))

    def get(self, v: SSAValue) -> SSAValue:
        assert self.pos is not None
        key = (self.pos.block, v)
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self._materialize(v)
        return r

    def shadow(self, p: SSAValue) -> SSAValue:
        assert self.pos is not None
        key = (self.pos.block, ("shadow", p))
        r = self.memo.get(key)
        if r is None:
            r = self.memo[key] = self._materialize_shadow(p)
        return r

    # ---- getting primal values into the reverse sweep ------------------------------------

    def _loops_at(self) -> list[Loop]:
        assert self.pos is not None
        return self.cfg.loops_of(self.pos.primal)

    def _direct(self, v: SSAValue) -> bool:
        """Whether the forward value of `v` can be used as it is at the current reverse point.

        In split mode the reverse sweep is another function: only the parameters (which it
        receives too) are available."""
        return self._direct_in(v, set(self._loops_at()))

    def _direct_in(self, v: SSAValue, here: set[Loop]) -> bool:
        """`_direct` where the loops being reversed are `here`."""
        d = defining_block(v)
        if self.split:
            return isinstance(v, BlockArgument) and d is self.cfg.entry
        if d is None or d is self.cfg.entry and not self.cfg.loops_of(d):
            return True
        if d not in self.dominates_returns:
            return False
        return not any(lp in here for lp in self.cfg.loops_of(d))

    def _direct_value(self, v: SSAValue) -> SSAValue:
        return self.rparam[v] if self.split else self.fwd[v]

    def _direct_shadow(self, p: SSAValue) -> SSAValue:
        return self.rshadow[p] if self.split else self.fwd_shadow(p)

    def _materialize(self, v: SSAValue) -> SSAValue:
        if self._direct(v):
            return self._direct_value(v)
        if self.mincut and self.plan is None and not self._recomputing:
            self.requests.append((v, self._innermost()))
        if self.plan is not None and v in self.plan:
            return self._peek_value(v)
        if self._recomputable(v, 0):
            return self._recompute(v)
        return self._peek_value(v)

    def _innermost(self) -> Loop | None:
        assert self.pos is not None
        return self.cfg.loop_of.get(self.pos.primal)

    def _recomputable(self, v: SSAValue, depth: int) -> bool:
        if depth > _RECOMPUTE_DEPTH:
            return False
        key = (v, self._innermost())
        if key in self.recomputable_memo:
            return self.recomputable_memo[key]
        self.recomputable_memo[key] = False  # cycles (loop-carried values) are not recomputable
        ok = self._recomputable_uncached(v, depth)
        self.recomputable_memo[key] = ok
        return ok

    def _recomputable_uncached(self, v: SSAValue, depth: int) -> bool:
        if self._direct(v) or self.plan is not None and v in self.plan:
            return True
        if isinstance(v, BlockArgument):
            # An induction variable of a loop being reversed: start + step * counter, its start
            # (outside that loop) used directly, recomputed or cached once per entry.
            iv = affine_iv(self.cfg, v)
            return iv is not None and iv.loop in self._loops_at()
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, _CONSTANT_OPS):
            return True
        if isinstance(op, xllvm.LoadOp):
            if self.split or op.ordering.value.data != 0 or "volatile_" in op.attributes:
                return False  # (split: the caller may write the memory between the halves)
            if self.writes.may_write(underlying_objects(op.ptr, self.cfg)):
                return False
            return self._recomputable(op.ptr, depth + 1)
        if not self._pure_op(op):
            return False
        return all(self._recomputable(o, depth + 1) for o in op.operands)

    def _pure_op(self, op: Operation) -> bool:
        """Whether `op` may be repeated in the reverse sweep given its operands.  With the
        minimum cut, divisions and cheap math functions too (the cut weighs them against caches
        by bytes only, so a function as costly as `exp` is cached rather than called again)."""
        if isinstance(op, _RECOMPUTABLE):
            return True
        if not self.mincut:
            return False
        if isinstance(op, xllvm.FDivOp):
            return True
        return (
            isinstance(op, xllvm.CallOp) and op.callee is not None and FUNCTION_LIKE_ATTR not in op.attributes
            and math_base_name(op.callee.string_value()) in _CHEAP_MATH and op not in self.call_plans
            and len(op.results) == 1 and all(ad.is_float_like(o.type) or _integer_like(o.type) for o in op.operands)
        )  # fmt: skip

    def _recompute(self, v: SSAValue) -> SSAValue:
        if self._direct(v):
            return self._direct_value(v)
        e = self.e
        self._recomputing += 1
        try:
            if isinstance(v, BlockArgument):
                iv = affine_iv(self.cfg, v)
                assert iv is not None
                return self._recompute_iv(iv)
            op = v.owner
            assert isinstance(op, Operation)
            mapping = {o: self.get(o) for o in op.operands}
        finally:
            self._recomputing -= 1
        new = _clone_defined(op, dict(mapping))
        if isinstance(new, xllvm.CallOp):
            new.attributes["fn_attrs"] = PURE_CALL_ATTRS
        e.insert(new)
        return new.results[v.index]  # type: ignore[attr-defined]

    # ---- the cache plan ---------------------------------------------------------------------

    def plan_caches(self) -> set[SSAValue]:
        """After a run that recorded what the rules need: the values to cache (the cut)."""

        def inputs(node: tuple[SSAValue, Loop | None]) -> list[tuple[SSAValue, Loop | None]] | None:
            v, lp = node
            here = set(lp.enclosing()) if lp is not None else set()
            if self._direct_in(v, here):
                return []
            if isinstance(v, BlockArgument):
                iv = affine_iv(self.cfg, v)
                return [(iv.start, lp)] if iv is not None and iv.loop in here else None
            op = v.owner
            assert isinstance(op, Operation)
            if isinstance(op, _CONSTANT_OPS):
                return []
            if isinstance(op, xllvm.LoadOp):
                if self.split or op.ordering.value.data != 0 or "volatile_" in op.attributes:
                    return None
                if self.writes.may_write(underlying_objects(op.ptr, self.cfg)):
                    return None
                return [(op.ptr, lp)]
            if not self._pure_op(op):
                return None
            return [(o, lp) for o in op.operands]

        def cost(node: tuple[SSAValue, Loop | None]) -> int:
            v = node[0]
            size = size_align(v.type)
            depth = len(self.cfg.loops_of(defining_block(v))) - len(self._hoisting(v)[0])  # type: ignore[arg-type]
            return (size[0] if size else 8) * _LOOP_WEIGHT**depth

        return {v for v, _ in minimum_cache_cut(self.requests, inputs, cost)}

    def _hoisting(self, v: SSAValue) -> tuple[list[Loop], bool]:
        """How a cache of `v` avoids a push per iteration of loops in which `v` does not change:
        the loops around its definition over which it is pushed once (outermost first), and
        whether that push is where the outermost of them is left (popped where its reverse
        ends; the definition must be on every path out of it, and no return inside); otherwise,
        when `v` is the same throughout every loop around it, it is kept in a single slot that
        each iteration overwrites with the same value.  Nothing without the minimum cut."""
        d = defining_block(v)
        if not self.mincut or d is None:
            return [], False
        loops = self.cfg.loops_of(d)
        for k, lp in enumerate(loops):
            if any(r in lp.blocks for r in self.ret_blocks) or not self._invariant(v, lp, 0):
                continue
            if all(self.cfg.dominates(d, src) for src, _ in lp.exits):
                return loops[k:], True
        if loops and self._invariant(v, loops[0], 0):
            return loops, False
        return [], False

    def _invariant(self, v: SSAValue, lp: Loop, depth: int) -> bool:
        """Whether `v` is the same in every iteration of `lp` (loads from memory the loop does
        not write, through invariant pointers, and pure operations on invariant values)."""
        if defining_block(v) not in lp.blocks:
            return True
        if isinstance(v, BlockArgument) or depth > _RECOMPUTE_DEPTH:
            return False
        key = (v, lp)
        if key in self.invariant_memo:
            return self.invariant_memo[key]
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, _CONSTANT_OPS):
            ok = True
        elif isinstance(op, xllvm.LoadOp):
            if lp not in self.loop_writes:
                self.loop_writes[lp] = WriteSummary([b for b in self.cfg.rpo if b in lp.blocks], self.cfg)
            ok = (op.ordering.value.data == 0 and "volatile_" not in op.attributes
                  and not self.loop_writes[lp].may_write(underlying_objects(op.ptr, self.cfg))
                  and self._invariant(op.ptr, lp, depth + 1))  # fmt: skip
        else:
            ok = self._pure_op(op) and all(self._invariant(o, lp, depth + 1) for o in op.operands)
        self.invariant_memo[key] = ok
        return ok

    def _recompute_iv(self, iv: AffineIV) -> SSAValue:
        """start + step * (reverse loop counter)."""
        e = self.e
        riv = e.insert(xllvm.LoadOp(self._riv_slot(iv.loop), i64))
        start = self.get(iv.start)
        t = iv.value.type
        if iv.element is not None:  # pointer IV: start + step elements per iteration
            k = riv if iv.step == (1,) else e.insert(xllvm.MulOp(riv, i64_const(e, iv.step[0])))  # type: ignore[arg-type]
            return e.insert(ext.GEPOp(start, [ext.GEP_USE_SSA_VAL], iv.element, [k], result_type=t))
        et = t.element_type if isinstance(t, VectorType) else t
        assert isinstance(et, IntegerType)
        k = riv if et == i64 else e.insert(xllvm.TruncOp(riv, et))  # type: ignore[arg-type]
        if isinstance(t, VectorType):
            k = _splat(e, k, t)
            step = e.insert(xllvm.ConstantOp(DenseIntOrFPElementsAttr.from_list(t, list(iv.step)), t))
        else:
            step = e.insert(xllvm.ConstantOp(IntegerAttr(iv.step[0], t), t))
        if iv.step != (1,):
            k = e.insert(xllvm.MulOp(k, step))  # type: ignore[arg-type]
        return e.insert(xllvm.AddOp(start, k))  # type: ignore[arg-type]

    def _materialize_shadow(self, p: SSAValue) -> SSAValue:
        if self._direct(p):
            return self._direct_shadow(p)
        if not isinstance(p, BlockArgument):
            op = p.owner
            e = self.e
            if isinstance(op, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp) and all(
                self._recomputable(o, 1) for o in op.operands[1:]
            ):
                ops = [self.shadow(op.operands[0]), *[self.get(o) for o in op.operands[1:]]]
                return e.insert(type(op).create(operands=ops, result_types=[p.type], properties=dict(op.properties)))
            if isinstance(op, ext.SelectOp) and self._recomputable(op.cond, 1):
                return e.insert(ext.SelectOp(self.get(op.cond), self.shadow(op.lhs), self.shadow(op.rhs)))
        return self._peek(("shadow", p), self.fwd_shadow(p), defining_block(p))

    def _peek_value(self, v: SSAValue) -> SSAValue:
        block = defining_block(v)
        assert block is not None
        if v not in self.caches:
            loops, at_exit = self._hoisting(v)
            if at_exit:
                cache = self.caches[v] = self._new_cache(v.type, single=loops[0].parent is None)
                self.hoisted.setdefault(loops[0], []).append((v, cache))
            elif loops:
                self._register_cache(v, self.fwd[v], block, single=True)
        return self._peek(v, self.fwd[v], block)

    def _peek(self, key: object, fwd_value: SSAValue | None = None, block: Block | None = None) -> SSAValue:
        cache = self.caches.get(key)
        if cache is None:
            assert fwd_value is not None and block is not None
            cache = self._register_cache(key, fwd_value, block)
        return self.e.insert(ad.CachePeekOp(cache.handle))

    def _register_cache(self, key: object, fwd_value: SSAValue, block: Block, single: bool = False) -> _Cache:
        """A cache for `fwd_value`, pushed after its definition and popped at the end of the
        reverse of `block` (`single`: one slot, even inside loops)."""
        if key in self.caches:
            return self.caches[key]
        cache = self._new_cache(fwd_value.type, single=single or not self.cfg.loops_of(block))
        cache.value, cache.block = fwd_value, block
        self.caches[key] = cache
        return cache

    def _new_cache(self, element: Attribute, single: bool) -> _Cache:
        init = ad.CacheInitOp(element, single=single)
        self.fwd_entry_ops.append(init)
        handle = init.res
        if self.split:  # the reverse function reaches the same state through the tape
            attach = ad.CacheAttachOp(self.tape_in, element, single=single)
            self.rev_entry_ops.append(attach)
            handle = attach.res
        cache = _Cache(init, handle)
        self.all_caches.append(cache)
        return cache

    def _riv_slot(self, lp: Loop) -> SSAValue:
        slot = self.riv_slots.get(lp)
        if slot is None:
            one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
            alloca = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()], properties={"elem_type": i64})
            alloca.res.name_hint = "riv"
            self.rev_entry_ops += [one, alloca]
            self.riv_slots[lp] = slot = alloca.res
        return slot

    # ---- finishing ------------------------------------------------------------------------------

    def _finish(self) -> None:
        if self.split:
            self._lay_out_tape()
            _prepend(self.g_entry, self.fwd_entry_ops)
            _prepend(self.r_entry, self.rev_entry_ops)
        else:
            _prepend(self.g_entry, self.fwd_entry_ops + self.rev_entry_ops)
        for cache in self.caches.values():
            if cache.value is None or cache.block is None:
                continue
            v = cache.value
            push = ad.CachePushOp(cache.init.res, v)
            if isinstance(v, BlockArgument):
                blk = v.block
                anchor = blk.first_op
                if blk is self.g_entry:
                    anchor = None
                if anchor is not None:
                    blk.insert_op_before(push, anchor)
                else:
                    blk.add_op(push)
            else:
                owner = v.owner
                assert isinstance(owner, Operation)
                owner.parent_block().insert_op_after(push, owner)  # type: ignore[union-attr]
            rb = self.R[cache.block]
            term = rb.last_op
            assert term is not None
            rb.insert_op_before(ad.CachePopOp(cache.handle), term)
        self._place_hoisted_caches()
        if self.split:
            self._free_tape()  # after the pops: the last of them may be in the entry's reverse
        self._reserve_caches()

    def discard(self) -> None:
        """Drop what a planning run built, so that it leaves no uses behind."""
        blocks = [self.g_entry, *self.F.values(), *self.exit_blocks, *self._reverse_blocks]
        if self.split:
            blocks.append(self.r_entry)
        for b in blocks:
            for op in b.ops:
                op.drop_all_references()
        for op in self.fwd_entry_ops + self.rev_entry_ops:
            op.drop_all_references()

    def _place_hoisted_caches(self) -> None:
        """A value invariant in a loop is pushed where the loop is left and popped where the
        reverse sweep leaves the loop's reverse (the reverse of the edges entering it)."""
        for lp, entries in self.hoisted.items():
            for v, cache in entries:
                for edge in self.exit_edges.get(lp, []):
                    edge.insert_op_before(ad.CachePushOp(cache.init.res, self.fwd[v]), edge.last_op)  # type: ignore[arg-type]
                for edge in self.entry_edges.get(lp, []):
                    edge.insert_op_before(ad.CachePopOp(cache.handle), edge.last_op)  # type: ignore[arg-type]

    def _free_tape(self) -> None:
        """Split mode: the tape and the caches on it end with the reverse function."""
        ret = self.R[self.cfg.entry].last_op
        assert isinstance(ret, xllvm.ReturnOp)
        b = Builder(InsertPoint.before(ret))
        for cache in self.all_caches:
            if cache.init.single is None:
                b.insert(ad.CacheFreeOp(cache.handle))
        if not self.tape_buffer:
            b.insert(_call("free", [self.tape_in], None))

    def _lay_out_tape(self) -> None:
        """Each cache's state is a field of the tape: give inits and attaches their field."""
        fields = [ad.cache_storage_type(c.init.res.type.element_type, c.init.single is not None)  # type: ignore[attr-defined]
                  for c in self.all_caches]  # fmt: skip
        self.tape_type = tape_type = ext.LLVMStructType.from_type_list(fields or [i8])
        if not self.tape_buffer:
            null = xllvm.ZeroOp.create(result_types=[ext.LLVMPointerType()])
            end = ext.GEPOp(null.results[0], [1], tape_type)
            size = xllvm.PtrToIntOp(end.result, i64)
            self.tape.operands = (size.results[0],)
            self.fwd_entry_ops[: self.fwd_entry_ops.index(self.tape)] = [null, end, size]
        for k, cache in enumerate(self.all_caches):
            store_fwd = ext.GEPOp(self.tape_ptr, [0, k], tape_type)
            self.fwd_entry_ops.insert(self.fwd_entry_ops.index(cache.init), store_fwd)
            cache.init.operands = (store_fwd.result,)
            attach = cache.handle.owner
            assert isinstance(attach, ad.CacheAttachOp)
            store_rev = ext.GEPOp(self.tape_in, [0, k], tape_type)
            self.rev_entry_ops.insert(self.rev_entry_ops.index(attach), store_rev)
            attach.operands = (store_rev.result,)

    def _reserve_caches(self) -> None:
        """Where a counted loop is entered, make room in its caches for all its iterations."""
        by_loop: dict[Loop, list[ad.CacheInitOp]] = {}
        for cache in self.caches.values():
            lp = self.cfg.loop_of.get(cache.block) if cache.block is not None else None
            if lp is not None and cache.init.single is None:
                by_loop.setdefault(lp, []).append(cache.init)
        for lp, lim in self.limit_caches.items():
            if lp.parent is not None and lim.init.single is None:
                by_loop.setdefault(lp.parent, []).append(lim.init)
        for lp, entries in self.hoisted.items():
            if lp.parent is not None:
                by_loop.setdefault(lp.parent, []).extend(c.init for _, c in entries)
        for lp, inits in by_loop.items():
            tc = trip_count(self.cfg, lp)
            if tc is None:
                continue
            for p in lp.entering:
                fp = self.F[p]
                term = fp.last_op
                assert term is not None
                e = Emitter(Builder(InsertPoint.before(term)), self.module)
                count = self._trip_count_value(e, tc)
                for init in inits:
                    e.insert(ad.CacheReserveOp(init.res, count))

    def _trip_count_value(self, e: Emitter, tc: TripCount) -> SSAValue:
        """max(1, min(2^32, ceil((limit - start) / step) [+1])) as i64, from forward values."""
        step = tc.iv.step[0]
        start = self._to_i64(e, self.fwd[tc.iv.start], tc.unsigned)
        limit = self._to_i64(e, self.fwd[tc.limit], tc.unsigned)
        diff = e.insert(xllvm.SubOp(limit, start) if step > 0 else xllvm.SubOp(start, limit))  # type: ignore[arg-type]
        k = abs(step)
        count = e.insert(xllvm.SDivOp(e.insert(xllvm.AddOp(diff, i64_const(e, k - 1))), i64_const(e, k)))  # type: ignore[arg-type]
        extra = int(tc.inclusive) + int(not tc.compares_next)
        if extra:
            count = e.insert(xllvm.AddOp(count, i64_const(e, extra)))  # type: ignore[arg-type]
        one, cap = i64_const(e, 1), i64_const(e, 1 << 32)
        count = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(count, one, "slt")), one, count))
        return e.insert(ext.SelectOp(e.insert(ext.ICmpOp(count, cap, "sgt")), cap, count))

    def _to_i64(self, e: Emitter, v: SSAValue, unsigned: bool) -> SSAValue:
        t = v.type
        if t == i64:
            return v
        if isinstance(t, IntegerType) and t.width.data < 64:
            return e.insert((xllvm.ZExtOp if unsigned else xllvm.SExtOp)(v, i64))  # type: ignore[arg-type]
        if isinstance(t, ext.LLVMPointerType):
            return e.insert(xllvm.PtrToIntOp(v, i64))
        return e.insert(xllvm.TruncOp(v, i64))  # type: ignore[arg-type]


def augmented_fields(ftype: ext.LLVMFunctionType, ret_activity: str) -> list[Attribute]:
    """Fields of an augmented forward function's result: the primal result (if any), its
    shadow (for a duplicated pointer result), and the tape."""
    out = ftype.output
    fields: list[Attribute] = []
    if not isinstance(out, ext.LLVMVoidType):
        fields.append(out)
        if ret_activity == "dup":
            fields.append(out)
    fields.append(ext.LLVMPointerType())
    return fields


def _prepend(block: Block, ops: list[Operation]) -> None:
    first = block.first_op
    for op in ops:
        if first is not None:
            block.insert_op_before(op, first)
        else:
            block.add_op(op)


def _clone_defined(op: Operation, mapping: dict[SSAValue, SSAValue]) -> Operation:
    """A copy of `op` for the gradient function in which float lanes are never poison.

    Rules multiply adjoints by primal values; where a primal lane is poison (a shuffle mask
    entry of -1, a vector built up from `poison`, an `undef` phi input) the adjoint lane is zero,
    but zero times poison is poison, and LLVM folds it to anything.  Such lanes are unused by
    the primal, so giving them the value zero (or a copy of a defined lane) changes nothing else.
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


def _splat(e: Emitter, scalar: SSAValue, t: VectorType) -> SSAValue:
    zero = e.insert(xllvm.ConstantOp(IntegerAttr(0, i32), i32))
    first = e.insert(xllvm.InsertElementOp.create(operands=[e.insert(ext.PoisonOp(t)), scalar, zero], result_types=[t]))
    n = t.get_shape()[0]
    return e.insert(xllvm.ShuffleVectorOp.create(
        operands=[first, first], properties={"mask": DenseArrayBase.from_list(i32, [0] * n)}, result_types=[t]
    ))  # fmt: skip


def _align(op: Operation) -> int | None:
    a = op.properties.get("alignment")
    return a.value.data if isinstance(a, IntegerAttr) else None


def _integer_like(t: Attribute) -> bool:
    return isinstance(t.element_type if isinstance(t, VectorType) else t, IntegerType)


def _scalar(t: Attribute) -> bool:
    from xdsl.dialects.builtin import AnyFloat

    return isinstance(t, AnyFloat | IntegerType)


_CHEAP_MATH = frozenset({"fabs", "copysign", "fmin", "fmax", "minnum", "maxnum", "floor", "ceil", "trunc",
                         "round", "rint", "nearbyint"})  # fmt: skip
"""Math functions of a few instructions, recomputed in the reverse sweep rather than cached."""


def _pure_call(op: Operation) -> bool:
    attrs = op.attributes.get("fn_attrs")
    if isinstance(attrs, ArrayAttr):
        return any(isinstance(a, StringAttr) and a.data in ("memory(none)", "readnone") for a in attrs.data)
    return False


def _call(callee: str, args: list[SSAValue], rtype: Attribute | None) -> xllvm.CallOp:
    return xllvm.CallOp.create(
        operands=args,
        result_types=[rtype] if rtype is not None else [],
        properties={
            "callee": SymbolRefAttr(callee),
            "fastmathFlags": xllvm.FastMathAttr(None),
            "CConv": xllvm.CallingConventionAttr("ccc"),
            "TailCallKind": xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE),
            "op_bundle_sizes": DenseArrayBase.from_list(i32, []),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(args), 0]),
        },
    )


# ---------------------------------------------------------------------------------------------
# Preparing the primal
# ---------------------------------------------------------------------------------------------


def retype_float_accesses(fn: xllvm.FuncOp, globals_: dict[str, Attribute], tbaa: TBAA | None = None) -> None:
    """Integer loads and stores of bytes the program typed as floating point become float loads
    and stores, with bitcasts where an integer is still wanted.

    LLVM copies small structs and memcpy'd floats as integers (`load i64` / `store i64` of a
    `struct { double v; }`); the derivative travels with those bytes, so the copy must be seen as
    one of doubles.  The bits moved are the same, so the primal computes the same thing; what
    remains an integer use of float bits is judged by activity analysis (reinterpretation).
    """
    try:
        views = Views(CFG(fn.body), globals_)
    except IrreducibleControlFlow:
        return  # reported when the gradient is built
    for block in fn.body.blocks:
        for op in list(block.ops):
            if isinstance(op, xllvm.LoadOp):
                _retype_load(op, views, tbaa)
            elif isinstance(op, ext.StoreOp):
                _retype_store(op, views, tbaa)


def copy_byval_arguments(fn: xllvm.FuncOp) -> None:
    """A struct passed by value in memory (`byval`) is the callee's own copy, but the generated
    functions take plain pointers: write to a copy made at entry, so that the caller's memory
    keeps its value and the reverse of that copy returns the copy's adjoint to the caller's
    shadow.  (Parameters LLVM knows are only read need no copy.)"""
    attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
    entry = fn.body.blocks.first
    if entry is None:
        return
    for arg, d in zip(entry.args, attrs, strict=False):
        t = d.data.get("llvm.byval") if isinstance(d, DictionaryAttr) else None
        if t is None or "llvm.readonly" in d.data or not arg.uses or (sa := size_align(t)) is None:
            continue
        users = [u.operation for u in arg.uses]
        if len(users) == 1 and isinstance(users[0], ext.MemcpyOp) and isinstance(users[0].args[0].owner, xllvm.AllocaOp):
            continue  # (copied already)
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        copy = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()],
                                     properties={"elem_type": t, "alignment": IntegerAttr(sa[1], i64)})  # fmt: skip
        n = xllvm.ConstantOp(IntegerAttr(sa[0], i64), i64)
        arg.replace_all_uses_with(copy.results[0])
        _prepend(entry, [one, copy, n, ext.MemcpyOp([copy.results[0], arg, n.result])])


def replace_reallocation(fn: xllvm.FuncOp, module: ModuleOp) -> None:
    """`realloc` becomes malloc + copy + free, and `posix_memalign` an `aligned_alloc`: every heap
    object then has one allocation that returns it, which its shadow follows, and the adjoints of
    the old buffer's contents flow back from the new one through the copy."""
    ptr = ext.LLVMPointerType()
    for block in fn.body.blocks:
        for op in list(block.ops):
            name = callee_name(op)
            if name not in ("realloc", "posix_memalign"):
                continue
            e = Emitter(Builder(InsertPoint.before(op)), module)
            if name == "realloc":
                old, n = op.operands
                ensure_declaration(module, "malloc", ext.LLVMFunctionType([i64], ptr))
                ensure_declaration(module, "malloc_usable_size", ext.LLVMFunctionType([ptr], i64))
                ensure_declaration(module, "free", ext.LLVMFunctionType([ptr], ext.LLVMVoidType()))
                new = e.insert(_call("malloc", [n], ptr))
                usable = e.insert(_call("malloc_usable_size", [old], i64))
                kept = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(usable, n, "ult")), usable, n))
                e.insert(ext.MemcpyOp([new, old, kept]))
                e.insert(_call("free", [old], None))
                result = new
            else:
                slot, align, n = op.operands
                ensure_declaration(module, "aligned_alloc", ext.LLVMFunctionType([i64, i64], ptr))
                mask = e.insert(xllvm.SubOp(align, i64_const(e, 1)))  # type: ignore[arg-type]
                rounded = e.insert(xllvm.AndOp(
                    e.insert(xllvm.AddOp(n, mask)),  # type: ignore[arg-type]
                    e.insert(xllvm.XOrOp(mask, i64_const(e, -1))),  # type: ignore[arg-type]
                ))  # fmt: skip
                new = e.insert(_call("aligned_alloc", [align, rounded], ptr))
                e.insert(ext.StoreOp(new, slot))
                null = e.insert(xllvm.ZeroOp.create(result_types=[ptr]))
                rt = op.results[0].type
                failed = e.insert(ext.ICmpOp(new, null, "eq"))
                enomem = e.insert(xllvm.ConstantOp(IntegerAttr(12, rt), rt))  # type: ignore[arg-type]
                result = e.insert(ext.SelectOp(failed, enomem, e.insert(xllvm.ConstantOp(IntegerAttr(0, rt), rt))))  # type: ignore[arg-type]
            for r in (new, result):
                r.owner.location = op.location  # type: ignore[union-attr]
            op.results[0].replace_all_uses_with(result)
            op.detach()
            op.erase()


def resolve_indirect_calls(fn: xllvm.FuncOp, calls: list[xllvm.CallOp], index: CalleeIndex,
                           unresolved: set[Operation], direct: set[Operation]) -> None:
    """Each of the indirect `calls` of `fn` (derivatives flow through them) becomes a chain of
    pointer comparisons choosing among direct calls to its candidate callees, which are then
    differentiated like any direct call (the reverse sweep follows the branch the forward sweep
    took).  When the candidates are only guessed, the original indirect call stays for any
    other pointer and joins `unresolved`: reached with derivatives, it stops the program."""
    try:
        cfg = CFG(fn.body)
    except IrreducibleControlFlow:
        return  # reported when the function is differentiated
    plans = [(op, index.targets(op, cfg)) for op in calls]  # (all traced before any block is split)
    for op, targets in plans:
        if targets.names:
            _dispatch_indirect_call(op, targets, unresolved, direct)


def _dispatch_indirect_call(op: xllvm.CallOp, targets: Targets, unresolved: set[Operation],
                            direct: set[Operation]) -> None:
    """Split `op`'s block at `op`: compare the pointer with each candidate in turn, each hit
    calling it directly and branching to the rest of the block, which receives the result."""
    block = op.parent_block()
    assert block is not None and block.parent is not None
    region = block.parent
    join = Block()
    region.insert_block_after(join, block)
    following: list[Operation] = []
    nxt = op.next_op
    while nxt is not None:
        following.append(nxt)
        nxt = nxt.next_op
    for o in following:
        o.detach()
        join.add_op(o)
    if op.returned is not None:
        op.returned.replace_all_uses_with(join.insert_arg(op.returned.type, 0))
    ptr, args = op.args[0], list(op.args[1:])
    names = targets.names
    compared = names[:-1] if targets.complete else names
    current = block
    for name in compared:
        addr = xllvm.AddressOfOp(name, ext.LLVMPointerType())
        same = ext.ICmpOp(ptr, addr.result, "eq")
        hit, miss = Block(), Block()
        region.insert_block_before(hit, join)
        region.insert_block_before(miss, join)
        for o in (addr, same):
            o.location = op.location
        current.add_ops([addr, same, xllvm.CondBrOp(same.res, hit, [], miss, [])])
        direct.add(_direct_call(op, name, args, hit, join))
        current = miss
    if targets.complete:
        direct.add(_direct_call(op, names[-1], args, current, join))
    else:
        op.detach()
        current.add_op(op)
        current.add_op(xllvm.BrOp(join, *op.results))
        unresolved.add(op)
        return
    op.detach()
    op.erase()


def _direct_call(op: xllvm.CallOp, name: str, args: list[SSAValue], block: Block, join: Block) -> xllvm.CallOp:
    """A copy of indirect call `op` calling @name, ending `block` with a branch to `join`."""
    props = dict(op.properties)
    props["callee"] = SymbolRefAttr(name)
    props["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [len(args), len(op.op_bundle_operands)])
    call = xllvm.CallOp.create(
        operands=[*args, *op.op_bundle_operands], result_types=[r.type for r in op.results],
        properties=props, attributes=dict(op.attributes),
    )  # fmt: skip
    call.location = op.location
    block.add_ops([call, xllvm.BrOp(join, *call.results)])
    return call


def _float_bytes_type(op: xllvm.LoadOp | ext.StoreOp, ptr: SSAValue, t: Attribute, views: Views,
                      tbaa: TBAA | None) -> Attribute | None:
    """The float type the program gave the bytes an integer access of type `t` at `ptr` touches:
    the one its TBAA tag names, else the one its bitcasts show, else the pointer's view there."""
    if not _plain_access(op) or not isinstance(t, IntegerType):
        return None
    f = (tbaa.float_type(op) if tbaa is not None else None) or _float_behind_bitcasts(op)
    if f is not None and t.width.data == size_align(f)[0] * 8:  # type: ignore[index]
        return f
    kind, f = integer_access(views.of(ptr), t)
    return f if kind == FLOAT else None


def _float_behind_bitcasts(op: xllvm.LoadOp | ext.StoreOp) -> Attribute | None:
    """The float an integer access moves when its value is a float's bits and nothing else:
    loaded only to be bitcast to that float, or bitcast from it only to be stored."""
    if isinstance(op, xllvm.LoadOp):
        users = [u.operation for u in op.results[0].uses]
        if not users or not all(isinstance(c, xllvm.BitcastOp) for c in users):
            return None
        floats = {c.results[0].type for c in users}
    else:
        src = op.value.owner
        if not isinstance(src, xllvm.BitcastOp):
            return None
        floats = {src.operands[0].type}
    f = floats.pop() if len(floats) == 1 else None
    return f if isinstance(f, AnyFloat) else None


def _plain_access(op: xllvm.LoadOp | ext.StoreOp) -> bool:
    return op.ordering.value.data == 0 and "volatile_" not in op.attributes and "volatile_" not in op.properties


def _retyped_attributes(op: Operation) -> dict[str, Attribute]:
    """Attributes for the retyped access: without TBAA, whose integer tag no longer fits."""
    return {k: v for k, v in op.attributes.items() if k != "md"}


def _retype_load(op: xllvm.LoadOp, views: Views, tbaa: TBAA | None) -> None:
    t = op.dereferenced_value.type
    f = _float_bytes_type(op, op.ptr, t, views, tbaa)
    if f is None:
        return
    load = xllvm.LoadOp.create(operands=[op.ptr], result_types=[f], properties=dict(op.properties),
                               attributes=_retyped_attributes(op))  # fmt: skip
    cast = xllvm.BitcastOp(load.dereferenced_value, t)
    load.location = cast.location = op.location
    op.parent_block().insert_ops_before([load, cast], op)  # type: ignore[union-attr]
    op.dereferenced_value.replace_all_uses_with(cast.result)
    op.detach()
    op.erase()
    for use in list(cast.result.uses):  # the integer was only on its way back to the float
        back = use.operation
        if isinstance(back, xllvm.BitcastOp) and back.results[0].type == f:
            back.results[0].replace_all_uses_with(load.dereferenced_value)
            back.detach()
            back.erase()
    if not cast.result.uses:
        cast.detach()
        cast.erase()


def _retype_store(op: ext.StoreOp, views: Views, tbaa: TBAA | None) -> None:
    v = op.value
    f = _float_bytes_type(op, op.ptr, v.type, views, tbaa)
    if f is None:
        return
    block = op.parent_block()
    assert block is not None
    src = v.owner
    if isinstance(src, xllvm.BitcastOp) and src.operands[0].type == f:
        value = src.operands[0]  # the integer was float bits loaded a moment ago
    else:
        cast = xllvm.BitcastOp(v, f)
        cast.location = op.location
        block.insert_op_before(cast, op)
        value = cast.result
    store = ext.StoreOp.create(operands=[value, op.ptr], properties=dict(op.properties),
                                 attributes=_retyped_attributes(op))  # fmt: skip
    store.location = op.location
    block.insert_op_before(store, op)
    op.detach()
    op.erase()
    if isinstance(src, xllvm.BitcastOp) and not src.result.uses:
        src.detach()
        src.erase()


# ---------------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------------


class GradientGenerator:
    """Generates (once per function and activity pattern) and calls gradient functions."""

    def __init__(self, module: ModuleOp, mincut: bool = True):
        self.module = module
        self.mincut = mincut
        self.generated: dict[tuple[str, tuple[str, ...], str], str] = {}
        self.split_generated: dict[tuple[str, tuple[str, ...], str, str], tuple[str, str]] = {}
        self.tape_sizes: dict[tuple[str, str], int] = {}
        """Bytes of the tape of each pair of split functions."""
        self.prepared: dict[str, xllvm.FuncOp] = {}
        self.hints = Hints.of(module)
        self.tbaa = TBAA(module)
        self.custom_wrappers: dict[object, str] = {}
        """Wrappers of custom gradients: augmented by function, reverse by (function, activities)."""
        self.callees: CalleeIndex | None = None
        self.unresolved_calls: set[Operation] = set()
        """Indirect calls kept beside the direct calls to their guessed candidates."""
        self.pointer_calls: set[Operation] = set()
        """Direct calls that replace indirect ones (for error messages)."""
        self.resolved_copies: dict[tuple[str, tuple[int, ...]], xllvm.FuncOp] = {}
        src = module.attributes.get("llvm.source_filename")
        self.filename = src.data if isinstance(src, StringAttr) else None

    def run(self) -> None:
        requests = [op for op in self.module.walk() if isinstance(op, (ad.AutodiffOp, *_SPLIT_REQUESTS))]
        check_split_halves([r for r in requests if isinstance(r, ad.AugmentOp | ad.ReverseOp)], self.filename)
        # Tape sizes first: they become the constants that `enzyme_allocated` sizes are checked by.
        for req in requests:
            if isinstance(req, ad.AugmentSizeOp):
                self.lower_size(req)
        for req in requests:
            if isinstance(req, ad.AutodiffOp):
                self.lower(req)
            elif isinstance(req, ad.AugmentOp):
                self.lower_augment(req)
            elif isinstance(req, ad.ReverseOp):
                self.lower_reverse(req)

    def _function(self, req: ad.AutodiffOp | ad.AugmentOp | ad.ReverseOp | ad.AugmentSizeOp) -> xllvm.FuncOp:
        name = req.callee.string_value()
        for op in self.module.ops:
            if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
                if not op.body.blocks:
                    raise XenzymeError(
                        f"cannot differentiate @{name}: only its declaration is available",
                        location_of(req, self.filename),
                        ["the function's body must be in the same module (compile it into this file)"],
                    )
                return op
        raise XenzymeError(f"cannot differentiate @{name}: no such function", location_of(req, self.filename))

    def gradient(self, fn: xllvm.FuncOp, acts: list[str], ret: str) -> str:
        key = (fn.sym_name.data, tuple(acts), ret)
        if key in self.generated:
            return self.generated[key]
        names = {op.sym_name.data for op in self.module.ops if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp)}
        base = f"diffe{fn.sym_name.data}"
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}.{n}"
        self.generated[key] = name
        (gfn,), _ = self._build(fn, acts, ret, name, split=False)
        self.module.body.block.insert_op_after(gfn, fn)
        return name

    def split_functions(self, fn: xllvm.FuncOp, acts: list[str], ret: str, tape_buffer: bool = False) -> tuple[str, str]:
        """Names of `fn`'s augmented forward and reverse functions for these activities,
        generating them the first time.  Names are fixed before the bodies are built, so a
        recursive function's halves call themselves.  With `tape_buffer` the augmented function
        takes the memory for its tape as its last argument (split-mode requests with
        `enzyme_allocated`)."""
        key = (fn.sym_name.data, tuple(acts), ret, "buffer" if tape_buffer else "split")
        if key in self.split_generated:
            return self.split_generated[key]
        names = (self._fresh_name(f"augmented_{fn.sym_name.data}"), self._fresh_name(f"reverse_{fn.sym_name.data}"))
        self.split_generated[key] = names
        funcs, builder = self._build(fn, acts, ret, names, split=True, tape_buffer=tape_buffer)
        layout = size_align(builder.tape_type) if builder.tape_type is not None and builder.all_caches else (0, 1)
        assert layout is not None
        self.tape_sizes[names] = layout[0]
        anchor: Operation = fn
        for f in funcs:
            self.module.body.block.insert_op_after(f, anchor)
            anchor = f
        return names

    def _build(self, fn: xllvm.FuncOp, acts: list[str], ret: str, name: str | tuple[str, str], split: bool,
               tape_buffer: bool = False) -> tuple[list[xllvm.FuncOp], ReverseBuilder]:
        """Build a gradient; with the minimum cut, twice: once recording which primal values
        the reverse sweep needs (callees are generated then, once), then with the caches the
        cut chooses.  Returns the functions and the builder that made them."""
        prepared = self._prepared(fn)
        plan = None
        if self.mincut:
            recorder = ReverseBuilder(self.module, prepared, acts, ret, name, self.filename, self, split,  # type: ignore[arg-type]
                                      tape_buffer=tape_buffer, mincut=True)  # fmt: skip
            recorder.build()
            plan = recorder.plan_caches()
            recorder.discard()
        builder = ReverseBuilder(self.module, prepared, acts, ret, name, self.filename, self, split,  # type: ignore[arg-type]
                                 tape_buffer=tape_buffer, mincut=self.mincut, plan=plan)  # fmt: skip
        return builder.build(), builder

    def _prepared(self, fn: xllvm.FuncOp) -> xllvm.FuncOp:
        """A copy of `fn` in the form differentiation wants (the primal stays as it is)."""
        name = fn.sym_name.data
        prepared = self.prepared.get(name)
        if prepared is None:
            prepared = self.prepared[name] = fn.clone()
            retype_float_accesses(prepared, {n: g.global_type for n, g in self._globals().items()}, self.tbaa)
            replace_reallocation(prepared, self.module)
            copy_byval_arguments(prepared)
            for op in prepared.walk():
                like = self.hints.like.get(callee_name(op) or "")
                if like is not None:
                    if math_base_name(like) is None:
                        raise XenzymeError(f"__enzyme_function_like: '{like}' (for @{callee_name(op)}) is not a "
                                           "function whose derivative xenzyme knows", location_of(op, self.filename),
                                           ["name a libm function (log1p, exp, sin, ...)"])  # fmt: skip
                    op.attributes[FUNCTION_LIKE_ATTR] = StringAttr(like)
        return prepared

    def resolved(self, prepared: xllvm.FuncOp, acts: Sequence[str], ret: str) -> xllvm.FuncOp:
        """`prepared`, or for these activities a copy in which the indirect calls that
        derivatives flow through choose among direct calls (`resolve_indirect_calls`); indirect
        calls without derivatives stay as they are."""
        ops = list(prepared.walk())
        if not any(is_indirect_call(op) for op in ops):
            return prepared
        try:
            cfg = CFG(prepared.body)
        except IrreducibleControlFlow:
            return prepared  # reported by the builder
        constant = {n for n, g in self._globals().items() if g.constant is not None}
        info = analyze_activity(cfg, list(cfg.entry.args), acts, ret, constant)
        active = tuple(i for i, op in enumerate(ops) if is_indirect_call(op)
                       and any(v in info.varied or v in info.shadowed for v in (*op.operands[1:], *op.results)))  # fmt: skip
        if not active:
            return prepared
        key = (prepared.sym_name.data, active)
        if key not in self.resolved_copies:
            copy = prepared.clone()
            calls = [op for i, op in enumerate(copy.walk()) if i in active]
            if self.callees is None:
                self.callees = CalleeIndex(self.module)
            resolve_indirect_calls(copy, calls, self.callees, self.unresolved_calls, self.pointer_calls)
            self.resolved_copies[key] = copy
        return self.resolved_copies[key]

    def function(self, name: str) -> xllvm.FuncOp | None:
        """A function of this module, defined or declared."""
        for op in self.module.ops:
            if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name:
                return op
        return None

    def custom_augment_wrapper(self, custom: CustomGradient, ftype: ext.LLVMFunctionType) -> str:
        """The user's augmented function in this pass's form: {result, tape} (or {tape}) from
        the user's {tape, result} (or tape)."""
        name = self.custom_wrappers.get(custom.function)
        if name is not None:
            return name
        name = self.custom_wrappers[custom.function] = self._fresh_name(f"augmented_{custom.function}")
        ptr = ext.LLVMPointerType()
        fields = augmented_fields(ftype, "const")
        st = ext.LLVMStructType.from_type_list(fields)
        entry = Block(arg_types=list(ftype.inputs.data))
        e = Emitter(Builder(InsertPoint.at_end(entry)), self.module)
        if len(fields) == 1:
            values = [e.insert(_call(custom.augment, list(entry.args), ptr))]
        else:
            pair = e.insert(_call(custom.augment, list(entry.args), ext.LLVMStructType.from_type_list([ptr, fields[0]])))
            values = [e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), pair, t))
                      for i, t in ((1, fields[0]), (0, ptr))]  # fmt: skip
        e.insert(xllvm.ReturnOp(_pack(e, st, values)))
        wrapper = xllvm.FuncOp(name, ext.LLVMFunctionType(list(ftype.inputs.data), st),
                               linkage=xllvm.LinkageAttr("internal"), body=Region([entry]))  # fmt: skip
        self.module.body.block.add_op(wrapper)
        return name

    def message_global(self, text: str) -> tuple[str, int]:
        """A constant string holding `text` (a message the generated code prints), and its size."""
        data = text.encode("ascii", errors="replace")[:400].decode()
        for op in self.module.ops:  # the same message once (a planning run may have made it)
            if (isinstance(op, xllvm.GlobalOp) and op.sym_name.data.startswith("xenzyme.message")
                    and isinstance(op.value, StringAttr) and op.value.data == data):  # fmt: skip
                return op.sym_name.data, len(data)
        name = self._fresh_name("xenzyme.message")
        g = xllvm.GlobalOp(ext.LLVMArrayType(len(data), i8), name, "private",
                           constant=True, value=StringAttr(data))  # fmt: skip
        self.module.body.block.add_op(g)
        return name, len(data)

    def custom_gradient_wrapper(self, custom: CustomGradient, ftype: ext.LLVMFunctionType, acts: list[str],
                                ret: str) -> str:
        """The user's gradient in this pass's form for one activity pattern: the result's adjoint
        only when the result is active (zero otherwise), the derivatives of the active
        floating-point arguments only."""
        key = (custom.function, tuple(acts), ret)
        name = self.custom_wrappers.get(key)
        if name is not None:
            return name
        name = self.custom_wrappers[key] = self._fresh_name(f"reverse_{custom.function}")
        grad = self.function(custom.gradient)
        assert grad is not None
        out = ftype.output
        params: list[Attribute] = []
        for t, a in zip(ftype.inputs.data, acts, strict=True):
            params += [t, t] if ad.has_shadow(a) else [t]
        if ret == "active":
            params.append(out)
        entry = Block(arg_types=[*params, ext.LLVMPointerType()])
        e = Emitter(Builder(InsertPoint.at_end(entry)), self.module)
        args = list(entry.args[: len(params)])
        if ad.is_float_like(out) and ret != "active":
            args.append(e.zero(out))
        args.append(entry.args[-1])
        sret = _sret_type(grad)
        rtype = grad.function_type.output
        if sret is not None:
            one = e.insert(xllvm.ConstantOp(IntegerAttr(1, i64), i64))
            slot = e.insert(xllvm.AllocaOp.create(operands=[one], result_types=[ext.LLVMPointerType()],
                                                  properties={"elem_type": sret}))  # fmt: skip
            e.insert(_call(custom.gradient, [slot, *args], None))
            fields = custom_derivative_fields(grad) or []
            derivs = [e.insert(xllvm.LoadOp(e.insert(ext.GEPOp(slot, [0, i], sret)), t)) for i, t in enumerate(fields)]
        else:
            res = e.insert(_call(custom.gradient, args, None if isinstance(rtype, ext.LLVMVoidType) else rtype))
            derivs = _unpack(e, res) if not isinstance(rtype, ext.LLVMVoidType) else []
        float_acts = [a for t, a in zip(ftype.inputs.data, acts, strict=True) if ad.is_float_like(t)]
        keep = [d for d, a in zip(derivs, float_acts, strict=True) if a == "active"]
        result = ad.derivative_result_type([d.type for d in keep])
        if result is None:
            e.insert(xllvm.ReturnOp())
        else:
            e.insert(xllvm.ReturnOp(keep[0] if len(keep) == 1 else _pack(e, result, keep)))
        wrapper = xllvm.FuncOp(name, ext.LLVMFunctionType(entry.arg_types, result or ext.LLVMVoidType()),
                               linkage=xllvm.LinkageAttr("internal"), body=Region([entry]))  # fmt: skip
        self.module.body.block.add_op(wrapper)
        return name

    def _fresh_name(self, base: str) -> str:
        taken = {op.sym_name.data for op in self.module.ops if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp)}
        taken |= {n for pair in self.split_generated.values() for n in pair} | set(self.generated.values())
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}.{n}"
        return name

    def defined_function(self, name: str) -> xllvm.FuncOp | None:
        for op in self.module.ops:
            if isinstance(op, xllvm.FuncOp) and op.sym_name.data == name and op.body.blocks:
                return op
        return None

    def _globals(self) -> dict[str, xllvm.GlobalOp]:
        return {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.GlobalOp)}

    def lower(self, req: ad.AutodiffOp) -> None:
        fn = self._function(req)
        name = self.gradient(fn, req.activities, req.ret_activity.data)
        args = list(req.args)
        block = req.parent_block()
        assert block is not None
        if req.ret_activity.data == "active":
            rt = fn.function_type.output
            one = xllvm.ConstantOp(_float_one(rt), rt)
            block.insert_op_before(one, req)
            args.append(one.result)
        call = _call(name, args, req.res.type if req.res is not None else None)
        call.location = req.location
        block.insert_op_before(call, req)
        if req.res is not None:
            req.res.replace_all_uses_with(call.results[0])
        req.detach()
        req.erase()

    # ---- split-mode requests ---------------------------------------------------------------

    def lower_size(self, req: ad.AugmentSizeOp) -> None:
        """`__enzyme_augmentsize`: the bytes of the tape that a `buffer` augment writes."""
        fn = self._function(req)
        names = self.split_functions(fn, req.activities, req.ret_activity.data, tape_buffer=True)
        c = xllvm.ConstantOp(IntegerAttr(self.tape_sizes[names], req.res.type), req.res.type)
        _replace(req, [c], c.result)

    def _split_names(self, req: ad.AugmentOp | ad.ReverseOp) -> tuple[str, str]:
        """The split functions a request calls; for a tape in the caller's memory, checked to
        fit in the size given with `enzyme_allocated`."""
        fn = self._function(req)
        buffer = req.tape_kind.data == "buffer"
        names = self.split_functions(fn, req.activities, req.ret_activity.data, tape_buffer=buffer)
        if buffer:
            assert req.size is not None
            have, need = _static_int(req.size), self.tape_sizes[names]
            entry = "__enzyme_augmentfwd" if isinstance(req, ad.AugmentOp) else "__enzyme_reverse"
            if have is None:
                raise XenzymeError(f"invalid {entry} call: the size after enzyme_allocated must be a compile-time constant",
                                   location_of(req, self.filename),
                                   [f"the tape of @{fn.sym_name.data} takes {need} bytes; write that constant, or use "
                                    "__enzyme_augmentsize with the same activities"])  # fmt: skip
            if have < need:
                raise XenzymeError(f"invalid {entry} call: the tape of @{fn.sym_name.data} needs {need} bytes, "
                                   f"enzyme_allocated gives {have}", location_of(req, self.filename),
                                   ["allocate __enzyme_augmentsize((void *)f, <the same activity markers>) bytes "
                                    "and pass that size"])  # fmt: skip
        return names

    def lower_augment(self, req: ad.AugmentOp) -> None:
        """Call the augmented forward function; the tape goes where the request says."""
        fn = self._function(req)
        aug, _ = self._split_names(req)
        kind = req.tape_kind.data
        args = list(req.args) + ([req.tape] if kind == "buffer" else [])  # type: ignore[list-item]
        fields = augmented_fields(fn.function_type, req.ret_activity.data)
        st = ext.LLVMStructType.from_type_list(fields)
        call = _call(aug, args, st)
        call.location = req.location
        ops: list[Operation] = [call]
        parts = [xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call.results[0], t) for k, t in enumerate(fields)]
        ops += parts
        tape, values = parts[-1].res, [p.res for p in parts[:-1]]
        if kind == "slot":
            assert req.tape is not None
            ops.append(ext.StoreOp(tape, req.tape))
        result: SSAValue | None = None
        if req.res is not None:
            values = [tape, *values] if kind == "value" else values
            if req.res.type == tape.type and kind == "value" and len(values) == 1:
                result = tape
            else:
                acc: Operation = xllvm.UndefOp(req.res.type)
                ops.append(acc)
                for k, v in enumerate(values):
                    acc = xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [k]), acc.results[0], v)
                    ops.append(acc)
                result = acc.results[0]
        _replace(req, ops, result)

    def lower_reverse(self, req: ad.ReverseOp) -> None:
        """Call the reverse function with the tape, read from where the augment put it."""
        _, rev = self._split_names(req)
        assert req.tape is not None
        ops: list[Operation] = []
        tape = req.tape
        if req.tape_kind.data == "slot":
            load = xllvm.LoadOp(req.tape, ext.LLVMPointerType())
            ops.append(load)
            tape = load.dereferenced_value
        args = list(req.args) + ([req.seed] if req.seed is not None else []) + [tape]
        call = _call(rev, args, req.res.type if req.res is not None else None)
        call.location = req.location
        ops.append(call)
        _replace(req, ops, call.results[0] if req.res is not None else None)


_SPLIT_REQUESTS = (ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp)


def _replace(req: Operation, ops: list[Operation], result: SSAValue | None) -> None:
    """Put `ops` where the request is, its result replaced by `result`, and erase it."""
    block = req.parent_block()
    assert block is not None
    block.insert_ops_before(ops, req)
    if req.results and result is not None:
        req.results[0].replace_all_uses_with(result)
    req.detach()
    req.erase()


def _static_int(v: SSAValue) -> int | None:
    """The integer constant `v` is, through integer casts."""
    while isinstance(v.owner, xllvm.ZExtOp | xllvm.SExtOp | xllvm.TruncOp):
        v = v.owner.operands[0]
    op = v.owner
    if isinstance(op, xllvm.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def check_split_halves(requests: Sequence[ad.AugmentOp | ad.ReverseOp], filename: str | None) -> None:
    """A reverse whose tape visibly comes from an augment (its result, or the same slot or
    buffer) must be of the same function with the same activities: the tape of one activity
    pattern means nothing to the reverse function of another."""
    augments = [r for r in requests if isinstance(r, ad.AugmentOp)]
    for rev in requests:
        if not isinstance(rev, ad.ReverseOp) or rev.tape is None:
            continue
        sources = [a for a in augments if _tape_source(a, rev)]
        same = [a for a in sources if _signature(a) == _signature(rev)]
        if not sources or same:
            continue
        aug = sources[0]
        what = ("function" if aug.callee != rev.callee
                else "activities" if _signature(aug)[:3] != _signature(rev)[:3] else "kind of tape")  # fmt: skip
        raise XenzymeError(
            f"invalid __enzyme_reverse call: its tape comes from an __enzyme_augmentfwd call that differs in its {what} "
            f"(augmented: {_describe(aug)}; reversed: {_describe(rev)})",
            location_of(rev, filename),
            ["give __enzyme_reverse the same function, activity markers and enzyme_allocated as the "
             "__enzyme_augmentfwd call that made the tape"],
        )


def _signature(req: ad.AugmentOp | ad.ReverseOp) -> tuple[object, ...]:
    kind = req.tape_kind.data
    return (req.callee, tuple(req.activities), req.ret_activity.data, kind == "buffer")


def _describe(req: ad.AugmentOp | ad.ReverseOp) -> str:
    where = {"value": "", "slot": ", tape through enzyme_tape", "buffer": ", tape in an enzyme_allocated buffer"}
    return f"@{req.callee.string_value()} [{', '.join(req.activities)}]{where[req.tape_kind.data]}"


def _tape_source(aug: ad.AugmentOp, rev: ad.ReverseOp) -> bool:
    """Whether `rev`'s tape visibly is the one `aug` made."""
    t = rev.tape
    assert t is not None
    if aug.tape is not None:
        return t is aug.tape
    if aug.res is None:
        return False
    if t is aug.res:
        return True
    op = t.owner
    return isinstance(op, xllvm.ExtractValueOp) and op.container is aug.res and tuple(op.position.get_values()) == (0,)


def _holds_pointer(t: Attribute) -> bool:
    """Whether an aggregate has a pointer among its members."""
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
        return any(_holds_pointer(m) for m in t.types.data)
    if isinstance(t, ext.LLVMArrayType):
        return _holds_pointer(t.type)
    return is_pointer_like(t)


def _sret_type(fn: xllvm.FuncOp) -> Attribute | None:
    """The struct a function returns through its first parameter (`sret`), if it does."""
    attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
    first = attrs[0] if attrs else None
    return first.data.get("llvm.sret") if isinstance(first, DictionaryAttr) else None


def custom_derivative_fields(fn: xllvm.FuncOp) -> list[Attribute] | None:
    """The derivatives a user's gradient function returns, as the C ABI passes a struct of
    them: nothing, one value, a struct in registers ({double, double}, <2 x float>), or a
    struct written through `sret`.  None: something else."""
    t = _sret_type(fn) or fn.function_type.output
    if isinstance(t, ext.LLVMVoidType):
        return []
    if _scalar(t) and ad.is_float_like(t):
        return [t]
    if isinstance(t, VectorType) and len(t.get_shape()) == 1:
        return [t.element_type] * t.get_shape()[0]
    if isinstance(t, ext.LLVMStructType) and all(ad.is_float_like(f) and _scalar(f) for f in t.types.data):
        return list(t.types.data)
    return None


def _unpack(e: Emitter, v: SSAValue) -> list[SSAValue]:
    """The fields of a value holding derivatives (see `custom_derivative_fields`)."""
    t = v.type
    if isinstance(t, VectorType):
        return [e.insert(ext.ExtractElementOp(v, i64_const(e, i))) for i in range(t.get_shape()[0])]
    if isinstance(t, ext.LLVMStructType):
        return [e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), v, f))
                for i, f in enumerate(t.types.data)]  # fmt: skip
    return [v]


def _pack(e: Emitter, st: Attribute, values: Sequence[SSAValue]) -> SSAValue:
    """A literal struct of `values`."""
    out: SSAValue = e.insert(xllvm.UndefOp(st))
    for i, v in enumerate(values):
        out = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), out, v))
    return out


def _c_type(t: Attribute) -> str:
    """How C spells a scalar type, for messages."""
    from xdsl.dialects.builtin import Float32Type, Float64Type

    if isinstance(t, Float64Type):
        return "double"
    if isinstance(t, Float32Type):
        return "float"
    return str(t)


def _float_one(t: Attribute) -> Attribute:
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FloatAttr, VectorType

    if isinstance(t, VectorType):
        return DenseIntOrFPElementsAttr.from_list(t, [1.0])
    return FloatAttr(1.0, t)  # type: ignore[arg-type]


@dataclass(frozen=True)
class ReverseDiffPass(ModulePass):
    """Replace each `autodiff.autodiff` by a call to a generated gradient function.

    `mincut=false` caches each needed value that cannot be recomputed, as it is (no minimum
    cut, no loop-invariant caches): for comparison, or as an escape hatch."""

    name = "reverse-diff"

    mincut: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        GradientGenerator(op, self.mincut).run()

