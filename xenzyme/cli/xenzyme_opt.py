"""`xenzyme-opt`: xDSL's opt driver with xenzyme's dialects, passes, frontends and targets.

    xenzyme-opt prog.ll                      # import, print the llvm dialect (xDSL text)
    xenzyme-opt prog.c -p enzyme -t obj -o prog.o
    xenzyme-opt prog.ll -p 'llvm-opt{level=3}' -t llvm

The driver is xenzyme/cli/driver.py.  This module is what the command runs first: a compile
to `-t obj` or `-t llvm` whose result is in the derivative cache (xenzyme/cache.py) is answered
from it before xDSL and LLVM are imported (xenzyme/cli/cached.py); everything else goes to the
driver.

The compile runs with Python's cyclic garbage collector off: a compile builds millions of
long-lived objects (imported classes, the module's ops), which each full collection walks
again, for little to free (what a compile drops is mostly freed by reference counts when it is
dropped); a process that ends when the compile does gets its memory back anyway.  Off, a small
program's compile takes about a tenth less CPU time, the gradient of 1,000 statements 0.4 s
less, with the same peak memory.
"""

from __future__ import annotations

import gc
import sys


def main(args: list[str] | None = None) -> int:
    """Run xenzyme-opt; every failure caused by the input is one `error:` line and status 1."""
    argv = list(sys.argv[1:] if args is None else args)
    try:
        from xenzyme.cli.cached import answer

        status = answer(argv)
    except KeyboardInterrupt:
        return 130
    if status is not None:
        return status
    collecting = gc.isenabled()
    gc.disable()
    try:
        from xenzyme.cli.driver import run

        return run(argv)
    finally:
        if collecting:  # (main may be called in a process that goes on)
            gc.enable()


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
