"""LLVM through llvmlite: parsing our text back, optimising, and emitting native code.

Everything that hands text to LLVM goes through `parse_verified`, so that invalid IR is reported
as an error instead of reaching an LLVM call that could abort the process (llvmlite is built with
assertions).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import re
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


def object_code(text: str, cpu: str = "generic", opt: int = 2, level: int = 0) -> bytes:
    """A position-independent ELF object from LLVM IR text (see `emit_object`), after LLVM's
    -O`level` pipeline when `level` is set.

    Parsing, optimising and code generation run in one child process, like `optimized_ir`,
    and, like it, again without the vectorisers if LLVM dies the first time.  (Invalid IR is
    not a crash: the child's verifier reports it.)
    """
    return _in_child(text, cpu, opt, level, False, "generic")[0]


def jit_object(text: str, level: int, opt: int = 0,
               opt_cpu: str = "generic") -> tuple[bytes, list[tuple[str, bool]], bool]:  # fmt: skip
    """Machine code for this process's JIT (`xenzyme.backend.jit.ObjectModule`): the object of
    LLVM IR text after LLVM's -O`level` pipeline (tuned for `opt_cpu`), for the host CPU, with
    code generation at level `opt`; the symbols it needs from the process (name, and whether it
    may be missing: weak); and whether the module has static constructors."""
    return _in_child(text, "native", opt, level, True, opt_cpu)


def _in_child(text: str, cpu: str, opt: int, level: int, jit: bool, opt_cpu: str) -> Any:
    for vectorize in (True, False) if level > 0 else (True,):
        data = run_isolated(_object_code, text, cpu, opt, level, vectorize, jit, opt_cpu)
        if data is not _CRASHED:
            return data
    raise XenzymeError(
        "LLVM crashed on this module (an assertion inside LLVM)",
        notes=["try `-t 'obj{opt=0}'` or a lower optimisation level, or report the input"],
    )


def _object_code(text: str, cpu: str, opt: int, level: int, vectorize: bool, jit: bool,
                 opt_cpu: str) -> tuple[bytes, list, bool]:  # fmt: skip
    module = parse_verified(text)
    try:
        largest = largest_block(text)
        if level > 0:
            optimize(module, level, target_machine(module.triple or None, cpu=opt_cpu), vectorize=vectorize,
                     largest_block=largest)  # fmt: skip
        huge = largest > BRANCHLESS_SELECT_BLOCK
        if huge:
            optimized = str(module)
            release(module)
            module = parse_verified(branchless_selects(optimized))
        with _huge_block_codegen(huge):
            if not jit:
                return emit_object(module, cpu=cpu, opt=opt), [], False
            globals_ = list(module.global_variables)
            needed = [(v.name, v.linkage == llb.Linkage.external_weak) for v in (*module.functions, *globals_)
                      if v.is_declaration and not v.name.startswith("llvm.")]  # fmt: skip
            constructors = any(g.name in ("llvm.global_ctors", "llvm.global_dtors") for g in globals_)
            return target_machine(cpu=cpu, opt=opt, jit=True).emit_object(module), needed, constructors
    finally:
        release(module)


@contextlib.contextmanager
def _huge_block_codegen(huge: bool) -> Iterator[None]:
    """Code generation for a module with a basic block of more than `BRANCHLESS_SELECT_BLOCK`
    instructions without the machine instruction scheduler: on one block of tens of thousands
    of instructions it took a quarter of code generation (0.6 of 2.2 s for the gradient of 1,000
    straight-line statements) to reorder what the register allocator then spills anyway.  The
    instructions and their results are the same; only their order differs.  (An LLVM option is
    process-wide: it is set back afterwards, for code generation that does not run in a child.)"""
    if not huge:
        yield
        return
    llb.set_option("xenzyme", "-enable-misched=false")
    try:
        yield
    finally:
        llb.set_option("xenzyme", "-enable-misched=true")


def optimized_ir(text: str, level: int, cpu: str = "generic") -> str:
    """LLVM IR `text` after LLVM's standard -O`level` pipeline.

    llvmlite's LLVM is built with assertions, and LLVM has bugs that trip them (for instance
    the loop vectoriser's check that its two cost models agree, on some AVX2 code): a failed
    assertion aborts the process.  The pipeline therefore runs in a child process; when the
    child dies, the pipeline is run again without the vectorisers, and only if that fails too is
    it an error.  (Invalid IR is not a crash: the child's verifier reports it.)
    """
    if level <= 0:
        return text
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
        optimize(module, level, tm, vectorize=vectorize, largest_block=largest_block(text))
        return str(module)


SLP_MAX_BLOCK = 8_000
"""The SLP vectoriser is left out of LLVM's pipeline for a module with a basic block of more
instructions than this: its scheduling is quadratic in a block's length (the gradient of a
straight-line function of 1,000 statements, one block of 20,000 instructions, took 36 s of CPU
to `xenzyme-opt -t llvm` with it, 13 s without), while blocks of code people write, unrolled loops included, stay far
below (the benchmarks' largest gradient block has 1,600 instructions)."""


BRANCHLESS_SELECT_BLOCK = 4_000
"""In a module with a basic block of more instructions than this, floating-point selects are
made integer selects before code generation (`branchless_selects`)."""

_FLOAT_SELECT = re.compile(
    r"^(\s+%[-\w.$]+ = )select (?:[a-z]+ )*i1 ([^,]+), (double|float) ([^,]+), \3 ([^,\n]+)$", re.MULTILINE)


def branchless_selects(text: str) -> str:
    """LLVM IR text with each scalar `select i1 c, double a, double b` (or float) done on the
    bits, as an integer select between bitcasts.

    x86 without AVX-512 has no conditional move between SSE registers: a floating-point select
    whose condition has several users (the reverse sweep's `d != 0 ? d / b : 0` guards of a
    division's two adjoints share one) becomes a branch around a block.  In a gradient of
    straight-line code, thousands of cached forward values then stay live across thousands of
    blocks, and register allocation and live-interval analysis take time in the product: 4.4 s
    of code generation for the gradient of 1,000 statements, 1.4 s with integer selects, which
    are `cmov`s in the one block.  The values are the same, bit for bit."""
    count = 0

    def integer(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        head, cond, ty, a, b = m.groups()
        bits = "i64" if ty == "double" else "i32"
        k = f"%xenzyme.sel{count}"
        return (f"{k}.a = bitcast {ty} {a} to {bits}\n  {k}.b = bitcast {ty} {b} to {bits}\n"
                f"  {k} = select i1 {cond}, {bits} {k}.a, {bits} {k}.b\n{head}bitcast {bits} {k} to {ty}")  # fmt: skip

    return _FLOAT_SELECT.sub(integer, text)


def largest_block(text: str) -> int:
    """The most instructions in one basic block of LLVM IR text (instructions are indented;
    labels, `define` and `}` lines are not)."""
    best = count = 0
    for line in text.splitlines():
        if line.startswith("  "):
            count += 1
        elif line:
            best = max(best, count)
            count = 0
    return max(best, count)


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
    module: llb.ModuleRef, level: int, tm: llb.TargetMachine | None = None, vectorize: bool = True,
    largest_block: int = 0,
) -> None:
    """Run LLVM's standard -O<level> pipeline in place (as clang does, vectorisers included;
    not the SLP vectoriser when `largest_block` exceeds `SLP_MAX_BLOCK`).

    This runs in the calling process: prefer `optimized_ir`, which survives LLVM's assertions.
    """
    if level <= 0:
        return
    tm = tm or target_machine(module.triple or None)
    pto = llb.create_pipeline_tuning_options(speed_level=min(level, 3))
    pto.loop_vectorization = vectorize and level >= 2
    pto.slp_vectorization = vectorize and level >= 2 and largest_block <= SLP_MAX_BLOCK
    pto.loop_unrolling = True
    pb = llb.create_pass_builder(tm, pto)
    pm = pb.getModulePassManager()
    pm.run(module, pb)


def emit_object(module: llb.ModuleRef, cpu: str = "generic", opt: int = 2) -> bytes:
    """A position-independent ELF object for the module's triple (host by default)."""
    tm = target_machine(module.triple or None, cpu=cpu, opt=opt)
    return tm.emit_object(module)
