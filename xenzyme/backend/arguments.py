"""Python values -> native arguments, checked first: a mistake is a `XenzymeError` naming the
argument, what was expected and what was given, never a call of native code with bytes it
misreads.

A call's arguments are `Slot`s: a parameter's value, or (for a derivative) one of its shadows
or tangents.  Each is checked against what `xenzyme.analysis.signature` knows of the parameter:

* numbers by kind: a float (or int) for a floating-point parameter, an int that fits for an
  integer one;
* arrays for pointers: numpy arrays, C-contiguous and aligned, writeable where native code
  writes them (a shadow in reverse mode always: derivatives are added into it), of the dtype of
  the elements behind the pointer when that is known, and at least as many bytes as the
  function is known to reach through it;
* a shadow or tangent array with its primal: the same dtype, at least as long (how much of
  them the function reads is in general not known: the shadow must cover what the primal
  covers), and where either is written no memory shared with the primal, nor with another
  shadow unless their primals share it too.
"""

from __future__ import annotations

import ctypes
import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import AnyFloat, IntegerType

from xenzyme.analysis.signature import Parameter
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext


@dataclass(frozen=True)
class Slot:
    """One argument of a Python call."""

    param: Parameter
    ctype: Any
    """The native type the value is converted to (ctypes)."""
    role: str = "value"
    """"value" (the parameter's own), "shadow" or "tangent"."""
    k: int = 0
    width: int = 1
    writes: bool = False
    """Native code writes through it (a pointer)."""
    raw_ok: bool = False
    """A pointer may also be given as an address (int) or a ctypes object: unchecked."""

    def short(self) -> str:
        name = self.param.name or f"arg{self.param.index}"
        if self.role == "value":
            return name
        n = f" {self.k + 1}" if self.width > 1 else ""
        return f"{self.role}{n} of {name}"

    def describe(self) -> str:
        p = self.param
        if self.role == "value":
            return f"{p.describe()}"
        n = f" {self.k + 1} of {self.width}" if self.width > 1 else ""
        return f"the {self.role}{n} of parameter {p.index}: {p.describe()}"


class Arguments:
    """Checks and converts the arguments of calls of one native function."""

    def __init__(self, function: str, slots: Sequence[Slot]):
        self.function = function
        self.slots = list(slots)

    def convert(self, args: Sequence[Any]) -> list[Any]:
        if len(args) != len(self.slots):
            listing = ", ".join(s.short() for s in self.slots)
            raise XenzymeError(
                f"{self.function}() takes {len(self.slots)} argument{'s' if len(self.slots) != 1 else ''} "
                f"({listing}), {len(args)} given"
            )
        out = [self._one(i, s, a) for i, (s, a) in enumerate(zip(self.slots, args, strict=True))]
        self._check_shadows(args)
        return out

    # ---- one argument ---------------------------------------------------------------------

    def fail(self, pos: int, slot: Slot, message: str, notes: Sequence[str] = ()) -> XenzymeError:
        return XenzymeError(f"{self.function}(): argument {pos} ({slot.describe()}) {message}", notes=tuple(notes))

    def _one(self, pos: int, slot: Slot, value: Any) -> Any:
        c = slot.ctype
        if c is ctypes.c_void_p:
            return self._pointer(pos, slot, value)
        if c in (ctypes.c_double, ctypes.c_float, ctypes.c_longdouble):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise self.fail(pos, slot, f"must be a real number, got {_what(value)}")
            return float(value)
        if c in _INT_BITS:
            if isinstance(value, float | np.floating) or not isinstance(value, numbers.Integral):
                raise self.fail(pos, slot, f"must be an integer, got {_what(value)}",
                                ["convert a whole number held in a float with int(...)"] if isinstance(value, float | np.floating) else [])  # fmt: skip
            v = int(value)
            bits = _INT_BITS[c]
            if c is not ctypes.c_bool and not -(1 << (bits - 1)) <= v < (1 << bits):
                raise self.fail(pos, slot, f"must fit in {bits} bits, got {v}")
            return bool(v) if c is ctypes.c_bool else v
        try:
            if isinstance(value, c):
                return value
            return c(*value) if isinstance(value, tuple | list) else c(value)
        except (TypeError, ValueError, OverflowError) as e:
            raise self.fail(pos, slot, f"cannot be converted to its native type: {e}") from None

    def _pointer(self, pos: int, slot: Slot, value: Any) -> Any:
        p = slot.param
        if value is None and slot.role == "value" and slot.raw_ok:
            return None
        if slot.raw_ok and slot.role == "value" and not isinstance(value, np.ndarray):
            if isinstance(value, int) and not isinstance(value, bool):
                return ctypes.c_void_p(value)
            if isinstance(value, ctypes._SimpleCData | ctypes.Array | ctypes.Structure):
                return ctypes.cast(ctypes.pointer(value), ctypes.c_void_p)
        if not isinstance(value, np.ndarray):
            raise self.fail(pos, slot, f"must be a numpy array{_of(p.pointee, p.pointee_from)}, got {_what(value)}")
        if not value.flags.c_contiguous:
            raise self.fail(pos, slot, "must be a C-contiguous array, got a strided view",
                            ["pass np.ascontiguousarray(a), and read results back from that copy"])  # fmt: skip
        if not value.flags.aligned:
            raise self.fail(pos, slot, "must be an aligned array")
        if slot.writes and not value.flags.writeable:
            raise self.fail(pos, slot, "must be writeable (the call writes into it), got a read-only array")
        if p.pointee is not None and not _dtype_fits(value.dtype, p.pointee):
            raise self.fail(pos, slot, f"must be an array{_of(p.pointee, p.pointee_from)}, got an array of {value.dtype}",
                            [f"convert it with np.asarray(a, dtype=np.{_numpy_name(p.pointee)})"])  # fmt: skip
        if p.min_bytes is not None and value.nbytes < p.min_bytes:
            raise self.fail(pos, slot, f"has {value.nbytes} bytes, but the function reaches {p.min_bytes} bytes through it")
        return ctypes.c_void_p(value.ctypes.data)

    # ---- shadows with their primals -------------------------------------------------------

    def _check_shadows(self, args: Sequence[Any]) -> None:
        primal: dict[int, tuple[int, Any]] = {}
        shadows: list[tuple[int, Slot, Any]] = []
        for pos, (slot, a) in enumerate(zip(self.slots, args, strict=True)):
            if slot.ctype is not ctypes.c_void_p or not isinstance(a, np.ndarray):
                continue
            if slot.role == "value":
                primal[slot.param.index] = (pos, a)
            else:
                shadows.append((pos, slot, a))
        for pos, slot, s in shadows:
            entry = primal.get(slot.param.index)
            if entry is None:
                continue
            ppos, x = entry
            name = slot.param.name or f"argument {ppos}"
            if s.dtype != x.dtype:
                raise self.fail(pos, slot, f"must have the dtype of its primal '{name}' ({x.dtype}), got {s.dtype}")
            if s.size < x.size:
                raise self.fail(pos, slot, f"has {s.size} elements, fewer than its primal '{name}' ({x.size})",
                                ["a shadow must be at least as long as its primal array: the function may read "
                                 "and write as much of the shadow as of the primal"])  # fmt: skip
            if (slot.writes or self.slots[ppos].writes) and np.may_share_memory(s, x):
                raise self.fail(pos, slot, f"shares memory with its primal '{name}'",
                                ["give each shadow memory of its own, e.g. np.zeros_like(x)"])  # fmt: skip
        for i, (pos, slot, s) in enumerate(shadows):
            for pos2, slot2, s2 in shadows[i + 1 :]:
                if not (slot.writes or slot2.writes) or not np.may_share_memory(s, s2):
                    continue  # (memory only read may be shared: the same direction twice)
                a, b = primal.get(slot.param.index), primal.get(slot2.param.index)
                same_primal = slot.param.index == slot2.param.index
                if not same_primal and a is not None and b is not None and np.may_share_memory(a[1], b[1]):
                    continue  # aliased primals, aliased shadows: as in the program
                raise self.fail(pos2, slot2, f"shares memory with argument {pos} ({slot.describe()})",
                                ["shadows share memory only where their primals do"])  # fmt: skip


_INT_BITS = {ctypes.c_bool: 1, ctypes.c_int8: 8, ctypes.c_int16: 16, ctypes.c_int32: 32, ctypes.c_int64: 64}


def _what(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}" if value.ndim else f"a 0-d array of {value.dtype}"
    if value is None:
        return "None"
    return f"{type(value).__name__} {value!r}"[:80] if isinstance(value, numbers.Number | str) else type(value).__name__


def _numpy_name(t: Any) -> str:
    if isinstance(t, AnyFloat):
        return {16: "float16", 32: "float32", 64: "float64"}.get(t.bitwidth, "longdouble")
    if isinstance(t, IntegerType):
        return f"int{max(8, t.width.data)}"
    return "uintp"


def _of(t: Any, source: str = "") -> str:
    """` of float64 (double, as declared in C)`: the dtype wanted, for messages."""
    if t is None:
        return ""
    if isinstance(t, ext.LLVMPointerType):
        name, also = "uintp", "addresses"
    else:
        name = _numpy_name(t)
        also = {"float16": "_Float16", "float32": "float", "float64": "double", "longdouble": "long double"}.get(name)
        if also is None and isinstance(t, IntegerType):
            also = f"or uint{max(8, t.width.data)}"
    inner = ", ".join(x for x in (also, source) if x)
    return f" of {name}" + (f" ({inner})" if inner else "")


def _dtype_fits(dtype: np.dtype, t: Any) -> bool:
    if isinstance(t, AnyFloat):
        if t.bitwidth == 80:
            return dtype == np.longdouble
        return dtype.kind == "f" and dtype.itemsize * 8 == t.bitwidth
    if isinstance(t, IntegerType):
        bits = max(8, t.width.data)
        return dtype.kind in ("iub" if bits == 8 else "iu") and dtype.itemsize * 8 == bits
    if isinstance(t, ext.LLVMPointerType):
        return dtype.kind in "iu" and dtype.itemsize == 8
    return True
