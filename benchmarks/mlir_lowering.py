"""Lowering structured derivatives to LLVM IR: xenzyme's own passes (`lower-structured`)
against MLIR's (`mlir-opt-19` + `mlir-translate-19` from Debian's mlir-19-tools, installed by
`scripts/setup-toolchain.sh --mlir`; `make bench-mlir-lowering`).

For each program of benchmarks/mlir_levels.py, the gradient is built at the structured level
(func/arith/math/scf/memref), then lowered to LLVM IR text both ways:

    xenzyme   lower-structured, then the llvm dialect printed as LLVM IR     (in process)
    mlir-opt  the module printed as MLIR text; mlir-opt-19 --convert-scf-to-cf
              --convert-math-to-llvm --convert-math-to-libm --convert-arith-to-llvm
              --finalize-memref-to-llvm --convert-func-to-llvm --convert-cf-to-llvm
              --reconcile-unrealized-casts | mlir-translate-19 --mlir-to-llvmir   (two processes)

Both texts are compiled the same way (LLVM's O2 pipeline and JIT through llvmlite) and the two
gradients run on the same arguments: their results must agree to 1e-12, and the table gives
the lowering time (the smallest of several), the JIT compile time and the gradient's run time
(the smallest of several, interleaved) of each, and the ratio.  Prints a Markdown table; with
--write, also puts it between the `<!-- mlir-lowering:begin -->` and `end` markers of
benchmarks/RESULTS.md (the rest of the file is kept).

    .venv/bin/python benchmarks/mlir_lowering.py [--write]
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import xenzyme as xz  # noqa: E402
from mlir_levels import CASES, PROGRAMS  # noqa: E402
from xenzyme.api import _structured_activities, context  # noqa: E402
from xenzyme.backend.llvm_export import export_module  # noqa: E402
from xenzyme.backend.jit import JITModule  # noqa: E402
from xenzyme.backend.memrefs import GradientCall  # noqa: E402
from xenzyme.transforms.diff.structured import gradient_entry  # noqa: E402
from xenzyme.transforms.lower_structured import LowerStructuredPass  # noqa: E402

MLIR_PASSES = ["--convert-scf-to-cf", "--convert-math-to-llvm", "--convert-math-to-libm", "--convert-arith-to-llvm",
               "--finalize-memref-to-llvm", "--convert-func-to-llvm", "--convert-cf-to-llvm",
               "--reconcile-unrealized-casts"]  # fmt: skip


def lower_xenzyme(module) -> str:
    module = module.clone()
    LowerStructuredPass().apply(context(), module)
    return export_module(module)


def lower_mlir_opt(module) -> str:
    from xdsl.printer import Printer

    buf = io.StringIO()
    Printer(stream=buf).print_op(module)
    opt = subprocess.run(["mlir-opt-19", *MLIR_PASSES], input=buf.getvalue(), capture_output=True, text=True, check=True)
    ll = subprocess.run(["mlir-translate-19", "--mlir-to-llvmir"], input=opt.stdout, capture_output=True, text=True,
                        check=True)  # fmt: skip
    return ll.stdout


def _only(module, entry: str) -> None:
    """Keep only `entry` and the functions it calls (the programs' files hold others, some with
    derivative requests of their own)."""
    from xdsl.dialects import func

    fns = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    keep, todo = set(), [entry]
    while todo:
        n = todo.pop()
        if n in keep or n not in fns:
            continue
        keep.add(n)
        todo += [o.callee.root_reference.data for o in fns[n].walk() if isinstance(o, func.CallOp)]
    for n, op in fns.items():
        if n not in keep:
            module.body.block.erase_op(op)


def _best(f, reps: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t)
    return best, out


def _run(g, make) -> tuple[float, list]:
    args = make()
    t = time.perf_counter()
    out = g(*args)
    return time.perf_counter() - t, [out, *[a for a in args if isinstance(a, np.ndarray)]]


RESULTS = Path(__file__).resolve().parent / "RESULTS.md"
BEGIN, END = "<!-- mlir-lowering:begin -->", "<!-- mlir-lowering:end -->"


def write_section(table: str) -> None:
    text = RESULTS.read_text()
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + BEGIN + "\n" + table + END + rest.split(END, 1)[1]
    else:
        text += f"\n{BEGIN}\n{table}{END}\n"
    RESULTS.write_text(text)


def main(reps: int = 5, write: bool = False) -> None:
    if shutil.which("mlir-opt-19") is None:
        sys.exit("mlir-opt-19 is not installed: run scripts/setup-toolchain.sh --mlir")
    lines = ["| program | size | lowering, xenzyme | lowering, mlir-opt | JIT, xenzyme | JIT, mlir-opt "
             "| gradient, xenzyme | gradient, mlir-opt | gradient mlir-opt ÷ xenzyme |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for line in lines:
        print(line, flush=True)
    for file, name, acts, make, _dyn, size in CASES:
        module = xz.load(PROGRAMS / f"{file}.mlir").clone()
        types, acts2 = _structured_activities(module, name, acts, False)
        made = gradient_entry(module, name, acts2)
        assert made is not None, f"@{name} is not differentiated at the structured level"
        entry, outs = made
        _only(module, entry)
        lx, text_x = _best(lambda: lower_xenzyme(module), reps)
        lm, text_m = _best(lambda: lower_mlir_opt(module), reps)
        grads = []
        jits = []
        for text in (text_x, text_m):
            t = time.perf_counter()
            jit = JITModule(text, opt_level=2)
            jits.append(time.perf_counter() - t)
            grads.append(GradientCall(jit.function(entry), name, types, acts2, outs))
        _, rx = _run(grads[0], make)
        _, rm = _run(grads[1], make)
        for a, b in zip(rx, rm, strict=True):  # the same derivative both ways
            np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=1e-12, atol=1e-15)
        tx, tm = [], []
        for _ in range(reps):  # interleaved: both see the same machine
            tx.append(_run(grads[0], make)[0])
            tm.append(_run(grads[1], make)[0])
        gx, gm = min(tx), min(tm)
        lines.append(f"| {name} | {size} | {lx * 1e3:.1f} ms | {lm * 1e3:.1f} ms | {jits[0] * 1e3:.0f} ms | "
                     f"{jits[1] * 1e3:.0f} ms | {gx * 1e3:.2f} ms | {gm * 1e3:.2f} ms | {gm / gx:.2f} |")  # fmt: skip
        print(lines[-1], flush=True)
    if write:
        import platform

        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        version = subprocess.run(["mlir-opt-19", "--version"], capture_output=True, text=True).stdout
        version = next((ln.strip() for ln in version.splitlines() if "version" in ln.lower()), "mlir-opt-19")
        write_section("\n".join(lines) + f"\n\n{when}, {platform.machine()}, {version}, {reps} repetitions.\n")


if __name__ == "__main__":
    main(write="--write" in sys.argv[1:])
