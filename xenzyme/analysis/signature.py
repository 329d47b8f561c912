"""What a function's parameters are, as far as the module can tell: names, C types, and for
pointers the type of the elements behind them, how many bytes the function reaches through
them and whether it writes there.

The Python API checks the arguments of compiled functions and derivatives against this before
calling native code: a numpy array of int64 passed for a `double *` would otherwise be read as
doubles (denormal garbage), and a shadow shorter than its primal written past its end.

Sources, most exact first:

* debug information (clang `-g`, which `xenzyme.load` adds for C and C++): the C type of
  each parameter and its name, when the IR parameters are the C parameters one for one
  (no `sret` pointer, no struct split into registers);
* the IR: the value names (`-fno-discard-value-names`), what the function loads and stores
  through the pointer, the element types of its `getelementptr`s and the TBAA tags of its
  accesses (`double`, `int`, ... -- clang's at -O1 and above), following the pointer through
  address arithmetic, phis, a stack slot it is kept in at -O0, and calls of functions of the
  module; `dereferenceable(N)` and `readonly` / `readnone` parameter attributes.

What none of these tell stays unknown (`pointee` None: `void *`, a struct of mixed fields,
memory only passed on to external functions); the API then checks what it can without it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    f32,
    f64,
    f80,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow, constant_int
from xenzyme.analysis.types import TBAA, leaf_types, size_align, struct_layout
from xenzyme.dialects import llvm_ext as ext


@dataclass(frozen=True)
class Parameter:
    """One parameter of a function."""

    index: int
    type: Attribute
    """Its LLVM type."""
    name: str | None = None
    """Its name in the source (debug information) or in the IR, when it has one."""
    c_type: str | None = None
    """Its C type as declared (`const double *`), from debug information."""
    pointee: Attribute | None = None
    """For a pointer: the scalar type of the elements behind it (f64, f32, i32, ...), when known."""
    pointee_from: str = ""
    """Where `pointee` was learnt: "as declared in C" or "as the function accesses it"."""
    min_bytes: int | None = None
    """For a pointer: bytes the function reaches behind it on every call -- its accesses at
    constant offsets in blocks that run whenever it returns, or `dereferenceable(N)` --, a
    length every argument for it must have; None when nothing is known."""
    written: bool = True
    """For a pointer: whether the function may write through it."""

    @property
    def is_pointer(self) -> bool:
        return isinstance(self.type, ext.LLVMPointerType)

    def describe(self) -> str:
        """`'x', const double *` -- its name and type for messages."""
        parts = [f"'{self.name}'"] if self.name else []
        parts.append(self.c_type or llvm_spelling(self.type))
        return ", ".join(parts)


def llvm_spelling(t: Attribute) -> str:
    """A type as LLVM IR writes it (`double`, `ptr`, `i32`), for messages."""
    from xenzyme.llvm_text import TypePrinter
    from xenzyme.diagnostics import XenzymeError

    try:
        return TypePrinter()(t)
    except XenzymeError:
        return str(t)


def signature(module: ModuleOp, fn: xllvm.FuncOp) -> list[Parameter]:
    """The parameters of `fn` (a function of `module`), with what the module tells of each."""
    params = list(fn.function_type.inputs.data)
    args = list(fn.body.blocks[0].args) if fn.body.blocks else []
    debug = _DebugInfo(module).parameters(fn, len(params))
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.FuncOp)}
    tbaa = TBAA(module)
    always: dict[Region, set[Block]] = {}
    out = []
    for i, t in enumerate(params):
        attrs = _arg_attrs(fn, i)
        name = debug[i][0] if debug else None
        if name is None and args and args[i].name_hint and not args[i].name_hint.isdigit():
            name = args[i].name_hint
        c_type, c_pointee = (debug[i][1], debug[i][2]) if debug else (None, None)
        p = Parameter(i, t, name, c_type)
        if isinstance(t, ext.LLVMPointerType):
            acc = _Accesses(functions, tbaa, always)
            if args:
                acc.walk(args[i], 0)
            if c_pointee is not None:
                pointee, source = c_pointee, "as declared in C"
            else:
                pointee, source = acc.pointee(), "as the function accesses it"
            deref = attrs.get("llvm.dereferenceable")
            known = [n for n in (acc.end, deref.value.data if isinstance(deref, IntegerAttr) else None) if n]
            readonly = "llvm.readonly" in attrs or "llvm.readnone" in attrs
            p = Parameter(i, t, name, c_type, pointee, source if pointee is not None else "",
                          max(known) if known else None, not readonly and (acc.writes or acc.escapes or not args))  # fmt: skip
        out.append(p)
    return out


def _arg_attrs(fn: xllvm.FuncOp, i: int) -> dict[str, Attribute]:
    attrs = fn.arg_attrs
    if attrs is None or i >= len(attrs.data):
        return {}
    d = attrs.data[i]
    return dict(d.data) if hasattr(d, "data") else {}


# ---------------------------------------------------------------------------------------------
# The IR: accesses through a pointer
# ---------------------------------------------------------------------------------------------

_TBAA_INTS = {"bool": 8, "_Bool": 8, "char": 8, "short": 16, "int": 32, "long": 64, "long long": 64}


@dataclass
class _Accesses:
    """What a function does through one pointer: the scalar types it accesses (`strong`: said
    by a float type, a GEP's element type or a TBAA tag; `weak`: integers of unknown meaning,
    as LLVM copies doubles), the bytes it reaches on every call (accesses at constant offsets
    in blocks that run whenever the function returns), whether it writes or lets the pointer
    escape."""

    functions: dict[str, xllvm.FuncOp]
    tbaa: TBAA
    always_blocks: dict[Region, set[Block]]
    strong: set[Attribute] = field(default_factory=set)
    weak: set[Attribute] = field(default_factory=set)
    end: int = 0
    writes: bool = False
    escapes: bool = False
    _seen: set[tuple[SSAValue, int | None]] = field(default_factory=set)
    _depth: int = 0

    def pointee(self) -> Attribute | None:
        if len(self.strong) != 1:
            return None
        (t,) = self.strong
        size = (size_align(t) or (0, 0))[0]
        if any((size_align(w) or (0, 0))[0] != size for w in self.weak):
            return None  # the same bytes also read as integers of another size
        return t

    def walk(self, p: SSAValue, off: int | None) -> None:
        """Follow the uses of `p`, `off` bytes past the parameter: None where that is not a
        constant, or where the use may not run on a call (its block does not dominate every
        return, or the call of its function does not)."""
        if (p, off) in self._seen or len(self._seen) > 4096:
            return
        self._seen.add((p, off))
        for use in list(p.uses):
            op = use.operation
            self._use(p, off if off is not None and self._runs_always(op) else None, op, use.index)

    def _runs_always(self, op: Operation) -> bool:
        """Whether `op`'s block runs on every call of its function that returns (it dominates
        every return)."""
        block = op.parent_block()
        region = block.parent if block is not None else None
        if region is None:
            return False
        if region not in self.always_blocks:
            try:
                cfg = CFG(region)
            except IrreducibleControlFlow:
                self.always_blocks[region] = set()
            else:
                returns = [b for b in cfg.rpo if isinstance(b.last_op, xllvm.ReturnOp)]
                self.always_blocks[region] = {b for b in cfg.rpo if returns and all(cfg.dominates(b, r) for r in returns)}
        return block in self.always_blocks[region]

    def _access(self, t: Attribute, off: int | None, op: Operation) -> None:
        for leaf in leaf_types(t):
            if isinstance(leaf, IntegerType):
                tag, width = self.tbaa.access_type_name(op) or "", leaf.width.data
                if (tag, width) in (("double", 64), ("float", 32)):
                    leaf = f64 if tag == "double" else f32
                elif (tag == "any pointer" or re.match(r"p\d+ ", tag)) and width == 64:
                    leaf = ext.LLVMPointerType()
                elif _TBAA_INTS.get(tag) != width:
                    self.weak.add(leaf)  # an integer access of unknown meaning (LLVM copies doubles so)
                    continue
            self.strong.add(leaf)
        size = (size_align(t) or (0, 0))[0]
        self._reach(off, size)

    def _reach(self, off: int | None, size: int | None) -> None:
        if off is not None and size is not None:
            self.end = max(self.end, off + size)

    def _use(self, p: SSAValue, off: int | None, op: Operation, index: int) -> None:
        if isinstance(op, ext.GEPOp) and op.ptr is p:
            e = op.elem_type
            if not (isinstance(e, IntegerType) and e.width.data == 8):
                self.strong.update(leaf_types(e))
            delta = _gep_offset(op)
            self.walk(op.result, None if off is None or delta is None else off + delta)
        elif isinstance(op, xllvm.BitcastOp | ext.AddrSpaceCastOp):
            self.walk(op.results[0], off)
        elif isinstance(op, xllvm.LoadOp):
            self._access(op.dereferenced_value.type, off, op)
        elif isinstance(op, ext.StoreOp) and op.ptr is p and op.value is not p:
            self._access(op.value.type, off, op)
            self.writes = True
        elif isinstance(op, ext.StoreOp) and isinstance(op.ptr.owner, xllvm.AllocaOp) and _only_stores_of(op.ptr, p):
            for u in op.ptr.uses:  # kept in a stack slot (clang -O0): its loads are the pointer
                if isinstance(u.operation, xllvm.LoadOp):
                    self.walk(u.operation.dereferenced_value, off)
        elif isinstance(op, ext.MemcpyOp | ext.MemmoveOp | ext.MemsetOp):
            n = constant_int(op.operands[2])
            self._reach(off, n)
            if index == 0:
                self.writes = True
        elif isinstance(op, ext.ICmpOp) or ext.is_annotation(op):
            pass
        elif isinstance(op, xllvm.PtrToIntOp):
            pass  # (address arithmetic, or the overlap checks of vectorised loops)
        elif isinstance(op, xllvm.CallIntrinsicOp) and op.intrin.data.startswith("llvm.masked."):
            kind = op.intrin.data.split(".")[2]
            t = op.results[0].type if kind in ("load", "gather") else op.operands[0].type
            self._access(t, None, op)
            self.writes |= kind in ("store", "scatter")
        elif isinstance(op, ext.SelectOp) or op.successors:
            for q in _merged(op, p):
                self.walk(q, None)
        elif isinstance(op, xllvm.CallOp) and (callee := self._callee(op)) is not None and index < len(callee.body.blocks[0].args):
            self._depth += 1
            if self._depth <= 4:
                self.walk(callee.body.blocks[0].args[index], off)
            else:
                self.escapes = True
            self._depth -= 1
        else:
            self.escapes = True  # passed to an external function, stored, returned, cast to int

    def _callee(self, op: xllvm.CallOp) -> xllvm.FuncOp | None:
        if op.callee is None or op.var_callee_type is not None:
            return None
        fn = self.functions.get(op.callee.string_value())
        return fn if fn is not None and fn.body.blocks else None


def _merged(op: Operation, p: SSAValue) -> list[SSAValue]:
    """The values `p` flows into through a select or a branch (a phi: a block argument)."""
    if isinstance(op, ext.SelectOp):
        return [op.results[0]] if op.operands[0] is not p else []
    out: list[SSAValue] = []
    for dest, args in ext.successor_operands(op):
        out += [dest.args[k] for k, a in enumerate(args) if a is p]
    return out


def _only_stores_of(slot: SSAValue, p: SSAValue) -> bool:
    """Every use of the stack slot is a load, or a store of `p` into it."""
    for use in slot.uses:
        u = use.operation
        if isinstance(u, xllvm.LoadOp):
            continue
        if isinstance(u, ext.StoreOp) and u.ptr is slot and u.value is p:
            continue
        if ext.is_annotation(u):
            continue
        return False
    return True


def _gep_offset(op: ext.GEPOp) -> int | None:
    """The constant byte offset of a GEP from its base, or None."""
    idx = op.mixed_indices()
    t = op.elem_type
    sa = size_align(t)
    if not idx or not isinstance(idx[0], int) or sa is None:
        return None
    off = idx[0] * sa[0]
    for i in idx[1:]:
        if not isinstance(i, int):
            return None
        if isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
            layout = struct_layout(t)
            if layout is None:
                return None
            off += layout[0][i]
            t = t.types.data[i]
        elif isinstance(t, ext.LLVMArrayType):
            inner = size_align(t.type)
            if inner is None:
                return None
            off += i * inner[0]
            t = t.type
        else:
            return None
    return off


# ---------------------------------------------------------------------------------------------
# Debug information: the C declaration
# ---------------------------------------------------------------------------------------------

_NODE = re.compile(r"^!(\d+) = (?:distinct )?(!\w*)[({](.*)[)}]$")
_WRAPPERS = ("DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type", "DW_TAG_atomic_type", "DW_TAG_typedef")
_POINTERS = {"DW_TAG_pointer_type": " *", "DW_TAG_reference_type": " &", "DW_TAG_rvalue_reference_type": " &&"}


class _DebugInfo:
    """The module's debug metadata (kept verbatim by the importer), read for declarations."""

    def __init__(self, module: ModuleOp):
        self.nodes: dict[int, tuple[str, str]] = {}
        lines = module.attributes.get("llvm.metadata")
        if isinstance(lines, ArrayAttr):
            for line in lines.data:
                m = _NODE.match(line.data) if isinstance(line, StringAttr) else None
                if m:
                    self.nodes[int(m.group(1))] = (m.group(2), m.group(3))

    def parameters(self, fn: xllvm.FuncOp, count: int) -> list[tuple[str | None, str, Attribute | None]] | None:
        """(name, C type, element type behind a pointer) per parameter, when the function's
        debug information describes exactly its IR parameters."""
        md = fn.attributes.get("md")
        sp = md.get("dbg") if isinstance(md, ext.MetadataAttachmentsAttr) else None
        node = self.nodes.get(sp) if sp is not None else None
        if node is None or node[0] != "!DISubprogram":
            return None
        f = _fields(node[1])
        sub = self.nodes.get(_ref(f.get("type")) or -1)
        types_node = self.nodes.get(_ref(_fields(sub[1]).get("types")) or -1) if sub else None
        if types_node is None:
            return None
        refs = [x.strip() for x in types_node[1].split(",") if x.strip()]
        params = refs[1:]
        if params and params[-1] == "null":
            return None  # variadic
        if len(params) != count or any(_ref(fn_attr) is None for fn_attr in params):
            return None
        names: dict[int, str] = {}
        retained = self.nodes.get(_ref(f.get("retainedNodes")) or -1)
        for r in (retained[1].split(",") if retained else []):
            var = self.nodes.get(_ref(r.strip()) or -1)
            if var and var[0] == "!DILocalVariable":
                vf = _fields(var[1])
                if "arg" in vf and "name" in vf:
                    names[int(vf["arg"]) - 1] = vf["name"].strip('"')
        out = []
        for i, r in enumerate(params):
            ref = _ref(r)
            assert ref is not None
            if "DIFlagArtificial" in _fields(self.nodes.get(ref, ("", ""))[1]).get("flags", ""):
                return None  # `this`: C++ methods are not described parameter for parameter
            out.append((names.get(i), self.c_name(ref), self.element(ref)))
        return out

    def _strip(self, ref: int | None) -> tuple[str, dict[str, str]] | None:
        """The node under typedefs and qualifiers."""
        for _ in range(32):
            node = self.nodes.get(ref) if ref is not None else None
            if node is None:
                return None
            f = _fields(node[1])
            if node[0] == "!DIDerivedType" and f.get("tag") in _WRAPPERS:
                ref = _ref(f.get("baseType"))
                continue
            return node[0], f
        return None

    def c_name(self, ref: int | None, depth: int = 0) -> str:
        node = self.nodes.get(ref) if ref is not None else None
        if node is None or depth > 16:
            return "void"
        kind, f = node[0], _fields(node[1])
        tag = f.get("tag", "")
        name = f.get("name", "").strip('"')
        base = _ref(f.get("baseType"))
        if kind == "!DIBasicType":
            return name
        if tag == "DW_TAG_typedef":
            return name
        if tag in _POINTERS:
            return self.c_name(base, depth + 1) + _POINTERS[tag]
        if tag in ("DW_TAG_const_type", "DW_TAG_volatile_type", "DW_TAG_restrict_type", "DW_TAG_atomic_type"):
            word = tag[7:-5]
            inner = self.c_name(base, depth + 1)
            return f"{inner} {word}" if inner.endswith(("*", "&")) else f"{word} {inner}"
        if tag in ("DW_TAG_structure_type", "DW_TAG_union_type", "DW_TAG_enumeration_type", "DW_TAG_class_type"):
            return f"{tag[7:-5].replace('structure', 'struct').replace('enumeration', 'enum')} {name or '{...}'}"
        if tag == "DW_TAG_array_type":
            return self.c_name(base, depth + 1) + "[]"
        if kind == "!DISubroutineType":
            return "function"
        return name or "?"

    def element(self, ref: int) -> Attribute | None:
        """The one scalar type of the elements a pointer type points to, or None."""
        node = self._strip(ref)
        if node is None or node[1].get("tag") not in _POINTERS:
            return None
        leaves = self._leaves(_ref(node[1].get("baseType")), 0)
        return leaves.pop() if leaves is not None and len(leaves) == 1 else None

    def _leaves(self, ref: int | None, depth: int) -> set[Attribute] | None:
        """The scalar types inside a type (None: a type without scalars we can name)."""
        node = self._strip(ref)
        if node is None or depth > 16:
            return None
        kind, f = node
        tag = f.get("tag", "")
        if kind == "!DIBasicType":
            t = _basic_type(f)
            return {t} if t is not None else None
        if tag == "DW_TAG_enumeration_type":
            size = int(f.get("size", "0"))
            return {IntegerType(size)} if size else None
        if tag == "DW_TAG_array_type":
            return self._leaves(_ref(f.get("baseType")), depth + 1)
        if tag in ("DW_TAG_structure_type", "DW_TAG_class_type", "DW_TAG_union_type"):
            elems = self.nodes.get(_ref(f.get("elements")) or -1)
            out: set[Attribute] = set()
            for r in (elems[1].split(",") if elems else []):
                member = self.nodes.get(_ref(r.strip()) or -1)
                if member is None:
                    continue
                mf = _fields(member[1])
                if mf.get("tag") != "DW_TAG_member" or "DIFlagStaticMember" in mf.get("flags", ""):
                    continue
                inner = self._leaves(_ref(mf.get("baseType")), depth + 1)
                if inner is None:
                    return None
                out |= inner
            return out or None
        return None  # pointers inside, functions, void


def _basic_type(f: dict[str, str]) -> Attribute | None:
    size = int(f.get("size", "0"))
    enc = f.get("encoding", "")
    if enc == "DW_ATE_float":
        return {32: f32, 64: f64}.get(size, f80 if f.get("name", "").strip('"') == "long double" else None)
    if enc in ("DW_ATE_signed", "DW_ATE_unsigned", "DW_ATE_signed_char", "DW_ATE_unsigned_char", "DW_ATE_boolean", "DW_ATE_UTF"):
        return IntegerType(size) if size else None
    return None


def _ref(value: str | None) -> int | None:
    if value is None or not value.startswith("!") or not value[1:].isdigit():
        return None
    return int(value[1:])


def _fields(body: str) -> dict[str, str]:
    """`name: "x", arg: 1, flags: A | B` -> {"name": '"x"', "arg": "1", "flags": "A | B"}."""
    out: dict[str, str] = {}
    depth, quoted, start = 0, False, 0
    parts = []
    for i, ch in enumerate(body):
        if quoted:
            if ch == '"' and body[i - 1] != "\\":
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
    parts.append(body[start:])
    for part in parts:
        key, sep, value = part.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out
