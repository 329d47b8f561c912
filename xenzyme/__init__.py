"""xenzyme: automatic differentiation of LLVM IR, on xDSL.

The public Python API (see README.md):

    load, run_pipeline, to_llvm_ir, compile, to_object, XenzymeError
    gradient (reverse mode), tangent (forward mode), jacobian
    derivative (a decorator registering a derivative rule), load_rules
    cuda.load (CUDA kernels, and kernels computing derivatives, launched on a GPU or the CPU)

The names are imported when first used: `import xenzyme` alone loads neither xDSL nor LLVM, so
that `xenzyme-opt` answers from its derivative cache (xenzyme/cache.py) without them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xenzyme import cuda
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

_FROM_API = {name for name in __all__ if name not in ("XenzymeError", "cuda")}


def __getattr__(name: str) -> Any:
    if name in _FROM_API:
        value = getattr(importlib.import_module("xenzyme.api"), name)
    elif name == "cuda":
        value = importlib.import_module("xenzyme.cuda")
    elif name == "XenzymeError":
        value = importlib.import_module("xenzyme.diagnostics").XenzymeError
    else:
        raise AttributeError(f"module 'xenzyme' has no attribute '{name}'")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
