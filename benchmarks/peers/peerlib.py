"""Helpers shared by the Python peers: single-threading, the timing protocol, JSON output.

Import this module before numpy (or any other numerical library): it pins the thread pools of
OpenMP, OpenBLAS, MKL, BLIS and numexpr to one thread unless the caller set them already.
Each peer prints one JSON object per line on stdout, in the same shape as the C programs
(benchmarks/c/bench.h), with an extra "tool" key.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from collections.abc import Callable

for _var in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
):
    os.environ.setdefault(_var, "1")

MIN_SAMPLE_S = 0.05


def emit(record: dict) -> None:
    print(json.dumps(record), flush=True)


def time_calls(
    bench: str, tool: str, n: int, samples: int, fns: list[tuple[str, Callable[[], object]]]
) -> list[dict]:
    """Time each (what, fn) by the protocol, side by side: calibrate each so that a sample (fn()
    repeated) lasts >= MIN_SAMPLE_S, which is also its warm-up; then `samples` rounds taking one
    sample of every function in turn.  Emits and returns one record per function (median and
    minimum seconds per call, samples in the order taken)."""
    reps = []
    for _, fn in fns:
        r = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(r):
                fn()
            dt = time.perf_counter() - t0
            if dt >= MIN_SAMPLE_S:
                break
            nxt = int(r * 1.2 * MIN_SAMPLE_S / dt) + 1 if dt > 0 else r * 10
            r = max(nxt, 2 * r)
        reps.append(r)
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(samples):
        for j, (_, fn) in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(reps[j]):
                fn()
            times[j].append((time.perf_counter() - t0) / reps[j])
    records = []
    for j, (what, _) in enumerate(fns):
        record = {
            "bench": bench,
            "kind": "time",
            "tool": tool,
            "what": what,
            "n": n,
            "reps": reps[j],
            "median_s": statistics.median(times[j]),
            "min_s": min(times[j]),
            "samples_s": times[j],
        }
        emit(record)
        records.append(record)
    return records


def check(bench: str, tool: str, n: int, rel_err: float, tol: float, against: str) -> bool:
    ok = bool(rel_err <= tol)  # False for NaN
    emit(
        {
            "bench": bench,
            "kind": "check",
            "tool": tool,
            "n": n,
            "rel_err": rel_err,
            "tol": tol,
            "against": against,
            "ok": ok,
        }
    )
    if not ok:
        print(f"{bench}/{tool}: check against {against} FAILED: {rel_err:.3g} > {tol:.3g}",
              file=sys.stderr)
    return ok
