"""`lower-autodiff`: caches and accumulations -> plain `llvm` ops.

* `autodiff.accumulate %p, %d` (plain) becomes `load`, `fadd`, `store` -- element by element
  for aggregates; `atomic` (and a `reduce` that no parallel lowering has handled) becomes
  `atomicrmw fadd ... monotonic`, one per lane of a vector or member of an aggregate.  Types
  without a lock-free atomic add (x86_fp80, fp128) are an error.
* A `single` cache (pushed outside every loop) becomes one stack slot: push stores, peek loads,
  pop does nothing.
* Any other cache becomes a growable stack: a heap buffer, its size and capacity in stack slots
  (which LLVM promotes to registers).  Push stores at `size` (growing the buffer by doubling
  when full), peek loads at `size - 1`, pop decrements `size`; `reserve` grows the buffer once
  for a whole loop.
* A function's own stacks keep their buffers between calls: each cache site has a pool slot (an
  internal global holding one buffer), taken with an atomic exchange when the function starts
  and given back the same way at each of its returns (the buffer the slot held then is freed).
  A gradient called many times (an optimiser's loop, a benchmark) then reuses memory whose pages
  are already mapped: allocating tens of megabytes afresh on every call costs a page fault per
  4 KiB, often more than the reverse sweep itself.  The exchange makes this safe with threads
  and recursion (an activation that finds the slot empty allocates its own buffer); the memory
  kept is one buffer per cache site, of the size the last call needed.  `reuse-caches=false`
  frees the buffers at every return instead, as do functions that forward mode differentiates
  later in the pipeline (a Hessian-vector product), whose caches need shadows of their own.
* Caches pushed in the same block and popped in the same block (the values one iteration of a
  loop body keeps) first become one stack of records (`_merge_records`): one size, capacity and
  growth check per block instead of one per value.  With a hundred caches live across a loop
  nest their sizes cannot all stay in registers, and the bookkeeping of separate stacks (a load,
  a compare and two stores per value) costs more than the stores of the values themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    BFloat16Type, DenseArrayBase, Float16Type, Float32Type, Float64Type, IntegerAttr, IntegerType, ModuleOp, StringAttr,
    VectorType, i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import LLVMEmitter as Emitter, ensure_declaration

_PTR = ext.LLVMPointerType()
_AUTODIFF_OPS = (
    ad.AccumulateOp, ad.CacheInitOp, ad.CacheAttachOp, ad.CachePushOp, ad.CachePeekOp, ad.CachePopOp,
    ad.CacheReserveOp, ad.CacheFreeOp,
)  # fmt: skip
HUGE_BUFFER = 4 << 20
HUGE_PAGE = 2 << 20
MADV_HUGEPAGE = 14


def _const(v: int) -> Operation:
    return xllvm.ConstantOp(IntegerAttr(v, i64), i64)


@dataclass
class _Stack:
    data: SSAValue
    size: SSAValue
    cap: SSAValue
    elem: Attribute
    pool: str | None = None
    """The global holding this cache site's buffer between calls."""


class Lowering:
    def __init__(self, module: ModuleOp, reuse_caches: bool = True):
        self.module = module
        self.pooled = reuse_caches
        self.no_pool = _forward_differentiated(module) if reuse_caches else set()

    def run(self) -> None:
        for fn in [op for op in self.module.ops if isinstance(op, xllvm.FuncOp)]:
            if fn.body.blocks:
                self.lower_function(fn)

    def lower_function(self, fn: xllvm.FuncOp) -> None:
        ops = [op for op in fn.walk() if isinstance(op, _AUTODIFF_OPS)]
        if not ops:
            return
        if _merge_records(fn, ops):
            ops = [op for op in fn.walk() if isinstance(op, _AUTODIFF_OPS)]
        stacks: dict[SSAValue, _Stack | SSAValue] = {}
        entry = fn.body.blocks.first
        assert entry is not None
        owned: list[_Stack] = []
        pooled = self.pooled and fn.sym_name.data not in self.no_pool
        for op in ops:
            if isinstance(op, ad.CacheInitOp | ad.CacheAttachOp):
                stacks[op.res] = state = self._init(op, entry)
                if isinstance(op, ad.CacheInitOp) and op.storage is None and isinstance(state, _Stack):
                    if pooled:
                        state.pool = self._pool_slot(fn, len(owned))
                        self._take_from_pool(op, state)
                    owned.append(state)  # lives and dies with this call (its buffer: see the pool)
        for op in ops:
            if isinstance(op, ad.AccumulateOp):
                self._accumulate(op)
            elif isinstance(op, ad.CachePushOp):
                self._push(op, stacks[op.cache])
            elif isinstance(op, ad.CachePeekOp):
                self._peek(op, stacks[op.cache])
            elif isinstance(op, ad.CachePopOp):
                self._pop(op, stacks[op.cache])
            elif isinstance(op, ad.CacheReserveOp):
                self._reserve(op, stacks[op.cache])
            elif isinstance(op, ad.CacheFreeOp):
                self._free(op, stacks[op.cache])
        if owned:
            self._free_at_returns(fn, owned)
        for op in ops:
            if isinstance(op, ad.CacheInitOp | ad.CacheAttachOp):
                if op.res.uses:
                    raise XenzymeError(f"internal error: cache still used in @{fn.sym_name.data}")
                op.detach()
                op.erase()

    # ---- caches -------------------------------------------------------------------------

    def _init(self, op: ad.CacheInitOp | ad.CacheAttachOp, entry: Block) -> _Stack | SSAValue:
        """The cache's state: stack slots, or fields of the memory at its `storage` operand."""
        elem = op.res.type.element_type  # type: ignore[attr-defined]
        b = Builder(InsertPoint.before(op))
        storage = op.storage
        if storage is not None:
            if op.single is not None:
                return storage
            fields = ad.cache_storage_type(elem, False)
            data, size, cap = (
                b.insert(ext.GEPOp(storage, [0, k], fields)).results[0] for k in range(3)
            )
            if isinstance(op, ad.CacheInitOp):
                self._empty(b, data, size, cap)
            return _Stack(data, size, cap, elem)
        one = b.insert(_const(1)).results[0]

        def slot(t: Attribute, hint: str) -> SSAValue:
            a = b.insert(xllvm.AllocaOp.create(operands=[one], result_types=[_PTR], properties={"elem_type": t})).results[0]
            a.name_hint = hint
            return a

        if op.single is not None:
            return slot(elem, "cache")
        data = slot(_PTR, "cache.data")
        size = slot(i64, "cache.size")
        cap = slot(i64, "cache.cap")
        self._empty(b, data, size, cap)
        return _Stack(data, size, cap, elem)

    def _empty(self, b: Builder, data: SSAValue, size: SSAValue, cap: SSAValue) -> None:
        zero = b.insert(_const(0)).results[0]
        null = b.insert(xllvm.ZeroOp.create(result_types=[_PTR])).results[0]
        b.insert(ext.StoreOp(null, data))
        b.insert(ext.StoreOp(zero, size))
        b.insert(ext.StoreOp(zero, cap))

    def _free(self, op: ad.CacheFreeOp, stack: _Stack | SSAValue) -> None:
        if isinstance(stack, _Stack):
            ensure_declaration(self.module, "free", ext.LLVMFunctionType([_PTR], ext.LLVMVoidType()))
            b = Builder(InsertPoint.before(op))
            data = b.insert(xllvm.LoadOp(stack.data, _PTR)).results[0]
            b.insert(_call("free", [data], None))
        _erase(op)

    def _push(self, op: ad.CachePushOp, stack: _Stack | SSAValue) -> None:
        if not isinstance(stack, _Stack):
            b = Builder(InsertPoint.before(op))
            b.insert(ext.StoreOp(op.value, stack))
            _erase(op)
            return
        b = Builder(InsertPoint.before(op))
        e = Emitter(b, self.module)
        size = e.insert(xllvm.LoadOp(stack.size, i64))
        one = e.insert(_const(1))
        # Full: grow to twice the size (at least 16), once every doubling.
        need = e.insert(xllvm.AddOp(size, one))  # type: ignore[arg-type]
        doubled = e.insert(xllvm.AddOp(e.insert(xllvm.ShlOp(size, one)), e.insert(_const(16))))  # type: ignore[arg-type]
        self._ensure_capacity(op, stack, need, doubled)
        b = Builder(InsertPoint.before(op))
        e = Emitter(b, self.module)
        data = e.insert(xllvm.LoadOp(stack.data, _PTR))
        slot = e.insert(ext.GEPOp(data, [ext.GEP_USE_SSA_VAL], stack.elem, [size]))
        e.insert(ext.StoreOp(op.value, slot, alignment=_heap_alignment(stack.elem)))
        e.insert(ext.StoreOp(need, stack.size))
        _erase(op)

    def _reserve(self, op: ad.CacheReserveOp, stack: _Stack | SSAValue) -> None:
        if isinstance(stack, _Stack):
            b = Builder(InsertPoint.before(op))
            e = Emitter(b, self.module)
            size = e.insert(xllvm.LoadOp(stack.size, i64))
            need = e.insert(xllvm.AddOp(size, op.count))  # type: ignore[arg-type]
            # At least double: a reserve inside an outer loop then grows the buffer a
            # logarithmic number of times, not once per outer iteration (quadratic copying).
            cap = e.insert(xllvm.LoadOp(stack.cap, i64))
            doubled = e.insert(xllvm.AddOp(e.insert(xllvm.ShlOp(cap, e.insert(_const(1)))), e.insert(_const(16))))  # type: ignore[arg-type]
            new_cap = e.insert(ext.SelectOp(e.insert(ext.ICmpOp(need, doubled, "ugt")), need, doubled))
            self._ensure_capacity(op, stack, need, new_cap)
        _erase(op)

    def _ensure_capacity(self, at: Operation, stack: _Stack, need: SSAValue, new_cap: SSAValue) -> None:
        """Before `at`: when `need` elements do not fit, grow the buffer to `new_cap` elements."""
        block = at.parent_block()
        assert block is not None
        cont = block.split_before(at)
        grow = Block()
        cont.parent_region().insert_block_before(grow, cont)  # type: ignore[union-attr]
        b = Builder(InsertPoint.at_end(block))
        e = Emitter(b, self.module)
        cap = e.insert(xllvm.LoadOp(stack.cap, i64))
        full = e.insert(ext.ICmpOp(need, cap, "ugt"))
        b.insert(xllvm.CondBrOp(full, grow, [], cont, []))
        b = Builder(InsertPoint.at_end(grow))
        e = Emitter(b, self.module)
        elem_size = self._sizeof(stack.elem, e)
        used = e.insert(xllvm.MulOp(e.insert(xllvm.LoadOp(stack.size, i64)), elem_size))  # type: ignore[arg-type]
        nbytes = e.insert(xllvm.MulOp(new_cap, elem_size))  # type: ignore[arg-type]
        old = e.insert(xllvm.LoadOp(stack.data, _PTR))
        new = e.insert(_call(self._grow_helper(), [old, used, nbytes], _PTR))
        e.insert(ext.StoreOp(new, stack.data))
        e.insert(ext.StoreOp(new_cap, stack.cap))
        b.insert(xllvm.BrOp(cont))

    def _grow_helper(self) -> str:
        """`xenzyme.cache.grow(old, used, bytes)`: a buffer of `bytes` holding old's first `used`.

        Large buffers (4 MiB and more) are allocated 2 MiB-aligned and advised to use huge
        pages: a cache of tens of megabytes otherwise costs one page fault per 4 KiB every time
        the gradient runs.  Smaller ones use realloc.
        """
        name = "xenzyme.cache.grow"
        if any(isinstance(o, xllvm.FuncOp) and o.sym_name.data == name for o in self.module.ops):
            return name
        for fname, ftype in (
            ("realloc", ext.LLVMFunctionType([_PTR, i64], _PTR)),
            ("aligned_alloc", ext.LLVMFunctionType([i64, i64], _PTR)),
            ("madvise", ext.LLVMFunctionType([_PTR, i64, IntegerType(32)], IntegerType(32))),
            ("free", ext.LLVMFunctionType([_PTR], ext.LLVMVoidType())),
        ):
            ensure_declaration(self.module, fname, ftype)
        entry = Block(arg_types=[_PTR, i64, i64])
        small, large = Block(), Block()
        old, used, nbytes = entry.args
        b = Builder(InsertPoint.at_end(entry))
        big = b.insert(ext.ICmpOp(nbytes, b.insert(_const(HUGE_BUFFER)).results[0], "uge")).results[0]
        b.insert(xllvm.CondBrOp(big, large, [], small, []))
        b = Builder(InsertPoint.at_end(small))
        b.insert(xllvm.ReturnOp(b.insert(_call("realloc", [old, nbytes], _PTR)).results[0]))
        b = Builder(InsertPoint.at_end(large))
        mask = b.insert(_const(HUGE_PAGE - 1)).results[0]
        rounded = b.insert(xllvm.AndOp(b.insert(xllvm.AddOp(nbytes, mask)).results[0],
                                       b.insert(_const(-HUGE_PAGE)).results[0])).results[0]  # fmt: skip
        fresh = b.insert(_call("aligned_alloc", [b.insert(_const(HUGE_PAGE)).results[0], rounded], _PTR)).results[0]
        advice = b.insert(xllvm.ConstantOp(IntegerAttr(MADV_HUGEPAGE, 32), IntegerType(32))).results[0]
        b.insert(_call("madvise", [fresh, rounded, advice], IntegerType(32)))
        b.insert(ext.MemcpyOp([fresh, old, used]))
        b.insert(_call("free", [old], None))
        b.insert(xllvm.ReturnOp(fresh))
        fn = xllvm.FuncOp(name, ext.LLVMFunctionType([_PTR, i64, i64], _PTR),
                          linkage=xllvm.LinkageAttr("internal"), body=Region([entry, small, large]))  # fmt: skip
        self.module.body.block.add_op(fn)
        return name

    def _peek(self, op: ad.CachePeekOp, stack: _Stack | SSAValue) -> None:
        b = Builder(InsertPoint.before(op))
        e = Emitter(b, self.module)
        if not isinstance(stack, _Stack):
            v = e.insert(xllvm.LoadOp(stack, op.res.type))
        else:
            data = e.insert(xllvm.LoadOp(stack.data, _PTR))
            size = e.insert(xllvm.LoadOp(stack.size, i64))
            top = e.insert(xllvm.SubOp(size, e.insert(_const(1))))  # type: ignore[arg-type]
            slot = e.insert(ext.GEPOp(data, [ext.GEP_USE_SSA_VAL], stack.elem, [top]))
            v = e.insert(xllvm.LoadOp(slot, stack.elem, alignment=_heap_alignment(stack.elem)))
        op.res.replace_all_uses_with(v)
        _erase(op)

    def _pop(self, op: ad.CachePopOp, stack: _Stack | SSAValue) -> None:
        if isinstance(stack, _Stack):
            b = Builder(InsertPoint.before(op))
            e = Emitter(b, self.module)
            size = e.insert(xllvm.LoadOp(stack.size, i64))
            e.insert(ext.StoreOp(e.insert(xllvm.SubOp(size, e.insert(_const(1)))), stack.size))  # type: ignore[arg-type]
        _erase(op)

    def _free_at_returns(self, fn: xllvm.FuncOp, stacks: list[_Stack]) -> None:
        """At each return: free each buffer, or give it back to its pool slot and free the one
        the slot held (another activation's, or none)."""
        ensure_declaration(self.module, "free", ext.LLVMFunctionType([_PTR], ext.LLVMVoidType()))
        for block in fn.body.blocks:
            term = block.last_op
            if not isinstance(term, xllvm.ReturnOp):
                continue
            b = Builder(InsertPoint.before(term))
            for s in stacks:
                data = b.insert(xllvm.LoadOp(s.data, _PTR)).results[0]
                if s.pool is not None:
                    slot = b.insert(xllvm.AddressOfOp(s.pool, _PTR)).results[0]
                    data = b.insert(ext.AtomicRMWOp("xchg", slot, data, "acq_rel", 8)).results[0]
                b.insert(_call("free", [data], None))

    def _pool_slot(self, fn: xllvm.FuncOp, k: int) -> str:
        """An internal global `ptr` (null at start) for the k-th cache site of `fn`."""
        name = f"xenzyme.pool.{fn.sym_name.data}.{k}"
        g = xllvm.GlobalOp(_PTR, name, "internal", alignment=8)
        null = xllvm.ZeroOp.create(result_types=[_PTR])
        g.body.add_block(Block([null, xllvm.ReturnOp(null.results[0])]))
        self.module.body.block.add_op(g)
        return name

    def _take_from_pool(self, op: ad.CacheInitOp, stack: _Stack) -> None:
        """After the stack's slots are emptied: take the pool's buffer (null if none), with the
        capacity malloc gave it."""
        ensure_declaration(self.module, "malloc_usable_size", ext.LLVMFunctionType([_PTR], i64))
        e = Emitter(Builder(InsertPoint.before(op)), self.module)
        slot = e.insert(xllvm.AddressOfOp(stack.pool, _PTR))  # type: ignore[arg-type]
        null = e.insert(xllvm.ZeroOp.create(result_types=[_PTR]))
        data = e.insert(ext.AtomicRMWOp("xchg", slot, null, "acq_rel", 8))
        usable = e.insert(_call("malloc_usable_size", [data], i64))  # 0 for null
        cap = e.insert(xllvm.UDivOp(usable, self._sizeof(stack.elem, e)))  # type: ignore[arg-type]
        e.insert(ext.StoreOp(data, stack.data))
        e.insert(ext.StoreOp(cap, stack.cap))

    def _sizeof(self, t: Attribute, e: Emitter) -> SSAValue:
        null = e.insert(xllvm.ZeroOp.create(result_types=[_PTR]))
        gep = e.insert(ext.GEPOp(null, [1], t))
        return e.insert(xllvm.PtrToIntOp(gep, i64))

    # ---- accumulation -------------------------------------------------------------------

    def _accumulate(self, op: ad.AccumulateOp) -> None:
        b = Builder(InsertPoint.before(op))
        e = Emitter(b, self.module)
        t = op.delta.type
        align = op.alignment.value.data if op.alignment is not None else None
        if op.mode.data != "plain":
            self._atomic_add(op, e, op.ptr, op.delta, align)
            _erase(op)
            return
        old = e.insert(xllvm.LoadOp(op.ptr, t, alignment=align))
        e.insert(ext.StoreOp(_add(e, old, op.delta), op.ptr, alignment=align))
        _erase(op)

    def _atomic_add(self, op: ad.AccumulateOp, e: Emitter, ptr: SSAValue, delta: SSAValue, align: int | None) -> None:
        """`*ptr += delta` with `atomicrmw fadd` (monotonic, as Enzyme's atomic adjoint updates):
        per lane for vectors and per member for aggregates, each lane an atomic update of its
        own.  A `reduce` accumulation that no parallel lowering has turned into private partial
        sums is lowered the same way, which is correct wherever it runs."""
        t = delta.type
        if isinstance(t, VectorType | ext.LLVMArrayType | ext.LLVMStructType | ext.LLVMPackedStructType):
            for i, (offset, mt) in enumerate(_members(t)):
                if isinstance(t, VectorType):
                    idx = e.insert(xllvm.ConstantOp(IntegerAttr(i, 32), IntegerType(32)))
                    part = e.insert(ext.ExtractElementOp(delta, idx))
                    at = e.insert(ext.GEPOp(ptr, [i], mt)) if i else ptr
                else:
                    part = e.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), delta, mt))
                    at = e.insert(ext.GEPOp(ptr, [0, i], t)) if i else ptr
                self._atomic_add(op, e, at, part, _member_alignment(align, offset))
            return
        if not isinstance(t, Float16Type | BFloat16Type | Float32Type | Float64Type):
            name = {"f80": "x86_fp80 (long double)", "f128": "fp128"}.get(str(t), str(t))
            raise XenzymeError(
                f"cannot add to {name} memory atomically ('{op.mode.data}' accumulation of a derivative): "
                "there is no lock-free atomic add for this type",
                self._location(op),
                ["keep data that threads update concurrently in float or double, or make the update serial"],
            )
        e.insert(ext.AtomicRMWOp("fadd", ptr, delta, "monotonic", align))

    def _location(self, op: Operation) -> SourceLocation | None:
        from xenzyme.transforms.diff.errors import location_of

        src = self.module.attributes.get("llvm.source_filename")
        filename = src.data if isinstance(src, StringAttr) else None
        return location_of(op, filename) or SourceLocation(filename)


def _merge_records(fn: xllvm.FuncOp, ops: list[Operation]) -> bool:
    """Merge the caches of `fn` that are pushed once, in one block, and popped once, in one
    other block, reserved alike, into one cache of records per (push block, pop block): the
    record is pushed where the push block ends (every value pushed there is defined by then),
    popped where the last of the pops was, and each peek becomes a peek of the record and an
    `extractvalue`.  Caches of split gradients (attached in another function), single slots and
    caches whose state lives in a tape are left as they are.  Whether anything was merged."""
    groups: dict[tuple, list[tuple[ad.CacheInitOp, ad.CachePushOp, ad.CachePopOp]]] = {}
    for init in ops:
        if not isinstance(init, ad.CacheInitOp) or init.single is not None or init.storage is not None:
            continue
        uses = [use.operation for use in init.res.uses]
        pushes = [u for u in uses if isinstance(u, ad.CachePushOp)]
        pops = [u for u in uses if isinstance(u, ad.CachePopOp)]
        reserves = [u for u in uses if isinstance(u, ad.CacheReserveOp)]
        if len(pushes) != 1 or len(pops) != 1 or len(uses) != 2 + len(reserves) + sum(
            isinstance(u, ad.CachePeekOp) for u in uses
        ):
            continue
        push, pop = pushes[0], pops[0]
        at, rev = push.parent_block(), pop.parent_block()
        if at is None or rev is None or at is rev or at.last_op is None or not at.last_op.has_trait(IsTerminator):
            continue
        if any(u.parent_block() is at for u in uses if u is not push):
            continue  # (read where it is pushed: the record would come too late)
        signature = tuple(sorted((id(r.parent_block()), id(r.count)) for r in reserves))
        groups.setdefault((at, rev, signature), []).append((init, push, pop))
    merged = False
    for (at, rev, _), members in groups.items():
        if len(members) < 2:
            continue
        merged = True
        members.sort(key=lambda m: at.get_operation_index(m[1]))
        fields = [m[1].value.type for m in members]
        record_type = ext.LLVMStructType.from_type_list(fields)
        first = members[0][0]
        new = ad.CacheInitOp(record_type)
        first.parent_block().insert_op_before(new, first)  # type: ignore[union-attr]
        # The record, where the push block ends.
        term = at.last_op
        assert term is not None
        b = Builder(InsertPoint.before(term))
        record = b.insert(xllvm.UndefOp(record_type)).results[0]
        for i, (_, push, _) in enumerate(members):
            record = b.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), record, push.value)).results[0]
        b.insert(ad.CachePushOp(new.res, record))
        # One pop, where the last pop was.
        last_pop = max((m[2] for m in members), key=rev.get_operation_index)
        rev.insert_op_after(ad.CachePopOp(new.res), last_pop)
        for i, (init, _, _) in enumerate(members):
            for use in list(init.res.uses):
                user = use.operation
                if isinstance(user, ad.CachePeekOp):
                    b = Builder(InsertPoint.before(user))
                    whole = b.insert(ad.CachePeekOp(new.res)).results[0]
                    field = b.insert(xllvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), whole, fields[i]))
                    user.res.replace_all_uses_with(field.results[0])
                    _erase(user)
                elif isinstance(user, ad.CacheReserveOp) and init is first:
                    user.operands[0] = new.res
                else:
                    _erase(user)
            _erase(init)
    return merged


def _add(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """a + b for floats, float vectors and aggregates of them (members without derivatives,
    an int beside a double, keep `a`'s value)."""
    from xenzyme.analysis.activity import carries_derivative

    t = a.type
    if isinstance(t, ext.LLVMStructType | ext.LLVMArrayType | ext.LLVMPackedStructType):
        n = t.size.data if isinstance(t, ext.LLVMArrayType) else len(t.types.data)
        acc = a
        for i in range(n):
            pos = DenseArrayBase.from_list(i64, [i])
            mt = t.type if isinstance(t, ext.LLVMArrayType) else t.types.data[i]
            if not carries_derivative(mt):
                continue
            x = e.insert(xllvm.ExtractValueOp(pos, a, mt))
            y = e.insert(xllvm.ExtractValueOp(pos, b, mt))
            acc = e.insert(xllvm.InsertValueOp(pos, acc, _add(e, x, y)))
        return acc
    return e.add(a, b)


def _members(t: Attribute) -> list[tuple[int | None, Attribute]]:
    """(byte offset when known, type) of each lane of a vector or member of an aggregate."""
    from xenzyme.analysis.types import size_align, struct_layout

    if isinstance(t, VectorType | ext.LLVMArrayType):
        elem = t.element_type if isinstance(t, VectorType) else t.type
        n = t.get_shape()[0] if isinstance(t, VectorType) else t.size.data
        sa = size_align(elem)
        return [(i * sa[0] if sa else None, elem) for i in range(n)]
    layout = struct_layout(t)
    types = list(t.types.data)  # type: ignore[attr-defined]
    return [(layout[0][i] if layout else None, m) for i, m in enumerate(types)]


def _member_alignment(align: int | None, offset: int | None) -> int | None:
    """The alignment known for a member at `offset` of memory aligned to `align`."""
    if align is None:
        return None
    if offset is None:
        return 1
    return align if offset == 0 else min(align, offset & -offset)


def _heap_alignment(t: Attribute) -> int:
    """Alignment for elements of a realloc'd buffer: natural, but at most malloc's 16 bytes."""
    from xenzyme.analysis.types import leaf_types

    if isinstance(t, VectorType):
        n = t.get_shape()[0] * _scalar_bytes(t.element_type)
    else:
        n = max((_scalar_bytes(x) for x in leaf_types(t)), default=8)
    align = 1
    while align < n and align < 16:
        align *= 2
    return align


def _scalar_bytes(t: Attribute) -> int:
    from xdsl.dialects.builtin import AnyFloat, IntegerType

    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, AnyFloat):
        return t.bitwidth // 8
    return 8


def _forward_differentiated(module: ModuleOp) -> set[str]:
    """Functions that a forward-mode request reaches through direct calls."""
    calls: dict[str, set[str]] = {}
    todo: list[str] = []
    for fn in module.ops:
        if isinstance(fn, xllvm.FuncOp):
            callees = calls.setdefault(fn.sym_name.data, set())
            for op in fn.walk():
                if isinstance(op, xllvm.CallOp) and op.callee is not None:
                    callees.add(op.callee.string_value())
                elif isinstance(op, ad.FwdDiffOp):
                    todo.append(op.callee.string_value())
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(calls.get(name, ()))
    return seen


def _erase(op: Operation) -> None:
    op.detach()
    op.erase()


def _call(callee: str, args: list[SSAValue], rtype: Attribute | None) -> Operation:
    from xenzyme.rules.emitter import call_op as make_call

    return make_call(callee, args, rtype)


@dataclass(frozen=True)
class LowerAutodiffPass(ModulePass):
    """Lower `autodiff` caches and accumulations to the `llvm` dialect."""

    name = "lower-autodiff"

    reuse_caches: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        Lowering(op, self.reuse_caches).run()
