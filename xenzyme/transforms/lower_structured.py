"""`lower-structured`: a program in func/arith/math/scf/cf/memref -> the llvm dialect.

    (expand_copies)              memref.copy -> scf.for loops of loads and stores
    convert-affine-to-scf        affine.for/load/store/apply -> scf.for, memref, arith
    convert-scf-parallel-to-par  outermost scf.parallel -> a parallel region on threads (par)
    convert-scf-parallel-to-for  the other scf.parallel loops -> nested scf.for, reductions carried
    convert-scf-to-cf            xDSL's: scf.for / scf.if -> blocks and branches
    convert-scf-while-to-cf      scf.while -> blocks and branches
    convert-func-to-llvm         functions, calls, returns; memref parameters as descriptor fields
    convert-arith-to-llvm        arith ops, index as i64
    convert-math-to-llvm         math ops -> LLVM intrinsics or libm calls
    convert-memref-to-llvm       loads, stores, allocations on descriptors
    convert-cf-to-llvm           branches; block arguments retyped
    reconcile-unrealized-casts   xDSL's: the casts between the lowerings cancel out
    (fold_descriptor_fields)     a descriptor field is read where it was written
    (mark_region_slots)          a region's reduction slots marked as clang's are (raise-openmp)

A module with `scf.parallel` loops keeps `par` ops after this pass (`lower-par` lowers them to
libomp calls; the `enzyme` pipeline and the Python API do), and it is differentiated without
LLVM's optimiser first: the optimiser cannot carry `par` ops.

Reverse mode runs at the structured level where it can (xenzyme/transforms/diff/structured.py);
otherwise differentiation runs on the llvm dialect (the `enzyme` pipeline, `xz.gradient`), where
LLVM's optimiser has first removed the descriptors of memrefs passed as arguments.  A module
with no structured ops is left as it is, so the pass is safe to run on any input.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnrealizedConversionCastOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf
from xdsl.transforms.reconcile_unrealized_casts import ReconcileUnrealizedCastsPass

from xenzyme.transforms.convert_affine_to_scf import ConvertAffineToScfPass
from xenzyme.transforms.convert_arith_to_llvm import ConvertArithToLLVMPass
from xenzyme.transforms.convert_cf_to_llvm import ConvertCfToLLVMPass
from xenzyme.transforms.convert_func_to_llvm import ConvertFuncToLLVMPass
from xenzyme.transforms.convert_math_to_llvm import ConvertMathToLLVMPass
from xenzyme.transforms.convert_memref_to_llvm import ConvertMemrefToLLVMPass, expand_copies
from xenzyme.transforms.convert_scf_parallel_to_for import serialize_parallel_loops
from xenzyme.transforms.convert_scf_parallel_to_par import outline_parallel_loops
from xenzyme.transforms.convert_scf_while_to_cf import ConvertScfWhileToCfPass
from xenzyme.transforms.llvm_lowering import unsupported

STRUCTURED_DIALECTS = frozenset({"func", "arith", "math", "scf", "cf", "memref", "affine"})


def to_scf(module: ModuleOp, serialize: bool = True) -> ModuleOp:
    """`module`, or a copy with its affine ops as scf.for, memref and arith, and (`serialize`)
    its `scf.parallel` loops as scf.for nests: what the structured level differentiates.  The
    Python API keeps `scf.parallel` loops (`serialize=False`) for the lowered path, which runs
    them on threads."""
    from xdsl.dialects import scf

    if not any(o.dialect_name() == "affine" or (serialize and isinstance(o, scf.ParallelOp)) for o in module.walk()):
        return module
    module = module.clone()
    ConvertAffineToScfPass().apply(Context(), module)
    if serialize:
        serialize_parallel_loops(module)
    return module


def is_structured(module: ModuleOp) -> bool:
    """Whether the module holds ops of the structured dialects."""
    return any(o.dialect_name() in STRUCTURED_DIALECTS for o in module.walk())


@dataclass(frozen=True)
class LowerStructuredPass(ModulePass):
    """All of the structured dialects -> llvm."""

    name = "lower-structured"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not is_structured(op):
            return
        ConvertAffineToScfPass().apply(ctx, op)
        regions = outline_parallel_loops(op)
        serialize_parallel_loops(op)
        for o in op.walk():
            if o.dialect_name() == "omp":
                raise unsupported(o, "(MLIR's OpenMP dialect) is not supported",
                                  ["write the parallel loop as an scf.parallel: lowered, it runs on threads, in the "
                                   "primal and in its derivatives"])  # fmt: skip
            if o.dialect_name() == "scf" and o.name not in ("scf.for", "scf.if", "scf.yield", "scf.while",
                                                            "scf.condition"):  # fmt: skip
                raise unsupported(o, "is not supported yet", ["use scf.for, scf.if and scf.while"])
            if o.dialect_name() == "scf" and any(isinstance(r.type, MemRefType) for r in o.results):
                raise unsupported(o, "carries a memref from one iteration or branch to the next, which is not "
                                  "supported yet", ["load the values the loop needs from memrefs defined outside it"])  # fmt: skip
        expand_copies(op)
        ConvertScfToCf().apply(ctx, op)
        ConvertScfWhileToCfPass().apply(ctx, op)
        ConvertFuncToLLVMPass().apply(ctx, op)
        ConvertArithToLLVMPass().apply(ctx, op)
        ConvertMathToLLVMPass().apply(ctx, op)
        ConvertMemrefToLLVMPass().apply(ctx, op)
        ConvertCfToLLVMPass().apply(ctx, op)
        ReconcileUnrealizedCastsPass().apply(ctx, op)
        fold_descriptor_fields(op)
        if regions:
            mark_region_slots(op, set(regions))
        for o in op.walk():
            if isinstance(o, UnrealizedConversionCastOp):
                raise unsupported(o, f"from {o.inputs[0].type} to {o.results[0].type} remains after lowering: a "
                                  "value of that type is used where it cannot be lowered yet",
                                  ["memrefs may be passed to functions, allocated, loaded from and stored to"])  # fmt: skip


def fold_descriptor_fields(module: ModuleOp) -> None:
    """Read each descriptor field where it was written: an `llvm.extractvalue` of a chain of
    `llvm.insertvalue`s becomes the inserted value, and the chains left unused go.  Memrefs
    passed as arguments or allocated then need no struct at all, and the differentiation
    engine sees plain pointers and integers (as after LLVM's SROA), also where LLVM's
    optimiser does not run first (a module with its own derivative requests)."""
    for o in list(module.walk()):
        if not isinstance(o, xllvm.ExtractValueOp):
            continue
        want = tuple(o.position.get_values())
        c = o.container.owner
        while isinstance(c, xllvm.InsertValueOp):
            pos = tuple(c.position.get_values())
            if pos == want:
                o.res.replace_all_uses_with(c.value)
                Rewriter.erase_op(o)
                break
            if pos[: len(want)] == want or want[: len(pos)] == pos:
                break  # overlapping fields: leave it
            c = c.container.owner
    changed = True
    while changed:
        changed = False
        for o in list(module.walk()):
            if isinstance(o, xllvm.InsertValueOp | xllvm.UndefOp) and not o.results[0].uses:
                Rewriter.erase_op(o)
                changed = True


def mark_region_slots(module: ModuleOp, names: set[str]) -> None:
    """The parameters of the regions outlined from `scf.parallel` loops that point to a stack
    slot of the caller (a reduction's shared slot) get the `xenzyme.local_slot` mark that
    raise-openmp gives clang's (its `_read_only_slots`): the reverse then sums the slot's
    adjoints per thread rather than atomically per iteration."""
    from xenzyme.dialects import par
    from xenzyme.transforms.raise_openmp import _read_only_slots

    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp) and f.sym_name.data in names}
    forks: dict[str, list] = {}
    for o in module.walk():
        if isinstance(o, par.ParallelOp) and o.callee.string_value() in functions:
            forks.setdefault(o.callee.string_value(), []).append(o)
    for name, ops in forks.items():
        _read_only_slots(functions[name], ops)
