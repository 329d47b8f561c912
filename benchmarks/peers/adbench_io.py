"""Readers and the command-line driver shared by the peers of the ADBench benchmarks gmm, ba and
lstm (numpy_*.py, jax_*.py, torch_*.py).

Every reader builds the same instance as the C program (benchmarks/c/gmm.c, ba.c, lstm.c) from
the same file and the same N:

- gmm: the first N points of the file's x, cycled when N is larger;
- ba: the file's one camera, point, weight and feature replicated to n cameras, m points and
  N observations (observation i: camera i mod n, point i mod m);
- lstm: the first N characters of the sequence, cycled when N is larger.

A peer script calls `run(bench, tool, setup)`; `setup(instance)` returns the primal and the
derivative as functions of no arguments, the derivative returning a flat float64 array laid out
as the C program's DUMP file.  `run` parses `--input FILE --n N --samples S --compare DUMP`,
checks xenzyme's derivative (DUMP) against the peer's to 1e-9 relative in the 2-norm, then times
the primal and the derivative (peerlib's protocol).  With `jit=True` it also reports the time of
setup and the first calls (tracing and compiling) as a "compile" record.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import peerlib  # noqa: F401  (single-threaded thread pools, before numpy loads)
import numpy as np
from peerlib import check, emit, time_calls

DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_INPUT = {
    "gmm": DATA / "gmm" / "gmm_d10_K25.txt",
    "ba": DATA / "ba" / "ba1_n49_m7776_p31843.txt",
    "lstm": DATA / "lstm" / "lstm_l2_c1024.txt",
}


def read_gmm(path: Path, n: int | None) -> dict:
    lines = path.read_text().split("\n")
    d, k, n_file = (int(t) for t in lines[0].split())
    icf_sz = d * (d + 1) // 2
    body = np.array(" ".join(lines[1:]).split(), dtype=float)
    pos = 0

    def take(count: int) -> np.ndarray:
        nonlocal pos
        out = body[pos : pos + count]
        pos += count
        return out

    alphas = take(k)
    means = take(k * d).reshape(k, d)
    icf = take(k * icf_sz).reshape(k, icf_sz)
    x = take(n_file * d).reshape(n_file, d)
    gamma, m = float(body[pos]), int(body[pos + 1])
    n = n_file if n is None else n
    x = x[np.arange(n) % min(n, n_file)]
    return {"d": d, "k": k, "n": n, "alphas": alphas, "means": means, "icf": icf, "x": x,
            "gamma": gamma, "m": m}  # fmt: skip


def gmm_unpack_icf(d: int, icf: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q (K x d), l (K x d(d-1)/2), and the (row, column) index of each l entry in Q_k
    (strictly lower, packed column by column)."""
    rows, cols = [], []
    for j in range(d):
        for i in range(j + 1, d):
            rows.append(i)
            cols.append(j)
    return icf[:, :d], icf[:, d:], (np.array(rows, dtype=int), np.array(cols, dtype=int))


def gmm_constant(d: int, k: int, n: int, gamma: float, m: int) -> float:
    """The parts of the GMM objective that do not depend on the parameters."""
    from math import lgamma, log, pi

    nw = d + m + 1
    log_gamma_p = 0.25 * d * (d - 1) * log(pi) + sum(lgamma(0.5 * nw + 0.5 * (1 - j))
                                                     for j in range(1, d + 1))  # fmt: skip
    c = nw * d * (log(gamma) - 0.5 * log(2.0)) - log_gamma_p
    return -0.5 * n * d * log(2 * pi) - k * c


def read_ba(path: Path, p: int | None) -> dict:
    tok = path.read_text().split()
    n, m, p_file = int(tok[0]), int(tok[1]), int(tok[2])
    vals = np.array(tok[3:20], dtype=float)
    cam, x, w, feat = vals[:11], vals[11:14], vals[14], vals[15:17]
    p = p_file if p is None else p
    i = np.arange(p)
    return {"n": n, "m": m, "p": p, "cams": np.tile(cam, (n, 1)), "X": np.tile(x, (m, 1)),
            "w": np.full(p, w), "feats": np.tile(feat, (p, 1)), "cam_idx": i % n,
            "pt_idx": i % m}  # fmt: skip


def read_lstm(path: Path, c: int | None) -> dict:
    tok = path.read_text().split()
    l, c_file, b = int(tok[0]), int(tok[1]), int(tok[2])
    vals = np.array(tok[3:], dtype=float)
    pos = 0

    def take(count: int) -> np.ndarray:
        nonlocal pos
        out = vals[pos : pos + count]
        pos += count
        return out

    main = take(8 * l * b).reshape(2 * l, 4 * b)
    extra = take(3 * b).reshape(3, b)
    state = take(2 * l * b).reshape(2 * l, b)
    seq = take(c_file * b).reshape(c_file, b)
    c = c_file if c is None else c
    seq = seq[np.arange(c) % min(c, c_file)]
    return {"l": l, "c": c, "b": b, "main": main, "extra": extra, "state": state, "seq": seq}


READERS = {"gmm": read_gmm, "ba": read_ba, "lstm": read_lstm}


def jax_x64():
    """JAX on the CPU, one thread, float64 (call before anything else imports jax)."""
    import os

    os.environ.setdefault(
        "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    )
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    jax.config.update("jax_enable_x64", True)
    return jax


def torch_f64():
    """PyTorch on one thread (intra- and inter-op), float64 by default."""
    import torch

    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set
        pass
    torch.set_default_dtype(torch.float64)
    return torch


def run(bench: str, tool: str, setup: Callable[[dict], tuple[Callable, Callable]],
        description: str | None = None, *, jit: bool = False) -> int:  # fmt: skip
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--input", type=Path, default=DEFAULT_INPUT[bench], help="ADBench input file")
    ap.add_argument("--n", type=int, help="instance size N (default: the file's)")
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--compare", help="raw float64 derivative to check against (xenzyme's)")
    args = ap.parse_args()
    if args.n is not None and args.n < (2 if bench == "lstm" else 1):
        ap.error("--n is too small")

    inst = READERS[bench](args.input, args.n)
    n = args.n if args.n is not None else inst["n" if bench == "gmm" else "p" if bench == "ba" else "c"]
    t0 = time.perf_counter()
    primal, derivative = setup(inst)
    g = np.asarray(derivative(), dtype=np.float64).reshape(-1)
    primal()
    if jit:  # the first calls traced and compiled both functions
        emit({"bench": bench, "kind": "compile", "tool": tool, "n": n,
              "seconds": time.perf_counter() - t0})  # fmt: skip
    if args.compare:
        other = np.fromfile(args.compare, dtype=np.float64)
        if other.size != g.size:
            print(f"{args.compare}: {other.size} values, expected {g.size}", file=sys.stderr)
            return 1
        err = float(np.linalg.norm(other - g) / np.linalg.norm(g))
        if not check(bench, tool, n, err, 1e-9, "xenzyme derivative"):
            return 1
    if args.samples > 0:
        time_calls(bench, tool, n, args.samples, [("primal", primal), ("gradient", derivative)])
    return 0
