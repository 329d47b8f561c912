"""`print-activity`: annotate a function with the results of activity analysis, for tests.

    xenzyme-opt f.ll -p 'print-activity{function=f args=active,dup,const ret=active}'

`ret` is one of active, const, none (for void); without it, none for a function returning void,
active for one returning floating point, const otherwise.

Each op gets `activity = ["active" | "dup" | "const", ...]`, one word per result: `active` for
values that carry a derivative, `dup` for pointers with a shadow, `const` for the rest; the
function gets `arg_activity` and `block_activity` (block arguments of the other blocks, in
order).  Without options, every function that an `autodiff.autodiff` request names is analysed
with that request's activities.

On a `func.func` (the structured dialects) the same analysis runs through its structured
interface: a memref is `dup` when it has a shadow (a `dup` argument, or an allocation holding
data whose derivative is used), and an op with regions gets `region_activity`, one word per
argument of its regions' blocks (an `scf.for`'s induction variable, then its iteration
arguments).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from xenzyme.analysis.activity import ActivityInfo, analyze_activity
from xenzyme.analysis.cfg import CFG
from xenzyme.analysis.structured_activity import analyze_structured
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext


def _word(info: ActivityInfo, v: SSAValue) -> str:
    if info.is_active(v):
        return "active"
    if info.has_shadow(v):
        return "dup"
    return "const"


def annotate(module: ModuleOp, fn: xllvm.FuncOp, acts: list[str], ret: str) -> None:
    cfg = CFG(fn.body)
    constant = {g.sym_name.data for g in module.ops if isinstance(g, xllvm.GlobalOp) and g.constant is not None}
    info = analyze_activity(cfg, list(cfg.entry.args), acts, ret, constant)
    fn.attributes["arg_activity"] = ArrayAttr([StringAttr(_word(info, a)) for a in cfg.entry.args])
    block_words = [StringAttr(_word(info, a)) for b in cfg.rpo[1:] for a in b.args]
    if block_words:
        fn.attributes["block_activity"] = ArrayAttr(block_words)
    for b in cfg.rpo:
        for op in b.ops:
            if op.results:
                op.attributes["activity"] = ArrayAttr([StringAttr(_word(info, r)) for r in op.results])


def annotate_structured(fn: func.FuncOp, acts: list[str], ret: str) -> None:
    info = analyze_structured(fn, acts, ret)
    fn.attributes["arg_activity"] = ArrayAttr([StringAttr(_word(info, a)) for a in fn.body.blocks[0].args])
    for op in fn.walk():
        if op is fn:
            continue
        if op.results:
            op.attributes["activity"] = ArrayAttr([StringAttr(_word(info, r)) for r in op.results])
        if op.regions:
            words = [StringAttr(_word(info, a)) for r in op.regions for b in r.blocks for a in b.args]
            if words:
                op.attributes["region_activity"] = ArrayAttr(words)


@dataclass(frozen=True)
class PrintActivityPass(ModulePass):
    """Attach activity-analysis results to the IR as attributes."""

    name = "print-activity"

    function: str | None = None
    args: tuple[str, ...] = ()
    ret: str | None = None
    """active, const or none; by default from the return type: none for void, active for
    floating point, const otherwise."""

    def __post_init__(self) -> None:
        """Reject unknown words when the pipeline is read, before any input is."""
        for a in self.args:
            if a not in ad.ARG_ACTIVITIES:
                raise XenzymeError(f"print-activity: unknown activity '{a}'",
                                   notes=[f"the argument activities are {', '.join(ad.ARG_ACTIVITIES)}"])  # fmt: skip
        if self.ret is not None and self.ret not in ad.RET_ACTIVITIES:
            raise XenzymeError(f"print-activity: unknown return activity '{self.ret}'",
                               notes=[f"the return activities are {', '.join(ad.RET_ACTIVITIES)}"])  # fmt: skip

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.function is None and (self.args or self.ret is not None):
            raise XenzymeError("print-activity: args and ret need function=NAME",
                               notes=["without function=, the functions named by autodiff.autodiff requests are "
                                      "analysed with the requests' activities"])  # fmt: skip
        funcs = {f.sym_name.data: f for f in op.ops if isinstance(f, xllvm.FuncOp | func.FuncOp)}
        if self.function is not None:
            fn = funcs.get(self.function)
            if fn is None or not fn.body.blocks:
                raise XenzymeError(f"print-activity: no function body named @{self.function}")
            acts = list(self.args)
            n = len(fn.function_type.inputs.data)
            if len(acts) != n:
                raise XenzymeError(f"print-activity: @{self.function} takes {n} arguments, {len(acts)} activities given")
            if isinstance(fn, func.FuncOp):
                outs = fn.function_type.outputs.data
                ret = self.ret or ("none" if not outs else "active" if all(ad.is_float_like(t) for t in outs) else "const")
                annotate_structured(fn, acts, ret)
                return
            out = fn.function_type.output
            void = isinstance(out, ext.LLVMVoidType)
            ret = self.ret or ("none" if void else "active" if ad.is_float_like(out) else "const")
            if void != (ret == "none"):
                raise XenzymeError(f"print-activity: @{self.function} returns {'void' if void else out}, ret={ret} does not fit",
                                   notes=["ret=none is for functions returning void, active or const for the others"])  # fmt: skip
            annotate(op, fn, acts, ret)
            return
        for req in [o for o in op.walk() if isinstance(o, ad.AutodiffOp)]:
            fn = funcs.get(req.callee.string_value())
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                annotate_structured(fn, req.activities, req.ret_activity.data)
            elif fn is not None and fn.body.blocks:
                annotate(op, fn, req.activities, req.ret_activity.data)
