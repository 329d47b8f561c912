"""Symbolic execution of a small piece of code: what it stores, as expressions of what it loads.

Used to read the meaning of code clang generates around runtime calls -- the combiner of an
OpenMP reduction, the update a compare-exchange loop performs -- the same way at -O0 (values
through stack temporaries, `?:` as branches and phis) and at -O2 (selects, intrinsics, vectors,
unrolled element loops).

Expressions are hashable tuples, equal when they compute the same thing the same way:

    ("leaf", v)                 an SSA value the code does not define (a parameter, an alloca,
                                a value computed before it)
    ("const", x, type)          a constant (`x` is an int, a float, or None for undef/poison)
    ("addr", base, offset)      base (a leaf or a load of a pointer) plus a constant byte offset
    ("load", addr, type)        memory at `addr` as it was when the code started
    ("op", name, args, type)    an instruction (`fadd`, `fcmp.ogt`, `select`, `maxnum`, ...)

Vectors are tuples of lane expressions.  Control flow is followed: a branch on a condition that
folds to a constant (a loop over the elements of an array section, whose pointer comparisons are
offsets of one base) takes its one way; any other branch forks the execution, and the results
of the paths are merged into `select`s on the branch conditions.  Distinct bases are assumed not
to alias, which holds for the code these clients read (a private copy on the stack, the shared
variable, stack temporaries).  Anything else -- calls other than the allowed ones, a store
through an unknown pointer, a loop whose exit does not fold -- stops the execution:
`explore` returns None, and the caller recognises nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue

from xenzyme.analysis.types import size_align, struct_layout
from xenzyme.dialects import llvm_ext as ext

Expr = Any
"""A tuple as described in the module docstring, or a tuple of them for a vector."""

_BINARY = {
    "llvm.fadd", "llvm.fsub", "llvm.fmul", "llvm.fdiv", "llvm.frem", "llvm.add", "llvm.sub", "llvm.mul",
    "llvm.sdiv", "llvm.udiv", "llvm.srem", "llvm.urem", "llvm.and", "llvm.or", "llvm.xor", "llvm.shl",
    "llvm.lshr", "llvm.ashr", "llvm.intr.maxnum", "llvm.intr.minnum", "llvm.intr.maximum", "llvm.intr.minimum",
}  # fmt: skip
_UNARY = {
    "llvm.bitcast", "llvm.sext", "llvm.zext", "llvm.trunc", "llvm.fpext", "llvm.fptrunc", "llvm.sitofp",
    "llvm.uitofp", "llvm.fptosi", "llvm.fptoui", "llvm.fneg", "llvm.freeze",
}  # fmt: skip
_INT_INTRINSICS = ("smax", "smin", "umax", "umin")


class _Stop(Exception):
    """The code does something this executor does not model."""


@dataclass
class PathEnd:
    """Where one path of the execution ended, and what held there."""

    decisions: tuple[tuple[Expr, bool], ...]
    """Branch conditions taken along the path, in order."""
    memory: dict[tuple[Expr, int], tuple[Expr, Attribute]]
    """Stores made on the path: (base, offset) -> (value, type)."""
    block: Block | None = None
    """The stop block reached (None when stopped at an operation)."""
    block_args: tuple[Expr, ...] = ()
    op: Operation | None = None
    """The stop operation reached (None when stopped at a block)."""
    op_operands: tuple[Expr, ...] = ()


@dataclass
class _State:
    block: Block
    env: dict[SSAValue, Expr]
    memory: dict[tuple[Expr, int], tuple[Expr, Attribute]]
    decisions: tuple[tuple[Expr, bool], ...] = ()


@dataclass
class Executor:
    """Symbolic execution from a block up to stop blocks or a stop operation."""

    allowed_calls: Collection[str] = ()
    """Callees whose calls are skipped (runtime calls with no effect on the values read)."""
    max_steps: int = 20000
    max_paths: int = 64
    origin: dict[Expr, SSAValue] = field(default_factory=dict)
    """For expressions of values defined before the executed code: the value (the first one)."""
    _outside: dict[SSAValue, Expr] = field(default_factory=dict)

    def explore(
        self,
        start: Block,
        stop_blocks: Collection[Block] = (),
        stop_at: Callable[[Operation], bool] | None = None,
        start_env: dict[SSAValue, Expr] | None = None,
    ) -> list[PathEnd] | None:
        """All paths from `start`; None when the code is not understood."""
        try:
            return self._explore(start, set(stop_blocks), stop_at, dict(start_env or {}))
        except _Stop:
            return None

    def _explore(self, start, stop_blocks, stop_at, env) -> list[PathEnd]:
        work = [_State(start, env, {})]
        ends: list[PathEnd] = []
        steps = 0
        while work:
            st = work.pop()
            while True:
                if st.block in stop_blocks:
                    raise _Stop()  # a stop block is reached through an edge, not entered
                ops = list(st.block.ops)
                term = ops[-1]
                stopped = False
                for op in ops[:-1]:
                    steps += 1
                    if steps > self.max_steps:
                        raise _Stop()
                    if stop_at is not None and stop_at(op):
                        ends.append(PathEnd(st.decisions, st.memory, op=op,
                                            op_operands=tuple(self.value(st.env, o) for o in op.operands)))  # fmt: skip
                        stopped = True
                        break
                    self._step(st, op)
                if stopped:
                    break
                edges = self._edges(st, term)
                if len(edges) == 2:
                    if len(ends) + len(work) + 2 > self.max_paths:
                        raise _Stop()
                    (c, _, _), other = edges[0], edges[1]
                    forked = _State(other[1], dict(st.env), dict(st.memory), (*st.decisions, (c, False)))
                    self._enter(forked, other[1], other[2], stop_blocks, ends, work)
                    st.decisions = (*st.decisions, (c, True))
                    edges = [edges[0]]
                _, dest, args = edges[0]
                if self._enter(st, dest, args, stop_blocks, ends, None):
                    break
        return ends

    def _enter(self, st: _State, dest: Block, args, stop_blocks, ends, work) -> bool:
        """Move `st` along an edge; True when the path ends there."""
        if dest in stop_blocks:
            ends.append(PathEnd(st.decisions, st.memory, block=dest, block_args=tuple(args)))
            return True
        for a, v in zip(dest.args, args, strict=True):
            st.env[a] = v
        st.block = dest
        if work is not None:
            work.append(st)
        return False

    def _edges(self, st: _State, term: Operation) -> list[tuple[Expr, Block, list[Expr]]]:
        """(condition, destination, argument values) of the edges the terminator may take: one
        edge, or two for a branch on an unknown condition (taken first, not taken second)."""
        vals = lambda vs: [self.value(st.env, v) for v in vs]  # noqa: E731
        if isinstance(term, xllvm.BrOp):
            return [(None, term.successor, vals(term.arguments))]
        if isinstance(term, xllvm.CondBrOp):
            c = self.value(st.env, term.cond)
            if _is_const(c):
                if c[1]:
                    return [(None, term.then_block, vals(term.then_arguments))]
                return [(None, term.else_block, vals(term.else_arguments))]
            return [(c, term.then_block, vals(term.then_arguments)), (c, term.else_block, vals(term.else_arguments))]
        if isinstance(term, ext.SwitchOp):
            c = self.value(st.env, term.value)
            if not _is_const(c):
                raise _Stop()
            for v, dest, args in term.cases():
                if v == c[1]:
                    return [(None, dest, vals(args))]
            return [(None, term.default_dest, vals(term.default_operands))]
        raise _Stop()

    # ---- values -------------------------------------------------------------------------

    def value(self, env: dict[SSAValue, Expr], v: SSAValue) -> Expr:
        if v in env:
            return env[v]
        if v in self._outside:
            return self._outside[v]
        e = self._outside_value(v)
        self._outside[v] = e
        self.origin.setdefault(e, v)
        return e

    def _outside_value(self, v: SSAValue) -> Expr:
        """A value defined before the executed code: constants and address arithmetic are
        looked through, a load is memory as it was, anything else is a leaf."""
        if isinstance(v, BlockArgument):
            return ("leaf", v)
        op = v.owner
        c = _constant(op)
        if c is not None:
            return c
        if isinstance(op, ext.GEPOp):
            try:
                return self._gep({}, op)
            except _Stop:
                return ("leaf", v)
        if isinstance(op, xllvm.LoadOp) and op.attributes.get("volatile_") is None:
            try:
                return self._load_value({}, self.value({}, op.ptr), op.dereferenced_value.type)
            except _Stop:
                return ("leaf", v)
        return ("leaf", v)

    def _step(self, st: _State, op: Operation) -> None:
        env = st.env
        name = op.name
        if ext.is_annotation(op) or name == "llvm.intr.assume":
            return
        c = _constant(op)
        if c is not None:
            env[op.results[0]] = c
            return
        if isinstance(op, ext.GEPOp):
            env[op.result] = self._gep(env, op)
        elif isinstance(op, xllvm.LoadOp):
            if op.attributes.get("volatile_") is not None:
                raise _Stop()
            addr = _as_addr(self.value(env, op.ptr))
            env[op.dereferenced_value] = self._load(st, addr, op.dereferenced_value.type)
        elif isinstance(op, ext.StoreOp):
            if op.volatile_ is not None:
                raise _Stop()
            self._store(st, _as_addr(self.value(env, op.ptr)), self.value(env, op.value), op.value.type)
        elif name in _BINARY:
            a, b = self.value(env, op.operands[0]), self.value(env, op.operands[1])
            short = name.removeprefix("llvm.intr.").removeprefix("llvm.")
            env[op.results[0]] = _lanewise(short, (a, b), op.results[0].type)
        elif name in _UNARY:
            a = self.value(env, op.operands[0])
            env[op.results[0]] = _cast(name.removeprefix("llvm."), a, op.operands[0].type, op.results[0].type)
        elif isinstance(op, ext.FCmpOp | ext.ICmpOp):
            kind = "fcmp" if isinstance(op, ext.FCmpOp) else "icmp"
            a, b = self.value(env, op.operands[0]), self.value(env, op.operands[1])
            env[op.results[0]] = _compare(kind, op.predicate_name, a, b, op.results[0].type)
        elif isinstance(op, ext.SelectOp):
            c, a, b = (self.value(env, o) for o in op.operands)
            env[op.results[0]] = _select(c, a, b, op.results[0].type)
        elif isinstance(op, xllvm.CallIntrinsicOp):
            base = op.intrin.data.removeprefix("llvm.").split(".")[0]
            if base not in _INT_INTRINSICS or len(op.args) != 2:
                raise _Stop()
            a, b = (self.value(env, o) for o in op.args)
            env[op.results[0]] = _lanewise(base, (a, b), op.results[0].type)
        elif isinstance(op, xllvm.CallOp):
            if op.callee is None or op.callee.string_value() not in self.allowed_calls:
                raise _Stop()
        elif isinstance(op, ext.ExtractElementOp):
            vec, idx = self.value(env, op.operands[0]), self.value(env, op.operands[1])
            if not _is_vector(vec) or not _is_const(idx):
                raise _Stop()
            env[op.results[0]] = vec[idx[1]]
        elif isinstance(op, xllvm.InsertElementOp):
            vec, elt, idx = (self.value(env, o) for o in op.operands)
            lanes = _lanes(vec, op.results[0].type)
            if not _is_const(idx):
                raise _Stop()
            env[op.results[0]] = (*lanes[:idx[1]], elt, *lanes[idx[1] + 1:])
        elif isinstance(op, xllvm.ShuffleVectorOp):
            t = op.operands[0].type
            both = _lanes(self.value(env, op.operands[0]), t) + _lanes(self.value(env, op.operands[1]), t)
            mask = list(op.mask.get_values())
            undef = ("const", None, t.element_type)  # type: ignore[attr-defined]
            env[op.results[0]] = tuple(both[m] if m >= 0 else undef for m in mask)
        else:
            raise _Stop()

    # ---- memory -------------------------------------------------------------------------

    def _gep(self, env: dict[SSAValue, Expr], op: ext.GEPOp) -> Expr:
        base = _as_addr(self.value(env, op.ptr))
        t: Attribute = op.elem_type
        off = 0
        for k, idx in enumerate(op.mixed_indices()):
            i = idx if isinstance(idx, int) else self.value(env, idx)
            if not isinstance(i, int):
                if not _is_const(i) or not isinstance(i[1], int):
                    raise _Stop()
                i = i[1]
            if k == 0:
                off += i * _size(t)
            elif isinstance(t, ext.LLVMArrayType):
                t = t.type
                off += i * _size(t)
            elif isinstance(t, ext.LLVMStructType | ext.LLVMPackedStructType):
                layout = struct_layout(t)
                if layout is None:
                    raise _Stop()
                off += layout[0][i]
                t = t.types.data[i]
            else:
                raise _Stop()
        return ("addr", base[1], base[2] + off)

    def _load(self, st: _State, addr: Expr, t: Attribute) -> Expr:
        if isinstance(t, VectorType):
            e = t.element_type
            n = _size(e)
            return tuple(self._load(st, ("addr", addr[1], addr[2] + k * n), e) for k in range(t.get_shape()[0]))
        hit = st.memory.get((addr[1], addr[2]))
        if hit is None:
            return self._load_value(st.memory, addr, t)
        v, vt = hit
        if vt == t:
            return v
        if _size(vt) == _size(t):
            return _cast("bitcast", v, vt, t)
        raise _Stop()

    def _load_value(self, memory: dict[tuple[Expr, int], tuple[Expr, Attribute]], addr: Expr, t: Attribute) -> Expr:
        for (base, off), (_, vt) in memory.items():
            if base == addr[1] and off < addr[2] + _size(t) and addr[2] < off + _size(vt):
                raise _Stop()  # a partial overlap with a store
        return ("load", addr, t)

    def _store(self, st: _State, addr: Expr, v: Expr, t: Attribute) -> None:
        if isinstance(t, VectorType):
            e = t.element_type
            n = _size(e)
            for k, lane in enumerate(_lanes(v, t)):
                self._store(st, ("addr", addr[1], addr[2] + k * n), lane, e)
            return
        size = _size(t)
        for (base, off), (_, vt) in st.memory.items():
            if base == addr[1] and off != addr[2] and off < addr[2] + size and addr[2] < off + _size(vt):
                raise _Stop()  # a partial overlap with an earlier store
        st.memory[(addr[1], addr[2])] = (v, t)


# ---------------------------------------------------------------------------------------------
# Expression helpers
# ---------------------------------------------------------------------------------------------


def _size(t: Attribute) -> int:
    sa = size_align(t)
    if sa is None:
        raise _Stop()
    return sa[0]


def _is_const(e: Expr) -> bool:
    return isinstance(e, tuple) and len(e) == 3 and e[0] == "const"


def _constant(op: Operation) -> Expr | None:
    if isinstance(op, xllvm.ConstantOp):
        v, t = op.value, op.result.type
        if isinstance(v, IntegerAttr):
            return ("const", v.value.data, t)
        if isinstance(v, FloatAttr):
            return ("const", v.value.data, t)
        if isinstance(v, DenseIntOrFPElementsAttr) and isinstance(t, VectorType):
            e = t.element_type
            return tuple(("const", x, e) for x in v.get_values())
        return None
    if isinstance(op, xllvm.ZeroOp) and isinstance(op.results[0].type, IntegerType | AnyFloat):
        return ("const", 0, op.results[0].type)
    if isinstance(op, xllvm.UndefOp | ext.PoisonOp) and not isinstance(op.results[0].type, VectorType):
        return ("const", None, op.results[0].type)
    return None


def _as_addr(e: Expr) -> Expr:
    if isinstance(e, tuple) and e and e[0] == "addr":
        return e
    if isinstance(e, tuple) and e and e[0] in ("leaf", "load"):
        return ("addr", e, 0)
    raise _Stop()


def _is_vector(v: Expr) -> bool:
    """A vector is a tuple of lane expressions; an expression starts with its tag."""
    return isinstance(v, tuple) and bool(v) and isinstance(v[0], tuple)


def _lanes(v: Expr, t: Attribute) -> tuple[Expr, ...]:
    if not isinstance(t, VectorType):
        raise _Stop()
    n = t.get_shape()[0]
    if _is_vector(v) and len(v) == n:
        return v
    if _is_const(v) and v[1] is None:
        return tuple(("const", None, t.element_type) for _ in range(n))
    raise _Stop()


def _lanewise(name: str, args: Sequence[Expr], t: Attribute) -> Expr:
    if isinstance(t, VectorType):
        lanes = [_lanes(a, t) for a in args]
        return tuple(_lanewise(name, lane, t.element_type) for lane in zip(*lanes, strict=True))
    return ("op", name, tuple(args), t)


def _cast(name: str, a: Expr, src: Attribute, dst: Attribute) -> Expr:
    if isinstance(src, VectorType) or isinstance(dst, VectorType):
        if not (isinstance(src, VectorType) and isinstance(dst, VectorType)) or src.get_shape() != dst.get_shape():
            raise _Stop()
        return tuple(_cast(name, x, src.element_type, dst.element_type) for x in _lanes(a, src))
    if name == "bitcast":
        if src == dst:
            return a
        if isinstance(a, tuple) and a[0] == "op" and a[1] == "bitcast" and _type_of(a[2][0]) == dst:
            return a[2][0]
    return ("op", name, (a,), dst)


def _type_of(e: Expr) -> Attribute | None:
    if isinstance(e, tuple) and e:
        if e[0] in ("op", "load"):
            return e[-1]
        if e[0] == "const":
            return e[2]
        if e[0] == "leaf":
            return e[1].type
    return None


def _compare(kind: str, pred: str, a: Expr, b: Expr, t: Attribute) -> Expr:
    if isinstance(t, VectorType):
        return tuple(_compare(kind, pred, x, y, t.element_type) for x, y in zip(_lanes(a, t), _lanes(b, t), strict=True))
    if kind == "icmp" and pred in ("eq", "ne") and isinstance(a, tuple) and isinstance(b, tuple):
        if a[0] == "addr" and b[0] == "addr" and a[1] == b[1]:
            same = a[2] == b[2]
            return ("const", int(same if pred == "eq" else not same), t)
        if _is_const(a) and _is_const(b) and a[1] is not None and b[1] is not None:
            same = a[1] == b[1]
            return ("const", int(same if pred == "eq" else not same), t)
    return ("op", f"{kind}.{pred}", (a, b), t)


def _select(c: Expr, a: Expr, b: Expr, t: Attribute) -> Expr:
    if _is_const(c) and c[1] is not None:
        return a if c[1] else b
    if isinstance(t, VectorType):
        cs = c if _is_vector(c) else (c,) * t.get_shape()[0]
        return tuple(_select(x, y, z, t.element_type) for x, y, z in zip(cs, _lanes(a, t), _lanes(b, t), strict=True))
    if a == b:
        return a
    return ("op", "select", (c, a, b), t)


# ---------------------------------------------------------------------------------------------
# Merging paths, reading operations
# ---------------------------------------------------------------------------------------------


def merge(paths: Sequence[PathEnd], value: Callable[[PathEnd], Expr], t: Attribute) -> Expr | None:
    """One expression for what `value` gives on each path: `select`s on the branch conditions
    where the paths differ (None if they cannot be told apart)."""
    try:
        return _merge(paths, value, t, 0)
    except _Stop:
        return None


def _merge(paths: Sequence[PathEnd], value: Callable[[PathEnd], Expr], t: Attribute, depth: int) -> Expr:
    if len(paths) == 1:
        return value(paths[0])
    firsts = {p.decisions[depth] if depth < len(p.decisions) else None for p in paths}
    conds = {d[0] for d in firsts if d is not None}
    if None in firsts or len(conds) != 1:
        raise _Stop()
    if len(firsts) == 1:
        return _merge(paths, value, t, depth + 1)
    (c,) = conds
    taken = [p for p in paths if p.decisions[depth][1]]
    other = [p for p in paths if not p.decisions[depth][1]]
    return _select(c, _merge(taken, value, t, depth + 1), _merge(other, value, t, depth + 1), t)


_GREATER = ("ogt", "oge", "ugt", "uge", "sgt", "sge")
_LESS = ("olt", "ole", "ult", "ule", "slt", "sle")


def binary_kind(e: Expr, a: Expr, b: Expr) -> str | None:
    """Which of add, sub, mul, div, max, min, umax, umin, and, or, xor `e` computes from `a` and
    `b` (in that order for sub and div), by its form: the instructions and intrinsics clang
    emits for them, and `?:` as a select on a comparison.  None for anything else."""
    if not isinstance(e, tuple) or e[0] != "op":
        return None
    name, args = e[1], e[2]
    pair = tuple(args) if len(args) == 2 else None
    same = pair in ((a, b), (b, a))
    if same and name in ("fadd", "add"):
        return "add"
    if same and name in ("fmul", "mul"):
        return "mul"
    if same and name in ("and", "or", "xor"):
        return name
    if same and name in ("maxnum", "smax"):
        return "max"
    if same and name in ("minnum", "smin"):
        return "min"
    if same and name in ("umax", "umin"):
        return name
    if pair == (a, b) and name in ("fsub", "sub"):
        return "sub"
    if pair == (a, b) and name == "fdiv":
        return "div"
    if name != "select":
        return None
    cond, x, y = args
    if {x, y} != {a, b} or not (isinstance(cond, tuple) and cond[0] == "op" and "." in cond[1]):
        return None
    kind, pred = cond[1].split(".", 1)
    if set(cond[2]) != {a, b} or cond[2][0] == cond[2][1]:
        return None
    picks_first = x == cond[2][0]  # cond(p, q) ? p : q
    if pred in _GREATER:
        result = "max" if picks_first else "min"
    elif pred in _LESS:
        result = "min" if picks_first else "max"
    else:
        return None
    if kind == "icmp" and pred[0] == "u":
        result = "u" + result
    return result


def contains(e: Expr, part: Expr) -> bool:
    """Whether `part` occurs in `e`."""
    if e == part:
        return True
    if isinstance(e, tuple):
        return any(isinstance(x, tuple) and contains(x, part) for x in e)
    return False
