"""The OpenMP benchmarks (benchmarks/c/omp_*.c, the PARALLEL section of benchmarks/run.py).

Each program is built through the runner's own build step at a small size and checked at 1
and 2 threads (SAMPLES = 0: nothing timed): the full program (its gradient against the softmax or
central differences), and the primal-only build the runner falls back to when the gradient
cannot be built (the parallel primal against a serial evaluation).  One short timed run checks
the records of the thread-count protocol.  The section and the notes are tested on fabricated
results: every ratio they state comes from the results they are given.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import clang
from test_benchmarks_build import ENV, runner

SMALL = {"omp_logsumexp": 100_000, "omp_gmm": 200, "omp_stencil": 24 * 24}
NAMES = [b.name for b in runner.PARALLEL]


def _env(bench) -> dict[str, str]:
    env = {"XENZYME_BENCH_THREADS": "1,2"}
    if bench.input:
        env["XENZYME_BENCH_INPUT"] = str(bench.input_path)
    return env


@pytest.mark.parametrize("variant", [runner.PRIMAL_ONLY, runner.MAIN], ids=["primal-only", "gradient"])
@pytest.mark.parametrize("name", NAMES)
def test_parallel_benchmark_check(name: str, variant, tmp_path: Path) -> None:
    clang()
    bench = runner.PARALLEL_BY_NAME[name]
    try:
        b = runner.build_parallel(bench, variant, tmp_path)
    except runner.BenchError as e:
        error = f"building {name} ({variant.label}) failed:\n{e}"
    else:
        error = ""
    if error:
        pytest.fail(error, pytrace=False)
    records = runner.run_program(b.exe, SMALL[name], 0, env=_env(bench))
    check = runner.pick(records, "check")
    assert check and check["ok"], records
    assert "at 1 and 2 threads" in check["against"]
    assert ("primal-only" in check["against"]) == (variant is runner.PRIMAL_ONLY)
    assert not [r for r in records if r.get("kind") == "time"]
    counts = runner.census((tmp_path / f"{name}.{variant.tag}.xz.ll").read_text())
    assert counts["regions"] >= 1


def test_parallel_timing_records(tmp_path: Path) -> None:
    """Primal at 1 and 2 threads in one process, samples alternating (the primal-only build)."""
    clang()
    bench = runner.PARALLEL_BY_NAME["omp_stencil"]
    b = runner.build_parallel(bench, runner.PRIMAL_ONLY, tmp_path)
    records = runner.run_program(b.exe, 16 * 16, 5, env=_env(bench))
    times = [r for r in records if r.get("kind") == "time"]
    assert [r["what"] for r in times] == ["primal@1", "primal@2"]
    for r in times:
        assert len(r["samples_s"]) == 5 and 0 < r["min_s"] <= r["median_s"]
        assert isinstance(r["reps"], int) and r["reps"] >= 1  # calibrated count; its timing is not tested


def test_census() -> None:
    text = """declare void @__kmpc_fork_call(ptr, i32, ptr, ...)
define void @f() {
  call void (ptr, i32, ptr, ...) @__kmpc_fork_call(ptr @0, i32 1, ptr @g)
  %1 = atomicrmw fadd ptr %p, double %v monotonic
  %2 = cmpxchg ptr %q, i64 %a, i64 %b monotonic monotonic
  call void @__kmpc_critical(ptr @0, i32 %t, ptr @lock)
  call void @__kmpc_barrier(ptr @0, i32 %t)
  %3 = call ptr @malloc(i64 8)
  ret void
}"""
    assert runner.census(text) == {"regions": 1, "atomics": 2, "critical sections": 1, "barriers": 1,
                                   "allocations": 1}  # fmt: skip


def _time(what: str, t: float) -> dict:
    return {"kind": "time", "what": what, "median_s": t, "min_s": 0.97 * t, "heap_peak_bytes": 1000,
            "heap_allocs_per_call": 0}  # fmt: skip


def fake(bench, p1: float, g1: float, p2: float | None, g2: float | None, gradient: bool = True) -> dict:
    """Results as run_parallel_benchmark records them (None: that figure is missing)."""
    check = {"kind": "check", "rel_err": 1e-12, "against": "a reference, at 1 and 2 threads", "tol": 1e-9, "ok": True}
    recs = [check, _time("primal@1", p1)] + ([_time("primal@2", p2)] if p2 else [])
    if gradient:
        recs += [_time("gradient@1", g1)] + ([_time("gradient@2", g2)] if g2 else [])
    build = {"commands": ["clang-19 -O2"], "stage_s": {"clang": 0.1, "xenzyme-opt": 1.0, "cc": 0.1, "total": 1.2},
             "reps": 3}  # fmt: skip
    tag = runner.MAIN.tag if gradient else runner.PRIMAL_ONLY.tag
    base = {"regions": 1, "atomics": 0, "critical sections": 1, "barriers": 2, "allocations": 3}
    res = {"name": bench.name, "n": bench.n, "samples": 7, "threads": [1, 2], "builds": {tag: build},
           "runs": {tag: recs}, "census": {runner.PRIMAL_ONLY.tag: base}, "errors": []}  # fmt: skip
    if gradient:
        res["census"][tag] = {**base, "regions": 3, "atomics": 4, "critical sections": 2}
    else:
        res["errors"].append("build O2 (the gradient): exit status 1: xenzyme-opt prog.ll -p enzyme\nxenzyme-opt: error: no rule")
    return res


def test_parallel_notes_follow_the_run() -> None:
    """Two runs with different figures: every ratio the notes state changes with them."""
    for bench in runner.PARALLEL:
        a = runner.parallel_notes(bench, fake(bench, 1.0, 2.0, 0.55, 1.2))
        b = runner.parallel_notes(bench, fake(bench, 1.3, 3.1, 0.8, 2.2))
        for text in (a, b):
            assert "None" not in text and "nan" not in text and " ." not in text, text
        fixed = set(re.findall(r"\b\d+\.\d\d\b", a)) & set(re.findall(r"\b\d+\.\d\d\b", b))
        assert not fixed - {str(runner.PAR_GOAL_GROWTH)}, (bench.name, fixed)  # the goal is a constant
        flat = " ".join(a.split())
        # 2.0 / 1.0 = 2.00 and 1.2 / 0.55 = 2.18: growth 1.09; speed-ups 1.82 and 1.67: share 0.92
        assert "the gradient costs 2.00 primals, at 2 threads 2.18" in flat
        assert "grows by a factor 1.09" in flat and "met" in flat
        assert "the primal runs 1.82 times as fast, the gradient runs 1.67 times as fast" in flat
        assert "0.92 of the primal's" in flat
        assert "2 regions, 4 atomics and 1 critical section" in flat


def test_parallel_section_with_and_without_gradient() -> None:
    bench = runner.PARALLEL_BY_NAME["omp_gmm"]
    full = runner.parallel_section(bench, fake(bench, 1e-2, 3e-2, 6e-3, 2.4e-2), ENV)
    assert "| 1 | 10.0 ms (9.7 ms) | 30.0 ms (29.1 ms) | 3.00 |" in full
    assert "| gradient ÷ primal at 2 threads ÷ the same at 1 | 1.33 | ≤ 1.25 | **missed** |" in full
    assert "| gradient's speed-up ÷ primal's (1 → 2 threads) | 0.75 | ≥ 0.8 | **missed** |" in full
    assert "None" not in full
    primal = runner.parallel_section(bench, fake(bench, 1e-2, 0, 6e-3, None, gradient=False), ENV)
    assert "No gradient figures" in primal and "xenzyme-opt: error: no rule" in primal
    assert "| speed-up 1 → 2 | 1.67 |" in primal and "gradient ÷ primal" not in primal.split("```")[-1]
    assert "None" not in primal and " ." not in primal
    summary = runner.parallel_summary_section([(bench, fake(bench, 1e-2, 0, 6e-3, None, gradient=False))], ENV)
    assert "| omp_gmm |" in summary and "FAILED" in summary
