"""Thread-private windows of shadow memory: adjoints a thread of a team adds into shared memory,
summed where only it sees them and added into the shared shadow once, at the end of its reverse.

In the reverse of a parallel region a load of shared memory becomes an addition into its
shadow, atomic unless the thread owns the address (`xenzyme.analysis.ownership`).  Parameters
read in the inner loops of a worksharing loop -- a mixture model's means, read by every point
-- are added into by every iteration of every thread: an atomic update per read.  Where nothing
in the function writes the memory (so that nothing reads or resets its shadow before the end),
each thread instead adds into a private window over the shadow addresses it has touched, one
window per pointer the addresses are offsets from (they stay close together):

    state = {buf, lo, n}                   the window holds the elements at addresses
                                           size*lo .. size*(lo+n-1)
    xenzyme.window.add.T(&state, dp, d)    when dp is a multiple of the element size:
                                           buf[dp/size - lo] += d, the window first widened to
                                           cover dp (at least doubled, at most WINDOW_LIMIT
                                           elements); otherwise, or past the limit, atomically
                                           into dp itself
    xenzyme.window.flush.S(&state)         at the end of the thread's reverse: each nonzero
                                           element atomically into its address, the buffer freed

An addition costs a comparison and a plain add instead of an atomic update; the atomics left
are one per element the thread touched.  The windows are per thread and per region run: their
memory is that of the data touched, times the team size.
"""

from __future__ import annotations

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerAttr, ModuleOp, VectorType, i1, i64
from xdsl.ir import Attribute, SSAValue

from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter
from xenzyme.rules.helpers import HelperFunction, has_function

_PTR = ext.LLVMPointerType()
STATE = ext.LLVMStructType.from_type_list([_PTR, i64, i64])
"""A window's state: its buffer, its first element's address / size, its length."""
WINDOW_LIMIT = 1 << 20
"""The most elements a window holds (8 MiB of f64): where the addresses a thread touches from one
pointer spread wider, the additions beyond are atomic."""


def scalar_of(t: Attribute) -> Float32Type | Float64Type | None:
    """The element type of a window that adjoints of type `t` may go into (None: none may)."""
    s = t.element_type if isinstance(t, VectorType) else t
    if isinstance(s, Float32Type | Float64Type) and (not isinstance(t, VectorType) or len(t.get_shape()) == 1):
        return s
    return None


def _name(t: Attribute) -> str:
    if isinstance(t, VectorType):
        return f"v{t.get_shape()[0]}{_name(t.element_type)}"
    return "f32" if isinstance(t, Float32Type) else "f64"


def _size(s: Attribute) -> int:
    return 4 if isinstance(s, Float32Type) else 8


def _field(e: LLVMEmitter, state: SSAValue, k: int) -> SSAValue:
    return e.insert(ext.GEPOp(state, [0, k], STATE))


def init(e: LLVMEmitter, state: SSAValue) -> None:
    """An empty window (no buffer, no elements)."""
    e.insert(ext.StoreOp(e.insert(xllvm.ZeroOp.create(result_types=[_PTR])), _field(e, state, 0)))
    e.insert(ext.StoreOp(e.i64(0), _field(e, state, 1)))
    e.insert(ext.StoreOp(e.i64(0), _field(e, state, 2)))


def add_helper(module: ModuleOp, t: Attribute) -> str:
    """`xenzyme.window.add.T(state, dp, d)`: see the module docstring."""
    name = f"xenzyme.window.add.{_name(t)}"
    if has_function(module, name):
        return name
    s = scalar_of(t)
    assert s is not None
    size = _size(s)
    lanes = t.get_shape()[0] if isinstance(t, VectorType) else 1
    grow = _grow_helper(module, s)
    h = HelperFunction(module, name, [_PTR, _PTR, t])
    state, dp, d = h.args
    e = h.e
    addr = e.insert(xllvm.PtrToIntOp(dp, i64))
    idx = e.insert(xllvm.AShrOp(addr, e.i64(size.bit_length() - 1)))  # type: ignore[arg-type]
    aligned = e.insert(ext.ICmpOp(e.insert(xllvm.AndOp(addr, e.i64(size - 1))), e.i64(0), "eq"))  # type: ignore[arg-type]
    with h.when(e.insert(xllvm.AndOp(aligned, _not(e, _inside(e, state, idx, lanes))))):  # type: ignore[arg-type]
        h.e.call_function(grow, [state, idx, h.e.i64(lanes)])
    e = h.e
    ok = e.insert(xllvm.AndOp(aligned, _inside(e, state, idx, lanes)))  # type: ignore[arg-type]
    with h.when(ok):
        e = h.e
        buf = e.insert(xllvm.LoadOp(_field(e, state, 0), _PTR))
        rel = e.insert(xllvm.SubOp(idx, e.insert(xllvm.LoadOp(_field(e, state, 1), i64))))  # type: ignore[arg-type]
        at = e.insert(ext.GEPOp(buf, [ext.GEP_USE_SSA_VAL], s, [rel]))
        old = e.insert(xllvm.LoadOp(at, t, alignment=size))
        e.insert(ext.StoreOp(e.add(old, d), at, alignment=size))
    with h.when(_not(h.e, ok)):
        h.e.insert(ad.AccumulateOp(dp, d, mode="atomic", alignment=size))
    return h.finish()


def _inside(e: LLVMEmitter, state: SSAValue, idx: SSAValue, lanes: int) -> SSAValue:
    """Whether the window holds elements idx .. idx+lanes-1."""
    lo, n = e.insert(xllvm.LoadOp(_field(e, state, 1), i64)), e.insert(xllvm.LoadOp(_field(e, state, 2), i64))
    rel = e.insert(xllvm.SubOp(idx, lo))  # type: ignore[arg-type]
    inside = e.insert(ext.ICmpOp(e.insert(xllvm.AddOp(rel, e.i64(lanes - 1))), n, "ult"))  # type: ignore[arg-type]
    if lanes > 1:
        inside = e.insert(xllvm.AndOp(inside, e.insert(ext.ICmpOp(rel, n, "ult"))))  # type: ignore[arg-type]
    return inside


def _true(e: LLVMEmitter) -> SSAValue:
    return e.insert(xllvm.ConstantOp(IntegerAttr(1, 1), i1))


def _false(e: LLVMEmitter) -> SSAValue:
    return e.insert(xllvm.ConstantOp(IntegerAttr(0, 1), i1))


def _not(e: LLVMEmitter, v: SSAValue) -> SSAValue:
    return e.insert(xllvm.XOrOp(v, _true(e)))  # type: ignore[arg-type]


def _grow_helper(module: ModuleOp, s: Attribute) -> str:
    """`xenzyme.window.grow.S(state, idx, lanes)`: the window widened (at least doubled) to
    cover elements idx .. idx+lanes-1, the new elements zero."""
    name = f"xenzyme.window.grow.{_name(s)}"
    if has_function(module, name):
        return name
    size = _size(s)
    h = HelperFunction(module, name, [_PTR, i64, i64])
    state, idx, lanes = h.args
    e = h.e
    e.declare("calloc", [i64, i64], _PTR)
    e.declare("free", [_PTR])
    buf = e.insert(xllvm.LoadOp(_field(e, state, 0), _PTR))
    lo, n = e.insert(xllvm.LoadOp(_field(e, state, 1), i64)), e.insert(xllvm.LoadOp(_field(e, state, 2), i64))
    empty = e.insert(ext.ICmpOp(n, e.i64(0), "eq"))
    want_hi = e.insert(xllvm.AddOp(idx, lanes))  # type: ignore[arg-type]
    lo0 = e.insert(ext.SelectOp(empty, idx, _min(e, lo, idx)))
    hi0 = e.insert(ext.SelectOp(empty, want_hi, _max(e, e.insert(xllvm.AddOp(lo, n)), want_hi)))  # type: ignore[arg-type]
    width = e.insert(xllvm.SubOp(hi0, lo0))  # type: ignore[arg-type]
    doubled = e.insert(xllvm.AddOp(e.insert(xllvm.ShlOp(n, e.i64(1))), e.i64(8)))  # type: ignore[arg-type]
    new_n = _min(e, _max(e, width, doubled), e.i64(WINDOW_LIMIT))
    below = e.insert(xllvm.AndOp(_not(e, empty), e.insert(ext.ICmpOp(idx, lo, "slt"))))  # type: ignore[arg-type]
    zero = e.i64(0)
    extra = e.insert(xllvm.SubOp(new_n, width))  # type: ignore[arg-type]
    new_lo = e.insert(xllvm.SubOp(lo0, e.insert(ext.SelectOp(below, extra, zero))))  # type: ignore[arg-type]
    fits = e.insert(ext.ICmpOp(width, e.i64(WINDOW_LIMIT), "sle"))
    with h.when(fits):  # (else the window stays as it is: the addition is atomic)
        e = h.e
        fresh = e.call_function("calloc", [new_n, e.i64(size)], _PTR)
        with h.when(e.insert(ext.ICmpOp(n, zero, "ne"))):
            e = h.e
            into = e.insert(ext.GEPOp(fresh, [ext.GEP_USE_SSA_VAL], s, [e.insert(xllvm.SubOp(lo, new_lo))]))  # type: ignore[arg-type]
            e.insert(ext.MemcpyOp([into, buf, e.insert(xllvm.MulOp(n, e.i64(size)))]))  # type: ignore[arg-type]
        e = h.e
        e.call_function("free", [buf])
        e.insert(ext.StoreOp(fresh, _field(e, state, 0)))
        e.insert(ext.StoreOp(new_lo, _field(e, state, 1)))
        e.insert(ext.StoreOp(new_n, _field(e, state, 2)))
    return h.finish()


def _min(e: LLVMEmitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.insert(ext.SelectOp(e.insert(ext.ICmpOp(a, b, "slt")), a, b))


def _max(e: LLVMEmitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return e.insert(ext.SelectOp(e.insert(ext.ICmpOp(a, b, "sgt")), a, b))


def flush_helper(module: ModuleOp, s: Attribute) -> str:
    """`xenzyme.window.flush.S(state)`: see the module docstring."""
    name = f"xenzyme.window.flush.{_name(s)}"
    if has_function(module, name):
        return name
    size = _size(s)
    h = HelperFunction(module, name, [_PTR])
    (state,) = h.args
    e = h.e
    e.declare("free", [_PTR])
    buf = e.insert(xllvm.LoadOp(_field(e, state, 0), _PTR))
    lo, n = e.insert(xllvm.LoadOp(_field(e, state, 1), i64)), e.insert(xllvm.LoadOp(_field(e, state, 2), i64))
    with h.loop(n) as k:
        e = h.e
        v = e.insert(xllvm.LoadOp(e.insert(ext.GEPOp(buf, [ext.GEP_USE_SSA_VAL], s, [k])), s))
        with h.when(e.fcmp("une", v, e.zero(s))):
            e = h.e
            addr = e.insert(xllvm.MulOp(e.insert(xllvm.AddOp(lo, k)), e.i64(size)))  # type: ignore[arg-type]
            at = e.insert(xllvm.IntToPtrOp(addr))
            e.insert(ad.AccumulateOp(at, v, mode="atomic", alignment=size))
    e = h.e
    e.call_function("free", [buf])
    init(e, state)
    return h.finish()
