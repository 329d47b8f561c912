"""Frontends: programs in, as xDSL modules of `llvm` ops.

    llvm_import.py  LLVM IR (text or bitcode) -> the llvm dialect: LLVM parses and verifies, then
                    its canonical text is read (fast, and nothing is dropped)
    ir_upgrade.py   IR of older LLVMs that LLVM 22 rejects, rewritten first (flang-19)
    clang.py        C, C++ and CUDA (device code, with the prelude in cuda/) through clang-19
    fortran.py      Fortran through flang-new-19;  rust.py  Rust through rustc
    toolchain.py    finding the compilers;  language.py  telling languages apart by their text
    mlir_text.py    xDSL text, each op given the file:line:col it was read from (for errors)

Frontends may import `xenzyme.dialects` and the root modules (`diagnostics`, `llvm_text`,
`llvm_binding`); nothing below them imports a frontend but the passes that read LLVM's output
back (`llvm-opt`).
"""
