"""`python -m xenzyme.tools.difftest --seeds 0-10000 -j 2`: the differential tester by hand.

    --seeds 0-999,1500        which programs (ranges and single seeds)
    -j 2                      worker processes
    --batch 8                 programs per file
    --levels -O0,-O2,-O3      clang levels      --modes rev,fwd     which requests
    --out report.json         the figures       --keep DIR          the programs that failed, as C
    --show SEED               print a program and exit
    --markdown                print the figures as a Markdown table (for README)

Exit status 1 when a derivative was wrong, a generated program crashed or xenzyme failed
without a XenzymeError; errors of xenzyme (unsupported constructs) are counted, and allowed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

from xenzyme.tools.difftest.generator import PRELUDE, generate
from xenzyme.tools.difftest.runner import LEVELS, MODES, Report, run_batch, save, warm_up


def parse_seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-", 1)
            seeds += range(int(lo), int(hi))
        elif part:
            seeds.append(int(part))
    return seeds


def _warm() -> None:
    """Load xenzyme's pipeline once per worker: the children forked per batch inherit it."""
    warm_up()


def _batch(args: tuple) -> Report:
    seeds, levels, modes, keep = args
    t = time.monotonic()
    report = run_batch(seeds, levels, modes, keep)
    report.seconds = time.monotonic() - t
    return report


def run(seeds: list[int], jobs: int = 1, batch: int = 8, levels=LEVELS, modes=MODES, keep: Path | None = None,
        progress=None) -> Report:  # fmt: skip
    """Every program of `seeds`, checked; the merged report."""
    batches = [(seeds[i : i + batch], tuple(levels), tuple(modes), keep) for i in range(0, len(seeds), batch)]
    total = Report()
    start = time.monotonic()
    if jobs <= 1:
        results = map(_batch, batches)
        _warm()
    else:
        pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_warm)
        results = pool.imap_unordered(_batch, batches)
    for r in results:
        total.merge(r)
        if progress is not None:
            progress(total, time.monotonic() - start)
    total.seconds = time.monotonic() - start
    if jobs > 1:
        pool.close()
        pool.join()
    return total


def markdown(report: Report) -> str:
    """The figures of a run, as README shows them."""
    req = report.requests
    lines = [
        "| programs | checks ok | inconclusive | ill-conditioned | wrong | crashes | internal errors | time |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
        f"| {report.programs} | {report.checks['ok']} | {report.checks['inconclusive']} | "
        f"{report.checks['ill-conditioned']} | {len(report.wrong)} | "
        f"{len(report.crashes)} | {len(report.internal)} | {report.seconds / 60:.0f} min |",
        "",
        "| requests (program x level) | differentiated | xenzyme error | stopped at run time |",
        "|---|---:|---:|---:|",
    ]
    for mode, what in (("rev", "reverse (`__enzyme_autodiff`)"), ("fwd", "forward (`__enzyme_fwddiff`)")):
        lines.append(f"| {what} | {req[(mode, 'ok')]} | {req[(mode, 'error')]} | {req[(mode, 'stopped')]} |")
    if report.errors:
        lines += ["", "| xenzyme error (kind) | requests |", "|---|---:|"]
        lines += [f"| {kind.replace('|', '/')} | {n} |" for kind, n in report.errors.most_common()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m xenzyme.tools.difftest", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0-100")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--keep", type=Path)
    ap.add_argument("--show", type=int)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args(argv)
    if a.show is not None:
        print(PRELUDE + generate(a.show).source())
        return 0
    seeds = parse_seeds(a.seeds)

    def progress(r: Report, elapsed: float) -> None:
        if a.out:  # (after each batch: a long run that is stopped keeps its figures)
            r.seconds = elapsed
            save(r, a.out)
        print(f"\r{r.programs}/{len(seeds)} programs, {r.checks['ok']} checks ok, {len(r.wrong)} wrong, "
              f"{len(r.crashes)} crashes, {len(r.internal)} internal, {sum(r.errors.values())} errors "
              f"({elapsed:.0f} s)", end="", file=sys.stderr, flush=True)  # fmt: skip

    report = run(seeds, a.jobs, a.batch, a.levels.split(","), a.modes.split(","), a.keep, progress)
    print(file=sys.stderr)
    if a.out:
        save(report, a.out)
    if a.markdown:
        print(markdown(report))
    for w in report.wrong:
        print(f"wrong: seed {w['seed']} {w['mode']} {w['level']} component {w['component']}: "
              f"derivative {w['ad']!r}, finite differences {w['fd']!r}")  # fmt: skip
    for c in report.crashes:
        print(f"crash: seed {c['seed']} {c['mode']} {c['level']}: {c['what']}")
    for c in report.internal:
        print(f"internal: seed {c['seed']} {c['mode']} {c['level']}: {c['message'][:300]}")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
