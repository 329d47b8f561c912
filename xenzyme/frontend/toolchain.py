"""Running a language's own compiler to get LLVM bitcode (flang, rustc)."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable

from xdsl.dialects.builtin import ModuleOp, StringAttr

from xenzyme.diagnostics import XenzymeError

_POSITIONED = re.compile(r":\d+:\d+: error:")
"""A message with a position (flang's, after its summary "Could not parse ...")."""


def run_compiler(
    tool: str, source: str, filename: str, suffix: str, command: Callable[[str, str, str], list[str]]
) -> bytes:
    """Compile `source` (the text of `filename`) with `command(src, out, scratch)` and return
    the bitcode it writes to `out`.

    The compiler runs in a scratch folder (what it leaves there -- module files, temporaries --
    is thrown away).  When `filename` holds `source`, the compiler reads the user's own file, so
    its messages and debug info name it; the messages become a XenzymeError: the first error,
    and the lines after it as notes.
    """
    with tempfile.TemporaryDirectory(prefix="xenzyme-") as scratch:
        out = os.path.join(scratch, "out.bc")
        src = os.path.join(scratch, "input" + suffix)
        if _same_file_content(filename, source):
            src = os.path.abspath(filename)
        else:
            with open(src, "w") as f:
                f.write(source)
        try:
            proc = subprocess.run(command(src, out, scratch), capture_output=True, text=True, cwd=scratch)
        except OSError as e:
            raise XenzymeError(f"cannot run {tool}: {e.strerror}") from None
        if proc.returncode != 0 or not os.path.exists(out):
            msg = proc.stderr.replace(src, filename).strip()
            lines = [ln for ln in msg.splitlines() if ln.strip()]
            first = next((i for i, ln in enumerate(lines) if _POSITIONED.search(ln)), None)
            if first is None:
                first = next((i for i, ln in enumerate(lines) if "error" in ln), 0)
            head = lines[first].strip() if lines else f"exit status {proc.returncode}"
            raise XenzymeError(f"{tool} failed on {filename}: {head}", notes=lines[first + 1 : first + 6])
        with open(out, "rb") as f:
            return f.read()


def _same_file_content(path: str, source: str) -> bool:
    try:
        with open(path) as f:
            return f.read() == source
    except (OSError, UnicodeDecodeError):
        return False


def import_compiled(bitcode: bytes, filename: str) -> ModuleOp:
    """Import a compiler's bitcode as the module of `filename`: errors and the exported IR name
    the user's source, not what the compiler called its module (`FIRModule`, a codegen unit)."""
    from xenzyme.frontend.llvm_import import import_llvm_ir

    module = import_llvm_ir(bitcode, filename)
    module.attributes["llvm.source_filename"] = StringAttr(filename)
    return module
