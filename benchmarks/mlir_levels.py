"""Structured-dialect programs differentiated at both levels: at the structured level
(xenzyme/transforms/diff/structured.py: scf.for reversed as scf.for, caches as memrefs sized by
trip counts) and lowered to llvm first (the llvm-level engine: caches grown at run time, kept in
pools between calls).  Prints a Markdown table: gradient time per call of each (the smallest of
several repetitions, both measured in the same process, interleaved) and their ratio, and the
cache bytes of each -- the structured level's from its cache memrefs' types and the trip counts
(with the minimum cut, and without: `mincut=false`, each needed value recomputed down to what
cannot be and that cached), the llvm level's as the heap its first call leaves allocated (its
cache pools).

    .venv/bin/python benchmarks/mlir_levels.py
"""

from __future__ import annotations

import ctypes
import time
from pathlib import Path

import numpy as np

import xenzyme as xz
from xenzyme.api import _lower_structured, _structured_preopt, gradient
from xenzyme.backend.memrefs import GradientCall, MemrefCall
from xenzyme.transforms.diff.structured import StructuredGenerator

PROGRAMS = Path(__file__).resolve().parent.parent / "tests" / "programs" / "mlir"


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                                                "uordblks", "fordblks", "keepcost")]  # fmt: skip


_libc = ctypes.CDLL("libc.so.6")
_libc.mallinfo2.restype = _MallInfo2


def heap_in_use() -> int:
    m = _libc.mallinfo2()
    return int(m.uordblks + m.hblkhd)


CASES = [
    # (file, function, activity, arguments (a shadow after each dup), what the `?` of its caches is, size text)
    ("loops", "recurrence", ["active", "const"], lambda: [0.999, 1_000_000], 1_000_000, "n = 10^6"),
    ("arrays", "loss", ["dup", "dup"], lambda: _loss_args(800, 800), 800, "800 x 800"),
    ("structured", "heun", ["dup", "active", "const", "const"],
     lambda: [np.array([1.0, -0.3]), np.zeros(2), 2.0, np.array([0.4]), 200_000], 200_000, "200,000 steps"),
    ("models", "logsumexp", ["dup"], lambda: [np.linspace(-3, 3, 1_000_000), np.zeros(1_000_000)], 1_000_000,
     "N = 10^6"),
    ("structured", "overwritten_product", ["const", "const", "active"],
     lambda: [np.linspace(-1, 1, 1_000_000), np.linspace(0.5, 1.5, 1_000_000), 0.3], 1_000_000, "N = 10^6"),
]  # fmt: skip


def _loss_args(m: int, n: int) -> list:
    rng = np.random.default_rng(0)
    a, x = rng.standard_normal((m, n)) / n, rng.standard_normal(n)
    return [a, np.zeros_like(a), x, np.zeros_like(x)]


def _time(f, make, reps: int) -> float:
    best = float("inf")
    for _ in range(reps):
        args = make()
        t = time.perf_counter()
        f(*args)
        best = min(best, time.perf_counter() - t)
    return best


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}" if unit != "B" else f"{int(n)} B"
        n /= 1024
    return ""


def main(reps: int = 7) -> None:
    print("| program | size | structured | lowered first | structured ÷ lowered | cache bytes, structured "
          "| without the cut | heap kept, lowered |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for file, name, acts, make, dyn, size in CASES:
        m = xz.load(PROGRAMS / f"{file}.mlir")
        structured = xz.gradient(m, name, acts)
        assert isinstance(structured, GradientCall)
        lowered, types, given, expanded = _lower_structured(m, name, acts, False)
        low = MemrefCall(gradient(lowered, name, expanded, preopt=_structured_preopt(lowered, 2)), name, types, given)
        sizes = []
        for mincut in (True, False):
            gen = StructuredGenerator(m.clone(), mincut)
            caches = gen.caches[gen.gradient(name, acts, "active")]
            sizes.append((sum(int(np.prod([dyn if d < 0 else d for d in t.get_shape()])) * t.element_type.bitwidth // 8
                              for t in caches), len(caches)))  # fmt: skip
        before = heap_in_use()
        low(*make())  # (first call: its cache pools are allocated and kept)
        kept = heap_in_use() - before
        structured(*make())
        ts, tl = [], []
        for _ in range(reps):  # interleaved: both see the same machine
            ts.append(_time(structured, make, 1))
            tl.append(_time(low, make, 1))
        s, lo = min(ts), min(tl)
        cut, leaves = (f"{_bytes(b)} ({k} memrefs)" for b, k in sizes)
        print(f"| {name} | {size} | {s * 1e3:.2f} ms | {lo * 1e3:.2f} ms | {s / lo:.2f} | {cut} | {leaves} "
              f"| {_bytes(max(kept, 0))} |")  # fmt: skip


if __name__ == "__main__":
    main()
