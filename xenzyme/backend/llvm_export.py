"""xDSL `llvm` dialect -> LLVM IR text.

We print LLVM IR ourselves and hand it to LLVM to parse, verify, optimise and emit: xDSL's
converter drops linkage, atomic orderings, volatile and initializer regions, and llvmlite.ir
cannot express freeze, poison or several flags.  Everything the importer keeps is printed back:
linkage and visibility, parameter/return/function attributes, fast-math and wrap flags,
orderings, alignment, metadata attachments, debug locations and records, comdats, aliases.

Block arguments become phis.  Constants (`llvm.mlir.constant`, `zero`, `undef`, `poison`,
`addressof`, metadata) are printed inline as operands rather than as instructions.  Intrinsic
ops are printed as calls with mangled names, and their declarations are added.
"""

from __future__ import annotations

import contextvars
import math
import re
import struct
from collections.abc import Callable, Sequence

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    Float80Type,
    Float128Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    NameLoc,
    StringAttr,
    SymbolRefAttr,
    TypeAttribute,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext
from xenzyme.llvm_text import _PLAIN_NAME, TypePrinter, escape, float_literal, local_name

# ---------------------------------------------------------------------------------------------
# Names, types, literals
# ---------------------------------------------------------------------------------------------

_NUMBERED_GLOBALS: contextvars.ContextVar[bool] = contextvars.ContextVar("numbered", default=False)
"""While a module whose all-digit global names run 0, 1, ... is printed: print them as `@N`."""


def global_name(name: str) -> str:
    """`@name`, quoted when needed; `@N` for LLVM's numbered (unnamed) globals.

    LLVM numbers unnamed globals in order of definition, so `@3` is only valid as the fourth
    of them; a module whose numbered names have gaps prints them quoted (`@"3"`, a name).
    """
    if _PLAIN_NAME.match(name):
        return "@" + name
    if name.isdigit() and _NUMBERED_GLOBALS.get():
        return "@" + name
    return f'@"{escape(name)}"'


def _label_text(name: str) -> str:
    """A block label as it starts a block (`name:`), quoted when needed."""
    return local_name(name)[1:]


def int_literal(value: int, t: Attribute) -> str:
    if isinstance(t, IntegerType) and t.width.data == 1:
        return "true" if value & 1 else "false"
    return str(value)


def _signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------


def _param_attrs(d: Attribute | None, types: TypePrinter) -> str:
    if not isinstance(d, DictionaryAttr) or not d.data:
        return ""
    parts = []
    for key, val in d.data.items():
        if not key.startswith("llvm."):
            parts.append(f'"{escape(key)}"' + (f'="{escape(val.data)}"' if isinstance(val, StringAttr) and val.data else ""))
            continue
        kind = key[5:]
        if isinstance(val, UnitAttr):
            parts.append(kind)
        elif isinstance(val, IntegerAttr):
            parts.append(f"align {val.value.data}" if kind == "align" else f"{kind}({val.value.data})")
        elif isinstance(val, StringAttr):
            parts.append(f"{kind}({val.data})")
        elif isinstance(val, TypeAttribute):
            parts.append(f"{kind}({types(val)})")
        else:
            raise XenzymeError(f"cannot export parameter attribute {key} = {val}")
    return " ".join(parts)


def _fn_attrs(passthrough: Attribute | None) -> str:
    if not isinstance(passthrough, ArrayAttr):
        return ""
    parts = []
    for a in passthrough.data:
        if isinstance(a, StringAttr):
            parts.append(a.data)
        elif isinstance(a, ArrayAttr) and len(a.data) == 2:
            k, v = a.data
            assert isinstance(k, StringAttr) and isinstance(v, StringAttr)
            parts.append(f'"{escape(k.data)}"' + (f'="{escape(v.data)}"' if v.data else ""))
        else:
            raise XenzymeError(f"cannot export function attribute {a}")
    return " ".join(parts)


def _fmf(op: Operation) -> str:
    """`fast `, `nnan nsz `, ...: the op's fast-math flags as LLVM writes them, or ''."""
    fmf = op.properties.get("fastmathFlags") or op.attributes.get("fastmathFlags")
    if fmf is None:
        return ""
    text = _FMF_TEXT.get(fmf)
    if text is None:
        text = _FMF_TEXT[fmf] = _fmf_text(fmf)
    return text


_FMF_TEXT: dict[Attribute, str] = {}


def _fmf_text(fmf: Attribute) -> str:
    if not isinstance(fmf, xllvm.FastMathAttr) or not fmf.data:
        return ""
    if len(fmf.data) == len(xllvm.FastMathFlag):
        return "fast "
    order = ["reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn"]
    return " ".join(f for f in order if xllvm.FastMathFlag(f) in fmf.data) + " "


def _overflow_bits(op: Operation) -> int:
    f = op.properties.get("overflowFlags")
    if isinstance(f, IntegerAttr):
        return f.value.data
    if isinstance(f, xllvm.OverflowAttr):
        return f.to_int()
    return 0


def _wrap_flags(bits: int) -> str:
    return ("nuw " if bits & 2 else "") + ("nsw " if bits & 1 else "")


_ORDERING = xllvm.ATOMIC_ORDERING_KEYWORDS


# ---------------------------------------------------------------------------------------------
# Module
# ---------------------------------------------------------------------------------------------


def export_module(module: ModuleOp) -> str:
    """The module as LLVM IR text (LLVM 22 syntax)."""
    from xenzyme.llvm_binding import paused_gc

    with paused_gc():
        token = _NUMBERED_GLOBALS.set(_numbering_is_dense(module))
        try:
            return ModuleWriter(module).write()
        finally:
            _NUMBERED_GLOBALS.reset(token)


def instruction_text(op: Operation, module: ModuleOp | None = None) -> str | None:
    """`op` as LLVM IR prints it (`%m = fmul double %x, %y`), for messages about the program:
    the user reads LLVM IR (their .ll file, `clang -S -emit-llvm`), not xDSL text.  `module`:
    where a function not (or no longer) in a module would be (a copy being differentiated).
    None where `op` is not an instruction of an exportable function (or printing it fails)."""
    fn = op.parent_op()
    while fn is not None and not isinstance(fn, xllvm.FuncOp):
        fn = fn.parent_op()
    module = (fn.parent_op() or module) if fn is not None else None
    if not isinstance(module, ModuleOp) or not isinstance(fn, xllvm.FuncOp):
        return None
    try:
        writer = FunctionWriter(ModuleWriter(module), fn)
        writer.write()
    except Exception:  # noqa: BLE001 -- a message's detail; the message itself must survive
        return None
    line = writer.line_of.get(op)
    if line is None:
        return None
    text = writer.lines[line].strip()
    return re.sub(r", !dbg !\d+$", "", text)


def _numbering_is_dense(module: ModuleOp) -> bool:
    """Whether the all-digit symbols, in the order they are printed, are exactly 0, 1, 2, ..."""
    first = [op for op in module.ops if isinstance(op, xllvm.GlobalOp | ext.AliasOp)]
    then = [op for op in module.ops if isinstance(op, xllvm.FuncOp)]
    numbered = [op.sym_name.data for op in (*first, *then) if op.sym_name.data.isdigit()]
    return numbered == [str(i) for i in range(len(numbered))]


class ModuleWriter:
    def __init__(self, module: ModuleOp):
        self.module = module
        self.types = TypePrinter()
        self.intrinsics: dict[str, str] = {}
        self.declared: set[str] = set()
        self.attr_groups: dict[str, int] = {}
        self.symbols = {
            op.sym_name.data: op
            for op in module.ops
            if isinstance(op, xllvm.FuncOp | xllvm.GlobalOp | ext.AliasOp)
        }
        self.implicit_decls: dict[str, str] = {}

    def write(self) -> str:
        attrs = self.module.attributes
        body: list[str] = []
        for op in self.module.ops:
            if isinstance(op, xllvm.GlobalOp):
                body.append(self._global(op))
            elif isinstance(op, ext.AliasOp):
                body.append(self._alias(op))
        for op in self.module.ops:
            if isinstance(op, xllvm.FuncOp):
                body.append(FunctionWriter(self, op).write())
            elif not isinstance(op, xllvm.GlobalOp | ext.AliasOp):
                raise XenzymeError(
                    f"cannot export '{op.name}' at module level to LLVM IR",
                    notes=["only llvm.func, llvm.mlir.global and llvm.mlir.alias can be exported"],
                )
        head: list[str] = []
        if isinstance(s := attrs.get("llvm.source_filename"), StringAttr):
            head.append(f'source_filename = "{escape(s.data)}"')
        if isinstance(s := attrs.get("llvm.data_layout"), StringAttr):
            head.append(f'target datalayout = "{s.data}"')
        if isinstance(s := attrs.get("llvm.target_triple"), StringAttr):
            head.append(f'target triple = "{s.data}"')
        if isinstance(a := attrs.get("llvm.module_asm"), ArrayAttr):
            head += [f'module asm "{escape(x.data)}"' for x in a.data if isinstance(x, StringAttr)]
        if isinstance(c := attrs.get("llvm.comdats"), DictionaryAttr):
            for name, kind in c.data.items():
                assert isinstance(kind, StringAttr)
                head.append(f"${_comdat_name(name)} = comdat {kind.data}")
        tail: list[str] = list(self.implicit_decls.values())
        tail += [f"declare {sig}" for sig in self.intrinsics.values()]
        tail += [f"attributes #{n} = {{ {text} }}" for text, n in self.attr_groups.items()]
        if isinstance(md := attrs.get("llvm.metadata"), ArrayAttr):
            tail += [x.data for x in md.data if isinstance(x, StringAttr)]
        defs = self.types.definitions()
        return "\n\n".join(
            part for part in ("\n".join(head), "\n".join(defs), "\n\n".join(body), "\n".join(tail)) if part
        ) + "\n"

    # ---- globals --------------------------------------------------------------------------

    def _global(self, op: xllvm.GlobalOp) -> str:
        t = self.types(op.global_type)
        linkage = op.linkage.linkage.data
        has_init = op.value is not None or bool(op.body.blocks)
        words = [global_name(op.sym_name.data), "="]
        if linkage != "external" or not has_init:
            words.append(linkage)
        words += _global_flags(op.properties | op.attributes)
        if isinstance(op.attributes.get("externally_initialized"), UnitAttr):
            words.append("externally_initialized")
        words.append("constant" if op.constant is not None else "global")
        words.append(t)
        if has_init:
            words.append(self._initializer(op))
        elif linkage not in ("external", "extern_weak"):
            raise XenzymeError(f"global @{op.sym_name.data} with {linkage} linkage has no initializer")
        text = " ".join(words)
        if op.section is not None:
            text += f', section "{escape(op.section.data)}"'
        if isinstance(p := op.attributes.get("partition"), StringAttr):
            text += f', partition "{escape(p.data)}"'
        if isinstance(c := op.attributes.get("comdat"), StringAttr):
            text += ", comdat" if c.data == op.sym_name.data else f", comdat(${_comdat_name(c.data)})"
        if op.alignment is not None:
            text += f", align {op.alignment.value.data}"
        if isinstance(cm := op.attributes.get("code_model"), StringAttr):
            text += f', code_model "{cm.data}"'
        text += _md_suffix(op.attributes.get("md"))
        if isinstance(g := op.attributes.get("attributes"), ArrayAttr) and g.data:
            text += f" #{self._group(_fn_attrs(g))}"
        return text

    def _group(self, text: str) -> int:
        return self.attr_groups.setdefault(text, len(self.attr_groups))

    def _initializer(self, op: xllvm.GlobalOp) -> str:
        t = op.global_type
        v = op.value
        if v is None:
            return ConstantEvaluator(self).region(op.body)
        if isinstance(v, IntegerAttr):
            return int_literal(v.value.data, t)
        if isinstance(v, FloatAttr):
            return float_literal(v.value.data, t)
        if isinstance(v, StringAttr):
            return f'c"{escape(v.data)}"'
        if isinstance(v, DenseIntOrFPElementsAttr):
            values = list(v.get_values())
            return _dense_literal(t, values, self.types)
        raise XenzymeError(f"cannot export the initializer of @{op.sym_name.data}: {v}")

    def _alias(self, op: ext.AliasOp) -> str:
        words = [global_name(op.sym_name.data), "="]
        if op.linkage.linkage.data != "external":
            words.append(op.linkage.linkage.data)
        words += _global_flags(op.attributes)
        value_type = op.attributes.get("value_type", op.alias_type)
        words.append("alias")
        aliasee = ConstantEvaluator(self).region(op.body)
        return " ".join(words) + f" {self.types(value_type)}, {self.types(op.alias_type)} {aliasee}"

    # ---- declarations for intrinsics and implicit callees --------------------------------

    def intrinsic(self, name: str, ret: Attribute | None, args: Sequence[Attribute]) -> None:
        if name not in self.intrinsics and name not in self.symbols:  # declared by the module itself
            rt = self.types(ret) if ret is not None else "void"
            self.intrinsics[name] = f"{rt} {global_name(name)}({', '.join(self.types(a) for a in args)})"

    def callee_declared(self, name: str, ret: Attribute | None, args: Sequence[Attribute], vararg_type) -> None:
        if name in self.symbols or name in self.implicit_decls:
            return
        if vararg_type is not None:
            rt = self.types(vararg_type.output)
            params = [self.types(p) for p in vararg_type.inputs.data] + ["..."]
        else:
            rt = self.types(ret) if ret is not None else "void"
            params = [self.types(a) for a in args]
        self.implicit_decls[name] = f"declare {rt} {global_name(name)}({', '.join(params)})"


def _comdat_name(name: str) -> str:
    return name if _PLAIN_NAME.match(name) else f'"{escape(name)}"'


_VIS = {1: "hidden", 2: "protected"}
_UNNAMED = {1: "local_unnamed_addr", 2: "unnamed_addr"}


def _global_flags(props: dict[str, Attribute], unnamed_addr: bool = True) -> list[str]:
    words: list[str] = []
    if "dso_local" in props:
        words.append("dso_local")
    if isinstance(v := props.get("visibility_"), IntegerAttr) and v.value.data in _VIS:
        words.append(_VIS[v.value.data])
    if isinstance(d := props.get("dll_storage"), StringAttr):
        words.append(d.data)
    if "thread_local_" in props:
        model = props.get("tls_model")
        words.append(f"thread_local({model.data})" if isinstance(model, StringAttr) else "thread_local")
    if unnamed_addr and isinstance(u := props.get("unnamed_addr"), IntegerAttr) and u.value.data in _UNNAMED:
        words.append(_UNNAMED[u.value.data])
    if isinstance(a := props.get("addr_space"), IntegerAttr) and a.value.data:
        words.append(f"addrspace({a.value.data})")
    return words


def _md_suffix(md: Attribute | None) -> str:
    if not isinstance(md, ext.MetadataAttachmentsAttr):
        return ""
    return "".join(f", !{k} !{n}" for k, n in md.pairs())


def _dense_literal(t: Attribute, values: list, types: TypePrinter) -> str:
    """A (nested) array or vector literal from flattened values.

    All zeros is `zeroinitializer` and a vector of one repeated value `splat (...)`, as LLVM
    prints them.
    """
    if values and all(_is_zero(v) for v in values):
        return "zeroinitializer"
    if isinstance(t, VectorType) and values and all(_same_bits(v, values[0]) for v in values):
        et = t.element_type
        lit = int_literal(int(values[0]), et) if isinstance(et, IntegerType) else float_literal(float(values[0]), et)
        return f"splat ({types(et)} {lit})"
    pos = 0

    def build(t: Attribute) -> str:
        nonlocal pos
        if isinstance(t, ext.LLVMArrayType):
            return "[" + ", ".join(f"{types(t.type)} {build(t.type)}" for _ in range(t.size.data)) + "]"
        if isinstance(t, VectorType):
            et = t.element_type
            return "<" + ", ".join(f"{types(et)} {build(et)}" for _ in range(t.get_shape()[0])) + ">"
        v = values[pos]
        pos += 1
        if isinstance(t, IntegerType):
            return int_literal(int(v), t)
        return float_literal(float(v), t)

    if isinstance(t, ext.LLVMArrayType | VectorType):
        n = 1
        tt = t
        while isinstance(tt, ext.LLVMArrayType | VectorType):
            n *= tt.size.data if isinstance(tt, ext.LLVMArrayType) else tt.get_shape()[0]
            tt = tt.type if isinstance(tt, ext.LLVMArrayType) else tt.element_type
        if len(values) == 1 and n > 1:
            values = values * n
    return build(t)


def _is_zero(v: int | float) -> bool:
    return v == 0 and (not isinstance(v, float) or math.copysign(1.0, v) > 0)


def _same_bits(a: int | float, b: int | float) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return struct.pack(">d", float(a)) == struct.pack(">d", float(b))
    return a == b


# ---------------------------------------------------------------------------------------------
# Constant expressions (global initializers, aliases)
# ---------------------------------------------------------------------------------------------


class _Aggregate:
    """An aggregate constant under construction by insertvalue/insertelement."""

    def __init__(self, t: Attribute, fill: str):
        self.type = t
        self.fill = fill
        self.elems: dict[int, str | _Aggregate] = {}

    def count(self) -> int:
        t = self.type
        if isinstance(t, ext.LLVMArrayType):
            return t.size.data
        if isinstance(t, VectorType):
            return t.get_shape()[0]
        assert isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType)
        return len(t.types.data)

    def member_type(self, i: int) -> Attribute:
        t = self.type
        if isinstance(t, ext.LLVMArrayType):
            return t.type
        if isinstance(t, VectorType):
            return t.element_type
        assert isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType)
        return t.types.data[i]

    def insert(self, path: Sequence[int], value: str) -> None:
        i = path[0]
        if len(path) == 1:
            self.elems[i] = value
            return
        sub = self.elems.get(i)
        if not isinstance(sub, _Aggregate):
            sub = _Aggregate(self.member_type(i), self.fill)
            self.elems[i] = sub
        sub.insert(path[1:], value)

    def render(self, types: TypePrinter) -> str:
        if not self.elems:
            return self.fill
        parts = []
        for i in range(self.count()):
            mt = self.member_type(i)
            e = self.elems.get(i)
            if e is None:
                e = _fill_for(mt, self.fill)
            elif isinstance(e, _Aggregate):
                e = e.render(types)
            parts.append(f"{types(mt)} {e}")
        t = self.type
        if isinstance(t, ext.LLVMArrayType):
            return "[" + ", ".join(parts) + "]"
        if isinstance(t, VectorType):
            return "<" + ", ".join(parts) + ">"
        if isinstance(t, ext.LLVMPackedStructType):
            return "<{ " + ", ".join(parts) + " }>"
        return "{ " + ", ".join(parts) + " }"


def _fill_for(t: Attribute, fill: str) -> str:
    if fill != "zeroinitializer":
        return fill
    if isinstance(t, IntegerType):
        return "false" if t.width.data == 1 else "0"
    if isinstance(t, (Float16Type, BFloat16Type, Float32Type, Float64Type, Float80Type, Float128Type)):
        return float_literal(0.0, t)
    if isinstance(t, ext.LLVMPointerType):
        return "null"
    return "zeroinitializer"


class ConstantEvaluator:
    """Spells constant ops as LLVM constants: literals, aggregates and constant expressions.

    Used for initializer regions (constant ops ending in `llvm.return`) and, in function bodies,
    for the ops the importer made of constant operands (`getelementptr (...)`, aggregate
    constants built by insertvalue chains, x86_fp80 bit patterns), which are printed back inline.
    Values are evaluated on demand without recursion: an insertvalue chain building a long string
    would otherwise exceed Python's stack.
    """

    def __init__(self, writer: ModuleWriter):
        self.w = writer
        self.values: dict[SSAValue, str | _Aggregate] = {}

    def value(self, v: SSAValue) -> str | _Aggregate:
        x = self.values.get(v)
        if x is not None:
            return x
        stack = [v]
        while stack:
            top = stack[-1]
            owner = top.owner
            if not isinstance(owner, Operation):
                raise XenzymeError("a constant cannot depend on a block argument")
            pending = [o for o in owner.operands if o not in self.values]
            if pending:
                stack += pending
                continue
            stack.pop()
            if top not in self.values:
                self.values[top] = self._op(owner)
        return self.values[v]

    def text(self, v: SSAValue) -> str:
        x = self.value(v)
        return x.render(self.w.types) if isinstance(x, _Aggregate) else x

    def typed(self, v: SSAValue) -> str:
        return f"{self.w.types(v.type)} {self.text(v)}"

    def region(self, region) -> str:
        if not region.blocks:
            raise XenzymeError("empty initializer region")
        ret = region.block.last_op
        if not isinstance(ret, xllvm.ReturnOp) or ret.arg is None:
            raise XenzymeError("initializer region does not end in llvm.return of a value")
        return self.text(ret.arg)

    def _op(self, op: Operation) -> str | _Aggregate:
        t = op.results[0].type
        if isinstance(op, xllvm.UndefOp):
            return _Aggregate(t, "undef") if _is_aggregate(t) else "undef"
        if isinstance(op, ext.PoisonOp):
            return _Aggregate(t, "poison") if _is_aggregate(t) else "poison"
        if isinstance(op, xllvm.ZeroOp):
            if isinstance(t, ext.LLVMPointerType):
                return "null"
            return _Aggregate(t, "zeroinitializer") if _is_aggregate(t) else "zeroinitializer"
        if isinstance(op, xllvm.InsertValueOp | xllvm.InsertElementOp):
            return self._insert(op, t)
        if isinstance(op, ext.GEPOp):
            words = op.flag_keywords()
            if isinstance(r := op.attributes.get("inrange"), StringAttr):
                words.append(f"inrange({r.data})")
            idx = _gep_indices(op, self.w.types, self.typed)
            return f"getelementptr {' '.join(words) + ' ' if words else ''}({self.w.types(op.elem_type)}, {self.typed(op.ptr)}{idx})"
        if (kw := _CAST_KEYWORDS.get(type(op))) is not None:
            return f"{kw} ({self.typed(op.operands[0])} to {self.w.types(t)})"
        if (kw := _INT_BINOP_KEYWORDS.get(type(op))) is not None:
            flags = _wrap_flags(_overflow_bits(op)) if kw != "xor" else ""
            return f"{kw} {flags}({self.typed(op.operands[0])}, {self.typed(op.operands[1])})"
        literal = constant_literal(op, self.w.types)
        if literal is not None:
            return literal
        raise XenzymeError(f"'{op.name}' cannot appear in a constant")

    def _insert(self, op: Operation, t: Attribute) -> _Aggregate:
        base_value = op.operands[0]
        base = self.values[base_value]
        # The only user of an aggregate may fill it in place (a string is N inserts, not N^2).
        agg = base if isinstance(base, _Aggregate) and base_value.has_one_use() else _copy_agg(base, t)
        if isinstance(op, xllvm.InsertValueOp):
            agg.insert(list(op.position.iter_values()), self.text(op.value))
            return agg
        idx = op.operands[2].owner
        if not isinstance(idx, xllvm.ConstantOp) or not isinstance(idx.value, IntegerAttr):
            raise XenzymeError("insertelement in a constant needs a constant index")
        agg.insert([idx.value.value.data], self.text(op.operands[1]))
        return agg


_FOLDABLE_CASTS = (xllvm.PtrToIntOp, xllvm.IntToPtrOp, xllvm.BitcastOp, ext.AddrSpaceCastOp, xllvm.TruncOp)
_FOLDABLE_OPS = (
    ext.GEPOp, xllvm.InsertValueOp, xllvm.InsertElementOp, xllvm.AddOp, xllvm.SubOp, xllvm.XOrOp,
    *_FOLDABLE_CASTS,
)  # fmt: skip
"""Ops that LLVM 22 can spell as constant expressions (or plain aggregate constants)."""
_FOLDABLE_TYPES = frozenset(_FOLDABLE_OPS)

_ICMP_NAMES = {int(f.to_int()): str(f) for f in xllvm.ICmpPredicateFlag}
_FCMP_NAMES = {int(f.to_int()): str(f).lstrip("_") for f in xllvm.FCmpPredicateFlag}
"""Predicate numbers (the `predicate` property) to LLVM's keywords."""


def _foldable_kind(op: Operation) -> bool:
    """`op` may be printed as a constant when its operands are constants.

    Ops with a debug location or metadata stay instructions: a constant has nowhere to keep them.
    """
    if op.attributes.get("md") is not None or isinstance(op.location, NameLoc):
        return False
    if isinstance(op, xllvm.TruncOp):
        return _overflow_bits(op) == 0
    if isinstance(op, xllvm.InsertValueOp | xllvm.InsertElementOp):
        if not isinstance(op.operands[0].owner, _AGGREGATE_BASES):
            return False
        return isinstance(op, xllvm.InsertValueOp) or isinstance(op.operands[2].owner, xllvm.ConstantOp)
    return True


_AGGREGATE_BASES = (xllvm.UndefOp, ext.PoisonOp, xllvm.ZeroOp, xllvm.InsertValueOp, xllvm.InsertElementOp)


def _copy_agg(base: str | _Aggregate, t: Attribute) -> _Aggregate:
    if isinstance(base, _Aggregate):
        new = _Aggregate(t, base.fill)
        new.elems = {k: (_deep(v) if isinstance(v, _Aggregate) else v) for k, v in base.elems.items()}
        return new
    return _Aggregate(t, base if base in ("undef", "poison", "zeroinitializer") else "undef")


def _deep(a: _Aggregate) -> _Aggregate:
    new = _Aggregate(a.type, a.fill)
    new.elems = {k: (_deep(v) if isinstance(v, _Aggregate) else v) for k, v in a.elems.items()}
    return new


def _is_aggregate(t: Attribute) -> bool:
    return isinstance(t, ext.LLVMArrayType | ext.LLVMStructType | ext.LLVMPackedStructType | VectorType)


def constant_literal(op: Operation, types: TypePrinter) -> str | None:
    """Inline spelling of a constant-like op, or None if it is not one."""
    if isinstance(op, xllvm.ConstantOp):
        v = op.value
        t = op.result.type
        if isinstance(v, IntegerAttr):
            w = t.width.data if isinstance(t, IntegerType) else 64
            return int_literal(_signed(v.value.data, w) if w > 1 else v.value.data, t)
        if isinstance(v, FloatAttr):
            return float_literal(v.value.data, t)
        if isinstance(v, DenseIntOrFPElementsAttr):
            return _dense_literal(t, list(v.get_values()), types)
        raise XenzymeError(f"cannot export constant {v}")
    if isinstance(op, xllvm.ZeroOp):
        return "null" if isinstance(op.res.type, ext.LLVMPointerType) else "zeroinitializer"
    if isinstance(op, xllvm.UndefOp):
        return "undef"
    if isinstance(op, ext.PoisonOp):
        return "poison"
    if isinstance(op, xllvm.AddressOfOp):
        return global_name(op.global_name.string_value())
    if isinstance(op, ext.MetadataOp):
        return op.text.data
    return None


_CONSTANT_OPS = (xllvm.ConstantOp, xllvm.ZeroOp, xllvm.UndefOp, ext.PoisonOp, xllvm.AddressOfOp, ext.MetadataOp)
_CONSTANT_TYPES = frozenset(_CONSTANT_OPS)
"""The same, for `type(op) in` tests: op classes are ABCs, and `isinstance` on them is slow."""

_CAST_KEYWORDS: dict[type, str] = {
    xllvm.TruncOp: "trunc", xllvm.ZExtOp: "zext", xllvm.SExtOp: "sext",
    xllvm.FPTruncOp: "fptrunc", xllvm.FPExtOp: "fpext", ext.FPToUIOp: "fptoui",
    ext.FPToSIOp: "fptosi", ext.UIToFPOp: "uitofp", xllvm.SIToFPOp: "sitofp",
    xllvm.PtrToIntOp: "ptrtoint", xllvm.IntToPtrOp: "inttoptr", xllvm.BitcastOp: "bitcast",
    ext.AddrSpaceCastOp: "addrspacecast",
}  # fmt: skip

_INT_BINOP_KEYWORDS: dict[type, str] = {
    xllvm.AddOp: "add", xllvm.SubOp: "sub", xllvm.MulOp: "mul", xllvm.UDivOp: "udiv",
    xllvm.SDivOp: "sdiv", xllvm.URemOp: "urem", xllvm.SRemOp: "srem", xllvm.AndOp: "and",
    xllvm.OrOp: "or", xllvm.XOrOp: "xor", xllvm.ShlOp: "shl", xllvm.LShrOp: "lshr",
    xllvm.AShrOp: "ashr",
}  # fmt: skip

_FLOAT_BINOP_KEYWORDS: dict[type, str] = {
    xllvm.FAddOp: "fadd", xllvm.FSubOp: "fsub", xllvm.FMulOp: "fmul", xllvm.FDivOp: "fdiv",
    xllvm.FRemOp: "frem",
}  # fmt: skip


def _gep_indices(op: ext.GEPOp, types: TypePrinter, typed: Callable[[SSAValue], str]) -> str:
    """`, i64 0, i32 1, i64 %i`: struct fields are selected with i32, everything else i64."""
    parts = []
    current: Attribute | None = None
    for pos, idx in enumerate(op.mixed_indices()):
        if isinstance(idx, int):
            ity = "i32" if isinstance(current, ext.LLVMStructType | ext.LLVMPackedStructType) else "i64"
            parts.append(f", {ity} {idx}")
        else:
            parts.append(f", {typed(idx)}")
        current = op.elem_type if pos == 0 else _step(current, idx)
    return "".join(parts)


def _step(t: Attribute | None, idx: int | SSAValue) -> Attribute | None:
    if isinstance(t, ext.LLVMArrayType):
        return t.type
    if isinstance(t, VectorType):
        return t.element_type
    if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType) and isinstance(idx, int):
        return t.types.data[idx]
    return None


# ---------------------------------------------------------------------------------------------
# Functions
# ---------------------------------------------------------------------------------------------


def intrinsic_name(op: Operation, types: TypePrinter) -> str:
    """Mangled LLVM name of an `llvm.intr.*` op: `llvm.intr.sqrt` on f64 -> `llvm.sqrt.f64`."""
    base = op.name.removeprefix("llvm.intr.")
    sources = ext.INTRINSIC_OVERLOADS.get(base)
    if sources is None:
        sources = (-1,) if op.results else (0,)
    parts = [f"llvm.{base}"]
    for s in sources:
        t = op.results[0].type if s == -1 else op.operands[s].type
        parts.append(mangle_type(t))
    return ".".join(parts)


def mangle_type(t: Attribute) -> str:
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, BFloat16Type):
        return "bf16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, Float80Type):
        return "f80"
    if isinstance(t, Float128Type):
        return "f128"
    if isinstance(t, ext.LLVMPointerType):
        return f"p{t.addr_space.data if isinstance(t.addr_space, IntAttr) else 0}"
    if isinstance(t, VectorType):
        return f"v{t.get_shape()[0]}{mangle_type(t.element_type)}"
    if isinstance(t, ext.LLVMArrayType):
        return f"a{t.size.data}{mangle_type(t.type)}"
    raise XenzymeError(f"cannot mangle type {t} in an intrinsic name")


class FunctionWriter:
    """Prints one `llvm.func`."""

    def __init__(self, writer: ModuleWriter, fn: xllvm.FuncOp):
        self.w = writer
        self.fn = fn
        self.types = writer.types
        self.names: dict[SSAValue, str] = {}
        self.block_names: dict[Block, str] = {}
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.pending_blocks: list[str] = []
        self.edge_labels: dict[tuple[Operation, int], str] = {}
        self.counter = 0
        self.inline: set[Operation] = set()
        """Ops printed inline as constants rather than as instructions."""
        self.consts = ConstantEvaluator(writer)
        self.debug = isinstance(md := fn.attributes.get("md"), ext.MetadataAttachmentsAttr) and md.get("dbg") is not None
        self.line_of: dict[Operation, int] = {}
        """The index in `lines` of each instruction's first line."""

    # ---- naming ---------------------------------------------------------------------------

    def _fresh(self, hint: str | None) -> str:
        """A new local name: the hint if free, else the hint with a suffix, else `%vN`."""
        if hint and not hint[0].isdigit():
            name, n = hint, 0
            while name in self.used:
                n += 1
                name = f"{hint}.{n}"
        else:
            name = f"v{self.counter}"
            while name in self.used:
                self.counter += 1
                name = f"v{self.counter}"
            self.counter += 1
        self.used.add(name)
        return local_name(name)

    def ref(self, v: SSAValue) -> str:
        s = self.names.get(v)
        if s is not None:
            return s
        owner = v.owner
        if type(owner) in _CONSTANT_TYPES:
            s = constant_literal(owner, self.types)
            assert s is not None
            self.names[v] = s
            return s
        if owner in self.inline:
            s = self.names[v] = self.consts.text(v)
            return s
        raise XenzymeError(
            f"in @{self.fn.sym_name.data}: value used before it is defined, or defined outside the function"
        )

    def typed(self, v: SSAValue) -> str:
        return f"{self.types(v.type)} {self.ref(v)}"

    def _foldable(self, op: Operation) -> bool:
        """Whether `op` is printed inline as a constant: its operands are inline constants.

        Ops are visited in order, so an operand defined later (in a later block) keeps its
        user an instruction -- correct, merely unfolded.  An unused op stays an instruction too:
        folding it would make it vanish.
        """
        if op.results[0].first_use is None or not _foldable_kind(op):
            return False
        inline = self.inline
        return all(o.owner in inline for o in op.operands)

    def _fresh_label(self, hint: str | None, index: int) -> str:
        """A block label (without `%`): the block's name hint if free, else `bbN`."""
        return self._unique(hint if hint and hint not in self.used else f"bb{index}")

    def _unique(self, name: str) -> str:
        base, n = name, 0
        while name in self.used:
            n += 1
            name = f"{base}.{n}"
        self.used.add(name)
        return name

    def label(self, b: Block) -> str:
        return local_name(self.block_names[b])

    # ---- header ---------------------------------------------------------------------------

    def write(self) -> str:
        """The `define`/`declare` line (and body).

        Properties and discardable attributes are read alike: xDSL's `llvm.func` parser files
        what it has no syntax for (`passthrough`, ...) as attributes, the importer as properties.
        """
        fn = self.fn
        props = fn.attributes | fn.properties
        ftype = fn.function_type
        is_decl = not fn.body.blocks
        words = ["declare" if is_decl else "define"]
        linkage = fn.linkage.linkage.data
        if linkage != "external":
            words.append(linkage)
        words += _global_flags(props, unnamed_addr=False)
        cconv = fn.CConv.convention.data
        if cconv != "ccc":
            words.append(cconv)
        res = props.get("res_attrs")
        res_attrs = _param_attrs(res.data[0] if isinstance(res, ArrayAttr) and res.data else None, self.types)
        if res_attrs:
            words.append(res_attrs)
        words.append(self.types(ftype.output))
        params = []
        args = props.get("arg_attrs")
        arg_attrs = args.data if isinstance(args, ArrayAttr) else ()
        entry = fn.body.blocks.first if not is_decl else None
        for i, t in enumerate(ftype.inputs.data):
            p = self.types(t)
            a = _param_attrs(arg_attrs[i] if i < len(arg_attrs) else None, self.types)
            if a:
                p += " " + a
            if entry is not None:
                arg = entry.args[i]
                self.names[arg] = self._fresh(arg.name_hint or f"arg{i}")
                p += " " + self.names[arg]
            params.append(p)
        if ftype.is_variadic:
            params.append("...")
        head = " ".join(words) + f" {global_name(fn.sym_name.data)}({', '.join(params)})"
        if isinstance(u := props.get("unnamed_addr"), IntegerAttr) and u.value.data in _UNNAMED:
            head += " " + _UNNAMED[u.value.data]
        fa = _fn_attrs(props.get("passthrough"))
        if fa:
            head += " " + fa
        if isinstance(s := props.get("section"), StringAttr):
            head += f' section "{escape(s.data)}"'
        if isinstance(c := props.get("comdat"), StringAttr):
            head += " comdat" if c.data == fn.sym_name.data else f" comdat(${_comdat_name(c.data)})"
        if isinstance(a := props.get("alignment"), IntegerAttr):
            head += f" align {a.value.data}"
        if isinstance(g := props.get("gc"), StringAttr):
            head += f' gc "{escape(g.data)}"'
        for key in ("prefix", "prologue", "personality"):
            if isinstance(sym := props.get(key), SymbolRefAttr):
                head += f" {key} ptr {global_name(sym.string_value())}"
        if isinstance(md := props.get("md"), ext.MetadataAttachmentsAttr):
            head += "".join(f" !{k} !{n}" for k, n in md.pairs())
        if is_decl:
            return head
        self._body()
        return head + " {\n" + "\n".join(self.lines) + "\n}"

    # ---- body -----------------------------------------------------------------------------

    def _body(self) -> None:
        blocks = list(self.fn.body.blocks)
        for i, b in enumerate(blocks):
            self.block_names[b] = self._fresh_label(b.name_hint, i)
        if not blocks[0].name_hint:
            # Every value has a name, so an unlabelled entry block is LLVM's numbered slot 0.
            self.used.discard(self.block_names[blocks[0]])
            self.block_names[blocks[0]] = "0"
        for b in blocks[1:]:
            for arg in b.args:
                self.names[arg] = self._fresh(arg.name_hint)
        inline = self.inline
        for b in blocks:
            for op in b.ops:
                kind = type(op)
                if kind in _CONSTANT_TYPES:
                    inline.add(op)
                elif kind in _FOLDABLE_TYPES and self._foldable(op):
                    inline.add(op)
                elif op.results:
                    for r in op.results:
                        self.names[r] = self._fresh(r.name_hint)
        # incoming values per (block, predecessor label)
        self.incoming: dict[Block, list[tuple[str, Sequence[SSAValue]]]] = {b: [] for b in blocks}
        self.extra_blocks: list[str] = []
        for b in blocks:
            term = b.last_op
            if term is None:
                raise XenzymeError(f"in @{self.fn.sym_name.data}: block without terminator")
            self._plan_edges(b, term)
        entry = blocks[0]
        if self.incoming[entry]:
            # LLVM's entry block cannot have predecessors: enter through a fresh block.
            pre = self._unique("entry.pre")
            self.lines.append(f"{pre}:")
            self.lines.append(f"  br label {self.label(entry)}")
            params = {a: self.names[a] for a in entry.args}
            for a in entry.args:
                self.names[a] = self._fresh((a.name_hint or "arg") + ".phi")
            self.incoming[entry].insert(0, (pre, list(_ParamRef(params[a]) for a in entry.args)))  # type: ignore[arg-type]
        for b in blocks:
            if b is not entry or self.incoming[entry] or self.block_names[b] != "0":
                self.lines.append(f"{_label_text(self.block_names[b])}:")
            if self.incoming[b] or (b is entry and self.incoming[entry]):
                self._phis(b)
            for op in b.ops:
                if op in inline:
                    continue
                self.line_of[op] = len(self.lines)
                self._op(op)
            self.lines += self.pending_blocks
            self.pending_blocks = []

    def _plan_edges(self, b: Block, term: Operation) -> None:
        """Record phi inputs; split edges that reach one block twice with different values."""
        seen: dict[Block, Sequence[SSAValue]] = {}
        for i, (dest, args) in enumerate(ext.successor_operands(term)):
            if dest in seen:
                # LLVM wants one phi entry per edge, so a second edge with the same values
                # repeats the entry; different values need a block of their own.
                if list(seen[dest]) == list(args):
                    if dest.args:
                        self.incoming[dest].append((self.block_names[b], args))
                    continue
                base = self.block_names[b]
                split = self._unique(f"{'entry' if base.isdigit() else base}.e{i}")
                self.edge_labels[(term, i)] = split
                self.incoming[dest].append((split, args))
                continue
            seen[dest] = args
            if dest.args:
                self.incoming[dest].append((self.block_names[b], args))

    def _phis(self, b: Block) -> None:
        for k, arg in enumerate(b.args):
            entries = []
            for pred, args in self.incoming[b]:
                v = args[k]
                text = v.text if isinstance(v, _ParamRef) else self.ref(v)
                entries.append(f"[ {text}, {local_name(pred)} ]")
            line = f"  {self.names[arg]} = phi {self.types(arg.type)} {', '.join(entries)}"
            self.lines.append(line + self._dbg(arg.location))

    def _dest(self, term: Operation, i: int, dest: Block) -> str:
        split = self.edge_labels.get((term, i))
        if split is None:
            return f"label {self.label(dest)}"
        self.pending_blocks += [f"{_label_text(split)}:", f"  br label {self.label(dest)}"]
        return f"label {local_name(split)}"

    def _dbg(self, loc: Attribute) -> str:
        """`, !dbg !N` for a location the importer took from `!dbg` (in functions with debug info)."""
        if self.debug and isinstance(loc, NameLoc) and loc.desc.data.startswith("!"):
            return f", !dbg {loc.desc.data}"
        return ""

    def _suffix(self, op: Operation) -> str:
        md = op.attributes.get("md") if op.attributes else None
        if not self.debug and isinstance(md, ext.MetadataAttachmentsAttr) and md.get("DIAssignID") is not None:
            # An instruction copied out of a function with debug info into one without (a
            # generated derivative): its assignment ID belongs to the original's debug records.
            md = ext.MetadataAttachmentsAttr.from_pairs([(k, n) for k, n in md.pairs() if k != "DIAssignID"])
        s = _md_suffix(md)
        return s + self._dbg(op.location) if self.debug else s

    def _emit(self, op: Operation, text: str) -> None:
        if op.results:
            text = f"{self.names[op.results[0]]} = {text}"
        self.lines.append("  " + text + self._suffix(op))

    def _op(self, op: Operation) -> None:
        handler = _OP_WRITERS.get(type(op))
        if handler is None:
            if op.name.startswith("llvm.intr."):
                handler = FunctionWriter._intrinsic_op
            else:
                raise XenzymeError(
                    f"in @{self.fn.sym_name.data}: '{op.name}' cannot be exported to LLVM IR",
                    notes=["lower it to the llvm dialect first (e.g. -p enzyme or lower-autodiff)"],
                )
        handler(self, op)

    # ---- instruction writers --------------------------------------------------------------

    def _int_binop(self, op: Operation) -> None:
        kw = _INT_BINOP_KEYWORDS[type(op)]
        flags = _wrap_flags(_overflow_bits(op)) if kw in ("add", "sub", "mul", "shl") else ""
        if "isExact" in op.properties:
            flags += "exact "
        if "isDisjoint" in op.properties:
            flags += "disjoint "
        a, b = op.operands
        self._emit(op, f"{kw} {flags}{self.typed(a)}, {self.ref(b)}")

    def _float_binop(self, op: Operation) -> None:
        a, b = op.operands
        self._emit(op, f"{_FLOAT_BINOP_KEYWORDS[type(op)]} {_fmf(op)}{self.typed(a)}, {self.ref(b)}")

    def _fneg(self, op: Operation) -> None:
        self._emit(op, f"fneg {_fmf(op)}{self.typed(op.operands[0])}")

    def _cast(self, op: Operation) -> None:
        kw = _CAST_KEYWORDS[type(op)]
        flags = ""
        if "nonNeg" in op.properties or "nneg" in op.attributes:
            flags += "nneg "
        if kw == "trunc":
            flags += _wrap_flags(_overflow_bits(op))
        flags += _fmf(op)
        self._emit(op, f"{kw} {flags}{self.typed(op.operands[0])} to {self.types(op.results[0].type)}")

    def _icmp(self, op: ext.ICmpOp) -> None:
        ss = "samesign " if "samesign" in op.properties else ""
        pred = _ICMP_NAMES[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
        a, b = op.operands
        self._emit(op, f"icmp {ss}{pred} {self.typed(a)}, {self.ref(b)}")

    def _fcmp(self, op: ext.FCmpOp) -> None:
        pred = _FCMP_NAMES[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
        a, b = op.operands
        self._emit(op, f"fcmp {_fmf(op)}{pred} {self.typed(a)}, {self.ref(b)}")

    def _select(self, op: ext.SelectOp) -> None:
        c, a, b = op.operands
        self._emit(op, f"select {_fmf(op)}{self.typed(c)}, {self.typed(a)}, {self.typed(b)}")

    def _alloca(self, op: xllvm.AllocaOp) -> None:
        text = f"alloca {'inalloca ' if 'inalloca' in op.attributes else ''}{self.types(op.elem_type)}, {self.typed(op.size)}"
        if op.alignment is not None:
            text += f", align {op.alignment.value.data}"
        rt = op.res.type
        if isinstance(rt, ext.LLVMPointerType) and isinstance(rt.addr_space, IntAttr) and rt.addr_space.data:
            text += f", addrspace({rt.addr_space.data})"
        self._emit(op, text)

    def _atomic(self, op: Operation, ordering: int) -> tuple[str, str]:
        if not ordering:
            return "", ""
        scope = op.attributes.get("syncscope")
        s = f' syncscope("{escape(scope.data)}")' if isinstance(scope, StringAttr) else ""
        return "atomic ", f"{s} {_ORDERING[ordering]}"

    def _load(self, op: xllvm.LoadOp) -> None:
        props = op.properties
        ordering = props.get("ordering")
        atomic, order = self._atomic(op, ordering.value.data if ordering is not None else 0)  # type: ignore[attr-defined]
        vol = "volatile " if "volatile_" in op.attributes or "volatile_" in props else ""
        text = f"load {atomic}{vol}{self.types(op.results[0].type)}, {self.typed(op.operands[0])}{order}"
        if (align := props.get("alignment")) is not None:
            text += f", align {align.value.data}"  # type: ignore[attr-defined]
        self._emit(op, text)

    def _store(self, op: ext.StoreOp) -> None:
        props = op.properties
        ordering = props.get("ordering")
        atomic, order = self._atomic(op, ordering.value.data if ordering is not None else 0)  # type: ignore[attr-defined]
        vol = "volatile " if "volatile_" in props else ""
        value, ptr = op.operands
        text = f"store {atomic}{vol}{self.typed(value)}, {self.typed(ptr)}{order}"
        if (align := props.get("alignment")) is not None:
            text += f", align {align.value.data}"  # type: ignore[attr-defined]
        self._emit(op, text)

    def _gep(self, op: ext.GEPOp) -> None:
        words = op.flag_keywords()
        flags = " ".join(words) + " " if words else ""
        idx = _gep_indices(op, self.types, self.typed)
        self._emit(op, f"getelementptr {flags}{self.types(op.elem_type)}, {self.typed(op.ptr)}{idx}")

    def _extractvalue(self, op: xllvm.ExtractValueOp) -> None:
        pos = ", ".join(str(p) for p in op.position.iter_values())
        self._emit(op, f"extractvalue {self.typed(op.container)}, {pos}")

    def _insertvalue(self, op: xllvm.InsertValueOp) -> None:
        pos = ", ".join(str(p) for p in op.position.iter_values())
        self._emit(op, f"insertvalue {self.typed(op.container)}, {self.typed(op.value)}, {pos}")

    def _extractelement(self, op: ext.ExtractElementOp) -> None:
        self._emit(op, f"extractelement {self.typed(op.vector)}, {self.typed(op.position)}")

    def _insertelement(self, op: xllvm.InsertElementOp) -> None:
        self._emit(op, f"insertelement {self.typed(op.vector)}, {self.typed(op.value)}, {self.typed(op.index)}")

    def _shufflevector(self, op: xllvm.ShuffleVectorOp) -> None:
        mask = list(op.mask.iter_values())
        m = ", ".join("i32 poison" if x < 0 else f"i32 {x}" for x in mask)
        self._emit(op, f"shufflevector {self.typed(op.v1)}, {self.typed(op.v2)}, <{len(mask)} x i32> <{m}>")

    def _freeze(self, op: ext.FreezeOp) -> None:
        self._emit(op, f"freeze {self.typed(op.val)}")

    def _va_arg(self, op: ext.VAArgOp) -> None:
        self._emit(op, f"va_arg {self.typed(op.arg)}, {self.types(op.res.type)}")

    def _atomicrmw(self, op: ext.AtomicRMWOp) -> None:
        vol = "volatile " if op.volatile_ is not None else ""
        scope = f' syncscope("{escape(op.syncscope.data)}")' if op.syncscope is not None else ""
        text = f"atomicrmw {vol}{op.bin_op.data} {self.typed(op.ptr)}, {self.typed(op.val)}{scope} {op.ordering.data}"
        if op.alignment is not None:
            text += f", align {op.alignment.value.data}"
        self._emit(op, text)

    def _cmpxchg(self, op: ext.CmpXchgOp) -> None:
        words = ("weak " if op.weak is not None else "") + ("volatile " if op.volatile_ is not None else "")
        scope = f' syncscope("{escape(op.syncscope.data)}")' if op.syncscope is not None else ""
        text = (
            f"cmpxchg {words}{self.typed(op.ptr)}, {self.typed(op.cmp)}, {self.typed(op.new)}{scope} "
            f"{op.success_ordering.data} {op.failure_ordering.data}"
        )
        if op.alignment is not None:
            text += f", align {op.alignment.value.data}"
        self._emit(op, text)

    def _fence(self, op: ext.FenceOp) -> None:
        scope = f'syncscope("{escape(op.syncscope.data)}") ' if op.syncscope is not None else ""
        self._emit(op, f"fence {scope}{op.ordering.data}")

    def _landingpad(self, op: ext.LandingPadOp) -> None:
        text = f"landingpad {self.types(op.res.type)}"
        if op.cleanup is not None:
            text += " cleanup"
        for kind, v in zip(op.clause_kinds.data, op.clauses, strict=True):
            text += f" {kind.data} {self.typed(v)}"
        self._emit(op, text)

    def _dbg_record(self, op: ext.DbgRecordOp) -> None:
        if not self.debug:
            return
        text = op.text.data
        for i in reversed(range(len(op.locations))):
            text = text.replace(f"${i}", self.typed(op.locations[i]))
        self.lines.append("    " + text)

    def _call_args(self, op: Operation, args: Sequence[SSAValue]) -> str:
        attrs = op.attributes.get("arg_attrs")
        items = attrs.data if isinstance(attrs, ArrayAttr) else ()
        parts = []
        for i, a in enumerate(args):
            pa = _param_attrs(items[i] if i < len(items) else None, self.types)
            parts.append(f"{self.types(a.type)}{' ' + pa if pa else ''} {self.ref(a)}")
        return ", ".join(parts)

    def _call_prefix(self, op: Operation, tail: str) -> str:
        text = f"{tail} call " if tail not in ("none", "") else "call "
        text += _fmf(op)
        cc = op.properties.get("CConv")
        if isinstance(cc, xllvm.CallingConventionAttr) and cc.convention.data != "ccc":
            text += cc.convention.data + " "
        ra = op.attributes.get("res_attrs")
        if isinstance(ra, ArrayAttr) and ra.data:
            pa = _param_attrs(ra.data[0], self.types)
            if pa:
                text += pa + " "
        return text

    def _call_suffix(self, op: Operation) -> str:
        fa = _fn_attrs(op.attributes.get("fn_attrs"))
        return " " + fa if fa else ""

    def _call(self, op: xllvm.CallOp) -> None:
        tail = op.TailCallKind.data.value
        text = self._call_prefix(op, tail)
        args = list(op.args)
        rtype = op.returned.type if op.returned is not None else None
        if op.callee is not None:
            callee = global_name(op.callee.string_value())
            self.w.callee_declared(op.callee.string_value(), rtype, [a.type for a in args], op.var_callee_type)
        else:
            callee = self.ref(args[0])
            args = args[1:]
        if op.var_callee_type is not None:
            fty = self.types(op.var_callee_type)
        else:
            fty = self.types(rtype) if rtype is not None else "void"
        self._emit(op, f"{text}{fty} {callee}({self._call_args(op, args)}){self._call_suffix(op)}")

    def _invoke(self, op: ext.InvokeOp) -> None:
        text = "invoke "
        cc = op.CConv.convention.data
        if cc != "ccc":
            text += cc + " "
        ra = op.attributes.get("res_attrs")
        if isinstance(ra, ArrayAttr) and ra.data and (pa := _param_attrs(ra.data[0], self.types)):
            text += pa + " "
        args = list(op.call_args())
        rtype = op.results[0].type if op.results else None
        if op.callee is not None:
            callee = global_name(op.callee.string_value())
            self.w.callee_declared(op.callee.string_value(), rtype, [a.type for a in args], op.var_callee_type)
        else:
            callee = self.ref(op.args[0])
        fty = self.types(op.var_callee_type) if op.var_callee_type is not None else (
            self.types(rtype) if rtype is not None else "void"
        )
        text += f"{fty} {callee}({self._call_args(op, args)}){self._call_suffix(op)}"
        text += f" to {self._dest(op, 0, op.normal_dest)} unwind {self._dest(op, 1, op.unwind_dest)}"
        self._emit(op, text)

    def _inline_asm(self, op: xllvm.InlineAsmOp) -> None:
        tail = op.tail_call_kind.data.value
        text = self._call_prefix(op, tail)
        rtype = self.types(op.res.type) if op.res is not None else "void"
        words = []
        if op.has_side_effects is not None:
            words.append("sideeffect")
        if op.is_align_stack is not None:
            words.append("alignstack")
        if op.asm_dialect is not None and op.asm_dialect.value.data == 1:
            words.append("inteldialect")
        if "unwind" in op.attributes:
            words.append("unwind")
        asm = " ".join(["asm", *words])
        text += f'{rtype} {asm} "{escape(op.asm_string.data)}", "{escape(op.constraints.data)}"'
        text += f"({self._call_args(op, list(op.operands_))}){self._call_suffix(op)}"
        self._emit(op, text)

    def _intrinsic_call(self, op: Operation, name: str, args: list[str], arg_types: list[Attribute]) -> None:
        tail = op.attributes.get("tail")
        text = self._call_prefix(op, tail.data if isinstance(tail, StringAttr) else "")
        rtype = op.results[0].type if op.results else None
        self.w.intrinsic(name, rtype, arg_types)
        rt = self.types(rtype) if rtype is not None else "void"
        self._emit(op, f"{text}{rt} {global_name(name)}({', '.join(args)}){self._call_suffix(op)}")

    def _intrinsic_op(self, op: Operation) -> None:
        name = intrinsic_name(op, self.types)
        args = self._call_args(op, list(op.operands))
        arg_list = [args] if args else []
        types = [a.type for a in op.operands]
        if isinstance(op, ext._MemIntrinsicOp):
            arg_list.append("i1 " + ("true" if op.isVolatile.value.data else "false"))
            types.append(IntegerType(1))
        self._intrinsic_call(op, name, arg_list, types)

    def _masked_store(self, op: xllvm.MaskedStoreOp) -> None:
        name = f"llvm.masked.store.{mangle_type(op.value.type)}.{mangle_type(op.data.type)}"
        args = [self.typed(op.value), self.typed(op.data), f"i32 {op.alignment.value.data}", self.typed(op.mask)]
        types = [op.value.type, op.data.type, IntegerType(32), op.mask.type]
        self._intrinsic_call(op, name, args, types)

    def _call_intrinsic(self, op: xllvm.CallIntrinsicOp) -> None:
        args = list(op.args)
        text = self._call_args(op, args)
        tags = op.attributes.get("op_bundle_tags")
        bundles = ""
        if op.op_bundle_operands:
            names = [t.data for t in tags.data] if isinstance(tags, ArrayAttr) else []
            sizes = list(op.op_bundle_sizes.iter_values())
            parts, pos = [], 0
            for i, n in enumerate(sizes):
                vals = op.op_bundle_operands[pos : pos + n]
                pos += n
                tag = names[i] if i < len(names) else "unknown"
                parts.append(f'"{tag}"(' + ", ".join(self.typed(v) for v in vals) + ")")
            bundles = " [ " + ", ".join(parts) + " ]"
        tail = op.attributes.get("tail")
        prefix = self._call_prefix(op, tail.data if isinstance(tail, StringAttr) else "")
        rtype = op.results[0].type if op.results else None
        self.w.intrinsic(op.intrin.data, rtype, [a.type for a in args])
        rt = self.types(rtype) if rtype is not None else "void"
        self._emit(op, f"{prefix}{rt} {global_name(op.intrin.data)}({text}){self._call_suffix(op)}{bundles}")

    # ---- terminators ----------------------------------------------------------------------

    def _br(self, op: xllvm.BrOp) -> None:
        self._emit(op, f"br {self._dest(op, 0, op.successor)}")

    def _cond_br(self, op: xllvm.CondBrOp) -> None:
        self._emit(
            op,
            f"br {self.typed(op.cond)}, {self._dest(op, 0, op.then_block)}, {self._dest(op, 1, op.else_block)}",
        )

    def _switch(self, op: ext.SwitchOp) -> None:
        t = self.types(op.value.type)
        cases = " ".join(
            f"{t} {int_literal(v, op.value.type)}, {self._dest(op, i + 1, d)}"
            for i, (v, d, _) in enumerate(op.cases())
        )
        self._emit(op, f"switch {self.typed(op.value)}, {self._dest(op, 0, op.default_dest)} [ {cases} ]")

    def _return(self, op: xllvm.ReturnOp) -> None:
        self._emit(op, f"ret {self.typed(op.arg)}" if op.arg is not None else "ret void")

    def _unreachable(self, op: Operation) -> None:
        self._emit(op, "unreachable")

    def _resume(self, op: ext.ResumeOp) -> None:
        self._emit(op, f"resume {self.typed(op.value)}")


class _ParamRef:
    """A function parameter as a phi input of a re-entered entry block."""

    def __init__(self, text: str):
        self.text = text


_OP_WRITERS: dict[type, Callable[[FunctionWriter, Operation], None]] = {
    **{k: FunctionWriter._int_binop for k in _INT_BINOP_KEYWORDS},
    **{k: FunctionWriter._float_binop for k in _FLOAT_BINOP_KEYWORDS},
    **{k: FunctionWriter._cast for k in _CAST_KEYWORDS},
    xllvm.FNegOp: FunctionWriter._fneg,
    ext.ICmpOp: FunctionWriter._icmp,
    ext.FCmpOp: FunctionWriter._fcmp,
    ext.SelectOp: FunctionWriter._select,
    xllvm.AllocaOp: FunctionWriter._alloca,
    xllvm.LoadOp: FunctionWriter._load,
    ext.StoreOp: FunctionWriter._store,
    ext.GEPOp: FunctionWriter._gep,
    xllvm.ExtractValueOp: FunctionWriter._extractvalue,
    xllvm.InsertValueOp: FunctionWriter._insertvalue,
    ext.ExtractElementOp: FunctionWriter._extractelement,
    xllvm.InsertElementOp: FunctionWriter._insertelement,
    xllvm.ShuffleVectorOp: FunctionWriter._shufflevector,
    ext.FreezeOp: FunctionWriter._freeze,
    ext.VAArgOp: FunctionWriter._va_arg,
    ext.AtomicRMWOp: FunctionWriter._atomicrmw,
    ext.CmpXchgOp: FunctionWriter._cmpxchg,
    ext.FenceOp: FunctionWriter._fence,
    ext.LandingPadOp: FunctionWriter._landingpad,
    ext.DbgRecordOp: FunctionWriter._dbg_record,
    xllvm.CallOp: FunctionWriter._call,
    ext.InvokeOp: FunctionWriter._invoke,
    xllvm.InlineAsmOp: FunctionWriter._inline_asm,
    xllvm.CallIntrinsicOp: FunctionWriter._call_intrinsic,
    xllvm.MaskedStoreOp: FunctionWriter._masked_store,
    xllvm.BrOp: FunctionWriter._br,
    xllvm.CondBrOp: FunctionWriter._cond_br,
    ext.SwitchOp: FunctionWriter._switch,
    xllvm.ReturnOp: FunctionWriter._return,
    xllvm.UnreachableOp: FunctionWriter._unreachable,
    ext.ResumeOp: FunctionWriter._resume,
}
