"""`restore-types`: floats and pointers moved as integers get their types back, where the
program only moves them.

C code moves a double as an integer all the time -- `memcpy(&bits, &x, 8)`, a union, a buffer
of `unsigned long long` -- and LLVM keeps the integer: after optimisation a double handed to a
function as `uint64_t` is `call @f(i64 (bitcast double %x to i64))`, and the function stores
that integer into memory its caller reads as a double.  The derivative travels with the bits,
but integers carry none, so the chain must be seen as floats before differentiation.  In the
functions that derivative requests reach:

* `store (bitcast <float> %v to iN), p` stores %v itself, and an integer load used only as
  floats (`bitcast` to one float type) loads that float: the same bytes, typed;
* a call passing `bitcast <float> %v to iN` as an argument calls a copy of the callee whose
  parameter is the float (`@f.fbits.0`: bitcast back to the integer at entry, for whatever else
  uses it), and is given %v;
* a call of a function whose every return is `bitcast <float> to iN`, used by the caller only
  through `bitcast iN to <float>`, calls a copy returning the float (`@f.fbits.ret`);
* a float cast to an integer and back (`bitcast (bitcast <float> %f to iN) to <float>`) is %f.

* a pointer made from an integer (`inttoptr`) that is a pointer's address passed through
  integer phis and selects -- LLVM's SROA turns a struct holding a pointer into integers, as in
  Rust's `Vec` -- is that pointer, through phis and selects of pointers: its shadow then
  follows it (an integer has none).

The copies are internal functions next to the original, made once per (function, positions).
What remains -- integer arithmetic on the bits of a float with a derivative that becomes a
float again, is stored or returned -- is reported by reverse-diff and forward-diff.

    %b = llvm.bitcast %x : f64 to i64
    %d = llvm.call @sub(%b, %k) : (i64, i64) -> !llvm.ptr
      ==>
    %d = llvm.call @sub.fbits.0(%x, %k) : (f64, i64) -> !llvm.ptr
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.analysis.callgraph import reachable
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext

_REQUESTS = (ad.AutodiffOp, ad.FwdDiffOp, ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp)


def _float_bits(v: SSAValue) -> SSAValue | None:
    """The float whose bits the integer `v` is (`bitcast <float> %f to iN`), else None."""
    op = v.owner
    if isinstance(op, xllvm.BitcastOp) and isinstance(v.type, IntegerType):
        src = op.operands[0]
        if isinstance(src.type, AnyFloat) and src.type.bitwidth == v.type.width.data:
            return src
    return None


def _as_float(v: SSAValue) -> Attribute | None:
    """The float type every use of the integer `v` bitcasts it to, if all of them do."""
    types = set()
    for use in v.uses:
        op = use.operation
        if isinstance(op, ext.DbgRecordOp):
            continue
        if not isinstance(op, xllvm.BitcastOp) or not isinstance(op.results[0].type, AnyFloat):
            return None
        types.add(op.results[0].type)
    if len(types) != 1:
        return None
    (t,) = types
    return t if isinstance(v.type, IntegerType) and t.bitwidth == v.type.width.data else None  # type: ignore[attr-defined]


class _Retyper:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
        self.copies: dict[tuple[str, tuple[tuple[int, Attribute], ...], bool], str] = {}

    def roots(self) -> list[str]:
        return [op.callee.string_value() for op in self.module.walk() if isinstance(op, _REQUESTS)]

    def run(self) -> None:
        done: set[str] = set()
        work = [f.sym_name.data for f in reachable(self.module, self.roots())]
        while work:
            name = work.pop()
            if name in done:
                continue
            done.add(name)
            fn = self.functions.get(name)
            if fn is None or not fn.body.blocks:
                continue
            for callee in self.function(fn):
                work.append(callee)
            work += [f.sym_name.data for f in reachable(self.module, [name]) if f.sym_name.data not in done]

    def function(self, fn: xllvm.FuncOp) -> list[str]:
        """Retype the accesses and calls of `fn`; the copies it now calls."""
        made: list[str] = []
        pointers = _Pointers(fn)
        for block in fn.body.blocks:
            for op in list(block.ops):
                if isinstance(op, ext.StoreOp):
                    self.store(op)
                elif isinstance(op, xllvm.LoadOp):
                    self.load(op)
                elif isinstance(op, xllvm.CallOp) and (c := self.call(op)) is not None:
                    made.append(c)
                elif isinstance(op, xllvm.IntToPtrOp):
                    pointers.restore(op)
                elif isinstance(op, xllvm.BitcastOp):
                    self.round_trip(op)
        return made

    def round_trip(self, op: xllvm.BitcastOp) -> None:
        """`bitcast (bitcast <float> %f to iN) to <float>` is %f (a copy's float parameter, cast
        back to the integer at entry, that the body casts to the float again)."""
        f = _float_bits(op.operands[0])
        if f is not None and f.type == op.results[0].type:
            op.results[0].replace_all_uses_with(f)
            op.detach()
            op.erase()

    def store(self, op: ext.StoreOp) -> None:
        f = _float_bits(op.value)
        if f is not None:
            op.operands = (f, *op.operands[1:])

    def load(self, op: xllvm.LoadOp) -> None:
        v = op.dereferenced_value
        t = _as_float(v)
        if t is None or not v.uses or _atomic_or_volatile(op):
            return
        new = xllvm.LoadOp.create(operands=list(op.operands), result_types=[t], properties=dict(op.properties),
                                  attributes=dict(op.attributes))  # fmt: skip
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        _replace_casts(v, new.results[0])
        op.detach()
        op.erase()

    def call(self, op: xllvm.CallOp) -> str | None:
        name = op.callee.string_value() if op.callee is not None else None
        fn = self.functions.get(name) if name is not None else None
        if fn is None or not fn.body.blocks or fn.function_type.is_variadic:
            return None
        params = [(i, f.type) for i, a in enumerate(op.args) if (f := _float_bits(a)) is not None]
        r = op.results[0] if op.results else None
        ret = r is not None and _as_float(r) is not None and self._returns_float_bits(fn)
        if not params and not ret:
            return None
        copy = self._copy(fn, tuple(params), ret)  # type: ignore[arg-type]
        args = [f if (f := _float_bits(a)) is not None else a for a in op.args]
        props = dict(op.properties)
        props["callee"] = SymbolRefAttr(copy)
        rtype = self.functions[copy].function_type.output
        new = xllvm.CallOp.create(operands=[*args, *op.op_bundle_operands],  # type: ignore[misc]
                                  result_types=[] if r is None else [rtype], properties=props,
                                  attributes=dict(op.attributes))  # fmt: skip
        new.location = op.location
        Rewriter.insert_op(new, InsertPoint.before(op))
        if r is not None:
            if ret:
                _replace_casts(r, new.results[0])
            else:
                r.replace_all_uses_with(new.results[0])
        op.detach()
        op.erase()
        return copy

    def _returns_float_bits(self, fn: xllvm.FuncOp) -> bool:
        rets = [b.last_op for b in fn.body.blocks if isinstance(b.last_op, xllvm.ReturnOp)]
        return bool(rets) and all(r.arg is not None and _float_bits(r.arg) is not None for r in rets)  # type: ignore[union-attr]

    def _copy(self, fn: xllvm.FuncOp, params: tuple[tuple[int, Attribute], ...], ret: bool) -> str:
        key = (fn.sym_name.data, params, ret)
        if key in self.copies:
            return self.copies[key]
        stem = ".".join([fn.sym_name.data, "fbits", *(str(i) for i, _ in params), *(["ret"] if ret else [])])
        name, k = stem, 0
        while name in self.functions:
            k += 1
            name = f"{stem}.{k}"
        copy = fn.clone()
        copy.properties["sym_name"] = StringAttr(name)
        copy.properties["linkage"] = xllvm.LinkageAttr("internal")
        copy.properties.pop("sym_visibility", None)
        copy.attributes.pop("md", None)  # (a distinct DISubprogram belongs to one function)
        entry = copy.body.blocks.first
        assert entry is not None
        inputs = list(fn.function_type.inputs.data)
        for i, ftype in params:
            old = entry.args[i]
            new = entry.insert_arg(ftype, i)
            cast = xllvm.BitcastOp(new, old.type)
            _prepend(entry, cast)
            old.replace_all_uses_with(cast.results[0])
            entry.erase_arg(old)
            inputs[i] = ftype
        output = fn.function_type.output
        if ret:
            for b in copy.body.blocks:
                term = b.last_op
                assert isinstance(term, xllvm.ReturnOp) and term.arg is not None
                f = _float_bits(term.arg)
                assert f is not None
                output = f.type
                term.operands = (f,)
        copy.properties["function_type"] = ext.LLVMFunctionType(inputs, output, fn.function_type.is_variadic)
        if ret:
            copy.properties.pop("res_attrs", None)
        self.module.body.block.insert_op_after(copy, fn)
        self.functions[name] = copy
        self.copies[key] = name
        return name


class _Pointers:
    """`inttoptr` of integers that are pointers' addresses (`ptrtoint`), through integer phis
    and selects: the same pointers, through phis and selects of pointers."""

    def __init__(self, fn: xllvm.FuncOp):
        self.fn = fn
        self.entry = fn.body.blocks.first
        self.made: dict[SSAValue, SSAValue] = {}
        self.preds: dict[Block, list[Block]] | None = None

    def restore(self, op: xllvm.IntToPtrOp) -> None:
        v = op.operands[0]
        if not isinstance(v.type, IntegerType) or v.type.width.data != 64 or not self._convertible(v, set()):
            return
        p = self._pointer(v, op)
        if p is not None and p is not op.results[0]:
            op.results[0].replace_all_uses_with(p)
            op.detach()
            op.erase()

    def _convertible(self, v: SSAValue, seen: set[SSAValue]) -> bool:
        """Whether `v` is only pointers' addresses, constants, phis and selects of them (with a
        phi, not just one constant: something must be a pointer)."""
        if v in seen or v in self.made:
            return True
        seen.add(v)
        op = v.owner
        if isinstance(op, xllvm.PtrToIntOp):
            return op.operands[0].type == ext.LLVMPointerType()
        if isinstance(op, xllvm.ConstantOp):
            return True
        if isinstance(op, ext.SelectOp):
            return self._convertible(op.lhs, seen) and self._convertible(op.rhs, seen)
        if isinstance(v, BlockArgument) and v.block is not self.entry:
            incoming = self._incoming(v)
            return incoming is not None and all(self._convertible(x, seen) for x in incoming)
        return False

    def _incoming(self, arg: BlockArgument) -> list[SSAValue] | None:
        out = []
        for pred in self._predecessors().get(arg.block, []):
            term = pred.last_op
            if isinstance(term, ext.InvokeOp) or term is None:
                return None
            for dest, values in ext.successor_operands(term):
                if dest is arg.block:
                    out.append(values[arg.index])
        return out

    def _predecessors(self) -> dict[Block, list[Block]]:
        if self.preds is None:
            self.preds = {}
            for b in self.fn.body.blocks:
                term = b.last_op
                if term is not None:
                    for dest in term.successors:
                        if b not in self.preds.setdefault(dest, []):
                            self.preds[dest].append(b)
        return self.preds

    def _pointer(self, v: SSAValue, at: Operation) -> SSAValue:
        """The pointer `v` is the address of (built before `at` where it must be made)."""
        if v in self.made:
            return self.made[v]
        op = v.owner
        ptr = ext.LLVMPointerType()
        if isinstance(op, xllvm.PtrToIntOp):
            return op.operands[0]
        if isinstance(op, xllvm.ConstantOp):
            cast = xllvm.IntToPtrOp(v)
            Rewriter.insert_op(cast, InsertPoint.after(op))
            self.made[v] = cast.results[0]
            return cast.results[0]
        if isinstance(op, ext.SelectOp):
            sel = ext.SelectOp(op.cond, self._pointer(op.lhs, op), self._pointer(op.rhs, op))
            Rewriter.insert_op(sel, InsertPoint.after(op))
            self.made[v] = sel.results[0]
            return sel.results[0]
        assert isinstance(v, BlockArgument)
        block = v.block
        new = block.insert_arg(ptr, len(block.args))
        self.made[v] = new
        for pred in list(self._predecessors().get(block, [])):
            term = pred.last_op
            assert term is not None
            values = [self._pointer(vals[v.index], term) if dest is block else None
                      for dest, vals in ext.successor_operands(term)]  # fmt: skip
            _add_edge_values(term, block, values)
        return new


def _add_edge_values(term: Operation, block: Block, values: list[SSAValue | None]) -> None:
    """Rebuild `term` passing one more value (`values[k]` on its k-th edge) to `block`."""
    edges = ext.successor_operands(term)
    args = [[*vals, values[k]] if dest is block else list(vals) for k, (dest, vals) in enumerate(edges)]
    if isinstance(term, xllvm.BrOp):
        new: Operation = xllvm.BrOp(edges[0][0], *args[0])
    elif isinstance(term, xllvm.CondBrOp):
        new = xllvm.CondBrOp(term.cond, edges[0][0], args[0], edges[1][0], args[1])
    else:
        assert isinstance(term, ext.SwitchOp)
        cases = [(c, d, a) for (c, _, _), (d, _), a in zip(term.cases(), edges[1:], args[1:], strict=True)]
        new = ext.SwitchOp(term.value, edges[0][0], args[0], cases)
    new.attributes.update(term.attributes)
    new.location = term.location
    Rewriter.replace_op(term, new)


def _replace_casts(v: SSAValue, new: SSAValue) -> None:
    """The bitcasts of `v` to a float become `new`; debug records of `v` go (they describe an
    integer that is no longer there)."""
    for use in list(v.uses):
        user = use.operation
        if not isinstance(user, ext.DbgRecordOp):
            user.results[0].replace_all_uses_with(new)
        user.detach()
        user.erase()


def _atomic_or_volatile(op: Operation) -> bool:
    ordering = op.properties.get("ordering")
    atomic = isinstance(ordering, IntegerAttr) and ordering.value.data != 0
    return atomic or "volatile_" in op.properties or "volatile_" in op.attributes


def _prepend(block: Block, op: Operation) -> None:
    first = block.first_op
    if first is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, first)


@dataclass(frozen=True)
class RestoreTypesPass(ModulePass):
    """Floats and pointers moved as integers get their types back, in the functions
    derivative requests reach (see the module docstring)."""

    name = "restore-types"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _Retyper(op).run()
