"""Calls of functions the engine differentiates, in reverse mode.

A call whose callee is defined in the module (or has the user's custom gradient) and that
derivatives flow through is split like the gradient of the caller: in the forward sweep it
becomes a call of the callee's augmented forward function, which returns the primal result and
a tape; in the reverse sweep a call of its reverse function, given the tape (cached), the
shadows and the result's adjoint, which returns the derivatives of the active arguments.  The
activities of the callee follow from the call's arguments (`CallPlan`); each pattern's two
functions are generated once (`GradientGenerator.split_functions`).

A custom gradient registered in Enzyme's C convention (`__enzyme_register_gradient_NAME`) is
checked against the call here and wrapped into the same two-function form.  An indirect call
left for pointers to none of its guessed candidates (`indirect_calls.py`) stops the program,
with a message, when derivatives reach it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, DictionaryAttr, IntegerType, VectorType, i64
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.analysis.activity import carries_derivative, is_pointer_like
from xenzyme.analysis.alias import DEALLOCATORS, KEEP_SHADOW, allocation_escapes, allocator_of, callee_name, pointer_roots
from xenzyme.analysis.hints import CustomGradient
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, call_op
from xenzyme.transforms.diff.errors import location_of
from xenzyme.transforms.diff.indirect_calls import stop_at_unresolved_call
from xenzyme.transforms.diff.tape import augmented_fields

if TYPE_CHECKING:
    from xenzyme.transforms.diff.builder import GradientBuilder


@dataclass
class CallPlan:
    """How a call to a differentiated function is split: activities, and the two halves."""

    activities: list[str]
    ret_activity: str
    augmented: str
    reverse: str


class ReverseCalls:
    """The calls of one gradient that go to differentiated functions (`ctx.calls` of rules)."""

    def __init__(self, g: GradientBuilder):
        self.g = g
        self.plans: dict[Operation, CallPlan] = {}
        self.trapped_calls: set[Operation] = set()

    def callee(self, op: Operation) -> xllvm.FuncOp | None:
        """The function a direct call calls: defined here, or given a custom gradient."""
        g = self.g
        if not isinstance(op, xllvm.CallOp) or op.callee is None or g.generator is None:
            return None
        name = op.callee.string_value()
        if name in g.hints.gradients:
            return g.generator.symbols.function(name)
        return g.generator.symbols.defined_function(name)

    def planned(self, op: Operation) -> bool:
        """Whether the forward sweep made `op` a call of an augmented function."""
        return op in self.plans

    def trapped(self, op: Operation) -> bool:
        """Whether the forward sweep stops the program at `op`."""
        return op in self.trapped_calls

    def unresolved(self, op: Operation) -> bool:
        """An indirect call kept for pointers to none of its guessed candidates."""
        gen = self.g.generator
        return gen is not None and op in gen.unresolved_calls

    def team_split(self, fn: xllvm.FuncOp, acts: list[str]) -> tuple[str, str]:
        """The augmented and reverse functions of `fn`, run by every thread of a team (the body
        of a parallel region): they take the team's memory after their arguments."""
        g = self.g
        assert g.generator is not None
        return g.generator.split_functions(fn, acts, "none", team=True)

    def function(self, name: str) -> xllvm.FuncOp | None:
        g = self.g
        return g.generator.symbols.function(name) if g.generator is not None else g.functions.get(name)

    def through_pointer(self, op: Operation) -> bool:
        """A direct call that replaced a call through a function pointer."""
        gen = self.g.generator
        return gen is not None and op in gen.pointer_calls

    def _plan(self, op: xllvm.CallOp, fn: xllvm.FuncOp) -> CallPlan:
        """The activities of a call's arguments and result.  An aggregate of floats passed or
        returned by value ({double, double} in registers) is `active` like a float: the
        reverse function returns its adjoint, or takes the result's as an aggregate."""
        g = self.g
        info = g.info
        if fn.function_type.is_variadic or len(op.args) != len(fn.function_type.inputs.data):
            g.fail(op, f"the call to @{fn.sym_name.data} carries derivatives, and @{fn.sym_name.data} is variadic "
                       "(takes `...`): its variable arguments cannot be differentiated",
                   ["pass the values in an array"])  # fmt: skip
        acts: list[str] = []
        for o in op.args:
            if ad.is_float_like(o.type):
                acts.append("active" if info.is_active(o) else "const")
            elif is_pointer_like(o.type) and not isinstance(o.type, VectorType):
                acts.append("dup" if o in info.shadowed else "const")
            elif (o in info.shadowed or o in info.varied) and _holds_pointer(o.type):
                g.fail(op, f"@{fn.sym_name.data} takes by value an aggregate that holds a pointer and carries derivatives, "
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
                g.fail(op, f"@{fn.sym_name.data} returns an aggregate that holds a pointer and carries derivatives, "
                              "which is not supported yet",
                          ["return it through a pointer argument"])  # fmt: skip
            elif carries_derivative(r.type):
                ret = "active" if info.is_active(r) else "const"
            else:
                ret = "const"
        assert g.generator is not None
        custom = g.hints.gradients.get(fn.sym_name.data)
        if custom is not None:
            return CallPlan(acts, ret, *self._custom_augment(op, fn, acts, ret, custom))
        aug, rev = g.generator.split_functions(fn, acts, ret, team=g.team)
        return CallPlan(acts, ret, aug, rev)

    def _custom_augment(self, op: xllvm.CallOp, fn: xllvm.FuncOp, acts: list[str], ret: str,
                        custom: CustomGradient) -> tuple[str, str]:
        """Check a call against the user's custom gradient in Enzyme's C convention and name its
        two halves in this pass's form.  The user's functions take every argument, each pointer
        followed by its shadow; the augmented one returns the tape (void function) or the struct
        {tape, result}; the gradient takes, after those, the result's adjoint (a floating-point
        result) and the tape, and returns the derivatives of the floating-point arguments: one
        value, or a struct of them in order."""
        g = self.g
        name = fn.sym_name.data
        where = f"the custom gradient of @{name} ({custom.declared_in})"
        out = fn.function_type.output
        if not (isinstance(out, ext.LLVMVoidType) or _scalar(out)):
            g.fail(op, f"{where}: @{name} returns {out}; custom gradients are supported for functions returning "
                          "void or a scalar (double, float, an integer)",
                      ["return the result through a pointer argument"])  # fmt: skip
        for i, (o, a) in enumerate(zip(op.args, acts, strict=True)):
            if is_pointer_like(o.type) and a != "dup":
                g.fail(op, f"{where} takes a shadow for every pointer argument, but argument {i} has none here "
                              "(nothing active flows through it)",
                          [f"pass the memory of argument {i} with a shadow (enzyme_dup) where the gradient is requested"])  # fmt: skip
        n = len(op.args) + acts.count("dup")
        shape = "each argument, pointers followed by their shadows"
        returns_float = ad.is_float_like(out)
        aug = self._custom_function(op, where, custom.augment, n, f"({shape})")
        ptr = ext.LLVMPointerType()
        want_aug = ptr if isinstance(out, ext.LLVMVoidType) else ext.LLVMStructType.from_type_list([ptr, out])
        if aug.function_type.output != want_aug:
            g.fail(op, f"{where}: @{custom.augment} returns {aug.function_type.output}; it must return "
                          + ("the tape, a pointer (void *)" if want_aug == ptr else
                             f"a struct {{void *tape; {_c_type(out)} result;}} ({want_aug})"))  # fmt: skip
        grad = g.generator.symbols.function(custom.gradient)  # type: ignore[union-attr]
        sret = 1 if grad is not None and _sret_type(grad) is not None else 0
        tail = (", then the result's adjoint" if returns_float else "") + ", then the tape"
        grad = self._custom_function(op, where, custom.gradient, n + returns_float + 1 + sret, f"({shape}{tail})")
        floats = [o.type for o in op.args if ad.is_float_like(o.type)]
        if custom_derivative_fields(grad) != floats:
            kinds = ", ".join(_c_type(t) for t in floats)
            what = ("return void: it has no floating-point argument to return a derivative for" if not floats else
                    f"return the derivative of @{name}'s floating-point argument (a {kinds})" if len(floats) == 1 else
                    f"return the derivatives of @{name}'s floating-point arguments, a struct of {len(floats)} ({kinds}) in order")  # fmt: skip
            g.fail(op, f"{where}: @{custom.gradient} must {what}",
                      [f"it returns {grad.function_type.output}" + (" through its sret argument" if sret else "")])  # fmt: skip
        gen = g.generator
        assert gen is not None
        ftype = fn.function_type
        return gen.custom_augment_wrapper(custom, ftype), gen.custom_gradient_wrapper(custom, ftype, acts, ret)

    def _custom_function(self, op: Operation, where: str, fname: str, arity: int, shape: str) -> xllvm.FuncOp:
        """One of the user's halves of a custom gradient, with the number of parameters it must take."""
        g = self.g
        f = g.generator.symbols.function(fname) if g.generator is not None else None
        if f is None or len(f.function_type.inputs.data) != arity:
            got = "is not a function of this module" if f is None else f"takes {len(f.function_type.inputs.data)} arguments"
            g.fail(op, f"{where}: @{fname} {got}; it must take {arity} {shape}")
        return f

    def augment(self, op: Operation) -> None:
        """The call of a differentiated function in the forward sweep: its augmented forward
        function, whose tape is cached for the reverse sweep."""
        g = self.g
        assert isinstance(op, xllvm.CallOp)
        fn = self.callee(op)
        assert fn is not None
        try:
            plan = self.plans[op] = self._plan(op, fn)
        except XenzymeError as exc:
            if g.generator is None or op not in g.generator.pointer_calls:
                raise
            loc = location_of(op, g.filename)
            exc.notes = [*exc.notes, f"@{fn.sym_name.data} is differentiated as a function that the function pointer "
                                     f"called in @{g.fname}" + (f" ({loc})" if loc else "") + " may point to"]  # fmt: skip
            raise
        e = g.e
        args: list[SSAValue] = []
        for o, a in zip(op.args, plan.activities, strict=True):
            args.append(g.values[o])
            if ad.has_shadow(a):
                args.append(g.fwd_shadow(o))
        if g.team and g.hints.gradients.get(fn.sym_name.data) is None:
            args.append(g.f_team_memory)  # type: ignore[arg-type]
        fields = augmented_fields(fn.function_type, plan.ret_activity)
        call = e.insert(call_op(plan.augmented, args, ext.LLVMStructType.from_type_list(fields)))
        call.owner.location = op.location  # type: ignore[union-attr]
        k = 0
        if op.returned is not None:
            g.values[op.returned] = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [0]), call, fields[0]))
            k = 1
            if plan.ret_activity == "dup":
                g.shadows[op.returned] = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [1]), call, fields[1]))
                k = 2
        tape = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call, fields[k]))
        tape.name_hint = f"tape_{fn.sym_name.data}"
        block = op.parent_block()
        assert block is not None
        g.caching.register(("tape", op), tape, block)

    def reverse(self, op: Operation) -> None:
        """The reverse of a differentiated call: its reverse function, given the tape."""
        g = self.g
        assert isinstance(op, xllvm.CallOp)
        plan = self.plans[op]
        e = g.e
        args: list[SSAValue] = []
        actives: list[SSAValue] = []
        for o, a in zip(op.args, plan.activities, strict=True):
            args.append(g.get(o))
            if ad.has_shadow(a):
                args.append(g.shadow(o))
            if a == "active":
                actives.append(o)
        if plan.ret_activity == "active":
            r = op.returned
            assert r is not None
            args.append(g.adjoint(r) or e.zero(r.type))
        if g.team and g.hints.gradients.get(plan_callee(op)) is None:
            args.append(g.team_memory_here())  # type: ignore[arg-type]
        args.append(g.caching.peek(("tape", op)))
        freed_after = self._returned_shadow_deallocator(op) if plan.ret_activity == "dup" else None
        if freed_after is not None:  # (so the callee's reverse does not give it back too: NOTE_FREED)
            e.declare(KEEP_SHADOW, [ext.LLVMPointerType()])
            e.call_function(KEEP_SHADOW, [g.shadow(op.returned)])  # type: ignore[arg-type]
        rtype = ad.derivative_result_type([o.type for o in actives])
        res = e.insert(call_op(plan.reverse, args, rtype))
        if rtype is not None:
            res.owner.location = op.location  # type: ignore[union-attr]
        if len(actives) == 1:
            g.accumulate(actives[0], res)
        else:
            for i, o in enumerate(actives):
                g.accumulate(o, e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), res, o.type)))
        if freed_after is not None:
            e.declare(freed_after, [ext.LLVMPointerType()])
            e.call_function(freed_after, [g.shadow(op.returned)])  # type: ignore[arg-type]

    def fresh_memory_release(self) -> str | None:
        """The deallocator of the memory this function returns, when every pointer it returns
        is heap memory allocated during the call (by an allocator here, or by a differentiated
        callee that returns such memory) and one deallocator taking only the pointer gives it
        all back; None otherwise.  The shadow returned is then fresh memory from the same
        allocator, which the caller's derivative frees (`_returned_shadow_deallocator`)."""
        g = self.g
        gen = g.generator
        if gen is None or not g.ret_blocks:
            return None
        found: set[str] = set()
        for b in g.ret_blocks:
            ret = b.last_op
            assert isinstance(ret, xllvm.ReturnOp)
            if ret.arg is None or not is_pointer_like(ret.arg.type):
                return None
            roots = pointer_roots(ret.arg, g.cfg)
            if not roots:
                return None
            for root in roots:
                call = root.owner
                if isinstance(call, xllvm.ZeroOp) or call in self.trapped_calls:
                    continue  # (null, or a call that stops the program)
                plan = self.plans.get(call) if isinstance(call, Operation) else None
                if plan is not None and (plan.augmented, plan.reverse) in gen.fresh_returns:
                    found.add(gen.fresh_returns[(plan.augmented, plan.reverse)])
                    continue
                alloc = allocator_of(call) if isinstance(call, xllvm.CallOp) else None
                if alloc is None or alloc.dealloc_args != (-1,):
                    return None
                found.add(alloc.deallocator)
        return found.pop() if len(found) == 1 else None

    def _returned_shadow_deallocator(self, op: xllvm.CallOp) -> str | None:
        """Fresh memory a callee returns whose address does not outlive this function: its
        shadow, made by the callee, ends after the callee's reverse, given to the function this
        returns.  The memory is known to be fresh from how the callee makes it
        (`fresh_memory_release`), or from its `noalias` result where this function frees it."""
        g = self.g
        fn = self.callee(op)
        r = op.returned
        plan = self.plans[op]
        gen = g.generator
        release = gen.fresh_returns.get((plan.augmented, plan.reverse)) if gen is not None else None
        if r is not None and release is not None:
            return None if allocation_escapes(r, g.cfg, g.functions) else release
        res_attrs = fn.res_attrs.data if fn is not None and fn.res_attrs is not None else ()
        if r is None or not any("llvm.noalias" in d.data for d in res_attrs if isinstance(d, DictionaryAttr)):
            return None
        frees = {callee_name(o) for b in g.cfg.rpo for o in b.ops
                 if callee_name(o) in DEALLOCATORS and r in pointer_roots(o.operands[0], g.cfg)}  # fmt: skip
        if len(frees) != 1 or allocation_escapes(r, g.cfg, g.functions):
            return None
        (name,) = frees
        if name not in ("free", "_ZdlPv", "_ZdaPv"):
            return None  # (sized and aligned deletes need arguments the reverse sweep lacks)
        return name

    def trap(self, op: Operation) -> None:
        """Stop the program with a message at an unresolved indirect call."""
        g = self.g
        e = g.e
        assert g.generator is not None
        stop_at_unresolved_call(e, g.generator.symbols, op, g.fname, g.filename)
        for r in op.results:
            g.values[r] = e.insert(xllvm.UndefOp(r.type))
            if r in g.info.shadowed:
                g.shadows[r] = g.values[r]
        self.trapped_calls.add(op)


def plan_callee(op: Operation) -> str:
    assert isinstance(op, xllvm.CallOp) and op.callee is not None
    return op.callee.string_value()


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


def _unpack(e: LLVMEmitter, v: SSAValue) -> list[SSAValue]:
    """The fields of a value holding derivatives (see `custom_derivative_fields`)."""
    t = v.type
    if isinstance(t, VectorType):
        return [e.insert(ext.ExtractElementOp(v, e.i64(i))) for i in range(t.get_shape()[0])]
    if isinstance(t, ext.LLVMStructType):
        return [e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), v, f))
                for i, f in enumerate(t.types.data)]  # fmt: skip
    return [v]


def _pack(e: LLVMEmitter, st: Attribute, values: Sequence[SSAValue]) -> SSAValue:
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


def _scalar(t: Attribute) -> bool:
    from xdsl.dialects.builtin import AnyFloat

    return isinstance(t, AnyFloat | IntegerType)
