"""xDSL text (`.mlir`) read with each op's position kept, for error messages.

xDSL's parser attaches a location only where the text writes `loc(...)`; this one gives the
other ops of the structured dialects the `file:line:col` it was read from, so that an error about an op of a structured
program (an op no lowering handles, say) points at it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser


LOCATED_DIALECTS = frozenset({"func", "arith", "math", "scf", "cf", "memref", "affine", "omp"})
"""Ops given their position: those of the structured dialects, and MLIR's OpenMP ops, which they
reject (an llvm op's location is its debug location, which only the LLVM IR importer sets)."""


class LocatingParser(Parser):
    """xDSL's parser, giving each op the position it was read from."""

    def parse_operation(self) -> Operation:
        where = self._current_token.span.get_location()
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc) and op.dialect_name() in LOCATED_DIALECTS:
            op.location = FileLineColLoc(StringAttr(where.file), IntAttr(where.line), IntAttr(where.col))
        return op
