"""Which gradient functions exist: each function is differentiated once per activity pattern
(and once per pattern in split mode), on a prepared copy of it, and named before its body is
built so that recursive functions call their own gradients."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, ModuleOp, i64
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.activity import analyze_activity
from xenzyme.analysis.alias import KEEP_SHADOW, RELEASE_SHADOW
from xenzyme.analysis.callees import CalleeIndex, is_indirect_call
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.analysis.hints import CustomGradient, Hints
from xenzyme.analysis.types import TBAA, size_align
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, call_op
from xenzyme.transforms.diff.builder import GradientBuilder
from xenzyme.transforms.diff.calls import _pack, _sret_type, _unpack, custom_derivative_fields
from xenzyme.transforms.diff.indirect_calls import resolved_copy
from xenzyme.transforms.diff.prepare import prepare
from xenzyme.transforms.diff.symbols import ModuleSymbols
from xenzyme.transforms.diff.tape import augmented_fields


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
        self.fresh_returns: dict[tuple[str, str], str] = {}
        """Split functions whose returned pointer is heap memory allocated during the call, and
        the function that gives it back (the shadow is fresh memory of the same kind: see
        `ReverseCalls.fresh_memory_release`)."""
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
        self.symbols = ModuleSymbols(module)
        self.filename = self.symbols.filename
        self.device = gpu.is_device_code(module)
        """GPU code: every thread of a launch runs the derivatives at once."""
        self.device_varying: dict[str, tuple[set[int], set[int]]] = {}
        """GPU code: the parameters of each differentiated function that vary between the threads
        of a block, and across the grid, at some request (all of them when unknown)."""

    def gradient(self, fn: xllvm.FuncOp, acts: list[str], ret: str) -> str:
        key = (fn.sym_name.data, tuple(acts), ret)
        if key in self.generated:
            return self.generated[key]
        name = self.generated[key] = self.symbols.fresh_name(f"diffe{fn.sym_name.data}")
        self.symbols.reserved.add(name)
        (gfn,), _ = self._build(fn, acts, ret, name, split=False)
        self.module.body.block.insert_op_after(gfn, fn)
        return name

    def split_functions(self, fn: xllvm.FuncOp, acts: list[str], ret: str, tape_buffer: bool = False,
                        team: bool = False) -> tuple[str, str]:
        """Names of `fn`'s augmented forward and reverse functions for these activities,
        generating them the first time.  Names are fixed before the bodies are built, so a
        recursive function's halves call themselves.  With `tape_buffer` the augmented function
        takes the memory for its tape as its last argument (split-mode requests with
        `enzyme_allocated`).  With `team`, the functions run on every thread of a team (a
        parallel region's body, and what it calls): see `GradientBuilder.team`."""
        key = (fn.sym_name.data, tuple(acts), ret, "buffer" if tape_buffer else "team" if team else "split")
        if key in self.split_generated:
            return self.split_generated[key]
        names = (self.symbols.fresh_name(f"augmented_{fn.sym_name.data}"), self.symbols.fresh_name(f"reverse_{fn.sym_name.data}"))
        self.split_generated[key] = names
        self.symbols.reserved.update(names)
        funcs, builder = self._build(fn, acts, ret, names, split=True, tape_buffer=tape_buffer, team=team)
        if ret == "dup" and (release := builder.calls.fresh_memory_release()) is not None:
            self.fresh_returns[names] = release
        layout = size_align(builder.tape_type) if builder.tape_type is not None and builder.caching.all_caches else (0, 1)
        assert layout is not None
        self.tape_sizes[names] = layout[0]
        anchor: Operation = fn
        for f in funcs:
            self.module.body.block.insert_op_after(f, anchor)
            anchor = f
        return names

    def _build(self, fn: xllvm.FuncOp, acts: list[str], ret: str, name: str | tuple[str, str], split: bool,
               tape_buffer: bool = False, team: bool = False) -> tuple[list[xllvm.FuncOp], GradientBuilder]:
        """Build a gradient; with the minimum cut, twice: once recording which primal values
        the reverse sweep needs (callees are generated then, once), then with the caches the
        cut chooses -- once only where the reverse sweep used every primal value it asked for
        as the forward sweep left it (straight-line code, loops that need none of theirs).  Returns the functions and the builder that made them."""
        prepared = self._prepared(fn)
        plan = None
        if self.mincut:
            recorder = GradientBuilder(self.module, prepared, acts, ret, name, self.filename, self, split,  # type: ignore[arg-type]
                                      tape_buffer=tape_buffer, mincut=True, team=team)  # fmt: skip
            recorder.build()
            if not recorder.caching.requests:  # nothing to choose: the plan is empty, and this run the gradient
                recorder.caching.plan = set()
                return recorder.finished(), recorder
            plan = recorder.caching.plan_caches()
            recorder.discard()
        builder = GradientBuilder(self.module, prepared, acts, ret, name, self.filename, self, split,  # type: ignore[arg-type]
                                 tape_buffer=tape_buffer, mincut=self.mincut, plan=plan, team=team)  # fmt: skip
        return builder.build(), builder

    def _prepared(self, fn: xllvm.FuncOp) -> xllvm.FuncOp:
        """A copy of `fn` in the form differentiation wants (the primal stays as it is)."""
        name = fn.sym_name.data
        prepared = self.prepared.get(name)
        if prepared is None:
            globals_ = {n: g.global_type for n, g in self.symbols.globals().items()}
            prepared = self.prepared[name] = prepare(fn, self.module, globals_, self.tbaa, self.hints, self.filename)
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
        constant = {n for n, g in self.symbols.globals().items() if g.constant is not None}
        info = analyze_activity(cfg, list(cfg.entry.args), acts, ret, constant)
        active = tuple(i for i, op in enumerate(ops) if is_indirect_call(op)
                       and any(v in info.varied or v in info.shadowed for v in (*op.operands[1:], *op.results)))  # fmt: skip
        if not active:
            return prepared
        key = (prepared.sym_name.data, active)
        if key not in self.resolved_copies:
            if self.callees is None:
                self.callees = CalleeIndex(self.module)
            self.resolved_copies[key] = resolved_copy(prepared, set(active), self.callees, self.unresolved_calls,
                                                      self.pointer_calls)  # fmt: skip
        return self.resolved_copies[key]

    def custom_augment_wrapper(self, custom: CustomGradient, ftype: ext.LLVMFunctionType) -> str:
        """The user's augmented function in this pass's form: {result, tape} (or {tape}) from
        the user's {tape, result} (or tape)."""
        name = self.custom_wrappers.get(custom.function)
        if name is not None:
            return name
        name = self.custom_wrappers[custom.function] = self.symbols.fresh_name(f"augmented_{custom.function}")
        ptr = ext.LLVMPointerType()
        fields = augmented_fields(ftype, "const")
        st = ext.LLVMStructType.from_type_list(fields)
        # (every pointer argument has its shadow after it: calls.py checks that it is `dup`)
        params = [p for t in ftype.inputs.data for p in ([t, t] if isinstance(t, ext.LLVMPointerType) else [t])]
        entry = Block(arg_types=params)
        e = LLVMEmitter(Builder(InsertPoint.at_end(entry)), self.module)
        if len(fields) == 1:
            values = [e.insert(call_op(custom.augment, list(entry.args), ptr))]
        else:
            pair = e.insert(call_op(custom.augment, list(entry.args), ext.LLVMStructType.from_type_list([ptr, fields[0]])))
            values = [e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), pair, t))
                      for i, t in ((1, fields[0]), (0, ptr))]  # fmt: skip
        e.insert(xllvm.ReturnOp(_pack(e, st, values)))
        wrapper = xllvm.FuncOp(name, ext.LLVMFunctionType(params, st),
                               linkage=xllvm.LinkageAttr("internal"), body=Region([entry]))  # fmt: skip
        self.module.body.block.add_op(wrapper)
        return name

    def custom_gradient_wrapper(self, custom: CustomGradient, ftype: ext.LLVMFunctionType, acts: list[str],
                                ret: str) -> str:
        """The user's gradient in this pass's form for one activity pattern: the result's adjoint
        only when the result is active (zero otherwise), the derivatives of the active
        floating-point arguments only."""
        key = (custom.function, tuple(acts), ret)
        name = self.custom_wrappers.get(key)
        if name is not None:
            return name
        name = self.custom_wrappers[key] = self.symbols.fresh_name(f"reverse_{custom.function}")
        grad = self.symbols.function(custom.gradient)
        assert grad is not None
        out = ftype.output
        params: list[Attribute] = []
        for t, a in zip(ftype.inputs.data, acts, strict=True):
            params += [t, t] if ad.has_shadow(a) else [t]
        if ret == "active":
            params.append(out)
        entry = Block(arg_types=[*params, ext.LLVMPointerType()])
        e = LLVMEmitter(Builder(InsertPoint.at_end(entry)), self.module)
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
            e.insert(call_op(custom.gradient, [slot, *args], None))
            fields = custom_derivative_fields(grad) or []
            derivs = [e.insert(xllvm.LoadOp(e.insert(ext.GEPOp(slot, [0, i], sret)), t)) for i, t in enumerate(fields)]
        else:
            res = e.insert(call_op(custom.gradient, args, None if isinstance(rtype, ext.LLVMVoidType) else rtype))
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


def drop_shadow_releases(funcs: Sequence[xllvm.FuncOp]) -> None:
    """Remove the calls about noted shadows (`RELEASE_SHADOW`, `KEEP_SHADOW`) from `funcs`:
    in a module whose gradients free nothing, nothing is ever noted."""
    for f in funcs:
        for o in list(f.walk()):
            if isinstance(o, xllvm.CallOp) and o.callee is not None and o.callee.string_value() in (RELEASE_SHADOW, KEEP_SHADOW):
                operands = [v.owner for v in o.operands]
                o.detach()
                o.erase()
                for d in operands:
                    if isinstance(d, xllvm.AddressOfOp) and not d.result.uses:
                        d.detach()
                        d.erase()
