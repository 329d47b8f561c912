"""xenzyme: automatic differentiation of LLVM IR, on xDSL.

The public Python API (see README.md):

    load, run_pipeline, to_llvm_ir, compile, to_object, XenzymeError
    gradient (reverse mode), tangent (forward mode), jacobian
    derivative (a decorator registering a derivative rule), load_rules
    cuda.load (CUDA kernels, and kernels computing derivatives, launched on a GPU or the CPU)
"""

from xenzyme import cuda  # xz.cuda.load: CUDA kernels on a GPU or the CPU
from xenzyme.api import (
    GradientFunction,
    JacobianFunction,
    TangentFunction,
    compile,
    context,
    derivative,
    gradient,
    jacobian,
    load,
    load_rules,
    run_pipeline,
    tangent,
    to_llvm_ir,
    to_object,
)
from xenzyme.diagnostics import XenzymeError

__all__ = [
    "GradientFunction", "JacobianFunction", "TangentFunction", "XenzymeError", "compile", "context", "cuda",
    "derivative", "gradient", "jacobian", "load", "load_rules", "run_pipeline", "tangent", "to_llvm_ir",
    "to_object",
]
__version__ = "0.1.0"
