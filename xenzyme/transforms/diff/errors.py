"""Where an error is: source locations of ops and blocks, and the shape of the engine's errors."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

from xenzyme.analysis.cfg import IrreducibleControlFlow
from xenzyme.diagnostics import SourceLocation, XenzymeError, location_of


def block_location(block: Block, filename: str | None) -> SourceLocation:
    """The source position of the first instruction in `block` that has one."""
    for op in block.ops:
        loc = location_of(op)
        if loc is not None and loc.line is not None:
            return loc
    return SourceLocation(filename)


def fail_at(op: Operation | None, what: str, message: str, filename: str | None, notes: Sequence[str] = (),
            module: ModuleOp | None = None) -> NoReturn:
    """`what: message` at `op`, with the instruction quoted in a note (`module`: where the
    function holding `op` belongs, if it is a detached copy)."""
    text = _instruction_text(op, module) if op is not None else ""
    raise XenzymeError(
        f"{what}: {message}",
        location_of(op, filename) if op is not None else SourceLocation(filename),
        [f"in: {text[:200]}", *notes] if text else list(notes),
    )


def irreducible(fname: str, exc: IrreducibleControlFlow, filename: str | None) -> XenzymeError:
    return XenzymeError(
        f"cannot differentiate @{fname}: irreducible control flow (a loop entered in more than one place)",
        block_location(exc.block, filename),
        ["loops must have a single entry; restructure the code (e.g. avoid goto into loops)"],
    )


def _instruction_text(op: Operation, module: ModuleOp | None) -> str:
    """The instruction as LLVM IR writes it (what a user sees in `clang -S -emit-llvm`), else
    in xDSL's syntax."""
    from xenzyme.backend.llvm_export import instruction_text

    return instruction_text(op, module) or str(op).strip().splitlines()[0]
