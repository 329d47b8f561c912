"""Differentiate generated programs with xenzyme and check them against finite differences.

Programs go in batches.  Each program's requests are a C file of their own, the module xenzyme
differentiates: `pK_rev` asks for the gradient (`__enzyme_autodiff`: x duplicated, n constant,
s active), `pK_fwd` for the directional derivative (`__enzyme_fwddiff`).  The batch's driver
(`main.c`) calls them at the program's point, and the reference (`ref.c`: the same programs
compiled by clang alone, so that a primal xenzyme changed could not hide a wrong derivative)
around it.  For each clang level, one clang call compiles every program's file to LLVM IR, one
forked child differentiates the modules one after the other with the `enzyme` pipeline (an LLVM
abort or a hang cannot take the tester down, and is the result of the module it happened on),
and one executable links and runs them all.

An error of xenzyme is allowed: the request it names (a program's reverse or forward request,
told apart by the message) is counted by kind, and the program's file is built again without
it.  A crash or a hang of the program is isolated by running each program on
its own.  Each check prints the derivative beside f at x + t*d for t in {0, +-h, +-h/4}; here
the central differences at h and h/4 must agree with each other (else the point is not smooth
enough to judge: inconclusive) and with the derivative, unless the program's rounding noise,
measured by running it once rounding up and once down, is large enough to explain the
disagreement (ill-conditioned).
"""

from __future__ import annotations

import faulthandler
import json
import math
import os
import pickle
import re
import select
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from xenzyme.tools.difftest.generator import PRELUDE, Program, generate

LEVELS = ("-O0", "-O2", "-O3")
MODES = ("rev", "fwd")
COMPILE_TIMEOUT = 300
RUN_TIMEOUT = 30


@dataclass
class Check:
    """One derivative against its finite differences."""

    seed: int
    mode: str
    level: str
    component: int
    """Which input (x[i], then s for i = n) in reverse mode; 0 for the forward direction."""
    ad: float
    fd: float
    status: str
    """ok, wrong, inconclusive (not smooth at the point) or ill-conditioned (the differences
    are rounding noise)."""


@dataclass
class Report:
    programs: int = 0
    checks: Counter = field(default_factory=Counter)
    """status -> number of checks."""
    requests: Counter = field(default_factory=Counter)
    """(mode, outcome) -> number of (program, level) requests: ok, error, stopped, crash."""
    errors: Counter = field(default_factory=Counter)
    """error kind -> number of (program, mode, level)."""
    wrong: list[dict] = field(default_factory=list)
    ill_conditioned: list[dict] = field(default_factory=list)
    """Checks whose finite differences are rounding noise, with the derivative xenzyme gave."""
    crashes: list[dict] = field(default_factory=list)
    internal: list[dict] = field(default_factory=list)
    """Errors that are not XenzymeErrors (Python exceptions, LLVM aborts, hangs of xenzyme)."""
    seconds: float = 0.0

    def merge(self, other: Report) -> None:
        self.programs += other.programs
        self.checks.update(other.checks)
        self.requests.update(other.requests)
        self.errors.update(other.errors)
        self.wrong += other.wrong
        self.ill_conditioned += other.ill_conditioned
        self.crashes += other.crashes
        self.internal += other.internal

    @property
    def failures(self) -> int:
        """Wrong derivatives, crashes of generated code and internal errors: what must not happen."""
        return len(self.wrong) + len(self.crashes) + len(self.internal)

    def to_json(self) -> dict:
        return {
            "programs": self.programs, "seconds": round(self.seconds, 1), "checks": dict(self.checks),
            "requests": {f"{m} {o}": n for (m, o), n in sorted(self.requests.items())},
            "errors": dict(self.errors.most_common()), "wrong": self.wrong,
            "ill_conditioned": self.ill_conditioned, "crashes": self.crashes,
            "internal": self.internal,
        }  # fmt: skip


# ---- judging one check --------------------------------------------------------------------


def judge(ad: float, f0: float, fp: float, fm: float, fpq: float, fmq: float, fpf: float, fmf: float, h: float,
          tol: float, noise: float = 0.0) -> tuple[str, float]:  # fmt: skip
    """(status, the finite difference) of a derivative `ad` from f at 0, +-h, +-h/4, +-h/64.

    The differences at h and h/4 can agree with each other and still both straddle a kink
    that lies between h/64 and h/4 of the point (a `fmax` switching sides): the difference at
    h/64, the most local estimate, is then the one a derivative is held to.

    `noise`: how far f at the point moves when its arithmetic rounds up or down.  A program
    that amplifies its own rounding errors (a chaotic loop, say) has finite differences that
    are rounding noise; a derivative that disagrees with them by no more than that noise,
    divided by the step, is `ill-conditioned`, not wrong: the derivative of the computation
    and the differences of its rounded values need not agree there."""
    values = (f0, fp, fm, fpq, fmq, fpf, fmf)
    if not all(math.isfinite(v) for v in values):
        return "inconclusive", math.nan
    fd_h = (fp - fm) / (2 * h)
    fd_q = (fpq - fmq) / (h / 2)
    fd_f = (fpf - fmf) / (h / 32)
    if not math.isfinite(ad):
        return "wrong", fd_q
    scale = max(1.0, abs(fd_q))
    if abs(ad - fd_q) <= tol * scale:
        return "ok", fd_q
    if abs(ad - fd_f) <= tol * max(1.0, abs(fd_f)):
        return "ok", fd_f
    if abs(fd_h - fd_q) > tol * scale:  # a kink or a jump within the steps: judge by a side
        right, left = (fpq - f0) / (h / 4), (f0 - fmq) / (h / 4)
        if min(abs(ad - right), abs(ad - left)) <= 30 * tol * scale:
            return "ok", fd_q
        return "inconclusive", fd_q
    if abs(ad - fd_q) <= 4 * noise / (h / 2):
        return "ill-conditioned", fd_q
    return "wrong", fd_q


def steps(program: Program) -> tuple[float, float]:
    """(h, tolerance) of a program's finite differences: single precision rounds to 1e-7."""
    return (1e-2, 2e-3) if program.single_precision else (1e-5, 1e-5)


# ---- sources ------------------------------------------------------------------------------

_ENZYME = """extern int enzyme_dup, enzyme_const;
extern double __enzyme_autodiff(void *, ...);
extern double __enzyme_fwddiff(void *, ...);
"""

_MAIN = """#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int enzyme_dup, enzyme_const;

/* How far f at the point moves when its arithmetic rounds up or down instead of to nearest:
   the rounding noise of f, which the finite differences divide by their step. */
static double dt_noise(double (*ref)(double *, int, double), const double *x0, double s0, int n, double f0) {
  int modes[2] = {FE_UPWARD, FE_DOWNWARD};
  double x[16], noise = 0;
  for (int k = 0; k < 2; k++) {
    memcpy(x, x0, n * sizeof *x);
    fesetround(modes[k]);
    double f = ref(x, n, s0);
    fesetround(FE_TONEAREST);
    noise = fmax(noise, isfinite(f) ? fabs(f - f0) : INFINITY);
  }
  return noise;
}

static void dt_report(int seed, const char *mode, int comp, double ad, double (*ref)(double *, int, double),
                      const double *x0, double s0, int n, const double *dir, double dirs, double h) {
  double t[7] = {0, h, -h, h / 4, -h / 4, h / 64, -h / 64}, f[7], x[16];
  for (int k = 0; k < 7; k++) {
    for (int i = 0; i < n; i++) x[i] = x0[i] + t[k] * dir[i];
    f[k] = ref(x, n, s0 + t[k] * dirs);
  }
  printf("R %d %s %d %a %a %a %a %a %a %a %a %a %a\\n", seed, mode, comp, ad, f[0], f[1], f[2], f[3], f[4], f[5],
         f[6], h, dt_noise(ref, x0, s0, n, f[0]));
  fflush(stdout);
}
"""


def _floats(values: Iterable[float]) -> str:
    return ", ".join(repr(v) for v in values)


def ad_source(program: Program, modes: set[str]) -> str:
    """The file xenzyme differentiates for one program: the program and its requests, each in a
    function of its own (`pK_rev`: x duplicated, n constant, s active; `pK_fwd`: the derivative
    along the direction in `dx`, `vs`), called by `main_source`'s `main`."""
    p, n = program, program.n
    parts = [PRELUDE, _ENZYME, p.source()]
    if "rev" in modes:
        parts.append(f"double {p.key}rev(double *x, double *dx, double s) {{\n"
                     f"  return __enzyme_autodiff((void *){p.function}, enzyme_dup, x, dx, enzyme_const, {n}, s);\n}}")  # fmt: skip
    if "fwd" in modes:
        parts.append(f"double {p.key}fwd(double *x, double *dx, double s, double vs) {{\n"
                     f"  return __enzyme_fwddiff((void *){p.function}, enzyme_dup, x, dx, enzyme_const, {n}, s, vs);\n}}")  # fmt: skip
    return "\n".join(parts) + "\n"


def main_source(programs: list[Program], modes: dict[int, set[str]]) -> str:
    """The driver, compiled by clang alone: for each program, the requests of `modes` at the
    program's point, each derivative reported beside the reference's values around the point.
    `main`'s argument: the seed of the one program to run (none: all)."""
    parts = [_MAIN]
    runs = []
    for p in programs:
        if not modes[p.seed]:
            continue
        h, _ = steps(p)
        n = p.n
        parts.append(f"extern double ref_{p.function}(double *, int, double);")
        body = [f"static void run_{p.key}(void) {{", f"  double x0[{n}] = {{{_floats(p.x0)}}}, s0 = {p.s0!r};",
                f"  double v[{n}] = {{{_floats(p.v)}}}, vs = {p.vs!r}, e[{n}];"]  # fmt: skip
        if "rev" in modes[p.seed]:
            parts.append(f"extern double {p.key}rev(double *, double *, double);")
            body += [f"  {{ double x[{n}], dx[{n}] = {{0}};", "    memcpy(x, x0, sizeof x);",
                     f"    double ds = {p.key}rev(x, dx, s0);",
                     f"    for (int i = 0; i < {n}; i++) {{",
                     f"      for (int j = 0; j < {n}; j++) e[j] = i == j;",
                     f"      dt_report({p.seed}, \"rev\", i, dx[i], ref_{p.function}, x0, s0, {n}, e, 0.0, {h!r});",
                     "    }", f"    for (int j = 0; j < {n}; j++) e[j] = 0;",
                     f"    dt_report({p.seed}, \"rev\", {n}, ds, ref_{p.function}, x0, s0, {n}, e, 1.0, {h!r});", "  }"]  # fmt: skip
        if "fwd" in modes[p.seed]:
            parts.append(f"extern double {p.key}fwd(double *, double *, double, double);")
            body += [f"  {{ double x[{n}], dx[{n}];", "    memcpy(x, x0, sizeof x);", "    memcpy(dx, v, sizeof dx);",
                     f"    double t = {p.key}fwd(x, dx, s0, vs);",
                     f"    dt_report({p.seed}, \"fwd\", 0, t, ref_{p.function}, x0, s0, {n}, v, vs, {h!r});", "  }"]  # fmt: skip
        body.append("}")
        parts.append("\n".join(body))
        runs.append(f"  if (only < 0 || only == {p.seed}) run_{p.key}();")
    parts.append("int main(int argc, char **argv) {\n  int only = argc > 1 ? atoi(argv[1]) : -1;\n"
                 + "\n".join(runs) + "\n  return 0;\n}\n")  # fmt: skip
    return "\n".join(parts)


def ref_source(programs: list[Program]) -> str:
    """The reference: the same programs, compiled by clang alone."""
    parts = [PRELUDE]
    for p in programs:
        parts.append(p.source())
        parts.append(f"double ref_{p.function}(double *x, int n, double s) {{ return {p.function}(x, n, s); }}")
    return "\n".join(parts)


# ---- differentiating, in a child process --------------------------------------------------


def _differentiate(ll: str, obj: str) -> None:
    import xenzyme as xz

    module = xz.load(ll)
    xz.run_pipeline(module, "enzyme")
    xz.to_object(module, obj)


def warm_up() -> None:
    """Differentiate a small program once, so that every module xenzyme imports on first use
    (rules, passes, LLVM's targets) is loaded before the children are forked: each child would
    otherwise import them again."""
    import xenzyme  # noqa: F401

    p = generate(0)
    with tempfile.TemporaryDirectory(prefix="xenzyme-difftest-") as tmp:
        c, ll = Path(tmp) / "warm.c", Path(tmp) / "warm.ll"
        c.write_text(ad_source(p, set(MODES)))
        r = _run([clang(), "-O2", "-w", "-S", "-emit-llvm", str(c), "-o", str(ll)], COMPILE_TIMEOUT)
        if r is not None and r.returncode == 0:
            _outcome(_differentiate, str(ll), str(Path(tmp) / "warm.o"))


def _outcome(fn, *args) -> tuple[str, object]:
    from xenzyme.diagnostics import XenzymeError

    try:
        return "ok", fn(*args)
    except XenzymeError as e:
        return "error", str(e)
    except BaseException as e:  # noqa: BLE001 -- reported as an internal error
        return "internal", f"{type(e).__name__}: {e}"


def _direct(fn, *args):
    return fn(*args)


def _in_child(fn, jobs: list[tuple], timeout: float = COMPILE_TIMEOUT, shared: bool = True) -> list[tuple[str, object]]:
    """[("ok", result), ("error", XenzymeError text) or ("internal", what went wrong)] of
    `fn(*job)` for each job, run one after the other in one forked child (an LLVM abort or a
    hang cannot take the tester down).

    `shared`: the child also runs LLVM's steps itself, where xenzyme would fork once more for
    each (`backend.native.run_isolated`, which runs a pipeline that crashed again without the
    vectorisers); a job that kills the child is then run again in a child of its own with
    xenzyme's own isolation, so that what xenzyme does after such a crash is what is judged.
    Each job has `timeout` seconds."""
    results: list[tuple[str, object]] = []
    while len(results) < len(jobs):
        rest = jobs[len(results) :]
        got, why = _stream(fn, rest, timeout, shared)
        results += got
        if len(got) < len(rest):  # the child died or hung on rest[len(got)]
            if shared and "died" in why:
                again, why = _stream(fn, rest[len(got) : len(got) + 1], timeout, False)
                if again:
                    results += again
                    continue
            results.append(("internal", why))
    return results


def _stream(fn, jobs: list[tuple], timeout: float, shared: bool) -> tuple[list[tuple[str, object]], str]:
    """The results of `fn(*job)` for `jobs` in one child, as far as it got; and why it stopped
    short (it died, or hung)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        faulthandler.disable()  # (an abort is reported by the parent; no traceback of this process)
        if shared:
            from xenzyme.backend import native

            native.run_isolated = _direct
        with os.fdopen(write_fd, "wb") as out:
            for job in jobs:
                data = pickle.dumps(_outcome(fn, *job))
                out.write(len(data).to_bytes(8, "little") + data)
                out.flush()
        os._exit(0)
    os.close(write_fd)
    results: list[tuple[str, object]] = []
    buf, why = b"", ""
    deadline = time.monotonic() + timeout
    with os.fdopen(read_fd, "rb") as inp:
        while len(results) < len(jobs):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([inp], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                why = f"xenzyme took more than {timeout:.0f} s"
                break
            chunk = os.read(inp.fileno(), 1 << 16)
            if not chunk:
                break
            buf += chunk
            while len(buf) >= 8 and len(buf) >= 8 + (size := int.from_bytes(buf[:8], "little")):
                results.append(pickle.loads(buf[8 : 8 + size]))
                buf = buf[8 + size :]
                deadline = time.monotonic() + timeout
    _, status = os.waitpid(pid, 0)
    if len(results) < len(jobs) and not why:
        sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
        why = f"xenzyme died (signal {sig})"
    return results, why


_NAME = re.compile(r"@(p(\d+)_\w*)")


def error_kind(message: str) -> str:
    """An error message without its names and numbers: what kind of error it is."""
    first = message.strip().splitlines()[0] if message.strip() else "?"
    first = re.sub(r"^.*?error: ", "", first)
    first = re.sub(r"^[^ ]*\.c(:\d+)*: ", "", first)
    first = re.sub(r"@[\w.$]+", "@F", first)
    first = re.sub(r"%[\w.]+", "%v", first)
    first = re.sub(r"\b\d+\b", "N", first)
    return first[:160]


def _blamed(message: str, seeds: set[int]) -> tuple[int | None, str]:
    """The seed and mode an error names (the first function of a program in the message)."""
    mode = "fwd" if "forward mode" in message or "tangent" in message.split("\n")[0] else "rev"
    for m in _NAME.finditer(message):
        if int(m.group(2)) in seeds:
            return int(m.group(2)), mode
    return None, mode


# ---- one batch ------------------------------------------------------------------------------


def _run(cmd: list[str], timeout: float, **kw) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        return None


def clang() -> str:
    return shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"


def run_batch(seeds: list[int], levels: Iterable[str] = LEVELS, modes: Iterable[str] = MODES,
              keep: Path | None = None) -> Report:  # fmt: skip
    """Generate, differentiate and check the programs of `seeds` at each level."""
    report = Report(programs=len(seeds))
    programs = [generate(s) for s in seeds]
    done: dict[str, tuple[str, object, bytes]] = {}
    with tempfile.TemporaryDirectory(prefix="xenzyme-difftest-") as tmp:
        for level in levels:
            where = Path(tmp) / level.lstrip("-")
            where.mkdir()
            _run_level(programs, level, set(modes), where, report, keep, done)
    return report


def _run_level(programs: list[Program], level: str, modes: set[str], tmp: Path, report: Report,
               keep: Path | None, done: dict[str, tuple[str, object, bytes]] | None = None) -> None:  # fmt: skip
    """The programs at one level: each program's requests are a module of their own (what
    xenzyme does to one program cannot depend on the others, an error names its program, and
    the work grows with the number of programs, not its square); one clang call compiles them
    all, one child differentiates them one after the other, one executable runs them.

    `done`: LLVM IR text -> (status, message, object) of the modules differentiated at the
    levels before.  clang's -O2 and -O3 often give the same IR for a small program (about
    half of them), and xenzyme's output is a function of its input: the object is used again
    (and checked against this level's reference) instead of being made again."""
    done = {} if done is None else done
    by_seed = {p.seed: p for p in programs}
    wanted = {p.seed: set(modes) for p in programs}
    (tmp / "ref.c").write_text(ref_source(programs))
    r = _run([clang(), level, "-w", "-c", "ref.c", "-o", "ref.o"], COMPILE_TIMEOUT, cwd=tmp)
    if r is None or r.returncode != 0:
        raise RuntimeError(f"clang cannot compile the reference programs:\n{r.stderr if r else 'timeout'}")
    todo = list(programs)
    while todo:
        for p in todo:
            (tmp / f"{p.key}.c").write_text(ad_source(p, wanted[p.seed]))
        r = _run([clang(), level, "-w", "-S", "-emit-llvm", *(f"{p.key}.c" for p in todo)], COMPILE_TIMEOUT, cwd=tmp)
        if r is None or r.returncode != 0:
            raise RuntimeError(f"clang cannot compile the generated programs:\n{r.stderr if r else 'timeout'}")
        texts = {p.seed: (tmp / f"{p.key}.ll").read_text() for p in todo}
        new = [p for p in todo if texts[p.seed] not in done]
        results = _in_child(_differentiate, [(str(tmp / f"{p.key}.ll"), str(tmp / f"{p.key}.o")) for p in new])
        for p, (status, value) in zip(new, results):
            obj = tmp / f"{p.key}.o"
            done[texts[p.seed]] = (status, value, obj.read_bytes() if status == "ok" else b"")
        again = []
        for p in todo:
            status, value, obj = done[texts[p.seed]]
            if status == "ok":
                if p not in new:
                    (tmp / f"{p.key}.o").write_bytes(obj)
                continue
            _, mode = _blamed(str(value), {p.seed})
            if mode not in wanted[p.seed]:
                mode = sorted(wanted[p.seed])[0]
            _record_error(report, status, str(value), p.seed, mode, level, by_seed, keep)
            wanted[p.seed].discard(mode)
            if wanted[p.seed]:
                again.append(p)
        todo = again
    live = [p for p in programs if wanted[p.seed]]
    if live:
        _link_and_check(live, wanted, level, tmp, report, keep, by_seed)


def _record_error(report: Report, status: str, message: str, seed: int, mode: str, level: str,
                  by_seed: dict[int, Program], keep: Path | None) -> None:  # fmt: skip
    if status == "error":
        report.errors[error_kind(message)] += 1
        report.requests[(mode, "error")] += 1
        return
    report.requests[(mode, "internal")] += 1
    report.internal.append({"seed": seed, "mode": mode, "level": level, "message": message[:2000]})
    _keep(keep, by_seed[seed])


def _link_and_check(live: list[Program], wanted: dict[int, set[str]], level: str, tmp: Path, report: Report,
                    keep: Path | None, by_seed: dict[int, Program]) -> None:  # fmt: skip
    (tmp / "main.c").write_text(main_source(live, wanted))
    exe = tmp / "prog"
    r = _run([clang(), level, "-w", "main.c", "ref.o", *(f"{p.key}.o" for p in live), "-lm", "-o", "prog"],
             COMPILE_TIMEOUT, cwd=tmp)  # fmt: skip
    if r is None or r.returncode != 0:
        for p in live:
            for mode in wanted[p.seed]:
                report.requests[(mode, "internal")] += 1
                report.internal.append({"seed": p.seed, "mode": mode, "level": level,
                                        "message": f"link failed: {r.stderr[:1000] if r else 'timeout'}"})  # fmt: skip
        return
    r = _run([str(exe)], RUN_TIMEOUT)
    if r is not None and r.returncode == 0:
        _judge_output(r.stdout, live, wanted, level, report, keep, by_seed)
        return
    for p in live:  # something crashed or hung: each program on its own
        r = _run([str(exe), str(p.seed)], RUN_TIMEOUT)
        if r is not None and r.returncode == 0:
            _judge_output(r.stdout, [p], wanted, level, report, keep, by_seed)
            continue
        out = "" if r is None else r.stdout
        done = {line.split()[2] for line in out.splitlines() if line.startswith("R ")}
        _judge_output(out, [p], wanted, level, report, keep, by_seed, partial=True)
        stopped = r is not None and "xenzyme:" in r.stderr
        for mode in wanted[p.seed] - done:
            if stopped:  # xenzyme's generated code stopped the program with a message: an error
                report.requests[(mode, "stopped")] += 1
                report.errors[error_kind(r.stderr.strip().splitlines()[-1])] += 1  # type: ignore[union-attr]
                continue
            report.requests[(mode, "crash")] += 1
            what = "timeout" if r is None else f"exit status {r.returncode}: {r.stderr.strip()[-500:]}"
            report.crashes.append({"seed": p.seed, "mode": mode, "level": level, "what": what})
            _keep(keep, p)


def _judge_output(out: str, live: list[Program], wanted: dict[int, set[str]], level: str, report: Report,
                  keep: Path | None, by_seed: dict[int, Program], partial: bool = False) -> None:  # fmt: skip
    seen: set[tuple[int, str]] = set()
    for line in out.splitlines():
        if not line.startswith("R "):
            continue
        _, seed_s, mode, comp_s, *nums = line.split()
        seed, comp = int(seed_s), int(comp_s)
        ad, *values, h, noise = (float.fromhex(v) for v in nums)
        p = by_seed[seed]
        status, fd = judge(ad, *values, h, steps(p)[1], noise)
        report.checks[status] += 1
        seen.add((seed, mode))
        if status in ("wrong", "ill-conditioned"):
            what = {"seed": seed, "mode": mode, "level": level, "component": comp, "ad": ad, "fd": fd}
            if status == "wrong":
                report.wrong.append(what)
                _keep(keep, p)
            else:
                report.ill_conditioned.append({**what, "noise": noise})
    if partial:
        for seed, mode in seen:
            report.requests[(mode, "ok")] += 1
        return
    for p in live:
        for mode in wanted[p.seed]:
            report.requests[(mode, "ok" if (p.seed, mode) in seen else "crash")] += 1
            if (p.seed, mode) not in seen:
                report.crashes.append({"seed": p.seed, "mode": mode, "level": level, "what": "no output"})


def _keep(keep: Path | None, p: Program) -> None:
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        (keep / f"program{p.seed}.c").write_text(PRELUDE + p.source())


def save(report: Report, path: Path) -> None:
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(report.to_json(), indent=1) + "\n")
    part.replace(path)  # (whole or not at all, for one who reads it during a run)


__all__ = ["LEVELS", "MODES", "Check", "Report", "asdict", "error_kind", "judge", "run_batch", "save"]
