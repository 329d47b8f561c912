"""`reverse-diff`: generate gradient functions for `autodiff.autodiff` requests.

For `%g = autodiff.autodiff @f(...)` the pass builds `@diffef` -- forward sweep and reverse
sweep in one function, as Enzyme's combined mode does -- and replaces the request by a call:

    llvm.func @f(%x: f64) -> f64 { ... }
    %g = autodiff.autodiff @f(%x) activity [active] ret active : (f64) -> f64
      ==>
    llvm.func internal @diffef(%x: f64, %seed: f64) -> f64 { forward ; reverse }
    %g = llvm.call @diffef(%x, %one) : (f64, f64) -> f64

Split-mode requests (`autodiff.augment` / `autodiff.reverse` / `autodiff.augmentsize`, from
`__enzyme_augmentfwd` and friends) call the function's augmented forward and reverse functions,
joined by a tape held where the request says (returned, in a slot, or in the caller's buffer).

This file is the driver: which requests, in what order, and the calls that replace them.  How a
gradient is built is `xenzyme.transforms.diff` (the sweeps, the cache policy, calls, the tape),
and what each op contributes is its rule in `xenzyme.rules`.  `reverse-diff{mincut=false}`
caches each needed value that cannot be recomputed, as it is (no minimum cut).

Structured input (func/arith/math/scf/memref) is differentiated at its own level where every
op of the functions differentiated has a structured rule (xenzyme/transforms/diff/structured.py):
the result is structured IR, an scf.for reversed as an scf.for.  Otherwise the module is
lowered to llvm first (`lower-structured`) and differentiated there.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from xenzyme.analysis.alias import FORGET_FREED, NOTE_FREED, RELEASE_SHADOW
from xenzyme.analysis.callgraph import reachable
from xenzyme.analysis.divergence import Divergence
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import call_op, scalar_constant
from xenzyme.transforms.diff.errors import location_of
from xenzyme.transforms.diff.generator import GradientGenerator, drop_shadow_releases
from xenzyme.transforms.diff.structured import differentiate_requests
from xenzyme.transforms.diff.tape import augmented_fields
from xenzyme.transforms.lower_structured import LowerStructuredPass, is_structured
from xenzyme.transforms.runtime_ir import link_runtime

SHADOW_RUNTIME = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shadow_runtime.ll")


class ReverseDiff:
    """Lowers the reverse-mode requests of a module to calls of generated functions."""

    def __init__(self, module: ModuleOp, mincut: bool = True):
        self.module = module
        self.gen = GradientGenerator(module, mincut)
        self.filename = self.gen.filename
        self.gradient_calls: list[Operation] = []
        """The calls that replaced combined and reverse requests: a gradient ends at each."""

    def run(self, ready_only: bool = False) -> bool:
        """Lower the requests (with `ready_only`, those whose functions reach no other request:
        see `ready_requests`); whether requests are left."""
        requests = [op for op in self.module.walk() if isinstance(op, (ad.AutodiffOp, *_SPLIT_REQUESTS))]
        if ready_only:
            ready = ready_requests(self.module, requests)
            if ready:  # (none ready: a cycle, or a forward request inside; lowering them all reports it)
                left = len(requests) - len(ready)
                requests = ready
                self._lower_all(requests)
                self._forget_freed_shadows()
                return left > 0
        self._lower_all(requests)
        self._forget_freed_shadows()
        return False

    def _forget_freed_shadows(self) -> None:
        """Where the gradients note the shadows of memory they free (`NOTE_FREED`), link the
        runtime set that holds them and empty it after each gradient call: what the caller
        owns may be freed after the call, and its address reused."""
        declared = {o.sym_name.data for o in self.module.ops if isinstance(o, xllvm.FuncOp)}
        if NOTE_FREED not in declared:
            if RELEASE_SHADOW in declared:  # (nothing is ever noted: the releases find nothing)
                drop_shadow_releases([o for o in self.module.ops if isinstance(o, xllvm.FuncOp)])
            return
        link_runtime(self.module, SHADOW_RUNTIME, NOTE_FREED)
        for call in self.gradient_calls:
            block = call.parent_block()
            if block is not None:
                block.insert_op_after(call_op(FORGET_FREED, [], None), call)

    def _lower_all(self, requests: list[Operation]) -> None:
        check_split_halves([r for r in requests if isinstance(r, ad.AugmentOp | ad.ReverseOp)], self.filename)
        # Tape sizes first: they become the constants that `enzyme_allocated` sizes are checked by.
        if self.gen.device:
            self.device_arguments([r for r in requests if isinstance(r, ad.AutodiffOp)])
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

    def device_arguments(self, requests: list[ad.AutodiffOp]) -> None:
        """GPU code: which parameters of each differentiated function get values that vary
        between the threads of a block, or across the grid, at some request -- a request in a
        kernel passes what the kernel's divergence analysis says; elsewhere, anything."""
        analyses: dict[Operation, tuple[Divergence, Divergence] | None] = {}
        for req in requests:
            container = req.parent_op()
            while container is not None and not isinstance(container, xllvm.FuncOp):
                container = container.parent_op()
            if container not in analyses:
                analyses[container] = (
                    (Divergence.of(container, self.module), Divergence.of(container, self.module, across_blocks=True))
                    if isinstance(container, xllvm.FuncOp) and gpu.is_kernel(container) else None
                )  # fmt: skip
            found = analyses[container]
            pairs = req.primal_and_shadow_args()
            every = set(range(len(pairs)))
            in_block, in_grid = self.gen.device_varying.setdefault(req.callee.string_value(), (set(), set()))
            if found is None:
                in_block |= every
                in_grid |= every
                continue
            for i, (v, sh) in enumerate(pairs):
                if any(found[0].varies(x) for x in (v, sh) if x is not None):
                    in_block.add(i)
                if any(found[1].varies(x) for x in (v, sh) if x is not None):
                    in_grid.add(i)

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

    def lower(self, req: ad.AutodiffOp) -> None:
        fn = self._function(req)
        name = self.gen.gradient(fn, req.activities, req.ret_activity.data)
        args = list(req.args)
        block = req.parent_block()
        assert block is not None
        if req.ret_activity.data == "active":
            rt = fn.function_type.output
            one = scalar_constant(1.0, rt)
            block.insert_op_before(one, req)
            args.append(one.result)
        call = call_op(name, args, req.res.type if req.res is not None else None)
        call.location = req.location
        block.insert_op_before(call, req)
        self.gradient_calls.append(call)
        self.gen.symbols.clear_global_shadows(call)
        if req.res is not None:
            req.res.replace_all_uses_with(call.results[0])
        req.detach()
        req.erase()

    # ---- split-mode requests ---------------------------------------------------------------

    def lower_size(self, req: ad.AugmentSizeOp) -> None:
        """`__enzyme_augmentsize`: the bytes of the tape that a `buffer` augment writes."""
        fn = self._function(req)
        names = self.gen.split_functions(fn, req.activities, req.ret_activity.data, tape_buffer=True)
        c = xllvm.ConstantOp(IntegerAttr(self.gen.tape_sizes[names], req.res.type), req.res.type)
        _replace(req, [c], c.result)

    def _split_names(self, req: ad.AugmentOp | ad.ReverseOp) -> tuple[str, str]:
        """The split functions a request calls; for a tape in the caller's memory, checked to
        fit in the size given with `enzyme_allocated`."""
        fn = self._function(req)
        buffer = req.tape_kind.data == "buffer"
        names = self.gen.split_functions(fn, req.activities, req.ret_activity.data, tape_buffer=buffer)
        if buffer:
            assert req.size is not None
            have, need = _static_int(req.size), self.gen.tape_sizes[names]
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
        call = call_op(aug, args, st)
        call.location = req.location
        ops: list[Operation] = [call]
        clear_before = call
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
        self.gen.symbols.clear_global_shadows(clear_before)

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
        call = call_op(rev, args, req.res.type if req.res is not None else None)
        call.location = req.location
        ops.append(call)
        self.gradient_calls.append(call)
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


def ready_requests(module: ModuleOp, requests: Sequence[Operation]) -> list[Operation]:
    """The requests whose function reaches, by direct calls, no function that holds a request
    of either mode itself: their derivatives can be built now.  A function that calls
    `__enzyme_autodiff` is differentiated (reverse over reverse: second derivatives) once that
    inner request is a call of a gradient function in plain LLVM ops."""
    holders = {op.parent_op() for op in module.walk() if isinstance(op, (ad.AutodiffOp, ad.FwdDiffOp, *_SPLIT_REQUESTS))}
    names = {fn.sym_name.data for fn in holders if isinstance(fn, xllvm.FuncOp)}
    ready = []
    for req in requests:
        callee = req.callee.string_value()  # type: ignore[attr-defined]
        if not any(fn.sym_name.data in names for fn in reachable(module, [callee])):
            ready.append(req)
    return ready


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


@dataclass(frozen=True)
class ReverseDiffPass(ModulePass):
    """Replace each `autodiff.autodiff` by a call to a generated gradient function.

    `mincut=false` caches each needed value that cannot be recomputed, as it is (no minimum
    cut, no loop-invariant caches): for comparison, or as an escape hatch.  `ready-only`
    lowers only the requests whose functions hold no request themselves (one round of
    reverse over reverse; the `enzyme` pipeline repeats it, lowering in between)."""

    name = "reverse-diff"

    mincut: bool = True
    ready_only: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if is_structured(op):  # differentiated where it is written, or else lowered to llvm first
            if not differentiate_requests(op, self.mincut):
                return
            LowerStructuredPass().apply(ctx, op)
        ReverseDiff(op, self.mincut).run(self.ready_only)

