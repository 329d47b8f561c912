"""xenzyme: automatic differentiation of LLVM IR, on xDSL.

The public Python API (see README.md):

    load, run_pipeline, to_llvm_ir, compile, to_object, XenzymeError
"""

from xenzyme.api import GradientFunction, compile, context, gradient, load, run_pipeline, to_llvm_ir, to_object
from xenzyme.diagnostics import XenzymeError

__all__ = [
    "GradientFunction", "XenzymeError", "compile", "context", "gradient", "load", "run_pipeline",
    "to_llvm_ir", "to_object",
]
__version__ = "0.1.0"
