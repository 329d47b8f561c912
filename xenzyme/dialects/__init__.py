"""Dialects: the IR xenzyme reads, writes and differentiates.

    llvm_ext.py   xDSL's `llvm` dialect with what it lacks (switch, atomics, metadata, ...)
    autodiff.py   derivative requests and the reverse sweep's machinery (caches, accumulation)
    par.py        the parallel-region layer (OpenMP raised from libomp's calls)
    gpu.py        the gpu layer (thread ids, barriers, kernels, shared memory)
    mpi.py        the `ompi` dialect: MPI calls with OpenMPI's handles (raised from the calls)

`get_all_dialects` is a lazy registry, name -> loader, as in xDSL: nothing is imported until a
dialect is used.  `make_context` gives a Context with xDSL's dialects and ours, where `llvm` is
xenzyme's extended version.  Dialects decide what the IR can say and check it (verifiers,
syntax); they import only xDSL and each other, and everything else imports them.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect


def _llvm() -> Dialect:
    from xenzyme.dialects.llvm_ext import LLVM

    return LLVM


def _autodiff() -> Dialect:
    from xenzyme.dialects.autodiff import AUTODIFF

    return AUTODIFF


def _par() -> Dialect:
    from xenzyme.dialects.par import PAR

    return PAR


def _gpu() -> Dialect:
    from xenzyme.dialects.gpu import GPU

    return GPU


def _ompi() -> Dialect:
    from xenzyme.dialects.mpi import OMPI

    return OMPI


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """xenzyme's dialects (they take precedence over xDSL's of the same name)."""
    return {"llvm": _llvm, "autodiff": _autodiff, "par": _par, "gpu": _gpu, "ompi": _ompi}


def register_dialects(ctx: Context) -> None:
    """Register xDSL's dialects and ours, ours replacing xDSL's `llvm`."""
    from xdsl.universe import Universe

    ours = get_all_dialects()
    for name, factory in Universe.get_multiverse().all_dialects.items():
        if name not in ours and name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    for name, factory in ours.items():
        ctx._registered_dialects[name] = factory  # replace xDSL's definition


def make_context() -> Context:
    ctx = Context()
    register_dialects(ctx)
    return ctx
