"""`python -m xenzyme.tools.llvm_verify FILE.ll`: parse and verify LLVM IR with llvmlite's LLVM.

Prints LLVM's canonical form of the module, so that FileCheck tests can check what LLVM itself
read from xenzyme's output.  The LLVM 14 tools on PATH cannot read LLVM 22 syntax.
"""

from __future__ import annotations

import sys

from xenzyme.diagnostics import XenzymeError
from xenzyme.frontend.llvm_import import parse_llvm_module


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    path = argv[0] if argv else "-"
    text = sys.stdin.read() if path == "-" else open(path).read()
    try:
        module = parse_llvm_module(text, path)
    except XenzymeError as e:
        print(e.format("llvm-verify"), file=sys.stderr)
        return 1
    sys.stdout.write(str(module))
    return 0


if __name__ == "__main__":
    sys.exit(main())
