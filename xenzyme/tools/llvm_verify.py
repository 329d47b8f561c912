"""`python -m xenzyme.tools.llvm_verify [FILE] [--bitcode -o OUT]`: LLVM's own reading of a module.

Parses and verifies LLVM IR (text or bitcode) with llvmlite's LLVM and prints LLVM's canonical
form of it, so that FileCheck tests can check what LLVM itself read from xenzyme's output; with
`--bitcode` it writes the module as bitcode instead (tests of bitcode input are generated from
text this way).  The LLVM 14 tools on PATH cannot read LLVM 22 syntax.
"""

from __future__ import annotations

import argparse
import sys

from xenzyme.diagnostics import XenzymeError
from xenzyme.frontend.llvm_import import parse_llvm_module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="llvm-verify", description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default="-", help="LLVM IR text or bitcode (default: stdin)")
    parser.add_argument("--bitcode", action="store_true", help="write bitcode instead of text")
    parser.add_argument("-o", dest="output", default="-", help="output file (default: stdout)")
    args = parser.parse_args(argv)
    data = sys.stdin.buffer.read() if args.file == "-" else _read(args.file)
    if data is None:
        return 1
    try:
        module = parse_llvm_module(data if data[:2] == b"BC" else data.decode("utf-8", "replace"), args.file)
    except XenzymeError as e:
        print(e.format("llvm-verify"), file=sys.stderr)
        return 1
    from xenzyme.backend.native import release

    out = module.as_bitcode() if args.bitcode else str(module).encode()
    release(module)
    if args.output == "-":
        sys.stdout.buffer.write(out)
    else:
        with open(args.output, "wb") as f:
            f.write(out)
    return 0


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        print(f"llvm-verify: error: cannot read '{path}': {e.strerror}", file=sys.stderr)
        return None


if __name__ == "__main__":
    sys.exit(main())
