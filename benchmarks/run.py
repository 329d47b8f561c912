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

The OpenMP benchmarks (PARALLEL: `run.py parallel`, or by name) run one process each that
checks the gradient at 1 and 2 threads and times primal and gradient at both counts; their
sections report gradient ÷ primal at each count and the speed-ups from 1 to 2 threads
("Parallel benchmarks" below).

RESULTS.md is shared with other writers (benchmarks/compile_speed.py; benchmarks/mpi_scaling.py,
whose section this runner also writes when it runs every benchmark and OpenMPI is there): every
writer replaces only the text between its own `<!-- NAME:begin -->` and `<!-- NAME:end -->`
markers and keeps the rest; a section whose markers are missing is appended.  The raw results go to
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
import textwrap
import time
from collections.abc import Callable
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
    notes: Callable[[Figures], str] | None = None
    """Explains the section's tables, from the run's own figures (see `Figures`)."""
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


# ---------------------------------------------------------------------------------------------
# Notes: what each program's derivative does and where its time goes
# ---------------------------------------------------------------------------------------------
#
# A note explains the tables of its section.  Everything it says about a measured figure (a time,
# a ratio, heap or page faults) is computed from the run it is written with (`Figures`), and a
# sentence whose figure the run does not have is left out: a note never carries a number typed
# in by hand from another run.  What it says of the code (what is cached, which loops LLVM
# unrolled) comes from reading the generated IR, and sizes that follow from the problem's size
# (N doubles are 8 N bytes) are computed from it.


@dataclass
class Figures:
    """The figures of one benchmark in one run, for its notes; None where the run has none."""

    bench: Benchmark
    res: dict
    run: dict[str, dict] = field(default_factory=dict)
    """Every benchmark's results in the same run, by name (for comparisons between them)."""

    def __post_init__(self) -> None:
        self.d = derived(self.res)

    @property
    def n(self) -> int:
        return self.res.get("n") or self.bench.n

    @property
    def r1(self) -> float | None:
        return self.d["r1"]

    @property
    def r1_min(self) -> float | None:
        return self.d["r1_min"]

    @property
    def r3(self) -> float | None:
        return self.d["r3"]

    def r2(self, tool: str) -> float | None:
        return self.d["r2"].get(tool)

    def rec(self, tag: str = "O2", what: str = "gradient") -> dict | None:
        return pick(self.res["runs"].get(tag, []), "time", what)

    def peer(self, tool: str, what: str = "gradient") -> dict | None:
        return pick(self.res["peers"].get(tool, []), "time", what)

    def ratio_in(self, tag: str) -> float | None:
        """Gradient ÷ primal of one build (its own process)."""
        return ratio(self.rec(tag), self.rec(tag, "primal"))

    def peer_r1(self, tool: str) -> float | None:
        """A peer's gradient ÷ its own primal."""
        return ratio(self.peer(tool), self.peer(tool, "primal"))

    def primal_speedup(self, tool: str) -> float | None:
        """How many times a peer's primal is faster than the C primal."""
        return ratio(self.rec(what="primal"), self.peer(tool, "primal"))

    def inproc_r1(self, what: str) -> float | None:
        return ratio(self.d["inproc"].get(what), self.d["primal"])

    def heap(self, tag: str = "O2", what: str = "gradient") -> str | None:
        """`71.5 MiB and 525,000 allocations`: a build's heap per call (the heap column), in words."""
        rec = self.rec(tag, what)
        if not rec or rec.get("heap_peak_bytes") is None:
            return None
        allocs = rec.get("heap_allocs_per_call") or 0
        return f"{fmt_bytes(rec['heap_peak_bytes'])} and {allocs:,.0f} allocation{'' if allocs == 1 else 's'}"

    def heap_bytes(self, tag: str = "O2", what: str = "gradient") -> float | None:
        rec = self.rec(tag, what)
        return rec.get("heap_peak_bytes") if rec else None

    def allocs(self, tag: str = "O2", what: str = "gradient") -> float | None:
        rec = self.rec(tag, what)
        return rec.get("heap_allocs_per_call") if rec else None

    def faults(self, tag: str = "O2", what: str = "gradient") -> float | None:
        rec = self.rec(tag, what)
        return rec.get("page_faults_per_call") if rec else None

    def other(self, name: str) -> Figures | None:
        """The same run's figures of another benchmark, if it ran and has numbers."""
        res = self.run.get(name)
        if res is None or name not in BY_NAME or fatal_errors(res):
            return None
        return Figures(BY_NAME[name], res, self.run)


def _x(r: float) -> str:
    """A ratio as the notes write it."""
    return f"{r:.2f}" if r < 10 else f"{r:.1f}"


def _speed(r2: float | None, peer: str, what: str = "gradient") -> str | None:
    """`xenzyme's gradient is 2.9 times faster than JAX's (R2 = 0.35)`, or takes N times as long."""
    if r2 is None:
        return None
    if r2 < 1:
        return f"xenzyme's {what} is {_x(1 / r2)} times faster than {peer}'s (R2 = {r2:.2f})"
    return f"xenzyme's {what} takes {_x(r2)} times as long as {peer}'s (R2 = {r2:.2f})"


def _range(values: list[float | None]) -> str | None:
    """`2.1-3.4` (or one value) of the figures there are."""
    vs = sorted(v for v in values if v is not None)
    if not vs:
        return None
    return _x(vs[0]) if len(vs) == 1 or _x(vs[0]) == _x(vs[-1]) else f"{_x(vs[0])}-{_x(vs[-1])}"


def _end(sentence: str | None, tail: str = ".") -> str | None:
    """`sentence` ended by `tail`, or None when there is no sentence."""
    return sentence + tail if sentence else None


def _says(*sentences: str | None) -> str:
    """The sentences that could be said, as one paragraph (a part that starts with punctuation
    continues the one before)."""
    out = ""
    for s in sentences:
        if s:
            out += s if not out or s[0] in ".,:;)" else " " + s
    return out


def _note(*paragraphs: str | None) -> str:
    """Paragraphs and `- ` list items (consecutive ones make one list), wrapped for RESULTS.md;
    empty ones are left out."""
    out = ""
    item = False
    for p in paragraphs:
        if not p:
            continue
        was_item, item = item, p.startswith("- ")
        text = textwrap.fill(p, 100, subsequent_indent="  " if item else "", break_on_hyphens=False)
        out += ("\n" if item and was_item else "\n\n" if out else "") + text
    return out


def _bytes_of(n: float) -> str:
    """A size computed from the problem's size, as the notes write it (decimal: 80 MB)."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f} bytes"


def _r3_sentence(f: Figures) -> str | None:
    if f.r3 is None:
        return None
    return (f"In this run R3 = {_x(f.r3)}: built from unoptimised IR, the gradient costs {_x(f.r3)} times "
            "as much, each relative to its own primal")


def taylorlog_notes(f: Figures) -> str:
    p = f.rec(what="primal")
    per_term = p["median_s"] / f.n * 1e9 if p else None
    return _note(
        _says("What the gradient does (read from `xenzyme-opt taylorlog.ll -p enzyme -t llvm`): the derivative "
              "of each term needs only x and i, so the gradient has no forward sweep over the main loop; its "
              "reverse sweep recomputes i and calls `pow(x, i - 1)` once per term (times i, times 1/i). The "
              "primal's `pow(x, i)` is dead (the function's value is not requested) and LLVM removes it. Both "
              "programs thus make one `pow` call per term and nothing else of weight, so the gradient should "
              "cost what the primal costs",
              f"({per_term:.0f} ns per term for the primal in this run)." if per_term else ".",
              f"R1 is {_x(f.r1)}, and {_x(f.r1_min)} as a ratio of minima (the steadier figure on a busy "
              "machine)." if f.r1 is not None and f.r1_min else None,
              "Only the loop's remainder iterations (N mod 4, after LLVM unrolled the loop by 4) keep a small "
              "cache of i."),
        _says("R3: differentiated straight from -O0 IR (`enzyme{preopt=0}`), x and i still live in stack slots "
              "that the loop loads on every iteration; the gradient caches every loaded value, so it stores x "
              "(loop-invariant) and `(double)i` twice per iteration in buffers grown by `realloc`",
              f"({f.heap('O0-preopt0')} per call: the heap column)" if f.heap("O0-preopt0") else None,
              ", where the optimised program recomputes i and keeps x in a register. The `pow` calls are the "
              "same, so the loss is bounded by the memory traffic.",
              _end(_r3_sentence(f) and _r3_sentence(f) + (
                  ", below the 4.2 Enzyme reports as its suite average: the pipeline still optimises the result "
                  "(postopt=3), though that cannot remove caches the reverse sweep reads" if f.r3 < 4.2
                  else " (Enzyme reports 4.2 as its suite average)"))),
    )


def logsumexp_notes(f: Figures) -> str:
    n = f.n
    faults, allocs = f.faults(), f.allocs()
    diag = f.ratio_in("O2-hugepages")
    numpy_primal = f.primal_speedup("numpy")
    r2 = f.r2("numpy")
    return _note(
        "What the gradient does (read from `xenzyme-opt logsumexp.ll -p enzyme -t llvm`, function "
        "`diffelogsumexp`):",
        f"- forward sweep: the max loop (unrolled by 4 by LLVM) stores the outcome of each comparison as one "
        f"byte, in four growing buffers, one per unrolled lane ({_bytes_of(n)} in all, where Enzyme caches the "
        f"running maximum as a double: {_bytes_of(8 * n)}); then the exp loop stores each `exp(x_i - A)` "
        f"({_bytes_of(8 * n)}), so the reverse sweep needs no second `exp`;",
        "- reverse sweep: one pass that adds `exp(x_i - A) / s` into `dx` while it sums the adjoint of A, then "
        "one pass back over the max loop that adds that adjoint (zero up to rounding) into `dx` where a "
        f"comparison selected: a second read-modify-write of all {_bytes_of(8 * n)} of `dx`.",
        _says("Where the time goes: the arithmetic is the primal's (one `exp` per element, no recomputation); "
              f"what the gradient adds is memory: the {_bytes_of(8 * n)} cache of `exp` values and a second pass "
              "over `dx`. The cache buffers are kept between calls (`lower-autodiff` gives each cache site a pool "
              "slot), so that after the first call the gradient need not allocate or fault pages in",
              (f"(in this run: {faults:,.0f} page faults and {allocs:.3g} allocation calls per gradient call, "
               "columns \"page faults / call\" and \"heap / call\")." if faults is not None and allocs is not None
               else "."),
              "Without it glibc serves each call's caches with fresh `mmap`ed pages, faulted in on every call; "
              "the diagnostic row runs the gradient with glibc's malloc on transparent huge pages",
              f"(gradient ÷ primal {_x(diag)} in this run)." if diag is not None else ".",
              "The minimum cut chooses what is cached; it weighs bytes only, so math functions such as `exp` are "
              "not among what it may recompute."),
        "What remains, in the compiler: the four per-lane byte caches of the unrolled max loop could be one, "
        "and the zero-adding reverse pass of the max loop could be skipped where only one element receives "
        "the adjoint of A.",
        _says("R3: from -O0 IR without the optimiser first, the loop indices live in stack slots, so the address "
              "of `dx[i]` is not an induction expression when the gradient is generated: both loops cache the "
              f"shadow pointer of every element (2 × {_bytes_of(8 * n)}) besides the comparison bytes and the "
              "`exp` values",
              f"({f.heap('O0-preopt0')} per call, against the main build's {f.heap()})." if f.heap("O0-preopt0")
              and f.heap() else ".",
              _end(_r3_sentence(f))),
        _says(_speed(r2, "numpy") and _speed(r2, "numpy") + ".",
              f"numpy's primal runs {_x(numpy_primal)} times as fast as the C primal:" if numpy_primal else None,
              "numpy evaluates `exp` with SIMD loops (AVX-512 where the CPU has it), while clang -O2 for generic "
              "x86-64 calls glibc's scalar `exp` per element, in the primal as in the gradient; R2 measures "
              "libm here, not AD." if numpy_primal and numpy_primal > 1 else None),
    )


def matdescent_notes(f: Figures) -> str:
    n = f.n
    hand = f.inproc_r1("hand-written C")
    r2 = f.r2("hand-written C")
    descent = next((r for r in f.res["runs"].get("O2", []) if r.get("kind") == "descent"), None)
    g_bytes, p_bytes, fresh = f.heap_bytes(), f.heap_bytes(what="primal"), f.heap_bytes("O2-fresh")
    caches = fresh - g_bytes if fresh is not None and g_bytes is not None else None
    return _note(
        "What the gradient does (read from `xenzyme-opt matdescent.O2.ll -p enzyme -t llvm`, function "
        "`diffematdescent`):",
        "- forward sweep: the primal's loops as LLVM left them (dot products unrolled by 4, the sum of squares "
        "by 8, summation order kept). The temporary `Wv` is malloc'd and freed where the primal does it; its "
        "shadow `dWv` is calloc'd beside it and freed at the end. As the sum of squares loads `Wv_i`, the "
        "gradient caches it (one buffer per lane of the unrolled loop), since `Wv` is gone when the reverse "
        "sweep needs `2 Wv_i`. Nothing of W is cached: per row only a few branch outcomes (bytes) and the "
        "last index of the inner loop's two pieces (i64s, although both are computed once before the row "
        "loop: `m / 4 - 1` for the part unrolled by 4, `m mod 4 - 1` for the rest)."
        + (f" The heap column's {fmt_bytes(g_bytes)} per gradient call at N = {n:,} is `Wv` and `dWv` "
           f"({fmt_bytes(8 * n)} each; the primal's {fmt_bytes(p_bytes)} is its `Wv`)"
           + (f"; its caches add {fmt_bytes(caches)} in a build that allocates them on every call (the "
              "cache-bytes table)." if caches and caches > 0 else ".")
           if g_bytes is not None and p_bytes is not None else ""),
        "- reverse sweep: `dWv_i += 2 Wv_i` from the cached values, then for each row, backwards, "
        "`dW[i][j] += dWv_i v_j`, columns backwards too (v is constant: no `Wᵀ dWv` is formed).",
        _says(f"Where the time goes: the gradient does the primal's work (one pass over W's {_bytes_of(8 * n * n)} "
              "with a chain of dependent adds per row) plus a read-modify-write pass over dW's "
              f"{_bytes_of(8 * n * n)}: three times the primal's memory traffic. The hand-written gradient has the "
              "same traffic (it updates row i of dW right after computing (W v)_i)",
              f"; in this run xenzyme's gradient takes {_x(f.r1)} primals and the hand-written one {_x(hand)}, "
              f"R2 = {_x(r2)}." if f.r1 is not None and hand is not None and r2 is not None else ".",
              "The reverse update loop is vectorised by LLVM (2-wide SSE2), but as the reversal of a loop "
              "unrolled by 4 it loads `v` and `dW` element by element and stores through an interleaving "
              "shuffle (nn shows what that costs when the data are in cache); here it waits on memory either "
              "way."),
        _says("Gradient descent: 100 steps of size lr = 0.01 / |v|² each scale W v by 1 - 2 lr |v|² = 0.98, so "
              "the objective falls to 0.98^200 = 1.8 % of its start, with xenzyme's and with the hand-written "
              "gradient alike, as the closed form says",
              f"(to {descent['rel_dev_from_closed_form']:.1g} in this run)." if descent else "."),
        _says("R3: from -O0 IR without the optimiser first, the loop indices and the pointers live in stack "
              "slots, so nothing is an induction expression when the gradient is generated: the inner loop "
              "caches, per iteration, the loaded `v[j]` and the shadow addresses of `W[i][j]` and of `Wv[i]`",
              f"({f.heap('O0-preopt0')}, {f.faults('O0-preopt0'):,.0f} page faults per gradient call)."
              if f.heap("O0-preopt0") and f.faults("O0-preopt0") is not None else ".",
              _end(_r3_sentence(f))),
    )


def nn_notes(f: Figures) -> str:
    hand = f.inproc_r1("hand-written C")
    r2 = f.r2("hand-written C")
    slower = r2 is not None and r2 > 1.05
    return _note(
        "What the gradient does (read from `xenzyme-opt nn.O2.ll -p enzyme -t llvm`, function "
        "`diffenn_loss`): LLVM has fully unrolled the loop over the 10 outputs, so each sample runs ten "
        "784-long dot products (each unrolled by 4) with the logits in the local array `z[10]`.",
        "- forward sweep: the primal, plus per sample the comparison outcomes of the max (bytes), the 10 "
        "values `exp(z_k - m)` and the sum (doubles), and the final trip count of each of the ten unrolled "
        "dot-product loops, an i64 that is the same constant every time"
        + (f" (the caches of one call at batch {f.n}: {f.heap('O2-fresh')} in the cache-bytes table, which "
           "counts a build that allocates them on every call)." if f.heap("O2-fresh") else "."),
        "- reverse sweep, per sample backwards: the softmax adjoint from the cached exponentials (`z` gets a "
        "stack shadow `dz[10]`, the label's entry adjusted), then per output k, backwards, "
        "`dW[k][j] += dz_k x[j]` over the 784 inputs.",
        _says(f"In this run xenzyme's gradient takes {_x(r2)} times as long as the hand-written one (R2), and "
              f"R1 = {_x(f.r1)} where the hand-written gradient's ratio is {_x(hand)}."
              if r2 is not None and hand is not None and f.r1 is not None else None,
              "The forward sweeps cost the same (the primal's 7,840 dependent multiply-adds per sample);"
              + (" the difference is the dW update." if slower else " where a difference shows, it is the dW "
                 "update."),
              "In the hand-written gradient it is a forward loop with a constant trip count that LLVM "
              "vectorises into contiguous 2-wide loads and stores. In xenzyme's reverse sweep it is the reversal "
              "of the primal's dot product *after* LLVM unrolled it by 4: each reverse iteration updates four "
              "elements in descending order, the trip count comes from the cache (so the vectoriser adds "
              "trip-count and overlap checks per row), and the vectoriser treats the body as four interleaved "
              "stride-4 accesses: it loads `x` and `dW` one element at a time, assembles vectors with "
              "`insertelement` and stores through an 8-element interleaving shuffle. Marking the dot-product "
              "loop `#pragma clang loop unroll(disable)` (an experiment, not the benchmark) gives a reverse loop "
              "with contiguous 2-wide loads and stores, as in the hand-written update. Enzyme's integration "
              "tests compile their programs with `-fno-unroll-loops -fno-vectorize -fno-slp-vectorize` before "
              "differentiating; xenzyme's `enzyme` pipeline runs the full -O2 first."),
        "What would help, in the compiler: do not cache a trip count that is loop-invariant (reuse it, as "
        "`m / 4 - 1` in matdescent); run a reverse loop forwards when its iterations are independent (as "
        "here: each writes its own dW elements); or differentiate before loop unrolling.",
        _says("R3: from -O0 IR without the optimiser first, the gradient caches the loaded inputs and the shadow "
              "addresses in the inner loop, whose indices live in stack slots",
              f"({f.heap('O0-preopt0')} per call), and its gradient ÷ primal is {_x(f.ratio_in('O0-preopt0'))}."
              if f.heap("O0-preopt0") and f.ratio_in("O0-preopt0") else ".",
              _end(_r3_sentence(f))),
    )


def gmm_notes(f: Figures) -> str:
    m = re.search(r"d(\d+)_K(\d+)", f.bench.input)
    d, k = (int(m.group(1)), int(m.group(2))) if m else (None, None)
    peers = [t for t in f.res["peers"] if t != "fd"]
    peer_r1s = {t: f.peer_r1(t) for t in peers}
    fresh = f.heap_bytes("O2-fresh")
    per_pair = fresh / (f.n * k) if fresh and k else None
    jax_primal = f.primal_speedup("jax")
    small = f.other("gmm_d2_K5")
    fd_r2 = small.r2("fd") if small else None
    r3_others = {name: o.r3 for name in ("matdescent", "nn") if (o := f.other(name)) is not None and o.r3}
    return _note(
        "What the gradient does (read from `xenzyme-opt gmm.O2.ll -p enzyme -t llvm`, function "
        "`diffegmm_objective`, and from the `autodiff.cache` ops before lowering, `-p "
        "'llvm-opt{level=2},raise-enzyme-calls,reverse-diff'`): LLVM has unrolled and vectorised the primal's "
        "inner loops over d (x_i - mu_k, the triangular product Q_k z, the squared norm), each with its "
        "runtime checks, a vector body and remainder loops; the gradient differentiates every version, and "
        "each keeps caches of its own: doubles, 2-vectors, shadow addresses, loop counters and branch "
        "outcomes. The temporaries `qdiags`, `xc`, `qxc` and `main_term` are malloc'd as in the primal, each "
        "with a calloc'd shadow.",
        _says("Where the time goes",
              f"(R1 = {_x(f.r1)} in this run, where the peers' gradients cost {_range(list(peer_r1s.values()))} "
              "of their own primals):" if f.r1 is not None and _range(list(peer_r1s.values())) else ":"),
        _says("- **caching what the reverse sweep needs**: it needs, per point and component, "
              "z = x_i - mu_k and Q_k z",
              f"(2d doubles, {16 * d} bytes at d = {d});" if d else ";",
              f"the gradient's caches take {fmt_bytes(per_pair)} per pair in this run (the cache-bytes table: "
              f"{fmt_bytes(fresh)} for {f.n:,} points × {k} components)," if per_pair else None,
              "because every unrolled and vectorised version of the inner loops keeps the values it loaded from "
              "the temporaries the function writes again (`xc` and `qxc` for every pair, `qdiags` freed at the "
              "end), with its loop counters and its branch outcomes (which version ran), pushed per iteration."),
        "- **bookkeeping**: the values one block of a loop pushes form one record, with one size and growth "
        "check per block and iteration (`lower-autodiff`).",
        _says("Fixed in the compiler while analysing this benchmark: caches reserved at an inner loop's entry "
              "grow by doubling (below); the running packed index `idx++` of the triangular product is "
              "recomputed as an induction variable instead of cached; the cache buffers are kept between calls "
              "instead of being allocated, faulted in and freed on every call; the minimum cut chooses the "
              "cached values; the packed `icf` entries (an input nothing writes) are read again by the reverse "
              "sweep instead of cached (the call of `lgamma` in the prior, which sets the C library's `signgam`, "
              "counted as a write to any memory; libm functions given no pointer write errno at most); caches "
              "pushed in the same block share one record instead of one stack each, whose sizes and "
              "capacities did not fit in registers (a push was a load, a compare, a branch and two stores per "
              "value). benchmarks/RESULTS.md's section on GMM's gradient measures each change. What remains "
              "is the number of loop versions LLVM made before differentiation: differentiating the primal "
              "before vectorisation, or caching per pair rather than per loop version, would bring it towards "
              "the peers."),
        "Until 3b0f6ab a reserve at an inner loop's entry grew its cache to exactly the new size, once per "
        "(point, component) pair, so the caches were copied once per pair and the larger instances ran past "
        "the runner's time limit; reported from this benchmark, fixed by doubling.",
        _says("R3: from -O0 IR without the optimiser first the loops are neither unrolled nor vectorised, so "
              "there are fewer loop versions to differentiate, but every load is cached",
              f"({f.heap('O0-preopt0')} per gradient call against {f.heap('O2-fresh')} for the optimised build "
              "allocating its caches on every call: the -O0 heap column and the cache-bytes table)."
              if f.heap("O0-preopt0") and f.heap("O2-fresh") else ".",
              _end(_r3_sentence(f) and _r3_sentence(f) + (
                  "; in the same run R3 is " + " and ".join(f"{_x(r)} for {name}" for name, r in r3_others.items())
                  if r3_others else ""))),
        _says("The peers compute the same gradient as batched array operations over (points, components): the "
              "hand-written numpy gradient forms the responsibilities and three einsums; JAX and PyTorch "
              "differentiate the same vectorised objective.",
              f"XLA's primal (fused, vectorised for this CPU) runs {_x(jax_primal)} times as fast as the C primal "
              "compiled for generic x86-64 (SSE2, one `exp` call per element)." if jax_primal else None,
              _end(fd_r2 and "The finite-difference peer runs on gmm_d2_K5 only (2 × 30 primal evaluations per "
                   "gradient); there " + _speed(fd_r2, "the finite-difference peer"))),
    )


def ba_notes(f: Figures) -> str:
    peers = [t for t in f.res["peers"] if t != "fd"]
    peer_r1s = [f.peer_r1(t) for t in peers]
    speedups = [1 / r for t in peers if (r := f.r2(t))]
    fd_cost, fd_r2 = f.peer_r1("fd"), f.r2("fd")
    allocs0 = f.allocs("O0-preopt0")
    return _note(
        _says("What the Jacobian does (read from `xenzyme-opt ba.O2.ll -p enzyme -t llvm`): for each "
              "observation, two calls of `diffeba_reproj_error` (seeds (1, 0) and (0, 1)) and the inlined "
              "derivative of 1 - w² (-2 w). `diffeba_reproj_error` is straight-line code: the forward sweep "
              "(the rotation with its `sqrt`, `sin` and `cos`, the projection and distortion) followed by the "
              "reverse sweep; the values the reverse sweep needs stay in registers",
              "(no heap cache: the heap column is 0)," if f.heap_bytes() == 0 else
              f"(the heap column: {f.heap()})," if f.heap() else ",",
              "and LLVM vectorises parts of both sweeps 2-wide."),
        _says(f"Why R1 = {_x(f.r1)}:" if f.r1 is not None else "Why gradient ÷ primal is large:",
              "the Jacobian is 31 values per observation where the primal computes 3, and reverse mode gives "
              "one row per pass: two full passes per observation, each repeating the primal's forward "
              "computation (twice the `sqrt`, `sin` and `cos`) and adding a reverse sweep about twice as long. "
              "Any reverse-mode tool pays this:",
              f"the peers' Jacobians cost {_range(peer_r1s)} of their own primals in this run (JAX "
              "`vmap(jacrev)`, numpy's hand-written vectorised Jacobian, PyTorch's two backward passes over all "
              "observations)," if _range(peer_r1s) else None,
              (f"and xenzyme's Jacobian is {_range(speedups)} times faster than theirs (1 / R2)," if speedups
               and min(speedups) > 1 else f"and R2 against them is {_range([f.r2(t) for t in peers])},"
               if speedups else None),
              "as the per-observation code runs in registers without array temporaries. Sharing the forward "
              "sweep between the two rows (`__enzyme_augmentfwd` / `__enzyme_reverse` with the tape, or "
              "forward mode over the 15 inputs) would remove one of the two forward computations; the "
              "benchmark keeps the plain form, one `__enzyme_autodiff` call per row of the block."),
        _says("The finite-difference peer evaluates the residual 30 times per observation (15 columns, "
              "central)",
              f": it costs {_x(fd_cost)} primals in this run, {_x(1 / fd_r2)} times xenzyme's Jacobian."
              if fd_cost and fd_r2 else "."),
        _says("R3: from -O0 IR without the optimiser, every local (the 3-vectors of the rotation, the "
              "projection) lives in stack slots; the gradient then caches loaded values in heap buffers",
              f"({allocs0 / f.n:.3g} allocation calls per observation: the -O0 heap column)." if allocs0 else ".",
              _end(_r3_sentence(f))),
    )


def lstm_notes(f: Figures) -> str:
    layers = int(m.group(1)) if (m := re.search(r"_l(\d+)_", f.bench.name)) else None
    chars = int(m.group(1)) if (m := re.search(r"_c(\d+)", f.bench.name)) else None
    jax_cost, jax_r2 = f.peer_r1("jax"), f.r2("jax")
    torch = f.peer("torch")
    per_step = torch["median_s"] / ((chars - 1) * layers) if torch and layers and chars else None
    return _note(
        "What the gradient does (read from `xenzyme-opt lstm.O2.ll -p enzyme -t llvm`, function "
        "`diffelstm_objective`, and from the caches before lowering): LLVM inlined the cell and the "
        "prediction into the objective and vectorised the input and output layers 2-wide. The forward sweep "
        "runs the primal (the same 3 `exp` and 2 `tanh` per unit, layer and step: the primal's time is almost "
        "all these libm calls) and pushes, per unit, layer and step, into its caches: each `exp`, each "
        "`1 + exp` and each sigmoid `1 / (1 + exp)`, both `tanh`, the 4 weights loaded from `main_params`, "
        "and the hidden, cell and input values it read; the input and output layers add the loaded sequence "
        "bits and extra params and their shadow addresses. The reverse sweep walks the steps backwards and "
        "accumulates into the shadows of the weights; the state is copied into a malloc'd buffer with a "
        "calloc'd shadow.",
        _says("Where the time goes",
              f"(R1 = {_x(f.r1)} in this run):" if f.r1 is not None else ":",
              "the forward sweep's `exp` and `tanh` calls cost what the primal costs (perf: libm is most of "
              "the primal's time), and the rest is cache traffic and the reverse arithmetic. The caches hold, "
              "per unit and step, the `exp` and `tanh` results and the hidden, cell and input values read; the "
              "minimum cut recomputes what it can from them (the sigmoids `1 / (1 + exp)` from the cached "
              "`exp`), and the weights loaded from `main_params` are cached because the state written through "
              "another pointer may alias them (nothing tells the compiler otherwise). The cache buffers are kept "
              "between calls: before that, each call allocated them afresh and faulted their pages in."),
        "Until 3b0f6ab each cache filled by the loop over the 14 units was reserved at that loop's entry, once "
        "per layer and step, to exactly its new size, and the copies dominated the gradient's time (reported "
        "from gmm; fixed by doubling).",
        _says(f"JAX's `jit(grad)` over `lax.scan` costs {_x(jax_cost)} of its primals;" if jax_cost else None,
              _end(_speed(jax_r2, "JAX"), ";"),
              f"PyTorch runs the {chars - 1:,} × l small steps eagerly, {fmt_s(per_step)} per step and layer in "
              "this run;" if per_step else None,
              "the hand-written numpy backpropagation is bound by per-call overhead on vectors of 14. The "
              "finite-difference peer needs 2 × 266 primal evaluations per gradient."),
        _says("R3: from -O0 IR without the optimiser first, every local lives in a stack slot and every loaded "
              "value is cached (the -O0 heap column).", _end(_r3_sentence(f))),
    )


def ht_simple_notes(f: Figures) -> str:
    jax_r2, jax_cost = f.r2("jax"), f.peer_r1("jax")
    jax_primal = f.primal_speedup("jax")
    return _note(
        _says("What the Jacobian does (read from `xenzyme-opt ht_simple.O2.ll -p enzyme -t llvm`, function "
              "`fwddiffe4ht_objective_simple`; its width-2 sibling is inlined into the caller): each "
              "`__enzyme_fwddiff` call runs the primal once and carries 4 tangents of every value along with "
              "it, with no tape and no caches. The sines and cosines of the bones' Euler angles are computed "
              "once per call and their derivatives shared by the directions; the chain of 4×4 bone transforms "
              "runs on 4 tangent matrices per bone, kept in 4 shadow copies of each local array (zeroed on "
              "entry); the heap buffer of vertex positions gets 4 shadow buffers, freed with it",
              f"(the heap column: {f.heap()})." if f.heap() else "."),
        _says("Where the time goes: the skinning loop, 544 vertices × 22 bones × 3 coordinates, in which every "
              "direction repeats the primal's multiply-adds on its own tangent transform; the residual loop is "
              "small beside it. The primal's loop is bound by the latency of its 3 running sums (chains of 22 "
              "dependent additions), so its time understates its arithmetic and the tangents partly ride along "
              "in the idle issue slots:",
              f"the 26 columns cost {_x(f.r1)} primal evaluations in this run ({_x(f.r1 / 26)} per column), "
              "although the primal itself runs 7 times (one per chunk)." if f.r1 is not None else None),
        "Why chunks of 4: one call of width 26 (build with `clang-19 -DHT_FULL_WIDTH`) carries 26 tangents of "
        "every value: 78 running sums in a loop that has 16 SSE2 registers, and 26 shadow copies of the bone "
        "arrays, each tangent a scalar load from another array, packed into registers by shuffles; the sums "
        "spill and the shadows leave the L1 cache. Narrow chunks instead pay for a primal per chunk: width 1 "
        "runs 26 primals.",
        _says("JAX's `jit(jacfwd)` pushes the 26 directions through the computation together: the skinning "
              "becomes matrix products over all directions at once, which XLA runs with the CPU's widest "
              "vectors.",
              _end(jax_r2 and "In this run " + _speed(jax_r2, "JAX", "Jacobian")),
              (f"JAX's primal runs {_x(jax_primal)} times as fast as the C one" if jax_primal >= 1 else
               f"JAX's primal takes {_x(1 / jax_primal)} times as long as the C one (small operations and "
               "dispatch per call)") + (f", and JAX's Jacobian costs {_x(jax_cost)} of its own primal "
                                        "evaluations" if jax_cost else "")
              + ": the two gradient ÷ primal ratios measure different primals." if jax_primal else None,
              "The layout is what differs: JAX keeps the directions of each array together and multiplies them "
              "in one product, where xenzyme's vector mode repeats the loop body per direction on a separate "
              "shadow array each. Storing the tangents of an element next to each other (one SIMD load for "
              "several directions) is what would close the gap."),
        _says(_end(_r3_sentence(f), ":"),
              "forward mode caches nothing, so differentiating unoptimised IR (`preopt=0`) loses little once "
              "LLVM optimises the tangent code afterwards (`postopt=3`); what is left comes from the shape of "
              "the code LLVM gets (here, how much of the tangent functions it inlines into the caller). Reverse "
              "mode, where unoptimised loads become caches, is where AD after optimisation pays off."),
    )


def ht_complicated_notes(f: Figures) -> str:
    simple = f.other("ht_simple")
    return _note(
        _says("The same skinning as ht_simple (its notes say where that time goes, why the columns come in "
              "chunks of 4, and how JAX's batched Jacobian compares), with two differences. The two u columns "
              "ride in the first chunk with two pose directions; in them the skinning's tangents are zero (the "
              "pose is fixed) but are computed all the same, as vector mode carries every direction through "
              "the whole function: 2 of 28 directions. And each residual is a barycentric combination of three "
              "vertices, so the residual loop gathers three positions and their tangents per correspondence "
              "and direction, from scattered vertices, where in ht_simple it hardly counts",
              f"(R1 = {_x(f.r1)} here against {_x(simple.r1)} for ht_simple in this run)."
              if simple and simple.r1 is not None and f.r1 is not None else "."),
    )


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


BENCHMARKS = (
    Benchmark(
        name="taylorlog",
        what="f(x) = Σ_{i=1..N} x^i / i via `pow`, at x = 0.5 (read at run time); "
        "d/dx checked against (1 - x^N) / (1 - x)",
        n=10_000_000,
        size="N = 10,000,000",
        target_r1=1.1,
        enzyme_r1=0.97,
        notes=taylorlog_notes,
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
        notes=logsumexp_notes,
    ),
    Benchmark(
        name="matdescent",
        what="f(W) = ‖W v‖² with W N×N, W v in a temporary the objective mallocs and frees; "
        "gradient with respect to W checked against a hand-written C gradient (1e-9 relative, "
        "2-norm) and central differences, then 100 gradient-descent steps on W",
        n=2000,
        size="N = M = 2000",
        notes=matdescent_notes,
    ),
    Benchmark(
        name="nn",
        what="one dense layer 784→10, softmax, mean cross-entropy over a batch of synthetic "
        "data; gradient with respect to W (10×784) and b checked against a hand-written C "
        "gradient (1e-9 relative, 2-norm) and central differences",
        n=100,
        size="batch 100",
        notes=nn_notes,
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
        notes=ht_simple_notes,
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
        notes=ht_complicated_notes,
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
        notes=gmm_notes,
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
        notes=ba_notes,
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
        notes=lstm_notes,
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

    Builds `reps` times (from scratch each time, without the derivative cache) and reports the
    median time of each stage and of their sum: the compile time from source to a runnable
    gradient."""
    bench = BY_NAME[bench] if isinstance(bench, str) else bench
    outdir = outdir or BUILD_DIR / bench.prog
    outdir.mkdir(parents=True, exist_ok=True)
    stem = outdir / f"{bench.prog}.{variant.tag}"
    ll, obj, exe = (Path(f"{stem}{ext}") for ext in (".ll", ".o", ""))
    heap, heap_cmd = heapcount_object(outdir, timeout)
    cmds = [
        [clang(), variant.clang_level, "-S", "-emit-llvm", str(bench.source), "-o", str(ll)],
        [*xenzyme_opt(), str(ll), "-p", variant.pipeline, "-t", "obj", "-o", str(obj), "--no-cache"],
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


def section_for(bench: Benchmark, res: dict, env: dict, run: dict[str, dict] | None = None) -> str:
    """A benchmark's section of RESULTS.md; `run`: every benchmark's results in the same run, by
    name (its notes may compare with them)."""
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
    if bench.notes is not None:
        lines += [bench.notes(Figures(bench, res, run or {bench.name: res})), ""]
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


def summary_section(results: list[tuple[Benchmark, dict]], env: dict, compile_res: dict[str, dict] | None = None) -> str:
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
        "- compile time: source to runnable gradient (clang, xenzyme-opt without the derivative cache, "
        "cc); ÷ clang: `xenzyme-opt FILE.c -p enzyme -t obj` ÷ `clang-19 -O2 -c FILE.c`, and cached: the "
        "same command answered by the derivative cache (the section on compile time has the details).",
        "",
        "| benchmark | size | R1 | target | Enzyme | | R2 | R3 | compile time | ÷ clang | cached | gradient heap "
        "/ call | same, `enzyme{preopt=0}` from -O0 |",
        "|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    compile_res = compile_res or {}
    r3s = []
    for bench, res in results:
        if fatal_errors(res):
            lines.append(f"| {bench.name} | {bench.size} | FAILED | "
                         f"{fmt_target(bench.target_r1)} | {bench.enzyme_r1 or '–'} | | | | | | | | |")
            continue
        d = derived(res)
        r2 = ", ".join(f"{fmt_r(r)} ({t})" for t, r in d["r2"].items()) or "–"
        ct = res["builds"][MAIN.tag]["stage_s"]["total"]
        comp = compile_res.get(bench.prog, {})
        c_ratio = f"{comp['cold'] / comp['clang']:.1f}" if "cold" in comp else "–"
        c_warm = fmt_s(comp["warm"]) if "warm" in comp else "–"
        lines.append(f"| {bench.name} | {bench.size} | {fmt_r(d['r1'])} | "
                     f"{fmt_target(bench.target_r1)} | {bench.enzyme_r1 or '–'} | "
                     f"{verdict(d['r1'], bench.target_r1)} | {r2} | "
                     f"{'FAILED' if res['errors'] else fmt_r(d['r3'])} | {ct:.2f} s | {c_ratio} | {c_warm} | "
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


def mpi_section(samples: int) -> list[tuple[str, str]]:
    """The MPI benchmark's section (benchmarks/mpi_scaling.py), where OpenMPI is installed."""
    import mpi_scaling

    if not mpi_scaling.available():
        print("note: no mpirun: the MPI section of RESULTS.md is left as it is", file=sys.stderr)
        return []
    try:
        return [(mpi_scaling.NAME, mpi_scaling.run_all(samples))]
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
        print(f"\nmpi_heat2d: {e}", file=sys.stderr)
        return [(mpi_scaling.NAME, "## MPI: a distributed 2-D heat equation\n\nThe run failed: see the "
                 "output of `benchmarks/mpi_scaling.py`.")]


# ---------------------------------------------------------------------------------------------
# Parallel benchmarks (OpenMP)
# ---------------------------------------------------------------------------------------------
#
# OpenMP versions of logsumexp, GMM (parallel over points) and a 2-D stencil in time
# (benchmarks/c/omp_*.c with bench_omp.h).  One process per benchmark checks the gradient at
# each thread count of PAR_THREADS, then times the primal and the gradient at every count, the
# samples of all of them alternating.  Reported: gradient ÷ primal at each count, and each one's
# speed-up from the first count to the last; the goals are gradient ÷ primal at 2 threads at
# most PAR_GOAL_GROWTH times the same ratio at 1 thread, and the gradient's speed-up at least
# PAR_GOAL_SHARE of the primal's.  Each program is also built with -DBENCH_PRIMAL_ONLY (no
# derivative request): its generated code is the baseline of the construct census below, and
# when the full program cannot be built (xenzyme cannot differentiate it) it is run instead, so
# that the primal's figures are reported beside the error.

PAR_THREADS = (1, 2)
PAR_GOAL_GROWTH = 1.25
PAR_GOAL_SHARE = 0.8
PRIMAL_ONLY = Variant("O2-primal", "-O2", "enzyme",
                      "clang -O2 IR, `enzyme`, built with -DBENCH_PRIMAL_ONLY (no derivative request)")  # fmt: skip


@dataclass(frozen=True)
class ParallelBenchmark:
    name: str
    what: str
    n: int
    size: str
    input: str = ""
    reads: str = ""
    """What the derivative has to do in parallel, in words: who reads what (no figures)."""

    @property
    def source(self) -> Path:
        return C_DIR / f"{self.name}.c"

    @property
    def input_path(self) -> Path | None:
        return DATA_DIR / self.input if self.input else None


PARALLEL = (
    ParallelBenchmark(
        name="omp_logsumexp",
        what="logsumexp in one OpenMP region: `omp for reduction(max : A)`, then `omp for "
        "reduction(+ : s)` over N doubles uniform in [-4, 4); gradient checked against the "
        "softmax computed in C (1e-9 relative, 2-norm) at each thread count",
        n=10_000_000,
        size="N = 10,000,000",
        reads="Each iteration reads only its own element, so in the reverse sweep each thread "
        "writes only the shadows of its own iterations; what is shared is the adjoint of the two "
        "reduction variables: that of s is the same for every element, and that of A goes to "
        "the element that held the maximum (on one thread).",
    ),
    ParallelBenchmark(
        name="omp_gmm",
        input="gmm/gmm_10k_d10_K25.txt",
        what="ADBench GMM with its loop over points an `omp for reduction(+)` (per-thread "
        "temporaries malloc'd in the region); full gradient by one `__enzyme_autodiff` call, "
        "checked against central differences along 3 random directions (1e-5 relative) at "
        "each thread count",
        n=10_000,
        size="d = 10, K = 25, n = 10,000: 1,650 parameters",
        reads="Every point reads every parameter (weights, means, inverse-covariance factors), "
        "so every thread adds into the adjoint of every parameter: 1,650 shared addresses, "
        "updated by all 10,000 iterations.",
    ),
    ParallelBenchmark(
        name="omp_stencil",
        what="explicit reaction-diffusion steps on an N × N grid (five-point Laplacian, cubic "
        "reaction, fixed boundary), 50 steps of one `parallel for` over the rows each, then a "
        "weighted energy (reduction); gradient with respect to the initial grid and the "
        "diffusion coefficient, checked against central differences along 3 random directions "
        "(1e-5 relative) at each thread count",
        n=256 * 256,
        size="256 × 256 grid (N = 65,536 cells), 50 steps",
        reads="Each grid value is read by the iterations of its own row and of the rows above and "
        "below it, so in the reverse sweep the shadows of the rows at the edges of a thread's "
        "block receive adjoints from two threads; the coefficient r is read by every iteration. "
        "The steps overwrite the grid, so the reverse sweep needs every step's grid back.",
    ),
)
PARALLEL_BY_NAME = {b.name: b for b in PARALLEL}


def build_parallel(bench: ParallelBenchmark, variant: Variant, outdir: Path, *, reps: int = 1,
                   timeout: float = 300) -> Build:  # fmt: skip
    """An OpenMP benchmark program: clang-19 -fopenmp → xenzyme-opt → clang-19 -fopenmp (which
    links libomp), `reps` times (the median of each stage is the compile time); the primal-only
    variant with -DBENCH_PRIMAL_ONLY.  Also writes xenzyme-opt's LLVM IR of the program
    (`NAME.VARIANT.xz.ll`, outside the timed stages) for the construct census."""
    outdir.mkdir(parents=True, exist_ok=True)
    stem = outdir / f"{bench.name}.{variant.tag}"
    ll, obj, exe, xz_ll = (Path(f"{stem}{ext}") for ext in (".ll", ".o", "", ".xz.ll"))
    heap, heap_cmd = heapcount_object(outdir, timeout)
    defines = ["-DBENCH_PRIMAL_ONLY"] if variant is PRIMAL_ONLY else []
    cmds = [
        [clang(), variant.clang_level, "-fopenmp", *defines, "-S", "-emit-llvm", str(bench.source), "-o", str(ll)],
        [*xenzyme_opt(), str(ll), "-p", variant.pipeline, "-t", "obj", "-o", str(obj)],
        [clang(), str(obj), str(heap), *HEAPCOUNT_LDFLAGS, "-fopenmp", "-lm", "-o", str(exe)],
    ]
    stages = ("clang", "xenzyme-opt", "cc")
    times: dict[str, list[float]] = {s: [] for s in (*stages, "total")}
    for _ in range(max(1, reps)):
        for f in (ll, obj, exe):
            f.unlink(missing_ok=True)
        total = 0.0
        for stage, cmd in zip(stages, cmds, strict=True):
            t0 = time.perf_counter()
            _run(cmd, timeout=timeout)
            times[stage].append(time.perf_counter() - t0)
            total += times[stage][-1]
        times["total"].append(total)
    _run([*xenzyme_opt(), str(ll), "-p", variant.pipeline, "-t", "llvm", "-o", str(xz_ll)], timeout=timeout)
    if variant is not PRIMAL_ONLY:
        _run([*xenzyme_opt(), str(ll), "-p", REVERSE_STAGES, "-t", "mlir", "-o", f"{stem}.reverse.mlir"], timeout=timeout)
    return Build(exe=exe, commands=[_short(c) for c in (heap_cmd, *cmds)],
                 stage_s={k: statistics.median(v) for k, v in times.items()}, reps=max(1, reps))  # fmt: skip


REVERSE_STAGES = "llvm-opt{level=2 strip-optnone=true},raise-enzyme-calls,raise-openmp,reverse-diff"
"""The `enzyme` pipeline up to the reverse sweep, whose output the accumulation census reads."""


def accumulation_census(mlir: str) -> dict[str, int]:
    """How the reverse of the parallel regions adds adjoints into memory: the
    `autodiff.accumulate` ops of the regions' reverse functions (written in the code, not
    executed) by kind -- plainly into shared memory (addresses each owned by one iteration),
    into a thread's partial sum (added atomically once per thread at the end), into a thread's
    window of shadow memory (`xenzyme.window.add`: each element touched added atomically once
    per thread at the end), atomically --
    leaving out those into the function's own stack slots (adjoints of values)."""
    counts = {"plain": 0, "partial": 0, "window": 0, "atomic": 0}
    stack: set[str] = set()
    in_reverse = False
    for line in mlir.splitlines():
        s = line.strip()
        if s.startswith("llvm.func"):
            in_reverse, stack = re.search(r"@\"?reverse_\S*omp_outlined", s) is not None, set()
        elif in_reverse and (m := re.match(r"(%[\w.]+) = llvm\.alloca", s)):
            stack.add(m.group(1))
        elif in_reverse and s.startswith("llvm.call @xenzyme.window.add."):
            counts["window"] += 1
        elif in_reverse and (m := re.match(r"autodiff\.accumulate (%[\w.]+),", s)):
            if m.group(1).startswith("%partial"):
                counts["partial"] += 1
            elif " atomic" in s:
                counts["atomic"] += 1
            elif m.group(1) not in stack:
                counts["plain"] += 1
    return counts


CENSUS = {
    "regions": re.compile(r"call\b.*@__kmpc_fork_call\("),
    "atomics": re.compile(r"\batomicrmw\b|\bcmpxchg\b"),
    "critical sections": re.compile(r"call\b.*@__kmpc_critical(_with_hint)?\("),
    "barriers": re.compile(r"call\b.*@__kmpc_barrier\("),
    "allocations": re.compile(r"call\b.*@(malloc|calloc|realloc)\("),
}
"""What the construct census counts in a module's LLVM IR, a line each."""


def census(ll_text: str) -> dict[str, int]:
    """The parallel constructs of a module (its LLVM IR text): regions forked, atomic
    read-modify-writes (`atomicrmw`, compare-exchange loops), critical sections (lower-par
    also combines reductions in one), barriers, and heap allocation calls."""
    lines = [ln for ln in ll_text.splitlines() if not ln.lstrip().startswith(("declare", ";"))]
    return {k: sum(1 for ln in lines if rx.search(ln)) for k, rx in CENSUS.items()}


def run_parallel_benchmark(bench: ParallelBenchmark, progress: Progress, *, n: int, samples: int,
                           compile_reps: int, threads: tuple[int, ...] = PAR_THREADS) -> dict:  # fmt: skip
    """Build (primal-only and full), check and time one OpenMP benchmark; its results."""
    res: dict = {"name": bench.name, "n": n, "samples": samples, "threads": list(threads), "builds": {},
                 "runs": {}, "census": {}, "errors": []}  # fmt: skip
    outdir = BUILD_DIR / bench.name
    env = {"XENZYME_BENCH_THREADS": ",".join(map(str, threads))}
    if bench.input:
        env["XENZYME_BENCH_INPUT"] = str(bench.input_path)
    builds: dict[str, Build] = {}
    for v in (PRIMAL_ONLY, MAIN):
        reps = compile_reps if v is MAIN else 1
        with progress.step(f"{bench.name}: build {v.label}{f' x{reps}' if reps > 1 else ''}") as st:
            try:
                b = builds[v.tag] = build_parallel(bench, v, outdir, reps=reps)
            except BenchError as e:
                what = "the gradient" if v is MAIN else "the primal"
                res["errors"].append(f"build {v.tag} ({what}): {e}")
                st.fail("(see errors)")
                continue
            res["builds"][v.tag] = {"commands": b.commands, "stage_s": b.stage_s, "reps": b.reps}
            res["census"][v.tag] = census(Path(f"{outdir / bench.name}.{v.tag}.xz.ll").read_text())
            if v is MAIN:
                res["accumulation"] = accumulation_census(Path(f"{outdir / bench.name}.{v.tag}.reverse.mlir").read_text())
            st.note = f"(source → program {b.stage_s['total']:.2f} s)"
    # The full program when it was built, else the primal alone.
    tag = MAIN.tag if MAIN.tag in builds else PRIMAL_ONLY.tag
    counts = " and ".join(map(str, threads))
    with progress.step(f"{bench.name}: run {'' if tag == MAIN.tag else 'primal only, '}at {counts} threads") as st:
        if tag not in builds:
            st.fail("(not built)")
            return res
        try:
            recs = run_program(builds[tag].exe, n, samples, env=env, timeout=600)
        except BenchError as e:
            res["errors"].append(f"run {tag}: {e}")
            st.fail("(see errors)")
            return res
        res["runs"][tag] = recs
        chk = pick(recs, "check")
        d = parallel_derived(res)
        if not chk or not chk.get("ok"):
            res["errors"].append(f"run {tag}: check failed: {chk}")
            st.fail("(check FAILED)")
        elif tag != MAIN.tag:
            speedup = d["speedup_primal"]
            st.fail(f"(no gradient; primal speed-up {fmt_r(speedup)})" if speedup else "(no gradient)")
        else:
            st.note = "(gradient ÷ primal " + ", ".join(f"{fmt_r(d['ratio'][t])} at {t}" for t in threads) + ")"
    return res


def parallel_derived(res: dict) -> dict:
    """Times per thread count and the ratios the section reports (None where missing)."""
    threads = res.get("threads", list(PAR_THREADS))
    recs = res["runs"].get(MAIN.tag) or res["runs"].get(PRIMAL_ONLY.tag) or []
    p = {t: pick(recs, "time", f"primal@{t}") for t in threads}
    g = {t: pick(recs, "time", f"gradient@{t}") for t in threads}
    lo, hi = threads[0], threads[-1]
    out: dict = {"threads": threads, "lo": lo, "hi": hi, "primal": p, "gradient": g,
                 "ratio": {t: ratio(g[t], p[t]) for t in threads},
                 "ratio_min": {t: ratio(g[t], p[t], "min_s") for t in threads},
                 "speedup_primal": ratio(p[lo], p[hi]), "speedup_gradient": ratio(g[lo], g[hi])}  # fmt: skip
    r_lo, r_hi = out["ratio"][lo], out["ratio"][hi]
    out["growth"] = r_hi / r_lo if r_lo and r_hi is not None else None
    sp, sg = out["speedup_primal"], out["speedup_gradient"]
    out["share"] = sg / sp if sp and sg is not None else None
    return out


def _goal(value: float | None, target: float, at_most: bool) -> str:
    if value is None:
        return "–"
    return "met" if (value <= target if at_most else value >= target) else "**missed**"


def parallel_section(bench: ParallelBenchmark, res: dict, env: dict) -> str:
    """A parallel benchmark's section of RESULTS.md."""
    d = parallel_derived(res)
    lo, hi = d["lo"], d["hi"]
    counts = " and ".join(map(str, d["threads"]))
    lines = [f"## {bench.name}", "", f"{bench.what}. {bench.size}.", ""]
    lines += env_lines(env)
    lines += [f"- `.venv/bin/python benchmarks/run.py {bench.name}`: one process checks the derivative "
              f"at {counts} threads, then times primal and gradient at each count "
              f"(`omp_set_num_threads` before each call); a sample repeats the call until it lasts "
              f"≥ 50 ms; after a warm-up, {res['samples']} samples of each, the samples of all of them "
              "taken in alternation; times are per call.", ""]  # fmt: skip
    main_run = res["runs"].get(MAIN.tag)
    primal_run = res["runs"].get(PRIMAL_ONLY.tag)
    if not main_run:
        lines += ["**No gradient figures: the gradient program could not be built or run.**", "", "```"]
        lines += [e.replace(f"{REPO}/", "") for err in res["errors"] for e in err.splitlines()]
        lines += ["```", ""]
        if not primal_run:
            return "\n".join(lines).rstrip() + "\n"
        lines += ["The primal alone (built with `-DBENCH_PRIMAL_ONLY`, through the same pipeline):", ""]
    chk = pick(main_run or primal_run, "check")
    if chk:
        lines += [f"Check (before timing): relative error {chk['rel_err']:.2g} against {chk['against']} "
                  f"(tolerance {chk['tol']:.0e}): {'passed' if chk['ok'] else '**failed**'}.", ""]  # fmt: skip
    if main_run:
        lines += ["| threads | primal median (min) | gradient median (min) | gradient ÷ primal "
                  "| gradient heap / call |", "|---:|---:|---:|---:|---:|"]  # fmt: skip
        for t in d["threads"]:
            p, g = d["primal"][t], d["gradient"][t]
            lines.append(f"| {t} | {fmt_s(p and p['median_s'])} ({fmt_s(p and p['min_s'])}) | "
                         f"{fmt_s(g and g['median_s'])} ({fmt_s(g and g['min_s'])}) | {fmt_r(d['ratio'][t])} | "
                         f"{fmt_heap(g)} |")  # fmt: skip
        lines.append(f"| speed-up {lo} → {hi} | {fmt_r(d['speedup_primal'])} | {fmt_r(d['speedup_gradient'])} | | |")
        lines += ["", "| goal | this run | target | |", "|---|---:|---:|---|",
                  f"| gradient ÷ primal at {hi} threads ÷ the same at {lo} | {fmt_r(d['growth'])} | "
                  f"≤ {PAR_GOAL_GROWTH} | {_goal(d['growth'], PAR_GOAL_GROWTH, True)} |",
                  f"| gradient's speed-up ÷ primal's ({lo} → {hi} threads) | {fmt_r(d['share'])} | "
                  f"≥ {PAR_GOAL_SHARE} | {_goal(d['share'], PAR_GOAL_SHARE, False)} |"]  # fmt: skip
    else:
        lines += ["| threads | primal median (min) |", "|---:|---:|"]
        lines += [f"| {t} | {fmt_s(p and p['median_s'])} ({fmt_s(p and p['min_s'])}) |"
                  for t, p in d["primal"].items()]  # fmt: skip
        lines.append(f"| speed-up {lo} → {hi} | {fmt_r(d['speedup_primal'])} |")
    b = res["builds"].get(MAIN.tag) or res["builds"].get(PRIMAL_ONLY.tag)
    if b:
        st = b["stage_s"]
        what = "gradient" if MAIN.tag in res["builds"] else "primal-only program"
        builds = f"median of {b['reps']} builds" if b["reps"] > 1 else "one build"
        lines += ["", f"Compile time, source to runnable {what} ({builds}): "
                  f"**{st['total']:.2f} s** = clang {st['clang']:.2f} s + xenzyme-opt {st['xenzyme-opt']:.2f} s "
                  f"+ link {st['cc']:.2f} s."]  # fmt: skip
    if bench.input:
        lines += ["", f"Input: `benchmarks/data/{bench.input}` (ADBench's, MIT licence: `LICENSE.ADBench.txt` "
                  "beside it), handed to the program as `$XENZYME_BENCH_INPUT`."]  # fmt: skip
    lines += ["", "Commands:", "", "```"]
    for tag in (PRIMAL_ONLY.tag, MAIN.tag):
        if tag in res["builds"]:
            lines += [c for c in res["builds"][tag]["commands"] if c not in lines]
    lines += ["```", "", parallel_notes(bench, res), ""]
    return "\n".join(lines).rstrip() + "\n"


def accumulation_text(acc: dict[str, int] | None) -> str | None:
    """The accumulation census in words."""
    if not acc or not any(acc.values()):
        return None
    return (f"In the reverse of its regions the derivative adds adjoints into shared memory with {acc['plain']} "
            f"plain additions (addresses each owned by one iteration), {acc['partial']} additions into "
            f"thread-private partial sums (each added atomically once per thread at the end), "
            f"{acc.get('window', 0)} additions into thread-private windows of shadow memory (each element "
            f"touched added atomically once per thread at the end) and "
            f"{acc['atomic']} atomic additions (operations written in the code, counted in reverse-diff's "
            f"output, not executions)")


def parallel_notes(bench: ParallelBenchmark, res: dict) -> str:
    """What the section's figures say, from the run's own figures only."""
    d = parallel_derived(res)
    lo, hi = d["lo"], d["hi"]
    r_lo, r_hi, growth, share = d["ratio"][lo], d["ratio"][hi], d["growth"], d["share"]
    sp, sg = d["speedup_primal"], d["speedup_gradient"]
    base, full = res["census"].get(PRIMAL_ONLY.tag), res["census"].get(MAIN.tag)
    added = {k: full[k] - base.get(k, 0) for k in full} if base and full else None
    census_text = None
    if added is not None:
        parts = [f"{v} {k if v != 1 else k[:-1]}" for k, v in added.items() if v]
        listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0] if parts else None
        census_text = ("In the generated code (xenzyme-opt's LLVM IR of the program, counted, less the "
                       "primal-only program's) the derivative adds " + listed + ": an atomic is an adjoint "
                       "added into shared memory update by update, a critical section combines partial "
                       "adjoints once per thread (lower-par also combines each reduction in one)"
                       if listed else "The derivative adds no parallel construct to the generated code "
                       "(xenzyme-opt's LLVM IR of the program, counted, less the primal-only program's)")  # fmt: skip
    cells = math.isqrt(res["n"]) ** 2 if bench.name == "omp_stencil" else None
    return _note(
        _says(bench.reads,
              f"Keeping the 50 steps' grids takes {_bytes_of(8 * 50 * cells)} for this grid." if cells else None),
        _says(f"At {lo} thread the gradient costs {_x(r_lo)} primals, at {hi} threads {_x(r_hi)}:"
              if r_lo is not None and r_hi is not None else None,
              (f"the ratio grows by a factor {_x(growth)}" if growth >= 1 else
               f"the ratio falls by a factor {_x(1 / growth)}") +
              f" from {lo} to {hi} threads (goal: at most {PAR_GOAL_GROWTH}; "
              f"{_goal(growth, PAR_GOAL_GROWTH, True).strip('*')})." if growth is not None else None,
              f"From {lo} to {hi} threads the primal {_faster(sp)}, the gradient {_faster(sg)}: its speed-up is "
              f"{_x(share)} of the primal's (goal: at least {PAR_GOAL_SHARE}; "
              f"{_goal(share, PAR_GOAL_SHARE, False).strip('*')})." if sp and sg and share is not None else None,
              f"Only the primal ran in this run; from {lo} to {hi} threads it {_faster(sp)}."
              if sp and sg is None else None),
        _end(census_text),
        _end(accumulation_text(res.get("accumulation"))),
        "On a machine shared with other work the speed-ups measure the cores the processes got as much "
        "as the code; the ratios taken within one process (gradient ÷ primal at one count) are the "
        "steadier figures." if sp is not None and sg is not None else None,
    )


def _faster(speedup: float) -> str:
    """`runs 1.85 times as fast`, or `takes 1.20 times as long` for a speed-up below 1."""
    return f"runs {_x(speedup)} times as fast" if speedup >= 1 else f"takes {_x(1 / speedup)} times as long"


def parallel_summary_section(results: list[tuple[ParallelBenchmark, dict]], env: dict) -> str:
    lines = ["## Parallel gradients (OpenMP): summary (`benchmarks/run.py`)", ""]
    lines += env_lines(env)
    lines += [f"- per benchmark, one process times primal and gradient at {' and '.join(map(str, PAR_THREADS))} "
              "threads, samples alternating; goals: gradient ÷ primal at 2 threads at most "
              f"{PAR_GOAL_GROWTH} × the same at 1 thread, the gradient's 1 → 2 speed-up at least "
              f"{PAR_GOAL_SHARE} × the primal's.", "",
              "| benchmark | size | gradient ÷ primal, 1 thread | 2 threads | growth (≤ 1.25) | primal speed-up "
              "| gradient speed-up | gradient ÷ primal speed-up (≥ 0.8) |",
              "|---|---|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for bench, res in results:
        d = parallel_derived(res)
        if not res["runs"].get(MAIN.tag):
            lines.append(f"| {bench.name} | {bench.size} | FAILED | | | {fmt_r(d['speedup_primal'])} | | |")
            continue
        lo, hi = d["lo"], d["hi"]
        lines.append(f"| {bench.name} | {bench.size} | {fmt_r(d['ratio'][lo])} | {fmt_r(d['ratio'][hi])} | "
                     f"{fmt_r(d['growth'])} {_goal(d['growth'], PAR_GOAL_GROWTH, True)} | "
                     f"{fmt_r(d['speedup_primal'])} | {fmt_r(d['speedup_gradient'])} | "
                     f"{fmt_r(d['share'])} {_goal(d['share'], PAR_GOAL_SHARE, False)} |")  # fmt: skip
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------------------------------------
# Compile time and the derivative cache (section `bench-compile`)
# ---------------------------------------------------------------------------------------------
#
# Each program's C file is compiled, in alternation and `reps` times each, by `clang-19 -O2 -c`
# (the reference), by `xenzyme-opt FILE.c -p enzyme -t obj` without the cache (cold) and with
# the cache holding the result (warm), and `python -c pass` is timed beside them (the
# interpreter's start-up, which no warm command can beat).  The Python API is timed in fresh
# processes: `xz.compile(FILE.c)` (the program's own derivative requests) and `xz.gradient` of
# one function, cold (an empty cache) and warm (a second process, the cache filled), each from
# the call to its return, after `import xenzyme.api`.  One further compile, run in-process by
# benchmarks/compile_profile.py, says where the cold compile's time goes (CPU time by stage).

COMPILE_PROGRAMS = ("taylorlog", "logsumexp", "matdescent", "nn", "gmm", "ba", "lstm", "ht_simple",
                    "ht_complicated")  # fmt: skip
COMPILE_GOALS = {"taylorlog": 3.0, "logsumexp": 3.0, "matdescent": 3.0, "nn": 3.0, "gmm": 5.0, "ba": 5.0,
                 "lstm": 5.0}  # fmt: skip
"""xenzyme-opt ÷ clang -O2 -c, cold: the goals."""
API_GRADIENTS = {"logsumexp": ("logsumexp", ["dup", "const"])}
"""Functions whose `xz.gradient` is timed, with their activities."""
WARM_API_GOAL_S = 0.050
STARTUP = "python -c pass"

_API_TIMER = """\
import json, sys, time
import xenzyme.api as xz
src, what = sys.argv[1], sys.argv[2]
t = time.perf_counter()
if what == "compile":
    xz.compile(src)
else:
    xz.gradient(src, what, json.loads(sys.argv[3]))
print(json.dumps({"seconds": time.perf_counter() - t}))
"""


def _timed(cmd: list[str], env: dict | None = None, timeout: float = 600) -> tuple[float, float, float]:
    """Run `cmd`: (wall seconds, CPU seconds of it and its children, peak resident MB)."""
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    except OSError as e:
        raise BenchError(f"cannot run {' '.join(cmd)}: {e}") from e
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise BenchError(f"exit status {proc.returncode}: {' '.join(cmd)}\n{err[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def compiled_bytecode() -> None:
    """Byte-compile xenzyme's modules into their `__pycache__`, as installing a package does,
    before compile times are taken: where `PYTHONDONTWRITEBYTECODE` is set (or the tree is
    fresh), every run would otherwise compile a hundred modules from source, about 0.15 s of
    CPU, which is no part of what an installed xenzyme-opt does."""
    _run([sys.executable, "-m", "compileall", "-q", str(REPO / "xenzyme")], timeout=600)


def compile_profile(args: list[str], env: dict | None = None, timeout: float = 1200) -> dict:
    """benchmarks/compile_profile.py on `args` (xenzyme-opt's command line): CPU time by stage."""
    r = _run([sys.executable, str(BENCH_DIR / "compile_profile.py"), *args, "--json"], timeout=timeout, env=env)
    return json.loads(r.stdout.strip().splitlines()[-1])


def compile_times(prog: str, outdir: Path, reps: int) -> dict:
    """The compile-time figures of one program (see the comment above)."""
    import tempfile

    src = C_DIR / f"{prog}.c"
    obj = outdir / f"{prog}.compile.o"
    cache = Path(tempfile.mkdtemp(prefix="xenzyme-bench-cache-"))
    env = {**os.environ, "XENZYME_CACHE_DIR": str(cache)}
    xz = [*xenzyme_opt(), str(src), "-p", "enzyme", "-t", "obj", "-o", str(obj)]
    try:
        _timed(xz, env)  # fills the cache (and warms the file system) before anything is timed
        runs: dict[str, list[tuple[float, float, float]]] = {"clang": [], "cold": [], "warm": [], "startup": []}
        for _ in range(max(1, reps)):
            runs["clang"].append(_timed([clang(), "-O2", "-c", str(src), "-o", str(outdir / f"{prog}.clang.o")]))
            runs["cold"].append(_timed([*xz, "--no-cache"], env))
            runs["warm"].append(_timed(xz, env))
            runs["startup"].append(_timed([sys.executable, "-c", "pass"]))
        times = {k: [w for w, _, _ in v] for k, v in runs.items()}
        times.update({f"{k}_cpu": [c for _, c, _ in v] for k, v in runs.items()})
        out: dict = {k: statistics.median(v) for k, v in times.items()}
        out["reps"] = max(1, reps)
        api: dict[str, dict[str, float]] = {}
        calls = [("xz.compile", ["compile"])]
        if prog in API_GRADIENTS:
            fn, acts = API_GRADIENTS[prog]
            calls.append((f"xz.gradient({fn})", [fn, json.dumps(acts)]))
        for label, extra in calls:
            fresh = Path(tempfile.mkdtemp(prefix="xenzyme-bench-cache-"))
            api_env = {**os.environ, "XENZYME_CACHE_DIR": str(fresh), "PYTHONPATH": str(REPO)}
            runs = []
            for _ in range(2):  # cold, then warm
                r = _run([sys.executable, "-c", _API_TIMER, str(src), *extra], timeout=600, env=api_env)
                runs.append(json.loads(r.stdout.strip().splitlines()[-1])["seconds"])
            shutil.rmtree(fresh, ignore_errors=True)
            api[label] = {"cold": runs[0], "warm": runs[1]}
        out["api"] = api
        out["profile"] = compile_profile([str(src), "-p", "enzyme", "-t", "obj", "-o", str(obj)], env)
        return out
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _seconds(values: list[float]) -> str | None:
    """`0.04-0.06 s` (or one value) of the times there are."""
    vs = sorted(values)
    if not vs:
        return None
    lo, hi = fmt_s(vs[0]), fmt_s(vs[-1])
    return lo if lo == hi else f"{lo.removesuffix(' s').removesuffix(' ms')}-{hi}" if lo[-2:] == hi[-2:] else f"{lo}-{hi}"


def _stage_list(stages: dict[str, float], total: float, n: int = 3) -> str:
    top = sorted(stages.items(), key=lambda kv: -kv[1])[:n]
    return ", ".join(f"{name} {v:.2f} s ({100 * v / total:.0f} %)" for name, v in top)


def compile_section(results: dict[str, dict], env: dict) -> str:
    lines = ["## Compile time and the derivative cache (`benchmarks/run.py --only compile`)", ""]
    lines += env_lines(env)
    lines += [
        "- Each program's C file, in alternation: `clang-19 -O2 -c FILE.c` (the reference), "
        "`xenzyme-opt FILE.c -p enzyme -t obj` without the cache (`--no-cache`: cold) and with "
        "the cache holding its result (warm), and `python -c pass` (the interpreter's start-up); "
        "medians of the runs; ratio = cold ÷ clang, in wall time and in CPU time (of each command's "
        "processes and their children: the machine is shared, and CPU time is what other processes "
        "change least). xenzyme's modules are byte-compiled first, as an installed package's are.",
        "- The Python API, in fresh processes after `import xenzyme.api`: `xz.compile(FILE.c)` "
        "(the program with its own derivative requests) and `xz.gradient` of a function, with an "
        "empty cache (cold) and in a second process with the cache filled (warm).",
        "",
        "| program | clang -O2 -c | xenzyme-opt, cold | ratio | CPU: clang / xenzyme-opt | ratio | goal | | "
        "warm (cache) | start-up | xz.compile cold / warm | xz.gradient cold / warm |",
        "|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    ratios = []
    for prog, r in results.items():
        if "error" in r:
            lines.append(f"| {prog} | FAILED | | | | | | | | | |")
            continue
        ratio_ = r["cold"] / r["clang"]
        ratios.append(ratio_)
        goal = COMPILE_GOALS.get(prog)
        api = r["api"]
        comp = api.get("xz.compile")
        grad = next((v for k, v in api.items() if k.startswith("xz.gradient")), None)
        cpu_ratio = r["cold_cpu"] / r["clang_cpu"]
        lines.append(
            f"| {prog} | {fmt_s(r['clang'])} | {fmt_s(r['cold'])} | {ratio_:.1f} | {fmt_s(r['clang_cpu'])} / "
            f"{fmt_s(r['cold_cpu'])} | {cpu_ratio:.1f} | {'≤ ' + str(goal) if goal else '–'} | "
            f"{verdict(ratio_, goal) if goal else ''} | {fmt_s(r['warm'])} | {fmt_s(r['startup'])} | "
            f"{fmt_s(comp['cold']) + ' / ' + fmt_s(comp['warm']) if comp else '–'} | "
            f"{fmt_s(grad['cold']) + ' / ' + fmt_s(grad['warm']) if grad else '–'} |")
    lines += ["", compile_notes(results)]
    return "\n".join(lines).rstrip() + "\n"


def compile_notes(results: dict[str, dict]) -> str:
    """What the compile-time table says, from its own figures."""
    ok = {p: r for p, r in results.items() if "error" not in r}
    if not ok:
        return "No program compiled in this run."
    ratios = {p: r["cold"] / r["clang"] for p, r in ok.items()}
    cpu_ratios = {p: r["cold_cpu"] / r["clang_cpu"] for p, r in ok.items()}
    met = [p for p, x in ratios.items() if p in COMPILE_GOALS and x <= COMPILE_GOALS[p]]
    missed = [p for p, x in ratios.items() if p in COMPILE_GOALS and x > COMPILE_GOALS[p]]
    geo = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios))
    geo_cpu = math.exp(sum(math.log(x) for x in cpu_ratios.values()) / len(cpu_ratios))
    warm_over_start = [r["warm"] / r["startup"] for r in ok.values() if r["startup"]]
    paragraphs = [_says(
        f"Cold, xenzyme-opt takes {_range(list(ratios.values()))} times clang's -O2 compile of the same file "
        f"(geometric mean {geo:.1f}; in CPU time {_range(list(cpu_ratios.values()))}, geometric mean {geo_cpu:.1f}); "
        f"the goals are met for {', '.join(met) if met else 'none of the programs'}"
        + (f" and missed for {', '.join(missed)}." if missed else "."),
        f"Warm, the cache answers in {_seconds([r['warm'] for r in ok.values()])}, "
        f"{_range(warm_over_start)} times the interpreter's bare start-up: the command reads the entry "
        "before importing xDSL or LLVM (C sources are known by a manifest of clang's inputs, so clang "
        "does not run either).",
    )]
    named: set[str] = set()
    for p, r in ok.items():
        prof = r.get("profile")
        if not prof:
            continue
        st, total = prof["stages"], prof["total"]
        paragraphs.append(f"Where {p}'s cold compile goes (CPU, {total:.2f} s in all): {_stage_list(st, total)}.")
        named |= {name for name, _ in sorted(st.items(), key=lambda kv: -kv[1])[:3]}
    paragraphs += [f"- {name}: {STAGE_WHAT[name]}." for name in sorted(named) if name in STAGE_WHAT]
    api = [(p, k, v) for p, r in ok.items() for k, v in r["api"].items()]
    warm_api = [v["warm"] for _, _, v in api]
    if warm_api:
        paragraphs.append(
            f"The Python API loads a cached derivative in {_seconds(warm_api)} (goal: {WARM_API_GOAL_S * 1e3:.0f} ms, "
            f"{'met' if max(warm_api) <= WARM_API_GOAL_S else 'missed'} in this run): the entry holds the object code, "
            "loaded into the JIT, and what the callable checks its arguments against."
        )
    return _note(*paragraphs)


# ---------------------------------------------------------------------------------------------
# Linear growth: straight-line functions of N statements (section `bench-growth`)
# ---------------------------------------------------------------------------------------------

GROWTH_SIZES = (250, 500, 1000, 2000, 4000)
STAGE_WHAT = {
    "LLVM": "LLVM's -O2 pipeline before differentiation, its -O3 pipeline after and code generation, in "
            "child processes",
    "reverse-diff": "the differentiation engine, which with the minimum cut builds a gradient whose reverse sweep "
                    "needs cached values twice, once recording which primal values it needs and once with the caches "
                    "the cut chose (others once), every op an xDSL object",
    "lower-autodiff": "the lowering of the engine's caches and adjoint accumulations to LLVM operations",
    "export": "printing the xDSL module as LLVM IR",
    "import": "reading LLVM IR into xDSL",
    "Python": "the interpreter's start-up, the imports of xDSL and xenzyme, and the work outside the stages",
    "clang": "clang-19 -O2 compiling the C file to LLVM IR (the frontend)",
    "other passes": "raise-enzyme-calls, raise-openmp, forward-diff and lower-par",
}
"""What each stage of benchmarks/compile_profile.py is, for the notes."""
GROWTH_GOALS = {1000: 5.0, 4000: 20.0}
"""Seconds, wall: the goals for N = 1,000 and 4,000."""
GROWTH_DOUBLING = 2.2


def straight_line_source(n: int) -> str:
    """A function of `n` statements `s = s*0.999 + sin(x[i])*x[j]/(1 + s*s)` (about 8 LLVM
    instructions each at -O2) and its gradient by `__enzyme_autodiff`."""
    body = "\n".join(f"  s = s * 0.999 + sin(x[{k}]) * x[{k + 1}] / (1 + s * s);" for k in range(n))
    return ("#include <math.h>\nextern double __enzyme_autodiff(void *, ...);\nextern int enzyme_dup;\n"
            f"double f(const double *x) {{\n  double s = 0.5;\n{body}\n  return s;\n}}\n"
            "void grad_f(const double *x, double *dx) { __enzyme_autodiff((void *)f, enzyme_dup, x, dx); }\n")  # fmt: skip


def growth(sizes: tuple[int, ...], outdir: Path, progress: Progress) -> list[dict]:
    """Per N: the primal's LLVM instructions, clang -O2 -c's time, and the cold compile's wall
    and CPU time, peak memory and stages (benchmarks/compile_profile.py)."""
    outdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in sizes:
        with progress.step(f"growth: N = {n}") as st:
            src = outdir / f"straight{n}.c"
            src.write_text(straight_line_source(n))
            row: dict = {"n": n}
            try:
                ll = outdir / f"straight{n}.ll"
                _run([clang(), "-O2", "-S", "-emit-llvm", str(src), "-o", str(ll)], timeout=600)
                text = ll.read_text()
                body = text[text.index("define dso_local double @f("):]
                row["instructions"] = sum(1 for line in body[: body.index("\n}")].splitlines() if line.startswith("  "))
                row["clang"] = _timed([clang(), "-O2", "-c", str(src), "-o", str(outdir / f"straight{n}.clang.o")])[0]
                row["profile"] = compile_profile([str(src), "-p", "enzyme", "-t", "obj", "-o",
                                                  str(outdir / f"straight{n}.o")], timeout=3600)  # fmt: skip
                st.note = f"({row['profile']['wall']:.1f} s, {row['profile']['peak_rss_mb']:.0f} MB)"
            except BenchError as e:
                row["error"] = str(e)
                st.fail("(see errors)")
            rows.append(row)
    return rows


def growth_section(rows: list[dict], env: dict) -> str:
    lines = ["## Compile time that grows linearly (`benchmarks/run.py --only growth`)", ""]
    lines += env_lines(env)
    lines += [
        "- A function of N straight-line statements `s = s*0.999 + sin(x[i])*x[i+1]/(1 + s*s)` and "
        "its gradient by `__enzyme_autodiff` (`straight_line_source` in benchmarks/run.py), compiled "
        "once per N by `xenzyme-opt FILE.c -p enzyme -t obj --no-cache` in-process under "
        "benchmarks/compile_profile.py (wall time from the interpreter's start; CPU time of the "
        "process and its children; the most memory any of them had resident), and by "
        "`clang-19 -O2 -c` for reference. ×: the figure divided by the one for N/2.",
        "",
        "| N | LLVM instructions (f, -O2) | clang -O2 -c | xenzyme-opt, wall | × | CPU | × | peak memory | × "
        "| largest stages (CPU) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    prev = None
    for row in rows:
        if "error" in row:
            lines.append(f"| {row['n']:,} | FAILED | | | | | | | | |")
            prev = None
            continue
        p = row["profile"]

        def x(key: str) -> str:
            return f"{p[key] / prev['profile'][key]:.2f}" if prev and prev["n"] * 2 == row["n"] else ""

        lines.append(f"| {row['n']:,} | {row['instructions']:,} | {fmt_s(row['clang'])} | {fmt_s(p['wall'])} | "
                     f"{x('wall')} | {fmt_s(p['total'])} | {x('total')} | {p['peak_rss_mb']:.0f} MB | "
                     f"{x('peak_rss_mb')} | {_stage_list(p['stages'], p['total'], 2)} |")  # fmt: skip
        prev = row
    lines += ["", growth_notes(rows)]
    return "\n".join(lines).rstrip() + "\n"


def growth_notes(rows: list[dict]) -> str:
    """What the growth table says, from its own figures: the factor per doubling, the goals,
    and which stages grow faster than N."""
    ok = [r for r in rows if "error" not in r]
    pairs = [(a, b) for a, b in zip(ok, ok[1:]) if b["n"] == 2 * a["n"]]
    if not pairs:
        return "Too few sizes compiled in this run to say how the compile time grows."
    walls = [b["profile"]["wall"] / a["profile"]["wall"] for a, b in pairs]
    cpus = [b["profile"]["total"] / a["profile"]["total"] for a, b in pairs]
    mems = [b["profile"]["peak_rss_mb"] / a["profile"]["peak_rss_mb"] for a, b in pairs]
    goals = []
    for n, goal in GROWTH_GOALS.items():
        r = next((r for r in ok if r["n"] == n), None)
        if r is not None:
            w = r["profile"]["wall"]
            goals.append(f"N = {n:,}: {w:.1f} s, goal ≤ {goal:.0f} s ({'met' if w <= goal else 'missed'})")
    a, b = pairs[-1]
    growth_by_stage = {s: b["profile"]["stages"][s] / a["profile"]["stages"][s]
                       for s in b["profile"]["stages"] if a["profile"]["stages"][s] > 0.05}  # fmt: skip
    fast = sorted(((g, s) for s, g in growth_by_stage.items() if g > GROWTH_DOUBLING), reverse=True)
    share = {s: b["profile"]["stages"][s] / b["profile"]["total"] for s in b["profile"]["stages"]}
    clangs = [b["clang"] / a["clang"] for a, b in pairs]
    paragraphs = [_says(
        f"Each doubling of N multiplied the wall time by {_range(walls)}, the CPU time by {_range(cpus)} and the "
        f"peak memory by {_range(mems)} (goal: at most {GROWTH_DOUBLING} each).",
        ("; ".join(goals) + ".") if goals else None,
        f"clang -O2 -c's own time on the function grew by {_range(clangs)} per doubling.",
    )]
    kids = [(r["n"], r["profile"].get("children_rss_mb"), r["profile"].get("own_rss_mb")) for r in (a, b)]
    if mems[-1] > GROWTH_DOUBLING and all(k is not None and o is not None for _, k, o in kids):
        where = "in a child process (LLVM's)" if kids[1][1] > kids[1][2] else "in xenzyme-opt's own process"
        paragraphs.append(f"The peak memory at N = {b['n']:,} is {where}: {kids[1][1]:.0f} MB in the child "
                          f"against {kids[1][2]:.0f} MB in the process ({kids[0][1]:.0f} and {kids[0][2]:.0f} MB at "
                          f"N = {a['n']:,}).")  # fmt: skip
    if fast:
        paragraphs.append(
            f"From N = {a['n']:,} to {b['n']:,}, the stages that grew faster than {GROWTH_DOUBLING}× are "
            + ", ".join(f"{s} (×{g:.1f}, {100 * share[s]:.0f} % of the CPU time at N = {b['n']:,})" for g, s in fast)
            + "."
            + (" LLVM's part is the -O2 pipeline before differentiation, the -O3 pipeline after it and code "
               "generation: the gradient is one basic block whose forward values stay live until the reverse "
               "sweep uses them. Its floating-point selects are integer selects in code generation (as "
               "branches they split it into O(N) blocks with O(N) values live across each); what still grows "
               "faster than N is inside the one block, with O(N) values live at once: the register allocator, "
               "the two-address pass, the machine scheduler and stack-slot colouring." if any(s == "LLVM" for _, s in fast) else "")
        )
    else:
        paragraphs.append(f"From N = {a['n']:,} to {b['n']:,} no stage grew faster than {GROWTH_DOUBLING}×.")
    last = ok[-1]
    top = sorted(last["profile"]["stages"].items(), key=lambda kv: -kv[1])[:2]
    paragraphs.append(f"At N = {last['n']:,} the CPU time goes mostly to "
                      + " and to ".join(f"{s} ({100 * v / last['profile']['total']:.0f} %: {STAGE_WHAT.get(s, s)})"
                                        for s, v in top) + ".")  # fmt: skip
    return _note(*paragraphs)


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Build, check and time the gradient benchmarks; "
                                 "rewrite their sections of benchmarks/RESULTS.md.")
    ap.add_argument("names", nargs="*", help=f"benchmarks to run, or programs (all their "
                    f"instances), or `parallel` for the OpenMP ones (default: all: {', '.join(BY_NAME)}, "
                    f"{', '.join(PARALLEL_BY_NAME)})")
    ap.add_argument("--n", type=int, help="problem size for every benchmark (default: each one's)")
    ap.add_argument("--samples", type=int, default=7, help="timed samples (>= 5 for results)")
    ap.add_argument("--compile-reps", type=int, default=3,
                    help="builds of the main variant for its compile time (median)")
    ap.add_argument("--check-only", action="store_true", help="check gradients, time nothing")
    ap.add_argument("--no-write", action="store_true", help="leave RESULTS.md alone")
    ap.add_argument("--only", default="gradients,compile,growth",
                    help="sections to run, comma-separated: gradients (the benchmarks above), compile (compile "
                    "time against clang, the derivative cache), growth (straight-line functions of growing size)")
    ap.add_argument("--growth-sizes", default=",".join(map(str, GROWTH_SIZES)),
                    help="the N of the growth section, comma-separated")
    args = ap.parse_args(argv)
    only = {w.strip() for w in args.only.split(",") if w.strip()}
    if only - {"gradients", "compile", "growth"}:
        ap.error(f"unknown section(s) in --only: {', '.join(sorted(only - {'gradients', 'compile', 'growth'}))}")

    programs = {b.prog for b in BENCHMARKS}
    unknown = [n for n in args.names if n not in BY_NAME and n not in programs and n not in PARALLEL_BY_NAME
               and n != "parallel"]  # fmt: skip
    if unknown:
        ap.error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BY_NAME)}, "
                 f"{', '.join(PARALLEL_BY_NAME)} (or `parallel` for these)")  # fmt: skip
    selected = ([b for b in BENCHMARKS if b.name in args.names or b.prog in args.names]
                if args.names else list(BENCHMARKS))  # fmt: skip
    par_selected = ([b for b in PARALLEL if b.name in args.names or "parallel" in args.names]
                    if args.names else list(PARALLEL))  # fmt: skip
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
    if "gradients" not in only:
        selected, par_selected = [], []
    programs_timed = [p for p in COMPILE_PROGRAMS if not args.names or p in args.names
                      or any(b.prog == p for b in BENCHMARKS if b.name in args.names)] if "compile" in only else []  # fmt: skip
    sizes = tuple(int(n) for n in args.growth_sizes.split(",") if n.strip()) if "growth" in only else ()
    progress = Progress(total=sum(steps_for_run(b, samples, cache_bytes[b.name]) for b in selected)
                        + 3 * len(par_selected) + len(programs_timed) + len(sizes))  # fmt: skip
    results = []
    built: dict = {}
    for bench in selected:
        res = run_benchmark(bench, progress, n=args.n or bench.n, samples=samples,
                            compile_reps=1 if args.check_only else args.compile_reps,
                            built=built, cache_bytes=cache_bytes[bench.name])
        results.append((bench, res))
    par_results = []
    for pbench in par_selected:
        res = run_parallel_benchmark(pbench, progress, n=args.n or pbench.n, samples=samples,
                                     compile_reps=1 if args.check_only else args.compile_reps)  # fmt: skip
        par_results.append((pbench, res))

    compile_res: dict[str, dict] = {}
    if programs_timed or sizes:
        compiled_bytecode()
    for prog in programs_timed:
        with progress.step(f"compile time: {prog}") as st:
            try:
                (BUILD_DIR / prog).mkdir(parents=True, exist_ok=True)
                r = compile_res[prog] = compile_times(prog, BUILD_DIR / prog, args.compile_reps)
                st.note = (f"(clang {fmt_s(r['clang'])}, xenzyme-opt {fmt_s(r['cold'])} = {r['cold'] / r['clang']:.1f}×, "
                           f"cached {fmt_s(r['warm'])})")  # fmt: skip
            except BenchError as e:
                compile_res[prog] = {"error": str(e)}
                st.fail("(see errors)")
    growth_rows = growth(sizes, BUILD_DIR / "growth", progress) if sizes else []

    env["load"].append(os.getloadavg()[0])
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    raw = {"env": env, "results": {b.name: r for b, r in results},
           "parallel": {b.name: r for b, r in par_results}, "compile": compile_res, "growth": growth_rows}  # fmt: skip
    (BUILD_DIR / "results.json").write_text(json.dumps(raw, indent=1))
    for prog, r in compile_res.items():
        if "error" in r:
            print(f"\ncompile time of {prog}: {r['error']}", file=sys.stderr)
    for row in growth_rows:
        if "error" in row:
            print(f"\ngrowth N = {row['n']}: {row['error']}", file=sys.stderr)

    failed = [b.name for b, r in [*results, *par_results] if r["errors"]]
    for b, r in [*results, *par_results]:
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
    if samples and results:
        print("\n" + cache_bytes_section(results), file=sys.stderr)
    if samples and par_results:
        print("\n" + parallel_summary_section(par_results, env), file=sys.stderr)
    extra_sections = []
    if compile_res:
        extra_sections.append(("bench-compile", compile_section(compile_res, env)))
        print("\n" + extra_sections[-1][1], file=sys.stderr)
    if growth_rows:
        extra_sections.append(("bench-growth", growth_section(growth_rows, env)))
        print("\n" + extra_sections[-1][1], file=sys.stderr)
    if extra_sections and not args.no_write:
        write_results(extra_sections)
        print(f"wrote {RESULTS.relative_to(REPO)} ({', '.join(n for n, _ in extra_sections)})", file=sys.stderr)
    write = write and bool(results or par_results)
    if write:
        if not args.names:
            chart = write_chart(results)
            if chart:
                print(f"wrote {chart.relative_to(REPO)}", file=sys.stderr)
        sections = [("bench-summary", summary_section(results, env, compile_res)),
                    ("bench-cache-bytes", cache_bytes_section(results))] if not args.names else []
        run = {b.name: r for b, r in results}
        sections += [(f"bench-{b.name}", section_for(b, r, env, run)) for b, r in results]
        if len(par_results) == len(PARALLEL):
            sections.append(("bench-parallel", parallel_summary_section(par_results, env)))
        sections += [(f"bench-{b.name}", parallel_section(b, r, env)) for b, r in par_results]
        if not args.names:
            sections += mpi_section(args.samples)
        write_results(sections)
        print(f"wrote {RESULTS.relative_to(REPO)}", file=sys.stderr)
    failed += [p for p, r in compile_res.items() if "error" in r] + [str(r["n"]) for r in growth_rows if "error" in r]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
