"""Shared fixtures: paths and the toolchain used by the end-to-end tests."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
XENZYME_OPT = [sys.executable, "-m", "xenzyme.cli.xenzyme_opt"]

# The derivative cache of this test session (and of the commands it runs): a private folder of
# its own, not the user's cache.
os.environ["XENZYME_CACHE_DIR"] = tempfile.mkdtemp(prefix="xenzyme-test-cache-")
atexit.register(shutil.rmtree, os.environ["XENZYME_CACHE_DIR"], ignore_errors=True)


def clang() -> str:
    path = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    if not os.path.exists(path):
        pytest.skip("clang-19 is not installed (run `make setup`)")
    return path


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=kw.pop("timeout", 300), **kw)


def fd(f, x: float, h: float = 1e-6) -> float:
    """Central difference of a scalar function at x."""
    return (f(x + h) - f(x - h)) / (2 * h)


def fd_array(f, a, h: float = 1e-6):
    """d f() / d a by central differences, element by element (f reads the array a in place)."""
    import numpy as np

    out = np.zeros(a.shape)
    for idx in np.ndindex(a.shape):
        old = a[idx]
        a[idx] = old + h
        up = f()
        a[idx] = old - h
        down = f()
        a[idx] = old
        out[idx] = (up - down) / (2 * h)
    return out
