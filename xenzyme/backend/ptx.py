"""NVPTX code: PTX from the llvm dialect through llvmlite, and cubins through ptxas.

    ptx = emit_ptx(export_module(module), arch="sm_90")      # PTX text
    cubin = assemble_cubin(ptx, arch="sm_90")                  # bytes, from the toolkit's ptxas

The module must be NVPTX code with its kernels marked (`ptx_kernel`, what `lower-gpu{target=nvvm}`
gives).  libdevice -- the CUDA toolkit's `libdevice.10.bc`, found through `nvcc -dryrun` or
`$XENZYME_LIBDEVICE` -- is linked only when the module calls `__nv_*` functions, that is after
differentiation; then every function but the kernels is made internal and LLVM's optimiser
drops what is not called (a few functions of libdevice's 349 remain).  The functions' target
CPU becomes `arch`.

LLVM's NVPTX backend aborts the process on what it cannot select (`llvm.sin.f64`, for instance),
so code generation runs in a child process: a crash is an error, never a dead Python.  A kernel
that comes out as a `.func` instead of an `.entry` (its mark was lost) is an error too.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import tempfile

import llvmlite.binding as llb

from xenzyme.backend.native import _CRASHED, optimize, run_isolated, target_machine, verified
from xenzyme.diagnostics import XenzymeError

ARCH = re.compile(r"^sm_\d+[af]?$")
LIBDEVICE_CALL = re.compile(r"@__nv_\w+")


def check_arch(arch: str) -> None:
    if not ARCH.match(arch):
        raise XenzymeError(f"unknown GPU architecture '{arch}'", notes=["write it as sm_XY, for example sm_90 or sm_80"])


@functools.cache
def find_libdevice() -> str:
    """The path of the CUDA toolkit's libdevice bitcode."""
    env = os.environ.get("XENZYME_LIBDEVICE")
    if env:
        if not os.path.isfile(env):
            raise XenzymeError(f"XENZYME_LIBDEVICE names '{env}', which is not a file")
        return env
    nvcc = shutil.which("nvcc") or next(
        (p for p in ("/usr/local/cuda/bin/nvcc",) if os.path.exists(p)), None
    )
    if nvcc is not None:
        proc = subprocess.run([nvcc, "-dryrun", "-x", "cu", "-c", os.devnull, "-o", os.devnull],
                              capture_output=True, text=True)  # fmt: skip
        for line in (proc.stdout + proc.stderr).splitlines():
            m = re.match(r"#\$ NVVMIR_LIBRARY_DIR=(.*)$", line.strip())
            if m and os.path.isfile(path := os.path.join(m.group(1).strip(), "libdevice.10.bc")):
                return path
    raise XenzymeError(
        "libdevice (the CUDA toolkit's libdevice.10.bc) was not found; the module calls its math functions",
        notes=["install the CUDA toolkit (nvcc on PATH), or set XENZYME_LIBDEVICE to the file"],
    )


def find_ptxas() -> str:
    path = shutil.which("ptxas") or next(
        (p for p in ("/usr/local/cuda/bin/ptxas",) if os.path.exists(p)), None
    )
    if path is None:
        raise XenzymeError("ptxas was not found", notes=["install the CUDA toolkit, with ptxas on PATH"])
    return path


def kernel_names(text: str) -> list[str]:
    """The functions LLVM IR text defines as `ptx_kernel`."""
    return re.findall(r'^\s*define[^@\n]*\bptx_kernel\b[^@\n]*@("(?:[^"\\]|\\.)*"|[-\w$.]+)\(', text, re.M)


def emit_ptx(text: str, arch: str = "sm_90", opt: int = 2) -> str:
    """PTX for the NVPTX module `text` (LLVM IR), with libdevice linked when it is called."""
    check_arch(arch)
    triple = re.search(r'^\s*target triple = "([^"]*)"', text, re.M)
    if triple is None or not triple.group(1).startswith("nvptx"):
        raise XenzymeError(
            "the module is not NVPTX code, so it has no PTX",
            notes=["give CUDA device code (.cu), and keep its kernels for the GPU (not enzyme{gpu=cpu})"],
        )
    text = re.sub(r'"target-cpu"="[^"]*"', f'"target-cpu"="{arch}"', text)
    text = re.sub(r'"target-features"="[^"]*"', '"target-features"=""', text)
    libdevice = find_libdevice() if LIBDEVICE_CALL.search(text) else None
    with verified(text):
        pass  # invalid IR is an error here, before the child process
    with tempfile.TemporaryFile(mode="w+") as log:
        result = run_isolated(_emit_ptx, text, arch, libdevice, opt, log.fileno())
        log.seek(0)
        said = [ln.strip() for ln in log.read().splitlines() if ln.strip()]
    if result is _CRASHED:
        raise XenzymeError(
            "LLVM's NVPTX backend crashed on this module (an abort inside LLVM, for instance on an operation "
            "it cannot select)",
            notes=[*(f"LLVM said: {ln}" for ln in said[-3:]),
                   "math in GPU code must call libdevice (__nv_sin, ...); report the input if it does"],
        )  # fmt: skip
    kernels = [k.strip('"') for k in kernel_names(text)]
    for k in kernels:
        if not re.search(rf"^\.(visible|weak) \.entry {re.escape(k)}\(", result, re.M):
            raise XenzymeError(f"the kernel @{k} was emitted as a device function (.func), not a kernel (.entry)")
    return result


def _emit_ptx(text: str, arch: str, libdevice: str | None, opt: int, log: int) -> str:
    """(In the child process, its stderr -- where LLVM writes before it aborts -- going to `log`.)"""
    if hasattr(os, "fork"):  # (without fork, run_isolated runs this in the caller's process)
        os.dup2(log, 2)
    with verified(text) as module:
        if libdevice is not None:
            kernels = {k.strip('"') for k in kernel_names(text)}
            with open(libdevice, "rb") as f:
                lib = llb.parse_bitcode(f.read(), module._context)  # type: ignore[attr-defined]
            lib.triple = module.triple
            lib.data_layout = module.data_layout
            module.link_in(lib)
            for fn in module.functions:
                if not fn.is_declaration and fn.name not in kernels:
                    fn.linkage = llb.Linkage.internal
        tm = target_machine(module.triple, cpu=arch, opt=opt)
        optimize(module, max(opt, 1), tm, vectorize=False)
        return tm.emit_assembly(module)


def module_ptx(module, arch: str = "sm_90", opt: int = 2) -> str:
    """PTX for an xDSL module in NVVM form (`lower-gpu{target=nvvm}`, or
    `xenzyme.transforms.lower_gpu.prepare_for_ptx` for input that never went through it)."""
    from xenzyme.backend.llvm_export import export_module

    return emit_ptx(export_module(module), arch, opt)


def assemble_cubin(ptx: str, arch: str = "sm_90") -> bytes:
    """A cubin from PTX, by ptxas; its complaints are an error."""
    check_arch(arch)
    ptxas = find_ptxas()
    with tempfile.TemporaryDirectory(prefix="xenzyme-") as d:
        src, out = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        proc = subprocess.run([ptxas, f"-arch={arch}", src, "-o", out], capture_output=True, text=True)
        if proc.returncode != 0:
            lines = [ln.replace(src, "<ptx>") for ln in proc.stderr.strip().splitlines()] or ["(no message)"]
            raise XenzymeError(f"ptxas rejected the PTX: {lines[0]}", notes=lines[1:6])
        with open(out, "rb") as f:
            return f.read()


__all__ = ["assemble_cubin", "emit_ptx", "find_libdevice", "find_ptxas", "kernel_names", "module_ptx"]
