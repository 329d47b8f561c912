"""The `gpu` layer: GPU kernels as `llvm` functions plus a few `gpu` ops.

A CUDA kernel imported from clang's NVPTX IR is `llvm` dialect code in which the GPU's own
notions are NVVM intrinsics.  `raise-nvvm` turns them into this layer, which says the same
thing independently of the target; `lower-gpu` turns it into NVVM again (for PTX) or into
plain host code (for the CPU).  Derivative rules for GPU constructs are written against it.

What the layer consists of:

* **ids and sizes**: `gpu.thread_id`, `gpu.block_id`, `gpu.block_dim`, `gpu.grid_dim`, each
  with a dimension `x`, `y` or `z` -- CUDA's threadIdx, blockIdx, blockDim and gridDim:

      %t = gpu.thread_id x : i32
      %n = gpu.block_dim y : i32

  xDSL's gpu dialect has ops of these names returning `index`, which the llvm level has no use
  for (the exporter cannot print it).  The `gpu` dialect xenzyme registers (`GPU` below) is
  xDSL's with these four replaced by versions whose result is `index` or an integer type, the
  type written after a colon and omitted for `index` (so xDSL's own form still parses); xDSL's
  other gpu ops are kept as they are.  They are pure: within one thread they always give the
  same value.  `gpu.block_id`, `gpu.block_dim` and `gpu.grid_dim` are also the same in every
  thread of a block.
* **barrier**: `gpu.barrier` is `__syncthreads()`: every thread of the block waits until all
  have arrived, and memory written before it by any thread of the block is visible to all
  after it.  Every thread of a block must reach the same barriers in the same order (CUDA's
  rule): a barrier may only sit where control flow is the same for the whole block.
* **kernels**: an `llvm.func` with the unit attribute `gpu.kernel` (`KERNEL_ATTR`) is a kernel,
  an entry point launched over a grid of blocks; any other function is a device function.
  (NVPTX IR marks kernels with the `ptx_kernel` calling convention instead.)
* **shared memory**: an `llvm.mlir.global` in address space 3 (`SHARED_ADDRESS_SPACE`) is
  `__shared__` memory, one instance per block.  A sized array is static shared memory; an
  external `[0 x T]` global is CUDA's `extern __shared__ T a[]`, the dynamic shared memory
  whose size the launch gives (every such global names the same bytes).  Accesses go through
  `llvm.addrspacecast` to generic pointers, as clang emits them.
  CUDA gives shared memory no initial value.  In this layer a static shared array whose
  initializer is zero (`llvm.mlir.zero`) is zero when each block starts: the lowerings clear
  it before the kernel's first instruction (on NVPTX: the block's threads, then a barrier).
  An external shared array with the attribute `gpu.dynamic_copy = k` is the k-th *copy* of the
  dynamic shared memory: the bytes `k * size .. (k + 1) * size` after the start of the
  dynamic shared memory, where `size` is what the launch asked for; such a kernel needs
  `1 + k` times that much, and the copies are zero when each block starts.  Derivatives give
  shared arrays their shadows this way (`shared_shadow`).
* **global memory and atomics**: kernel arguments are generic pointers to device memory;
  `__device__` globals live in address space 1.  Atomics are `llvm.atomicrmw` / `llvm.cmpxchg`
  (atomicAdd on float and double is `atomicrmw fadd`).
* **shadows of device globals zeroed at launch**: a function with the unit attribute
  `gpu.zero_shadows_at_launch` (`ZERO_SHADOWS_ATTR`) asks for derivatives that must find the
  shadows of `__device__` globals at zero, as a C program's derivative call does; its threads
  cannot clear them (one would race with the others), so every launch of a kernel that reaches
  such a function starts with the shadows its code uses cleared: on the CPU by the host
  function before the grid runs, on NVPTX by a kernel of its own that the launcher runs first
  (`xenzyme/transforms/gpu_globals.py`).
* **math**: libdevice's functions (`__nv_sin`, `__nv_expf`, ...) are calls to declarations.
  They stay declarations until the backend links libdevice (for PTX) or `lower-gpu` maps them
  to libm (for the CPU); see `xenzyme/transforms/gpu_math.py`.

Everything else is ordinary `llvm` dialect code.

* **additions of adjoints**: `gpu.owned_add` and `gpu.combined_add` (below) are what
  derivatives add into memory with where they know who else adds at the address.

For derivative rules of GPU code: `analysis/divergence.py` says which values differ between the
threads of a block and which blocks only some threads run; `analysis/gpu_updates.py` which
additions into memory one thread owns and which all threads make at one address;
`lower-gpu{target=cpu}` runs any kernel with barriers whose control flow is uniform, primal or
derivative.
"""

from __future__ import annotations

from xdsl.dialects import gpu as xgpu
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, IntegerAttr, IntegerType, ModuleOp, StringAttr, i32
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

DEFAULT_ARCH = "sm_90"
"""The GPU architecture CUDA code is compiled and emitted for unless a flag names another."""

KERNEL_ATTR = "gpu.kernel"
"""The unit attribute on an `llvm.func` that makes it a kernel."""

SHARED_ADDRESS_SPACE = 3
"""Address space of `__shared__` memory (NVPTX's numbering, which clang uses)."""

DYNAMIC_COPY_ATTR = "gpu.dynamic_copy"
"""On an external shared array: which copy of the dynamic shared memory it is (see above)."""

GLOBAL_ADDRESS_SPACE = 1
"""Address space of `__device__` globals."""

ZERO_SHADOWS_ATTR = "gpu.zero_shadows_at_launch"
"""On a function: its derivatives want the shadows of device globals zero at each launch."""

DIMENSIONS = ("x", "y", "z")

DimensionAttr = xgpu.DimensionAttr


class _IdOp(IRDLOperation):
    """A thread or block index or size along one dimension (see the module docstring)."""

    dimension = prop_def(DimensionAttr)
    result = result_def(Attribute)

    traits = traits_def(Pure())

    def __init__(self, dim: str, result_type: Attribute = i32):
        super().__init__(
            result_types=[result_type], properties={"dimension": DimensionAttr(xgpu.DimensionEnum(dim))}
        )

    @property
    def dim(self) -> str:
        return self.dimension.data.value

    @property
    def axis(self) -> int:
        """0, 1, 2 for x, y, z."""
        return DIMENSIONS.index(self.dim)

    def verify_(self) -> None:
        t = self.result.type
        if not isinstance(t, IndexType | IntegerType):
            raise VerifyException(f"'{self.name}' must give an index or an integer, not {t}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.dim}")
        printer.print_op_attributes(self.attributes)
        if not isinstance(self.result.type, IndexType):
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> _IdOp:
        pos = parser.pos
        dim = parser.parse_optional_identifier()
        if dim not in DIMENSIONS:
            parser.raise_error("expected a dimension: x, y or z", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        t: Attribute = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            t = parser.parse_type()
        op = cls(dim, t)
        op.attributes |= attrs
        return op


@irdl_op_definition
class ThreadIdOp(_IdOp):
    """The thread's index in its block (CUDA's threadIdx): `%t = gpu.thread_id x : i32`."""

    name = "gpu.thread_id"


@irdl_op_definition
class BlockIdOp(_IdOp):
    """The block's index in the grid (blockIdx), the same in all its threads:
    `%b = gpu.block_id y : i32`."""

    name = "gpu.block_id"


@irdl_op_definition
class BlockDimOp(_IdOp):
    """The number of threads of a block along a dimension (blockDim): `%n = gpu.block_dim x : i32`."""

    name = "gpu.block_dim"


@irdl_op_definition
class GridDimOp(_IdOp):
    """The number of blocks of the grid along a dimension (gridDim): `%g = gpu.grid_dim z : i32`."""

    name = "gpu.grid_dim"


ID_OPS: tuple[type[_IdOp], ...] = (ThreadIdOp, BlockIdOp, BlockDimOp, GridDimOp)


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """`gpu.barrier`: `__syncthreads()`, a barrier for the threads of a block that also makes
    their earlier memory writes visible to each other.  It must be reached by every thread of
    the block (uniform control flow)."""

    name = "gpu.barrier"

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, xllvm.FuncOp | xgpu.FuncOp | xgpu.LaunchOp):
            parent = parent.parent_op()
        if parent is None:
            raise VerifyException("'gpu.barrier' must be inside a function (a kernel) or a gpu.launch")


class _AddOp(IRDLOperation):
    """`*ptr += value` on a float (see the two ops below)."""

    ptr = operand_def(xllvm.LLVMPointerType)
    value = operand_def(Attribute)

    assembly_format = "$ptr `,` $value attr-dict `:` type($ptr) `,` type($value)"

    def __init__(self, ptr: SSAValue, value: SSAValue):
        super().__init__(operands=[ptr, value])

    def verify_(self) -> None:
        if not isinstance(self.value.type, Float32Type | Float64Type):
            raise VerifyException(f"'{self.name}' adds f32 or f64, not {self.value.type}")


@irdl_op_definition
class CombinedAddOp(_AddOp):
    """`gpu.combined_add %p, %v : !llvm.ptr, f64`: `*p += v`, atomically like `atomicrmw fadd`,
    except that the values of threads that reach the op together with the same `%p` may be
    summed first and added by one atomic update, and that the update of memory may be delayed
    until the thread's next barrier or the end of the kernel.

        %p = llvm.getelementptr %dw[%k] : (!llvm.ptr, i64) -> !llvm.ptr, f64
        gpu.combined_add %p, %d : !llvm.ptr, f64

    Derivatives use it for adjoints added at an address that is likely the same in every thread
    (a weight every thread reads) and that nothing reads before the derivative returns.  The
    NVPTX lowering sums a warp's values by shuffles when all 32 threads are there with the same
    address, and adds them with one atomic (otherwise one atomic per thread); the CPU lowering
    sums the values of consecutive threads of a block at the same address in a register and
    adds each sum with one atomic."""

    name = "gpu.combined_add"


@irdl_op_definition
class OwnedAddOp(_AddOp):
    """`gpu.owned_add %p, %v : !llvm.ptr, f64`: `*p += v` where no other thread adds at `%p` when
    the launch is one-dimensional (grid and blocks of y and z size 1): the address is indexed by
    the thread's x position in the grid or its block (`x[blockIdx.x * blockDim.x + threadIdx.x]`).

        gpu.owned_add %dxi, %d : !llvm.ptr, f64

    A plain load, add and store for a one-dimensional launch, an atomic update otherwise (where
    threads with other y or z positions have the same x position)."""

    name = "gpu.owned_add"


ADD_OPS: tuple[type[_AddOp], ...] = (CombinedAddOp, OwnedAddOp)


_REPLACED = {op.name for op in (*ID_OPS, BarrierOp)}

GPU = Dialect(
    "gpu",
    [op for op in xgpu.GPU.operations if op.name not in _REPLACED] + [*ID_OPS, BarrierOp, *ADD_OPS],
    list(xgpu.GPU.attributes),
)
"""xDSL's gpu dialect, its id ops widened to integer results and given a custom syntax."""


# ---------------------------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------------------------


def is_kernel(fn: xllvm.FuncOp) -> bool:
    return KERNEL_ATTR in fn.attributes


def kernels(module: ModuleOp) -> list[xllvm.FuncOp]:
    return [op for op in module.ops if isinstance(op, xllvm.FuncOp) and is_kernel(op)]


def address_space(g: xllvm.GlobalOp) -> int:
    return g.addr_space.value.data


def is_shared(g: Operation) -> bool:
    """Whether `g` is a `__shared__` global."""
    return isinstance(g, xllvm.GlobalOp) and address_space(g) == SHARED_ADDRESS_SPACE


def is_dynamic_shared(g: xllvm.GlobalOp) -> bool:
    """`extern __shared__ T a[]`: a shared array declared, not defined (its size is the launch's)."""
    return is_shared(g) and g.value is None and not g.body.blocks and g.linkage.linkage.data in ("external", "extern_weak")


def is_zeroed_shared(g: Operation) -> bool:
    """A static shared array that is zero when each block starts (its initializer is zero)."""
    if not is_shared(g) or is_dynamic_shared(g):  # type: ignore[arg-type]
        return False
    body = g.body.blocks.first  # type: ignore[attr-defined]
    return body is not None and isinstance(body.first_op, xllvm.ZeroOp)


def dynamic_copy(g: xllvm.GlobalOp) -> int:
    """Which copy of the dynamic shared memory an `extern __shared__` array names: 0 for the
    launch's own, k >= 1 for the k-th copy after it (`gpu.dynamic_copy`)."""
    a = g.attributes.get(DYNAMIC_COPY_ATTR)
    return a.value.data if isinstance(a, IntegerAttr) else 0


def shared_shadow(module: ModuleOp, g: xllvm.GlobalOp, name: str) -> xllvm.GlobalOp:
    """A shadow for the shared array `g`, named `name`: a static array of the same type that is
    zero when each block starts, or for dynamic shared memory a zeroed copy of it.  Shadows
    named alike (`a.shadow`, `b.shadow`) of different dynamic arrays are the same copy, as the
    arrays are the same memory; each kind of shadow (`.shadow`, `.tangent`, ...) its own."""
    align = g.alignment.value.data if g.alignment is not None else None
    if not is_dynamic_shared(g):
        zero = xllvm.ZeroOp.create(result_types=[g.global_type])
        return xllvm.GlobalOp(g.global_type, name, "internal", addr_space=SHARED_ADDRESS_SPACE, alignment=align,
                              body=Region([Block([zero, xllvm.ReturnOp(zero.results[0])])]))  # fmt: skip
    kind = name[len(g.sym_name.data) :]
    dynamic = [op for op in module.ops if isinstance(op, xllvm.GlobalOp) and is_dynamic_shared(op)]
    primal = {op.sym_name.data for op in dynamic if not dynamic_copy(op)}
    k = 1 + max((dynamic_copy(op) for op in dynamic), default=0)
    for op in dynamic:
        n = op.sym_name.data
        if dynamic_copy(op) and n.endswith(kind) and n[: len(n) - len(kind)] in primal:
            k = dynamic_copy(op)  # the same kind of shadow of another name of the same memory
    shadow = xllvm.GlobalOp(g.global_type, name, "external", addr_space=SHARED_ADDRESS_SPACE, alignment=align)
    shadow.attributes[DYNAMIC_COPY_ATTR] = IntegerAttr(k, 32)
    return shadow


def dynamic_copies(module: ModuleOp, names: set[str] | None = None) -> int:
    """The number of copies of the dynamic shared memory beyond the launch's own that the
    shared arrays named `names` (all of the module's when None) use."""
    return max((dynamic_copy(op) for op in module.ops  # type: ignore[arg-type]
                if is_shared(op) and is_dynamic_shared(op) and (names is None or op.sym_name.data in names)),  # type: ignore[attr-defined]
               default=0)  # fmt: skip


def uses_gpu_layer(op: Operation) -> bool:
    """Whether `op` (a function, or anything) contains ops of the gpu layer."""
    return any(isinstance(o, (*ID_OPS, BarrierOp, *ADD_OPS)) for o in op.walk())


def is_device_code(module: ModuleOp) -> bool:
    """NVPTX code, or a module with kernels or other ops of the gpu layer: code that many GPU
    threads run at once."""
    triple = module.attributes.get("llvm.target_triple")
    if isinstance(triple, StringAttr) and triple.data.startswith("nvptx"):
        return True
    return any(isinstance(op, xllvm.FuncOp) and (is_kernel(op) or uses_gpu_layer(op)) for op in module.ops)
