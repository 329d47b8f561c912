"""The module's symbols as differentiation sees them: functions and globals by name, fresh
names for generated functions, and the globals generated code needs (shadows of globals,
messages)."""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, UnitAttr, i8, i64
from xdsl.ir import Block, Operation

from xenzyme.analysis.types import size_align
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import message_global, zero_constant


class ModuleSymbols:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.reserved: set[str] = set()
        """Names given to functions whose bodies are still being built."""
        self._functions: dict[str, xllvm.FuncOp] | None = None
        src = module.attributes.get("llvm.source_filename")
        self.filename = src.data if isinstance(src, StringAttr) else None

    def function(self, name: str) -> xllvm.FuncOp | None:
        """A function of the module, defined or declared."""
        if self._functions is None or name not in self._functions:
            self._functions = {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.FuncOp)}
        return self._functions.get(name)

    def defined_function(self, name: str) -> xllvm.FuncOp | None:
        fn = self.function(name)
        return fn if fn is not None and fn.body.blocks else None

    def functions(self) -> dict[str, xllvm.FuncOp]:
        """Every function of the module by name (fresh: callers may keep it for one function's
        differentiation)."""
        self._functions = {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.FuncOp)}
        return dict(self._functions)

    def forget(self) -> None:
        """Functions were replaced: look them up afresh."""
        self._functions = None

    def globals(self) -> dict[str, xllvm.GlobalOp]:
        return {op.sym_name.data: op for op in self.module.ops if isinstance(op, xllvm.GlobalOp)}

    def fresh_name(self, base: str) -> str:
        """`base`, or `base.N`: a name no symbol of the module has and none is reserved for."""
        taken = {op.sym_name.data for op in self.module.ops if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp)}
        taken |= self.reserved
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}.{n}"
        return name

    def shadow_global(self, g: xllvm.GlobalOp, name: str) -> None:
        """A zero-initialised internal global shaped like `g`, named `name`, beside it (once);
        for a GPU's shared array, a shared array zeroed when each block starts."""
        if any(isinstance(o, xllvm.GlobalOp) and o.sym_name.data == name for o in self.module.ops):
            return
        if gpu.is_shared(g):
            self.module.body.block.insert_op_after(gpu.shared_shadow(self.module, g, name), g)
            return
        t = g.global_type
        sg = xllvm.GlobalOp(t, name, "internal", alignment=g.alignment.value.data if g.alignment else None,
                            addr_space=gpu.address_space(g))  # fmt: skip
        if isinstance(t, AnyFloat):
            sg.properties["value"] = FloatAttr(0.0, t)
        elif isinstance(t, IntegerType):
            sg.properties["value"] = IntegerAttr(0, t)
        else:
            zero = zero_constant(t)
            sg.body.add_block(Block([zero, xllvm.ReturnOp(zero.results[0])]))
        self.module.body.block.insert_op_after(sg, g)

    def clear_global_shadows(self, before: Operation) -> None:
        """Derivatives held in global memory start at zero in each derivative a program asks
        for: before the call of a top-level gradient or tangent function, the shadows of the
        globals (reverse mode's and forward mode's) are cleared, so that what an earlier call
        left there (adjoints of a global read and never written, tangents of one written)
        cannot leak into this one.  In GPU code every thread asks, and one thread clearing
        them would race with the others: the function asking is marked instead, and each
        launch of a kernel reaching it starts with them cleared (`gpu.ZERO_SHADOWS_ATTR`)."""
        if gpu.is_device_code(self.module):
            fn = before.parent_op()
            while fn is not None and not isinstance(fn, xllvm.FuncOp):
                fn = fn.parent_op()
            assert fn is not None
            fn.attributes[gpu.ZERO_SHADOWS_ATTR] = UnitAttr()
            return
        block = before.parent_block()
        assert block is not None
        for name, g in global_shadows(self.module).items():
            layout = size_align(g.global_type)
            if layout is None or gpu.address_space(g) != 0:
                continue
            ptr = ext.LLVMPointerType()
            addr = xllvm.AddressOfOp(name, ptr)
            zero = xllvm.ConstantOp(IntegerAttr(0, i8), i8)
            size = xllvm.ConstantOp(IntegerAttr(layout[0], i64), i64)
            block.insert_ops_before([addr, zero, size, ext.MemsetOp([addr.result, zero.result, size.result])], before)

    def message_global(self, text: str) -> tuple[str, int]:
        """A constant string holding `text` (a message the generated code prints), and its size."""
        return message_global(self.module, text)


def global_shadows(module: ModuleOp) -> dict[str, xllvm.GlobalOp]:
    """The shadows of globals that derivatives clear (reverse mode's `NAME.shadow`, forward
    mode's `NAME.tangent`, and their vector lanes), by name: mutable and not in shared memory (whose shadows are zero as each block starts)."""
    globals_ = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.GlobalOp)}
    out = {}
    for name, g in globals_.items():
        suffix = next((s for s in (".shadow", ".tangent") if s in name), None)
        if suffix is None:
            continue
        base, lane = name.rsplit(suffix, 1)
        if base not in globals_ or lane not in ("", *map(str, range(1, 64))):
            continue
        if g.constant is not None or gpu.is_shared(g):
            continue
        out[name] = g
    return out
