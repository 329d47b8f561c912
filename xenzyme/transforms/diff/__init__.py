"""The differentiation engine: the machinery `reverse-diff` and `forward-diff` drive.

    generator.py       which gradient functions exist; each built once per function and activities
    builder.py         one gradient in the making: its bookkeeping, the context rules work in
    sweep.py           the forward and reverse sweeps over a function's blocks (control flow)
    caching.py         how a primal value reaches the reverse sweep: direct, recomputed, cached
    calls.py           calls of differentiated functions and custom gradients (reverse mode)
    tape.py            split mode: the tape joining the augmented and reverse functions
    tangents.py        forward mode: tangent functions, their calls and custom derivatives
    prepare.py         the primal made ready (float accesses, byval copies, realloc, ...)
    indirect_calls.py  calls through function pointers turned into choices of direct calls
    symbols.py         the module's functions and globals, fresh names, generated globals
    errors.py          source locations and the shape of the engine's errors
    structured.py      reverse mode of func/arith/math/scf/memref where they are: a func.func
                       in, a func.func out, scf.for reversed as scf.for, caches as memrefs

What an op contributes to a derivative is never decided here: each op's rule
(`xenzyme.rules`) is looked up by the op's type, and the engine answers the rules' questions.
This package may import `xenzyme.rules`, `xenzyme.analysis`, `xenzyme.dialects` and
`xenzyme.diagnostics`; nothing imports it but the passes.
"""
