"""`raise-enzyme-calls`: Enzyme's C calling convention -> `autodiff` requests.

    %r = llvm.call @__enzyme_autodiff(@f, %m_dup, %x, %dx, %y) : (...) -> f64
      ==>
    %r = autodiff.autodiff @f(%x, %dx, %y) activity [dup, active] ret active : (...) -> f64

A call to a function whose name contains `__enzyme_autodiff` is a request (so C++ and CUDA's
mangled `_Z17__enzyme_autodiffPvz` is one too): the first
argument is the function to differentiate (after an `sret` pointer, when the result comes back
through one) -- its address, or that address in any form frontends pass it: cast to an integer
(Rust's `f as usize`, a `ptrtoint` constant expression or instruction) and back, bitcast or
cast to another address space, or loaded from a constant global that holds it -- then its
arguments, each optionally preceded by a marker -- a load of the global
`enzyme_dup` (or `enzyme_dupnoneed`, `enzyme_const`, `enzyme_out`), or the metadata string
`!"enzyme_dup"`.  Unmarked arguments follow Enzyme's defaults: floating point is active, a
pointer is duplicated (its shadow comes next), an integer is constant.

`enzyme_dup` and `enzyme_dupnoneed` are for pointers: on a value passed by value (a double, a
vector, a struct, an integer) the shadow could not receive anything, so they are an error, as is
an unmarked struct of floats passed by value (whose derivative cannot be returned yet).

The derivatives of the active arguments come back as the request's result -- one value, or a
struct in argument order -- and are converted to what the call returns in the C ABI: the same
type; the first derivative when the call returns the type of the first (as Enzyme does, for
`double __enzyme_autodiff(void *, ...)` with several active arguments); the same bytes in
another type of the same size (two floats as `<2 x float>`), through memory; or a store
through the `sret` pointer, when what it points to is large enough.  Anything else -- a float
derivative read as a double, with four undefined bytes -- is an error, as in Enzyme ("cannot
cast return type of gradient").

A request made with `invoke` (C++: cleanups or a try block around it) becomes a call and a
branch to the normal destination when the function differentiated cannot throw (`nounwind`),
and is an error otherwise.

Forward mode.  A call to a function whose name contains `__enzyme_fwddiff` becomes an
`autodiff.fwddiff` request.  Enzyme's conventions for it, as its documentation and test
programs show them (enzyme.mit.edu, "Examples", forward mode; Enzyme's forward-mode and
vector-mode integration tests):

* `__enzyme_fwddiff(f, x, dx)`: an unmarked floating-point argument is *duplicated*, not
  active -- its value is followed by its tangent, and the call returns f'(x)·dx.  `enzyme_out`
  has no meaning in forward mode and is an error here.
* Pointers are duplicated too (`enzyme_dup, p, dp`, or unmarked): the shadow provides input
  tangents, and receives the tangents of what the function writes -- overwritten, not
  accumulated as in reverse mode.  `enzyme_dupnoneed, out, dout` says the primal output is not
  needed; integers are constant by default; `enzyme_const` marks anything constant.
* `enzyme_width, N` (before the function's arguments, N a compile-time constant): N directions
  at once.  Each duplicated argument is followed by N tangents or shadows
  (`enzyme_dup, x, dx1, dx2, dx3`; for a scalar `x, 1.0, 0.0`), and the call returns the N
  tangents of the return value as the C ABI returns a struct of N values (`{double, double}`
  in registers; three or more through the hidden `sret` pointer).
* The call returns the tangent of f's floating-point return value; a function returning void
  or an integer has no tangent to return (its outputs are the shadows it writes).

Split mode.  `__enzyme_augmentfwd(f, args...)` runs f's forward sweep and keeps what its
reverse sweep needs on a tape; `__enzyme_reverse(f, args..., [d_ret], tape)` runs the reverse
sweep later, from that tape, accumulating into the shadows and returning the derivatives of
the active scalars as `__enzyme_autodiff` does; `__enzyme_augmentsize(f, markers...)` is the
size of the tape in bytes.  They become `autodiff.augment`, `autodiff.reverse` and
`autodiff.augmentsize` requests.  Enzyme's conventions (its split-mode integration tests and
the argument handling of its pass):

* Both halves take the arguments exactly as `__enzyme_autodiff` does (same markers and
  defaults), and must be given the same function and activities.  Between the halves the caller
  sets the seeds in the output shadows, and may change the memory the arguments point to: the
  tape keeps every value the reverse sweep reads.
* The augmented call returns a struct {tape, primal return, shadow of a pointer return}, leaving
  out what does not exist: a function returning void gives the bare `void *` tape.  A
  floating-point return is active, a pointer return comes with its shadow, an integer return is
  constant.  Declaring the call as returning `void *` gives the tape alone (the first field).
* The reverse call takes, after the arguments, the adjoint of a floating-point return and then
  the tape; it frees the tape.  Without the adjoint the return is seeded with 1.0 (possible
  only when the tape is given with `enzyme_tape`, which may come anywhere among the arguments).
* `enzyme_tape, p` without `enzyme_allocated`: the augmented call stores the tape pointer at
  `p` (instead of returning it), the reverse call loads it from there.
* `enzyme_allocated, size, enzyme_tape, buf` (on both halves): the tape itself lives in the
  caller's `size` bytes at `buf`, which nothing frees; the reverse frees only what the tape
  points to.  `size` must be known at compile time -- a constant, or the result of
  `__enzyme_augmentsize` -- and at least the tape's size (checked when the tape is laid out).
  The augmented call then returns {primal return, shadow}, or nothing for a void function.
* `__enzyme_augmentsize(f, enzyme_dup, enzyme_const, ...)` takes one marker per argument and no
  values; unmarked arguments cannot be written there.

Where Enzyme is silent or does something else, xenzyme's choices: a reverse whose tape visibly
comes from an augment (its result, or the same `enzyme_tape` memory) with another function,
other activities or another kind of tape is an error; `enzyme_allocated` without `enzyme_tape`
(Enzyme would pass the tape by value) is an error; a function without anything to keep has a
tape of 0 bytes; `enzyme_nofree` and `enzyme_primal_return` are not supported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat, ArrayAttr, DenseArrayBase, DictionaryAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, i32, i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue, TypeAttribute
from xdsl.passes import ModulePass

from xenzyme.analysis.activity import carries_derivative
from xenzyme.analysis.cfg import constant_int
from xenzyme.analysis.types import scalar_fields, size_align
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import scalar_constant
from xenzyme.transforms.diff.errors import location_of

ENTRY_POINTS = ("__enzyme_autodiff",)
"""Name fragments of the reverse-mode entry points handled here."""

FORWARD_ENTRY_POINTS = ("__enzyme_fwddiff",)
"""Name fragments of the forward-mode entry points."""

SPLIT_ENTRY_POINTS = {"__enzyme_augmentfwd": "augment", "__enzyme_reverse": "reverse", "__enzyme_augmentsize": "size"}
"""Name fragments of the split-mode entry points, and which request each makes."""

FORWARD_MARKERS = {"enzyme_dup": "dup", "enzyme_dupnoneed": "dupnoneed", "enzyme_const": "const"}

ARGUMENT_MARKERS = {"enzyme_dup": "dup", "enzyme_dupnoneed": "dupnoneed", "enzyme_const": "const", "enzyme_out": "active"}
LATER_MARKERS = {
    "enzyme_width", "enzyme_tape", "enzyme_allocated", "enzyme_primal_return", "enzyme_noret",
    "enzyme_nofree", "enzyme_runtime_activity", "enzyme_const_return", "enzyme_active_return",
    "enzyme_dup_return",
}  # fmt: skip


def marker_name(v: SSAValue) -> str | None:
    """`enzyme_dup` for `load @enzyme_dup` or `metadata !"enzyme_dup"`; None otherwise.

    In CUDA the markers are `__device__` globals, in address space 1: the load is through an
    `addrspacecast` of their address."""
    op = v.owner
    if isinstance(op, xllvm.LoadOp):
        src = op.ptr.owner
        while isinstance(src, ext.AddrSpaceCastOp):
            src = src.arg.owner
        if isinstance(src, xllvm.AddressOfOp):
            name = src.global_name.string_value()
            if name.startswith("enzyme_"):
                return name
    if isinstance(op, ext.MetadataOp):
        s = op.string_value()
        if s is not None and s.startswith("enzyme_"):
            return s
    if isinstance(op, xllvm.AddressOfOp):  # a marker passed by address by mistake
        name = op.global_name.string_value()
        if name in ARGUMENT_MARKERS or name in LATER_MARKERS:
            return name
    return None


def is_request(op: Operation) -> bool:
    if not isinstance(op, xllvm.CallOp | ext.InvokeOp) or op.callee is None:
        return False
    name = op.callee.string_value()
    return any(p in name for p in ENTRY_POINTS)


def split_entry(op: Operation) -> str | None:
    """The split-mode entry point `op` calls (`__enzyme_augmentfwd`, ...), or None."""
    if not isinstance(op, xllvm.CallOp | ext.InvokeOp) or op.callee is None:
        return None
    name = op.callee.string_value()
    return next((e for e in SPLIT_ENTRY_POINTS if e in name), None)


def is_forward_request(op: Operation) -> bool:
    if not isinstance(op, xllvm.CallOp | ext.InvokeOp) or op.callee is None:
        return False
    name = op.callee.string_value()
    return any(p in name for p in FORWARD_ENTRY_POINTS)


@dataclass
class _Request:
    fn: xllvm.FuncOp
    args: list[SSAValue]
    activities: list[str]
    sret: SSAValue | None


class Raiser:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.functions = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.FuncOp)}
        self.globals = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.GlobalOp)}
        src = module.attributes.get("llvm.source_filename")
        self.filename = src.data if isinstance(src, StringAttr) else None
        self.entry = "__enzyme_autodiff"

    def fail(self, call: Operation, message: str, notes: Sequence[str] = ()) -> XenzymeError:
        return XenzymeError(
            f"invalid {self.entry} call: {message}",
            location_of(call, self.filename) or SourceLocation(self.filename),
            list(notes),
        )

    def run(self) -> None:
        def is_split(op: Operation) -> bool:
            entry = split_entry(op)
            if entry is None:
                return False
            fn = self.functions.get(op.callee.string_value())  # type: ignore[union-attr]
            return fn is None or not fn.body.blocks

        calls = [op for op in self.module.walk() if is_request(op) or is_forward_request(op) or is_split(op)]
        # Tape sizes first: an `enzyme_allocated` size may be the result of __enzyme_augmentsize.
        calls.sort(key=lambda op: split_entry(op) != "__enzyme_augmentsize")
        used: set[str] = set()
        for call in calls:
            assert isinstance(call, xllvm.CallOp | ext.InvokeOp) and call.callee is not None
            used.add(call.callee.string_value())
            forward = is_forward_request(call)
            split = split_entry(call) if not forward and not is_request(call) else None
            self.entry = split or ("__enzyme_fwddiff" if forward else "__enzyme_autodiff")
            if isinstance(call, ext.InvokeOp):
                call = self._invoke_to_call(call)
            if split is not None:
                SplitCall(self, call, SPLIT_ENTRY_POINTS[split]).raise_it()
            elif forward:
                ForwardCall(self, call).raise_it()
            else:
                self.raise_call(call)
        for name in used:
            decl = self.functions.get(name)
            if decl is not None and not decl.body.blocks and not _has_uses(self.module, name):
                decl.detach()
                decl.erase()

    def _invoke_to_call(self, inv: ext.InvokeOp) -> xllvm.CallOp:
        """An `invoke` of an entry point (C++ with cleanups or a try block around the request)
        becomes a call and a branch to its normal destination.  That is exact when the function
        differentiated cannot throw, so neither can its derivative; otherwise it is an error."""
        args = list(inv.args)
        arg_attrs = inv.attributes.get("arg_attrs")
        if args and isinstance(arg_attrs, ArrayAttr) and arg_attrs.data:
            first = arg_attrs.data[0]
            if isinstance(first, DictionaryAttr) and "llvm.sret" in first.data:
                args.pop(0)
        if not args:
            raise self.fail(inv, "the first argument must be the function to differentiate")
        fn = self._function_of(inv, args[0])
        if not _nounwind(fn):
            raise self.fail(inv, f"the request is an invoke (it has an exception handler or cleanups), and @{fn.sym_name.data} "
                                 "may throw: exceptions through derivatives are not supported",
                            [f"declare @{fn.sym_name.data} noexcept, or let LLVM's optimiser infer that it cannot "
                             "throw first (the enzyme pipeline does)"])  # fmt: skip
        assert inv.callee is not None
        rtype = inv.result.type if inv.result is not None else None
        call = xllvm.CallOp.create(
            operands=list(inv.args),
            result_types=[rtype] if rtype is not None else [],
            properties={
                "callee": inv.callee,
                "fastmathFlags": xllvm.FastMathAttr(None),
                "CConv": inv.CConv,
                "TailCallKind": xllvm.TailCallKindAttr(xllvm.TailCallKind.NONE),
                "op_bundle_sizes": DenseArrayBase.from_list(i32, []),
                "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(inv.args), 0]),
            }
            | ({"var_callee_type": inv.var_callee_type} if inv.var_callee_type is not None else {}),
            attributes=dict(inv.attributes),
        )
        call.location = inv.location
        block = inv.parent_block()
        assert block is not None
        block.insert_ops_before([call, xllvm.BrOp(inv.normal_dest, *inv.normal_operands)], inv)
        if inv.result is not None:
            inv.result.replace_all_uses_with(call.results[0])
        unwind = inv.unwind_dest
        inv.detach()
        inv.erase()
        region = block.parent_region()
        if region is not None and not unwind.predecessors():
            _erase_unreachable_blocks(region)
        return call

    def parse(self, call: xllvm.CallOp) -> _Request:
        args = list(call.args)
        sret = None
        arg_attrs = call.attributes.get("arg_attrs")
        if args and isinstance(arg_attrs, ArrayAttr) and arg_attrs.data:
            first = arg_attrs.data[0]
            if isinstance(first, DictionaryAttr) and "llvm.sret" in first.data:
                sret = args.pop(0)
        if not args:
            raise self.fail(call, "the first argument must be the function to differentiate")
        fn = self._function_of(call, args[0])
        self._check_result_convention(call, fn)
        params = fn.function_type.inputs.data
        acts: list[str] = []
        primal_args: list[SSAValue] = []
        i = 1
        while i < len(args):
            a = args[i]
            marker = marker_name(a)
            if marker is not None:
                if marker in LATER_MARKERS:
                    raise self.fail(call, f"{marker} is not supported with __enzyme_autodiff yet")
                if marker not in ARGUMENT_MARKERS:
                    raise self.fail(call, f"unknown marker '{marker}'",
                                    [f"known markers: {', '.join(sorted(ARGUMENT_MARKERS))}"])  # fmt: skip
                act = ARGUMENT_MARKERS[marker]
                i += 1
                if i >= len(args):
                    raise self.fail(call, f"{marker} must be followed by an argument")
            else:
                act = None
            j = len(acts)
            if j >= len(params):
                raise self.fail(call, f"too many arguments: @{fn.sym_name.data} takes {len(params)}")
            act, operands, i = self.argument(call, fn, args, i, j, act)
            primal_args += operands
            acts.append(act)
        if len(acts) != len(params):
            raise self.fail(call, f"too few arguments: @{fn.sym_name.data} takes {len(params)}, got {len(acts)}")
        return _Request(fn, primal_args, acts, sret)

    def argument(self, call: xllvm.CallOp, fn: xllvm.FuncOp, args: list[SSAValue], i: int, j: int,
                 act: str | None) -> tuple[str, list[SSAValue], int]:
        """Check argument `j` of `fn`, at `args[i]`, with its marked activity (None: Enzyme's
        default for its type); its activity, the operands it gives (with its shadow), and the
        index after them."""
        params = fn.function_type.inputs.data
        primal_args: list[SSAValue] = []
        value = args[i]
        expected = params[j]
        if value.type != expected:
            note = []
            if isinstance(value.type, type(expected)) is False and "f64" in str(value.type) and "f32" in str(expected):
                note = [f"a float passed through `...` is promoted to double; declare a prototype for {self.entry} with float parameters"]
            raise self.fail(call, f"argument {j} of @{fn.sym_name.data} has type {expected}, got {value.type}", note)
        if act is None:
            act = _default_activity(expected)
            if act == "const" and carries_derivative(expected):
                raise self.fail(call, f"argument {j} ({expected}) holds floating-point values passed by value, "
                                      "whose derivative reverse mode cannot return yet",
                                ["mark it enzyme_const if it needs no derivative, or pass it by pointer "
                                 "with enzyme_dup and a shadow that receives its derivative"])  # fmt: skip
        if act == "active" and not ad.is_float_like(expected):
            raise self.fail(call, f"argument {j} is marked active but is not floating point ({expected})",
                            ["use enzyme_dup for pointers and enzyme_const for integers"])  # fmt: skip
        if ad.has_shadow(act) and carries_derivative(expected):
            raise self.fail(call, f"argument {j} ({expected}) is passed by value and marked enzyme_{act}: "
                                  "a shadow passed by value cannot receive its derivative",
                            ["pass a floating-point argument without a marker or with enzyme_out to get its "
                             "derivative returned, or with enzyme_const for none; enzyme_dup is for pointers"])  # fmt: skip
        if ad.has_shadow(act) and not isinstance(expected, ext.LLVMPointerType):
            raise self.fail(call, f"argument {j} ({expected}) is marked enzyme_{act} but is not a pointer: "
                                  "reverse mode gives shadows to pointers only",
                            ["mark integers enzyme_const; pass an address held in an integer as a pointer"])  # fmt: skip
        primal_args.append(value)
        i += 1
        if ad.has_shadow(act):
            if i >= len(args):
                raise self.fail(call, f"argument {j} ({act}) needs a shadow argument after it")
            shadow = args[i]
            if shadow.type != expected:
                raise self.fail(call, f"the shadow of argument {j} has type {shadow.type}, expected {expected}")
            primal_args.append(shadow)
            i += 1
        return act, primal_args, i

    def _check_result_convention(self, call: Operation, fn: xllvm.FuncOp) -> None:
        """Reverse mode seeds a floating-point return with 1.0; a struct of floats returned by
        value or through a hidden pointer has no such seed (Enzyme's C interface too)."""
        name = fn.sym_name.data
        hint = ["return a single double, or write the results to an output array passed with "
                "enzyme_dup, whose shadow is the seed"]  # fmt: skip
        if fn.arg_attrs is not None and fn.arg_attrs.data:
            first = fn.arg_attrs.data[0]
            if isinstance(first, DictionaryAttr) and "llvm.sret" in first.data:
                raise self.fail(call, f"@{name} returns a struct through a hidden pointer, which reverse mode cannot seed", hint)
        ret = fn.function_type.output
        if not ad.is_float_like(ret) and carries_derivative(ret):
            raise self.fail(call, f"@{name} returns {ret}, which holds floating-point values; "
                                  "reverse mode seeds only a floating-point return", hint)  # fmt: skip

    def _function_of(self, call: Operation, v: SSAValue) -> xllvm.FuncOp:
        op = self._address_of(v)
        if op is None:
            raise self.fail(call, "the first argument must be a function known at compile time",
                            ["pass the function itself: its address (`(void *)f`), the address as an integer "
                             "(`f as usize` in Rust), a cast of it, or a load from a constant global holding it"])  # fmt: skip
        name = op.global_name.string_value()
        fn = self.functions.get(name)
        if fn is None:
            raise self.fail(call, f"@{name} is not a function")
        if not fn.body.blocks:
            raise self.fail(call, f"@{name} is only declared in this module: its body is needed to differentiate it",
                            ["define it in the same file (or link its module into this one first)"])  # fmt: skip
        return fn

    def _address_of(self, v: SSAValue, depth: int = 0) -> xllvm.AddressOfOp | None:
        """The `addressof` that `v` is, in any form frontends pass a function in: the pointer,
        casts of it (bitcast, address space, `ptrtoint` -- Rust's `f as usize` -- and back), or
        a load of a constant global whose initializer is one of those."""
        op = v.owner
        while isinstance(op, xllvm.BitcastOp | ext.AddrSpaceCastOp | xllvm.PtrToIntOp | xllvm.IntToPtrOp):
            op = op.operands[0].owner
        if isinstance(op, xllvm.AddressOfOp):
            return op
        if not isinstance(op, xllvm.LoadOp) or depth > 4:
            return None
        src = self._address_of(op.ptr, depth + 1)
        glob = self.globals.get(src.global_name.string_value()) if src is not None else None
        if glob is None or glob.constant is None or size_align(glob.global_type) != size_align(op.dereferenced_value.type):
            return None
        ret = glob.body.block.last_op if glob.body.blocks else None
        if not isinstance(ret, xllvm.ReturnOp) or ret.arg is None:
            return None
        return self._address_of(ret.arg, depth + 1)

    def raise_call(self, call: xllvm.CallOp) -> None:
        req = self.parse(call)
        fn = req.fn
        ret = fn.function_type.output
        ret_act = "none" if isinstance(ret, ext.LLVMVoidType) else "active" if ad.is_float_like(ret) else "const"
        actives = [p for p, a in zip(fn.function_type.inputs.data, req.activities, strict=True) if a == "active"]
        rtype = ad.derivative_result_type(actives)
        op = ad.AutodiffOp(fn.sym_name.data, req.args, req.activities, ret_act, rtype)
        op.location = call.location
        block = call.parent_block()
        assert block is not None
        block.insert_op_before(op, call)
        self._deliver(call, op, rtype)
        call.detach()
        call.erase()

    def _deliver(self, call: xllvm.CallOp, op: ad.AutodiffOp, rtype: Attribute | None) -> None:
        """Hand the derivatives to the caller the way the C ABI expects them."""
        block = call.parent_block()
        assert block is not None
        got = call.returned.type if call.returned is not None else None
        sret = self.parse_sret(call)
        if op.res is None:
            if call.returned is not None:
                if call.returned.uses:
                    raise self.fail(call, "no argument is active, so there is no derivative to return",
                                    ["declare __enzyme_autodiff as returning void, or mark an argument active"])  # fmt: skip
            return
        assert rtype is not None
        if sret is not None:
            target = self._sret_type(call)
            have, need = _size(target), _data_size(rtype)
            if have is None or need is None or need > have:
                raise self.fail(call, f"cannot cast return type of {_result_name(self.entry)} {rtype} ({_bytes(need)}) to the "
                                      f"struct returned through the sret pointer, {target} ({_bytes(have)})",
                                _return_notes(self.entry, rtype))  # fmt: skip
            store = ext.StoreOp(op.res, sret)
            block.insert_op_before(store, call)
            return
        if got is None or not call.returned.uses:  # type: ignore[union-attr]
            return
        if got == rtype:
            call.returned.replace_all_uses_with(op.res)  # type: ignore[union-attr]
            return
        if isinstance(rtype, ext.LLVMStructType) and rtype.types.data[0] == got:
            # As Enzyme: a call returning the type of the first derivative gets the first one.
            first = xllvm.ExtractValueOp.create(
                operands=[op.res], properties={"position": DenseArrayBase.from_list(i64, [0])}, result_types=[got]
            )
            block.insert_op_before(first, call)
            call.returned.replace_all_uses_with(first.results[0])  # type: ignore[union-attr]
            return
        have, need = _data_size(got), _data_size(rtype)
        if have is None or need is None or have != need:
            # More bytes would be garbage, fewer a truncated derivative (Enzyme rejects both).
            raise self.fail(call, f"cannot cast return type of {_result_name(self.entry)} {rtype} ({_bytes(need)}) "
                                  f"to the call's return type {got} ({_bytes(have)})",
                            _return_notes(self.entry, rtype))  # fmt: skip
        # Same bytes, another type (e.g. two floats returned as <2 x float>): through memory.
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        slot = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()], properties={"elem_type": _larger(rtype, got)})
        entry = block.parent_region().blocks.first  # type: ignore[union-attr]
        entry.insert_ops_before([one, slot], entry.first_op)  # type: ignore[arg-type]
        store = ext.StoreOp(op.res, slot.res)
        load = xllvm.LoadOp(slot.res, got)
        block.insert_ops_before([store, load], call)
        call.returned.replace_all_uses_with(load.dereferenced_value)  # type: ignore[union-attr]

    def _sret_type(self, call: xllvm.CallOp) -> Attribute | None:
        arg_attrs = call.attributes.get("arg_attrs")
        if isinstance(arg_attrs, ArrayAttr) and arg_attrs.data and isinstance(first := arg_attrs.data[0], DictionaryAttr):
            t = first.data.get("llvm.sret")
            return t if isinstance(t, TypeAttribute) else None
        return None

    def parse_sret(self, call: xllvm.CallOp) -> SSAValue | None:
        arg_attrs = call.attributes.get("arg_attrs")
        if call.args and isinstance(arg_attrs, ArrayAttr) and arg_attrs.data:
            first = arg_attrs.data[0]
            if isinstance(first, DictionaryAttr) and "llvm.sret" in first.data:
                return call.args[0]
        return None


class ForwardCall:
    """One `__enzyme_fwddiff` call: its arguments parsed by Enzyme's forward-mode conventions
    (the module docstring), then replaced by an `autodiff.fwddiff` request."""

    def __init__(self, raiser: Raiser, call: xllvm.CallOp):
        self.raiser = raiser
        self.call = call

    def fail(self, message: str, notes: Sequence[str] = ()) -> XenzymeError:
        return self.raiser.fail(self.call, message, notes)

    def parse(self) -> tuple[xllvm.FuncOp, list[SSAValue], list[str], int]:
        call = self.call
        args = list(call.args)
        if self.raiser.parse_sret(call) is not None:
            args.pop(0)
        if not args:
            raise self.fail("the first argument must be the function to differentiate")
        fn = self.raiser._function_of(call, args[0])
        name = fn.sym_name.data
        if fn.arg_attrs is not None and fn.arg_attrs.data:
            first = fn.arg_attrs.data[0]
            if isinstance(first, DictionaryAttr) and "llvm.sret" in first.data:
                raise self.fail(f"@{name} returns a struct through a hidden pointer, which forward mode cannot return",
                                ["write the results to an output array passed with enzyme_dup; its shadow receives the tangents"])  # fmt: skip
        params = fn.function_type.inputs.data
        width: int | None = None
        acts: list[str] = []
        operands: list[SSAValue] = []
        i = 1
        while i < len(args):
            marker = marker_name(args[i])
            act: str | None = None
            if marker == "enzyme_width":
                if acts or width is not None:
                    raise self.fail("enzyme_width must come once, before the function's arguments")
                if i + 1 >= len(args):
                    raise self.fail("enzyme_width must be followed by the number of directions")
                n = constant_int(args[i + 1])
                if n is None or n < 1:
                    raise self.fail("the width after enzyme_width must be a positive integer constant",
                                    ["write the number of directions as a literal, e.g. enzyme_width, 4"])  # fmt: skip
                width = n
                i += 2
                continue
            if marker == "enzyme_out":
                raise self.fail("enzyme_out (an active argument) has no meaning in forward mode",
                                ["pass a scalar with its tangent: enzyme_dup, x, dx (or unmarked: x, dx)"])  # fmt: skip
            if marker is not None:
                if marker in LATER_MARKERS:
                    raise self.fail(f"{marker} is not supported with __enzyme_fwddiff yet")
                if marker not in FORWARD_MARKERS:
                    raise self.fail(f"unknown marker '{marker}'",
                                    [f"known markers: {', '.join(sorted([*FORWARD_MARKERS, 'enzyme_width']))}"])  # fmt: skip
                act = FORWARD_MARKERS[marker]
                i += 1
                if i >= len(args):
                    raise self.fail(f"{marker} must be followed by an argument")
            j = len(acts)
            if j >= len(params):
                raise self.fail(f"too many arguments: @{name} takes {len(params)}")
            value, expected = args[i], params[j]
            if value.type != expected:
                raise self.fail(f"argument {j} of @{name} has type {expected}, got {value.type}", _promotion_note(value.type, expected))
            if act is None:
                act = _default_forward_activity(expected)
            if ad.has_shadow(act) and not _has_tangent(expected):
                raise self.fail(f"argument {j} is marked {'enzyme_' + act} but has no derivative ({expected})",
                                ["mark integers enzyme_const"])  # fmt: skip
            operands.append(value)
            i += 1
            if ad.has_shadow(act):
                n = width or 1
                what = "shadow" if isinstance(expected, ext.LLVMPointerType) else "tangent"
                if i + n > len(args):
                    raise self.fail(f"argument {j} ({act}) needs {n} {what}{'s' if n > 1 else ''} after it"
                                    + (f" (enzyme_width {n})" if width else ""))  # fmt: skip
                for k in range(n):
                    shadow = args[i + k]
                    if shadow.type != expected:
                        raise self.fail(f"the {what} of argument {j} has type {shadow.type}, expected {expected}",
                                        _promotion_note(shadow.type, expected))  # fmt: skip
                    operands.append(shadow)
                i += n
            acts.append(act)
        if len(acts) != len(params):
            raise self.fail(f"too few arguments: @{name} takes {len(params)}, got {len(acts)}")
        return fn, operands, acts, width or 1

    def raise_it(self) -> None:
        call = self.call
        fn, operands, acts, width = self.parse()
        ret = fn.function_type.output
        if isinstance(ret, ext.LLVMVoidType):
            ret_act = "none"
        elif ad.is_float_like(ret) or carries_derivative(ret):
            ret_act = "dupnoneed"
        else:
            ret_act = "const"
        rtype = ad.fwddiff_result_type(ret, ret_act, width)
        if rtype is None and call.returned is not None and call.returned.uses:
            raise self.fail(f"@{fn.sym_name.data} returns {ret}, which has no tangent to return",
                            ["declare __enzyme_fwddiff as returning void; the tangents of outputs are written to their shadows"])  # fmt: skip
        op = ad.FwdDiffOp(fn.sym_name.data, operands, acts, ret_act, rtype, width)
        op.location = call.location
        block = call.parent_block()
        assert block is not None
        block.insert_op_before(op, call)
        self.raiser._deliver(call, op, rtype)  # type: ignore[arg-type]
        call.detach()
        call.erase()


class SplitCall:
    """One `__enzyme_augmentfwd`, `__enzyme_reverse` or `__enzyme_augmentsize` call, parsed by
    Enzyme's split-mode conventions (the module docstring) and replaced by an `autodiff.augment`,
    `autodiff.reverse` or `autodiff.augmentsize` request."""

    def __init__(self, raiser: Raiser, call: xllvm.CallOp, kind: str):
        self.raiser = raiser
        self.call = call
        self.kind = kind
        """`augment`, `reverse` or `size`."""

    def fail(self, message: str, notes: Sequence[str] = ()) -> XenzymeError:
        return self.raiser.fail(self.call, message, notes)

    def raise_it(self) -> None:
        call = self.call
        block = call.parent_block()
        assert block is not None
        fn, operands, acts, ret_act, seed, tape, size, tape_marker = self.parse()
        name = fn.sym_name.data
        op: Operation
        if self.kind == "size":
            got = call.returned.type if call.returned is not None else None
            if not isinstance(got, IntegerType):
                if call.returned is not None and call.returned.uses:
                    raise self.fail(f"__enzyme_augmentsize returns the size of the tape in bytes, not {got}",
                                    ["declare it as returning an integer: size_t __enzyme_augmentsize(void *, ...)"])  # fmt: skip
                call.detach()
                call.erase()
                return
            op = ad.AugmentSizeOp(name, acts, ret_act, got)
            op.location = call.location
            block.insert_op_before(op, call)
            call.returned.replace_all_uses_with(op.res)  # type: ignore[union-attr]
            call.detach()
            call.erase()
            return
        if size is not None and not tape_marker:
            raise self.fail("enzyme_allocated needs enzyme_tape followed by the memory that holds the tape",
                            ["pass enzyme_allocated, size, enzyme_tape, buffer"])  # fmt: skip
        kind = "buffer" if size is not None else "slot" if tape_marker else "value"
        if self.kind == "augment":
            rtype = ad.augment_result_type(fn.function_type.output, ret_act, kind)
            op = ad.AugmentOp(name, operands, acts, ret_act, kind, rtype, tape=tape, size=size)
            if rtype is None and call.returned is not None and call.returned.uses:
                raise self.fail(f"the tape is kept in the caller's memory and @{name} returns void: "
                                "there is nothing to return", ["declare __enzyme_augmentfwd as returning void"])  # fmt: skip
        else:
            if tape is None:
                raise self.fail("missing tape argument: the reverse pass needs the tape that __enzyme_augmentfwd made",
                                ["pass it after the arguments (after the return adjoint of a floating-point "
                                 "return), or as enzyme_tape, tape"])  # fmt: skip
            if ret_act == "active" and seed is None:  # Enzyme's default: a return adjoint of 1.0
                rt = fn.function_type.output
                one = scalar_constant(1.0, rt)
                block.insert_op_before(one, call)
                seed = one.result
            actives = [p for p, a in zip(fn.function_type.inputs.data, acts, strict=True) if a == "active"]
            rtype = ad.derivative_result_type(actives)
            op = ad.ReverseOp(name, operands, acts, ret_act, kind, rtype, seed=seed, tape=tape, size=size)
        op.location = call.location
        block.insert_op_before(op, call)
        if op.results:
            self.raiser._deliver(call, op, rtype)  # type: ignore[arg-type]
        call.detach()
        call.erase()

    def parse(self):  # noqa: ANN201 (a tuple of the parts of the request)
        """The function, operands, activities, return activity, return adjoint, tape pointer,
        buffer size, and whether the tape was given with `enzyme_tape`."""
        call, raiser = self.call, self.raiser
        args = list(call.args)
        if raiser.parse_sret(call) is not None:
            args.pop(0)
        if not args:
            raise self.fail("the first argument must be the function to differentiate")
        fn = raiser._function_of(call, args[0])
        raiser._check_result_convention(call, fn)
        name = fn.sym_name.data
        params = fn.function_type.inputs.data
        ret = fn.function_type.output
        ret_act = _split_return_activity(ret)
        acts: list[str] = []
        operands: list[SSAValue] = []
        seed = tape = size = None
        tape_marker = False
        i = 1
        while i < len(args):
            marker = marker_name(args[i])
            if marker in ("enzyme_allocated", "enzyme_tape"):
                if self.kind == "size":
                    raise self.fail(f"{marker} has no meaning in __enzyme_augmentsize, which takes one activity "
                                    "marker per argument")  # fmt: skip
                if i + 1 >= len(args):
                    raise self.fail(f"{marker} must be followed by " + ("the size of the tape's memory" if marker == "enzyme_allocated" else "the tape"))
                value = args[i + 1]
                if marker == "enzyme_allocated":
                    if not isinstance(value.type, IntegerType):
                        raise self.fail(f"the size after enzyme_allocated must be an integer, got {value.type}")
                    if not _known_size(value):
                        raise self.fail("the size after enzyme_allocated must be a compile-time constant",
                                        ["write a constant (or the result of __enzyme_augmentsize) there; xenzyme checks at "
                                         "compile time that the memory is large enough for the tape"])  # fmt: skip
                    size = value
                else:
                    if not isinstance(value.type, ext.LLVMPointerType):
                        raise self.fail(f"enzyme_tape must be followed by a pointer, got {value.type}")
                    tape, tape_marker = value, True
                i += 2
                continue
            act: str | None = None
            if marker is not None:
                if marker not in ARGUMENT_MARKERS:
                    known = sorted([*ARGUMENT_MARKERS, "enzyme_allocated", "enzyme_tape"])
                    if marker in LATER_MARKERS:
                        raise self.fail(f"{marker} is not supported with {raiser.entry} yet",
                                        ["leave it out: the reverse call frees the tape, so each tape is reversed once"
                                         if marker == "enzyme_nofree" else "leave it out"])  # fmt: skip
                    raise self.fail(f"unknown marker '{marker}'", [f"known markers: {', '.join(known)}"])
                act = ARGUMENT_MARKERS[marker]
                if self.kind == "size":
                    if len(acts) >= len(params):
                        raise self.fail(f"too many activities: @{name} takes {len(params)} arguments")
                    acts.append(act)
                    i += 1
                    continue
                i += 1
                if i >= len(args):
                    raise self.fail(f"{marker} must be followed by an argument")
            elif self.kind == "size":
                raise self.fail("__enzyme_augmentsize takes the function and one activity marker per argument, "
                                "without the arguments", [f"e.g. __enzyme_augmentsize((void *){name}, enzyme_dup, enzyme_const)"])  # fmt: skip
            j = len(acts)
            if j >= len(params):
                value = args[i]
                if act is None and self.kind == "reverse" and ret_act == "active" and seed is None:
                    if value.type != ret:
                        raise self.fail(f"the return adjoint of @{name} must have type {ret}, got {value.type}",
                                        ["after the arguments come the adjoint of the return value, then the tape"])  # fmt: skip
                    seed = value
                elif act is None and self.kind == "reverse" and tape is None:
                    if not isinstance(value.type, ext.LLVMPointerType):
                        raise self.fail(f"the tape must be a pointer, got {value.type}",
                                        ["pass the tape that __enzyme_augmentfwd returned"])  # fmt: skip
                    tape = value
                else:
                    raise self.fail(f"too many arguments: @{name} takes {len(params)}")
                i += 1
                continue
            act, given, i = raiser.argument(call, fn, args, i, j, act)
            operands += given
            acts.append(act)
        if len(acts) != len(params):
            what = "activities" if self.kind == "size" else "arguments"
            raise self.fail(f"too few {what}: @{name} takes {len(params)}, got {len(acts)}")
        return fn, operands, acts, ret_act, seed, tape, size, tape_marker


def _split_return_activity(ret: Attribute) -> str:
    """As Enzyme: a floating-point return is active, a pointer comes with its shadow."""
    if isinstance(ret, ext.LLVMVoidType):
        return "none"
    if ad.is_float_like(ret):
        return "active"
    if isinstance(ret, ext.LLVMPointerType):
        return "dup"
    return "const"


def _known_size(v: SSAValue) -> bool:
    """A constant, or what __enzyme_augmentsize returns (a constant once the tape is laid out)."""
    while isinstance(v.owner, xllvm.ZExtOp | xllvm.SExtOp | xllvm.TruncOp):
        v = v.owner.operands[0]
    return constant_int(v) is not None or isinstance(v.owner, ad.AugmentSizeOp)



def _promotion_note(got: Attribute, expected: Attribute) -> list[str]:
    if str(got) == "f64" and str(expected) == "f32":
        return ["a float passed through `...` is promoted to double; declare a prototype for the "
                "entry point with float parameters"]  # fmt: skip
    return []


def _has_tangent(t: Attribute) -> bool:
    return carries_derivative(t) or isinstance(t, ext.LLVMPointerType)


def _default_forward_activity(t: Attribute) -> str:
    """Forward mode duplicates floating-point values and pointers; integers are constant."""
    return "dup" if _has_tangent(t) else "const"


def _size(t: Attribute | None) -> int | None:
    sa = size_align(t) if t is not None else None
    return None if sa is None else sa[0]


def _data_size(t: Attribute) -> int | None:
    """Bytes from the start of `t` to the end of its last scalar (its size without tail
    padding), or None for a type without a known layout."""
    fields = scalar_fields(t)
    if not fields:
        return None
    ends = []
    for offset, scalar in fields:
        if isinstance(scalar, AnyFloat | IntegerType):
            n = (scalar.bitwidth + 7) // 8 if isinstance(scalar, AnyFloat) else (scalar.width.data + 7) // 8
        else:
            n = _size(scalar)
            if n is None:
                return None
        ends.append(offset + n)
    return max(ends)


def _bytes(n: int | None) -> str:
    return "size unknown" if n is None else f"{n} byte{'s' if n != 1 else ''}"


_C_NAMES = {"f16": "_Float16", "f32": "float", "f64": "double", "f80": "long double", "f128": "__float128"}


def _result_name(entry: str) -> str:
    return "the augmented forward pass" if entry == "__enzyme_augmentfwd" else "gradient"


def _return_notes(entry: str, rtype: Attribute) -> list[str]:
    if entry == "__enzyme_augmentfwd":
        return [f"declare {entry} as returning {rtype}: the tape (unless enzyme_allocated keeps it in a buffer), "
                "the primal return, the shadow of a returned pointer; or void * for the tape alone"]  # fmt: skip
    if isinstance(rtype, ext.LLVMStructType):
        return [f"declare {entry} as returning a struct of the derivatives in argument order ({rtype}), "
                "or a type of the same size"]  # fmt: skip
    return [f"declare {entry} as returning {_C_NAMES.get(str(rtype), str(rtype))}, the type of the derivative"]


def _larger(a: Attribute, b: Attribute) -> Attribute:
    """A type at least as large as both (for a reinterpreting round trip through memory)."""
    return ext.LLVMStructType.from_type_list([a, b]) if a != b else a


def _default_activity(t: Attribute) -> str:
    if ad.is_float_like(t):
        return "active"
    if isinstance(t, ext.LLVMPointerType):
        return "dup"
    return "const"


def _nounwind(fn: xllvm.FuncOp) -> bool:
    passthrough = fn.passthrough
    return passthrough is not None and any(
        isinstance(a, StringAttr) and a.data == "nounwind" for a in passthrough.data
    )


def _erase_unreachable_blocks(region: Region) -> None:
    """Remove the blocks that the entry block no longer reaches (a landing pad whose only
    invoke became a call): their values are used only among themselves."""
    entry = region.blocks.first
    if entry is None:
        return
    reached: set[Block] = set()
    work = [entry]
    while work:
        b = work.pop()
        if b in reached:
            continue
        reached.add(b)
        if b.last_op is not None:
            work.extend(b.last_op.successors)
    dead = [b for b in region.blocks if b not in reached]
    for b in dead:
        for op in b.ops:
            op.operands = ()
            op.successors = ()
    for b in dead:
        region.detach_block(b)
        b.erase(safe_erase=False)


def _has_uses(module: ModuleOp, name: str) -> bool:
    for op in module.walk():
        if isinstance(op, xllvm.CallOp) and op.callee is not None and op.callee.string_value() == name:
            return True
        if isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() == name:
            return True
    return False


@dataclass(frozen=True)
class RaiseEnzymeCallsPass(ModulePass):
    """Turn `__enzyme_autodiff(...)` calls into `autodiff.autodiff` requests,
    `__enzyme_fwddiff(...)` calls into `autodiff.fwddiff` requests, and the split-mode entry
    points into `autodiff.augment` / `autodiff.reverse` / `autodiff.augmentsize` requests."""

    name = "raise-enzyme-calls"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        Raiser(op).run()


ITERATION_COUNTER = "__enzyme_iter"
"""`__enzyme_iter(a, b)`: `a + b` for each derivative taken of the code holding it (the rule in
rules/enzyme_abi.py), `a` where none was (`lower_enzyme_iter`)."""


def lower_enzyme_iter(module: ModuleOp) -> None:
    """The calls of `__enzyme_iter(a, b)` left after differentiation become `a`."""
    for op in list(module.walk()):
        if isinstance(op, xllvm.CallOp) and op.callee is not None and op.callee.string_value() == ITERATION_COUNTER:
            if len(op.args) != 2 or not op.results:
                raise XenzymeError("__enzyme_iter takes two integers and returns one", location_of(op, None))
            op.results[0].replace_all_uses_with(op.args[0])
            op.detach()
            op.erase()
