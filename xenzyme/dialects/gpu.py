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
* **global memory and atomics**: kernel arguments are generic pointers to device memory;
  `__device__` globals live in address space 1.  Atomics are `llvm.atomicrmw` / `llvm.cmpxchg`
  (atomicAdd on float and double is `atomicrmw fadd`).
* **math**: libdevice's functions (`__nv_sin`, `__nv_expf`, ...) are calls to declarations.
  They stay declarations until the backend links libdevice (for PTX) or `lower-gpu` maps them
  to libm (for the CPU); see `xenzyme/transforms/gpu_math.py`.

Everything else is ordinary `llvm` dialect code.

For derivative rules of GPU code: `analysis/divergence.py` says which values differ between the
threads of a block (an address that does not is where adjoints can be combined per block before
one atomic update) and which blocks only some threads run; `transforms/gpu_adjoints.py` is the
present, conservative policy (every adjoint update of memory atomic); `lower-gpu{target=cpu}`
runs any kernel with barriers whose control flow is uniform, primal or derivative.
"""

from __future__ import annotations

from xdsl.dialects import gpu as xgpu
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp, i32
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, result_def, traits_def
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

GLOBAL_ADDRESS_SPACE = 1
"""Address space of `__device__` globals."""

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


_REPLACED = {op.name for op in (*ID_OPS, BarrierOp)}

GPU = Dialect(
    "gpu",
    [op for op in xgpu.GPU.operations if op.name not in _REPLACED] + [*ID_OPS, BarrierOp],
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


def uses_gpu_layer(op: Operation) -> bool:
    """Whether `op` (a function, or anything) contains ops of the gpu layer."""
    return any(isinstance(o, (*ID_OPS, BarrierOp)) for o in op.walk())
