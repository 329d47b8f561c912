"""`enzyme`: the whole pipeline, from a program using Enzyme's C ABI to optimised derivatives.

    lower-structured                            (func/arith/math/scf/cf/memref input) -> llvm
    llvm-opt{level=preopt strip-optnone=true}   LLVM's optimiser first: AD after optimisation
    raise-enzyme-calls                          __enzyme_autodiff / __enzyme_fwddiff / split-mode calls ->
                                                autodiff.autodiff / autodiff.fwddiff
    restore-types                               floats and pointers moved as integers (between
                                                functions, through memory, phis) get their types back
    replace-flang-runtime                       flang's whole-array runtime calls -> loops over descriptors
    raise-openmp                                OpenMP runtime calls -> par ops
    raise-mpi                                   MPI calls -> ompi ops
    raise-nvvm                                  (GPU code) NVVM intrinsics -> the gpu layer
    reverse-diff                                generate and call the gradient functions
    lower-autodiff                              caches and accumulations -> llvm ops
    forward-diff                                generate and call the tangent functions
    lower-gpu{target=gpu}                       (GPU code) the gpu layer -> NVVM, or host code
    lower-ompi                                  ompi ops -> MPI calls (and xenzyme's helpers)
    lower-par                                   par ops -> libomp calls
    llvm-opt{level=postopt}                     clean up and optimise the result

Before LLVM's optimiser runs, the functions OpenMP's `__kmpc_fork_call` runs are marked
`noinline` (clang -O2 marks them `alwaysinline`), so that the serialized path of an `if(...)`
clause keeps calling its outlined function and `raise-openmp` finds every parallel region whole.
`lower-par` runs after forward mode, which differentiates parallel regions as `par` ops too.

Reverse mode goes in rounds: the requests whose functions hold no request themselves first,
lowered, then those of functions that call `__enzyme_autodiff` (reverse over reverse: second and
third derivatives differentiate the gradient function as the plain LLVM code it has become).
Forward mode comes after reverse mode is lowered, for the same reason: a function
differentiated in forward mode may itself call `__enzyme_autodiff` (a Hessian-vector product is
forward over reverse).  Enzyme's `__enzyme_iter(a, b)` counts the derivatives taken: `a + b` in
each derivative function made from the code, `a` where none is (after the last round).

`xenzyme-opt prog.ll -p enzyme -t obj -o prog.o`, or `-p 'enzyme{preopt=0 postopt=3}'` to
differentiate the unoptimised program (the ablation the benchmarks report); `mincut=0` caches
each needed value as it is instead of choosing the caches by a minimum cut;
`enzyme{checkpoint=binomial checkpoints=32}` (or `checkpoint=periodic period=100`, or
`checkpoint=online checkpoints=32` for loops of unknown length) reverses the
outermost counted loops of differentiated functions from checkpoints of their state
(xenzyme/transforms/checkpoint_loops.py) rather than from a cache of every iteration, and
`enzyme{tape-budget-mb=256}` chooses binomial checkpointing with as many snapshots as 256 MiB hold;
`enzyme{reuse-caches=false}` frees the reverse sweep's cache buffers at every return instead of
keeping them for the next call.

A structured module (func/arith/math/scf/cf/memref) holds its derivative requests as
`autodiff.autodiff` / `autodiff.fwddiff` ops on `func.func`s: those the structured level can
take are differentiated there first (xenzyme/transforms/diff/structured.py; a forward request
whose function holds a reverse one is not, so forward over reverse still differentiates the
lowered gradient), then the module is lowered to llvm; LLVM's optimiser cannot carry the
requests left, so such a module skips `preopt` and is differentiated as lowered; so does one
whose `scf.parallel` loops became parallel regions (`par` ops, which the optimiser cannot
carry either).

GPU code (CUDA compiled for NVPTX, or a module with kernels) is raised into the gpu layer
before differentiation, so that derivatives see kernels, barriers and thread ids rather than
NVVM intrinsics; its adjoint updates of memory are plain, combined or atomic as the threads
that may add at an address say (`GradientBuilder.accumulate_memory`), and its caches are freed at each return
(no pools: thousands of threads run a kernel at once); and it is lowered after differentiation: `gpu=nvvm` (the default) keeps the module NVPTX code,
for `-t ptx` / `-t cubin`; `gpu=cpu` turns each kernel into a host function running the grid
(xenzyme/transforms/gpu_to_cpu.py), for `-t obj`, `-t llvm` and the JIT.  Other modules skip
both steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.passes import ModulePass

from xenzyme.analysis.callgraph import reachable
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.transforms.checkpoint_loops import checkpoint_loops
from xenzyme.transforms.checkpoint_options import check_options
from xenzyme.transforms.diff.prepare import forward_inserted_values
from xenzyme.transforms.diff.structured import differentiate_requests
from xenzyme.transforms.forward_diff import ForwardDiffPass
from xenzyme.transforms.inlining import inline_call
from xenzyme.transforms.llvm_opt import keep_hinted_calls, run_llvm_pipeline, strip_optnone
from xenzyme.transforms.lower_autodiff import LowerAutodiffPass
from xenzyme.transforms.lower_gpu import TARGETS, LowerGPUPass, is_gpu_module
from xenzyme.transforms.lower_ompi import LowerOMPIPass
from xenzyme.transforms.lower_par import LowerParPass
from xenzyme.transforms.lower_structured import LowerStructuredPass
from xenzyme.transforms.raise_enzyme_calls import ITERATION_COUNTER, RaiseEnzymeCallsPass, lower_enzyme_iter
from xenzyme.transforms.raise_mpi import RaiseMPIPass
from xenzyme.transforms.raise_openmp import RaiseOpenMPPass, keep_outlined_regions
from xenzyme.transforms.replace_flang_runtime import ReplaceFlangRuntimePass
from xenzyme.transforms.restore_types import RestoreTypesPass
from xenzyme.transforms.reverse_diff import ReverseDiff


def inline_tape_returns(module: ModuleOp) -> None:
    """In the functions a pending request reaches, the calls of generated augmented functions
    (which return a tape pointer in a struct) are inlined: the tape is then memory of the
    function being differentiated, with a shadow of its own, rather than a pointer returned in
    an aggregate (which calls cannot yet give a shadow)."""
    requests = (ad.AutodiffOp, ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp)
    _inline_pointer_aggregate_returns(module, requests, lambda f: f.sym_name.data.startswith("augmented_"))


INLINED_RETURN_SIZE = 400
"""The most ops a function returning pointers in an aggregate may have to be inlined where a
request reaches it."""


def inline_pointer_aggregate_returns(module: ModuleOp) -> None:
    """In the functions a request reaches, the calls of this module's functions that return an
    aggregate holding a pointer ({node *, node *} from a std::map's search, a Rust slice) are
    inlined, up to `INLINED_RETURN_SIZE` ops: a pointer returned in an aggregate cannot get a
    shadow through a call, a pointer computed in the function being differentiated can.
    Functions the program's hints name (custom derivatives, inactive functions, allocators) stay
    calls; a larger or recursive one stays a call too (an error if its pointers need shadows)."""
    from xenzyme.analysis.hints import Hints
    from xenzyme.rules.registry import RULES

    kept = Hints.of(module).functions | set(RULES)

    def small(f: xllvm.FuncOp) -> bool:
        if f.sym_name.data in kept:
            return False
        n = 0
        for _ in f.walk():
            n += 1
            if n > INLINED_RETURN_SIZE:
                return False
        return True

    _inline_pointer_aggregate_returns(module, (ad.AutodiffOp, ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp, ad.FwdDiffOp),
                                      small)  # fmt: skip


def _inline_pointer_aggregate_returns(module: ModuleOp, requests: tuple[type, ...], wanted) -> None:
    """Inline, in every function the `requests` reach, the direct calls of defined functions
    `wanted` accepts that return an aggregate holding a pointer (not a function into itself, nor
    one that calls itself), until none is left."""
    names = [r.callee.string_value() for r in module.walk() if isinstance(r, requests)]
    if not names:
        return
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
    for fn in reachable(module, names):
        for _ in range(64):  # (each round inlines one call; bodies inlined may hold more)
            call = next((c for c in fn.walk() if isinstance(c, xllvm.CallOp) and c.callee is not None
                         and _returns_pointer_aggregate(functions.get(c.callee.string_value()), fn, wanted)), None)  # fmt: skip
            if call is None:
                break
            assert call.callee is not None
            inline_call(call, functions[call.callee.string_value()])
        forward_inserted_values(fn)  # (the pointers taken back out of the aggregate the call returned)


def _returns_pointer_aggregate(callee: xllvm.FuncOp | None, caller: xllvm.FuncOp, wanted) -> bool:
    if callee is None or not callee.body.blocks or callee is caller or callee.function_type.is_variadic:
        return False
    out = callee.function_type.output
    if not (isinstance(out, ext.LLVMStructType) and any(isinstance(t, ext.LLVMPointerType) for t in out.types.data)):
        return False
    name = callee.sym_name
    if any(isinstance(o, xllvm.CallOp) and o.callee is not None and o.callee.root_reference == name for o in callee.walk()):
        return False  # recursive
    return wanted(callee)


@dataclass(frozen=True)
class EnzymePass(ModulePass):
    """Optimise, differentiate every `__enzyme_*` request, lower, optimise again."""

    name = "enzyme"

    preopt: int = 2
    postopt: int = 3
    mincut: int = 1
    reuse_caches: bool = True
    """Keep cache buffers between calls (lower-autodiff's pools)."""
    gpu: str = "nvvm"
    """How GPU kernels are lowered: `nvvm` (for PTX) or `cpu` (host functions)."""
    checkpoint: str = "off"
    """How the outermost counted loops of differentiated functions are reversed: `off` (every
    iteration cached), `binomial` (revolve, `checkpoints` snapshots), `periodic` (a snapshot every
    `period` steps), `online` (`checkpoints` snapshots placed as the loop runs); see xenzyme/transforms/checkpoint_loops.py."""
    checkpoints: int | None = None
    """Binomial and online checkpointing's snapshots (32 when neither they nor a budget is given)."""
    period: int = 100
    tape_budget_mb: int | float | None = None
    """The memory the snapshots of a loop may take, in MiB: binomial checkpointing with as many
    snapshots as it holds (counted when the loop starts)."""

    def __post_init__(self) -> None:
        """Reject a bad level when the pipeline is read, before any input is."""
        if self.mincut not in (0, 1):
            raise XenzymeError(f"enzyme: mincut must be 0 or 1 (got {self.mincut})",
                               notes=["for example -p 'enzyme{mincut=0}' (cache each needed value as it is)"])  # fmt: skip
        if self.gpu not in TARGETS:
            raise XenzymeError(f"enzyme: gpu must be nvvm or cpu (got {self.gpu})",
                               notes=["for example -p 'enzyme{gpu=cpu}' (kernels as host functions)"])  # fmt: skip
        check_options(self.checkpoint, self.checkpoints, self.period, "enzyme", self.tape_budget_mb)
        for opt, value in (("preopt", self.preopt), ("postopt", self.postopt)):
            if value not in (0, 1, 2, 3):
                raise XenzymeError(
                    f"enzyme: {opt} must be 0, 1, 2 or 3 (got {value})",
                    notes=[f"0 skips LLVM's optimiser, 1-3 are its -O levels; for example -p 'enzyme{{{opt}=3}}'"],
                )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.lower(ctx, op, self.differentiate(ctx, op))

    def differentiate(self, ctx: Context, op: ModuleOp) -> set[str]:
        """The pipeline up to the derivatives, lowered but for the gpu layer; the dialects left
        in the module."""
        differentiate_requests(op, bool(self.mincut))  # func/arith/scf/memref input: differentiated there where it can be,
        LowerStructuredPass().apply(ctx, op)  # then lowered to llvm
        strip_optnone(op)
        keep_hinted_calls(op)
        keep_outlined_regions(op)
        if self.preopt and not _has_requests(op):
            run_llvm_pipeline(op, self.preopt)
        RaiseEnzymeCallsPass().apply(ctx, op)
        RestoreTypesPass().apply(ctx, op)
        ReplaceFlangRuntimePass().apply(ctx, op)
        RaiseOpenMPPass().apply(ctx, op)
        RaiseMPIPass().apply(ctx, op)
        inline_pointer_aggregate_returns(op)
        checkpoint_loops(op, self.checkpoint, self.checkpoints, self.period, self.tape_budget_mb)
        gpu_code = is_gpu_module(op)
        if gpu_code:  # (GPU passes are imported only for GPU code: they load the gpu dialect)
            from xenzyme.transforms.raise_nvvm import RaiseNVVMPass

            RaiseNVVMPass().apply(ctx, op)
        more = True
        while more:  # (rounds: a function calling __enzyme_autodiff is differentiated once that is lowered)
            more = ReverseDiff(op, bool(self.mincut)).run(ready_only=True)
            # A gradient differentiated in a later round keeps no cache pools (atomic exchanges of
            # pointers in globals): its caches are plain heap memory, whose shadows follow them.
            # Kernels keep them only on the CPU, where lower-gpu gives each thread of a block its
            # own pool slot (on a GPU every thread allocates from the device's heap).
            pools = self.reuse_caches and not more and (not gpu_code or self.gpu == "cpu")
            LowerAutodiffPass(pools).apply(ctx, op)
            if more:
                inline_tape_returns(op)
        present = dialects(op)
        if ad.AUTODIFF.name in present:  # (forward-mode requests)
            ForwardDiffPass().apply(ctx, op)
            present = dialects(op)
        if any(isinstance(f, xllvm.FuncOp) and f.sym_name.data == ITERATION_COUNTER for f in op.ops):
            lower_enzyme_iter(op)
        return present

    def lower(self, ctx: Context, op: ModuleOp, present: set[str] | None = None) -> None:
        """The rest: the gpu layer lowered for its target, and LLVM's optimiser.  `present`:
        the module's dialects, when known (passes with nothing to lower are skipped)."""
        present = dialects(op) if present is None else present
        if _gpu_code(op, present):
            LowerGPUPass(self.gpu).apply(ctx, op)
            present = dialects(op)  # (kernels as host functions run their grids as par loops)
        if "ompi" in present:
            LowerOMPIPass().apply(ctx, op)
        if "par" in present or "omp" in present:
            LowerParPass().apply(ctx, op)
        if self.postopt:
            run_llvm_pipeline(op, self.postopt)


def dialects(module: ModuleOp) -> set[str]:
    """The dialects of the module's ops, found in one walk: after differentiation the module
    is large (a gradient is several times its function), and most modules hold no forward-mode,
    `par`, `ompi` or gpu ops, which the passes after it would each walk the whole module for."""
    return {t.name.split(".", 1)[0] for t in {type(o) for o in module.walk()}}


def _gpu_code(module: ModuleOp, present: set[str]) -> bool:
    """`is_gpu_module`, without its walk when the module holds no gpu-dialect op (then only the
    target and the kernels' mark can make it GPU code)."""
    if "gpu" in present:
        return is_gpu_module(module)
    triple = module.attributes.get("llvm.target_triple")
    return (isinstance(triple, StringAttr) and triple.data.startswith("nvptx")) or any(
        isinstance(f, xllvm.FuncOp) and gpu.is_kernel(f) for f in module.ops)


def _has_requests(op: ModuleOp) -> bool:
    """Whether the module holds `autodiff` ops already (a structured module's requests, lowered
    with it), or `par` ops before raise-openmp (a structured module's `scf.parallel` loops as
    parallel regions): LLVM's optimiser cannot carry them, so those modules are differentiated
    as lowered, and optimised after."""
    return any(o.dialect_name() in ("autodiff", "par") for o in op.walk())
