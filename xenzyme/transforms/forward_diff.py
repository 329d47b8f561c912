"""`forward-diff`: generate tangent functions for `autodiff.fwddiff` requests.

For `%t = autodiff.fwddiff @f(...)` the pass builds `@fwddiffe<f>` (`@fwddiffe<N><f>` in vector
mode, width N) and replaces the request by a call:

    llvm.func @f(%x: f64) -> f64 { ... }
    %t = autodiff.fwddiff @f(%x, %dx) activity [dup] ret dupnoneed : (f64, f64) -> f64
      ==>
    llvm.func internal @fwddiffef(%x: f64, %dx: f64) -> f64 { primal and tangents }
    %t = llvm.call @fwddiffef(%x, %dx) : (f64, f64) -> f64

The tangent function is a copy of the primal in which every value with a tangent (activity:
`xenzyme.analysis.forward_activity`) has its tangent computed right after it, by the rule for
its op (`xenzyme.rules`): no reverse sweep and no caches.  In vector mode each value has N
tangents, one SSA value per direction: the rules compute what the directions share (partial
derivatives) once and the rest per direction, and LLVM's vectorisers pack the directions into
SIMD registers where that pays.

* Block arguments (phis) get tangent block arguments, edges pass the incoming tangents.
* Pointers to memory holding varied data have shadow pointers (N in vector mode): GEPs and casts
  on the shadows, shadow allocas and shadow heap blocks (zeroed), shadow globals.  A load of
  shadowed memory also loads the tangent from the shadow; a store writes the stored value's
  tangent into the shadow (zero for a value without one, so that the shadow never keeps a stale
  tangent), and a stored pointer's shadow.  memcpy/memmove copy the shadow bytes; memset clears
  them.  The masked intrinsics of vectorised code (llvm.masked.load/store/gather/scatter) do the
  same under their mask.  Bytes moved as integers (an i64 load of a double, bitcast back or
  stored) move the shadow's bytes along; an integer atomic that writes a float's bits is an
  error.
* Calls: math functions through their rules; calls to functions defined in the module are
  differentiated too (their tangent functions are generated on demand, with the activity of the
  call's arguments, and the name is reserved before the body is built, so recursion works);
  malloc/calloc/realloc/aligned_alloc and free act on the shadows as well; an unknown external
  function receiving tangents or shadows is an error.
* The result: the tangent(s) of the return value (`dupnoneed`), the primal and its tangents
  (`dup`, used for calls between tangent functions), or the primal alone (`const`).

Forward mode runs after reverse mode is lowered (see the `enzyme` pipeline), so that it can
differentiate gradient functions too -- plain LLVM code with allocas, heap caches and helper
calls -- which is how a Hessian-vector product (forward over reverse) is computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, IntegerType, ModuleOp, StringAttr, SymbolRefAttr, VectorType, i8, i32, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.activity import carries_derivative, is_pointer_like
from xenzyme.analysis.alias import ALLOCATORS, DEALLOCATORS
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.analysis.hints import CustomDerivative, Hints
from xenzyme.analysis.forward_activity import (
    NO_STORE_FUNCTIONS,
    ForwardActivity,
    analyze_forward_activity,
    has_tangent_type,
    masked_kind,
)
from xenzyme.analysis.types import (
    FLOAT, INTEGER, POINTER, Views, copy_view, integer_access, memory_contents, size_align,
)  # fmt: skip
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import PURE_CALL_ATTRS, Emitter, zero_constant
from xenzyme.rules.libm import math_base_name
from xenzyme.rules.llvm import tangent_rule_for
from xenzyme.rules.memory import ZERO, CopyPlan, copy_helper
from xenzyme.transforms.reverse_diff import _unpack, copy_byval_arguments, location_of, retype_float_accesses

_PTR = ext.LLVMPointerType()
_SKIPPED = ("llvm.dbg_record",)
"""Debug records describe the primal's variables; the tangent function has no debug scope."""

_STRUCTURAL = (
    ext.GEPOp, xllvm.BitcastOp, ext.AddrSpaceCastOp, ext.SelectOp, ext.FreezeOp, xllvm.ExtractValueOp,
    xllvm.InsertValueOp, ext.ExtractElementOp, xllvm.InsertElementOp, xllvm.ShuffleVectorOp,
)  # fmt: skip
"""Ops that move pointers without computing with them: a shadow pointer result is the same op
applied to the shadows."""

REALLOCATORS = ("realloc", "reallocf")
SHADOWED_HINTS = ("madvise",)
"""Calls about memory (not its contents) that apply to the shadow memory as well."""


def _block_location(block: Block, filename: str | None) -> SourceLocation:
    for op in block.ops:
        loc = location_of(op)
        if loc is not None and loc.line is not None:
            return loc
    return SourceLocation(filename)


def _call(callee: str, args: Sequence[SSAValue], rtype: Attribute | None) -> xllvm.CallOp:
    return xllvm.CallOp.create(
        operands=list(args),
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


def _callee(op: Operation) -> str | None:
    if isinstance(op, xllvm.CallOp) and op.callee is not None:
        return op.callee.string_value()
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


def _call_writes_nothing(op: Operation) -> bool:
    attrs = op.attributes.get("fn_attrs")
    if isinstance(attrs, ArrayAttr):
        return any(isinstance(a, StringAttr) and a.data in ("memory(none)", "memory(read)", "readnone", "readonly")
                   for a in attrs.data)  # fmt: skip
    return False


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


@dataclass(frozen=True)
class _Key:
    function: str
    activities: tuple[str, ...]
    ret: str
    width: int


class ForwardBuilder:
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
            raise XenzymeError(
                f"cannot differentiate @{self.fname}: irreducible control flow (a loop entered in more than one place)",
                _block_location(exc.block, self.filename),
                ["loops must have a single entry; restructure the code (e.g. avoid goto into loops)"],
            ) from None
        self.globals = gen.globals()
        constant = {n for n, g in self.globals.items() if g.constant is not None}
        wants_return_shadow = ret_activity in ("dup", "dupnoneed") and is_pointer_like(fn.function_type.output)
        self.info: ForwardActivity = analyze_forward_activity(
            self.cfg, list(self.cfg.entry.args), self.acts, wants_return_shadow, constant
        )
        self.views = Views(self.cfg, {n: g.global_type for n, g in self.globals.items()})
        self.fwd: dict[SSAValue, SSAValue] = {}
        self.tan: dict[SSAValue, list[SSAValue]] = {}
        self.sh: dict[SSAValue, list[SSAValue]] = {}
        self.F: dict[Block, Block] = {}
        self.e: Emitter = None  # type: ignore[assignment]

    # ---- errors ---------------------------------------------------------------------------

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        text = str(op).strip().splitlines()[0] if op is not None else ""
        raise XenzymeError(
            f"cannot differentiate @{self.fname} in forward mode: {message}",
            location_of(op, self.filename) if op is not None else SourceLocation(self.filename),
            [f"in: {text[:200]}", *notes] if text else list(notes),
        )

    def _check(self) -> None:
        for op in self.info.unshadowed_stores:
            ptr = op.operands[1] if isinstance(op, ext.StoreOp) or masked_kind(op) else op.operands[0]
            if _made_from_integer(ptr):
                self.fail(op, "a value with a derivative is stored through a pointer computed from an integer "
                              "(inttoptr), which forward mode cannot give a shadow",
                          ["compute addresses with getelementptr on the pointer, not through ptrtoint/inttoptr"])  # fmt: skip
            self.fail(op, "a value with a derivative is stored into memory that has no shadow",
                      ["mark the pointer argument enzyme_dup (with a shadow), or the stored value enzyme_const"])  # fmt: skip
        for op in self.info.reinterpreted:
            self.fail(op, "the bits of a floating-point value with a derivative are changed as an integer "
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
            self.fwd[arg] = g
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
                self.fwd[a] = fa
                if a.name_hint:
                    fa.name_hint = a.name_hint
            for a in b.args:
                if a in self.info.varied or a in self.info.shadow_bits:
                    self.tan[a] = [fb.insert_arg(a.type, len(fb.args)) for _ in range(n)]
                elif a in self.info.shadowed:
                    self.sh[a] = [fb.insert_arg(a.type, len(fb.args)) for _ in range(n)]
            self.F[b] = fb
        for b in self.cfg.rpo:
            self.e = Emitter(Builder(InsertPoint.at_end(self.F[b])), self.module)
            for op in list(b.ops)[:-1]:
                self._op(op)
            self._terminator(b)
        rtype = result_type(ftype.output, self.ret_activity, n) or ext.LLVMVoidType()
        fn = xllvm.FuncOp(
            self.name,
            ext.LLVMFunctionType(params, rtype),
            linkage=xllvm.LinkageAttr("internal"),
            body=Region([self.F[b] for b in self.cfg.rpo]),
        )
        fn.properties["passthrough"] = ArrayAttr(self._inherited_attributes())
        return fn

    def _inherited_attributes(self) -> list[Attribute]:
        """The primal's target attributes, so that the tangent function is compiled for the same CPU."""
        pt = self.fn.passthrough
        return [a for a in (pt.data if pt is not None else ())
                if isinstance(a, ArrayAttr) or (isinstance(a, StringAttr) and a.data in ("nounwind", "uwtable"))]  # fmt: skip

    # ---- the ForwardContext interface used by rules -----------------------------------------

    def get(self, v: SSAValue) -> SSAValue:
        return self.fwd[v]

    def active(self, v: SSAValue) -> bool:
        return v in self.info.varied or v in self.info.shadowed

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        """The tangents of `v`; for a pointer, its shadows; zeros for an inactive value."""
        t = self.tan.get(v)
        if t is not None:
            return t
        if is_pointer_like(v.type):
            return self.shadow(v)
        z = self.e.zero(v.type)
        return [z] * self.width

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None:
        assert len(tangents) == self.width
        self.tan[v] = list(tangents)

    def shadow(self, p: SSAValue) -> list[SSAValue]:
        """The shadows of pointer `p`.  A pointer without one (a constant argument, a pointer of
        unknown origin, null) stands for itself, as in reverse mode."""
        s = self.sh.get(p)
        if s is not None:
            return s
        return [self.fwd[p]] * self.width

    # ---- ops -------------------------------------------------------------------------------

    def _op(self, op: Operation) -> None:
        if op.name in _SKIPPED:
            return
        if isinstance(op, ad.AutodiffOp):
            self.fail(op, "a reverse-mode request is left in the function; run reverse-diff before forward-diff")
        if isinstance(op, ad.FwdDiffOp):
            self.fail(op, "a nested forward-mode request is left in the function")
        if isinstance(op, xllvm.CallOp | ext.InvokeOp | xllvm.CallIntrinsicOp | xllvm.InlineAsmOp):
            self._call_op(op)
            return
        new = self._clone(op)
        info = self.info
        if isinstance(op, xllvm.LoadOp):
            self._load(op)
        elif isinstance(op, ext.StoreOp):
            self._store(op)
        elif isinstance(op, ext.MemcpyOp | ext.MemmoveOp | ext.MemsetOp):
            self._transfer(op)
        elif isinstance(op, ext.AtomicRMWOp | ext.CmpXchgOp):
            self._atomic(op, new)
        elif isinstance(op, xllvm.AllocaOp):
            if op.res in info.shadowed:
                self.sh[op.res] = [self._shadow_alloca(op, k) for k in range(self.width)]
        elif isinstance(op, xllvm.AddressOfOp):
            if op.result in info.shadowed:
                self.sh[op.result] = self._shadow_global(op)
        else:
            self._derivative(op)

    def _clone(self, op: Operation) -> Operation:
        new = op.clone_without_regions(self.fwd)
        if isinstance(new, xllvm.CallOp) and (c := _callee(new)) is not None and math_base_name(c):
            new.attributes["fn_attrs"] = PURE_CALL_ATTRS  # errno aside, math is pure: unused calls go
        self.e.b.insert(new)
        return new

    def _operands(self, op: Operation, replace: dict[SSAValue, SSAValue]) -> dict[SSAValue, SSAValue]:
        """A value map for cloning `op`: its operands as computed here, some replaced."""
        mapping = {o: self.fwd[o] for o in op.operands}
        mapping.update(replace)
        return mapping

    def _derivative(self, op: Operation) -> None:
        """Tangents (and shadows) of an op's results through its rule."""
        info = self.info
        shadowed = [r for r in op.results if r in info.shadowed]
        varied = [r for r in op.results if r in info.varied]
        if shadowed:
            if not isinstance(op, _STRUCTURAL):
                self.fail(op, "this instruction produces a pointer to memory with derivatives in a way forward mode cannot follow",
                          ["pointer arithmetic through integers is not supported; use getelementptr"])  # fmt: skip
            self.sh[shadowed[0]] = [self._on_tangents(op, k) for k in range(self.width)]
        if op.results and op.results[0] in info.shadow_bits:
            # bytes of shadowed memory moved as an integer (select, freeze, bitcast): the same op
            # on their shadow bits
            moved = [o for o in op.operands[-2:] if o.type == op.results[0].type] if isinstance(op, ext.SelectOp) else [op.operands[0]]
            self.tan[op.results[0]] = [self.e.insert(op.clone_without_regions({**self._operands(op, {}), **{o: self.tangent(o)[k] for o in moved}}))
                                       for k in range(self.width)]  # fmt: skip
            return
        if not varied:
            return
        if isinstance(op, xllvm.BitcastOp) and op.operands[0] in info.shadow_bits:
            # float data loaded as an integer: its tangent is the shadow's bits, as the same float
            self.tan[varied[0]] = [self.e.insert(xllvm.BitcastOp(t, varied[0].type)) for t in self.tan[op.operands[0]]]
            return
        rule = tangent_rule_for(op)
        if rule is None:
            self.fail(op, f"no derivative rule for '{op.name}'",
                      ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip
        rule(self, op)

    def _on_tangents(self, op: Operation, k: int) -> SSAValue:
        """`op` applied to the k-th tangents/shadows of its derivative-carrying operands."""
        mapping: dict[SSAValue, SSAValue] = {}
        for o in op.operands:
            if o not in mapping:
                carries = has_tangent_type(o.type) or is_pointer_like(o.type)
                mapping[o] = self.tangent(o)[k] if carries else self.fwd[o]
        new = op.clone_without_regions(mapping)
        self.e.b.insert(new)
        return new.results[0]

    # ---- memory ------------------------------------------------------------------------------

    def _load(self, op: xllvm.LoadOp) -> None:
        if op.ptr not in self.info.shadowed:
            return
        r = op.dereferenced_value
        if r not in self.info.varied and r not in self.info.shadowed and r not in self.info.shadow_bits:
            return
        out = []
        for s in self.shadow(op.ptr):
            new = op.clone_without_regions({op.ptr: s})
            self.e.b.insert(new)
            out.append(new.results[0])
        if r in self.info.varied or r in self.info.shadow_bits:
            # shadow_bits: the tangent's bits, which a bitcast back to a float turns into the tangent
            self.tan[r] = out
        else:
            self.sh[r] = out

    def _store(self, op: ext.StoreOp) -> None:
        if op.ptr not in self.info.shadowed:
            return
        v = op.value
        if has_tangent_type(v.type) or is_pointer_like(v.type):
            values = self.tangent(v)
        else:
            values = self._integer_shadow_values(op)
            if values is None:
                return
        for s, t in zip(self.shadow(op.ptr), values, strict=True):
            self.e.b.insert(op.clone_without_regions({op.value: t, op.ptr: s}))

    def _integer_shadow_values(self, op: ext.StoreOp) -> list[SSAValue] | None:
        """What an integer store puts into the shadow: a copy of the shadow's bytes when the
        integer was loaded from shadowed memory (bytes moved as an integer; for integer data the
        copy is harmless); nothing for other integer data; zero otherwise, so that no stale
        tangent survives in those bytes."""
        if op.value in self.info.shadow_bits:
            return self.tan[op.value]  # the shadow's bytes, loaded beside the primal's
        kind, _ = integer_access(self.views.of(op.ptr), op.value.type)
        if kind == INTEGER:
            return None
        z = self.e.zero(op.value.type)
        return [z] * self.width

    def _transfer(self, op: Operation) -> None:
        """memcpy/memmove copy the shadow bytes along; memset clears them."""
        dst = op.operands[0]
        if dst not in self.info.shadowed:
            return
        e = self.e
        n = self.fwd[op.operands[2]]
        if isinstance(op, ext.MemsetOp):
            zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
            for s in self.shadow(dst):
                e.insert(type(op).create(operands=[s, zero8, n], properties=dict(op.properties)))
            return
        src = op.operands[1]
        if src in self.info.shadowed:
            for sd, ss in zip(self.shadow(dst), self.shadow(src), strict=True):
                e.insert(type(op).create(operands=[sd, ss, n], properties=dict(op.properties)))
            return
        self._copy_from_inactive(op, n)

    def _copy_from_inactive(self, op: Operation, n: SSAValue) -> None:
        """A copy from memory without a shadow (a constant table): the copied floats have zero
        tangents, copied pointers stand for themselves, as their shadows."""
        e = self.e
        dst, src = op.operands[0], op.operands[1]
        view = copy_view(self.views, op)
        if view is not None:
            plan = CopyPlan.of(view, ZERO)
            has_pointers = bool(view.pointer_fields())
        else:
            kind, ftype = memory_contents(dst, self.cfg, self.cfg.rpo, {k: g.global_type for k, g in self.globals.items()})
            if kind == INTEGER:
                return
            if kind == POINTER:
                plan, has_pointers = None, True
            elif kind == FLOAT:
                size = size_align(ftype)  # type: ignore[arg-type]
                assert size is not None
                plan, has_pointers = CopyPlan(((0, ftype),), size[0], 0), False  # type: ignore[arg-type]
            else:
                self.fail(op, f"cannot tell whether the memory copied here holds floating-point data ({kind})",
                          ["copy typed data element by element, or keep floats and other data in separate arrays"])  # fmt: skip
        zero8 = e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8))
        for s in self.shadow(dst):
            if plan is not None and plan.dense and not has_pointers:
                e.insert(ext.MemsetOp([s, zero8, n]))
                continue
            e.insert(type(op).create(operands=[s, self.fwd[src], n], properties=dict(op.properties)))
            if plan is not None:
                helper = copy_helper(self.module, ZERO, plan, False)
                nn = n if n.type == i64 else e.insert(xllvm.ZExtOp(n, i64))  # type: ignore[arg-type]
                e.insert(_call(helper, [s, s, nn], None))

    def _atomic(self, op: Operation, new: Operation) -> None:
        ptr = op.operands[0]
        varied = [r for r in op.results if r in self.info.varied]
        stores_tangent = any(o in self.info.varied for o in op.operands[1:])
        if ptr in self.info.shadowed and not (varied or stores_tangent):
            self._check_integer_atomic(op)
        if ptr not in self.info.shadowed or not (varied or stores_tangent):
            return
        kind = op.properties.get("bin_op") or op.attributes.get("bin_op")
        kind_name = getattr(kind, "data", None)
        if not isinstance(op, ext.AtomicRMWOp) or kind_name not in ("fadd", "fsub", "xchg"):
            self.fail(op, f"atomic '{kind_name or op.name}' on memory with derivatives is not supported in forward mode",
                      ["use atomicrmw fadd/fsub/xchg, or a plain update"])  # fmt: skip
        out = []
        for s, t in zip(self.shadow(ptr), self.tangent(op.operands[1]), strict=True):
            sh = op.clone_without_regions({ptr: s, op.operands[1]: t})
            self.e.b.insert(sh)
            out.append(sh.results[0])
        if varied:
            self.tan[op.results[0]] = out

    def _masked(self, op: Operation, kind: str) -> None:
        """llvm.masked.load/gather read the tangents through the shadow pointer(s) under the same
        mask (the pass-through lanes take the pass-through's tangent); llvm.masked.store/scatter
        write the value's tangent (zero for a value without one) into the shadow(s)."""
        info, e = self.info, self.e
        args = list(op.args)  # type: ignore[attr-defined]
        if kind in ("load", "gather"):
            ptr, mask, passthru = args
            r = op.results[0]
            if r not in info.varied and r not in info.shadow_bits:
                return
            if ptr in info.shadowed:
                out = [e.insert(op.clone_without_regions(self._operands(op, {ptr: s, passthru: t})))
                       for s, t in zip(self.shadow(ptr), self.tangent(passthru), strict=True)]  # fmt: skip
            else:  # memory without a shadow: zero tangents, except in the pass-through lanes
                zero = e.zero(r.type)
                out = [e.select(self.fwd[mask], zero, t) for t in self.tangent(passthru)]
            self.tan[r] = out
            return
        value, ptr, _ = args
        if ptr not in info.shadowed:
            return  # a value with a tangent stored there is reported by _check
        if not has_tangent_type(value.type):
            kind_of, _ = integer_access(self.views.of(ptr), value.type) if kind == "store" else (None, None)
            if kind_of == INTEGER:
                return
            if value in info.shadow_bits:
                tangents = self.tan[value]
            else:
                self.fail(op, f"a masked {kind} of integers into memory with derivatives is not supported in forward mode",
                          ["store floating-point data with floating-point types"])  # fmt: skip
        else:
            tangents = self.tangent(value)
        for s, t in zip(self.shadow(ptr), tangents, strict=True):
            e.insert(op.clone_without_regions(self._operands(op, {value: t, ptr: s})))

    def _check_integer_atomic(self, op: Operation) -> None:
        """An integer atomic (cmpxchg, atomicrmw xchg/add/...) on shadowed memory writes bytes
        whose tangent it cannot carry: fine for integer data, an error where the bytes may be
        floating-point data (by the memory's type, or because the new value holds a float's
        bits) rather than a silently stale tangent in the shadow."""
        values = op.operands[1:]
        vt = values[-1].type
        if has_tangent_type(vt) or is_pointer_like(vt):
            return
        kind, _ = integer_access(self.views.of(op.operands[0]), vt)
        if kind == FLOAT or self._holds_float_bits(values[-1]):  # the value written
            name = "cmpxchg" if isinstance(op, ext.CmpXchgOp) else "atomicrmw"
            self.fail(op, f"an integer {name} writes floating-point data with a derivative; forward mode "
                          "cannot carry its tangent",
                      ["use atomicrmw fadd/fsub/xchg on the floating-point type, or plain loads and stores "
                       "outside parallel code"])  # fmt: skip

    def _holds_float_bits(self, v: SSAValue) -> bool:
        """Whether an integer is the bits of a float with a tangent, moved as an integer."""
        if v in self.info.shadow_bits:
            return True
        owner = v.owner
        return isinstance(owner, xllvm.BitcastOp) and owner.operands[0] in self.info.varied

    def _shadow_alloca(self, op: xllvm.AllocaOp, k: int) -> SSAValue:
        e = self.e
        s = e.insert(xllvm.AllocaOp.create(operands=[self.fwd[op.size]], result_types=[op.res.type], properties=dict(op.properties)))
        if op.res.name_hint:
            s.name_hint = f"d{'' if self.width == 1 else k}_{op.res.name_hint}"
        t = op.elem_type
        null = e.insert(xllvm.ZeroOp.create(result_types=[_PTR]))
        size = e.insert(xllvm.PtrToIntOp(e.insert(ext.GEPOp(null, [1], t)), i64))
        count = self.fwd[op.size]
        if count.type != i64:
            count = e.insert(xllvm.ZExtOp(count, i64))  # type: ignore[arg-type]
        nbytes = e.insert(xllvm.MulOp(size, count))  # type: ignore[arg-type]
        e.insert(ext.MemsetOp([s, e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8)), nbytes]))
        return s

    def _shadow_global(self, op: xllvm.AddressOfOp) -> list[SSAValue]:
        name = op.global_name.string_value()
        g = self.globals.get(name)
        if g is None:
            return [self.fwd[op.result]] * self.width  # a function: its own shadow
        out = []
        for k in range(self.width):
            sname = f"{name}.shadow" if k == 0 else f"{name}.shadow{k}"
            self.gen.shadow_global(g, sname)
            out.append(self.e.insert(xllvm.AddressOfOp(sname, op.result.type)))  # type: ignore[arg-type]
        return out

    # ---- calls -------------------------------------------------------------------------------

    def _call_op(self, op: Operation) -> None:
        info = self.info
        callee = _callee(op)
        results_active = [r for r in op.results if r in info.varied or r in info.shadowed]
        args = list(op.operands) if not isinstance(op, xllvm.CallIntrinsicOp) else list(op.args)
        args_active = any(a in info.varied or a in info.shadowed for a in args)
        if isinstance(op, ext.InvokeOp):
            if results_active or args_active:
                self.fail(op, "invoke (a call that may throw) cannot be differentiated",
                          ["exception handling is not supported in differentiated code"])  # fmt: skip
            self._clone(op)
            return
        if (kind := masked_kind(op)) is not None:
            self._clone(op)
            self._masked(op, kind)
            return
        rule = tangent_rule_for(op)
        if rule is not None:
            self._clone(op)
            if any(r in info.varied for r in op.results):
                rule(self, op)
            return
        if callee in ALLOCATORS or callee in REALLOCATORS:
            new = self._clone(op)
            self._heap_allocation(op, new, callee)
            return
        if callee in DEALLOCATORS or callee in SHADOWED_HINTS:
            self._clone(op)
            p = args[0]
            if p in info.shadowed:
                for s in self.shadow(p):
                    self.e.insert(op.clone_without_regions(self._operands(op, {p: s})))
            return
        if callee in NO_STORE_FUNCTIONS or not (results_active or args_active):
            self._clone(op)
            return
        custom = self.gen.hints.derivatives.get(callee) if callee is not None else None
        if custom is not None:
            self._custom_derivative_call(op, custom)
            return
        fn = self.gen.function(callee) if callee is not None else None
        if fn is not None and fn.body.blocks:
            self._differentiated_call(op, fn)
            return
        if not results_active and _call_writes_nothing(op):
            self._clone(op)
            return
        if callee is None:
            if isinstance(op, xllvm.CallIntrinsicOp):
                self.fail(op, f"no derivative rule for intrinsic '{op.intrin.data}'",
                          ["rewrite this computation with supported operations, or mark its arguments enzyme_const"])  # fmt: skip
            self.fail(op, "indirect calls (through a function pointer) with derivatives are not supported",
                      ["call the function directly, or mark its arguments enzyme_const"])  # fmt: skip
        self.fail(op, f"no derivative is known for external function @{callee}",
                  [f"give it a custom derivative (__enzyme_register_derivative_{callee}), "
                   "define it in this module, or mark its arguments enzyme_const"])  # fmt: skip

    def _heap_allocation(self, op: Operation, new: Operation, callee: str) -> None:
        r = op.results[0]
        if r not in self.info.shadowed:
            return
        e = self.e
        out = []
        for k in range(self.width):
            if callee in REALLOCATORS:
                old = op.operands[0]
                if old not in self.info.shadowed and not isinstance(old.owner, xllvm.ZeroOp):
                    self.fail(op, "realloc of a buffer without a shadow, whose new part receives derivatives",
                              ["allocate the buffer in this function, or pass it with its shadow (enzyme_dup)"])  # fmt: skip
                s = e.insert(op.clone_without_regions(self._operands(op, {old: self.shadow(old)[k]})))
            else:
                s = e.insert(op.clone_without_regions(self._operands(op, {})))
                if callee != "calloc":
                    size = self.fwd[op.operands[1] if callee == "aligned_alloc" else op.operands[0]]
                    if size.type != i64:
                        size = e.insert(xllvm.ZExtOp(size, i64))  # type: ignore[arg-type]
                    e.insert(ext.MemsetOp([s, e.insert(xllvm.ConstantOp(IntegerAttr(0, i8), i8)), size]))
            if r.name_hint:
                s.name_hint = f"d{'' if self.width == 1 else k}_{r.name_hint}"
            out.append(s)
        self.sh[r] = out
        del new

    def _custom_derivative_call(self, op: Operation, custom: CustomDerivative) -> None:
        """A call to a function with a derivative of the user's, in Enzyme's C convention: each
        floating-point or pointer argument followed by its tangent or shadow; for a function
        returning T, the derivative returns {result, tangent}, or the tangent alone (the result
        then comes from calling the function itself)."""
        info = self.info
        name = _callee(op)
        where = f"the custom derivative of @{name} ({custom.declared_in})"
        if self.width != 1:
            self.fail(op, f"{where}: custom derivatives are not supported in vector forward mode (width {self.width})")
        args: list[SSAValue] = []
        for i, a in enumerate(op.operands):
            args.append(self.fwd[a])
            if ad.is_float_like(a.type):
                args.append(self.tangent(a)[0])
            elif is_pointer_like(a.type):
                if a not in info.shadowed:
                    self.fail(op, f"{where} takes a shadow for every pointer argument, but argument {i} has none here",
                              [f"pass the memory of argument {i} with a shadow (enzyme_dup)"])  # fmt: skip
                args.append(self.shadow(a)[0])
        deriv = self.gen.function(custom.derivative)
        if deriv is None or len(deriv.function_type.inputs.data) != len(args):
            got = "is not a function of this module" if deriv is None else f"takes {len(deriv.function_type.inputs.data)} arguments"
            self.fail(op, f"{where}: @{custom.derivative} {got}; it must take {len(args)} (each argument, floating-point "
                          "ones and pointers followed by their tangent or shadow)")  # fmt: skip
        r = op.results[0] if op.results else None
        out = deriv.function_type.output
        if r is None or not ad.is_float_like(r.type):
            if r is not None:
                self.fail(op, f"{where}: custom derivatives are supported for functions returning void or a "
                              f"floating-point value, not {r.type}")  # fmt: skip
            if not isinstance(out, ext.LLVMVoidType):
                self.fail(op, f"{where}: @{custom.derivative} must return void, as @{name} does")
            self._clone_call(op, custom.derivative, args, None)
            return
        pair = ext.LLVMStructType.from_type_list([r.type, r.type])
        if out == r.type:
            self.fwd[r] = self._clone(op).results[0]
            tangent = self._clone_call(op, custom.derivative, args, out)
        elif out == pair or out == VectorType(r.type, [2]):
            both = self._clone_call(op, custom.derivative, args, out)
            self.fwd[r], tangent = _unpack(self.e, both)
        else:
            self.fail(op, f"{where}: @{custom.derivative} returns {out}; it must return the tangent ({r.type}) or a "
                          f"struct {{result, tangent}}")  # fmt: skip
        if r in info.varied:
            self.tan[r] = [tangent]

    def _clone_call(self, op: Operation, callee: str, args: list[SSAValue], rtype: Attribute | None) -> SSAValue:
        call = _call(callee, args, rtype)
        call.location = op.location
        self.e.b.insert(call)
        return call.results[0] if call.results else None  # type: ignore[return-value]

    def _differentiated_call(self, op: Operation, fn: xllvm.FuncOp) -> None:
        """A call to a function of this module, replaced by a call to its tangent function."""
        info = self.info
        acts = []
        args: list[SSAValue] = []
        for a in op.operands:
            args.append(self.fwd[a])
            if a in info.varied or a in info.shadowed:
                acts.append("dup")
                args += self.tangent(a)
            else:
                acts.append("const")
        r = op.results[0] if op.results else None
        if r is None:
            ret = "none"
        elif r in info.varied or r in info.shadowed:
            ret = "dup"
        else:
            ret = "const"
        if len(acts) != len(fn.function_type.inputs.data):
            self.fail(op, f"the call to @{fn.sym_name.data} does not match its definition (variadic functions are not supported)")
        name = self.gen.tangent_function(fn, acts, ret, self.width)
        rt = result_type(fn.function_type.output, ret, self.width) if r is not None else None
        call = _call(name, args, rt)
        call.location = op.location
        self.e.b.insert(call)
        if r is None:
            return
        if ret == "const":
            self.fwd[r] = call.results[0]
            return
        parts = [self.e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [k]), call.results[0], r.type))
                 for k in range(self.width + 1)]  # fmt: skip
        self.fwd[r] = parts[0]
        if r in info.varied:
            self.tan[r] = parts[1:]
        else:
            self.sh[r] = parts[1:]

    # ---- control flow ------------------------------------------------------------------------

    def _edge_values(self, dest: Block, args: Sequence[SSAValue]) -> list[SSAValue]:
        values = [self.fwd[a] for a in args]
        for a, da in zip(args, dest.args, strict=True):
            if da in self.info.varied or da in self.info.shadow_bits:
                values += self.tangent(a)
            elif da in self.info.shadowed:
                values += self.shadow(a)
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
            new = xllvm.CondBrOp(self.fwd[term.cond], td, ta, fd, fa)
        else:
            cases = [(v, d, a) for (v, _, _), (d, a) in zip(term.cases(), edges[1:], strict=True)]
            new = ext.SwitchOp(self.fwd[term.value], edges[0][0], edges[0][1], cases)
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
            e.insert(xllvm.ReturnOp(self.fwd[v]))
            return
        ts = self.tangent(v)
        if ra == "dupnoneed" and self.width == 1:
            e.insert(xllvm.ReturnOp(ts[0]))
            return
        parts = ([self.fwd[v]] if ra == "dup" else []) + ts
        st = ext.LLVMStructType.from_type_list([v.type] * len(parts))
        acc = e.insert(xllvm.UndefOp(st))
        for i, p in enumerate(parts):
            acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, p))
        e.insert(xllvm.ReturnOp(acc))


# ---------------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------------


class TangentGenerator:
    """Generates (once per function, activity pattern and width) and calls tangent functions."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.generated: dict[_Key, str] = {}
        self.lowering: set[Operation] = set()
        src = module.attributes.get("llvm.source_filename")
        self.filename = src.data if isinstance(src, StringAttr) else None
        self._functions: dict[str, xllvm.FuncOp] | None = None
        self.hints = Hints.of(module)

    def run(self) -> None:
        requests = [op for op in self.module.walk() if isinstance(op, ad.FwdDiffOp)]
        for req in requests:
            if req.parent is not None:
                self.lower(req)

    def function(self, name: str) -> xllvm.FuncOp | None:
        if self._functions is None or name not in self._functions:
            self._functions = {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.FuncOp)}
        return self._functions.get(name)

    def globals(self) -> dict[str, xllvm.GlobalOp]:
        return {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.GlobalOp)}

    def shadow_global(self, g: xllvm.GlobalOp, name: str) -> None:
        """A zero-initialised internal global shaped like `g`, named `name` (once)."""
        if any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name for o in self.module.ops):
            return
        t = g.global_type
        sg = xllvm.GlobalOp(t, name, "internal", alignment=g.alignment.value.data if g.alignment else None)
        from xdsl.dialects.builtin import AnyFloat, FloatAttr

        if isinstance(t, AnyFloat):
            sg.properties["value"] = FloatAttr(0.0, t)
        elif isinstance(t, IntegerType):
            sg.properties["value"] = IntegerAttr(0, t)
        else:
            zero = zero_constant(t)
            sg.body.add_block(Block([zero, xllvm.ReturnOp(zero.results[0])]))
        self.module.body.block.insert_op_after(sg, g)

    def _target(self, req: ad.FwdDiffOp) -> xllvm.FuncOp:
        name = req.callee.string_value()
        fn = self.function(name)
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
        retype_float_accesses(fn, {k: g.global_type for k, g in self.globals().items()})
        copy_byval_arguments(fn)
        tfn = ForwardBuilder(self, fn, list(key.activities), ret, width, name).build()
        self.module.body.block.insert_op_after(tfn, placeholder)
        placeholder.detach()
        placeholder.erase()
        self._functions = None
        return name

    def lower(self, req: ad.FwdDiffOp) -> None:
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
        call = _call(name, list(req.args), rt)
        call.location = req.location
        block = req.parent_block()
        assert block is not None
        block.insert_op_before(call, req)
        if req.res is not None:
            req.res.replace_all_uses_with(call.results[0])
        req.detach()
        req.erase()


@dataclass(frozen=True)
class ForwardDiffPass(ModulePass):
    """Replace each `autodiff.fwddiff` by a call to a generated tangent function."""

    name = "forward-diff"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, ad.FwdDiffOp) for o in op.walk()):
            return
        TangentGenerator(op).run()


__all__ = ["ForwardDiffPass", "TangentGenerator", "carries_derivative"]
