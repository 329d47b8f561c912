"""Older producers' LLVM IR -> syntax LLVM 22 reads.

LLVM keeps reading old *bitcode* (it upgrades what it can), but its text parser reads only the
current syntax, and some constructs it cannot upgrade at all.  The one that matters here is the
integer `mul` constant expression, removed in LLVM 20: flang-19 writes it into the sizes of its
type descriptors (`i64 mul (i64 ptrtoint (ptr getelementptr (i8, ptr null, i32 1) to i64), i64 6)`)
and, at -O0, into instructions.  LLVM 22 rejects it in text ("mul constexprs are no longer
supported") and in a global initializer of bitcode ("unsupported constant expression of type mul")
-- where there is no instruction to expand it into.

`upgrade_text` rewrites each such product exactly, as address arithmetic LLVM 22 still has:

    mul (iN A, iN C)           ->  ptrtoint (ptr getelementptr ([C x i8], ptr null, iN A) to iN)
    mul (iN A, iN sizeof(T))   ->  ptrtoint (ptr getelementptr (T, ptr null, iN A) to iN)

(`sizeof(T)` spelled as LLVM spells it, `ptrtoint (ptr getelementptr (T, ptr null, i32 1) to
iN)`; a negative literal C gives `sub (iN 0, ...)`).  Without `inbounds`, address arithmetic wraps
modulo 2^64 as `mul` does, so the value is the same for any A whenever N is at most the pointer
width; LLVM folds it to the number when it knows the data layout.

Measured against the other route, LLVM 19's `opt-19 -passes=globalopt` (which folds constant
initializers): on flang-19's bitcode of tests/programs/fortran/derived_type.f90 it leaves one
product (the name length in the descriptor of a type, `i64 mul (i64 ptrtoint (ptr getelementptr
(i8, ptr null, i32 1) to i64), i64 8)`) at -O0 and at -O2, and LLVM 22 still rejects the module;
it would also change the rest of a -O0 module (dead type descriptors deleted, globals localized
into `main`).  The rewrite here handles every product flang-19 wrote in the test programs (one
factor is always a constant); it costs about 1 ms per module, plus about 30 ms for `llvm-dis-19`
when the input is bitcode, against 130-210 ms for flang itself to compile the same programs.

Old bitcode whose initializers hold such an expression is first disassembled by LLVM 19's
`llvm-dis-19` (any LLVM reads older bitcode; 19 is the last that reads `mul`), then rewritten.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

REMOVED_SYNTAX = re.compile(r"(\w+) constexprs are no longer supported|unsupported constant expression of type (\w+)")
"""LLVM 22's messages for constant expressions it no longer reads (text, bitcode)."""

_MUL = re.compile(r"(?<![\w@%$.!#\-])mul(?:\s+nuw)?(?:\s+nsw)?\s*\(")
_STRING_OR_COMMENT = re.compile(r'"[^"]*"|;[^\n]*')
_SIZEOF = re.compile(r"ptrtoint\s*\(\s*ptr\s+getelementptr\s*\((.*),\s*ptr\s+null,\s*i\d+\s+1\s*\)\s+to\s+i\d+\s*\)", re.S)
_INT = re.compile(r"-?\d+")
_OPEN, _CLOSE = "([{<", ")]}>"


def llvm_dis_19() -> str | None:
    """LLVM 19's disassembler (`XENZYME_LLVM_DIS` names another; empty: none)."""
    if (chosen := os.environ.get("XENZYME_LLVM_DIS")) is not None:
        return shutil.which(chosen) if chosen else None
    return shutil.which("llvm-dis-19") or (p if Path(p := "/usr/lib/llvm-19/bin/llvm-dis").exists() else None)


def needs_upgrade(message: str) -> str | None:
    """The removed constant expression an LLVM 22 parse error is about (`mul`), or None."""
    m = REMOVED_SYNTAX.search(message)
    return (m.group(1) or m.group(2)) if m else None


def upgrade_text(text: str) -> str:
    """`text` with every `mul` constant expression rewritten (see the module docstring); a
    product this cannot express exactly (a vector, wider than a pointer, two non-constant
    factors) is left as it is, and LLVM's parser reports it."""
    if "mul" not in text:
        return text
    width = _pointer_bits(text)
    out, pos = [], 0
    for m in _STRING_OR_COMMENT.finditer(text):
        out += [_rewrite(text, pos, m.start(), width), m.group()]
        pos = m.end()
    out.append(_rewrite(text, pos, len(text), width))
    return "".join(out)


def _rewrite(text: str, start: int, end: int, width: int) -> str:
    """text[start:end] (code between strings and comments) with its products rewritten,
    innermost first."""
    out: list[str] = []
    pos = i = start
    while (m := _MUL.search(text, i, end)) is not None:
        close = _matching(text, m.end() - 1, end)
        if close is None:
            break
        replacement = _rewrite_product(_rewrite(text, m.end(), close, width), width)
        if replacement is None:
            i = m.end()
            continue
        out += [text[pos : m.start()], replacement]
        pos = i = close + 1
    out.append(text[pos:end])
    return "".join(out)


def disassemble_19(bitcode: bytes) -> str | None:
    """Old bitcode as LLVM 19 writes it in text, or None when llvm-dis-19 is missing or fails."""
    tool = llvm_dis_19()
    if tool is None:
        return None
    with tempfile.TemporaryDirectory(prefix="xenzyme-") as d:
        src = Path(d) / "in.bc"
        src.write_bytes(bitcode)
        proc = subprocess.run([tool, str(src), "-o", "-"], capture_output=True, text=True)
    return proc.stdout if proc.returncode == 0 else None


def _pointer_bits(text: str) -> int:
    m = re.search(r'target datalayout = "([^"]*)"', text)
    if m and (p := re.search(r"(?:^|-)p0?:(\d+)", m.group(1))):
        return int(p.group(1))
    return 64


def _matching(text: str, open_at: int, end: int) -> int | None:
    depth = 0
    for i in range(open_at, end):
        c = text[i]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return None


def _split_operands(body: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(body):
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(body[start:i].strip())
            start = i + 1
    parts.append(body[start:].strip())
    return parts


def _rewrite_product(body: str, pointer_bits: int) -> str | None:
    """`body` is `iN A, iN B`; the product as address arithmetic, or None."""
    operands = _split_operands(body)
    if len(operands) != 2:
        return None
    typed = [re.match(r"(i(\d+))\s+(.*)", o, re.S) for o in operands]
    if typed[0] is None or typed[1] is None or typed[0].group(1) != typed[1].group(1):
        return None
    ty, bits = typed[0].group(1), int(typed[0].group(2))
    if bits > pointer_bits:
        return None
    a, b = typed[0].group(3).strip(), typed[1].group(3).strip()
    for value, factor in ((a, b), (b, a)):
        if _INT.fullmatch(factor):
            c = int(factor)
            gep = f"ptrtoint (ptr getelementptr ([{abs(c)} x i8], ptr null, {ty} {value}) to {ty})"
            return gep if c >= 0 else f"sub ({ty} 0, {ty} {gep})"
        if (s := _SIZEOF.fullmatch(factor)) is not None:
            return f"ptrtoint (ptr getelementptr ({s.group(1).strip()}, ptr null, {ty} {value}) to {ty})"
    return None
