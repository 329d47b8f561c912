"""Small helper functions that rules add to the module (llvm dialect), written as structured code.

Some derivatives are loops of their own -- the reverse of a reduction over an array section, a
combine under a lock -- which a rule cannot write into the block it is emitting into.  It calls
a helper function instead, built once per module with `HelperFunction`:

    h = HelperFunction(module, "xenzyme.example", [ptr, i64])
    p, n = h.args
    with h.loop(n) as k:                  # for (k = 0; k < n; k++)
        h.e.insert(...)
    with h.when(cond):                     # if (cond)
        ...
    h.finish()                             # returns void

`h.e` always emits at the current point.  LLVM inlines and specialises the helpers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter


def has_function(module: ModuleOp, name: str) -> bool:
    return any(isinstance(op, xllvm.FuncOp) and op.sym_name.data == name for op in module.ops)


class HelperFunction:
    def __init__(self, module: ModuleOp, name: str, params: Sequence[Attribute]):
        self.module = module
        self.name = name
        self.entry = Block(arg_types=list(params))
        self.blocks = [self.entry]
        self.args = list(self.entry.args)
        self._at(self.entry)

    def _at(self, block: Block) -> None:
        self.block = block
        self.e = LLVMEmitter(Builder(InsertPoint.at_end(block)), self.module)

    def _new(self, *arg_types: Attribute) -> Block:
        b = Block(arg_types=list(arg_types))
        self.blocks.append(b)
        return b

    @contextmanager
    def loop(self, n: SSAValue) -> Iterator[SSAValue]:
        """The code emitted in the body runs for k = 0 .. n-1 (`n` an i64)."""
        head, body, done = self._new(i64), self._new(), self._new()
        self.e.insert(xllvm.BrOp(head, self.e.i64(0)))
        k = head.args[0]
        self._at(head)
        more = self.e.insert(ext.ICmpOp(k, n, "slt"))
        self.e.insert(xllvm.CondBrOp(more, body, [], done, []))
        self._at(body)
        yield k
        nxt = self.e.insert(xllvm.AddOp(k, self.e.i64(1)))  # type: ignore[arg-type]
        self.e.insert(xllvm.BrOp(head, nxt))
        self._at(done)

    @contextmanager
    def when(self, cond: SSAValue) -> Iterator[None]:
        """The code emitted in the body runs only where `cond` (an i1) holds."""
        body, done = self._new(), self._new()
        self.e.insert(xllvm.CondBrOp(cond, body, [], done, []))
        self._at(body)
        yield
        self.e.insert(xllvm.BrOp(done))
        self._at(done)

    def finish(self) -> str:
        """Return void, and add the function to the module (internal)."""
        self.e.insert(xllvm.ReturnOp())
        fn = xllvm.FuncOp(self.name, ext.LLVMFunctionType(list(self.entry.arg_types), ext.LLVMVoidType()),
                          linkage=xllvm.LinkageAttr("internal"), body=Region(self.blocks))  # fmt: skip
        self.module.body.block.add_op(fn)
        return self.name
