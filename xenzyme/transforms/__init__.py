"""Passes, one per file (file name = pass name with '_'), registered lazily by name.

A pass is a driver; the machinery passes share lives beside them:

    diff/            the differentiation engine behind reverse-diff and forward-diff (sweeps,
                     cache policy, calls, tape, tangents), over the rules of `xenzyme.rules`
    gpu_to_cpu.py, gpu_heap.py, gpu_math.py, gpu_shared.py, gpu_combine.py, inlining.py
                     lower-gpu's pieces (kernels as host loops, device heap, libdevice math,
                     shared memory, the additions of adjoints)
    omp_runtime.py, promote.py
                     what raise-openmp and lower-par share (libomp's entry points, mem2reg)
    mpi_helpers.ll   the helper functions lower-ompi adds for MPI derivatives (LLVM IR)
    llvm_lowering.py what the convert-*-to-llvm lowerings of the structured dialects share

Passes may import the rules, analyses, dialects, the backends (llvm-opt goes through LLVM) and
the LLVM IR reader (to read LLVM's output back); nothing imports them but the user-facing
modules (`api`, `cuda`, `cli`).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _llvm_opt() -> type[ModulePass]:
    from xenzyme.transforms.llvm_opt import LLVMOptPass

    return LLVMOptPass


def _raise_enzyme_calls() -> type[ModulePass]:
    from xenzyme.transforms.raise_enzyme_calls import RaiseEnzymeCallsPass

    return RaiseEnzymeCallsPass


def _restore_types() -> type[ModulePass]:
    from xenzyme.transforms.restore_types import RestoreTypesPass

    return RestoreTypesPass


def _replace_flang_runtime() -> type[ModulePass]:
    from xenzyme.transforms.replace_flang_runtime import ReplaceFlangRuntimePass

    return ReplaceFlangRuntimePass


def _reverse_diff() -> type[ModulePass]:
    from xenzyme.transforms.reverse_diff import ReverseDiffPass

    return ReverseDiffPass


def _forward_diff() -> type[ModulePass]:
    from xenzyme.transforms.forward_diff import ForwardDiffPass

    return ForwardDiffPass


def _lower_autodiff() -> type[ModulePass]:
    from xenzyme.transforms.lower_autodiff import LowerAutodiffPass

    return LowerAutodiffPass


def _raise_openmp() -> type[ModulePass]:
    from xenzyme.transforms.raise_openmp import RaiseOpenMPPass

    return RaiseOpenMPPass


def _lower_par() -> type[ModulePass]:
    from xenzyme.transforms.lower_par import LowerParPass

    return LowerParPass


def _raise_nvvm() -> type[ModulePass]:
    from xenzyme.transforms.raise_nvvm import RaiseNVVMPass

    return RaiseNVVMPass


def _lower_gpu() -> type[ModulePass]:
    from xenzyme.transforms.lower_gpu import LowerGPUPass

    return LowerGPUPass


def _raise_mpi() -> type[ModulePass]:
    from xenzyme.transforms.raise_mpi import RaiseMPIPass

    return RaiseMPIPass


def _lower_ompi() -> type[ModulePass]:
    from xenzyme.transforms.lower_ompi import LowerOMPIPass

    return LowerOMPIPass


def _enzyme() -> type[ModulePass]:
    from xenzyme.transforms.enzyme import EnzymePass

    return EnzymePass


def _print_activity() -> type[ModulePass]:
    from xenzyme.transforms.print_activity import PrintActivityPass

    return PrintActivityPass


def _lower_structured() -> type[ModulePass]:
    from xenzyme.transforms.lower_structured import LowerStructuredPass

    return LowerStructuredPass


def _convert_affine_to_scf() -> type[ModulePass]:
    from xenzyme.transforms.convert_affine_to_scf import ConvertAffineToScfPass

    return ConvertAffineToScfPass


def _convert_scf_parallel_to_for() -> type[ModulePass]:
    from xenzyme.transforms.convert_scf_parallel_to_for import ConvertScfParallelToForPass

    return ConvertScfParallelToForPass


def _convert_scf_parallel_to_par() -> type[ModulePass]:
    from xenzyme.transforms.convert_scf_parallel_to_par import ConvertScfParallelToParPass

    return ConvertScfParallelToParPass


def _convert_func_to_llvm() -> type[ModulePass]:
    from xenzyme.transforms.convert_func_to_llvm import ConvertFuncToLLVMPass

    return ConvertFuncToLLVMPass


def _convert_arith_to_llvm() -> type[ModulePass]:
    from xenzyme.transforms.convert_arith_to_llvm import ConvertArithToLLVMPass

    return ConvertArithToLLVMPass


def _convert_math_to_llvm() -> type[ModulePass]:
    from xenzyme.transforms.convert_math_to_llvm import ConvertMathToLLVMPass

    return ConvertMathToLLVMPass


def _convert_memref_to_llvm() -> type[ModulePass]:
    from xenzyme.transforms.convert_memref_to_llvm import ConvertMemrefToLLVMPass

    return ConvertMemrefToLLVMPass


def _convert_cf_to_llvm() -> type[ModulePass]:
    from xenzyme.transforms.convert_cf_to_llvm import ConvertCfToLLVMPass

    return ConvertCfToLLVMPass


def _convert_scf_while_to_cf() -> type[ModulePass]:
    from xenzyme.transforms.convert_scf_while_to_cf import ConvertScfWhileToCfPass

    return ConvertScfWhileToCfPass


def _checkpoint_loops() -> type[ModulePass]:
    from xenzyme.transforms.checkpoint_loops import CheckpointLoops

    return CheckpointLoops


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xenzyme's passes, name -> loader."""
    return {
        "llvm-opt": _llvm_opt,
        "raise-enzyme-calls": _raise_enzyme_calls,
        "restore-types": _restore_types,
        "replace-flang-runtime": _replace_flang_runtime,
        "raise-openmp": _raise_openmp,
        "lower-par": _lower_par,
        "checkpoint-loops": _checkpoint_loops,
        "reverse-diff": _reverse_diff,
        "lower-autodiff": _lower_autodiff,
        "forward-diff": _forward_diff,
        "raise-nvvm": _raise_nvvm,
        "lower-gpu": _lower_gpu,
        "raise-mpi": _raise_mpi,
        "lower-ompi": _lower_ompi,
        "enzyme": _enzyme,
        "print-activity": _print_activity,
        "lower-structured": _lower_structured,
        "convert-func-to-llvm": _convert_func_to_llvm,
        "convert-arith-to-llvm": _convert_arith_to_llvm,
        "convert-math-to-llvm": _convert_math_to_llvm,
        "convert-memref-to-llvm": _convert_memref_to_llvm,
        "convert-cf-to-llvm": _convert_cf_to_llvm,
        "convert-scf-while-to-cf": _convert_scf_while_to_cf,
        "convert-affine-to-scf": _convert_affine_to_scf,
        "convert-scf-parallel-to-for": _convert_scf_parallel_to_for,
        "convert-scf-parallel-to-par": _convert_scf_parallel_to_par,
    }


def get_available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass a pipeline may name: xDSL's generic passes and xenzyme's."""
    from xdsl.universe import Universe

    passes = dict(Universe.get_multiverse().all_passes)
    passes.update(get_all_passes())
    return passes
