"""Derivative rules users add from Python, for functions of their own.

    import xenzyme
    from xenzyme.rules import times

    @xenzyme.derivative("softplus", arity=1)
    def softplus_partials(e, x, y):      # e: Emitter, x: getters of the arguments, y: of the result
        return [lambda: times(e.call("sigmoid", x[0]()))]

A rule has the shape of the libm table's entries (xenzyme/rules/libm.py): `partials(e, x, y)`
returns one item per argument, None where the result does not depend on it, or a thunk building
the partial derivative (a `Partial`, or a value that multiplies the seed).  Reverse and forward
mode then treat every call to a function of exactly that name as they treat `sin`.

A rule for a function the module defines wins over differentiating its body, as a custom
derivative does: `transforms.llvm_opt.keep_hinted_calls` marks the function `noinline` so that LLVM keeps the
calls for the rule to see (clang's own inliner runs earlier: mark it `noinline` in the source).
"""

from __future__ import annotations

import inspect
import os
import runpy
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from xenzyme.diagnostics import SourceLocation, XenzymeError

if TYPE_CHECKING:
    from xenzyme.rules.partial import MathPartials

RULES: dict[str, tuple[int, MathPartials]] = {}
"""Registered rules by function name (an exact symbol name, as in the IR)."""


def derivative(name: str, *, arity: int) -> Callable[[MathPartials], MathPartials]:
    """Register the decorated `partials(e, x, y)` as the derivative of `name`, a function of
    `arity` floating-point arguments returning a floating-point value.  A later registration of
    the same name replaces the earlier one."""
    if not isinstance(name, str) or not name or any(c.isspace() for c in name):
        raise XenzymeError(f"derivative: the function name must be a symbol name, got {name!r}")
    if isinstance(arity, bool) or not isinstance(arity, int) or arity < 1:
        raise XenzymeError(f"derivative: arity must be a positive integer, got {arity!r} (for '{name}')")

    def register(partials: MathPartials) -> MathPartials:
        if not callable(partials):
            raise XenzymeError(f"derivative: the rule for '{name}' must be a function partials(e, x, y)")
        try:
            inspect.signature(partials).bind(None, None, None)
        except TypeError:
            raise XenzymeError(
                f"derivative: the rule for '{name}' must take three arguments (e, x, y)",
                notes=["e: the Emitter, x: getters of the arguments, y: getter of the result"],
            ) from None
        except ValueError:
            pass  # (no signature to inspect: a builtin; it is called as it is)
        RULES[name] = (arity, partials)
        return partials

    return register


def unregister(name: str) -> None:
    """Forget the rule for `name` (nothing if there is none)."""
    RULES.pop(name, None)


def load_rules(path: str | os.PathLike[str]) -> list[str]:
    """Run a Python file that registers rules with `@xenzyme.derivative`; the names it added.
    A missing file or one that fails is a `XenzymeError` pointing into it."""
    p = Path(path)
    if not p.is_file():
        raise XenzymeError(f"cannot read rules file '{p}': no such file")
    before = dict(RULES)
    try:
        runpy.run_path(str(p), run_name="__xenzyme_rules__")
    except XenzymeError as e:
        raise XenzymeError(e.message, e.location or _where(p, e), [*e.notes, f"while loading rules from '{p}'"]) from None
    except SyntaxError as e:
        raise XenzymeError(f"syntax error in rules file: {e.msg}", SourceLocation(str(p), e.lineno, e.offset)) from None
    except (Exception, SystemExit) as e:  # noqa: BLE001 -- the user's code: report it, no traceback
        raise XenzymeError(f"the rules file failed: {type(e).__name__}: {e}", _where(p, e)) from None
    return [n for n, r in RULES.items() if before.get(n) is not r]


def _where(path: Path, e: BaseException) -> SourceLocation:
    """The innermost line of `path` in `e`'s traceback."""
    line = None
    target = os.path.realpath(path)
    for frame in traceback.extract_tb(e.__traceback__):
        if os.path.realpath(frame.filename) == target:
            line = frame.lineno
    return SourceLocation(str(path), line)


__all__ = ["RULES", "derivative", "load_rules", "unregister"]
