"""LLVM through llvmlite: parsing our text back, optimising, and emitting native code.

Everything that hands text to LLVM goes through `parse_verified`, so that invalid IR is reported
as an error instead of reaching an LLVM call that could abort the process (llvmlite is built with
assertions).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator

import llvmlite.binding as llb

from xenzyme.diagnostics import XenzymeError


@functools.cache
def initialize() -> None:
    """Set LLVM up once per process.

    Parsing a module that carries debug info makes LLVM verify it on the spot and abort the
    process (`Broken module found, compilation aborted!`) when anything is wrong; with the
    debug-info auto-upgrade off, the module is verified by `ModuleRef.verify` instead, which
    raises.
    """
    llb.initialize_native_target()
    llb.initialize_native_asmprinter()
    llb.initialize_all_targets()
    llb.initialize_all_asmprinters()
    llb.set_option("xenzyme", "-disable-auto-upgrade-debug-info")


def parse_verified(
    text: str, what: str = "generated LLVM IR", own_context: bool = True
) -> llb.ModuleRef:
    """Parse and verify LLVM IR that xenzyme produced; failures are internal errors.

    The module gets an LLVM context of its own (named struct types keep their names) unless
    `own_context` is false: a JIT engine outlives the Python objects that would free a context,
    so JIT modules live in LLVM's global context.
    """
    initialize()
    module = None
    try:
        context = llb.create_context() if own_context else llb.get_global_context()
        module = llb.parse_assembly(text, context)
        module.verify()
    except RuntimeError as e:
        if module is not None:
            release(module)
        detail = str(e).strip().splitlines()
        raise XenzymeError(
            f"internal error: {what} is not valid LLVM IR: "
            + (detail[1] if len(detail) > 1 else detail[0] if detail else "?"),
            notes=["please report this with the input; `-t llvm --disable-verify` shows the text"],
        ) from None
    return module


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
def verified(text: str, what: str = "generated LLVM IR") -> Iterator[llb.ModuleRef]:
    """`parse_verified`, released when the block ends."""
    module = parse_verified(text, what)
    try:
        yield module
    finally:
        release(module)


def check_llvm_ir(text: str, what: str = "generated LLVM IR") -> None:
    """Raise unless LLVM parses and verifies `text`."""
    with verified(text, what):
        pass


def object_code(text: str, cpu: str = "generic", opt: int = 2) -> bytes:
    """A position-independent ELF object from LLVM IR text (see `emit_object`)."""
    with verified(text) as module:
        return emit_object(module, cpu=cpu, opt=opt)


def target_machine(
    triple: str | None = None, cpu: str = "generic", opt: int = 2, jit: bool = False
) -> llb.TargetMachine:
    """A target machine for `triple` (host by default); `cpu="native"` uses the host CPU."""
    initialize()
    triple = triple or llb.get_default_triple()
    features = ""
    if cpu == "native":
        cpu = llb.get_host_cpu_name()
        features = llb.get_host_cpu_features().flatten()
    try:
        target = llb.Target.from_triple(triple)
    except RuntimeError as e:
        raise XenzymeError(f"unknown target triple '{triple}': {e}") from None
    return target.create_target_machine(
        cpu=cpu, features=features, opt=opt, reloc="pic", codemodel="small" if not jit else "jitdefault", jit=jit
    )


def optimize(module: llb.ModuleRef, level: int, tm: llb.TargetMachine | None = None) -> None:
    """Run LLVM's standard -O<level> pipeline (as clang does, vectorisers included)."""
    if level <= 0:
        return
    tm = tm or target_machine(module.triple or None)
    pto = llb.create_pipeline_tuning_options(speed_level=min(level, 3))
    pto.loop_vectorization = level >= 2
    pto.slp_vectorization = level >= 2
    pto.loop_unrolling = True
    pb = llb.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(module, pb)


def emit_object(module: llb.ModuleRef, cpu: str = "generic", opt: int = 2) -> bytes:
    """A position-independent ELF object for the module's triple (host by default)."""
    tm = target_machine(module.triple or None, cpu=cpu, opt=opt)
    return tm.emit_object(module)
