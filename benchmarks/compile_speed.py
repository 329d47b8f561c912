"""How fast LLVM IR goes into xDSL and back out.

    .venv/bin/python benchmarks/compile_speed.py            # measure, print, update RESULTS.md
    .venv/bin/python benchmarks/compile_speed.py --profile import|export   # cProfile a stage

Two inputs: a generated C program of many functions (loops, branches, structs, arrays, libm and
cross-function calls) compiled by clang-19 at -O2 to at least 100k LLVM instructions, and the
largest program of the round-trip test corpus.  Stages, each timed on its own:

* import: LLVM parses and verifies the text, prints it canonically, xenzyme reads it into ops;
* export: xenzyme prints the ops as LLVM IR text;
* verify: LLVM parses and verifies that text;
* round trip: the three together (what `xenzyme-opt P.ll -t llvm` costs, minus start-up).

The result is written between markers in benchmarks/RESULTS.md; other sections are left alone.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
BEGIN = "<!-- compile_speed:begin -->"
END = "<!-- compile_speed:end -->"
TARGET_INSTRUCTIONS = 100_000
GOAL_SECONDS = 2.0

# ---------------------------------------------------------------------------------------------
# The generated program
# ---------------------------------------------------------------------------------------------

_PRELUDE = """\
#include <math.h>
#include <stdlib.h>
#include <string.h>
typedef struct { double x, y, z; int id; float w; } particle_t;
typedef struct { int n; double *data; particle_t *parts; } system_t;
double g_tab[256];
int g_hist[64];
"""


def _float_kernel(k: int, rnd: random.Random) -> str:
    a, b, c = (round(rnd.uniform(0.1, 3.0), 3) for _ in range(3))
    fn = rnd.choice(["sqrt", "exp", "sin", "log1p", "fabs", "cos"])
    call = f" + f{k - 1}(a, b, n / 2)" if k > 0 and rnd.random() < 0.5 else ""
    return f"""\
double f{k}(double *restrict a, const double *restrict b, int n) {{
    double s = {a}, m = -1e300;
    for (int i = 0; i < n; i++) {{
        double t = a[i] * {b} + b[(i * {k % 7 + 1}) & 15] * {c};
        if (t > m) m = t;
        if (t > {a}) s += {fn}(fabs(t)); else s -= t * 0.5;
        a[i] = t * 0.25 + s * 1e-3;
    }}
    g_tab[{k % 256}] += s;
    return s + m{call};
}}
"""


def _int_kernel(k: int, rnd: random.Random) -> str:
    cases = "\n".join(
        f"        case {c}: acc = acc * {rnd.randint(3, 97)} + {rnd.randint(1, 999)}; break;"
        for c in rnd.sample(range(32), 6)
    )
    call = f"acc ^= (unsigned)i{k - 1}(v, n - 1, seed + 1);" if k > 0 and rnd.random() < 0.5 else ""
    return f"""\
unsigned i{k}(const int *v, int n, unsigned seed) {{
    unsigned acc = seed ^ {rnd.randint(1, 1 << 30)}u;
    for (int i = 0; i < n; i++) {{
        int x = v[i];
        switch ((x ^ i) & 31) {{
{cases}
        default: acc += (unsigned)x << (i & 7);
        }}
        g_hist[(acc >> 3) & 63]++;
    }}
    {call}
    return acc + (unsigned)(n > 3 ? v[n - 1] : 0);
}}
"""


def _struct_kernel(k: int, rnd: random.Random) -> str:
    dt = round(rnd.uniform(0.001, 0.1), 4)
    call = f"e += s{k - 1}(sys, steps - 1);" if k > 0 and rnd.random() < 0.4 else ""
    return f"""\
double s{k}(system_t *sys, int steps) {{
    double e = 0.0;
    for (int t = 0; t < steps; t++) {{
        for (int i = 0; i < sys->n; i++) {{
            particle_t *p = &sys->parts[i];
            double r2 = p->x * p->x + p->y * p->y + p->z * p->z + 1e-9;
            double f = {dt} / (r2 * sqrt(r2));
            p->x -= f * p->x; p->y -= f * p->y; p->z -= f * p->z;
            p->w = (float)(p->w * 0.5f + (float)f);
            sys->data[i % 32] += f;
            e += 0.5 * r2;
            if (p->id > {rnd.randint(5, 50)}) p->id = 0; else p->id++;
        }}
    }}
    {call}
    return e;
}}
"""


def _memory_kernel(k: int, rnd: random.Random) -> str:
    n = rnd.randint(8, 40)
    return f"""\
int m{k}(char *dst, const char *src, int len) {{
    char buf[{n}];
    int h = {rnd.randint(1, 1000)};
    memcpy(buf, src, len < {n} ? len : {n});
    for (int i = 0; i < {n} && i < len; i++) {{
        h = h * 31 + buf[i];
        dst[i] = (char)(buf[i] ^ (h & 0x7f));
    }}
    if (h < 0) h = -h;
    memset(dst + (len < {n} ? len : {n}), 0, 4);
    return h % {rnd.randint(100, 10000)};
}}
"""


_KERNELS = (_float_kernel, _int_kernel, _struct_kernel, _memory_kernel)


def generate_c(functions: int, seed: int = 1) -> str:
    rnd = random.Random(seed)
    parts = [_PRELUDE]
    for k in range(functions):
        parts.append(_KERNELS[k % len(_KERNELS)](k // len(_KERNELS), rnd))
    return "\n".join(parts)


def clang() -> str:
    for c in (os.environ.get("XENZYME_CLANG"), "clang-19", "/usr/lib/llvm-19/bin/clang"):
        if c and subprocess.run(["which", c], capture_output=True).returncode == 0:
            return c
    sys.exit("compile_speed: clang-19 is needed to generate the benchmark module")


def compile_c(source: str, flags: list[str], suffix: str = ".c") -> str:
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / f"bench{suffix}", Path(d) / "bench.ll"
        src.write_text(source)
        subprocess.run([clang(), *flags, "-S", "-emit-llvm", str(src), "-o", str(out)], check=True)
        return out.read_text()


def count_instructions(llvm_text: str) -> int:
    """Instructions in LLVM text: indented lines inside function bodies, not debug records."""
    n = 0
    inside = False
    for line in llvm_text.split("\n"):
        if line.startswith("define "):
            inside = True
        elif line == "}":
            inside = False
        elif inside and line.startswith("  ") and not line.lstrip().startswith(("#dbg_", ";")):
            n += 1
    return n


def generated_module() -> tuple[str, int]:
    """LLVM IR of the generated program, grown until it has TARGET_INSTRUCTIONS instructions."""
    functions = 1200
    while True:
        text = compile_c(generate_c(functions), ["-O2"])
        n = count_instructions(text)
        if n >= TARGET_INSTRUCTIONS:
            return text, n
        functions = int(functions * TARGET_INSTRUCTIONS / max(n, 1) * 1.05) + 1


def largest_test_program() -> tuple[str, str, int]:
    """(name, LLVM IR, instructions) of the biggest round-trip test program at -O0."""
    programs = ROOT / "tests" / "programs" / "roundtrip"
    best: tuple[str, str, int] = ("", "", -1)
    for p in sorted(programs.glob("*.c*")):
        if p.suffix not in (".c", ".cpp"):
            continue
        flags = ["-O0", "-std=c++17"] if p.suffix == ".cpp" else ["-O0"]
        text = compile_c(p.read_text(), flags, p.suffix)
        n = count_instructions(text)
        if n > best[2]:
            best = (f"{p.name} (-O0)", text, n)
    return best


# ---------------------------------------------------------------------------------------------
# Measuring
# ---------------------------------------------------------------------------------------------


def _timed(fn, *args):
    gc.collect()  # (runs whether or not the collector is paused)
    t0 = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - t0


def measure(text: str, repeat: int = 2) -> dict[str, float]:
    """Best-of-`repeat` seconds per stage, with Python's cycle collector paused as xenzyme-opt
    runs (xenzyme/cli/driver.py)."""
    from xenzyme.backend.llvm_export import export_module
    from xenzyme.backend.native import check_llvm_ir
    from xenzyme.frontend.llvm_import import import_llvm_ir
    from xenzyme.llvm_binding import paused_gc

    best: dict[str, float] = {}
    for _ in range(repeat):
        with paused_gc():
            module, t_import = _timed(import_llvm_ir, text, "bench.ll")
            out, t_export = _timed(export_module, module)
            _, t_verify = _timed(check_llvm_ir, out)
        times = {"import": t_import, "export": t_export, "verify": t_verify}
        times["round trip"] = t_import + t_export + t_verify
        for k, v in times.items():
            best[k] = min(best.get(k, v), v)
        del module
    return best


def command_line(text: str) -> float:
    """Seconds for `xenzyme-opt bench.ll -t llvm -o out.ll`, start-up included."""
    exe = Path(sys.executable).parent / "xenzyme-opt"
    with tempfile.TemporaryDirectory() as d:
        src, out = Path(d) / "bench.ll", Path(d) / "out.ll"
        src.write_text(text)
        t0 = time.perf_counter()
        subprocess.run([str(exe), str(src), "-t", "llvm", "-o", str(out), "--no-cache"], check=True)
        return time.perf_counter() - t0


def profile(text: str, stage: str) -> None:
    import cProfile
    import pstats

    from xenzyme.backend.llvm_export import export_module
    from xenzyme.frontend.llvm_import import import_llvm_ir

    module = import_llvm_ir(text, "bench.ll")
    prof = cProfile.Profile()
    prof.enable()
    if stage == "import":
        import_llvm_ir(text, "bench.ll")
    else:
        export_module(module)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


# ---------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def versions() -> str:
    import llvmlite
    import llvmlite.binding as llb
    import xdsl

    clang_version = subprocess.run([clang(), "--version"], capture_output=True, text=True).stdout
    clang_version = clang_version.splitlines()[0] if clang_version else "?"
    llvm = ".".join(str(x) for x in llb.llvm_version_info)
    return (
        f"Python {platform.python_version()}, xDSL {xdsl.__version__}, llvmlite "
        f"{llvmlite.__version__} (LLVM {llvm}), {clang_version}"
    )


def table(rows: list[tuple[str, int, dict[str, float]]]) -> str:
    head = "| input | instructions | stage | seconds | instructions/s |\n|---|---:|---|---:|---:|"
    lines = [head]
    for name, n, times in rows:
        for stage in ("import", "export", "verify", "round trip"):
            t = times[stage]
            lines.append(f"| {name} | {n:,} | {stage} | {t:.2f} | {n / t:,.0f} |")
    return "\n".join(lines)


def write_results(section: str) -> None:
    old = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    block = f"{BEGIN}\n{section}\n{END}"
    if BEGIN in old and END in old:
        new = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, old, flags=re.S)
    else:
        new = old.rstrip("\n") + "\n\n" + block + "\n"
    RESULTS.write_text(new)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", choices=("import", "export"))
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()

    text, n = generated_module()
    if args.profile:
        profile(text, args.profile)
        return 0
    load_before = os.getloadavg()[0]
    rows = [(f"generated (-O2, {text.count('define ')} functions)", n, measure(text))]
    name, prog, m = largest_test_program()
    rows.append((name, m, measure(prog)))
    command = command_line(text)
    load_after = os.getloadavg()[0]
    rt = rows[0][2]["round trip"]
    verdict = "meets" if rt <= GOAL_SECONDS else "misses"
    section = "\n".join(
        [
            "## Compile speed: LLVM IR -> xDSL -> LLVM IR (`benchmarks/compile_speed.py`)",
            "",
            f"- machine: {machine()}",
            f"- versions: {versions()}",
            f"- date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; load average "
            f"{load_before:.2f} at the start, {load_after:.2f} at the end",
            "- best of two runs in one process, Python's cycle collector paused as in xenzyme-opt; import",
            "  includes LLVM's parse and verify of the input; verify is LLVM's parse and verify of",
            "  xenzyme's output; round trip is the three together.",
            "",
            table(rows),
            "",
            f"The {n:,}-instruction round trip takes {rt:.2f} s: it {verdict} the goal of "
            f"{GOAL_SECONDS:.0f} s.  The whole command `xenzyme-opt bench.ll -t llvm -o out.ll` "
            f"(interpreter start-up and the final LLVM check included) takes {command:.2f} s.",
        ]
    )
    print(section)
    if not args.no_write:
        write_results(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
