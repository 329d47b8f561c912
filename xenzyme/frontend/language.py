"""Which language a program's text is written in: C, C++, Fortran, Rust, LLVM IR or xDSL text
(MLIR syntax).

`xenzyme.load` takes source text as well as paths; without a file name it must tell the
languages apart from the text alone.  The rules look at whole lines, in this order, each
deciding for certain where it applies:

1. a preprocessor directive (`#include`, `#define`, `#if`, `#pragma`, ...) -> C or C++: no line
   of LLVM IR or xDSL text starts that way (an xDSL attribute alias is `#name = ...`);
2. a top-level line of LLVM IR (`define ... @f(`, `declare ... @f(`, `target triple =`,
   `source_filename =`, `@g = ...`, `%T = type ...`, `attributes #0 = ...`) -> LLVM IR;
3. xDSL text: the first line that is not blank or a `//` comment starts an operation
   (`builtin.module`, `module {`, `llvm.func`, `"dialect.op"(...)`, `%x = ...`) or an
   attribute or type alias -> MLIR;
4. a line starting a Rust function (`fn f(`, `pub extern "C" fn f(`) -> Rust; a line starting
   a Fortran program unit (`subroutine`, `program`, `module`, `function` with a type) -> Fortran:
   neither starts a line of C;
5. anything else -> C or C++.

CUDA is told from C++ by its function qualifiers (`__global__`, `__device__`); C++ from C by
constructs C does not have (`namespace`, `template <`, `extern "C"`,
`std::`, `class X {`, `#include <vector>`, ...); text with none of them is C.
"""

from __future__ import annotations

import re

SUFFIXES = {
    ".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".cu": "cuda", ".ll": "llvm", ".mlir": "mlir", ".rs": "rust",
    **{s: "fortran" for s in (".f90", ".f95", ".f03", ".f08", ".f", ".for", ".F90", ".F")},
}  # fmt: skip
"""Languages by file suffix (`.bc`, bitcode, is bytes and read as such)."""

_PREPROCESSOR = re.compile(
    r"^[ \t]*#[ \t]*(include|include_next|import|define|undef|if|ifdef|ifndef|elif|elifdef|elifndef|else|endif"
    r"|pragma|error|warning|line)\b",
    re.M,
)
_LLVM_LINE = re.compile(
    r"^(define|declare)\b[^\n]*@[-\w$.\"]+\s*\("
    r"|^target\s+(triple|datalayout)\s*="
    r"|^source_filename\s*="
    r"|^@[-\w$.\"]+\s*=\s*\S"
    r"|^%[-\w$.\"]+\s*=\s*type\b"
    r"|^attributes\s+#\d+\s*=",
    re.M,
)
_MLIR_START = re.compile(
    r"(builtin\.module\b|\"[a-z_][\w$]*\.[\w$.]+\"\s*\(|module\s*(@[\w$.]+\s*)?(attributes\s*\{.*)?\{"
    r"|[a-z_][\w$]*\.[\w$.]+(\s|$|@|\()|%[\w$.#:]+\s*(,\s*%[\w$.#:]+\s*)*=|[#!][\w$.]+\s*=)"
)
_RUST_FUNCTION = re.compile(r'^\s*(?:pub\s+)?(?:unsafe\s+)?(?:extern\s+"C"\s+)?fn\s+\w+\s*[<(]', re.M)
_FORTRAN_UNIT = re.compile(
    r"^\s*(?:end\s+)?(?:program|subroutine|module)\s+\w+|^\s*(?:(?:real|integer|logical|double\s+precision)"
    r"(?:\s*\(\s*\w+\s*\))?\s+)?function\s+\w+\s*\(",
    re.M | re.I,
)
_CUDA = re.compile(r"\b__(global|device)__\b")
_CXX = re.compile(
    r"\bnamespace\b|\btemplate\s*<|\bextern\s+\"C(\+\+)?\"|\bstd::|\bclass\s+\w+\s*[:{]|\btypename\b"
    r"|\bnullptr\b|\busing\s+(namespace\b|\w+\s*=)|\b(public|private|protected)\s*:|\boperator\s*\S+\s*\("
    r"|\bconstexpr\b|\bstatic_cast\s*<|\breinterpret_cast\s*<|^[ \t]*#[ \t]*include\s*<(c[a-z]+|[a-z_]+)>",
    re.M,
)


def guess_language(text: str) -> str:
    """"c", "c++", "cuda", "fortran", "rust", "llvm" or "mlir" for program text, by the rules of the
    module docstring."""
    if _PREPROCESSOR.search(text):
        return _c_or_cxx(text)
    if _LLVM_LINE.search(text):
        return "llvm"
    first = next((ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("//")), "")
    if _MLIR_START.match(first):
        return "mlir"
    if _RUST_FUNCTION.search(text):
        return "rust"
    if _FORTRAN_UNIT.search(text):
        return "fortran"
    return _c_or_cxx(text)


def _c_or_cxx(text: str) -> str:
    code = _without_comments_and_strings(text)
    if _CUDA.search(code):
        return "cuda"
    return "c++" if _CXX.search(code) else "c"


_COMMENT_OR_STRING = re.compile(r"//[^\n]*|/\*.*?\*/|'(\\.|[^'\\\n])*'|\"(\\.|[^\"\\\n])*\"", re.S)


def _without_comments_and_strings(text: str) -> str:
    """C text with comments removed and string literals emptied (`extern "C"` keeps its "C")."""

    def blank(m: re.Match[str]) -> str:
        s = m.group(0)
        if s.startswith("/"):
            return " "
        return s if s in ('"C"', '"C++"') else s[0] * 2

    return _COMMENT_OR_STRING.sub(blank, text)
