"""`make demo`: differentiate a C program written for Enzyme, then use the Python API.

1. examples/pendulum.c calls __enzyme_autodiff on an RK4 pendulum simulation.  It is compiled
   by clang-19, differentiated by `xenzyme-opt -p enzyme`, linked as a native program and run:
   it prints the gradient beside central finite differences.
2. The same kind of derivative from Python: `xenzyme.gradient` on a C function, called with
   numpy arrays.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import xenzyme

HERE = Path(__file__).resolve().parent


def step(title: str, cmd: list[str]) -> None:
    print(f"$ {' '.join(cmd)}")
    subprocess.run(cmd, check=True)


def main() -> int:
    clang = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    with tempfile.TemporaryDirectory() as d:
        ll, obj, exe = f"{d}/pendulum.ll", f"{d}/pendulum.o", f"{d}/pendulum"
        print("== A C program written for Enzyme, compiled with xenzyme ==\n")
        step("clang", [clang, "-O2", "-S", "-emit-llvm", str(HERE / "pendulum.c"), "-o", ll])
        step("xenzyme", [sys.executable, "-m", "xenzyme.cli.xenzyme_opt", ll, "-p", "enzyme", "-t", "obj", "-o", obj])
        step("link", ["cc", obj, "-lm", "-o", exe])
        print()
        subprocess.run([exe], check=True)

    print("\n== The Python API ==\n")
    source = """
    #include <math.h>
    double logsumexp(const double *x, int n) {
      double m = x[0];
      for (int i = 1; i < n; i++) m = x[i] > m ? x[i] : m;
      double s = 0;
      for (int i = 0; i < n; i++) s += exp(x[i] - m);
      return log(s) + m;
    }
    """
    grad = xenzyme.gradient(source, "logsumexp", activity=["dup", "const"])
    x = np.array([0.5, -1.0, 2.0, 0.25, 1.5])
    dx = np.zeros_like(x)
    grad(x, dx, len(x))
    softmax = np.exp(x - x.max()) / np.exp(x - x.max()).sum()
    print("x                =", x)
    print("d logsumexp / dx =", np.round(dx, 12))
    print("softmax(x)       =", np.round(softmax, 12))
    print("max difference   =", float(np.max(np.abs(dx - softmax))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
