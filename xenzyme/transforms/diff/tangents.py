"""Forward mode: tangent functions, one per function, activity pattern and width.

The tangent function is a copy of the primal in which every value with a tangent (activity:
`xenzyme.analysis.forward_activity`) has its tangent computed right after it, by its op's rule
(`OpRule.tangent`, `xenzyme.rules`): no reverse sweep and no caches.  In vector mode each value
has N tangents, one SSA value per direction: the rules compute what the directions share
(partial derivatives) once and the rest per direction, and LLVM's vectorisers pack the
directions into SIMD registers where that pays.

* Block arguments (phis) get tangent block arguments; edges pass the incoming tangents.
* Pointers to memory holding varied data have shadow pointers (N in vector mode), built by the
  memory rules: shadow stack slots and heap blocks (zeroed), shadow globals, loads and stores
  of tangents beside the primal's.
* Calls: math functions through their rules; functions defined in the module through their
  tangent functions (generated on demand, named before their bodies are built, so recursion
  works); functions with the user's derivative (`__enzyme_register_derivative_NAME`) through it.
  Calls through function pointers that tangents flow through choose among direct calls to the
  functions the pointer may hold, as in reverse mode (`resolve_indirect_calls`).
* The result: the tangent(s) of the return value (`dupnoneed`), the primal and its tangents
  (`dup`, used for calls between tangent functions), or the primal alone (`const`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, ModuleOp, VectorType, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.activity import is_pointer_like
from xenzyme.analysis.alias import MERGED_WITH_CONSTANT, callee_name
from xenzyme.analysis.callees import CalleeIndex, is_indirect_call
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.analysis.forward_activity import ForwardActivity, analyze_forward_activity, masked_kind
from xenzyme.analysis.hints import CustomDerivative, Hints
from xenzyme.analysis.types import Views, memory_contents
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import needs_rule, rule_for
from xenzyme.rules.emitter import LLVMEmitter, call_op
from xenzyme.rules.llvm_calls import copy_call
from xenzyme.transforms.diff.builder import inherited_attributes
from xenzyme.transforms.diff.calls import _unpack
from xenzyme.transforms.diff.errors import fail_at, irreducible, location_of
from xenzyme.transforms.diff.indirect_calls import resolved_copy, stop_at_unresolved_call
from xenzyme.transforms.diff.prepare import copy_byval_arguments, prepend, retype_float_accesses
from xenzyme.transforms.diff.symbols import ModuleSymbols


def tangent_type(t: Attribute, width: int) -> Attribute:
    """What carries the tangents of a value of type `t`: `t` itself, or a struct of `width`."""
    return t if width == 1 else ext.LLVMStructType.from_type_list([t] * width)


def result_type(ret: Attribute, ret_activity: str, width: int) -> Attribute | None:
    """The result of a tangent function for a primal returning `ret`."""
    if ret_activity == "dupnoneed":
        return tangent_type(ret, width)
    if ret_activity == "dup":
        return ext.LLVMStructType.from_type_list([ret] * (width + 1))
    if ret_activity == "const":
        return ret
    return None


def _made_from_integer(p: SSAValue) -> bool:
    """Whether pointer `p` is (a GEP or cast of) an `inttoptr`: an address computed as an integer."""
    seen: set[SSAValue] = set()
    while p not in seen:
        seen.add(p)
        owner = p.owner
        if isinstance(owner, xllvm.IntToPtrOp):
            return True
        if not isinstance(owner, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp):
            return False
        p = owner.operands[0]
    return False


@dataclass(frozen=True)
class _Key:
    function: str
    activities: tuple[str, ...]
    ret: str
    width: int


class TangentBuilder:
    """Builds the tangent function of one function for one activity pattern and width."""

    def __init__(self, gen: TangentGenerator, fn: xllvm.FuncOp, activities: Sequence[str], ret_activity: str, width: int, name: str):
        self.gen = gen
        self.module = gen.module
        self.fn = fn
        self.acts = list(activities)
        self.ret_activity = ret_activity
        self.width = width
        self.name = name
        self.filename = gen.filename
        self.fname = fn.sym_name.data
        try:
            self.cfg = CFG(fn.body)
        except IrreducibleControlFlow as exc:
            raise irreducible(self.fname, exc, self.filename) from None
        self.globals = gen.symbols.globals()
        self.functions = gen.symbols.functions()
        self.hints = gen.hints
        self.module_symbols = gen.symbols
        self.calls = TangentCalls(self)
        constant = {n for n, g in self.globals.items() if g.constant is not None}
        wants_return_shadow = ret_activity in ("dup", "dupnoneed") and is_pointer_like(fn.function_type.output)
        self.info: ForwardActivity = analyze_forward_activity(
            self.cfg, list(self.cfg.entry.args), self.acts, wants_return_shadow, constant
        )
        self.views = Views(self.cfg, {n: g.global_type for n, g in self.globals.items()})
        self.values: dict[SSAValue, SSAValue] = {}
        self.tan: dict[SSAValue, list[SSAValue]] = {}
        self.sh: dict[SSAValue, list[SSAValue]] = {}
        self.F: dict[Block, Block] = {}
        self.entry_ops: list[Operation] = []
        self.e: LLVMEmitter = None  # type: ignore[assignment]

    # ---- errors ---------------------------------------------------------------------------

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        fail_at(op, f"cannot differentiate @{self.fname} in forward mode", message, self.filename, notes, self.module)

    def _check(self) -> None:
        for op in self.info.unshadowed_stores:
            ptr = op.operands[1] if isinstance(op, ext.StoreOp) or masked_kind(op) else op.operands[0]
            if _made_from_integer(ptr):
                self.fail(op, "a value with a derivative is stored through a pointer computed from an integer "
                              "(inttoptr), which forward mode cannot give a shadow",
                          ["compute addresses with getelementptr on the pointer, not through ptrtoint/inttoptr"])  # fmt: skip
            self.fail(op, "a value with a derivative is stored into memory that has no shadow",
                      ["mark the pointer argument enzyme_dup (with a shadow), or the stored value enzyme_const"])  # fmt: skip
        for op in self.info.merged_pointers:
            self.fail(op, *MERGED_WITH_CONSTANT)
        for op in self.info.unshadowed_pointers:
            self.fail(op, "a pointer without a shadow (to memory that may hold floating-point data) is stored into "
                          "memory that has one: tangents would be read and written through it in the primal data",
                      ["pass the memory it points to with a shadow (enzyme_dup), or keep that pointer out of the "
                       "memory with derivatives (a separate argument or struct)"])  # fmt: skip
        for op in self.info.reinterpreted:
            self.fail(op, "the bits of a floating-point value with a derivative are changed, passed or returned as an integer "
                          "(type punning); its derivative would be lost",
                      ["compute with floating-point operations (fabs, copysign, ldexp, frexp, ...), "
                       "or give the function a custom derivative"])  # fmt: skip

    # ---- the tangent function -------------------------------------------------------------

    def build(self) -> xllvm.FuncOp:
        self._check()
        ftype = self.fn.function_type
        n = self.width
        params: list[Attribute] = []
        for t, act in zip(ftype.inputs.data, self.acts, strict=True):
            params += [t] * (1 + (n if ad.has_shadow(act) else 0))
        entry = Block(arg_types=params)
        it = iter(entry.args)
        for arg, act in zip(self.cfg.entry.args, self.acts, strict=True):
            g = next(it)
            self.values[arg] = g
            if arg.name_hint:
                g.name_hint = arg.name_hint
            if ad.has_shadow(act):
                shadows = [next(it) for _ in range(n)]
                for k, s in enumerate(shadows):
                    if arg.name_hint:
                        s.name_hint = f"d{'' if n == 1 else k}_{arg.name_hint}"
                if is_pointer_like(arg.type):
                    self.sh[arg] = shadows
                else:
                    self.tan[arg] = shadows
        self.F[self.cfg.entry] = entry
        for b in self.cfg.rpo[1:]:
            fb = Block(arg_types=[a.type for a in b.args])
            for a, fa in zip(b.args, fb.args, strict=True):
                self.values[a] = fa
                if a.name_hint:
                    fa.name_hint = a.name_hint
            for a in b.args:
                if a in self.info.varied or a in self.info.shadow_bits:
                    self.tan[a] = [fb.insert_arg(a.type, len(fb.args)) for _ in range(n)]
                elif a in self.info.shadowed:
                    self.sh[a] = [fb.insert_arg(a.type, len(fb.args)) for _ in range(n)]
            self.F[b] = fb
        for b in self.cfg.rpo:
            self.e = LLVMEmitter(Builder(InsertPoint.at_end(self.F[b])), self.module)
            for op in list(b.ops)[:-1]:
                self._op(op)
            self._terminator(b)
        prepend(self.F[self.cfg.entry], self.entry_ops)
        rtype = result_type(ftype.output, self.ret_activity, n) or ext.LLVMVoidType()
        fn = xllvm.FuncOp(
            self.name,
            ext.LLVMFunctionType(params, rtype),
            linkage=xllvm.LinkageAttr("internal"),
            body=Region([self.F[b] for b in self.cfg.rpo]),
        )
        fn.properties["passthrough"] = ArrayAttr(inherited_attributes(self.fn))
        return fn

    # ---- the ForwardContext interface used by rules -----------------------------------------

    def get(self, v: SSAValue) -> SSAValue:
        return self.values[v]

    def active(self, v: SSAValue) -> bool:
        return v in self.info.varied or v in self.info.shadowed

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        """The tangents of `v`; for a pointer, its shadows; zeros for an inactive value."""
        t = self.tan.get(v)
        if t is not None:
            return t
        if is_pointer_like(v.type):
            return self.shadows(v)
        z = self.e.zero(v.type)
        return [z] * self.width

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None:
        assert len(tangents) == self.width
        self.tan[v] = list(tangents)

    def shadows(self, p: SSAValue) -> list[SSAValue]:
        """The shadows of pointer `p`.  A pointer without one (a constant argument, a pointer of
        unknown origin, null) stands for itself, as in reverse mode."""
        s = self.sh.get(p)
        if s is not None:
            return s
        return [self.values[p]] * self.width

    def stack_slot(self, t: Attribute) -> SSAValue:
        """A stack slot of type `t` in the tangent function's entry."""
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        alloca = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()],
                                       properties={"elem_type": t})  # fmt: skip
        self.entry_ops += [one, alloca]
        return alloca.res

    def set_shadows(self, p: SSAValue, shadows: Sequence[SSAValue]) -> None:
        """Record the shadows of the pointer result `p`."""
        assert len(shadows) == self.width
        self.sh[p] = list(shadows)

    def shadowed(self, v: SSAValue) -> bool:
        return v in self.info.shadowed

    def copy(self, op: Operation) -> Operation:
        new = op.clone_without_regions(self.values)
        self.e.b.insert(new)
        return new

    def contents(self, ptr: SSAValue):
        """What the objects `ptr` may point into hold (type analysis)."""
        return memory_contents(ptr, self.cfg, self.cfg.rpo, {k: g.global_type for k, g in self.globals.items()})

    def shadow_global(self, op: xllvm.AddressOfOp, k: int) -> str | None:
        """The name of the k-th shadow of the global `op` takes the address of (made once);
        None for the address of a function (its own shadow).  Tangents have globals of their own:
        reverse mode's shadow globals hold adjoints, which must start at zero."""
        name = op.global_name.string_value()
        g = self.globals.get(name)
        if g is None:
            return None
        sname = f"{name}.tangent" if k == 0 else f"{name}.tangent{k}"  # (not reverse mode's `.shadow`)
        self.gen.symbols.shadow_global(g, sname)
        return sname

    # ---- ops -------------------------------------------------------------------------------

    def _op(self, op: Operation) -> None:
        """The op, then its tangents, by its rule; an op without one has no result that needs a
        tangent or a shadow."""
        rule = rule_for(op)
        info = self.info
        if rule is None and needs_rule(op) and any(v in info.varied or v in info.shadowed
                                                   for v in (*op.operands, *op.results)):  # fmt: skip
            self.fail(op, f"no derivative rule for '{op.name}'",
                      ["this operation takes or makes values that carry derivatives; mark them enzyme_const, "
                       "or keep the operation out of the differentiated code"])  # fmt: skip
        if rule is None or not rule.emits_primal:
            self.copy(op)
        if rule is not None and rule.tangent is not None:
            rule.tangent(self, op)
            return
        if any(r in info.shadowed for r in op.results):
            self.fail(op, "this instruction produces a pointer to memory with derivatives in a way forward mode cannot follow",
                      ["pointer arithmetic through integers is not supported; use getelementptr"])  # fmt: skip
        if any(r in info.varied for r in op.results):
            self.fail(op, f"no derivative rule for '{op.name}'",
                      ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip

    # ---- control flow ------------------------------------------------------------------------

    def _edge_values(self, dest: Block, args: Sequence[SSAValue]) -> list[SSAValue]:
        values = [self.values[a] for a in args]
        for a, da in zip(args, dest.args, strict=True):
            if da in self.info.varied or da in self.info.shadow_bits:
                values += self.tangent(a)
            elif da in self.info.shadowed:
                values += self.shadows(a)
        return values

    def _terminator(self, b: Block) -> None:
        term = b.last_op
        assert term is not None
        e = self.e
        if isinstance(term, xllvm.ReturnOp):
            self._return(term)
            return
        if isinstance(term, xllvm.UnreachableOp):
            e.insert(xllvm.UnreachableOp())
            return
        if not isinstance(term, xllvm.BrOp | xllvm.CondBrOp | ext.SwitchOp):
            self.fail(term, f"'{term.name}' is not supported in differentiated code",
                      ["exception handling (invoke/landingpad) cannot be differentiated"])  # fmt: skip
        edges = [(self.F[d], self._edge_values(d, a)) for d, a in ext.successor_operands(term)]
        if isinstance(term, xllvm.BrOp):
            new: Operation = xllvm.BrOp(edges[0][0], *edges[0][1])
        elif isinstance(term, xllvm.CondBrOp):
            (td, ta), (fd, fa) = edges
            new = xllvm.CondBrOp(self.values[term.cond], td, ta, fd, fa)
        else:
            cases = [(v, d, a) for (v, _, _), (d, a) in zip(term.cases(), edges[1:], strict=True)]
            new = ext.SwitchOp(self.values[term.value], edges[0][0], edges[0][1], cases)
        new.location = term.location
        e.insert(new)

    def _return(self, term: xllvm.ReturnOp) -> None:
        e = self.e
        ra = self.ret_activity
        v = term.arg
        if ra == "none" or v is None:
            e.insert(xllvm.ReturnOp())
            return
        if ra == "const":
            e.insert(xllvm.ReturnOp(self.values[v]))
            return
        if is_pointer_like(v.type) and v not in self.info.shadowed and not isinstance(v.owner, xllvm.ZeroOp):
            self.fail(term, "the caller needs a shadow of the pointer returned here, and none is known: it does "
                            "not point into memory that has one (an argument without a shadow, or memory of "
                            "unknown origin)",
                      ["pass the memory this pointer comes from with a shadow (enzyme_dup)"])  # fmt: skip
        ts = self.tangent(v)
        if ra == "dupnoneed" and self.width == 1:
            e.insert(xllvm.ReturnOp(ts[0]))
            return
        parts = ([self.values[v]] if ra == "dup" else []) + ts
        st = ext.LLVMStructType.from_type_list([v.type] * len(parts))
        acc = e.insert(xllvm.UndefOp(st))
        for i, p in enumerate(parts):
            acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, p))
        e.insert(xllvm.ReturnOp(acc))


class TangentCalls:
    """Calls in forward mode that go to tangent functions or the user's derivatives
    (`ctx.calls` of the call rule)."""

    def __init__(self, b: TangentBuilder):
        self.b = b

    def custom(self, op: Operation, custom: CustomDerivative) -> None:
        """A call to a function with a derivative of the user's, in Enzyme's C convention: each
        floating-point or pointer argument followed by its tangent or shadow; for a function
        returning T, the derivative returns {result, tangent}, or the tangent alone (the result
        then comes from calling the function itself)."""
        b = self.b
        info = b.info
        name = callee_name(op)
        where = f"the custom derivative of @{name} ({custom.declared_in})"
        if b.width != 1:
            b.fail(op, f"{where}: custom derivatives are not supported in vector forward mode (width {b.width})")
        args: list[SSAValue] = []
        for i, a in enumerate(op.operands):
            args.append(b.values[a])
            if ad.is_float_like(a.type):
                args.append(b.tangent(a)[0])
            elif is_pointer_like(a.type):
                if a not in info.shadowed:
                    b.fail(op, f"{where} takes a shadow for every pointer argument, but argument {i} has none here",
                              [f"pass the memory of argument {i} with a shadow (enzyme_dup)"])  # fmt: skip
                args.append(b.shadows(a)[0])
        deriv = b.gen.symbols.function(custom.derivative)
        if deriv is None or len(deriv.function_type.inputs.data) != len(args):
            got = "is not a function of this module" if deriv is None else f"takes {len(deriv.function_type.inputs.data)} arguments"
            b.fail(op, f"{where}: @{custom.derivative} {got}; it must take {len(args)} (each argument, floating-point "
                          "ones and pointers followed by their tangent or shadow)")  # fmt: skip
        r = op.results[0] if op.results else None
        out = deriv.function_type.output
        if r is None or not ad.is_float_like(r.type):
            if r is not None:
                b.fail(op, f"{where}: custom derivatives are supported for functions returning void or a "
                              f"floating-point value, not {r.type}")  # fmt: skip
            if not isinstance(out, ext.LLVMVoidType):
                b.fail(op, f"{where}: @{custom.derivative} must return void, as @{name} does")
            self._call(op, custom.derivative, args, None)
            return
        pair = ext.LLVMStructType.from_type_list([r.type, r.type])
        if out == r.type:
            b.values[r] = copy_call(b, op).results[0]
            tangent = self._call(op, custom.derivative, args, out)
        elif out == pair or out == VectorType(r.type, [2]):
            both = self._call(op, custom.derivative, args, out)
            b.values[r], tangent = _unpack(b.e, both)
        else:
            b.fail(op, f"{where}: @{custom.derivative} returns {out}; it must return the tangent ({r.type}) or a "
                          f"struct {{result, tangent}}")  # fmt: skip
        if r in info.varied:
            b.tan[r] = [tangent]

    def _call(self, op: Operation, callee: str, args: list[SSAValue], rtype: Attribute | None) -> SSAValue:
        b = self.b
        call = call_op(callee, args, rtype)
        call.location = op.location
        b.e.b.insert(call)
        return call.results[0] if call.results else None  # type: ignore[return-value]

    def function(self, name: str) -> xllvm.FuncOp | None:
        return self.b.gen.symbols.function(name)

    def unresolved(self, op: Operation) -> bool:
        """An indirect call kept for pointers to none of its guessed candidates."""
        return op in self.b.gen.unresolved_calls

    def through_pointer(self, op: Operation) -> bool:
        """A direct call that replaced a call through a function pointer."""
        return op in self.b.gen.pointer_calls

    def trap(self, op: Operation) -> None:
        """Stop the program with a message at an unresolved indirect call."""
        b = self.b
        stop_at_unresolved_call(b.e, b.gen.symbols, op, b.fname, b.filename)
        for r in op.results:
            b.values[r] = b.e.insert(xllvm.UndefOp(r.type))

    def tangent_name(self, fn: xllvm.FuncOp, acts: list[str], ret: str) -> str:
        """The tangent function of `fn` for these activities (at the builder's width)."""
        return self.b.gen.tangent_function(fn, acts, ret, self.b.width)

    def tangent(self, op: Operation, fn: xllvm.FuncOp) -> None:
        """A call to a function of this module, replaced by a call to its tangent function."""
        b = self.b
        info = b.info
        acts = []
        args: list[SSAValue] = []
        for a in op.operands:
            args.append(b.values[a])
            if a in info.varied or a in info.shadowed:
                acts.append("dup")
                args += b.tangent(a)
            else:
                acts.append("const")
        r = op.results[0] if op.results else None
        if r is None:
            ret = "none"
        elif r in info.varied or r in info.shadowed:
            ret = "dup"
        else:
            ret = "const"
        if fn.function_type.is_variadic or len(acts) != len(fn.function_type.inputs.data):
            b.fail(op, f"the call to @{fn.sym_name.data} carries derivatives, and @{fn.sym_name.data} is variadic "
                       "(takes `...`): its variable arguments cannot be differentiated",
                   ["pass the values in an array"])  # fmt: skip
        name = b.gen.tangent_function(fn, acts, ret, b.width)
        rt = result_type(fn.function_type.output, ret, b.width) if r is not None else None
        call = call_op(name, args, rt)
        call.location = op.location
        b.e.b.insert(call)
        if r is None:
            return
        if ret == "const":
            b.values[r] = call.results[0]
            return
        parts = [b.e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call.results[0], r.type))
                 for k in range(b.width + 1)]  # fmt: skip
        b.values[r] = parts[0]
        if r in info.varied:
            b.tan[r] = parts[1:]
        else:
            b.sh[r] = parts[1:]


class TangentGenerator:
    """Generates (once per function, activity pattern and width) and calls tangent functions."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.generated: dict[_Key, str] = {}
        self.lowering: set[Operation] = set()
        self.symbols = ModuleSymbols(module)
        self.filename = self.symbols.filename
        self.hints = Hints.of(module)
        self.callees: CalleeIndex | None = None
        self.unresolved_calls: set[Operation] = set()
        self.pointer_calls: set[Operation] = set()

    def run(self) -> None:
        requests = [op for op in self.module.walk() if isinstance(op, ad.FwdDiffOp)]
        for req in requests:
            if req.parent is not None:
                self.symbols.clear_global_shadows(self.lower(req))

    def _target(self, req: ad.FwdDiffOp) -> xllvm.FuncOp:
        name = req.callee.string_value()
        fn = self.symbols.function(name)
        if fn is None:
            raise XenzymeError(f"cannot differentiate @{name}: no such function", location_of(req, self.filename))
        if not fn.body.blocks:
            raise XenzymeError(
                f"cannot differentiate @{name}: only its declaration is available",
                location_of(req, self.filename),
                ["the function's body must be in the same module (compile it into this file)"],
            )
        return fn

    def tangent_function(self, fn: xllvm.FuncOp, acts: Sequence[str], ret: str, width: int) -> str:
        key = _Key(fn.sym_name.data, tuple("dup" if a == "dupnoneed" else a for a in acts), ret, width)
        if key in self.generated:
            return self.generated[key]
        for inner in [op for op in fn.walk() if isinstance(op, ad.FwdDiffOp)]:
            self.lower(inner)  # requests inside the function first: it is differentiated as plain code
        names = {op.sym_name.data for op in self.module.ops if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp)}
        base = f"fwddiffe{'' if width == 1 else width}{fn.sym_name.data}"
        name, n = base, 1
        while name in names:
            n += 1
            name = f"{base}.{n}"
        self.generated[key] = name
        # A placeholder declaration reserves the name while the body is built (recursion).
        placeholder = xllvm.FuncOp(name, ext.LLVMFunctionType([], ext.LLVMVoidType()), linkage=xllvm.LinkageAttr("external"))
        self.module.body.block.insert_op_after(placeholder, fn)
        retype_float_accesses(fn, {k: g.global_type for k, g in self.symbols.globals().items()})
        copy_byval_arguments(fn)
        tfn = self._builder(fn, list(key.activities), ret, width, name).build()
        self.module.body.block.insert_op_after(tfn, placeholder)
        placeholder.detach()
        placeholder.erase()
        self.symbols.forget()
        return name

    def _builder(self, fn: xllvm.FuncOp, acts: list[str], ret: str, width: int, name: str) -> TangentBuilder:
        """The builder of `fn`'s tangent function; where tangents flow through calls through
        function pointers, of a copy of `fn` in which those calls choose among direct calls."""
        builder = TangentBuilder(self, fn, acts, ret, width, name)
        info = builder.info
        ops = list(fn.walk())
        active = {i for i, op in enumerate(ops) if is_indirect_call(op)
                  and any(v in info.varied or v in info.shadowed for v in (*op.operands[1:], *op.results))}  # fmt: skip
        if not active:
            return builder
        if self.callees is None:
            self.callees = CalleeIndex(self.module)
        copy = resolved_copy(fn, active, self.callees, self.unresolved_calls, self.pointer_calls)
        return TangentBuilder(self, copy, acts, ret, width, name)

    def lower(self, req: ad.FwdDiffOp) -> Operation:
        if req in self.lowering:
            raise XenzymeError("a forward-mode request differentiates the function that contains it",
                               location_of(req, self.filename))  # fmt: skip
        self.lowering.add(req)
        fn = self._target(req)
        width = req.width.value.data
        ret = req.ret_activity.data
        name = self.tangent_function(fn, req.activities, ret, width)
        rt = result_type(fn.function_type.output, ret, width)
        if isinstance(rt, ext.LLVMVoidType):
            rt = None
        call = call_op(name, list(req.args), rt)
        call.location = req.location
        block = req.parent_block()
        assert block is not None
        block.insert_op_before(call, req)
        if req.res is not None:
            req.res.replace_all_uses_with(call.results[0])
        req.detach()
        req.erase()
        return call


