"""LLVM itself, through llvmlite: set up once per process, modules freed in a safe order, and
Python's cycle collector paused while big IR is built or printed.  Shared by the frontend (which
parses with LLVM) and the backend (which optimises and emits with it).
"""

from __future__ import annotations

import contextlib
import functools
import gc
from collections.abc import Iterator

import llvmlite.binding as llb


@functools.cache
def initialize() -> None:
    """Set LLVM up once per process.

    Parsing a module that carries debug info makes LLVM verify it on the spot and abort the
    process (`Broken module found, compilation aborted!`) when anything is wrong; with the
    debug-info auto-upgrade off, the module is verified by `ModuleRef.verify` instead, which
    raises.

    The SLP vectoriser tries vector factors up to 16: without a bound it tries every power of
    two up to the length of each chain of stores it finds, and a gradient's reverse sweep has
    long ones (on GMM's gradient it spent 1.2 s of the -O3 pipeline's 2 s for the same IR as
    with the bound; LSTM's 0.9 s became 0.4 s).  16 lanes are the widest x86 registers' floats.
    """
    llb.initialize_native_target()
    llb.initialize_native_asmprinter()
    llb.initialize_all_targets()
    llb.initialize_all_asmprinters()
    llb.set_option("xenzyme", "-disable-auto-upgrade-debug-info")
    llb.set_option("xenzyme", "-slp-max-vf=16")


def release(module: llb.ModuleRef) -> None:
    """Free `module`, then its LLVM context (unless that is the global one), in that order.

    Left to Python, a module and its context may be finalized in either order when they end up
    in a reference cycle (an exception's traceback is enough), and a context freed first takes
    the module with it: the module's own finalizer then crashes the process.
    """
    context = getattr(module, "_context", None)
    module.close()
    if context is not None and not isinstance(context, llb.GlobalContextRef):
        context.close()


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector off for a while, as it was after.

    Building or printing a module allocates millions of objects and next to no garbage; the
    collector would rescan the ever larger heap again and again -- about half the time of
    importing 100k instructions.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
