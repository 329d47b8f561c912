"""The primal, made ready for differentiation: a copy of each function differentiated, in the
form the rules want (the primal itself stays as it is).

* Integer loads and stores of bytes the program typed as floats become float accesses (LLVM
  copies small structs and memcpy'd doubles as integers; the derivative travels with the bytes).
* A struct passed by value in memory (`byval`) is copied at entry, so that the caller's memory
  keeps its value and the copy's adjoint flows back to the caller's shadow.
* `realloc` (C's or Rust's) becomes malloc + copy + free and `posix_memalign` an `aligned_alloc`: every heap
  object then has one allocation returning it, which its shadow follows.
* Calls marked `__enzyme_function_like` are tagged with the math function whose derivative
  they take.
* A pointer read back from an aggregate value it was just put into (`extractvalue` of an
  `insertvalue` at the same position, as unoptimised code builds and takes apart its pairs) is
  the pointer put in: reverse mode follows shadows of pointers as scalars, not inside aggregates.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import AnyFloat, DictionaryAttr, IntegerAttr, IntegerType, ModuleOp, StringAttr, VectorType, i64
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.analysis.alias import callee_name, remember_module, rust_allocator_function, rust_allocator_kind
from xenzyme.analysis.cfg import CFG, IrreducibleControlFlow
from xenzyme.analysis.hints import Hints
from xenzyme.analysis.types import FLOAT, TBAA, Views, integer_access, moved_integer, size_align
from xenzyme.diagnostics import XenzymeError
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter, call_op, ensure_declaration
from xenzyme.rules.libm import math_base_name
from xenzyme.rules.llvm import FUNCTION_LIKE_ATTR
from xenzyme.rules.reallocation import move_call
from xenzyme.transforms.diff.errors import location_of


def prepare(fn: xllvm.FuncOp, module: ModuleOp, globals_: dict[str, Attribute], tbaa: TBAA | None,
            hints: Hints, filename: str | None) -> xllvm.FuncOp:
    """A copy of `fn` ready for reverse mode."""
    prepared = fn.clone()
    remember_module(prepared, module)
    retype_float_accesses(prepared, globals_, tbaa)
    replace_reallocation(prepared, module)
    copy_byval_arguments(prepared)
    mark_function_like(prepared, hints, filename)
    forward_inserted_values(prepared)
    return prepared


def forward_inserted_values(fn: xllvm.FuncOp) -> None:
    """Replace each `extractvalue` of a pointer that was put into the aggregate by an
    `insertvalue` at the same position (through inserts at other positions, and block arguments
    with one incoming value: an inlined call's return) by the pointer."""
    incoming: dict[BlockArgument, list[SSAValue]] = {}
    for b in fn.body.blocks:
        if b.last_op is not None:
            for dest, values in ext.successor_operands(b.last_op):
                for arg, v in zip(dest.args, values, strict=False):
                    incoming.setdefault(arg, []).append(v)
    for op in list(fn.walk()):
        if not isinstance(op, xllvm.ExtractValueOp) or not isinstance(op.res.type, ext.LLVMPointerType):
            continue
        want = tuple(op.position.get_values())
        agg = op.container
        while isinstance(agg, BlockArgument) and len(incoming.get(agg, ())) == 1:
            agg = incoming[agg][0]
        while isinstance(ins := agg.owner, xllvm.InsertValueOp):
            at = tuple(ins.position.get_values())
            if at == want:
                if ins.value.type == op.res.type:
                    op.res.replace_all_uses_with(ins.value)
                    op.detach()
                    op.erase()
                break
            if at[: len(want)] == want or want[: len(at)] == at:
                break  # (one is inside the other: not the same member)
            agg = ins.container
            while isinstance(agg, BlockArgument) and len(incoming.get(agg, ())) == 1:
                agg = incoming[agg][0]


def mark_function_like(fn: xllvm.FuncOp, hints: Hints, filename: str | None) -> None:
    """Tag the calls of functions that `__enzyme_function_like` says compute a libm function."""
    for op in fn.walk():
        like = hints.like.get(callee_name(op) or "")
        if like is None:
            continue
        if math_base_name(like) is None:
            raise XenzymeError(f"__enzyme_function_like: '{like}' (for @{callee_name(op)}) is not a "
                               "function whose derivative xenzyme knows", location_of(op, filename),
                               ["name a libm function (log1p, exp, sin, ...)"])  # fmt: skip
        op.attributes[FUNCTION_LIKE_ATTR] = StringAttr(like)


def prepend(block: Block, ops: list[Operation]) -> None:
    """Put `ops` at the start of `block`, in order."""
    first = block.first_op
    for op in ops:
        if first is not None:
            block.insert_op_before(op, first)
        else:
            block.add_op(op)


def retype_float_accesses(fn: xllvm.FuncOp, globals_: dict[str, Attribute], tbaa: TBAA | None = None) -> None:
    """Integer loads and stores of bytes the program typed as floating point become float loads
    and stores, with bitcasts where an integer is still wanted.

    LLVM copies small structs and memcpy'd floats as integers (`load i64` / `store i64` of a
    `struct { double v; }`); the derivative travels with those bytes, so the copy must be seen as
    one of doubles.  The bits moved are the same, so the primal computes the same thing; what
    remains an integer use of float bits is judged by activity analysis (reinterpretation).
    """
    try:
        views = Views(CFG(fn.body), globals_)
    except IrreducibleControlFlow:
        return  # reported when the gradient is built
    for block in fn.body.blocks:
        for op in list(block.ops):
            if isinstance(op, xllvm.LoadOp):
                _retype_load(op, views, tbaa)
            elif isinstance(op, ext.StoreOp):
                _retype_store(op, views, tbaa)
    _lanes_moved_as_floats(fn)


def _lanes_moved_as_floats(fn: xllvm.FuncOp) -> None:
    """A shuffle of integer lanes that are float bits (`shufflevector (bitcast <2 x double> to
    <2 x i64>)`, two doubles swapped as integers) shuffles the floats, and the integers are its
    bits: the bitcast back to floats that a retyped store puts after it then cancels."""
    for op in list(fn.walk()):
        if not isinstance(op, xllvm.ShuffleVectorOp):
            continue
        floats = [_float_lanes(v) for v in op.operands]
        known = [f for f in floats if f is not None]
        if not known or any(f is None and not isinstance(v.owner, ext.PoisonOp | xllvm.UndefOp)
                            for f, v in zip(floats, op.operands, strict=True)):  # fmt: skip
            continue
        ftype = known[0].type
        if any(f.type != ftype for f in known):
            continue
        block = op.parent_block()
        assert block is not None
        operands = []
        for f in floats:
            if f is None:
                poison = ext.PoisonOp(ftype)
                block.insert_op_before(poison, op)
                f = poison.results[0]
            operands.append(f)
        result_t = op.results[0].type
        lanes = result_t.get_shape()[0]  # type: ignore[attr-defined]
        shuffled = xllvm.ShuffleVectorOp.create(operands=operands, properties=dict(op.properties),
                                                result_types=[VectorType(ftype.element_type, [lanes])])  # type: ignore[attr-defined]  # fmt: skip
        bits = xllvm.BitcastOp(shuffled.results[0], result_t)
        shuffled.location = bits.location = op.location
        block.insert_ops_before([shuffled, bits], op)
        op.results[0].replace_all_uses_with(bits.result)
        op.detach()
        op.erase()
        for use in list(bits.result.uses):  # (a store retyped already casts the bits back)
            back = use.operation
            if isinstance(back, xllvm.BitcastOp) and back.results[0].type == shuffled.results[0].type:
                back.results[0].replace_all_uses_with(shuffled.results[0])
                back.detach()
                back.erase()


def _float_lanes(v: SSAValue) -> SSAValue | None:
    """The float vector whose bits the integer vector `v` is (`bitcast <N x double> to <N x i64>`)."""
    op = v.owner
    if isinstance(op, xllvm.BitcastOp) and isinstance(v.type, VectorType):
        src = op.operands[0]
        if (isinstance(src.type, VectorType) and isinstance(src.type.element_type, AnyFloat)
                and src.type.get_shape() == v.type.get_shape()):  # fmt: skip
            return src
    return None


def copy_byval_arguments(fn: xllvm.FuncOp) -> None:
    """A struct passed by value in memory (`byval`) is the callee's own copy, but the generated
    functions take plain pointers: write to a copy made at entry, so that the caller's memory
    keeps its value and the reverse of that copy returns the copy's adjoint to the caller's
    shadow.  (Parameters LLVM knows are only read need no copy.)"""
    attrs = fn.arg_attrs.data if fn.arg_attrs is not None else ()
    entry = fn.body.blocks.first
    if entry is None:
        return
    for arg, d in zip(entry.args, attrs, strict=False):
        t = d.data.get("llvm.byval") if isinstance(d, DictionaryAttr) else None
        if t is None or "llvm.readonly" in d.data or not arg.uses or (sa := size_align(t)) is None:
            continue
        users = [u.operation for u in arg.uses]
        if len(users) == 1 and isinstance(users[0], ext.MemcpyOp) and isinstance(users[0].args[0].owner, xllvm.AllocaOp):
            continue  # (copied already)
        one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
        copy = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()],
                                     properties={"elem_type": t, "alignment": IntegerAttr(sa[1], i64)})  # fmt: skip
        n = xllvm.ConstantOp(IntegerAttr(sa[0], i64), i64)
        arg.replace_all_uses_with(copy.results[0])
        prepend(entry, [one, copy, n, ext.MemcpyOp([copy.results[0], arg, n.result])])


def replace_reallocation(fn: xllvm.FuncOp, module: ModuleOp) -> None:
    """`realloc` becomes malloc + copy + free, and `posix_memalign` an `aligned_alloc`: every heap
    object then has one allocation that returns it, which its shadow follows, and the adjoints of
    the old buffer's contents flow back from the new one through the copy."""
    ptr = ext.LLVMPointerType()
    for block in fn.body.blocks:
        for op in list(block.ops):
            name = callee_name(op)
            rust = rust_allocator_kind(name) == "realloc" if name is not None else False
            if name not in ("realloc", "posix_memalign") and not rust:
                continue
            e = LLVMEmitter(Builder(InsertPoint.before(op)), module)
            if rust:  # __rust_realloc(ptr, old_size, align, new_size): the sizes are given
                assert name is not None
                old, old_size, align, n = op.operands
                alloc, dealloc = rust_allocator_function(name, "alloc"), rust_allocator_function(name, "dealloc")
                assert alloc is not None and dealloc is not None
                ensure_declaration(module, alloc, ext.LLVMFunctionType([i64, i64], ptr))
                ensure_declaration(module, dealloc, ext.LLVMFunctionType([ptr, i64, i64], ext.LLVMVoidType()))
                new = e.insert(call_op(alloc, [n, align], ptr))
                kept = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(old_size, n, "ult")), old_size, n))
                move_call(e, module, new, old, kept)  # (a copy of bytes of an erased type)
                e.insert(call_op(dealloc, [old, old_size, align], None))
                result = new
            elif name == "realloc":
                old, n = op.operands
                ensure_declaration(module, "malloc", ext.LLVMFunctionType([i64], ptr))
                ensure_declaration(module, "malloc_usable_size", ext.LLVMFunctionType([ptr], i64))
                ensure_declaration(module, "free", ext.LLVMFunctionType([ptr], ext.LLVMVoidType()))
                new = e.insert(call_op("malloc", [n], ptr))
                usable = e.insert(call_op("malloc_usable_size", [old], i64))
                kept = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(usable, n, "ult")), usable, n))
                e.insert(ext.MemcpyOp([new, old, kept]))
                e.insert(call_op("free", [old], None))
                result = new
            else:
                slot, align, n = op.operands
                ensure_declaration(module, "aligned_alloc", ext.LLVMFunctionType([i64, i64], ptr))
                mask = e.insert(xllvm.SubOp(align, e.i64(1)))  # type: ignore[arg-type]
                rounded = e.insert(xllvm.AndOp(
                    e.insert(xllvm.AddOp(n, mask)),  # type: ignore[arg-type]
                    e.insert(xllvm.XOrOp(mask, e.i64(-1))),  # type: ignore[arg-type]
                ))  # fmt: skip
                new = e.insert(call_op("aligned_alloc", [align, rounded], ptr))
                e.insert(ext.StoreOp(new, slot))
                null = e.insert(xllvm.ZeroOp.create(result_types=[ptr]))
                rt = op.results[0].type
                failed = e.insert(ext.ICmpOp(new, null, "eq"))
                enomem = e.insert(xllvm.ConstantOp(IntegerAttr(12, rt), rt))  # type: ignore[arg-type]
                result = e.insert(ext.SelectOp(failed, enomem, e.insert(xllvm.ConstantOp(IntegerAttr(0, rt), rt))))  # type: ignore[arg-type]
            for r in (new, result):
                r.owner.location = op.location  # type: ignore[union-attr]
            op.results[0].replace_all_uses_with(result)
            op.detach()
            op.erase()


def _float_bytes_type(op: xllvm.LoadOp | ext.StoreOp, ptr: SSAValue, t: Attribute, views: Views,
                      tbaa: TBAA | None) -> Attribute | None:
    """The float type the program gave the bytes an integer access of type `t` at `ptr` touches:
    the one its TBAA tag names, else the one its bitcasts show, else the pointer's view there."""
    integer_vector = isinstance(t, VectorType) and isinstance(t.element_type, IntegerType)
    if not _plain_access(op) or not (isinstance(t, IntegerType) or integer_vector):
        return None
    if not integer_vector:
        f = (tbaa.float_type(op) if tbaa is not None else None) or _float_behind_bitcasts(op)
        if f is not None and t.width.data == size_align(f)[0] * 8:  # type: ignore[index, union-attr]
            return f
    kind, f = integer_access(views.of(ptr), t)
    if kind != FLOAT and isinstance(op, xllvm.LoadOp) and moved_integer(op.dereferenced_value):
        # bytes loaded only to be stored: what the stores' destinations hold, if they agree
        found = {integer_access(views.of(s.ptr), t) for s in ext.real_users(op.dereferenced_value)}  # type: ignore[attr-defined]
        kind, f = found.pop() if len(found) == 1 else (None, None)
    return f if kind == FLOAT else None


def _float_behind_bitcasts(op: xllvm.LoadOp | ext.StoreOp) -> Attribute | None:
    """The float an integer access moves when its value is a float's bits and nothing else:
    loaded to be bitcast to that float (or its lanes to floats, `trunc`/`lshr` then `bitcast`:
    a `memcpy` of two floats is one `i64`) and to be stored unchanged, or bitcast from it only
    to be stored."""
    if isinstance(op, xllvm.LoadOp):
        return _float_uses(op.results[0])
    src = op.value.owner
    if not isinstance(src, xllvm.BitcastOp):
        return None
    f = src.operands[0].type
    return f if _is_float_or_float_vector(f) else None


def _is_float_or_float_vector(t: Attribute) -> bool:
    return isinstance(t, AnyFloat) or isinstance(t, VectorType) and isinstance(t.element_type, AnyFloat)


def _float_uses(v: SSAValue) -> Attribute | None:
    """The float type (a float, or a vector of float lanes) the loaded integer `v` is taken as
    by its bitcasts, if they agree.  Its other uses (stores of it, tests of its bits) keep the
    integer, cast from the float: the same bits, so the primal is unchanged, and arithmetic on
    them that becomes a float again is then reported as type punning, never a lost derivative."""
    wholes: set[Attribute] = set()
    lanes: dict[int, Attribute] = {}
    for user in ext.real_users(v):
        if isinstance(user, xllvm.BitcastOp) and isinstance(user.results[0].type, AnyFloat):
            wholes.add(user.results[0].type)
        elif (lane := _float_lane(v, user)) is not None:
            k, f = lane
            if lanes.setdefault(k, f) != f:
                return None
    if wholes and not lanes and len(wholes) == 1:
        return wholes.pop()
    if lanes and not wholes and len(set(lanes.values())) == 1 and isinstance(v.type, IntegerType):
        f = next(iter(lanes.values()))
        count, rest = divmod(v.type.width.data, f.bitwidth)  # type: ignore[attr-defined]
        return VectorType(f, [count]) if rest == 0 and count > 1 and max(lanes) < count else None
    return None


def _float_lane(v: SSAValue, user: Operation) -> tuple[int, Attribute] | None:
    """(k, float type) when `user` takes lane k of the integer `v` as a float: `bitcast (trunc v)`
    for lane 0, `bitcast (trunc (lshr v, k*width))` for lane k, every use of each step being the next."""
    from xenzyme.analysis.cfg import constant_int

    shift = 0
    if isinstance(user, xllvm.LShrOp) and user.lhs is v and (c := constant_int(user.rhs)) is not None:
        shift = c
        users = ext.real_users(user.results[0])
        if len(users) != 1:
            return None
        user = users[0]
    if not isinstance(user, xllvm.TruncOp):
        return None
    casts = ext.real_users(user.results[0])
    floats = {c.results[0].type for c in casts if isinstance(c, xllvm.BitcastOp)}
    if not casts or len(floats) != 1 or len(casts) != sum(isinstance(c, xllvm.BitcastOp) for c in casts):
        return None
    f = floats.pop()
    if not isinstance(f, AnyFloat) or shift % f.bitwidth:
        return None
    return shift // f.bitwidth, f


def _plain_access(op: xllvm.LoadOp | ext.StoreOp) -> bool:
    return op.ordering.value.data == 0 and "volatile_" not in op.attributes and "volatile_" not in op.properties


def _retyped_attributes(op: Operation) -> dict[str, Attribute]:
    """Attributes for the retyped access: without TBAA, whose integer tag no longer fits."""
    return {k: v for k, v in op.attributes.items() if k != "md"}


def _retype_load(op: xllvm.LoadOp, views: Views, tbaa: TBAA | None) -> None:
    t = op.dereferenced_value.type
    f = _float_bytes_type(op, op.ptr, t, views, tbaa)
    if f is None:
        return
    load = xllvm.LoadOp.create(operands=[op.ptr], result_types=[f], properties=dict(op.properties),
                               attributes=_retyped_attributes(op))  # fmt: skip
    cast = xllvm.BitcastOp(load.dereferenced_value, t)
    load.location = cast.location = op.location
    op.parent_block().insert_ops_before([load, cast], op)  # type: ignore[union-attr]
    op.dereferenced_value.replace_all_uses_with(cast.result)
    op.detach()
    op.erase()
    for use in list(cast.result.uses):  # the integer was only on its way back to the float
        back = use.operation
        if isinstance(back, xllvm.BitcastOp) and back.results[0].type == f:
            back.results[0].replace_all_uses_with(load.dereferenced_value)
            back.detach()
            back.erase()
    if isinstance(f, VectorType):
        _lanes_as_elements(cast.result, load.dereferenced_value)
    if not cast.result.uses:
        cast.detach()
        cast.erase()


def _lanes_as_elements(bits: SSAValue, floats: SSAValue) -> None:
    """Each lane the integer `bits` gives as a float (`bitcast (trunc (lshr bits, k*w))`) is
    element k of the float vector `floats` whose bits these are."""
    for use in list(bits.uses):
        chain = [use.operation]
        lane = _float_lane(bits, use.operation)
        if lane is None:
            continue
        while not isinstance(chain[-1], xllvm.TruncOp):
            chain.append(ext.real_users(chain[-1].results[0])[0])
        block = chain[0].parent_block()
        assert block is not None
        index = xllvm.ConstantOp(IntegerAttr(lane[0], i64), i64)
        element = ext.ExtractElementOp(floats, index.result)
        index.location = element.location = chain[-1].location
        block.insert_ops_before([index, element], chain[0])
        for cast in ext.real_users(chain[-1].results[0]):
            cast.results[0].replace_all_uses_with(element.results[0])
        for op in reversed(chain):
            for cast in list(ext.real_users(op.results[0])):
                cast.detach()
                cast.erase()
            for u in list(op.results[0].uses):  # (annotations)
                u.operation.detach()
                u.operation.erase()
            op.detach()
            op.erase()


def _retype_store(op: ext.StoreOp, views: Views, tbaa: TBAA | None) -> None:
    v = op.value
    f = _float_bytes_type(op, op.ptr, v.type, views, tbaa)
    if f is None:
        return
    block = op.parent_block()
    assert block is not None
    src = v.owner
    if isinstance(src, xllvm.BitcastOp) and src.operands[0].type == f:
        value = src.operands[0]  # the integer was float bits loaded a moment ago
    else:
        cast = xllvm.BitcastOp(v, f)
        cast.location = op.location
        block.insert_op_before(cast, op)
        value = cast.result
    store = ext.StoreOp.create(operands=[value, op.ptr], properties=dict(op.properties),
                                 attributes=_retyped_attributes(op))  # fmt: skip
    store.location = op.location
    block.insert_op_before(store, op)
    op.detach()
    op.erase()
    if isinstance(src, xllvm.BitcastOp) and not src.result.uses:
        src.detach()
        src.erase()
