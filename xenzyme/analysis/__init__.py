"""Analyses: pure functions over IR that answer questions and rewrite nothing.

    cfg.py               dominators, natural loops, induction variables, trip counts
    activity.py          reverse mode: which values are varied and useful, which pointers shadowed;
                         on any IR through `ActivityIR` (the llvm dialect's implementation here)
    structured_activity.py  the same analysis on func/arith/math/scf/memref (its `ActivityIR`)
    forward_activity.py  forward mode's activity (values with tangents, shadowed pointers)
    alias.py             underlying objects of pointers, what a region may write, allocators
    types.py             what the bytes behind a pointer hold (float, integer, pointer), from
                         IR types, TBAA and use
    cache_plan.py        the minimum cut choosing which values the reverse sweep caches, and
                         the cost of a cache (both levels)
    callees.py           the functions a call through a pointer may reach
    callgraph.py         who calls whom
    divergence.py        GPU code: which values may differ between the threads of a block
    hints.py             what a program says about its own derivatives (Enzyme's globals)
    signature.py         a function's parameters as the Python API sees them (names, C types)
    symbolic.py          small symbolic execution of the combiners clang generates (OpenMP)

Analyses may import `xenzyme.dialects` and the root modules (`diagnostics`, `llvm_text`); the
rules and the passes import them, never the other way round.
"""
