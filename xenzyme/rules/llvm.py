"""Rules for LLVM instructions that compute values: arithmetic, casts, aggregates, vectors, and
the math intrinsics; `rule_for` finds the rule of any llvm-dialect op (memory and calls have
their rules in `llvm_memory.py` and `llvm_calls.py`).

Reverse rules take the adjoint of the op's result (`ctx.adjoint`, which also clears it) and add
a contribution to each active operand.  Ops without a rule and without derivative-carrying
values (integer arithmetic, comparisons, address computation) need nothing in the reverse sweep;
the engine reports an error for any other op that touches active data.

Tangent rules (forward mode) set the tangents of the op's result from its operands' tangents,
per direction in vector mode.  Ops that move data without computing with it (GEPs, casts,
select, aggregate and vector moves) also move pointers and the bits of floats carried as
integers: in forward mode a shadow (or such bits) of their result is the same op applied to the
shadows of their operands (`_moves_data`); in the forward sweep of reverse mode the same holds
for the shadows of GEPs, casts and selects of pointers.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, VectorType, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue

from xenzyme.analysis.activity import is_pointer_like
from xenzyme.analysis.forward_activity import has_tangent_type
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.context import AugmentContext, ForwardContext, ForwardRule, OpRule, ReverseContext, ReverseRule
from xenzyme.rules.libm import (
    SCALE_BY_POWER_OF_TWO,
    apply_math_rule,
    ldexp_rule,
    ldexp_tangent,
    math_arity,
    math_base_name,
    math_rule_name,
    powi_rule,
    powi_tangent,
    registered_rules,
    tangent_math_rule,
)
from xenzyme.rules.partial import ONE, Partial, linear_tangent, over, times

def _fadd(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    ctx.accumulate(op.operands[0], d)
    ctx.accumulate(op.operands[1], d)


def _fsub(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    ctx.accumulate(op.operands[0], d)
    if ctx.active(op.operands[1]):
        ctx.accumulate(op.operands[1], ctx.e.neg(d))


def _fmul(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    a, b = op.operands
    if ctx.active(a):
        ctx.accumulate(a, ctx.e.mul(d, ctx.get(b)))
    if ctx.active(b):
        ctx.accumulate(b, ctx.e.mul(d, ctx.get(a)))


def _fdiv(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    a, b = op.operands
    e = ctx.e
    # A zero adjoint contributes zero, even where b = 0 (a division the program guarded and did
    # not use: `b != 0 ? a / b : a`), instead of 0/0 = NaN.
    nonzero = e.fcmp("une", d, e.zero(d.type))
    q = e.div(d, ctx.get(b))
    if ctx.active(a):
        ctx.accumulate(a, e.where(nonzero, q))
    if ctx.active(b):
        # d(a/b)/db = -a/b^2 = -(d/b) * (a/b)
        ctx.accumulate(b, e.where(nonzero, e.neg(e.mul(q, e.div(ctx.get(a), ctx.get(b))))))


def _frem(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    a, b = op.operands
    ctx.accumulate(a, d)
    if ctx.active(b):
        e = ctx.e
        ctx.accumulate(b, e.neg(e.mul(d, e.call("trunc", e.div(ctx.get(a), ctx.get(b))))))


def _fneg(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    ctx.accumulate(op.operands[0], ctx.e.neg(d))


def _float_cast(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    src = op.operands[0]
    ctx.accumulate(src, ctx.e.cast_float(d, src.type))


def _bitcast(ctx: ReverseContext, op: Operation) -> None:
    """Float data reshaped without changing its lanes (double <-> <1 x double>): the adjoint is
    reshaped back.  Reinterpreting the bits as another float type has no derivative."""
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    src = op.operands[0]
    if not _same_lanes(src.type, op.results[0].type):
        ctx.fail(op, f"a bitcast from {src.type} to {op.results[0].type} reinterprets floating-point data with a derivative",
                 ["keep the data in one floating-point type, or mark it enzyme_const"])  # fmt: skip
    ctx.accumulate(src, ctx.e.insert(xllvm.BitcastOp(d, src.type)))


def _same_lanes(a: Attribute, b: Attribute) -> bool:
    """Whether two float types hold the same kind of number in each lane."""
    ea = a.element_type if isinstance(a, VectorType) else a
    eb = b.element_type if isinstance(b, VectorType) else b
    return ea == eb


def _freeze(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    ctx.accumulate(op.operands[0], d)


def _select(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    assert isinstance(op, ext.SelectOp)
    e = ctx.e
    c = ctx.get(op.cond)
    zero = e.zero(d.type)
    if ctx.active(op.lhs):
        ctx.accumulate(op.lhs, e.select(c, d, zero))
    if ctx.active(op.rhs):
        ctx.accumulate(op.rhs, e.select(c, zero, d))


def _positions(op: Operation) -> list[int]:
    return list(op.properties["position"].iter_values())  # type: ignore[attr-defined]


def _extractvalue(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    agg = op.operands[0]
    e = ctx.e
    ctx.accumulate(agg, e.insert(xllvm.InsertValueOp.create(
        operands=[e.zero(agg.type), d],
        properties={"position": DenseArrayBase.from_list(i64, _positions(op))},
        result_types=[agg.type],
    )))  # fmt: skip


def _insertvalue(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    agg, val = op.operands
    e = ctx.e
    pos = DenseArrayBase.from_list(i64, _positions(op))
    if ctx.active(val):
        ctx.accumulate(val, e.insert(xllvm.ExtractValueOp.create(operands=[d], properties={"position": pos}, result_types=[val.type])))
    if ctx.active(agg):
        ctx.accumulate(agg, e.insert(xllvm.InsertValueOp.create(
            operands=[d, e.zero(val.type)], properties={"position": pos}, result_types=[agg.type]
        )))  # fmt: skip


def _extractelement(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    vec, idx = op.operands
    e = ctx.e
    ctx.accumulate(vec, e.insert(xllvm.InsertElementOp.create(
        operands=[e.zero(vec.type), d, ctx.get(idx)], result_types=[vec.type]
    )))  # fmt: skip


def _insertelement(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    vec, val, idx = op.operands
    e = ctx.e
    i = ctx.get(idx)
    if ctx.active(val):
        ctx.accumulate(val, e.insert(ext.ExtractElementOp(d, i)))
    if ctx.active(vec):
        ctx.accumulate(vec, e.insert(xllvm.InsertElementOp.create(
            operands=[d, e.zero(val.type), i], result_types=[vec.type]
        )))  # fmt: skip


def _shufflevector(ctx: ReverseContext, op: Operation) -> None:
    """Each output lane came from one input lane: send its adjoint back there."""
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    assert isinstance(op, xllvm.ShuffleVectorOp)
    e = ctx.e
    mask = list(op.mask.iter_values())
    for which, src in enumerate((op.v1, op.v2)):
        if not ctx.active(src):
            continue
        assert isinstance(src.type, VectorType)
        n = src.type.get_shape()[0]
        acc = e.zero(src.type)
        for out_lane, m in enumerate(mask):
            if m < 0 or (m >= n) != bool(which):
                continue
            in_lane = m - n * which
            pi = e.insert(xllvm.ConstantOp(IntegerAttr(in_lane, i32), i32))
            po = e.insert(xllvm.ConstantOp(IntegerAttr(out_lane, i32), i32))
            old = e.insert(ext.ExtractElementOp(acc, pi))
            new = e.add(old, e.insert(ext.ExtractElementOp(d, po)))
            acc = e.insert(xllvm.InsertElementOp.create(operands=[acc, new, pi], result_types=[src.type]))
        ctx.accumulate(src, acc)


def _reduce_fadd(ctx: ReverseContext, op: Operation) -> None:
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    start, vec = op.operands
    ctx.accumulate(start, d)
    if ctx.active(vec):
        assert isinstance(vec.type, VectorType)
        ctx.accumulate(vec, ctx.e.splat(d, vec.type))


def _reduce_fmul(ctx: ReverseContext, op: Operation) -> None:
    """r = start * prod(v): dr/dstart = r / start, dr/dv_i = r / v_i (computed without division)."""
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    start, vec = op.operands
    e = ctx.e
    assert isinstance(vec.type, VectorType)
    n = vec.type.get_shape()[0]
    v = ctx.get(vec)
    lanes = [e.insert(ext.ExtractElementOp(v, e.insert(xllvm.ConstantOp(IntegerAttr(i, i32), i32)))) for i in range(n)]
    if ctx.active(start):
        prod = lanes[0]
        for x in lanes[1:]:
            prod = e.mul(prod, x)
        ctx.accumulate(start, e.mul(d, prod))
    if ctx.active(vec):
        s = ctx.get(start)
        acc = e.zero(vec.type)
        for i in range(n):
            others = s
            for j in range(n):
                if j != i:
                    others = e.mul(others, lanes[j])
            idx = e.insert(xllvm.ConstantOp(IntegerAttr(i, i32), i32))
            acc = e.insert(xllvm.InsertElementOp.create(operands=[acc, e.mul(d, others), idx], result_types=[vec.type]))
        ctx.accumulate(vec, acc)


def _reduce_minmax(ctx: ReverseContext, op: Operation) -> None:
    """The adjoint goes to the lanes equal to the result."""
    if (d := ctx.adjoint(op.results[0])) is None:
        return
    vec = op.operands[0]
    assert isinstance(vec.type, VectorType)
    e = ctx.e
    r = e.splat(ctx.get(op.results[0]), vec.type)
    hit = e.fcmp("oeq", ctx.get(vec), r)
    ctx.accumulate(vec, e.where(hit, e.splat(d, vec.type)))


# ---------------------------------------------------------------------------------------------
# Tangent rules (forward mode)
# ---------------------------------------------------------------------------------------------


def _linear(ctx: ForwardContext, op: Operation, terms: list[tuple[SSAValue, Partial | None]]) -> None:
    """Set op's tangent to the chain rule over `terms` (operand, partial) of active operands."""
    active = [(p, ctx.tangent(v)) for v, p in terms if p is not None and ctx.active(v)]
    ctx.set_tangent(op.results[0], linear_tangent(ctx.e, ctx.width, active))


def _t_fadd(ctx: ForwardContext, op: Operation) -> None:
    _linear(ctx, op, [(op.operands[0], ONE), (op.operands[1], ONE)])


def _t_fsub(ctx: ForwardContext, op: Operation) -> None:
    _linear(ctx, op, [(op.operands[0], ONE), (op.operands[1], Partial(negate=True))])


def _t_fmul(ctx: ForwardContext, op: Operation) -> None:
    a, b = op.operands
    _linear(ctx, op, [
        (a, times(ctx.get(b)) if ctx.active(a) else None),
        (b, times(ctx.get(a)) if ctx.active(b) else None),
    ])  # fmt: skip


def _t_fdiv(ctx: ForwardContext, op: Operation) -> None:
    """d(a/b) = (da - db * (a/b)) / b."""
    a, b = op.operands
    e = ctx.e
    bv = ctx.get(b)
    if not ctx.active(b):
        _linear(ctx, op, [(a, over(bv))])
        return
    q = ctx.get(op.results[0])
    terms = [(ONE, ctx.tangent(a))] if ctx.active(a) else []
    terms.append((Partial(factor=q, negate=True), ctx.tangent(b)))
    num = linear_tangent(e, ctx.width, terms)
    if ctx.width == 1:
        ctx.set_tangent(op.results[0], [e.div(num[0], bv)])
    else:
        r = e.div(e.const(1, bv), bv)
        ctx.set_tangent(op.results[0], [e.mul(n, r) for n in num])


def _t_frem(ctx: ForwardContext, op: Operation) -> None:
    a, b = op.operands
    e = ctx.e
    _linear(ctx, op, [
        (a, ONE),
        (b, Partial(factor=e.call("trunc", e.div(ctx.get(a), ctx.get(b))), negate=True) if ctx.active(b) else None),
    ])  # fmt: skip


def _per_direction(build):
    """A rule applying the same instruction to each direction's tangents: `build(ctx, op, k)`
    returns direction k's tangent."""

    def rule(ctx: ForwardContext, op: Operation) -> None:
        ctx.set_tangent(op.results[0], [build(ctx, op, k) for k in range(ctx.width)])

    return rule


def _same_op_on_tangents(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    """The op itself, with each derivative-carrying operand replaced by its k-th tangent (zero
    when inactive) and every other operand (indices, conditions) kept: the op is linear in its
    derivative-carrying operands (casts, aggregate and vector moves, select)."""
    mapping: dict[SSAValue, SSAValue] = {}
    for o in op.operands:
        if o in mapping:
            continue
        carries = has_tangent_type(o.type) or is_pointer_like(o.type)  # a pointer's tangent: its shadow
        mapping[o] = ctx.tangent(o)[k] if carries else ctx.get(o)
    new = op.clone_without_regions(mapping)
    if isinstance(new, xllvm.ShuffleVectorOp):
        mask = list(new.mask.iter_values())
        if any(m < 0 for m in mask):
            new.properties["mask"] = DenseArrayBase.from_list(i32, [max(m, 0) for m in mask])
    for a in ("fastmathFlags",):
        if a in new.properties and isinstance(new.properties[a], xllvm.FastMathAttr):
            new.properties[a] = xllvm.FastMathAttr(None)
    return ctx.e.insert(new)


def _t_select(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    assert isinstance(op, ext.SelectOp)
    e = ctx.e
    return e.select(ctx.get(op.cond), ctx.tangent(op.lhs)[k], ctx.tangent(op.rhs)[k])


def _t_fneg(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    return ctx.e.neg(ctx.tangent(op.operands[0])[k])


def _t_float_cast(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    return ctx.e.cast_float(ctx.tangent(op.operands[0])[k], op.results[0].type)


def _t_bitcast(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    src = op.operands[0]
    if not _same_lanes(src.type, op.results[0].type):
        ctx.fail(op, f"a bitcast from {src.type} to {op.results[0].type} reinterprets floating-point data with a derivative",
                 ["keep the data in one floating-point type, or mark it enzyme_const"])  # fmt: skip
    return ctx.e.insert(xllvm.BitcastOp(ctx.tangent(src)[k], op.results[0].type))


def _t_freeze(ctx: ForwardContext, op: Operation) -> None:
    ctx.set_tangent(op.results[0], ctx.tangent(op.operands[0]))


def _t_reduce_fmul(ctx: ForwardContext, op: Operation) -> None:
    """r = start * prod(v): dr = dstart * prod(v) + sum_i dv_i * start * prod_{j != i} v_j."""
    start, vec = op.operands
    e = ctx.e
    lanes = ctx.e.lanes(ctx.get(vec))
    terms: list[tuple[Partial, list[SSAValue]]] = []
    if ctx.active(start):
        prod = lanes[0]
        for x in lanes[1:]:
            prod = e.mul(prod, x)
        terms.append((times(prod), ctx.tangent(start)))
    if ctx.active(vec):
        s = ctx.get(start)
        tl = [ctx.e.lanes(t) for t in ctx.tangent(vec)]
        for i in range(len(lanes)):
            others = s
            for j in range(len(lanes)):
                if j != i:
                    others = e.mul(others, lanes[j])
            terms.append((times(others), [t[i] for t in tl]))
    ctx.set_tangent(op.results[0], linear_tangent(e, ctx.width, terms))


def _t_reduce_minmax(ctx: ForwardContext, op: Operation) -> None:
    """The tangent of the lane equal to the result (the first such lane)."""
    vec = op.operands[0]
    e = ctx.e
    r = ctx.get(op.results[0])
    hits = [e.fcmp("oeq", x, r) for x in ctx.e.lanes(ctx.get(vec))]
    out = []
    for t in ctx.tangent(vec):
        tl = ctx.e.lanes(t)
        acc = tl[-1]
        for i in range(len(tl) - 2, -1, -1):
            acc = e.select(hits[i], tl[i], acc)
        out.append(acc)
    ctx.set_tangent(op.results[0], out)


# ---------------------------------------------------------------------------------------------
# Ops that move data: pointers and float bits follow them
# ---------------------------------------------------------------------------------------------


def _on_shadows(ctx: ForwardContext, op: Operation, k: int) -> SSAValue:
    """`op` applied to the k-th tangents or shadows of its derivative-carrying operands."""
    mapping: dict[SSAValue, SSAValue] = {}
    for o in op.operands:
        if o not in mapping:
            carries = has_tangent_type(o.type) or is_pointer_like(o.type)
            mapping[o] = ctx.tangent(o)[k] if carries else ctx.get(o)
    return ctx.e.insert(op.clone_without_regions(mapping))


def _moves_data(value_rule: ForwardRule | None) -> ForwardRule:
    """Forward mode for an op that moves data: a shadowed pointer result gets the op applied to
    the shadows; an integer result holding the bits of a float with a tangent (loaded from
    shadowed memory) gets the op applied to the bits of the tangents; a float result gets
    `value_rule` (a bitcast of such bits back to a float: those bits, as the float)."""

    def rule(ctx: ForwardContext, op: Operation) -> None:
        info = ctx.info
        shadowed = [r for r in op.results if r in info.shadowed]
        if shadowed:
            ctx.set_shadows(shadowed[0], [_on_shadows(ctx, op, k) for k in range(ctx.width)])
        r = op.results[0] if op.results else None
        if r is not None and r in info.shadow_bits:
            moved = [o for o in op.operands[-2:] if o.type == r.type] if isinstance(op, ext.SelectOp) else [op.operands[0]]
            base = {o: ctx.get(o) for o in op.operands}
            ctx.set_tangent(r, [ctx.e.insert(op.clone_without_regions({**base, **{o: ctx.tangent(o)[k] for o in moved}}))
                                for k in range(ctx.width)])  # fmt: skip
            return
        if r is None or r not in info.varied:
            return
        if isinstance(op, xllvm.BitcastOp) and op.operands[0] in info.shadow_bits:
            ctx.set_tangent(r, [ctx.e.insert(xllvm.BitcastOp(t, r.type)) for t in ctx.tangent(op.operands[0])])
            return
        if value_rule is None:
            ctx.fail(op, f"no derivative rule for '{op.name}'",
                     ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip
        value_rule(ctx, op)

    return rule


def _shadow_by_same_op(ctx: AugmentContext, op: Operation) -> None:
    """Forward sweep of reverse mode: a GEP or cast of a shadowed pointer has the same GEP or
    cast of its shadow."""
    r = op.results[0]
    if not ctx.shadowed(r):
        return
    ops = [ctx.fwd_shadow(op.operands[0]), *[ctx.fwd(o) for o in op.operands[1:]]]
    ctx.set_shadow(r, ctx.e.insert(type(op).create(operands=ops, result_types=[r.type], properties=dict(op.properties))))


def _shadow_select(ctx: AugmentContext, op: Operation) -> None:
    assert isinstance(op, ext.SelectOp)
    r = op.results[0]
    if ctx.shadowed(r):
        ctx.set_shadow(r, ctx.e.insert(ext.SelectOp(ctx.fwd(op.cond), ctx.fwd_shadow(op.lhs), ctx.fwd_shadow(op.rhs))))


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------


def _when_varied(rule: ForwardRule) -> ForwardRule:
    """A tangent rule that runs only where a result has a tangent."""

    def run(ctx: ForwardContext, op: Operation) -> None:
        if any(r in ctx.info.varied for r in op.results):
            rule(ctx, op)

    return run


def _value(reverse: ReverseRule | None = None, tangent: ForwardRule | None = None) -> OpRule:
    return OpRule(reverse=reverse, tangent=_when_varied(tangent) if tangent is not None else None)


def _mover(reverse: ReverseRule | None = None, tangent: ForwardRule | None = None, augment=None) -> OpRule:
    return OpRule(reverse=reverse, tangent=_moves_data(tangent), augment=augment)


RULES: dict[type[Operation], OpRule] = {
    xllvm.FAddOp: _value(_fadd, _t_fadd),
    xllvm.FSubOp: _value(_fsub, _t_fsub),
    xllvm.FMulOp: _value(_fmul, _t_fmul),
    xllvm.FDivOp: _value(_fdiv, _t_fdiv),
    xllvm.FRemOp: _value(_frem, _t_frem),
    xllvm.FNegOp: _value(_fneg, _per_direction(_t_fneg)),
    xllvm.FPExtOp: _value(_float_cast, _per_direction(_t_float_cast)),
    xllvm.FPTruncOp: _value(_float_cast, _per_direction(_t_float_cast)),
    xllvm.BitcastOp: _mover(_bitcast, _per_direction(_t_bitcast), _shadow_by_same_op),
    ext.AddrSpaceCastOp: _mover(augment=_shadow_by_same_op),
    ext.GEPOp: _mover(augment=_shadow_by_same_op),
    ext.FreezeOp: _mover(_freeze, _t_freeze),
    ext.SelectOp: _mover(_select, _per_direction(_t_select), _shadow_select),
    xllvm.ExtractValueOp: _mover(_extractvalue, _per_direction(_same_op_on_tangents)),
    xllvm.InsertValueOp: _mover(_insertvalue, _per_direction(_same_op_on_tangents)),
    ext.ExtractElementOp: _mover(_extractelement, _per_direction(_same_op_on_tangents)),
    xllvm.InsertElementOp: _mover(_insertelement, _per_direction(_same_op_on_tangents)),
    xllvm.ShuffleVectorOp: _mover(_shufflevector, _per_direction(_same_op_on_tangents)),
    xllvm.VectorReduceFAddOp: _value(_reduce_fadd, _per_direction(_same_op_on_tangents)),
    xllvm.VectorReduceFMulOp: _value(_reduce_fmul, _t_reduce_fmul),
}
"""Rules for instructions, by op class (memory and calls: `llvm_memory.py`, `llvm_calls.py`)."""

def _copy_only(ctx: ForwardContext, op: Operation) -> None:
    ctx.copy(op)


MARKERS: dict[str, OpRule] = {
    "llvm.dbg_record": OpRule(emits_primal=True),
    "llvm.intr.lifetime.start": OpRule(emits_primal=True, tangent=_copy_only),
    "llvm.intr.lifetime.end": OpRule(emits_primal=True, tangent=_copy_only),
}
"""Debug records describe the primal's variables, and the derivative functions have no debug
scope; lifetime markers would end stack slots the reverse sweep still reads (forward mode keeps
them)."""

_REDUCE_MINMAX = _value(_reduce_minmax, _t_reduce_minmax)
_MINMAX_REDUCTIONS = {
    "llvm.intr.vector.reduce.fmax", "llvm.intr.vector.reduce.fmin",
    "llvm.intr.vector.reduce.fmaximum", "llvm.intr.vector.reduce.fminimum",
}  # fmt: skip
_POWI = _value(powi_rule, powi_tangent)
_LDEXP = _value(ldexp_rule, ldexp_tangent)


def _math(name: str) -> OpRule:
    """The libm table's entry for `name`, applied to an op whose operands are its arguments
    (an intrinsic op) or whose call arguments are (a call)."""

    def args(op: Operation) -> list[SSAValue]:
        return list(op.args) if isinstance(op, xllvm.CallIntrinsicOp | xllvm.CallOp) else list(op.operands)  # type: ignore[attr-defined]

    return _value(lambda ctx, op: apply_math_rule(ctx, op, name, args(op)),
                  lambda ctx, op: tangent_math_rule(ctx, op, name, args(op)))  # fmt: skip


FUNCTION_LIKE_ATTR = "xenzyme.function_like"
"""On a call: differentiate it as the libm function this names (the callee computes the value)."""


def math_rule_of(op: Operation) -> OpRule | None:
    """The rule of an op that computes a math function: an intrinsic op or intrinsic call, a
    call of a libm function or of one with a rule registered from Python, a call marked
    `__enzyme_function_like`; None for any other op."""
    name = op.name
    if name in _MINMAX_REDUCTIONS:
        return _REDUCE_MINMAX
    if name == "llvm.intr.powi":
        return _POWI
    if name == "llvm.intr.ldexp":
        return _LDEXP
    if name.startswith("llvm.intr."):
        base = math_base_name(name.removeprefix("llvm.intr."))
        return _math(base) if base is not None else None
    if isinstance(op, xllvm.CallIntrinsicOp):
        base = math_base_name(op.intrin.data)
        return _math(base) if base is not None else None
    if not isinstance(op, xllvm.CallOp):
        return None
    if isinstance(like := op.attributes.get(FUNCTION_LIKE_ATTR), StringAttr):
        base = math_base_name(like.data)  # (__enzyme_function_like: the derivative of libm's `like`)
        return _math(base) if base is not None and len(op.args) == math_arity(base) else None
    if op.callee is None:
        return None
    callee = op.callee.string_value()
    if callee in SCALE_BY_POWER_OF_TWO and len(op.args) == 2:
        return _LDEXP
    base = math_rule_name(callee)
    if base is not None and len(op.args) == math_arity(base):
        return _math(base)
    if base is not None and base in registered_rules():
        return _wrong_arity(base)
    return None


def _wrong_arity(name: str) -> OpRule:
    """A call that passes a function with a registered rule another number of arguments than
    the rule says: an error where the call is differentiated (either mode)."""

    def rule(ctx: ReverseContext | ForwardContext, op: Operation) -> None:
        n, got = math_arity(name), len(getattr(op, "args", op.operands))
        ctx.fail(op, f"the derivative rule registered for @{name} takes {n} argument{'s' * (n != 1)}, "
                     f"but this call passes {got}",
                 [f"register it with arity={got}, or call @{name} as the rule expects"])  # fmt: skip

    return _value(rule, rule)  # type: ignore[arg-type]


def rule_for(op: Operation) -> OpRule | None:
    """The rule of an llvm-dialect op, or None when it has none."""
    from xenzyme.rules import llvm_calls, llvm_memory

    if (r := RULES.get(type(op))) is not None:
        return r
    if (r := llvm_memory.RULES.get(type(op))) is not None:
        return r
    if isinstance(op, xllvm.CallIntrinsicOp) and op.intrin.data.startswith("llvm.stackrestore"):
        return _STACK_RESTORE
    if isinstance(op, llvm_calls.CALL_OPS):
        return llvm_calls.CALL
    return MARKERS.get(op.name) or math_rule_of(op)


def _augment_stack_restore(ctx: AugmentContext, op: Operation) -> None:
    """Outside loops, the forward sweep keeps the stack: `stackrestore` would free the
    variable-length arrays (and their shadows) since its `stacksave`, and the next ones would
    take their place, while the reverse sweep still reads them (two arrays of the same stack
    bytes are two objects to alias analysis).  Each runs once per call, so what the stack keeps
    is bounded.  In a loop the arrays' stack is reused each iteration as the primal does (an
    array there that holds derivatives is an error of its alloca)."""
    if ctx.cfg.loop_of.get(op.parent_block()) is not None:  # type: ignore[arg-type]
        ctx.copy(op)


_STACK_RESTORE = OpRule(emits_primal=True, augment=_augment_stack_restore, tangent=_copy_only)
