"""`python -m xenzyme.tools.ir_diff A.ll B.ll`: compare two LLVM modules modulo local names.

A round trip through xenzyme must give back the module it read: same instructions, flags,
attributes, metadata and debug records, in the same order.  What may legitimately change is
spelling that carries no meaning -- local value and block names, the numbering of attribute
groups, and where intrinsic declarations sit -- so both modules are parsed by LLVM, printed in
its canonical form, and normalised:

* local values and labels are renamed by order of definition in each function (the entry
  block's label, printed only when it has a name, is left out);
* `#N` attribute-group references are replaced by the group's contents;
* constant GEP indices are compared by value (`i32 0` and `i64 0` index alike), and a phi's
  inputs as a set, without fast-math flags (block arguments have no place for them);
* declarations are sorted, and intrinsic declarations left out: they are implied by their uses,
  and LLVM's auto-upgrade leaves stale ones behind.

Exit status 0 when the normalised texts are equal, 1 with a unified diff otherwise.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Iterable

_TOKEN = re.compile(
    r"""
      c?"[^"]*"              # strings
    | ;[^\n]*                # comments
    | [%@!$#]"[^"]*"         # quoted names
    | [%@$#][-\w$.]+         # names, attribute groups
    | ![-\w$.\\]*            # metadata
    | [-\w$.]+:(?=\s|$)      # labels
    | [-\w$.+]+              # words, numbers
    | \S                     # punctuation
    """,
    re.VERBOSE,
)
_TYPE_DEF = re.compile(r'(%"[^"]*"|%[-\w$.]+) = type ')
_PHI = re.compile(r"(\S+ = phi )(?:(?:fast|nnan|ninf|nsz|arcp|contract|afn|reassoc) )*(.*?)((?:\[ [^\]]* \](?: , )?)+)(.*)$")


def canonical_text(text: str | bytes) -> str:
    """LLVM's own printing of a module (text or bitcode), after parsing and verifying it."""
    from xenzyme.backend.native import release
    from xenzyme.frontend.llvm_import import parse_llvm_module

    module = parse_llvm_module(text)
    try:
        return str(module)
    finally:
        release(module)


def normalize(text: str) -> list[str]:
    """Canonical LLVM text -> lines that are equal for modules equal modulo local names."""
    lines = text.split("\n")
    groups = _attribute_groups(lines)
    type_names = {m.group(1) for ln in lines if (m := _TYPE_DEF.match(ln))}
    out: list[str] = []
    declarations: list[str] = []
    function: list[list[str]] | None = None
    for line in lines:
        if line.startswith("attributes #") or line.startswith(";") or not line.strip():
            continue
        toks = [_group(t, groups) for t in _TOKEN.findall(line) if not t.startswith(";")]
        if not toks:
            continue
        if toks[0] == "define":
            function = []
        if function is not None:
            function.append(toks)
            if toks == ["}"]:
                out += _normalize_function(function, type_names)
                function = None
        elif toks[0] == "declare":
            if not any(t.startswith("@llvm.") for t in toks[:8]):
                declarations.append(" ".join(toks))
        else:
            out.append(" ".join(toks))
    return out + sorted(declarations)


def _attribute_groups(lines: Iterable[str]) -> dict[str, str]:
    groups: dict[str, str] = {}
    for line in lines:
        m = re.match(r"attributes (#\d+) = \{ (.*) \}$", line)
        if m:
            groups[m.group(1)] = "#{" + m.group(2) + "}"
    return groups


def _group(tok: str, groups: dict[str, str]) -> str:
    if tok.startswith("#") and tok[1:].isdigit():
        return groups.get(tok, tok)
    return tok


def _is_label(toks: list[str]) -> bool:
    return len(toks) == 1 and toks[0].endswith(":")


def _normalize_function(lines: list[list[str]], type_names: set[str]) -> list[str]:
    """Rename locals by order of definition; order phi inputs; widen constant GEP indices."""
    names: dict[str, str] = {}

    def define(name: str) -> None:
        if name not in names:
            names[name] = f"%L{len(names)}"

    header = lines[0]
    unnamed = 0
    for j, t in enumerate(header):
        if t.startswith("%") and t not in type_names and header[j + 1 : j + 2] in ([","], [")"]):
            define(t)
            unnamed += t[1:].isdigit()
    if len(lines) > 1 and not _is_label(lines[1]):
        define(f"%{unnamed}")  # the unlabelled entry block takes the next number
    entry_label = 1 if len(lines) > 1 and _is_label(lines[1]) else None
    for toks in lines[1:]:
        if _is_label(toks):
            define("%" + toks[0][:-1])
        elif len(toks) > 1 and toks[1] == "=" and toks[0].startswith("%"):
            define(toks[0])
    out = []
    for i, toks in enumerate(lines):
        if i == entry_label:
            continue  # whether the entry block has a name is not a difference
        if i > 0 and _is_label(toks):
            out.append(names.get("%" + toks[0][:-1], toks[0]) + ":")
            continue
        renamed = [names.get(t, t) if t.startswith("%") and t not in type_names else t for t in toks]
        if "getelementptr" in renamed:
            renamed = _widen_gep_indices(renamed)
        line = " ".join(renamed)
        if len(renamed) > 2 and renamed[2] == "phi":
            line = _sort_phi(line)
        out.append(line)
    return out


def _widen_gep_indices(toks: list[str]) -> list[str]:
    out = list(toks)
    for j in range(1, len(out) - 1):
        if out[j] in ("i8", "i16", "i32") and out[j - 1] == "," and re.fullmatch(r"-?\d+", out[j + 1]):
            out[j] = "i64"
    return out


def _sort_phi(line: str) -> str:
    """`%x = phi T [ a , %b ] , [ c , %d ] , !dbg !N` with the `[...]` inputs sorted."""
    m = _PHI.match(line)
    if not m:
        return line
    entries = sorted(re.findall(r"\[ [^\]]* \]", m.group(3)))
    rest = m.group(4).strip()
    return m.group(1) + m.group(2) + " , ".join(entries) + (" , " + rest if rest else "")


def diff(expected: str, actual: str, context: int = 3, limit: int = 80) -> str:
    """A unified diff of the normalised modules ('' when they are equivalent)."""
    a, b = normalize(expected), normalize(actual)
    if a == b:
        return ""
    lines = list(difflib.unified_diff(a, b, "expected", "actual", n=context, lineterm=""))
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print("usage: python -m xenzyme.tools.ir_diff EXPECTED.ll ACTUAL.ll", file=sys.stderr)
        return 2
    texts = []
    for path in argv:
        with open(path, "rb") as f:
            data = f.read()
        texts.append(canonical_text(data if data[:2] == b"BC" else data.decode()))
    d = diff(*texts)
    if d:
        print(d)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
