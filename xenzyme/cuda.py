"""`xenzyme.cuda`: CUDA kernels -- and their derivatives -- called from Python, on a GPU or on the CPU.

    import xenzyme as xz
    m = xz.cuda.load("kernels.cu")                 # a path or the source text; device="auto"
    k = m.get_function("saxpy")                    # the source name (or the mangled symbol)
    k((blocks,), (threads,), (x, y, np.float32(2.0), n), shared_mem=0)

The launch convention is CuPy's `RawKernel`: `grid` and `block` are an int or a tuple of up to
three ints, `args` a tuple with one item per kernel parameter, `shared_mem` the bytes of dynamic
(`extern __shared__`) shared memory.  Numpy arrays are passed for pointer parameters: their
contents are the device memory the kernel sees, read and written in place (on a GPU: copied to
the device before the launch and back after it; an array passed twice is one buffer).  Python
ints and floats, and numpy scalars, are converted to the parameter's C type.  A wrong number of
arguments, an argument of the wrong kind, a grid or block CUDA cannot run (more than 1024
threads in a block, a dimension out of range), more shared memory than a block may have
(48 KiB, static and dynamic together) or a barrier reached by only some threads of a block
(detected on the CPU) is a `XenzymeError`; nothing is launched for the first four.

The source goes through the `enzyme` pipeline (derivative requests `__enzyme_autodiff` /
`__enzyme_fwddiff` in kernels are differentiated), then

* `device="cpu"`: `lower-gpu{target=cpu}` and the JIT -- every kernel runs on the CPU, one block
  after the other, each block's threads as loops split at barriers;
* `device="gpu"`: PTX, a cubin from ptxas (the PTX itself when ptxas is missing), and the CUDA
  driver through `cuda-bindings` (`pip install xenzyme[cuda]`), imported only then; a kernel
  asking for derivatives is preceded by the kernel that zeroes the shadows of the `__device__`
  globals it uses (xenzyme/transforms/gpu_globals.py; on the CPU the launch itself does);
* `device="auto"`: the GPU when the driver initialises and sees a device, else the CPU.
"""

from __future__ import annotations

import ctypes
import functools
import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DictionaryAttr, Float32Type, Float64Type, IntegerType, ModuleOp
from xdsl.ir import Attribute

from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import gpu

DEVICES = ("auto", "cpu", "gpu")
MAX_THREADS = 1024
BLOCK_LIMITS = (1024, 1024, 64)
GRID_LIMITS = (2**31 - 1, 65535, 65535)
MAX_SHARED = 48 * 1024
"""Static plus dynamic shared memory of a block without opting in to more (CUDA's default)."""
DEVICE_HEAP = 512 << 20
"""Bytes of the GPU's malloc heap (CUDA's default is 8 MiB)."""


# ---------------------------------------------------------------------------------------------
# Kernels of a module
# ---------------------------------------------------------------------------------------------


def source_name(symbol: str) -> str:
    """The C++ name of an Itanium-mangled function (`_Z5saxpyifPKfPf` -> `saxpy`,
    `_ZN2ns4stepEPd` -> `ns::step`); other names unchanged."""
    m = re.match(r"_ZL?(N[rVK]*)?", symbol)
    if m is None:
        return symbol
    i, parts = m.end(), []
    while i < len(symbol) and symbol[i].isdigit():
        n = re.match(r"\d+", symbol[i:])
        assert n is not None
        length, i = int(n.group()), i + len(n.group())
        parts.append(symbol[i : i + length])
        i += length
        if not m.group(1):
            break
    return "::".join(parts) if parts else symbol


@dataclass(frozen=True)
class KernelInfo:
    symbol: str
    name: str
    params: tuple[Attribute, ...]
    static_shared: int
    dynamic_copies: int = 0
    """Copies of the dynamic shared memory beyond the launch's own (shadows of derivatives): a
    launch with `shared_mem` bytes takes `(1 + dynamic_copies) * shared_mem` on the device."""
    zeroed_bytes: int = 0
    """Bytes of shadows of device globals each launch clears first (a kernel asking for
    derivatives): on a GPU by running the kernel `zero_kernel_name(symbol)` before it."""


def kernel_infos(module: ModuleOp) -> list[KernelInfo]:
    """The kernels of a module in the gpu layer (after raise-nvvm), as Python launches them."""
    from xenzyme.transforms.gpu_globals import zeroed_bytes
    from xenzyme.transforms.gpu_shared import shared_arrays
    from xenzyme.transforms.gpu_to_cpu import shared_layout

    out = []
    for k in gpu.kernels(module):
        params = tuple(k.function_type.inputs.data)
        attrs = k.arg_attrs.data if k.arg_attrs is not None else ()
        for i, a in enumerate(attrs):
            if isinstance(a, DictionaryAttr) and "llvm.byval" in a.data:
                params = (*params[:i], a.data["llvm.byval"], *params[i + 1 :])
        _, static = shared_layout(module, k)
        copies = gpu.dynamic_copies(module, {g.sym_name.data for g in shared_arrays(module, k)})
        out.append(KernelInfo(k.sym_name.data, source_name(k.sym_name.data), params, static, copies,
                              zeroed_bytes(module, k)))  # fmt: skip
    return out


_C_NAMES = {
    ctypes.c_double: "double", ctypes.c_float: "float", ctypes.c_bool: "bool", ctypes.c_int8: "int8",
    ctypes.c_int16: "int16", ctypes.c_int32: "int32", ctypes.c_int64: "int64",
}  # fmt: skip


def _ctype(t: Attribute) -> Any:
    """The ctypes type of a kernel parameter of LLVM type `t` (None for a pointer)."""
    if isinstance(t, xllvm.LLVMPointerType):
        return None
    if isinstance(t, Float64Type):
        return ctypes.c_double
    if isinstance(t, Float32Type):
        return ctypes.c_float
    if isinstance(t, IntegerType) and t.width.data in (1, 8, 16, 32, 64):
        return {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16, 32: ctypes.c_int32, 64: ctypes.c_int64}[t.width.data]
    return Ellipsis


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------


def load(
    source: str | os.PathLike[str],
    device: str = "auto",
    *,
    clang_flags: Sequence[str] | None = None,
    preopt: int = 2,
) -> CudaModule:
    """Compile CUDA source (a `.cu` path or the text) for `device` ("auto", "cpu" or "gpu")."""
    from xenzyme.api import _looks_like_path, context
    from xenzyme.api import load as load_module
    from xenzyme.transforms.enzyme import EnzymePass

    if device not in DEVICES:
        raise XenzymeError(f"unknown device '{device}' (use auto, cpu or gpu)")
    if device == "auto":
        device = "gpu" if gpu_available() else "cpu"
    driver = _Driver.get() if device == "gpu" else None
    is_path = isinstance(source, os.PathLike) or _looks_like_path(str(source))
    if is_path and Path(source).suffix != ".cu":
        raise XenzymeError(f"'{source}' is not CUDA source (.cu)")
    module = load_module(source, clang_flags=clang_flags) if is_path else load_module(
        str(source), language="cuda", clang_flags=clang_flags
    )
    pipeline = EnzymePass(preopt=preopt, postopt=3 if device == "gpu" else 0, gpu="nvvm" if device == "gpu" else "cpu")
    pipeline.differentiate(context(), module)
    kernels = kernel_infos(module)
    pipeline.lower(context(), module)
    if driver is not None:
        return CudaModule("gpu", kernels, _GPUImage(driver, module))
    return CudaModule("cpu", kernels, _CPUImage(module))


@functools.cache
def gpu_available() -> bool:
    """Whether the CUDA driver initialises (through cuda-bindings) and sees a device."""
    try:
        _Driver.get()
    except XenzymeError:
        return False
    return True


class CudaModule:
    """Compiled kernels; `get_function` gives one, ready to launch."""

    def __init__(self, device: str, kernels: list[KernelInfo], code: Any):
        self.device = device
        self.kernels = kernels
        self._code = code

    def get_function(self, name: str) -> Kernel:
        exact = [k for k in self.kernels if k.symbol == name]
        found = exact or [k for k in self.kernels if k.name == name]
        if not found:
            known = ", ".join(sorted({k.name for k in self.kernels})) or "none"
            raise XenzymeError(f"no kernel named '{name}' (the kernels: {known})",
                               notes=["a kernel is a __global__ function"])  # fmt: skip
        if len(found) > 1:
            raise XenzymeError(f"'{name}' names {len(found)} overloaded kernels",
                               notes=["give the mangled name: " + ", ".join(k.symbol for k in found)])  # fmt: skip
        return Kernel(self, found[0])

    def __repr__(self) -> str:
        return f"<xenzyme.cuda module on {self.device}: {', '.join(k.name for k in self.kernels)}>"


# ---------------------------------------------------------------------------------------------
# Launching
# ---------------------------------------------------------------------------------------------


def _dims(value: object, what: str, limits: tuple[int, int, int]) -> tuple[int, int, int]:
    items = value if isinstance(value, tuple | list) else (value,)
    if not 1 <= len(items) <= 3 or not all(isinstance(v, int | np.integer) and not isinstance(v, bool) for v in items):
        raise XenzymeError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    dims = [int(v) for v in items] + [1] * (3 - len(items))
    for d, lim, axis in zip(dims, limits, "xyz", strict=True):
        if not 1 <= d <= lim:
            raise XenzymeError(f"{what} size {d} along {axis} is out of range (1 to {lim})")
    return dims[0], dims[1], dims[2]


class Kernel:
    """A kernel of a `CudaModule`: `k(grid, block, args, shared_mem=0)`."""

    def __init__(self, module: CudaModule, info: KernelInfo):
        self.module = module
        self.info = info
        self.name = info.name
        self._ctypes = [_ctype(t) for t in info.params]
        for i, (c, t) in enumerate(zip(self._ctypes, info.params, strict=True)):
            if c is Ellipsis:
                raise XenzymeError(f"parameter {i} of kernel '{info.name}' has type {t}, which Python cannot pass",
                                   notes=["pass structs by pointer (a numpy array), scalars as int or float"])  # fmt: skip

    def __call__(self, grid: object, block: object, args: Sequence[object], shared_mem: int = 0) -> None:
        g = _dims(grid, "grid", GRID_LIMITS)
        b = _dims(block, "block", BLOCK_LIMITS)
        if b[0] * b[1] * b[2] > MAX_THREADS:
            raise XenzymeError(f"a block of {b[0]}x{b[1]}x{b[2]} = {b[0] * b[1] * b[2]} threads is more than {MAX_THREADS}")
        if not isinstance(shared_mem, int | np.integer) or isinstance(shared_mem, bool) or shared_mem < 0:
            raise XenzymeError(f"shared_mem must be a number of bytes (an int >= 0), got {shared_mem!r}")
        dynamic = int(shared_mem) * (1 + self.info.dynamic_copies)
        if self.info.static_shared + dynamic > MAX_SHARED:
            raise XenzymeError(
                f"kernel '{self.name}' needs {self.info.static_shared} bytes of static shared memory and "
                f"{dynamic} of dynamic, more than the {MAX_SHARED} a block may have"
                + (f" (the dynamic shared memory and {self.info.dynamic_copies} shadow copies of it)"
                   if self.info.dynamic_copies else "")
            )
        if not isinstance(args, tuple | list):
            raise XenzymeError(f"args must be a tuple of the kernel's arguments, got {type(args).__name__}")
        if len(args) != len(self._ctypes):
            raise XenzymeError(f"kernel '{self.name}' takes {len(self._ctypes)} arguments, {len(args)} given")
        values = [self._convert(i, a, c) for i, (a, c) in enumerate(zip(args, self._ctypes, strict=True))]
        self.module._code.launch(self.info, g, b, int(shared_mem), values)

    def _convert(self, i: int, value: object, ctype: Any) -> Any:
        where = f"argument {i} of kernel '{self.name}'"
        if ctype is None:
            if not isinstance(value, np.ndarray):
                raise XenzymeError(f"{where} is a pointer: pass a numpy array, not {type(value).__name__}")
            if not value.flags["C_CONTIGUOUS"] or not value.flags["WRITEABLE"]:
                raise XenzymeError(f"{where}: the array must be C-contiguous and writeable",
                                   notes=["np.ascontiguousarray(a) makes one"])  # fmt: skip
            return value
        cname = _C_NAMES[ctype]
        if isinstance(value, np.ndarray) or not isinstance(value, int | float | np.integer | np.floating):
            raise XenzymeError(f"{where} ({cname}) takes a number, not {type(value).__name__}")
        if ctype in (ctypes.c_double, ctypes.c_float):
            return ctype(float(value))
        if isinstance(value, float | np.floating):
            raise XenzymeError(f"{where} ({cname}) takes an integer, not a float")
        bits = ctypes.sizeof(ctype) * 8 if ctype is not ctypes.c_bool else 1
        v = int(value)
        if not -(2 ** (bits - 1)) <= v < 2**bits:
            raise XenzymeError(f"{where}: {v} does not fit in {bits} bits")
        return ctype(v - 2**bits if bits > 1 and v >= 2 ** (bits - 1) else v)

    def __repr__(self) -> str:
        return f"<xenzyme.cuda kernel {self.name} ({self.info.symbol}) on {self.module.device}>"


class _CPUImage:
    """Kernels as host functions in the JIT (the ABI of xenzyme/transforms/gpu_to_cpu.py).

    Launches run one at a time, as on a CUDA stream: a launch whose team is one host thread
    adds its adjoints without atomics and each gradient launch zeroes its device globals'
    shadows, so two launches from different Python threads (ctypes lets go of the GIL) must
    not overlap."""

    def __init__(self, module: ModuleOp):
        from xenzyme.backend.jit import JITModule

        self.jit = JITModule(module, opt_level=3)
        self.lock = threading.Lock()

    def launch(self, info: KernelInfo, grid, block, shared: int, values: list[Any]) -> None:
        symbol = info.symbol
        fn = self.jit.function(symbol)
        args: list[Any] = [*grid, *block, shared]
        args += [ctypes.c_void_p(v.ctypes.data) if isinstance(v, np.ndarray) else v for v in values]
        with self.lock:
            status = fn.cfunc(*args)
        if status != 0:
            raise XenzymeError(
                f"kernel '{source_name(symbol)}': a __syncthreads() was reached by only some threads of a block",
                notes=["every thread of a block must reach the same barriers (CUDA leaves this undefined); "
                       "the arrays may have been partly updated"],
            )


# ---------------------------------------------------------------------------------------------
# The GPU: CUDA driver API through cuda-bindings
# ---------------------------------------------------------------------------------------------


class _Driver:
    """The CUDA driver of this process, initialised once (device 0, its primary context)."""

    _instance: _Driver | None = None

    @classmethod
    def get(cls) -> _Driver:
        if cls._instance is None:
            cls._instance = _Driver()
        return cls._instance

    def __init__(self) -> None:
        try:
            from cuda.bindings import driver as cu
        except ImportError:
            raise XenzymeError("running kernels on a GPU needs the cuda-bindings package",
                               notes=["pip install 'xenzyme[cuda]', or use device='cpu'"]) from None  # fmt: skip
        self.cu = cu
        try:
            self.check(cu.cuInit(0), "cuInit")
        except XenzymeError:
            raise
        except Exception as e:
            raise XenzymeError(f"the CUDA driver cannot be initialised: {type(e).__name__}: {e}",
                               notes=["is there an NVIDIA GPU and driver? device='cpu' runs kernels on the CPU"]) from None  # fmt: skip
        (count,) = self.check(cu.cuDeviceGetCount(), "cuDeviceGetCount")
        if count < 1:
            raise XenzymeError("the CUDA driver sees no GPU", notes=["device='cpu' runs kernels on the CPU"])
        (self.device,) = self.check(cu.cuDeviceGet(0), "cuDeviceGet")
        (self.context,) = self.check(cu.cuDevicePrimaryCtxRetain(self.device), "cuDevicePrimaryCtxRetain")
        self.check(cu.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        # Derivatives keep the values of loops with run-time trip counts in the device's heap.
        self.check(cu.cuCtxSetLimit(cu.CUlimit.CU_LIMIT_MALLOC_HEAP_SIZE, DEVICE_HEAP), "cuCtxSetLimit")

    def check(self, result: Any, what: str) -> tuple[Any, ...]:
        """cuda-bindings returns (CUresult, values...): the values, or an error."""
        err, *values = result if isinstance(result, tuple) else (result,)
        if err != self.cu.CUresult.CUDA_SUCCESS:
            _, name = self.cu.cuGetErrorName(err)
            raise XenzymeError(f"{what} failed: {name.decode() if isinstance(name, bytes) else name}")
        return tuple(values)


class _GPUImage:
    """A module loaded on the GPU: its kernels launched with numpy arrays copied in and out."""

    def __init__(self, driver: _Driver, module: ModuleOp):
        from xenzyme.backend.ptx import assemble_cubin, find_ptxas, module_ptx
        from xenzyme.transforms.lower_gpu import prepare_for_ptx

        self.driver = driver
        prepare_for_ptx(module)
        ptx = module_ptx(module)
        try:
            find_ptxas()
            image = assemble_cubin(ptx)
        except XenzymeError:
            image = ptx.encode() + b"\0"  # the driver compiles PTX itself
        (self.module,) = driver.check(driver.cu.cuModuleLoadData(image), "cuModuleLoadData")
        self.functions: dict[str, Any] = {}

    def launch(self, info: KernelInfo, grid, block, shared: int, values: list[Any]) -> None:
        symbol, copies = info.symbol, info.dynamic_copies
        d, cu = self.driver, self.driver.cu
        fn = self.functions.get(symbol)
        if fn is None:
            (fn,) = d.check(cu.cuModuleGetFunction(self.module, symbol.encode()), "cuModuleGetFunction")
            self.functions[symbol] = fn
        buffers: dict[int, tuple[np.ndarray, Any]] = {}
        if info.zeroed_bytes:  # the shadows of device globals, zero as the launch starts
            self._zero_shadows(info)
        try:
            params = []
            for v in values:
                if isinstance(v, np.ndarray):
                    key = v.__array_interface__["data"][0]
                    if key not in buffers:
                        (ptr,) = d.check(cu.cuMemAlloc(max(v.nbytes, 1)), "cuMemAlloc")
                        buffers[key] = (v, ptr)
                        d.check(cu.cuMemcpyHtoD(ptr, v.ctypes.data, v.nbytes), "cuMemcpyHtoD")
                    params.append(ctypes.c_uint64(int(buffers[key][1])))
                else:
                    params.append(v)
            pointers = (ctypes.c_void_p * max(len(params), 1))(*[ctypes.addressof(p) for p in params])
            d.check(cu.cuLaunchKernel(fn, *grid, *block, shared * (1 + copies), cu.CUstream(0), ctypes.addressof(pointers), 0),
                    "cuLaunchKernel")  # fmt: skip
            d.check(cu.cuCtxSynchronize(), "the kernel")
            for v, ptr in buffers.values():
                d.check(cu.cuMemcpyDtoH(v.ctypes.data, ptr, v.nbytes), "cuMemcpyDtoH")
        finally:
            for _, ptr in buffers.values():
                cu.cuMemFree(ptr)

    def _zero_shadows(self, info: KernelInfo) -> None:
        """Run the kernel clearing `info`'s shadows of device globals (a grid-stride loop over
        their 4-byte words: any grid will do)."""
        from xenzyme.transforms.gpu_globals import zero_kernel_name

        d, cu = self.driver, self.driver.cu
        name = zero_kernel_name(info.symbol)
        fn = self.functions.get(name)
        if fn is None:
            (fn,) = d.check(cu.cuModuleGetFunction(self.module, name.encode()), "cuModuleGetFunction")
            self.functions[name] = fn
        blocks = min(max(1, -(-info.zeroed_bytes // (4 * 256))), 4096)
        d.check(cu.cuLaunchKernel(fn, blocks, 1, 1, 256, 1, 1, 0, cu.CUstream(0), 0, 0), "cuLaunchKernel")


__all__ = ["CudaModule", "Kernel", "KernelInfo", "gpu_available", "kernel_infos", "load", "source_name"]
