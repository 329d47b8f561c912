"""Backends: xDSL modules of `llvm` ops out, as LLVM IR, native code, PTX, or callable functions.

    llvm_export.py  the llvm dialect -> LLVM IR text (printed by us, parsed and verified by LLVM)
    native.py       LLVM's optimiser, object files, target machines
    jit.py          functions compiled in-process (llvmlite's MCJIT), called with numpy arrays
    arguments.py    the checks of Python arguments against a function's parameters
    ptx.py          NVPTX code, libdevice linked, PTX and cubins (ptxas)

Backends may import `xenzyme.dialects`, `xenzyme.analysis` (what a parameter is, for argument
checks) and the root modules; the passes may use them (`llvm-opt` goes through LLVM).
"""
