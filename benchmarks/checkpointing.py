"""Memory and time of gradients of long time loops, with and without checkpointing.

    .venv/bin/python benchmarks/checkpointing.py [--steps N] [--no-write]

Builds benchmarks/c/checkpoint_loops.c once per scheme (`enzyme{checkpoint=off}`,
`checkpoint=periodic period=P`, `checkpoint=binomial checkpoints=c`, `checkpoint=online
checkpoints=c`), runs one gradient of a
10^6-step loop in a fresh process per measurement -- a damped pendulum (two scalars carried)
and the heat equation in place on 64 points -- and reports the process's peak resident memory
(ru_maxrss) and CPU time beside the primal's, the gradient's agreement with the
non-checkpointed one, and the steps the runtime ran again against revolve's optimum
`r n - C(c+r, c+1)` (online: the steps of its documented schedule).  Writes its section of
benchmarks/RESULTS.md with the date and the load, and the chart of memory against time
(benchmarks/checkpointing.png, with matplotlib: the `bench` extra installs it).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "benchmarks" / "c" / "checkpoint_loops.c"
RESULTS = ROOT / "benchmarks" / "RESULTS.md"
CHART = ROOT / "benchmarks" / "checkpointing.png"
BEGIN, END = "<!-- bench-checkpointing:begin -->", "<!-- bench-checkpointing:end -->"
XENZYME_OPT = [sys.executable, "-m", "xenzyme.cli.xenzyme_opt"]


def revolve_optimum(n: int, c: int) -> int:
    if n <= 1:
        return 0
    r = 0
    while comb(c + r, c) < n:
        r += 1
    return r * n - comb(c + r, c + 1)


def online_snapshots(n: int, c: int) -> list[int]:
    """The steps before which online checkpointing keeps a snapshot (the runtime's schedule:
    every s-th step's; when one is due and the c slots are full, those at odd multiples of s go
    and s doubles)."""
    kept, s = [0], 1
    for k in range(1, n):
        if k % s == 0:
            if len(kept) == c:
                kept = [p for p in kept if p % (2 * s) == 0]
                s *= 2
            if k % s == 0:
                kept.append(k)
    return kept


def online_steps(n: int, c: int) -> int:
    """The steps online checkpointing runs again: stretches between kept snapshots reversed by
    revolve with the slots left, chosen for the fewest steps."""
    p = [*online_snapshots(n, c), n]
    best = [0] * len(p)
    for e in range(1, len(p)):
        best[e] = min(best[i] + revolve_optimum(p[e] - p[i], min(c - i, p[e] - p[i])) for i in range(e))
    return best[-1] if n else 0


def build(pipeline: str, work: Path, name: str) -> Path:
    ll, obj, exe = work / "prog.ll", work / f"{name}.o", work / name
    if not ll.exists():
        subprocess.run(["clang-19", "-O2", "-S", "-emit-llvm", str(SOURCE), "-o", str(ll)], check=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([*XENZYME_OPT, str(ll), "-p", pipeline, "-t", "obj", "-o", str(obj)], check=True, env=env)
    subprocess.run(["cc", str(obj), "-lm", "-o", str(exe)], check=True)
    return exe


def measure(args: list[str]) -> tuple[float, int, str]:
    """The CPU seconds of the call the program times (CPU time: less disturbed by other
    processes than wall time), the process's peak resident KiB and its output, from one run in a
    fresh process (started by /usr/bin/time: a child forked from this Python process would
    report Python's own size as its peak)."""
    with tempfile.NamedTemporaryFile("r") as stats:
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", stats.name, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{args} failed: {r.stderr}")
        return float(r.stdout.split()[-1]), int(stats.read().split()[-1]), r.stdout


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def summary(rows: list[tuple], n: int) -> list[str]:
    """Sentences on the goals (binomial with 32 checkpoints: under 1% of the non-checkpointed
    peak memory at no more than 4x its time), from this run's rows; the memory also counted
    above the primal's peak (the process's own baseline is in every peak)."""
    out = []
    for problem in dict.fromkeys(r[0] for r in rows):
        mine = {r[1]: r for r in rows if r[0] == problem}
        off, b32 = mine.get("off"), mine.get("binomial, c = 32")
        if off is None or b32 is None:
            continue
        _, _, t, rss, pt, prss, tr, mr, _, steps, want = b32
        above = max(rss - prss, 0) / max(off[3] - prss, 1)
        verdict = ("met" if mr < 0.01 and tr <= 4 else
                   "met counting the memory above the primal's" if above < 0.01 and tr <= 4 else "not met")  # fmt: skip
        out.append(f"- `{problem}`, binomial with 32 checkpoints: {100 * mr:.1f}% of the non-checkpointed peak memory "
                   f"({100 * above:.2f}% of its memory above the primal's peak) at {tr:.2f}x its time, "
                   f"{steps / n:.2f} extra forward sweeps; steps run again "
                   f"{'equal to' if steps == want else 'NOT equal to'} the optimum; goal {verdict}.  Against the "
                   f"primal's time: the non-checkpointed gradient {off[2] / pt:.1f}x, binomial with 32 checkpoints "
                   f"{t / pt:.1f}x.")
    return out


def write_chart(rows: list[tuple], n: int, path: Path = CHART) -> Path | None:
    """Peak memory against time, both divided by the non-checkpointed gradient's, one point per
    scheme and number of checkpoints, a panel per loop (log scales).  None without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, NullFormatter
    except ImportError:
        print("note: matplotlib is not installed: no chart", file=sys.stderr)
        return None
    plain = FuncFormatter(lambda v, _: f"{v:g}")
    problems = list(dict.fromkeys(r[0] for r in rows))
    fig, axes = plt.subplots(1, len(problems), figsize=(5.5 * len(problems), 4.6), squeeze=False)
    styles = {"off": ("black", "s"), "periodic": ("tab:green", "D"), "binomial": ("tab:blue", "o"),
              "online": ("tab:orange", "^")}  # fmt: skip
    for ax, problem in zip(axes[0], problems, strict=True):
        for kind, (color, marker) in styles.items():
            mine = [r for r in rows if r[0] == problem and r[1].split(",")[0] == kind]
            if not mine:
                continue
            ax.plot([r[6] for r in mine], [r[7] for r in mine], marker=marker, color=color, label=kind,
                    linestyle=":" if len(mine) > 1 else "none")  # fmt: skip
            for r in mine:
                if "," in r[1]:
                    ax.annotate(r[1].split(",")[1].strip().removeprefix("c = "), (r[6], r[7]), textcoords="offset points",
                                xytext=(5, 4), fontsize="x-small", color=color)  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_formatter(plain)
        ax.xaxis.set_minor_formatter(plain)
        ax.yaxis.set_major_formatter(plain)
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("gradient time ÷ non-checkpointed (recompute factor)")
        ax.set_ylabel("peak memory ÷ non-checkpointed")
        ax.set_title(f"{problem}: {n:,} steps (labels: checkpoints, period)")
        ax.grid(which="both", alpha=0.3)
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1_000_000)
    ap.add_argument("--points", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    n = a.steps
    schemes = [("off", "enzyme{checkpoint=off}", None), ("periodic, period 1000", "enzyme{checkpoint=periodic period=1000}", None)]
    schemes += [(f"{kind}, c = {c}", f"enzyme{{checkpoint={kind} checkpoints={c}}}", c)
                for kind in ("binomial", "online") for c in (8, 32, 128)]
    load_start = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        exes = {label: build(pipe, work, f"p{i}") for i, (label, pipe, _) in enumerate(schemes)}
        for problem, extra in (("ode", []), ("heat", [str(a.points)])):
            base = exes["off"]
            primal = [measure([str(base), problem, str(n), *extra, "primal"]) for _ in range(a.repeat)]
            p_time = min(t for t, _, _ in primal)
            p_rss = max(r for _, r, _ in primal)
            reference = None
            for label, _, c in schemes:
                runs = [measure([str(exes[label]), problem, str(n), *extra]) for _ in range(a.repeat)]
                t = min(r[0] for r in runs)
                rss = max(r[1] for r in runs)
                values = [float(v) for v in runs[0][2].split()]
                grads, steps = values[:3], int(values[3])
                if reference is None:
                    reference = (grads, t, rss)
                err = max(abs(g - r) / max(abs(r), 1e-300) for g, r in zip(grads, reference[0]))
                # (heat: the loop summing the result, 64 points in 16 unrolled iterations, is checkpointed too)
                tail = a.points // 4 if problem == "heat" else 0
                if label.startswith("online"):
                    want = online_steps(n, c) + online_steps(tail, c)
                elif c is not None:
                    want = revolve_optimum(n, c) + revolve_optimum(tail, c)
                else:
                    want = n + tail if label.startswith("periodic") else 0
                rows.append((problem, label, t, rss, p_time, p_rss, t / reference[1], rss / reference[2], err, steps, want))
                print(rows[-1], flush=True)
    load_end = os.getloadavg()[0]
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [BEGIN, "## Checkpointing long loops (`benchmarks/checkpointing.py`)", "",
             f"- machine: {_cpu()}, {os.cpu_count()} cores; date: {date}; "
             f"load average {load_start:.2f} at the start, {load_end:.2f} at the end (other processes add noise: "
             "compare the ratios within a row block, not across runs)",
             f"- one gradient of {n:,} steps: `ode` (a damped pendulum, two scalars carried), `heat` (the heat "
             f"equation in place on {a.points} points); peak resident memory of the whole process (ru_maxrss) and "
             f"the least CPU time of the call (clock_gettime's process CPU clock) of {a.repeat} fresh processes (the run "
             "least disturbed by other processes); the primal "
             "alone beside them",
             "- rel. error: largest relative difference of the derivatives from the non-checkpointed gradient; steps "
             "run again: counted by the runtime, beside revolve's optimum r n - C(c+r, c+1) (periodic: each step "
             "once, in its segment's taped gradient); for `heat` the loop summing the result (16 iterations after "
             "LLVM's unrolling by 4) is checkpointed too and counted", "",
             "| loop | scheme | gradient time | × off | peak memory | × off | primal time, memory | rel. error | steps run again (optimum) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for problem, label, t, rss, pt, prss, tr, mr, err, steps, want in rows:
        lines.append(f"| {problem} | {label} | {t * 1e3:.1f} ms | {tr:.2f} | {rss / 1024:.1f} MiB | {mr:.3f} | "
                     f"{pt * 1e3:.1f} ms, {prss / 1024:.1f} MiB | {err:.1e} | {steps:,} ({want:,}) |")  # fmt: skip
    lines += ["", *summary(rows, n)]
    if not a.no_write and write_chart(rows, n):
        lines += ["", f"![peak memory against gradient time, per scheme and number of checkpoints]({CHART.name})"]
    lines.append(END)
    section = "\n".join(lines) + "\n"
    print(section)
    if not a.no_write:
        text = RESULTS.read_text()
        if BEGIN in text:
            text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1 :]
        else:
            text = text.rstrip("\n") + "\n\n" + section
        RESULTS.write_text(text)


if __name__ == "__main__":
    main()
