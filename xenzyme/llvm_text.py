"""How LLVM IR spells things in its text form: names, types and floating-point constants.

Shared by the reader of LLVM IR (`xenzyme.frontend`) and its writer (`xenzyme.backend`): the
importer checks a float constant by spelling it again, the exporter writes it.
"""

from __future__ import annotations

import math
import re
import struct

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    IntAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext

_PLAIN_NAME = re.compile(r"^[-a-zA-Z$._][-a-zA-Z$._0-9]*$")


def escape(s: str) -> str:
    """Escape a string for LLVM's "..." syntax (one char per byte, latin-1)."""
    out = []
    for ch in s:
        c = ord(ch)
        if ch == '"' or ch == "\\" or c < 32 or c > 126:
            out.append(f"\\{c:02X}")
        else:
            out.append(ch)
    return "".join(out)


def local_name(name: str) -> str:
    """`%name`, quoted when needed; an all-digit name is LLVM's numbered (unnamed) value."""
    if _PLAIN_NAME.match(name) or name.isdigit():
        return "%" + name
    return f'%"{escape(name)}"'


_SCALAR_NAMES: dict[type, str] = {
    Float16Type: "half",
    BFloat16Type: "bfloat",
    Float32Type: "float",
    Float64Type: "double",
    Float80Type: "x86_fp80",
    Float128Type: "fp128",
}


class TypePrinter:
    """Prints types, remembering named structs so that their definitions can be emitted."""

    def __init__(self) -> None:
        self.cache: dict[Attribute, str] = {}
        self.named: dict[str, Attribute] = {}

    def __call__(self, t: Attribute) -> str:
        s = self.cache.get(t)
        if s is None:
            s = self.cache[t] = self._print(t)
        return s

    def _print(self, t: Attribute) -> str:
        if isinstance(t, IntegerType):
            return f"i{t.width.data}"
        if (s := _SCALAR_NAMES.get(type(t))) is not None:
            return s
        if isinstance(t, ext.LLVMPointerType):
            if isinstance(t.addr_space, IntAttr) and t.addr_space.data:
                return f"ptr addrspace({t.addr_space.data})"
            return "ptr"
        if isinstance(t, VectorType):
            shape = t.get_shape()
            if len(shape) != 1:
                raise XenzymeError(f"cannot export multi-dimensional vector type {t}")
            return f"<{shape[0]} x {self(t.element_type)}>"
        if isinstance(t, ext.LLVMArrayType):
            return f"[{t.size.data} x {self(t.type)}]"
        if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
            body = ", ".join(self(m) for m in t.types.data)
            packed = isinstance(t, ext.LLVMPackedStructType)
            literal = ("<{ " + body + " }>" if body else "<{}>") if packed else (
                "{ " + body + " }" if body else "{}"
            )
            if t.struct_name.data:
                self.named.setdefault(t.struct_name.data, t)
                return local_name(t.struct_name.data)
            return literal
        if isinstance(t, ext.LLVMOpaqueStructType):
            self.named.setdefault(t.struct_name.data, t)
            return local_name(t.struct_name.data)
        if isinstance(t, ext.LLVMVoidType):
            return "void"
        if isinstance(t, ext.LLVMFunctionType):
            params = [self(p) for p in t.inputs.data]
            if t.is_variadic:
                params.append("...")
            return f"{self(t.output)} ({', '.join(params)})"
        if isinstance(t, ext.LLVMMetadataType):
            return "metadata"
        if isinstance(t, ext.LLVMTokenType):
            return "token"
        raise XenzymeError(f"cannot export type {t} to LLVM IR")

    def definitions(self) -> list[str]:
        """`%name = type {...}` for every named struct printed so far (and those they use)."""
        out: list[str] = []
        done: set[str] = set()
        while len(done) < len(self.named):
            for name, t in list(self.named.items()):
                if name in done:
                    continue
                done.add(name)
                if isinstance(t, ext.LLVMOpaqueStructType):
                    out.append(f"{local_name(name)} = type opaque")
                    continue
                assert isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType)
                body = ", ".join(self(m) for m in t.types.data)
                if isinstance(t, ext.LLVMPackedStructType):
                    out.append(f"{local_name(name)} = type <{{ {body} }}>" if body else f"{local_name(name)} = type <{{}}>")
                else:
                    out.append(f"{local_name(name)} = type {{ {body} }}" if body else f"{local_name(name)} = type {{}}")
        return out


def float_literal(value: float, t: Attribute) -> str:
    """Exact LLVM spelling of a float constant of type `t`."""
    if isinstance(t, Float64Type | Float32Type):
        # As LLVM prints them: six-digit decimal when that is exact, else the bits of the double
        # with the same value (for floats too).  A float constant is rounded to float first: a
        # FloatAttr(0.1, f32) holds the double 0.1, which LLVM would reject as a float.
        if isinstance(t, Float32Type) and math.isfinite(value):
            try:
                value = struct.unpack(">f", struct.pack(">f", value))[0]
            except OverflowError:
                raise XenzymeError(f"float constant {value!r} is out of range") from None
        bits = struct.pack(">d", value)
        if math.isfinite(value):
            short = f"{value:e}"
            if struct.pack(">d", float(short)) == bits:
                return short
        return "0x%016X" % struct.unpack(">Q", bits)[0]
    if isinstance(t, Float16Type):
        return "0xH%04X" % struct.unpack(">H", struct.pack(">e", value))[0]
    if isinstance(t, BFloat16Type):
        return "0xR%04X" % (struct.unpack(">I", struct.pack(">f", value))[0] >> 16)
    if isinstance(t, Float80Type):
        return "0xK%020X" % _float_to_f80(value)
    if isinstance(t, Float128Type):
        bits = _float_to_f128(value)  # LLVM writes the low 64 bits first
        return "0xL%016X%016X" % (bits & ((1 << 64) - 1), bits >> 64)
    raise XenzymeError(f"cannot print a float constant of type {t}")


def float_bits_of(value: float, t: Attribute) -> tuple[int, int]:
    """(bits, width) of `value` as a float of type `t`."""
    if isinstance(t, Float80Type):
        return _float_to_f80(value), 80
    if isinstance(t, Float128Type):
        return _float_to_f128(value), 128
    if isinstance(t, Float32Type):
        return struct.unpack(">I", struct.pack(">f", value))[0], 32
    if isinstance(t, Float16Type):
        return struct.unpack(">H", struct.pack(">e", value))[0], 16
    return struct.unpack(">Q", struct.pack(">d", value))[0], 64


def _float_to_f80(v: float) -> int:
    bits = struct.unpack(">Q", struct.pack(">d", v))[0]
    sign = bits >> 63
    exp = (bits >> 52) & 0x7FF
    mant = bits & ((1 << 52) - 1)
    if exp == 0x7FF:
        return (sign << 79) | (0x7FFF << 64) | (1 << 63) | (mant << 11)
    if exp == 0:
        if mant == 0:
            return sign << 79
        # subnormal double: normalise
        shift = 52 - mant.bit_length() + 1
        mant <<= shift
        exp = 1 - shift
        mant &= (1 << 52) - 1
    e80 = exp - 1023 + 16383
    return (sign << 79) | (e80 << 64) | (1 << 63) | (mant << 11)


def _float_to_f128(v: float) -> int:
    bits = struct.unpack(">Q", struct.pack(">d", v))[0]
    sign = bits >> 63
    exp = (bits >> 52) & 0x7FF
    mant = bits & ((1 << 52) - 1)
    if exp == 0x7FF:
        return (sign << 127) | (0x7FFF << 112) | (mant << 60)
    if exp == 0:
        if mant == 0:
            return sign << 127
        shift = 52 - mant.bit_length() + 1
        mant <<= shift
        exp = 1 - shift
        mant &= (1 << 52) - 1
    return (sign << 127) | ((exp - 1023 + 16383) << 112) | (mant << 60)
