"""Frontends: LLVM IR (text or bitcode), xDSL text, and C/C++ through clang."""
