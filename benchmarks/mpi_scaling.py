#!/usr/bin/env python3
"""The gradient of a distributed 2-D heat equation under MPI: cost and strong scaling.

    .venv/bin/python benchmarks/mpi_scaling.py              # build, check, time, update RESULTS.md
    .venv/bin/python benchmarks/mpi_scaling.py --no-write --ranks 1 2 --samples 3   # a quick look

benchmarks/c/mpi_heat2d.c (a grid split into blocks of rows, halos exchanged with MPI_Isend /
MPI_Irecv / MPI_Waitall every time step) is compiled by clang-19 -O2 with OpenMPI's flags, through
`xenzyme-opt -p enzyme -t obj`, and linked with `mpicc --showme:link`; it is run by `mpirun
--oversubscribe` at 1, 2 and 4 ranks on the same global grid (strong scaling).  Each run checks
the gradient against central differences of the global energy first, then times the primal and
the gradient in alternation; every sample is the slowest rank's time between two barriers.  The
section written to benchmarks/RESULTS.md (between its markers; `benchmarks/run.py` writes it too,
through `section`) gives gradient ÷ primal at every rank count and the speed-up of each over one
rank.  The goal: gradient ÷ primal at 4 ranks within 1.25 times its value at 1 rank.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import run as bench  # noqa: E402  (benchmarks/run.py: machine, versions, RESULTS.md sections)

NAME = "bench-mpi-heat2d"
SOURCE = BENCH_DIR / "c" / "mpi_heat2d.c"
BUILD = BENCH_DIR / "build" / "mpi_heat2d"
RANKS = (1, 2, 4)
GRID = (512, 512)
STEPS = 20
GOAL = 1.25


def mpi_flags(what: str) -> list[str]:
    return subprocess.run(["mpicc", f"--showme:{what}"], capture_output=True, text=True, check=True).stdout.split()


def build() -> Path:
    """The gradient program, built through xenzyme's `enzyme` pipeline."""
    BUILD.mkdir(parents=True, exist_ok=True)
    ll, obj, exe = BUILD / "prog.ll", BUILD / "prog.o", BUILD / "prog"
    cc = bench.clang()
    subprocess.run([cc, "-O2", *mpi_flags("compile"), "-S", "-emit-llvm", str(SOURCE), "-o", str(ll)], check=True)
    subprocess.run([sys.executable, "-m", "xenzyme.cli.xenzyme_opt", str(ll), "-p", "enzyme", "-t", "obj", "-o",
                    str(obj)], check=True, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))  # fmt: skip
    subprocess.run([cc, str(obj), *mpi_flags("link"), "-lm", "-o", str(exe)], check=True)
    return exe


def mpirun(np: int) -> list[str]:
    cmd = ["mpirun", "--oversubscribe", "-np", str(np)]
    if os.geteuid() == 0:
        cmd.insert(1, "--allow-run-as-root")
    return cmd


def measure(exe: Path, ranks: tuple[int, ...], samples: int) -> dict[int, dict]:
    out = {}
    for np in ranks:
        proc = subprocess.run([*mpirun(np), str(exe), str(GRID[0]), str(GRID[1]), str(STEPS), str(samples)],
                              capture_output=True, text=True, timeout=1200)  # fmt: skip
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
        if proc.returncode != 0 or line is None:
            raise RuntimeError(f"{np} ranks: exit status {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
        out[np] = json.loads(line)
        print(f"{np} ranks: {line}", file=sys.stderr)
    return out


def _r(x: float) -> str:
    return f"{x:.2f}"


def section(results: dict[int, dict], env: dict) -> str:
    """The RESULTS.md section, every figure from this run."""
    cores = env["machine"]["cores"]
    one = results.get(1)
    lines = [
        "## MPI: a distributed 2-D heat equation (`benchmarks/mpi_scaling.py`)",
        "",
        f"- {env['machine']['cpu']}, {cores} cores; {env['versions']['xenzyme']}; OpenMPI "
        f"{env['openmpi']}; {env['date']}.",
        f"- `benchmarks/c/mpi_heat2d.c`: a {GRID[0]} x {GRID[1]} grid in blocks of rows, {STEPS} explicit "
        "steps of u += dt (kappa lap(u) - u^3), halo rows exchanged with MPI_Isend / MPI_Irecv / "
        "MPI_Waitall; the gradient of the global energy with respect to the initial field, every rank "
        "differentiating its own block (checked against central differences before timing).",
        "- Times per call: the median over samples (the minimum in brackets) of the slowest rank; speed-up = "
        "the time at 1 rank ÷ the time at p ranks, the same grid (strong scaling), of medians (of minima).",
        "",
        "| ranks | primal (ms) | gradient (ms) | gradient ÷ primal | primal speed-up | gradient speed-up |",
        "|---|---|---|---|---|---|",
    ]
    for np, r in sorted(results.items()):
        p, g = r["primal_median_s"], r["gradient_median_s"]
        pm, gm = r["primal_min_s"], r["gradient_min_s"]
        sp = f"{one['primal_median_s'] / p:.2f} ({one['primal_min_s'] / pm:.2f})" if one else "-"
        sg = f"{one['gradient_median_s'] / g:.2f} ({one['gradient_min_s'] / gm:.2f})" if one else "-"
        lines.append(f"| {np}{' (oversubscribed)' if np > cores else ''} | {p * 1e3:.2f} ({pm * 1e3:.2f}) | "
                     f"{g * 1e3:.2f} ({gm * 1e3:.2f}) | {_r(g / p)} ({_r(gm / pm)}) | {sp} | {sg} |")  # fmt: skip
    four = results.get(4)
    if one and four:
        r1 = one["gradient_median_s"] / one["primal_median_s"]
        r4 = four["gradient_median_s"] / four["primal_median_s"]
        r1m = one["gradient_min_s"] / one["primal_min_s"]
        r4m = four["gradient_min_s"] / four["primal_min_s"]
        met = "met" if r4 / r1 <= GOAL else "not met"
        lines += ["", f"Gradient ÷ primal at 4 ranks is {_r(r4 / r1)} times its value at 1 rank "
                  f"({_r(r4m / r1m)} by minima); the goal, at most {GOAL}, is {met} in this run."]
        if 4 > cores:
            lines += ["", f"This machine has {cores} cores: at 4 ranks the processes share them, so the speed-ups "
                      "say little about scaling and the times are noisy (other work runs beside them); "
                      "the ratio of gradient to primal, taken in the same runs, is the figure to read."]
    lines += ["", "What the gradient adds to each step's communication: the reverse sweep runs the "
              "opposite exchange (MPI_Irecv of the adjoints where the primal sent, MPI_Isend where it "
              "received, started at the reverse of MPI_Waitall and completed at that of each call), one "
              "small record per message kept in the shadow of its request; the per-cell work is that of "
              "the single-process derivative of the same stencil."]
    return "\n".join(lines)


def environment() -> dict:
    version = subprocess.run(["mpirun", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    return {"machine": bench.machine(), "versions": bench.versions(),
            "openmpi": version.split()[-1] if version else "?",
            "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")}  # fmt: skip


def available() -> bool:
    return shutil.which("mpirun") is not None and shutil.which("mpicc") is not None


def run_all(samples: int = 7, ranks: tuple[int, ...] = RANKS) -> str:
    """Build, check, time; the section's text (for benchmarks/run.py)."""
    results = measure(build(), ranks, samples)
    return section(results, environment())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ranks", type=int, nargs="+", default=list(RANKS))
    ap.add_argument("--samples", type=int, default=7)
    ap.add_argument("--no-write", action="store_true", help="print the section, leave RESULTS.md alone")
    args = ap.parse_args()
    if not available():
        print("mpirun / mpicc not found: run scripts/setup-toolchain.sh", file=sys.stderr)
        return 1
    text = run_all(args.samples, tuple(args.ranks))
    print(text)
    if not args.no_write and args.samples >= 5:
        bench.write_results([(NAME, text)])
        print(f"wrote {bench.RESULTS.relative_to(REPO)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
