"""User-facing errors.

Every failure caused by the input -- malformed IR, an unsupported construct, a bad option, an
instruction that cannot be differentiated -- is raised as a `XenzymeError`.  It carries where
(file, line, column when known), what went wrong, and notes saying what the user can do.  The
command line prints it in the shape clang uses and exits with status 1; the Python API lets it
propagate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace


def location_of(op, fallback: str | None = None) -> SourceLocation | None:
    """The source position of the op `op` (its debug location), else the file `fallback`."""
    from xdsl.dialects.builtin import FileLineColLoc, NameLoc

    loc = op.location
    if isinstance(loc, NameLoc) and isinstance(loc.location, FileLineColLoc):
        loc = loc.location
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data or None, loc.column.data or None)
    return SourceLocation(fallback) if fallback else None


@dataclass
class SourceLocation:
    """A position in a user's file; any part may be unknown."""

    file: str | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.file or "<unknown>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


@dataclass
class XenzymeError(Exception):
    """An error in the user's input or request, with a location and hints."""

    message: str
    location: SourceLocation | None = None
    notes: Sequence[str] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def in_file(self, name: str | None) -> XenzymeError:
        """This error, with `name` as the file of a location that names none (a module without
        `source_filename` does not know it; the command line knows what it read)."""
        if name and self.location is not None and not self.location.file:
            self.location = replace(self.location, file=name)
        return self

    def format(self, program: str = "xenzyme") -> str:
        where = f"{self.location}: " if self.location is not None else ""
        lines = [f"{program}: error: {where}{self.message}"]
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def error_at(
    message: str,
    file: str | None = None,
    line: int | None = None,
    column: int | None = None,
    notes: Sequence[str] = (),
) -> XenzymeError:
    return XenzymeError(message, SourceLocation(file, line, column), tuple(notes))
