"""numpy peer for logsumexp: the primal and a hand-written gradient (the softmax).

    python numpy_logsumexp.py [--n N] [--samples S] [--compare GRAD.bin]

Generates the same input as benchmarks/c/logsumexp.c (splitmix64, seed 42, uniform in [-4, 4)),
checks its gradient against the one in GRAD.bin when given (raw float64, as written by the C
program's DUMP argument: xenzyme's gradient) to 1e-9 relative in the 2-norm, then times the
primal and the gradient single-threaded.  With --samples 0 it only checks.
"""

from __future__ import annotations

import argparse
import sys

import peerlib  # noqa: F401  (sets the thread pools to one thread before numpy loads)
import numpy as np
from peerlib import check, emit, time_calls

BENCH, TOOL = "logsumexp", "numpy"


def splitmix64_uniform(n: int, seed: int) -> np.ndarray:
    """u_i in [0, 1): bench_uniform() of benchmarks/c/bench.h, element for element."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(1, n + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


def make_input(n: int) -> np.ndarray:
    return 8.0 * splitmix64_uniform(n, 42) - 4.0


def logsumexp(x: np.ndarray) -> float:
    a = x.max()
    return float(np.log(np.exp(x - a).sum()) + a)


def logsumexp_grad(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    e /= e.sum()
    return e


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--compare", help="raw float64 gradient to check against (xenzyme's)")
    args = ap.parse_args()

    x = make_input(args.n)
    g = logsumexp_grad(x)
    emit({"bench": BENCH, "kind": "value", "tool": TOOL, "n": args.n, "value": logsumexp(x)})
    if args.compare:
        other = np.fromfile(args.compare, dtype=np.float64)
        if other.shape != g.shape:
            print(f"{args.compare}: {other.size} values, expected {g.size}", file=sys.stderr)
            return 1
        err = float(np.linalg.norm(other - g) / np.linalg.norm(g))
        if not check(BENCH, TOOL, args.n, err, 1e-9, "xenzyme gradient"):
            return 1
    if args.samples > 0:
        fns = [("primal", lambda: logsumexp(x)), ("gradient", lambda: logsumexp_grad(x))]
        time_calls(BENCH, TOOL, args.n, args.samples, fns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
