"""LLVM through llvmlite: parsing our text back, optimising, and emitting native code.

Everything that hands text to LLVM goes through `parse_verified`, so that invalid IR is reported
as an error instead of reaching an LLVM call that could abort the process (llvmlite is built with
assertions).
"""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Iterator
from typing import Any

import llvmlite.binding as llb

from xenzyme.diagnostics import XenzymeError
from xenzyme.llvm_binding import initialize, release


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
    """A position-independent ELF object from LLVM IR text (see `emit_object`).

    Code generation runs in a child process, like `optimized_ir`.
    """
    check_llvm_ir(text)
    data = run_isolated(_object_code, text, cpu, opt)
    if data is _CRASHED:
        raise XenzymeError(
            "LLVM's code generator crashed on this module (an assertion inside LLVM)",
            notes=["try `-t 'obj{opt=0}'`, or report the input"],
        )
    return data


def _object_code(text: str, cpu: str, opt: int) -> bytes:
    with verified(text) as module:
        return emit_object(module, cpu=cpu, opt=opt)


def optimized_ir(text: str, level: int, cpu: str = "generic") -> str:
    """LLVM IR `text` after LLVM's standard -O`level` pipeline.

    llvmlite's LLVM is built with assertions, and LLVM has bugs that trip them (for instance
    the loop vectoriser's check that its two cost models agree, on some AVX2 code): a failed
    assertion aborts the process.  The pipeline therefore runs in a child process; when the
    child dies, the pipeline is run again without the vectorisers, and only if that fails too is
    it an error.
    """
    if level <= 0:
        return text
    check_llvm_ir(text)
    for vectorize in (True, False):
        result = run_isolated(_optimized_ir, text, level, cpu, vectorize)
        if result is not _CRASHED:
            return result
    raise XenzymeError(
        f"LLVM's -O{level} pipeline crashed on this module (an assertion inside LLVM)",
        notes=["try a lower optimisation level, or report the input"],
    )


def _optimized_ir(text: str, level: int, cpu: str, vectorize: bool) -> str:
    with verified(text) as module:
        tm = target_machine(module.triple or None, cpu=cpu)
        optimize(module, level, tm, vectorize=vectorize)
        return str(module)


_CRASHED = object()
"""`run_isolated`'s result when the child process died."""


def run_isolated(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` in a forked child; its result, or `_CRASHED` if the child died.

    Exceptions raised by `fn` are raised again here.  Without `fork` (not POSIX) the call runs
    in this process.
    """
    if not hasattr(os, "fork"):
        return fn(*args)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            payload = pickle.dumps((True, fn(*args)))
        except BaseException as e:  # noqa: BLE001 -- everything goes back to the parent
            try:
                payload = pickle.dumps((False, e))
            except Exception:  # noqa: BLE001
                payload = pickle.dumps((False, XenzymeError(f"internal error: {type(e).__name__}: {e}")))
        with os.fdopen(write_fd, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as inp:
        data = inp.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or not data:
        return _CRASHED
    ok, value = pickle.loads(data)
    if not ok:
        raise value
    return value




def target_machine(
    triple: str | None = None, cpu: str = "generic", opt: int = 2, jit: bool = False
) -> llb.TargetMachine:
    """A target machine for `triple` (host by default); `cpu="native"` uses the host CPU.

    For NVPTX, "generic" (which it does not know) means the architecture CUDA code is compiled
    for (`dialects.gpu.DEFAULT_ARCH`)."""
    initialize()
    triple = triple or llb.get_default_triple()
    features = ""
    if triple.startswith("nvptx") and cpu == "generic":
        from xenzyme.dialects.gpu import DEFAULT_ARCH

        cpu = DEFAULT_ARCH
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


def optimize(
    module: llb.ModuleRef, level: int, tm: llb.TargetMachine | None = None, vectorize: bool = True
) -> None:
    """Run LLVM's standard -O<level> pipeline in place (as clang does, vectorisers included).

    This runs in the calling process: prefer `optimized_ir`, which survives LLVM's assertions.
    """
    if level <= 0:
        return
    tm = tm or target_machine(module.triple or None)
    pto = llb.create_pipeline_tuning_options(speed_level=min(level, 3))
    pto.loop_vectorization = vectorize and level >= 2
    pto.slp_vectorization = vectorize and level >= 2
    pto.loop_unrolling = True
    pb = llb.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(module, pb)


def emit_object(module: llb.ModuleRef, cpu: str = "generic", opt: int = 2) -> bytes:
    """A position-independent ELF object for the module's triple (host by default)."""
    tm = target_machine(module.triple or None, cpu=cpu, opt=opt)
    return tm.emit_object(module)
