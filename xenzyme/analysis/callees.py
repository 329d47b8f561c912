"""Which functions an indirect call (a call through a function pointer) may call.

Reverse mode differentiates an indirect call by calling the derivative of whichever function
the pointer holds; this analysis names the candidates.  The pointer is followed back through
selects and block arguments to where it comes from:

- the address of a function (`llvm.mlir.addressof @f`): that function;
- a load from constant globals (a table of function pointers, a vtable): the functions named
  in their initializers;
- a call to a function of this module: what that function returns, followed the same way;
- anything else (an argument, a load from writable memory): every function of the module of
  the call's type whose address is taken anywhere -- a guess, so the set is marked incomplete.

Only functions whose type is exactly the call's type are candidates.  Nothing is rewritten here.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, SSAValue

from xenzyme.analysis.alias import UNKNOWN, underlying_objects
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.dialects import llvm_ext as ext

_DEPTH = 4
"""How many calls deep the returned function pointers are followed."""


@dataclass
class Targets:
    names: list[str]
    """Candidate functions, in module order."""
    complete: bool
    """True when the pointer can only hold one of `names` (found, not guessed)."""


def call_type(op: xllvm.CallOp) -> ext.LLVMFunctionType:
    """The function type of an indirect call (its first operand is the callee)."""
    out = op.returned.type if op.returned is not None else ext.LLVMVoidType()
    return ext.LLVMFunctionType([a.type for a in op.args[1:]], out)


class CalleeIndex:
    """The module's functions, their types, and which of them have their address taken."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
        self.order = {name: i for i, name in enumerate(self.functions)}
        self.constant_globals = {
            g.sym_name.data: g for g in module.ops if isinstance(g, xllvm.GlobalOp) and g.constant is not None
        }
        self.address_taken: set[str] = set()
        for op in module.walk():
            if isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in self.functions and op.result.uses:
                self.address_taken.add(op.global_name.string_value())  # (unused: left by raise-enzyme-calls)
        self.cfgs: dict[str, CFG | None] = {}

    def targets(self, op: xllvm.CallOp, cfg: CFG) -> Targets:
        ftype = call_type(op)
        found = self._trace(op.args[0], cfg, _DEPTH)
        if found is None:
            names = [n for n in self.address_taken if self._matches(n, ftype)]
            return Targets(sorted(names, key=self.order.__getitem__), False)
        names = [n for n in found if self._matches(n, ftype)]
        # A function of another type, called through a cast pointer, is left to the stop.
        return Targets(sorted(names, key=self.order.__getitem__), len(names) == len(found))

    def _matches(self, name: str, ftype: ext.LLVMFunctionType) -> bool:
        t = self.functions[name].function_type
        return not t.is_variadic and t.inputs == ftype.inputs and t.output == ftype.output

    def _trace(self, v: SSAValue, cfg: CFG | None, depth: int) -> set[str] | None:
        """The functions `v` may be the address of (None: unknown)."""
        out: set[str] = set()
        roots = _origins(v, cfg)
        if roots is None:
            return None
        for root in roots:
            if isinstance(root, BlockArgument):
                return None  # an argument of the function
            owner = root.owner
            if isinstance(owner, xllvm.AddressOfOp) and owner.global_name.string_value() in self.functions:
                out.add(owner.global_name.string_value())
            elif isinstance(owner, xllvm.ZeroOp | xllvm.UndefOp | ext.PoisonOp):
                continue  # a null pointer is never called
            elif isinstance(owner, xllvm.LoadOp):
                found = self._table(owner.ptr, cfg)
                if found is None:
                    return None
                out |= found
            elif isinstance(owner, xllvm.CallOp) and owner.callee is not None and depth > 0:
                found = self._returned(owner.callee.string_value(), depth - 1)
                if found is None:
                    return None
                out |= found
            else:
                return None
        return out

    def _table(self, ptr: SSAValue, cfg: CFG | None) -> set[str] | None:
        """Functions whose addresses constant globals that `ptr` points into hold."""
        out: set[str] = set()
        for obj in underlying_objects(ptr, cfg):
            if obj is UNKNOWN or not isinstance(obj, str) or obj not in self.constant_globals:
                return None
            for op in self.constant_globals[obj].body.walk():
                if isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in self.functions:
                    out.add(op.global_name.string_value())
        return out

    def _returned(self, name: str, depth: int) -> set[str] | None:
        """The functions whose addresses the defined function `name` may return."""
        fn = self.functions.get(name)
        if fn is None or not fn.body.blocks:
            return None
        if name not in self.cfgs:
            try:
                self.cfgs[name] = CFG(fn.body)
            except IrreducibleControlFlow:
                self.cfgs[name] = None
        cfg = self.cfgs[name]
        if cfg is None:
            return None
        out: set[str] = set()
        for b in cfg.rpo:
            term = b.last_op
            if isinstance(term, xllvm.ReturnOp) and term.arg is not None:
                found = self._trace(term.arg, cfg, depth)
                if found is None:
                    return None
                out |= found
        return out


def _origins(v: SSAValue, cfg: CFG | None, limit: int = 64) -> list[SSAValue] | None:
    """The values `v` is chosen from through selects and block arguments (None: too many to
    follow, or a block argument without a CFG to follow it by)."""
    out: list[SSAValue] = []
    seen: set[SSAValue] = set()
    work = [v]
    while work:
        x = work.pop()
        if x in seen:
            continue
        seen.add(x)
        if len(seen) > limit:
            return None
        if isinstance(x, BlockArgument) and x.block is not x.block.parent_region().blocks.first:  # type: ignore[union-attr]
            if cfg is None:
                return None
            work += [cfg.incoming(x.block, p)[x.index] for p in cfg.preds.get(x.block, [])]
        elif isinstance(x.owner, ext.SelectOp):
            work += [x.owner.lhs, x.owner.rhs]
        else:
            out.append(x)
    return out


def is_indirect_call(op: object) -> bool:
    return isinstance(op, xllvm.CallOp) and op.callee is None

