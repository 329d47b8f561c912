"""`llvm-opt`: LLVM's own optimisation pipeline, run on the module through llvmlite.

AD after optimisation is what makes derivatives fast: the `enzyme` pipeline runs `llvm-opt`
before differentiating and again after.  The module is exported to LLVM IR, optimised by LLVM's
standard -O<level> pipeline (the one clang uses, vectorisers included), and imported back.

    xenzyme-opt prog.ll -p 'llvm-opt{level=3}'
    xenzyme-opt prog_O0.ll -p 'llvm-opt{level=2 strip-optnone=true}'

`strip-optnone` removes `optnone` and `noinline` first: clang puts them on every function at
-O0, and LLVM would otherwise leave such functions untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass

from xenzyme.backend.llvm_export import export_module
from xenzyme.backend.native import optimized_ir
from xenzyme.diagnostics import XenzymeError
from xenzyme.frontend.llvm_import import ModuleReader

_UNOPTIMISABLE = ("optnone", "noinline")


def strip_optnone(module: ModuleOp) -> None:
    """Drop `optnone`, and the `noinline` that clang -O0 pairs with it, from every function.

    A `noinline` the programmer wrote (on a function without `optnone`) is kept.
    """
    for op in module.ops:
        if not isinstance(op, xllvm.FuncOp) or op.passthrough is None:
            continue
        words = {a.data for a in op.passthrough.data if isinstance(a, StringAttr)}
        if "optnone" not in words:
            continue
        kept = [a for a in op.passthrough.data if not (isinstance(a, StringAttr) and a.data in _UNOPTIMISABLE)]
        op.properties["passthrough"] = ArrayAttr(kept)


def replace_module_body(target: ModuleOp, source: ModuleOp) -> None:
    """Make `target` hold `source`'s ops and attributes (passes must mutate in place).

    The old top-level ops are detached and left to the garbage collector: erasing them would
    unlink every use in every function, op by op, for nothing.
    """
    for o in list(target.ops):
        o.detach()
    for o in list(source.ops):
        o.detach()
        target.body.block.add_op(o)
    target.attributes = dict(source.attributes)


def run_llvm_pipeline(module: ModuleOp, level: int) -> None:
    text = optimized_ir(export_module(module), level)
    try:
        optimized = ModuleReader(text, "<llvm-opt output>").read()
    except XenzymeError as e:
        e.notes = (*e.notes, f"LLVM's -O{level} pipeline produced this; try a lower level")
        raise
    replace_module_body(module, optimized)


@dataclass(frozen=True)
class LLVMOptPass(ModulePass):
    """Optimise with LLVM's standard pipeline at -O`level` (0-3)."""

    name = "llvm-opt"

    level: int = 2
    strip_optnone: bool = False

    def __post_init__(self) -> None:
        """Reject a bad level when the pipeline is read, before any input is."""
        if self.level not in (0, 1, 2, 3):
            raise XenzymeError(
                f"llvm-opt: level must be 0, 1, 2 or 3 (got {self.level})",
                notes=["for example -p 'llvm-opt{level=3}'"],
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.strip_optnone:
            strip_optnone(op)
        run_llvm_pipeline(op, self.level)


def keep_hinted_calls(module: ModuleOp) -> None:
    """Mark the functions hints are about, and those with a derivative rule registered from
    Python, `noinline`, so that their calls stay calls."""
    from xenzyme.analysis.hints import Hints
    from xenzyme.rules.registry import RULES

    hints = Hints.of(module)
    for name, problem in hints.problems:
        raise XenzymeError(f"cannot read {name}: {problem}", notes=[
            'for example: void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)0, (void *)"-1", (void *)my_free};'])  # fmt: skip
    names = hints.functions | set(RULES)
    for op in module.ops:
        if isinstance(op, xllvm.FuncOp) and op.sym_name.data in names and op.body.blocks:
            words = list(op.passthrough.data) if op.passthrough is not None else []
            kept = [a for a in words if not (isinstance(a, StringAttr) and a.data == "alwaysinline")]
            if not any(isinstance(a, StringAttr) and a.data == "noinline" for a in kept):
                kept.append(StringAttr("noinline"))
            op.properties["passthrough"] = ArrayAttr(kept)
