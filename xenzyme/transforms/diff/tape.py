"""Split mode's tape: what joins a function's augmented forward function to its reverse one.

The two sweeps of a gradient become two functions, `@augmented_f` and `@reverse_f`.  The tape
holds the state of every cache of the gradient, one field each, laid out once all caches are
known; the augmented function malloc's it and returns it beside its result, the reverse one
attaches its caches to the same fields and frees it.  For a request whose tape lives in the
caller's buffer (`enzyme_allocated`) the augmented function takes the buffer instead, and
`autodiff.augmentsize` is the tape's size.

The augmented function returns `{result, shadow of a duplicated pointer result, tape}`; which
return it left by, and the loop counters there, go on the tape too: the reverse function starts
its sweep from that return, in those iterations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i8, i32, i64
from xdsl.ir import Attribute, Block, SSAValue
from xdsl.rewriter import InsertPoint

from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules.emitter import call_op, ensure_declaration

if TYPE_CHECKING:
    from xenzyme.transforms.diff.builder import GradientBuilder


def augmented_fields(ftype: ext.LLVMFunctionType, ret_activity: str) -> list[Attribute]:
    """Fields of an augmented forward function's result: the primal result (if any), its
    shadow (for a duplicated pointer result), and the tape."""
    out = ftype.output
    fields: list[Attribute] = []
    if not isinstance(out, ext.LLVMVoidType):
        fields.append(out)
        if ret_activity == "dup":
            fields.append(out)
    fields.append(ext.LLVMPointerType())
    return fields


class Tape:
    def __init__(self, g: GradientBuilder, in_buffer: bool):
        self.g = g
        self.in_buffer = in_buffer
        """The tape is in the caller's memory: the augmented function takes it as its last
        argument instead of allocating it, and the reverse function does not free it."""
        self.type: Attribute | None = None
        """The tape's layout, once `lay_out` made it."""
        self.ptr: SSAValue | None = None
        """The tape in the augmented function."""
        self.tape_in: SSAValue | None = None
        """The tape in the reverse function (its last parameter)."""

    def allocate(self) -> None:
        """The augmented function's tape: one heap block, whose size `lay_out` fills in."""
        g = self.g
        if self.in_buffer:
            self.ptr = g.g_entry.args[-1]
            self.ptr.name_hint = "tape"
            return
        self.size = xllvm.ConstantOp(IntegerAttr(0, i64), i64)
        self.malloc = call_op("malloc", [self.size.result], ext.LLVMPointerType())
        self.malloc.results[0].name_hint = "tape"
        self.ptr = self.malloc.results[0]
        ensure_declaration(g.module, "malloc", ext.LLVMFunctionType([i64], ext.LLVMPointerType()))
        ensure_declaration(g.module, "free", ext.LLVMFunctionType([ext.LLVMPointerType()], ext.LLVMVoidType()))
        g.fwd_entry_ops += [self.size, self.malloc]

    def lay_out(self) -> None:
        """Each cache's state is a field of the tape: give inits and attaches their field."""
        g = self.g
        caches = g.caching.all_caches
        fields = [ad.cache_storage_type(c.init.res.type.element_type, c.init.single is not None)  # type: ignore[attr-defined]
                  for c in caches]  # fmt: skip
        self.type = tape_type = ext.LLVMStructType.from_type_list(fields or [i8])
        if not self.in_buffer:
            null = xllvm.ZeroOp.create(result_types=[ext.LLVMPointerType()])
            end = ext.GEPOp(null.results[0], [1], tape_type)
            size = xllvm.PtrToIntOp(end.result, i64)
            self.malloc.operands = (size.results[0],)
            g.fwd_entry_ops[: g.fwd_entry_ops.index(self.malloc)] = [null, end, size]
        assert self.ptr is not None and self.tape_in is not None
        for k, cache in enumerate(caches):
            store_fwd = ext.GEPOp(self.ptr, [0, k], tape_type)
            g.fwd_entry_ops.insert(g.fwd_entry_ops.index(cache.init), store_fwd)
            cache.init.operands = (store_fwd.result,)
            attach = cache.handle.owner
            assert isinstance(attach, ad.CacheAttachOp)
            store_rev = ext.GEPOp(self.tape_in, [0, k], tape_type)
            g.rev_entry_ops.insert(g.rev_entry_ops.index(attach), store_rev)
            attach.operands = (store_rev.result,)

    def free(self) -> None:
        """The tape and the caches on it end with the reverse function (after the pops: the
        last of them may be in the entry's reverse)."""
        g = self.g
        ret = g.R[g.cfg.entry].last_op
        assert isinstance(ret, xllvm.ReturnOp)
        b = Builder(InsertPoint.before(ret))
        for cache in g.caching.all_caches:
            if cache.init.single is None:
                b.insert(ad.CacheFreeOp(cache.handle))
        if not self.in_buffer:
            assert self.tape_in is not None
            b.insert(call_op("free", [self.tape_in], None))

    def augmented_return(self, b: Block, term: xllvm.ReturnOp, builder: Builder) -> None:
        """Return {result, its shadow, tape}, recording which return this was and the loop
        counters there, which the reverse function starts from."""
        g = self.g
        e = g.e
        if len(g.ret_blocks) > 1:
            k = g.ret_blocks.index(b)
            token = e.insert(xllvm.ConstantOp(IntegerAttr(k, i32), i32))
            e.insert(ad.CachePushOp(g.caching.keyed(("return",), i32).init.res, token))
        for lp in g.cfg.loops_of(b):
            e.insert(ad.CachePushOp(g.caching.keyed(("return-iv", b, lp), i64).init.res, g.sweeps.iv[lp]))
        fields = augmented_fields(g.fn.function_type, g.ret_activity)
        values: list[SSAValue] = []
        if term.arg is not None:
            values.append(g.fwd(term.arg))
            if g.ret_activity == "dup":
                if term.arg not in g.info.shadowed and not isinstance(term.arg.owner, xllvm.ZeroOp):
                    g.fail(term, "the caller needs a shadow of the pointer returned here, and none is known: it does "
                                 "not point into memory that has one (an argument without a shadow, or memory of "
                                 "unknown origin)",
                           ["pass the memory this pointer comes from with a shadow (enzyme_dup)"])  # fmt: skip
                values.append(g.fwd_shadow(term.arg))
        assert self.ptr is not None
        values.append(self.ptr)
        st = ext.LLVMStructType.from_type_list(fields)
        acc = e.insert(xllvm.UndefOp(st))
        for i, v in enumerate(values):
            acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, v))
        builder.insert(xllvm.ReturnOp(acc))

    def reverse_entry(self) -> None:
        """Start the reverse sweep at the return the forward sweep took, with the loop counters
        it had there."""
        g = self.g
        targets: list[Block] = []
        for b in g.ret_blocks:
            start = Block()
            g.sweeps.reverse_blocks.append(start)
            g.at(b, start)
            for lp in g.cfg.loops_of(b):
                riv = g.e.insert(ad.CachePeekOp(g.caching.keyed(("return-iv", b, lp), i64).handle))
                g.e.insert(ext.StoreOp(riv, g.sweeps.riv_slot(lp)))
            g.e.insert(xllvm.BrOp(g.sweeps.rblock(b)))
            targets.append(start)
        builder = Builder(InsertPoint.at_end(g.r_entry))
        if not targets:
            builder.insert(xllvm.UnreachableOp())
        elif len(targets) == 1:
            builder.insert(xllvm.BrOp(targets[0]))
        else:
            token = builder.insert(ad.CachePeekOp(g.caching.keyed(("return",), i32).handle)).results[0]
            builder.insert(ext.SwitchOp(token, targets[0], [], [(k, t, []) for k, t in enumerate(targets) if k]))
