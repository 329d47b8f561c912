"""The benchmark programs keep building and their gradients keep passing their checks.

Builds benchmarks/c/*.c through benchmarks/run.py's own build step, at a tiny problem size and
with no timing (SAMPLES = 0), from clang -O2 IR with the default pipeline and from clang -O0 IR
with `enzyme{preopt=0}`; each program checks its gradient and prints the result as JSON.  The
numpy peer checks a dumped xenzyme gradient against its own.  Also tests how the runner rewrites
its sections of RESULTS.md.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import REPO, clang

_spec = importlib.util.spec_from_file_location("bench_run", REPO / "benchmarks" / "run.py")
runner = importlib.util.module_from_spec(_spec)
sys.modules["bench_run"] = runner
_spec.loader.exec_module(runner)

N = 1000

# One benchmark per program: the instances of a program (ADBench's gmm, ba, lstm) share its build.
FIRST_OF_PROGRAM: dict[str, str] = {}
for _b in runner.BENCHMARKS:
    FIRST_OF_PROGRAM.setdefault(_b.prog, _b.name)

# Known compiler limitations: expected to fail until fixed (then they pass as XPASS).
KNOWN_FAILURES: dict[tuple[str, str], str] = {}
"""(benchmark, variant) -> why its build is expected to fail (none at present)."""


def input_env(bench: str) -> dict[str, str] | None:
    """The environment naming a benchmark's input file (ADBench programs), or None."""
    path = runner.BY_NAME[bench].input_path
    return {"XENZYME_BENCH_INPUT": str(path)} if path else None


@pytest.mark.parametrize("variant", [runner.MAIN, runner.O0_PREOPT0], ids=lambda v: v.tag)
@pytest.mark.parametrize("bench", list(FIRST_OF_PROGRAM.values()))
def test_benchmark_gradient_check(bench: str, variant, tmp_path: Path, request) -> None:
    clang()  # skips without clang-19
    if (bench, variant.tag) in KNOWN_FAILURES:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_FAILURES[bench, variant.tag]))
    b = runner.build(bench, variant, tmp_path)
    records = runner.run_program(b.exe, N, 0, env=input_env(bench))
    checks = [r for r in records if r.get("kind") == "check"]
    assert len(checks) == 1, records
    assert checks[0]["ok"], checks[0]
    assert checks[0]["n"] == N
    assert not [r for r in records if r.get("kind") == "time"], "SAMPLES = 0 must time nothing"


def test_numpy_peer_agrees_with_xenzyme(tmp_path: Path) -> None:
    clang()
    b = runner.build("logsumexp", runner.MAIN, tmp_path)
    dump = tmp_path / "gradient.bin"
    runner.run_program(b.exe, N, 0, dump)
    assert dump.stat().st_size == 8 * N
    peer = runner.BY_NAME["logsumexp"].peers[0]
    records = runner.run_peer(peer, N, 0, dump)
    check = runner.pick(records, "check")
    assert check and check["ok"], records


@pytest.mark.parametrize("prog", ["gmm", "ba", "lstm"])
def test_adbench_fd_mode_and_numpy_peer(prog: str, tmp_path: Path) -> None:
    """An ADBench program in its finite-difference mode checks xenzyme's derivative against
    central differences in every coordinate, and its numpy peer (hand-written derivative) agrees
    with the dumped one to 1e-9; on the instance that has the finite-difference peer, N = 100."""
    clang()
    bench = next(b for b in runner.BENCHMARKS
                 if b.prog == prog and any(p.mode == "fd" for p in b.peers))  # fmt: skip
    b = runner.build(bench, runner.MAIN, tmp_path)
    env, dump, n = input_env(bench.name), tmp_path / "derivative.bin", 100
    check = runner.pick(runner.run_program(b.exe, n, 0, dump, env=env), "check")
    assert check and check["ok"], check
    fd = runner.pick(runner.run_program(b.exe, n, 0, env={**env, "XENZYME_BENCH_MODE": "fd"}),
                     "check")  # fmt: skip
    assert fd and fd["ok"] and "every" in fd["against"], fd
    peer = next(p for p in bench.peers if p.tool == "numpy")
    peer = runner.replace(peer, args=("--input", str(bench.input_path)))
    records = runner.run_peer(peer, n, 0, dump)
    check = runner.pick(records, "check")
    assert check and check["ok"], records


def test_timing_records(tmp_path: Path) -> None:
    """One short timed run: both functions reported, with the protocol's fields."""
    clang()
    b = runner.build("logsumexp", runner.MAIN, tmp_path)
    records = runner.run_program(b.exe, N, 5)
    for what in ("primal", "gradient"):
        r = runner.pick(records, "time", what)
        assert r is not None, records
        assert len(r["samples_s"]) == 5
        assert 0 < r["min_s"] <= r["median_s"]
        assert r["reps"] * r["min_s"] >= 0.025  # calibrated to ~50 ms a sample
    # Heap accounting (benchmarks/c/heapcount.c): the primal allocates nothing; the gradient
    # keeps its cache buffers between calls, so the timed calls allocate nothing either...
    p, g = runner.pick(records, "time", "primal"), runner.pick(records, "time", "gradient")
    assert p["heap_peak_bytes"] == 0 and p["heap_allocs_per_call"] == 0
    assert g["heap_allocs_per_call"] == 0
    # ... and built to free them at every return, each call allocates its caches (a byte per
    # element at least: the branch taken at the maximum).
    fresh = runner.build("logsumexp", runner.FRESH, tmp_path)
    g = runner.pick(runner.run_program(fresh.exe, N, 1), "time", "gradient")
    assert g["heap_peak_bytes"] >= N and g["heap_allocs_per_call"] >= 1


def test_inproc_peer_ratio() -> None:
    """A third function timed in the benchmark's process is a peer: R2 against it."""
    recs = [{"kind": "time", "what": w, "median_s": t, "min_s": t}
            for w, t in (("primal", 1.0), ("gradient", 3.0), ("hand-written C", 2.0))]
    d = runner.derived({"runs": {runner.MAIN.tag: recs}, "peers": {}})
    assert d["r1"] == 3.0 and d["r2"] == {"hand-written C": 1.5}
    assert list(d["inproc"]) == ["hand-written C"]


def test_results_sections_are_independent(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    other = "<!-- compile_speed:begin -->\nkept as is\n<!-- compile_speed:end -->"
    path.write_text(f"# Benchmark results\n\nintro\n\n{other}\n")
    runner.write_results([("bench-a", "first"), ("bench-b", "second")], path)
    text = path.read_text()
    assert other in text and "intro" in text
    assert "<!-- bench-a:begin -->\nfirst\n<!-- bench-a:end -->" in text
    runner.write_results([("bench-a", "again")], path)
    text = path.read_text()
    assert "first" not in text and "again" in text and "second" in text and other in text
    assert text.count("<!-- bench-a:begin -->") == 1
