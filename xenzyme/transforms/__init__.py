"""Passes, one per file (file name = pass name with '_'), registered lazily by name."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _llvm_opt() -> type[ModulePass]:
    from xenzyme.transforms.llvm_opt import LLVMOptPass

    return LLVMOptPass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """xenzyme's passes, name -> loader."""
    return {"llvm-opt": _llvm_opt}


def get_available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass a pipeline may name: xDSL's generic passes and xenzyme's."""
    from xdsl.universe import Universe

    passes = dict(Universe.get_multiverse().all_passes)
    passes.update(get_all_passes())
    return passes
