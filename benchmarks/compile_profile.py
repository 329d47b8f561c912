"""Where `xenzyme-opt` spends a compile: the command run in this process with its stages timed.

    .venv/bin/python benchmarks/compile_profile.py prog.c -p enzyme -t obj -o prog.o [--json]

Everything after the script's own `--json` is xenzyme-opt's command line (`--no-cache` is
added: a cached answer has no stages).  Each stage is CPU time, this process's and its
children's (clang, and the child processes LLVM optimises and generates code in), so that a
busy machine changes the figures less than wall time:

* clang: the C/C++ frontend;
* import: LLVM's text read into xDSL ops (the input, and LLVM's output of the -O2 pipeline run
  before differentiating);
* export: xDSL ops printed as LLVM IR (into that pipeline, and for the object);
* LLVM: LLVM parsing, optimising (-O2 before AD, -O3 after) and generating code, in children;
* reverse-diff, lower-autodiff: the differentiation engine and the lowering of its caches;
* other passes: raise-enzyme-calls, raise-openmp, forward-diff, lower-par;
* verification: xDSL's verifier;
* Python: start-up, imports and everything else (the total less the stages above).

`total` is the CPU time of the whole run, `wall` its elapsed time from the interpreter's start,
`peak_rss_mb` the most memory the process or any child had resident (`own_rss_mb`,
`children_rss_mb`: each; a child forked for LLVM counts the pages it shares with this process).  Used by
benchmarks/run.py (the compile-time and linear-growth sections of RESULTS.md).
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STAGES = ("clang", "import", "export", "LLVM", "reverse-diff", "lower-autodiff", "other passes", "verification")


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str]) -> int:
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"] + ["--no-cache"]
    spent: dict[str, float] = defaultdict(float)
    active: list[str] = []

    def timed(module: str, qualname: str, stage: str) -> None:
        owner = importlib.import_module(module)
        *path, name = qualname.split(".")
        for part in path:
            owner = getattr(owner, part)
        original = getattr(owner, name)

        @functools.wraps(original)
        def wrapper(*a, **k):
            if active:  # inside another stage: counted there
                return original(*a, **k)
            active.append(stage)
            start = cpu()
            try:
                return original(*a, **k)
            finally:
                spent[stage] += cpu() - start
                active.pop()

        setattr(owner, name, wrapper)

    gc.disable()  # (as xenzyme-opt does before importing its driver: see xenzyme/cli/xenzyme_opt.py)
    from xenzyme.cli import xenzyme_opt

    timed("xenzyme.frontend.clang", "compile_to_llvm_ir", "clang")
    timed("xenzyme.frontend.llvm_import", "ModuleReader.read", "import")
    timed("xenzyme.backend.llvm_export", "export_module", "export")
    timed("xenzyme.backend.native", "run_isolated", "LLVM")
    timed("xenzyme.transforms.reverse_diff", "ReverseDiff.run", "reverse-diff")  # (the enzyme pass runs it)
    timed("xenzyme.transforms.lower_autodiff", "LowerAutodiffPass.apply", "lower-autodiff")
    for module, cls in (("raise_enzyme_calls", "RaiseEnzymeCallsPass"), ("raise_openmp", "RaiseOpenMPPass"),
                        ("forward_diff", "ForwardDiffPass"), ("lower_par", "LowerParPass")):  # fmt: skip
        timed(f"xenzyme.transforms.{module}", f"{cls}.apply", "other passes")
    timed("xdsl.ir.core", "Operation.verify", "verification")
    status = xenzyme_opt.main(args)
    total = cpu()
    wall = time.time() - _process_start()
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    stages = {s: spent.get(s, 0.0) for s in STAGES}
    stages["Python"] = max(0.0, total - sum(stages.values()))
    result = {"status": status, "total": total, "wall": wall, "peak_rss_mb": max(own, kids), "own_rss_mb": own,
              "children_rss_mb": kids, "stages": stages}  # fmt: skip
    if as_json:
        print(json.dumps(result))
    else:
        for s, v in stages.items():
            print(f"{s:16s} {v:8.3f} s  {100 * v / total:5.1f} %")
        print(f"{'total (CPU)':16s} {total:8.3f} s\n{'wall':16s} {wall:8.3f} s\npeak RSS {own:.0f} MB, of a child "
              f"{kids:.0f} MB")
    return status


def _process_start() -> float:
    """When this process started (Linux: from /proc), else when this module was loaded."""
    try:
        import os

        ticks = int(Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()[19])
        boot = next(float(line.split()[1]) for line in Path("/proc/stat").read_text().splitlines()
                    if line.startswith("btime"))  # fmt: skip
        return boot + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration):
        return _LOADED


_LOADED = time.time()

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
