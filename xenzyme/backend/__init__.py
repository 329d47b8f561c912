"""Backends: LLVM IR text, native objects, the JIT."""
