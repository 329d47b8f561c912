#!/usr/bin/env python3
"""Benchmark runner: `make bench`.

    .venv/bin/python benchmarks/run.py                    # build, check, time, rewrite RESULTS.md
    .venv/bin/python benchmarks/run.py logsumexp          # one benchmark
    .venv/bin/python benchmarks/run.py --check-only --n 1000 --no-write   # gradients only, quick

For each benchmark of BENCHMARKS:

1. build the C program in benchmarks/build/NAME/ three ways: clang-19 -O2 IR through the default
   pipeline `enzyme` (the main build; its compile time, source to runnable gradient, is the median
   of --compile-reps builds), and clang-19 -O0 IR through `enzyme` and through `enzyme{preopt=0}`
   (the AD-after-optimisation ablation, R3);
2. run each build in its own subprocess: the program checks its gradient first (against exact
   values or a reference computed in C) and only then times the primal and the gradient in that
   same process, printing JSON lines (benchmarks/c/bench.h has the protocol);
3. run each peer (benchmarks/peers/) in its own single-threaded subprocess; a peer checks
   xenzyme's gradient, dumped by the main build, against its own before it times anything;
4. rewrite this runner's sections of benchmarks/RESULTS.md.

RESULTS.md is shared with other writers (benchmarks/compile_speed.py): every writer replaces
only the text between its own `<!-- NAME:begin -->` and `<!-- NAME:end -->` markers and keeps the
rest; a section whose markers are missing is appended.  The raw results go to
benchmarks/build/results.json.  The exit status is non-zero when a build, a run or a gradient
check failed (RESULTS.md then says so in place of the numbers).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = REPO / "benchmarks"
C_DIR = BENCH_DIR / "c"
PEER_DIR = BENCH_DIR / "peers"
BUILD_DIR = BENCH_DIR / "build"
DATA_DIR = BENCH_DIR / "data"
RESULTS = BENCH_DIR / "RESULTS.md"
CHART = BENCH_DIR / "results.png"  # derivative ÷ primal per tool, linked from RESULTS.md
# Linked into every program (compiled by cc, outside the timed build): counts the heap the
# program's own code allocates, which bench.h reports per call ("heap_*" fields).
HEAPCOUNT = C_DIR / "heapcount.c"
HEAPCOUNT_LDFLAGS = ["-Wl," + ",".join(
    f"--wrap={f}"
    for f in ("malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign", "memalign")
)]

# Every subprocess runs single-threaded unless a benchmark says otherwise.
SINGLE_THREAD_ENV = {
    var: "1"
    for var in (
        "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "MKL_NUM_THREADS",
        "BLIS_NUM_THREADS",
        "NUMEXPR_NUM_THREADS",
        "VECLIB_MAXIMUM_THREADS",
    )
}


# ---------------------------------------------------------------------------------------------
# What to run
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One way of building a benchmark program: clang's level and xenzyme's pipeline."""

    tag: str
    clang_level: str
    pipeline: str
    label: str


MAIN = Variant("O2", "-O2", "enzyme", "clang -O2 IR, `enzyme`")
O0_PREOPT2 = Variant("O0-preopt2", "-O0", "enzyme", "clang -O0 IR, `enzyme` (preopt=2)")
O0_PREOPT0 = Variant("O0-preopt0", "-O0", "enzyme{preopt=0}", "clang -O0 IR, `enzyme{preopt=0}`")
VARIANTS = (MAIN, O0_PREOPT2, O0_PREOPT0)
# The cache-bytes table: the main build with and without the minimum cut (each needed value cached
# as it is), both freeing their cache buffers at every return (a gradient otherwise keeps them
# between calls, and the heap counted per call would not show them); built and run once (one
# sample, for the heap figures) for the first instance of each program.
FRESH = Variant("O2-fresh", "-O2", "enzyme{reuse-caches=false}", "clang -O2 IR, `enzyme{reuse-caches=false}`")
NO_MINCUT = Variant("O2-nomincut", "-O2", "enzyme{mincut=0 reuse-caches=false}",
                    "clang -O2 IR, `enzyme{mincut=0 reuse-caches=false}`")
CACHE_VARIANTS = (FRESH, NO_MINCUT)


@dataclass(frozen=True)
class Peer:
    """Another implementation of a benchmark's gradient, run as `python SCRIPT [ARGS] --n N
    --samples S [--compare XENZYME_GRADIENT.bin]`; it prints JSON lines (benchmarks/peers/peerlib.py)."""

    tool: str
    script: str
    label: str
    args: tuple[str, ...] = ()
    # Not a script: the benchmark's own main build run again with XENZYME_BENCH_MODE=<mode> (an
    # ADBench program with mode "fd" checks xenzyme's derivative against central differences in
    # every coordinate and times the finite-difference derivative as its "gradient").
    mode: str = ""


@dataclass(frozen=True)
class Diagnostic:
    """The main build run again in a changed environment, to test an explanation of its time."""

    tag: str
    label: str
    env: dict[str, str]


@dataclass(frozen=True)
class Benchmark:
    name: str
    what: str
    n: int
    size: str
    target_r1: float | None = None
    enzyme_r1: float | None = None
    peers: tuple[Peer, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    notes: str = ""
    # Several benchmarks may run one program on different inputs: `program` names the C source
    # (default: the benchmark's name), built once per run; `input` is a data file under
    # benchmarks/data/, handed to the program as $XENZYME_BENCH_INPUT and to peers as --input.
    program: str = ""
    input: str = ""
    # False: only the main build runs (no R3), for further instances of a program whose first
    # instance already measures the ablation.
    ablation: bool = True

    @property
    def variants(self) -> tuple[Variant, ...]:
        return VARIANTS if self.ablation else (MAIN,)

    @property
    def prog(self) -> str:
        return self.program or self.name

    @property
    def source(self) -> Path:
        return C_DIR / f"{self.prog}.c"

    @property
    def input_path(self) -> Path | None:
        return DATA_DIR / self.input if self.input else None


TAYLORLOG_NOTES = """\
What the gradient does (read from `xenzyme-opt taylorlog.ll -p enzyme -t llvm`): the derivative
of each term needs only x and i, so the gradient has no forward sweep over the main loop; its
reverse sweep recomputes i and calls `pow(x, i - 1)` once per term (times i, times 1/i). The
primal's `pow(x, i)` is dead (the function's value is not requested) and LLVM removes it. Both
programs thus make one `pow` call per term, about 30 ns each, and nothing else of weight: the
ratio is 1 up to noise. Only the loop's remainder iterations (N mod 4, after LLVM unrolled the
loop by 4) keep a small cache of i. The ratio of minima is the steadier figure here: a busy
machine moves the medians of a 0.3 s call by ±10 %.

R3: differentiated straight from -O0 IR (`enzyme{preopt=0}`), x and i still live in stack slots
that the loop loads on every iteration; the gradient caches every loaded value, so it stores x
(loop-invariant) and `(double)i` twice per iteration in three buffers grown by `realloc`, 240 MB
per call (the page-fault column), where the optimised program recomputes i and keeps x in a
register. The `pow` calls are the same, so the loss is bounded by the memory traffic: R3 is
well below Enzyme's 4.2 suite average because the pipeline still optimises the result (postopt=3)
and that cannot remove caches that the reverse sweep reads."""

LOGSUMEXP_NOTES = """\
What the gradient does (read from `xenzyme-opt logsumexp.ll -p enzyme -t llvm`, function
`diffelogsumexp`):

- forward sweep: the max loop (unrolled by 4 by LLVM) stores the outcome of each comparison as
  one byte, in four growing buffers, one per unrolled lane (10 MB in all, where Enzyme caches
  the running maximum as a double: 80 MB); then the exp loop stores each `exp(x_i - A)` (80 MB),
  so the reverse sweep needs no second `exp`;
- reverse sweep: one pass that adds `exp(x_i - A) / s` into `dx` while it sums the adjoint of A,
  then one pass back over the max loop that adds that adjoint (zero up to rounding) into `dx`
  where a comparison selected: a second read-modify-write of all 80 MB of `dx`.

Where the time goes: the arithmetic is the primal's (one `exp` per element, no recomputation);
what the gradient adds is memory: the 80 MB cache of `exp` values and a second pass over `dx`.
The cache buffers are kept between calls (`lower-autodiff` gives each cache site a pool slot),
so after the first call the gradient neither allocates nor takes page faults (columns "page
faults / call" and "heap / call"). Until the buffers were kept, glibc served each call's 80 MB
with fresh `mmap`ed pages, about 25,000 minor page faults per call, and gradient ÷ primal was
1.3-2.4 depending on the machine's load (earlier `make bench` runs); the diagnostic row (glibc's malloc on transparent huge
pages) showed that cost. The minimum cut chooses what is cached; it weighs bytes only, so math
functions such as `exp` are not among what it may recompute (recomputing `exp` instead of
caching it made the gradient 1.75 primals in a run on this machine, against 1.09 with the
cache).

What remains, in the compiler: the four per-lane byte caches of the unrolled max loop could be
one, and the zero-adding reverse pass of the max loop could be skipped where only one element
receives the adjoint of A.

R3: from -O0 IR without the optimiser first, the loop indices live in stack slots, so the
address of `dx[i]` is not an induction expression when the gradient is generated: both loops
cache the shadow pointer of every element (2 × 80 MB) besides the comparison bytes and the
`exp` values, about 250 MB and twice the page faults per call.

numpy's gradient is faster than xenzyme's because numpy evaluates `exp` with AVX-512 SIMD
loops on this CPU, while clang -O2 for generic x86-64 calls glibc's scalar `exp` per element;
the C primal has the same handicap (compare the two primals), so R2 measures libm, not AD."""

MATDESCENT_NOTES = """\
What the gradient does (read from `xenzyme-opt matdescent.O2.ll -p enzyme -t llvm`, function
`diffematdescent`):

- forward sweep: the primal's loops as LLVM left them (dot products unrolled by 4, the sum of
  squares by 8, summation order kept). The temporary `Wv` is malloc'd and freed where the primal
  does it; its shadow `dWv` is calloc'd beside it and freed at the end. As the sum of squares
  loads `Wv_i`, the gradient caches it (8 buffers, one per lane of the unrolled loop: 16 KB in
  all), since `Wv` is gone when the reverse sweep needs `2 Wv_i`. Nothing of W is cached: per
  row only a few branch outcomes (bytes) and the last index of the inner loop's two pieces
  (i64s, although both are computed once before the row loop: `m / 4 - 1` for the part
  unrolled by 4, `m mod 4 - 1` for the rest). The heap column's
  84 KiB per call at N = 2000 is `Wv` and `dWv` (16 KB each; the primal's 16 KB is its `Wv`)
  plus about 52 KiB of caches in 17 buffers grown by `realloc`.
- reverse sweep: `dWv_i += 2 Wv_i` from the cached values, then for each row, backwards,
  `dW[i][j] += dWv_i v_j`, columns backwards too (v is constant: no `Wᵀ dWv` is formed).

Where the time goes: the gradient does the primal's work (one pass over W's 32 MB with a chain
of dependent adds per row) plus a read-modify-write pass over dW's 32 MB: three times the
primal's memory traffic. The hand-written gradient has the same traffic (it updates row i of dW
right after computing (W v)_i), so both gradients take 1.6-1.8 times the primal and xenzyme ÷
hand-written is about 1 (0.98-1.09 across runs on a loaded machine). The reverse update loop is vectorised by LLVM (2-wide SSE2), but as the
reversal of a loop unrolled by 4 it loads `v` and `dW` element by element and stores through an
interleaving shuffle (nn shows what that costs when the data are in cache); here it waits on
memory either way.

Gradient descent: 100 steps of size lr = 0.01 / |v|² each scale W v by 1 - 2 lr |v|² = 0.98, so
the objective falls to 0.98^200 = 1.8 % of its start, with xenzyme's and with the hand-written
gradient alike, as the closed form says (to about 1e-14).

R3: from -O0 IR without the optimiser first, the loop indices and the pointers live in stack
slots, so nothing is an induction expression when the gradient is generated: the inner loop
caches, per iteration, the loaded `v[j]` and the shadow addresses of `W[i][j]` and of `Wv[i]`
(24 bytes × 4 M iterations): about 120 MB live per call, 200 MB requested through buffer growth,
and page faults on every call."""

NN_NOTES = """\
What the gradient does (read from `xenzyme-opt nn.O2.ll -p enzyme -t llvm`, function
`diffenn_loss`): LLVM has fully unrolled the loop over the 10 outputs, so each sample runs ten
784-long dot products (each unrolled by 4) with the logits in the local array `z[10]`.

- forward sweep: the primal, plus per sample 9 comparison outcomes of the max (bytes), the 10
  values `exp(z_k - m)` and the sum (doubles), and the final trip count of each of the ten
  unrolled dot-product loops, an i64 that is the constant 195 every time: 30 buffers of one
  entry per sample, 17.5 KiB per call at batch 100 (the primal and the hand-written gradient
  allocate nothing).
- reverse sweep, per sample backwards: the softmax adjoint from the cached exponentials
  (`z` gets a stack shadow `dz[10]`, the label's entry adjusted), then per output k, backwards,
  `dW[k][j] += dz_k x[j]` over the 784 inputs.

Why xenzyme's gradient takes 1.2-1.3 times the hand-written one (R2) and its R1 is 1.4-1.6
where the hand-written gradient's ratio is 1.2-1.25 (across runs): the forward sweeps cost the same
(the primal's 7,840 dependent multiply-adds per sample); the difference is the dW update. In
the hand-written gradient it is a forward loop with a constant trip count that LLVM vectorises
into contiguous 2-wide loads and stores. In xenzyme's reverse sweep it is the reversal of the
primal's dot product *after* LLVM unrolled it by 4: each reverse iteration updates four
elements in descending order, the trip count comes from the cache (so the vectoriser adds
trip-count and overlap checks per row), and the vectoriser treats the body as four interleaved
stride-4 accesses: it loads `x` and `dW` one element at a time, assembles vectors with
`insertelement` and stores through an 8-element interleaving shuffle, about twice the cost of
the hand-written update. Marking the dot-product loop `#pragma clang loop unroll(disable)` (an
experiment, not the benchmark) gives a reverse loop with contiguous 2-wide loads and stores,
and the two gradients then run at the same speed. Enzyme's integration tests compile their
programs with `-fno-unroll-loops -fno-vectorize -fno-slp-vectorize` before differentiating;
xenzyme's `enzyme` pipeline runs the full -O2 first.

What would help, in the compiler: do not cache a trip count that is loop-invariant (reuse
it: 195 here, `m / 4 - 1` in matdescent); run a reverse loop forwards when its iterations are
independent (as here: each writes its own dW elements); or differentiate before loop unrolling.

R3: from -O0 IR without the optimiser first, the gradient caches the loaded inputs and the
shadow addresses in the inner loop (indices in stack slots): about 25 MB live per call instead
of 17.5 KiB, and gradient ÷ primal near 10."""

GMM_NOTES = """\
What the gradient does (read from `xenzyme-opt gmm.O2.ll -p enzyme -t llvm`, function
`diffegmm_objective`, and from the `autodiff.cache` ops before lowering, `-p
'llvm-opt{level=2},raise-enzyme-calls,reverse-diff'`): LLVM has unrolled and vectorised the
primal's inner loops over d (x_i - mu_k, the triangular product Q_k z, the squared norm), each
with its runtime checks, a vector body and remainder loops; the gradient differentiates every
version. It is 10,100 lines of IR against the primal's 720 and keeps 125 caches: 39 of doubles,
7 of 2-vectors, 18 of shadow addresses, 25 loop counters and 36 of branch outcomes. The
temporaries `qdiags`, `xc`, `qxc` and `main_term` are malloc'd as in the primal, each with a
calloc'd shadow.

Where the time goes (gradient ÷ primal about 7 where the peers' gradients cost 2-4 of their own
primals):

- **caching several times what the reverse sweep needs**: it needs, per point and component,
  z = x_i - mu_k and Q_k z (2d doubles, 160 bytes at d = 10); the gradient keeps about 1 KB per
  pair (the cache-bytes table), because every unrolled and vectorised version of the inner loops
  keeps its own caches of the values it loaded (`xc`, `qxc`, the packed `icf` entries), its loop
  counters and its branch outcomes (which version ran), each pushed per iteration.
- **bookkeeping**: each cache's size and capacity live on the stack (120 pairs do not fit in
  registers), so a push is a load, compare, branch and two stores; perf shows the time spread
  over the whole forward sweep, mostly loads and stores at stack offsets.

Fixed in the compiler while analysing this benchmark: caches reserved at an inner loop's entry
grow by doubling (below); the running packed index `idx++` of the triangular product is
recomputed as an induction variable instead of cached (gradient ÷ primal 20 -> 10 on the
reduced reproducer, measured when that change was made); the cache buffers are kept between calls instead of being allocated, faulted
in and freed on every call (about 10,500 minor page faults per call and gradient ÷ primal
25 at d10_K25 in the previous `make bench` run; about 7 in this one); the minimum cut chooses the cached values. What remains is the
number of loop versions LLVM made before differentiation: differentiating the primal before
vectorisation, or caching per pair rather than per loop version, would bring it towards the
peers' 2-4.

Until 3b0f6ab a reserve at an inner loop's entry grew its cache to exactly the new size, once
per (point, component) pair, so the caches were copied once per pair: 1.6 million allocation
calls per gradient call and 0.4-0.8 s per d10_K25 gradient (gradient ÷ primal 150-240), and
the d20_K50 and d64_K10 instances ran past the runner's 120 s; reported from this benchmark,
fixed by doubling.

R3: 1.3-1.5: from -O0 IR without the optimiser first the loops are neither unrolled nor
vectorised, so there are fewer loop versions to differentiate, but every load is cached (twice
the heap, half a million allocation calls per gradient call: the -O0 heap column); the two
roughly cancel, and AD after optimisation gains far less here than on matdescent or nn.

The peers compute the same gradient as batched array operations over (points, components): the
hand-written numpy gradient forms the responsibilities and three einsums; JAX and PyTorch
differentiate the same vectorised objective, and XLA's primal (fused, vectorised for this CPU) runs 3-4 times
faster than the C primal compiled for generic x86-64 (SSE2, one `exp` call per element). The
finite-difference peer (d2_K5 only: 60 primal evaluations per gradient) is about three times
slower than xenzyme's gradient."""

BA_NOTES = """\
What the Jacobian does (read from `xenzyme-opt ba.O2.ll -p enzyme -t llvm`): for each
observation, two calls of `diffeba_reproj_error` (seeds (1, 0) and (0, 1)) and the inlined
derivative of 1 - w² (-2 w). `diffeba_reproj_error` is straight-line code, 370 instructions
against the primal's 110: the forward sweep (the rotation with its `sqrt`, `sin` and `cos`, the
projection and distortion) followed by the reverse sweep; the values the reverse sweep needs stay
in registers (no heap cache; heap column 0), and LLVM vectorises parts of both sweeps 2-wide.

Why gradient ÷ primal is about 5-6 (above 3): the Jacobian is 31 values per observation where the
primal computes 3, and reverse mode gives one row per pass: two full passes per observation,
each repeating the primal's forward computation (twice the `sqrt`, `sin` and `cos`) and adding a
reverse sweep about twice as long. Any reverse-mode tool pays this: the peers' Jacobians cost
8-11 of their own primals (JAX `vmap(jacrev)`, numpy's hand-written vectorised Jacobian,
PyTorch's two backward passes over all observations), and xenzyme's Jacobian is 4-15 times
faster than theirs (R2), as the per-observation code runs in registers without array
temporaries. Sharing the forward sweep between the two rows (`__enzyme_augmentfwd` /
`__enzyme_reverse` with the tape, or forward mode over the 15 inputs) would remove one of the
two forward computations; the benchmark keeps the plain form, one `__enzyme_autodiff` call per
row of the block.

The finite-difference peer evaluates the residual 30 times per observation (15 columns,
central): it costs about 40 primals, 5-6 times xenzyme's Jacobian.

R3: from -O0 IR without the optimiser, every local (the 3-vectors of the rotation, the
projection) lives in stack slots; the gradient then caches loaded values in heap buffers, about
70 allocation calls per observation (the -O0 heap column), and is about 12 times slower than
the one built after optimisation."""

LSTM_NOTES = """\
What the gradient does (read from `xenzyme-opt lstm.O2.ll -p enzyme -t llvm`, function
`diffelstm_objective`, and from the caches before lowering): LLVM inlined the cell and the
prediction into the objective and vectorised the input and output layers 2-wide. The forward
sweep runs the primal (the same 3 `exp` and 2 `tanh` per unit, layer and step: the primal's
time is almost all these libm calls) and pushes, per unit, layer and step, 18 values into its
75 caches: each `exp`, each `1 + exp` and each sigmoid `1 / (1 + exp)`, both `tanh`, the 4
weights loaded from `main_params`, and the hidden, cell and input values it read; the input and
output layers add the loaded sequence bits and extra params and their shadow addresses. The
reverse sweep walks the steps backwards and accumulates into the shadows of the weights; the
state is copied into a malloc'd buffer with a calloc'd shadow.

Where the time goes (gradient ÷ primal about 2): the forward sweep's `exp` and `tanh` calls cost
what the primal costs (perf: libm is most of the primal's time), and the rest is cache traffic
and the reverse arithmetic. The caches hold, per unit and step, the `exp` and `tanh` results and
the hidden, cell and input values read; the minimum cut recomputes what it can from them (the
sigmoids `1 / (1 + exp)` from the cached `exp`), and the weights loaded from `main_params` are
cached because the state written through another pointer may alias them (nothing tells the
compiler otherwise). The cache buffers are kept between calls: before that, each call allocated
them afresh and took about 1,300 minor page faults, and gradient ÷ primal was about 4 (the
previous `make bench` run).

Until 3b0f6ab each cache filled by the loop over the 14 units was reserved at that loop's
entry, once per layer and step, to exactly its new size; the copies made the gradient cost
about 10 primals (reported from gmm; fixed by doubling).

JAX's `jit(grad)` over `lax.scan` costs 6-16 of its primals; xenzyme's gradient is now about
1.6-1.9 times faster than JAX's (R2 0.5-0.65); PyTorch runs the 1,023 × l small steps eagerly,
about 0.3-0.6 ms per step and layer; the hand-written numpy backpropagation is bound by per-call
overhead on vectors of 14. The finite-difference peer needs 2 × 266 primal evaluations per
gradient.

R3: from -O0 IR without the optimiser first, every local lives in a stack slot and every loaded
value is cached (the -O0 heap column)."""


def adbench_peers(bench: str, tools: tuple[str, ...] = ("numpy", "jax", "torch"),
                  fd: bool = False) -> tuple[Peer, ...]:  # fmt: skip
    """The peers of an ADBench benchmark (benchmarks/peers/TOOL_BENCH.py; fd: the program's own
    finite-difference mode)."""
    what = "Jacobian" if bench == "ba" else "gradient"
    labels = {
        "numpy": f"numpy, hand-written {what}",
        "jax": "JAX, jit(vmap(jacrev))" if bench == "ba" else "JAX, jit(grad)",
        "torch": "PyTorch autograd",
    }
    peers = tuple(Peer(t, f"{t}_{bench}.py", labels[t]) for t in tools)
    if fd:
        peers += (Peer("fd", "", "finite differences (central, in C)", mode="fd"),)
    return peers


HT_SIMPLE_NOTES = """\
What the Jacobian does (read from `xenzyme-opt ht_simple.O2.ll -p enzyme -t llvm`, function
`fwddiffe4ht_objective_simple`; its width-2 sibling is inlined into the caller): each
`__enzyme_fwddiff` call runs the primal once and carries 4 tangents of every value along with
it, with no tape and no caches. The sines and cosines of the bones' Euler angles are computed
once per call and their derivatives shared by the directions; the chain of 4×4 bone transforms
runs on 4 tangent matrices per bone, kept in 4 shadow copies of each local array (zeroed on
entry); the heap buffer of vertex positions gets 4 shadow buffers, freed with it (the heap
column: 7 calls, 33 allocations).

Where the time goes: the skinning loop, 544 vertices × 22 bones × 3 coordinates, in which every
direction repeats the primal's multiply-adds on its own tangent transform. The residual loop
hardly counts: the Jacobian of 16 correspondences takes as long as that of 1600. The primal's
loop is bound by the latency of its 3 running sums (chains of 22 dependent additions), so its
time understates its arithmetic and the tangents partly ride along in the idle issue slots: the
26 columns cost about 30 primal evaluations, little more than one per column, although the
primal itself runs 7 times.

Why chunks of 4: one call of width 26 (build with `clang-19 -DHT_FULL_WIDTH`) carries 26 tangents
of every value: 78 running sums in a loop that has 16 SSE2 registers, and 26 shadow copies of
the bone arrays (220 KB, far beyond the 32 KB L1 cache), each tangent a scalar load from another
array, packed into registers by shuffles; the sums spill. That Jacobian costs 39-47 primal
evaluations against 28-31 in chunks of 4 (same machine, alternating runs). Side by side in one
process (the 26 columns in chunks of the width and a remainder, loaded machine, ±10 %), widths
1, 2, 4, 8, 13 and 26 cost about 50, 37, 33, 36, 39 and 43 primal evaluations: width 1 pays for
26 primals, and from width 8 on the spills and cache misses cost more than the primals saved.

JAX's `jit(jacfwd)` pushes the 26 directions through the computation together: the skinning
becomes matrix products over all directions at once, which XLA runs with AVX-512 on this CPU.
On a quiet machine its Jacobian is about 20 % faster than xenzyme's (R2 ≈ 1.2; on a busy one
JAX's times suffered more than xenzyme's, R2 between 0.4 and 0.9 in earlier runs), although its
primal is about three times slower than the C one (small operations and dispatch per call):
JAX's Jacobian costs 9-11 of its own primal evaluations, so the two gradient ÷ primal ratios
measure different primals. The instruction set is not what makes the difference: xenzyme's
Jacobian built for this CPU (`clang-19 -march=native` and `-t 'obj{cpu=native}'`: AVX-512,
masked loads and gathers) is only about 10 % faster than the generic build (0.82 against
0.92 ms, measured beside each other). The layout is: JAX keeps the directions of each array
together and multiplies them in one product, where xenzyme's vector mode repeats the loop body
per direction on a separate shadow array each. Storing the tangents of an element next to each
other (one SIMD load for several directions) is what would close the gap.

R3 is close to 1 (1.0-1.2 across runs): forward mode caches nothing, so differentiating
unoptimised IR (`preopt=0`) loses little once LLVM optimises the tangent code afterwards
(`postopt=3`); what is left comes from the shape of the code LLVM gets (here, how much of the
tangent functions it inlines into the caller). Reverse mode, where unoptimised loads become
caches, is where AD after optimisation pays off."""

HT_COMPLICATED_NOTES = """\
The same skinning as ht_simple (its notes say where that time goes, why the columns come in
chunks of 4, and how JAX's batched Jacobian compares; one call of width 28 costs 48-53 primal
evaluations against 36-38 in chunks), with two differences. The two u columns ride in the first
chunk with two pose directions; in them the skinning's tangents are zero (the pose is fixed)
but are computed all the same, as vector mode carries every direction through the whole
function: 2 of 28 directions. And each residual is a barycentric combination of three
vertices, so the residual loop gathers three positions and their tangents per correspondence
and direction, from scattered vertices: here it is about a third of the Jacobian's time (16
correspondences take about 70 % of the time of 1600), where in ht_simple it hardly counts;
hence the higher gradient ÷ primal ratio."""

BENCHMARKS = (
    Benchmark(
        name="taylorlog",
        what="f(x) = Σ_{i=1..N} x^i / i via `pow`, at x = 0.5 (read at run time); "
        "d/dx checked against (1 - x^N) / (1 - x)",
        n=10_000_000,
        size="N = 10,000,000",
        target_r1=1.1,
        enzyme_r1=0.97,
        notes=TAYLORLOG_NOTES,
    ),
    Benchmark(
        name="logsumexp",
        what="A = max x_i; log Σ exp(x_i - A) + A over N doubles uniform in [-4, 4); "
        "gradient checked against the softmax computed in C (1e-9 relative, 2-norm)",
        n=10_000_000,
        size="N = 10,000,000",
        target_r1=2.2,
        enzyme_r1=2.7,
        peers=(Peer("numpy", "numpy_logsumexp.py", "numpy, hand-written gradient"),),
        diagnostics=(
            Diagnostic(
                "O2-hugepages",
                "clang -O2 IR, `enzyme`; malloc on transparent huge pages "
                "(`GLIBC_TUNABLES=glibc.malloc.hugetlb=1`), diagnostic",
                {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"},
            ),
        ),
        notes=LOGSUMEXP_NOTES,
    ),
    Benchmark(
        name="matdescent",
        what="f(W) = ‖W v‖² with W N×N, W v in a temporary the objective mallocs and frees; "
        "gradient with respect to W checked against a hand-written C gradient (1e-9 relative, "
        "2-norm) and central differences, then 100 gradient-descent steps on W",
        n=2000,
        size="N = M = 2000",
        notes=MATDESCENT_NOTES,
    ),
    Benchmark(
        name="nn",
        what="one dense layer 784→10, softmax, mean cross-entropy over a batch of synthetic "
        "data; gradient with respect to W (10×784) and b checked against a hand-written C "
        "gradient (1e-9 relative, 2-norm) and central differences",
        n=100,
        size="batch 100",
        notes=NN_NOTES,
    ),
    Benchmark(
        name="ht_simple",
        what="ADBench hand tracking, simple variant: the residuals of N point correspondences "
        "against the vertices of a skinned 22-bone hand (544 vertices) and their 3N × 26 "
        "Jacobian with respect to the pose, by vector forward mode (`__enzyme_fwddiff` with "
        "`enzyme_width`, the 26 columns in chunks of 4; \"gradient\" below is the whole "
        "Jacobian), every column checked against central differences (1e-6 relative); "
        "ADBench's hand6 instance",
        n=1600,
        size="N = 1600 (hand6), J 4800 × 26",
        peers=(Peer("jax", "jax_ht.py", "JAX, jit(jacfwd)", ("--variant", "simple")),),
        notes=HT_SIMPLE_NOTES,
    ),
    Benchmark(
        name="ht_complicated",
        what="ADBench hand tracking, complicated variant: residuals against points of the "
        "hand's triangles given by barycentric coordinates u (variables too) and their 3N × 28 "
        "Jacobian (ADBench's compressed form: two columns for all of u, then the pose's 26), "
        "by vector forward mode (`enzyme_width`, 7 chunks of 4 columns; \"gradient\" below is "
        "the whole Jacobian), every column checked against central differences (1e-6 "
        "relative); ADBench's hand6 instance",
        n=1600,
        size="N = 1600 (hand6), J 4800 × 28",
        peers=(Peer("jax", "jax_ht.py", "JAX, jit(jacfwd)", ("--variant", "complicated")),),
        # The -O0 ablation (R3) is measured on ht_simple: the same skinning code.
        ablation=False,
        notes=HT_COMPLICATED_NOTES,
    ),
    Benchmark(
        name="gmm_d10_K25",
        program="gmm",
        input="gmm/gmm_d10_K25.txt",
        what="ADBench GMM: log-likelihood of a Gaussian mixture (K components in d dimensions) "
        "with a Wishart prior, written in plain C with malloc'd temporaries; full gradient "
        "with respect to α, μ and the inverse-covariance factors by one `__enzyme_autodiff` "
        "call, checked against central differences along 3 random directions (1e-5 relative)",
        n=1000,
        size="d = 10, K = 25, n = 1000: 1,650 parameters",
        target_r1=3.0,
        peers=adbench_peers("gmm"),
        notes=GMM_NOTES,
    ),
    Benchmark(
        name="gmm_d2_K5",
        program="gmm",
        input="gmm/gmm_d2_K5.txt",
        what="ADBench GMM, small instance (same program as gmm_d10_K25); the finite-difference "
        "peer differentiates every coordinate",
        n=1000,
        size="d = 2, K = 5, n = 1000: 30 parameters",
        target_r1=3.0,
        peers=adbench_peers("gmm", fd=True),
        ablation=False,
    ),
    Benchmark(
        name="gmm_d20_K50",
        program="gmm",
        input="gmm/gmm_d20_K50.txt",
        what="ADBench GMM, larger instance (same program as gmm_d10_K25)",
        n=1000,
        size="d = 20, K = 50, n = 1000: 11,550 parameters",
        target_r1=3.0,
        peers=adbench_peers("gmm"),
        ablation=False,
    ),
    Benchmark(
        name="gmm_d64_K10",
        program="gmm",
        input="gmm/gmm_d64_K10.txt",
        what="ADBench GMM, high-dimensional instance (same program as gmm_d10_K25)",
        n=1000,
        size="d = 64, K = 10, n = 1000: 21,450 parameters",
        target_r1=3.0,
        peers=adbench_peers("gmm"),
        ablation=False,
    ),
    Benchmark(
        name="gmm_10k_d10_K25",
        program="gmm",
        input="gmm/gmm_10k_d10_K25.txt",
        what="ADBench GMM, the 10k-point instance of d10_K25 (same program as gmm_d10_K25)",
        n=10000,
        size="d = 10, K = 25, n = 10,000: 1,650 parameters",
        target_r1=3.0,
        peers=adbench_peers("gmm", ("numpy", "jax")),
        ablation=False,
    ),
    Benchmark(
        name="ba1",
        program="ba",
        input="ba/ba1_n49_m7776_p31843.txt",
        what="ADBench bundle adjustment: reprojection residuals w (proj(camera, X) - u) "
        "(Rodrigues rotation, radial distortion) and weight residuals 1 - w²; the sparse "
        "Jacobian (a 2 × 15 block per observation plus the weight entries) by two "
        "`__enzyme_autodiff` reverse passes per observation and one per weight (\"gradient\" "
        "below is the whole Jacobian), checked against central differences along 3 random "
        "directions per block (1e-5 relative)",
        n=31843,
        size="ba1: 49 cameras, 7,776 points, 31,843 observations",
        target_r1=3.0,
        peers=adbench_peers("ba", fd=True),
        notes=BA_NOTES,
    ),
    Benchmark(
        name="ba2",
        program="ba",
        input="ba/ba2_n21_m11315_p36455.txt",
        what="ADBench bundle adjustment (same program as ba1)",
        n=36455,
        size="ba2: 21 cameras, 11,315 points, 36,455 observations",
        target_r1=3.0,
        peers=adbench_peers("ba", ("numpy", "jax")),
        ablation=False,
    ),
    Benchmark(
        name="ba3",
        program="ba",
        input="ba/ba3_n161_m48126_p182072.txt",
        what="ADBench bundle adjustment (same program as ba1)",
        n=182072,
        size="ba3: 161 cameras, 48,126 points, 182,072 observations",
        target_r1=3.0,
        peers=adbench_peers("ba", ("numpy", "jax")),
        ablation=False,
    ),
    Benchmark(
        name="ba4",
        program="ba",
        input="ba/ba4_n372_m47423_p204472.txt",
        what="ADBench bundle adjustment (same program as ba1)",
        n=204472,
        size="ba4: 372 cameras, 47,423 points, 204,472 observations",
        target_r1=3.0,
        peers=adbench_peers("ba", ("numpy", "jax")),
        ablation=False,
    ),
    Benchmark(
        name="ba5",
        program="ba",
        input="ba/ba5_n257_m65132_p225911.txt",
        what="ADBench bundle adjustment, larger instance (same program as ba1)",
        n=225911,
        size="ba5: 257 cameras, 65,132 points, 225,911 observations",
        target_r1=3.0,
        peers=adbench_peers("ba", ("numpy", "jax")),
        ablation=False,
    ),
    Benchmark(
        name="lstm_l2_c1024",
        program="lstm",
        input="lstm/lstm_l2_c1024.txt",
        what="ADBench LSTM: the loss of an l-layer LSTM (b = 14 units) predicting a sequence "
        "of c characters; full gradient with respect to the main and extra parameters by one "
        "`__enzyme_autodiff` call, checked against central differences along 3 random "
        "directions (1e-5 relative)",
        n=1024,
        size="l = 2, c = 1024: 266 parameters",
        target_r1=3.0,
        peers=adbench_peers("lstm", fd=True),
        notes=LSTM_NOTES,
    ),
    Benchmark(
        name="lstm_l4_c1024",
        program="lstm",
        input="lstm/lstm_l4_c1024.txt",
        what="ADBench LSTM, four layers (same program as lstm_l2_c1024)",
        n=1024,
        size="l = 4, c = 1024: 490 parameters",
        target_r1=3.0,
        peers=adbench_peers("lstm", ("numpy", "jax")),
        ablation=False,
    ),
)
BY_NAME = {b.name: b for b in BENCHMARKS}


# ---------------------------------------------------------------------------------------------
# Tools
# ---------------------------------------------------------------------------------------------


def clang() -> str:
    for cand in (os.environ.get("XENZYME_CLANG"), "clang-19", "/usr/lib/llvm-19/bin/clang"):
        if cand and (shutil.which(cand) or os.path.exists(cand)):
            return shutil.which(cand) or cand
    raise SystemExit("benchmarks: clang-19 not found (run `make setup`)")


def xenzyme_opt() -> list[str]:
    """The `xenzyme-opt` a user runs: the venv's script beside this interpreter, else the module."""
    script = Path(sys.executable).with_name("xenzyme-opt")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "xenzyme.cli.xenzyme_opt"]


class BenchError(RuntimeError):
    """A build or a run that failed; the message says which command and why."""


def _run(cmd: list[str], *, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        raise BenchError(f"timed out after {timeout:.0f} s: {' '.join(cmd)}") from e
    if r.returncode != 0:
        tail = "\n".join((r.stdout + r.stderr).strip().splitlines()[-20:])
        raise BenchError(f"exit status {r.returncode}: {' '.join(cmd)}\n{tail}")
    return r


def _short(cmd: list[str]) -> str:
    """A command as RESULTS.md shows it: paths relative to the repository, tools by name."""
    out = []
    for part in cmd:
        p = Path(part)
        if p.is_absolute():
            try:
                part = str(p.relative_to(REPO))
            except ValueError:
                part = p.name if p.name.startswith("clang") else part
        out.append(f"'{part}'" if "{" in part else part)
    return " ".join(out)


# ---------------------------------------------------------------------------------------------
# Building and running
# ---------------------------------------------------------------------------------------------


@dataclass
class Build:
    exe: Path
    commands: list[str]
    stage_s: dict[str, float]  # clang, xenzyme-opt, cc, total: medians over the builds
    reps: int


def build(
    bench: Benchmark | str,
    variant: Variant = MAIN,
    outdir: Path | None = None,
    *,
    reps: int = 1,
    timeout: float = 300,
) -> Build:
    """Compile bench's C source to a native program: clang-19 → xenzyme-opt → cc.

    Builds `reps` times (from scratch each time) and reports the median time of each stage and of
    their sum: the compile time from source to a runnable gradient."""
    bench = BY_NAME[bench] if isinstance(bench, str) else bench
    outdir = outdir or BUILD_DIR / bench.prog
    outdir.mkdir(parents=True, exist_ok=True)
    stem = outdir / f"{bench.prog}.{variant.tag}"
    ll, obj, exe = (Path(f"{stem}{ext}") for ext in (".ll", ".o", ""))
    heap, heap_cmd = heapcount_object(outdir, timeout)
    cmds = [
        [clang(), variant.clang_level, "-S", "-emit-llvm", str(bench.source), "-o", str(ll)],
        [*xenzyme_opt(), str(ll), "-p", variant.pipeline, "-t", "obj", "-o", str(obj)],
        ["cc", str(obj), str(heap), *HEAPCOUNT_LDFLAGS, "-lm", "-o", str(exe)],
    ]
    stages = ("clang", "xenzyme-opt", "cc")
    times: dict[str, list[float]] = {s: [] for s in (*stages, "total")}
    for _ in range(max(1, reps)):
        for f in (ll, obj, exe):
            f.unlink(missing_ok=True)
        total = 0.0
        for stage, cmd in zip(stages, cmds):
            t0 = time.perf_counter()
            _run(cmd, timeout=timeout)
            dt = time.perf_counter() - t0
            times[stage].append(dt)
            total += dt
        times["total"].append(total)
    return Build(
        exe=exe,
        commands=[_short(c) for c in (heap_cmd, *cmds)],
        stage_s={k: statistics.median(v) for k, v in times.items()},
        reps=max(1, reps),
    )


def heapcount_object(outdir: Path, timeout: float = 60) -> tuple[Path, list[str]]:
    """benchmarks/c/heapcount.c compiled into outdir (once; not part of the compile time), and
    the command that compiles it."""
    obj = outdir / "heapcount.o"
    cmd = ["cc", "-O2", "-c", str(HEAPCOUNT), "-o", str(obj)]
    if not obj.exists() or obj.stat().st_mtime < HEAPCOUNT.stat().st_mtime:
        tmp = outdir / f"heapcount.{os.getpid()}.o"
        _run([*cmd[:-1], str(tmp)], timeout=timeout)
        tmp.replace(obj)
    return obj, cmd


def parse_records(stdout: str) -> list[dict]:
    records = []
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return records


def run_records(cmd: list[str], *, timeout: float = 120, env: dict | None = None) -> list[dict]:
    """Run one benchmark process (single-threaded environment) and return its JSON records."""
    env = {**os.environ, **SINGLE_THREAD_ENV, **(env or {})}
    return parse_records(_run(cmd, timeout=timeout, env=env).stdout)


def run_program(exe: Path, n: int, samples: int, dump: Path | None = None, **kw) -> list[dict]:
    cmd = [str(exe), str(n), str(samples)] + ([str(dump)] if dump else [])
    return run_records(cmd, **kw)


def run_peer(peer: Peer, n: int, samples: int, compare: Path | None = None, **kw) -> list[dict]:
    cmd = [sys.executable, str(PEER_DIR / peer.script), *peer.args, "--n", str(n), "--samples",
           str(samples)]
    if compare:
        cmd += ["--compare", str(compare)]
    return run_records(cmd, **kw)


def pick(records: list[dict], kind: str, what: str | None = None) -> dict | None:
    for r in records:
        if r.get("kind") == kind and (what is None or r.get("what") == what):
            return r
    return None


# ---------------------------------------------------------------------------------------------
# Environment
# ---------------------------------------------------------------------------------------------


def machine() -> dict:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "os": f"{platform.system()} {platform.release()}",
    }


def _first_line(cmd: list[str]) -> str:
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return out.splitlines()[0].strip() if out else "?"


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    def pkg(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    import llvmlite.binding as llb

    commit = _first_line(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = _first_line(
        ["git", "-C", str(REPO), "status", "--porcelain", "--", "xenzyme", "benchmarks/c"]
    )
    return {
        "xenzyme": f"{pkg('xenzyme')} ({commit}{', modified' if dirty not in ('', '?') else ''})",
        "xdsl": pkg("xdsl"),
        "llvmlite": f"{pkg('llvmlite')} (LLVM {'.'.join(map(str, llb.llvm_version_info))})",
        "clang": _first_line([clang(), "--version"]),
        "cc": _first_line(["cc", "--version"]),
        "python": platform.python_version(),
        "numpy": pkg("numpy"),
        "jax": pkg("jax"),
        "torch": pkg("torch"),
        "matplotlib": pkg("matplotlib"),
    }


# ---------------------------------------------------------------------------------------------
# The suite
# ---------------------------------------------------------------------------------------------


@dataclass
class Progress:
    total: int
    done: int = 0
    t_start: float = field(default_factory=time.perf_counter)

    def step(self, text: str):
        self.done += 1
        prefix = f"[{self.done:>2}/{self.total}] {text} ..."
        print(prefix, end="", file=sys.stderr, flush=True)
        return _StepTimer(prefix, self.t_start)


class _StepTimer:
    def __init__(self, prefix: str, t_start: float):
        self.t0 = time.perf_counter()
        self.t_start = t_start
        self.note = ""
        self.failed = False

    def fail(self, note: str) -> None:
        self.failed, self.note = True, note

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        dt = time.perf_counter() - self.t0
        status = "FAILED" if exc_type or self.failed else "ok"
        note = f" {self.note}" if self.note else ""
        elapsed = time.perf_counter() - self.t_start
        print(f" {status} {dt:.1f} s{note}  (total {elapsed:.0f} s)", file=sys.stderr, flush=True)
        return False


def steps_for(bench: Benchmark) -> int:
    return 2 * len(bench.variants) + len(bench.peers) + len(bench.diagnostics)


def steps_for_run(bench: Benchmark, samples: int, cache_bytes: bool = False) -> int:
    return steps_for(bench) - (0 if samples else len(bench.diagnostics)) + (2 * len(CACHE_VARIANTS) if cache_bytes else 0)


def run_benchmark(bench: Benchmark, progress: Progress, *, n: int, samples: int,
                  compile_reps: int, built: dict | None = None, cache_bytes: bool = False) -> dict:
    """Build, check and time one benchmark; returns its results (a JSON-able dict).  `built`
    keeps the builds of this run by (program, variant): benchmarks sharing a program reuse them.
    `cache_bytes`: also build without the minimum cut and run that once, for its heap figures."""
    res: dict = {"name": bench.name, "n": n, "samples": samples, "builds": {}, "runs": {},
                 "peers": {}, "errors": []}
    outdir = BUILD_DIR / bench.prog
    builds: dict[str, Build] = {}
    built = {} if built is None else built
    # The instance's input file, for the program and its peers.
    input_env = {"XENZYME_BENCH_INPUT": str(bench.input_path)} if bench.input else {}
    for v in bench.variants:
        reps = compile_reps if v is MAIN else 1
        times = f" x{reps}" if reps > 1 else ""
        with progress.step(f"{bench.name}: build {v.label}{times}") as st:
            if (bench.prog, v.tag) in built:
                b = builds[v.tag] = built[bench.prog, v.tag]
                res["builds"][v.tag] = {"commands": b.commands, "stage_s": b.stage_s,
                                        "reps": b.reps}  # fmt: skip
                st.note = f"(built for an earlier {bench.prog} instance)"
                continue
            try:
                b = build(bench, v, outdir, reps=reps)
            except BenchError as e:
                res["errors"].append(f"build {v.tag}: {e}")
                st.fail("(see errors)")
                continue
            builds[v.tag] = built[bench.prog, v.tag] = b
            res["builds"][v.tag] = {"commands": b.commands, "stage_s": b.stage_s, "reps": b.reps}
            st.note = f"(source → gradient {b.stage_s['total']:.2f} s)"

    dump = outdir / f"{bench.name}.gradient.bin"
    dump.unlink(missing_ok=True)

    def run_build(tag: str, label: str, exe_tag: str, **kw) -> None:
        with progress.step(f"{bench.name}: run {label}") as st:
            if exe_tag not in builds:
                st.fail("(not built)")
                return
            kw["env"] = {**input_env, **kw.get("env", {})}
            try:
                recs = run_program(builds[exe_tag].exe, n, samples, **kw)
            except BenchError as e:
                res["errors"].append(f"run {tag}: {e}")
                st.fail("(see errors)")
                return
            res["runs"][tag] = recs
            chk = pick(recs, "check")
            p, g = pick(recs, "time", "primal"), pick(recs, "time", "gradient")
            if not chk or not chk.get("ok"):
                res["errors"].append(f"run {tag}: gradient check failed: {chk}")
                st.fail("(gradient check FAILED)")
            elif p and g:
                st.note = (f"(primal {fmt_s(p['median_s'])}, gradient {fmt_s(g['median_s'])}, "
                           f"ratio {g['median_s'] / p['median_s']:.2f})")
            else:
                st.note = f"(check ok, rel. error {chk['rel_err']:.2g})"

    def run_peer_step(peer: Peer) -> None:
        with progress.step(f"{bench.name}: peer {peer.label}") as st:
            try:
                if peer.mode:  # the main build in another mode (finite differences in C)
                    if MAIN.tag not in builds:
                        st.fail("(not built)")
                        return
                    recs = run_program(builds[MAIN.tag].exe, n, samples, timeout=300,
                                       env={**input_env, "XENZYME_BENCH_MODE": peer.mode})
                else:
                    if bench.input:
                        peer = replace(peer, args=(*peer.args, "--input", str(bench.input_path)))
                    recs = run_peer(peer, n, samples, dump if dump.exists() else None,
                                    timeout=300)
            except BenchError as e:
                res["errors"].append(f"peer {peer.tool}: {e}")
                st.fail("(see errors)")
                return
            res["peers"][peer.tool] = recs
            chk, g = pick(recs, "check"), pick(recs, "time", "gradient")
            if chk is None:
                res["errors"].append(f"peer {peer.tool}: no xenzyme gradient to compare with")
                st.fail("(nothing to compare with)")
            elif not chk.get("ok"):
                res["errors"].append(f"peer {peer.tool}: xenzyme's gradient disagrees: {chk}")
                st.fail("(xenzyme gradient check FAILED)")
            elif g:
                st.note = (f"(gradient {fmt_s(g['median_s'])}; agrees with xenzyme to "
                           f"{chk['rel_err']:.2g})")

    # The main build first (it dumps its gradient), its peers right after it (R2 compares
    # processes), then the -O0 pair back to back (R3), then the diagnostics.
    run_build(MAIN.tag, MAIN.label, MAIN.tag, dump=dump)
    for peer in bench.peers:
        run_peer_step(peer)
    for v in bench.variants:
        if v is not MAIN:
            run_build(v.tag, v.label, v.tag)
    for diag in bench.diagnostics:
        if samples:
            run_build(diag.tag, diag.label, MAIN.tag, env=diag.env)
    for variant in CACHE_VARIANTS if cache_bytes else ():
        with progress.step(f"{bench.name}: build {variant.label}") as st:
            try:
                b = builds[variant.tag] = build(bench, variant, outdir)
                res["builds"][variant.tag] = {"commands": b.commands, "stage_s": b.stage_s, "reps": b.reps}
            except BenchError as e:
                res["errors"].append(f"build {variant.tag}: {e}")
                st.fail("(see errors)")
        samples_before, samples = samples, 1  # one sample: the heap figures are per call
        run_build(variant.tag, f"{variant.label}, 1 sample", variant.tag)
        samples = samples_before
    return res


# ---------------------------------------------------------------------------------------------
# RESULTS.md
# ---------------------------------------------------------------------------------------------


def fmt_s(seconds: float | None) -> str:
    if seconds is None or not math.isfinite(seconds):
        return "–"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.1f} µs"


def fmt_faults(rec: dict) -> str:
    f = rec.get("page_faults_per_call")
    return "–" if f is None else f"{f:,.0f}"


def ratio(a: dict | None, b: dict | None, key: str = "median_s") -> float | None:
    if not a or not b or not b.get(key):
        return None
    return a[key] / b[key]


def fmt_r(r: float | None) -> str:
    return "–" if r is None else f"{r:.2f}"


def derived(res: dict) -> dict:
    """The ratios of one benchmark's results."""
    main = res["runs"].get(MAIN.tag, [])
    p, g = pick(main, "time", "primal"), pick(main, "time", "gradient")
    out = {
        "primal": p,
        "gradient": g,
        "r1": ratio(g, p),
        "r1_min": ratio(g, p, "min_s"),
        "r2": {},
        "r3": None,
    }
    for tool, recs in res["peers"].items():
        out["r2"][tool] = ratio(g, pick(recs, "time", "gradient"))
    # Peers timed inside the benchmark's own process (a hand-written C gradient): every time
    # record besides the primal and the gradient; R2 against them needs no cross-process care.
    out["inproc"] = inproc_peers(main)
    for what, rec in out["inproc"].items():
        out["r2"][what] = ratio(g, rec)
    # R3 compares two processes.  Each gradient is divided by the primal timed beside it in its
    # own process (the same machine code in both builds: postopt=3 compiles the unchanged primal
    # alike), which cancels the drift of the machine's speed between the two processes.
    r0, r2 = res["runs"].get(O0_PREOPT0.tag, []), res["runs"].get(O0_PREOPT2.tag, [])
    p0, g0 = pick(r0, "time", "primal"), pick(r0, "time", "gradient")
    p2, g2 = pick(r2, "time", "primal"), pick(r2, "time", "gradient")
    for key, suffix in (("median_s", ""), ("min_s", "_min")):
        a, b = ratio(g0, p0, key), ratio(g2, p2, key)
        out["r3" + suffix] = a / b if a is not None and b else None
    out["r3_raw"] = ratio(g0, g2)
    return out


def fatal_errors(res: dict) -> list[str]:
    """A benchmark's errors that leave no numbers to report: all but those of the -O0 ablation's
    builds and runs, which only cost R3, and of the `mincut=0` build, which only costs the
    cache-bytes table (the main build's numbers stand; the run still fails)."""
    ablation = tuple(f"{kind} {v.tag}:" for kind in ("build", "run") for v in (*VARIANTS, *CACHE_VARIANTS)
                     if v is not MAIN)  # fmt: skip
    return [e for e in res["errors"] if not e.startswith(ablation)]


def inproc_peers(records: list[dict]) -> dict[str, dict]:
    """The time records of other gradients timed in the same process, by name."""
    return {r["what"]: r for r in records
            if r.get("kind") == "time" and r.get("what") not in ("primal", "gradient")}


def fmt_bytes(n: float | None) -> str:
    if n is None:
        return "–"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def fmt_heap(rec: dict | None) -> str:
    """Heap use per call (bench.h with heapcount.c): the most bytes live at once during a call,
    above what was live before it, and the allocation calls per call."""
    if not rec or rec.get("heap_peak_bytes") is None:
        return "–"
    allocs = rec.get("heap_allocs_per_call") or 0
    return f"{fmt_bytes(rec['heap_peak_bytes'])} ({allocs:.3g} alloc{'' if allocs == 1 else 's'})"


def env_lines(env: dict) -> list[str]:
    m, v = env["machine"], env["versions"]
    return [
        f"- machine: {m['cpu']}, {m['cores']} cores, {m['os']}",
        f"- versions: xenzyme {v['xenzyme']}, xDSL {v['xdsl']}, llvmlite {v['llvmlite']}, "
        f"{v['clang']}, {v['cc']}, Python {v['python']}, numpy {v['numpy']}, "
        f"JAX {v.get('jax', '?')}, PyTorch {v.get('torch', '?')}",
        f"- date: {env['date']}; load average {env['load'][0]:.2f} at the start, "
        f"{env['load'][1]:.2f} at the end (other processes on the machine add noise)",
    ]


def verdict(r: float | None, target: float | None) -> str:
    if r is None or target is None:
        return "–"
    return "met" if r <= target else "**missed**"


def section_for(bench: Benchmark, res: dict, env: dict) -> str:
    d = derived(res)
    lines = [f"## {bench.name}", "", f"{bench.what}. {bench.size}.", ""]
    lines += env_lines(env)
    lines += [f"- `.venv/bin/python benchmarks/run.py {bench.name}`: each build and peer runs in "
              "its own single-threaded process; a sample repeats the call until it lasts "
              "≥ 50 ms; "
              f"after a warm-up, {res['samples']} samples of the primal and of the gradient, "
              "taken in alternation; times are per call.", ""]
    if fatal_errors(res):
        lines += ["**This run failed; no numbers are reported.**", "", "```"]
        lines += [e for err in res["errors"] for e in err.splitlines()]
        lines += ["```", ""]
        return "\n".join(lines).rstrip() + "\n"

    chk = pick(res["runs"][MAIN.tag], "check")
    lines += [f"Gradient check (before timing): relative error {chk['rel_err']:.2g} against "
              f"{chk['against']} (tolerance {chk['tol']:.0e}): passed."]
    for tool, recs in res["peers"].items():
        pc = pick(recs, "check")
        lines[-1] += (f" {tool} agrees with xenzyme's gradient to {pc['rel_err']:.2g} "
                      "(2-norm, relative).")
    fd = pick(res["runs"][MAIN.tag], "fd_check")
    if fd:
        lines[-1] += (f" Central differences on {fd['components']} components: largest "
                      f"relative error {fd['max_rel_err']:.2g} (tolerance {fd['tol']:.0e}).")
    lines += extra_record_lines(res["runs"][MAIN.tag])
    lines += ["", "| build / tool | what | median | min | page faults / call | heap / call "
              "| ratio |", "|---|---|---:|---:|---:|---:|---|"]
    rows = [(v.tag, v.label, v is MAIN) for v in VARIANTS]
    rows += [(dg.tag, dg.label, False) for dg in bench.diagnostics]
    for tag, label, is_main in rows:
        recs = res["runs"].get(tag, [])
        p, g = pick(recs, "time", "primal"), pick(recs, "time", "gradient")
        if not (p and g):
            continue
        lines.append(f"| xenzyme: {label} | primal | {fmt_s(p['median_s'])} | "
                     f"{fmt_s(p['min_s'])} | {fmt_faults(p)} | {fmt_heap(p)} | |")
        lab = "R1 = " if is_main else ""
        lines.append(f"| xenzyme: {label} | gradient | {fmt_s(g['median_s'])} | "
                     f"{fmt_s(g['min_s'])} | {fmt_faults(g)} | {fmt_heap(g)} | "
                     f"{lab}gradient ÷ primal = {fmt_r(ratio(g, p))} |")
        for what, h in (d["inproc"] if is_main else {}).items():
            lines.append(f"| {what} gradient, same process | gradient | {fmt_s(h['median_s'])} "
                         f"| {fmt_s(h['min_s'])} | {fmt_faults(h)} | {fmt_heap(h)} | "
                         f"R2 = xenzyme ÷ {what} = {fmt_r(d['r2'].get(what))}; {what} ÷ "
                         f"primal = {fmt_r(ratio(h, p))} |")
    for tool, recs in res["peers"].items():
        label = next(pr.label for pr in bench.peers if pr.tool == tool)
        p, g = pick(recs, "time", "primal"), pick(recs, "time", "gradient")
        if p:
            lines.append(f"| {label} | primal | {fmt_s(p['median_s'])} | {fmt_s(p['min_s'])} "
                         "| | | |")
        if g:
            lines.append(f"| {label} | gradient | {fmt_s(g['median_s'])} | "
                         f"{fmt_s(g['min_s'])} | | | R2 = xenzyme ÷ {tool} = "
                         f"{fmt_r(d['r2'].get(tool))} |")

    lines += ["", "| ratio | median (min) | target | Enzyme | |", "|---|---:|---:|---:|---|"]
    lines.append(f"| R1 gradient ÷ primal | {fmt_r(d['r1'])} ({fmt_r(d['r1_min'])}) | "
                 f"{fmt_target(bench.target_r1)} | {bench.enzyme_r1 or '–'} | "
                 f"{verdict(d['r1'], bench.target_r1)} |")
    for tool, r in d["r2"].items():
        lines.append(f"| R2 xenzyme gradient ÷ {tool} gradient | {fmt_r(r)} | | | |")
    lines.append(f"| R3 gradient without ÷ with `llvm-opt` before AD, both from -O0 IR, each "
                 f"÷ its own process's primal (raw ratio of gradient times: "
                 f"{fmt_r(d['r3_raw'])}) | {fmt_r(d['r3'])} ({fmt_r(d['r3_min'])}) | | | |")
    if res["errors"]:  # only the ablation's builds or runs failed (fatal_errors)
        lines += ["", "**R3 could not be measured**: a build or run of the -O0 ablation failed:",
                  "", "```"]
        lines += [e for err in res["errors"] for e in err.splitlines()]
        lines += ["```"]

    b = res["builds"][MAIN.tag]
    st = b["stage_s"]
    lines += ["", f"Compile time, source to runnable gradient ({MAIN.label}, median of "
              f"{b['reps']} builds): **{st['total']:.2f} s** = clang {st['clang']:.2f} s + "
              f"xenzyme-opt {st['xenzyme-opt']:.2f} s + cc {st['cc']:.2f} s."]
    for tool, recs in res["peers"].items():
        comp = pick(recs, "compile")
        if comp:
            lines[-1] += (f" {tool}: {comp['seconds']:.2f} s from the start of its setup to "
                          "the first derivative and primal (tracing and compiling).")
    if bench.input:
        lines += ["", f"Input: `benchmarks/data/{bench.input}` (ADBench's, MIT licence: "
                  "`LICENSE.ADBench.txt` beside it), handed to the program as "
                  "`$XENZYME_BENCH_INPUT` and to the peers as `--input`."]
    lines += ["", "Commands:", "", "```"]
    for v in VARIANTS:
        if v.tag in res["builds"]:
            lines += [c for c in res["builds"][v.tag]["commands"] if c not in lines]
    lines += ["```", ""]
    if d["r1"] is not None and bench.target_r1 is not None and d["r1"] > bench.target_r1:
        lines += [f"**R1 = {d['r1']:.2f} is above the target {bench.target_r1}** in this run; "
                  "the notes below say where the time goes.", ""]
    lines += ["Heap / call: the most heap bytes live at once during a call, above what was live "
              "before it, and the allocation calls per call, counted by `benchmarks/c/heapcount.c` "
              "(linked in) during the timed samples: for a gradient, any shadow blocks of the primal's "
              "own heap memory and its caches, less the cache buffers it kept from the previous "
              "call (`lower-autodiff` keeps one buffer per cache site between calls).", ""]
    if bench.notes:
        lines += [bench.notes, ""]
    return "\n".join(lines).rstrip() + "\n"


def cache_bytes_section(results: list[tuple[Benchmark, dict]]) -> str:
    """Peak heap per gradient call with and without the minimum cut, per program."""
    lines = ["## Cache bytes: minimum cut vs. caching each needed value (`benchmarks/run.py`)", "",
             "Gradient heap / call (the most heap bytes live at once during one gradient call: "
             "mostly caches) of the main build (clang -O2 IR, `enzyme`: what reverse mode caches "
             "is chosen by a minimum cut, loop-invariant values cached once per loop entry) and "
             "of the same build with `enzyme{mincut=0}` (each needed value that cannot be "
             "recomputed cached as it is), for the first instance of each program, from one "
             "sample. Both are built with `reuse-caches=false`, so that every call allocates its "
             "caches afresh and the heap counted per call shows them (the timed builds keep their "
             "cache buffers between calls).", "",
             "| benchmark | size | heap / call, min-cut | heap / call, `mincut=0` | min-cut ÷ `mincut=0` |",
             "|---|---|---:|---:|---:|"]
    for bench, res in results:
        if NO_MINCUT.tag not in res["builds"] and not any(NO_MINCUT.tag in e for e in res["errors"]):
            continue
        g = pick(res["runs"].get(FRESH.tag, []), "time", "gradient")
        h = pick(res["runs"].get(NO_MINCUT.tag, []), "time", "gradient")
        a, b = (r.get("heap_peak_bytes") if r else None for r in (g, h))
        rel = f"{a / b:.2f}" if a is not None and b else ("–" if a is None or b is None else "= (0)")
        lines.append(f"| {bench.name} | {bench.size} | {fmt_heap(g) if g else 'FAILED'} | "
                     f"{fmt_heap(h) if h else 'FAILED'} | {rel} |")
    return "\n".join(lines).rstrip() + "\n"


def fmt_target(t: float | None) -> str:
    return "–" if t is None else f"≤ {t}"


def extra_record_lines(records: list[dict]) -> list[str]:
    """Lines for a program's records that are neither checks nor times (matdescent's descent)."""
    out = []
    for r in records:
        if r.get("kind") == "descent":
            out += ["", f"Gradient descent on W ({r['steps']} steps, lr = {r['lr']:.3g}, before "
                    f"timing): the objective goes from {r['f0']:.6g} to {r['f_xenzyme']:.6g} with "
                    f"xenzyme's gradient and to {r['f_handwritten']:.6g} with the hand-written "
                    f"one, {r['rel_dev_from_closed_form']:.2g} (relative) from the closed form "
                    f"f0 (1 - 2 lr |v|²)^(2 steps); {r['s_xenzyme']:.2f} s and "
                    f"{r['s_handwritten']:.2f} s for the steps."]
    return out


def summary_section(results: list[tuple[Benchmark, dict]], env: dict) -> str:
    lines = ["## Gradient benchmarks: summary (`benchmarks/run.py`, `make bench`)", ""]
    lines += env_lines(env)
    lines += [
        "- R1 = xenzyme gradient ÷ primal (same process, same compiler); R2 = xenzyme gradient ÷ "
        "a peer's gradient (separate processes; a hand-written C gradient is timed in the "
        "benchmark's own process); R3 = gradient built without ÷ with `llvm-opt` "
        "before differentiation, both from clang -O0 IR, each divided by the primal timed in its "
        "own process; medians of samples that alternate primal and gradient.",
        "- gradient heap / call: the most heap bytes live at once during one gradient call "
        "(shadows of the primal's heap blocks, and caches beyond the buffers kept from the "
        "previous call) and the allocation calls it makes, "
        "counted by `benchmarks/c/heapcount.c`; beside it the same for the gradient generated "
        "from unoptimised IR (`enzyme{preopt=0}`), which caches what optimisation would have "
        "made recomputable.",
        "",
        "| benchmark | size | R1 | target | Enzyme | | R2 | R3 | compile time | gradient heap "
        "/ call | same, `enzyme{preopt=0}` from -O0 |",
        "|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|",
    ]
    r3s = []
    for bench, res in results:
        if fatal_errors(res):
            lines.append(f"| {bench.name} | {bench.size} | FAILED | "
                         f"{fmt_target(bench.target_r1)} | {bench.enzyme_r1 or '–'} | | | | | | |")
            continue
        d = derived(res)
        r2 = ", ".join(f"{fmt_r(r)} ({t})" for t, r in d["r2"].items()) or "–"
        ct = res["builds"][MAIN.tag]["stage_s"]["total"]
        lines.append(f"| {bench.name} | {bench.size} | {fmt_r(d['r1'])} | "
                     f"{fmt_target(bench.target_r1)} | {bench.enzyme_r1 or '–'} | "
                     f"{verdict(d['r1'], bench.target_r1)} | {r2} | "
                     f"{'FAILED' if res['errors'] else fmt_r(d['r3'])} | {ct:.2f} s | "
                     f"{fmt_heap(d['gradient'])} | "
                     f"{fmt_heap(pick(res['runs'].get(O0_PREOPT0.tag, []), 'time', 'gradient'))} |")
        if d["r3"]:
            r3s.append(d["r3"])
    if r3s:
        geo = math.exp(sum(math.log(r) for r in r3s) / len(r3s))
        lines += ["", f"Geometric mean of R3 (AD after optimisation speed-up) over the "
                  f"{len(r3s)} benchmarks above: {geo:.2f} (Enzyme's NeurIPS 2020 paper: 4.2 "
                  "over its suite)."]
    if CHART.exists():
        lines += ["", f"[Derivative ÷ primal per tool and benchmark]({CHART.name}) (log scale; "
                  "each tool's derivative divided by its own primal, timed in the same process):",
                  "", f"![derivative ÷ primal per tool]({CHART.name})"]
    return "\n".join(lines).rstrip() + "\n"


def write_chart(results: list[tuple[Benchmark, dict]], path: Path | None = None) -> Path | None:
    """A bar chart of derivative ÷ primal per tool (xenzyme and each peer, each divided by its
    own primal) for every benchmark that ran, as a PNG beside RESULTS.md.  None without
    matplotlib (the `bench` extra installs it)."""
    path = path or CHART
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib is not installed: no chart", file=sys.stderr)
        return None
    rows: list[tuple[str, dict[str, float]]] = []
    for bench, res in results:
        if fatal_errors(res):
            continue
        d = derived(res)
        per_tool = {"xenzyme": d["r1"]} if d["r1"] else {}
        for tool, recs in res["peers"].items():
            r = ratio(pick(recs, "time", "gradient"), pick(recs, "time", "primal"))
            if r:
                per_tool[tool] = r
        for what, rec in d.get("inproc", {}).items():  # gradients timed in the same process
            r = ratio(rec, d["primal"])
            if r:
                per_tool[what] = r
        if per_tool:
            rows.append((bench.name, per_tool))
    if not rows:
        return None
    order = ["xenzyme", "numpy", "jax", "torch", "fd"]
    tools = sorted({t for _, pt in rows for t in pt},
                   key=lambda t: (order.index(t) if t in order else len(order), t))  # fmt: skip
    width = 0.8 / len(tools)
    fig, ax = plt.subplots(figsize=(min(16.0, max(7.0, 2.0 + 0.8 * len(rows))), 5.0))
    for j, tool in enumerate(tools):
        xs = [i + (j - (len(tools) - 1) / 2) * width for i, (_, pt) in enumerate(rows) if tool in pt]
        ys = [pt[tool] for _, pt in rows if tool in pt]
        ax.bar(xs, ys, width, label=tool)
    ax.set_yscale("log")
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(rows)), [name for name, _ in rows], rotation=30, ha="right")
    ax.set_ylabel("derivative time ÷ primal time")
    ax.set_title("Cost of the derivative relative to the primal, per tool (lower is better)")
    ax.legend(fontsize="small", ncols=min(len(tools), 6))
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_section(text: str, name: str, body: str) -> str:
    """Put body between NAME's markers in text, leaving everything else as it was; append the
    marked section when the markers are absent."""
    begin, end = markers(name)
    block = f"{begin}\n{body.rstrip()}\n{end}"
    pattern = re.escape(begin) + ".*?" + re.escape(end)
    if re.search(pattern, text, flags=re.S):
        return re.sub(pattern, lambda _: block, text, count=1, flags=re.S)
    return text.rstrip("\n") + "\n\n" + block + "\n"


def write_results(sections: list[tuple[str, str]], path: Path = RESULTS) -> None:
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    for name, body in sections:
        text = replace_section(text, name, body)
    path.write_text(text)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build, check and time the gradient benchmarks; "
                                 "rewrite their sections of benchmarks/RESULTS.md.")
    ap.add_argument("names", nargs="*", help=f"benchmarks to run, or programs (all their "
                    f"instances) (default: all: {', '.join(BY_NAME)})")
    ap.add_argument("--n", type=int, help="problem size for every benchmark (default: each one's)")
    ap.add_argument("--samples", type=int, default=7, help="timed samples (>= 5 for results)")
    ap.add_argument("--compile-reps", type=int, default=3,
                    help="builds of the main variant for its compile time (median)")
    ap.add_argument("--check-only", action="store_true", help="check gradients, time nothing")
    ap.add_argument("--no-write", action="store_true", help="leave RESULTS.md alone")
    args = ap.parse_args(argv)

    programs = {b.prog for b in BENCHMARKS}
    unknown = [n for n in args.names if n not in BY_NAME and n not in programs]
    if unknown:
        ap.error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    selected = ([b for b in BENCHMARKS if b.name in args.names or b.prog in args.names]
                if args.names else list(BENCHMARKS))  # fmt: skip
    samples = 0 if args.check_only else args.samples
    if samples and samples < 5:
        print("note: fewer than 5 samples: RESULTS.md is not written", file=sys.stderr)
    write = not args.no_write and samples >= 5 and args.n is None

    env = {"machine": machine(), "versions": versions(),
           "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           "load": [os.getloadavg()[0]]}
    print(f"{env['machine']['cpu']}, {env['machine']['cores']} cores; xenzyme "
          f"{env['versions']['xenzyme']}; {env['versions']['clang']}", file=sys.stderr)
    # The cache-bytes comparison: the first instance of each program, when timing.
    firsts = {b.prog: b for b in reversed(selected)}
    cache_bytes = {b.name: bool(samples) and firsts[b.prog] is b for b in selected}
    progress = Progress(total=sum(steps_for_run(b, samples, cache_bytes[b.name]) for b in selected))
    results = []
    built: dict = {}
    for bench in selected:
        res = run_benchmark(bench, progress, n=args.n or bench.n, samples=samples,
                            compile_reps=1 if args.check_only else args.compile_reps,
                            built=built, cache_bytes=cache_bytes[bench.name])
        results.append((bench, res))

    env["load"].append(os.getloadavg()[0])
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    raw = {"env": env, "results": {b.name: r for b, r in results}}
    (BUILD_DIR / "results.json").write_text(json.dumps(raw, indent=1))

    failed = [b.name for b, r in results if r["errors"]]
    for b, r in results:
        for e in r["errors"]:
            print(f"\n{b.name}: {e}", file=sys.stderr)
    if samples:
        print(file=sys.stderr)
        for b, r in results:
            if not fatal_errors(r):
                d = derived(r)
                r2 = "".join(f", R2 vs {t} {fmt_r(x)}" for t, x in d["r2"].items())
                print(f"{b.name}: R1 {fmt_r(d['r1'])} (target {fmt_target(b.target_r1)}){r2}, "
                      f"R3 {fmt_r(d['r3'])}, compile "
                      f"{r['builds'][MAIN.tag]['stage_s']['total']:.2f} s", file=sys.stderr)
    if samples:
        print("\n" + cache_bytes_section(results), file=sys.stderr)
    if write:
        if not args.names:
            chart = write_chart(results)
            if chart:
                print(f"wrote {chart.relative_to(REPO)}", file=sys.stderr)
        sections = [("bench-summary", summary_section(results, env)),
                    ("bench-cache-bytes", cache_bytes_section(results))] if not args.names else []
        sections += [(f"bench-{b.name}", section_for(b, r, env)) for b, r in results]
        write_results(sections)
        print(f"wrote {RESULTS.relative_to(REPO)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
