"""`forward-diff`: generate tangent functions for `autodiff.fwddiff` requests.

For `%t = autodiff.fwddiff @f(...)` the pass builds `@fwddiffe<f>` (`@fwddiffe<N><f>` in vector
mode, width N) and replaces the request by a call:

    llvm.func @f(%x: f64) -> f64 { ... }
    %t = autodiff.fwddiff @f(%x, %dx) activity [dup] ret dupnoneed : (f64, f64) -> f64
      ==>
    llvm.func internal @fwddiffef(%x: f64, %dx: f64) -> f64 { primal and tangents }
    %t = llvm.call @fwddiffef(%x, %dx) : (f64, f64) -> f64

This file is the driver; the tangent functions are built by `xenzyme.transforms.diff.tangents`
from the ops' rules (`xenzyme.rules`).

Forward mode runs after reverse mode is lowered (see the `enzyme` pipeline), so that it can
differentiate gradient functions too -- plain LLVM code with allocas, heap caches and helper
calls -- which is how a Hessian-vector product (forward over reverse) is computed.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from xenzyme.dialects import autodiff as ad
from xenzyme.transforms.diff.structured import differentiate_requests
from xenzyme.transforms.diff.tangents import TangentGenerator
from xenzyme.transforms.lower_structured import LowerStructuredPass, is_structured


@dataclass(frozen=True)
class ForwardDiffPass(ModulePass):
    """Replace each `autodiff.fwddiff` by a call to a generated tangent function."""

    name = "forward-diff"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not any(isinstance(o, ad.FwdDiffOp) for o in op.walk()):
            return
        if is_structured(op):  # differentiated where it is written, or else lowered to llvm first
            if not differentiate_requests(op):
                return
            LowerStructuredPass().apply(ctx, op)
        TangentGenerator(op).run()


__all__ = ["ForwardDiffPass", "TangentGenerator"]
