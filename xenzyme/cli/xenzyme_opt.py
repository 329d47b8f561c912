"""`xenzyme-opt`: xDSL's opt driver with xenzyme's dialects, passes, frontends and targets.

    xenzyme-opt prog.ll                      # import, print the llvm dialect (xDSL text)
    xenzyme-opt prog.c -p enzyme -t obj -o prog.o
    xenzyme-opt prog.ll -p 'llvm-opt{level=3}' -t llvm

The driver is xenzyme/cli/driver.py.  This module is what the command runs first: a compile
to `-t obj` or `-t llvm` whose result is in the derivative cache (xenzyme/cache.py) is answered
from it before xDSL and LLVM are imported (xenzyme/cli/cached.py); everything else goes to the
driver.
"""

from __future__ import annotations

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
    from xenzyme.cli.driver import run

    return run(argv)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
