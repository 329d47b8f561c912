"""`python -m xenzyme.tools.llvm19 IN.ll OUT.ll`: LLVM 22's IR text, spelled so LLVM 19 reads it.

xenzyme prints LLVM 22's syntax (llvmlite's LLVM); clang-19 cannot read some of it.  For tools
that only exist in LLVM 19 here -- clang-19's AddressSanitizer, run on the code xenzyme
generates (tests/test_sanitize.py) -- the newer spellings are rewritten to older equivalent or
weaker ones: flags and attributes that only allow optimisations are dropped (`samesign`,
`captures(...)`, the newer `memory(...)` locations, `initializes`), and intrinsics whose
signature changed get their old one (`llvm.lifetime.start/end` take a size again); the math
intrinsics LLVM 20 added (`llvm.atan2`, `llvm.sinh`, ...) become calls of libm's functions.  The code
means the same; LLVM 19 may optimise it a little less.
"""

from __future__ import annotations

import re
import sys

_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bicmp samesign "), "icmp "),
    (re.compile(r"\bcaptures\(none\)"), "nocapture"),
    (re.compile(r"\bcaptures\([^)]*\)"), ""),
    (re.compile(r"\binitializes\(\([^)]*\)(?:, \([^)]*\))*\)"), ""),
    (re.compile(r"\bmemory\([^)]*\b(?:errnomem|target_mem\d)\b[^)]*\)"), ""),
    (re.compile(r"\bdead_on_return\b"), ""),
    (re.compile(r"\bnocreateundeforpoison\b"), ""),
    (re.compile(r", atomGroup: \d+, atomRank: \d+"), ""),
    (re.compile(r"(call void @llvm\.lifetime\.(?:start|end)\.p0\()(ptr )"), r"\1i64 -1, \2"),
    (re.compile(r"(declare void @llvm\.lifetime\.(?:start|end)\.p0\()(ptr)"), r"\1i64 immarg, \2"),
]


_NEWER_MATH = re.compile(r"@llvm\.(asin|acos|atan2|atan|sinh|cosh|tanh)\.(f64|f32)\b")
"""Math intrinsics LLVM 20 added: LLVM 19 takes them for external functions of those names."""


def _libm(m: re.Match[str]) -> str:
    return f"@{m.group(1)}{'f' if m.group(2) == 'f32' else ''}"


def _one_declaration_each(text: str) -> str:
    """Drop a second `declare` of a function (an intrinsic renamed to a libm function the
    module declared already)."""
    seen: set[str] = set()
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("declare ") and (m := re.search(r"@([\w.$]+)\(", line)) is not None:
            if m.group(1) in seen:
                continue
            seen.add(m.group(1))
        out.append(line)
    return "".join(out)


def downgrade(text: str) -> str:
    """`text` (LLVM 22 IR) as LLVM 19 reads it."""
    for pattern, repl in _RULES:
        text = pattern.sub(repl, text)
    if _NEWER_MATH.search(text):  # (as calls of libm's functions)
        text = _one_declaration_each(_NEWER_MATH.sub(_libm, text))
    return text


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m xenzyme.tools.llvm19 IN.ll OUT.ll", file=sys.stderr)
        return 2
    with open(args[0]) as f:
        text = f.read()
    with open(args[1], "w") as f:
        f.write(downgrade(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
