"""The two sweeps of a gradient over the blocks of a function's body.

The forward sweep is a copy of the primal's blocks: each op goes through its rule's forward
part (`OpRule.augment`: the copy and the shadows of pointer results), and control flow records
what the reverse sweep needs to retrace it -- at a block that several edges enter, which one
was taken (a *token*, cached); in each natural loop, a counter of iterations, whose final value
is kept where the loop exits.

The reverse sweep visits the primal blocks backwards: a block's ops in reverse order, each
through its rule's reverse part, then the edge back to the predecessor control came from --
chosen by the loop counter at loop headers (counting down) and by the token elsewhere.  The
adjoints of a block's arguments (phis) flow to the values the chosen edge passed.

The sweep never names an op: what an op does in each sweep is its rule's (`xenzyme.rules`);
how a primal value reaches the reverse sweep is the cache policy's (`caching.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, i8, i32, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.traits import IsTerminator

from xenzyme.analysis.cfg import Loop
from xenzyme.dialects import autodiff as ad
from xenzyme.dialects import llvm_ext as ext
from xenzyme.rules import needs_rule, rule_for
from xenzyme.rules.emitter import LLVMEmitter

if TYPE_CHECKING:
    from xenzyme.transforms.diff.builder import GradientBuilder


class Sweeps:
    """The forward and reverse sweeps of one gradient, and the control-flow state they share."""

    def __init__(self, g: GradientBuilder):
        self.g = g
        self.iv: dict[Loop, SSAValue] = {}
        """Each loop's iteration counter in the forward sweep (a header argument)."""
        self.iv_next: dict[tuple[Block, Loop], SSAValue] = {}
        self.token: dict[Block, SSAValue] = {}
        """Which predecessor entered a block, where several may (a block argument)."""
        self.riv_slots: dict[Loop, SSAValue] = {}
        """Each loop's iteration counter in the reverse sweep (a stack slot, counting down)."""
        self.exit_blocks: list[Block] = []
        """Forward-sweep blocks on the edges leaving loops (they keep the final counters)."""
        self.exit_edges: dict[Loop, list[Block]] = {}
        self.entry_edges: dict[Loop, list[Block]] = {}
        """Reverse-sweep blocks of the edges that enter each loop (where its reverse ends)."""
        self.reverse_blocks: list[Block] = []

    # ---- forward sweep --------------------------------------------------------------------

    def _needs_token(self, b: Block) -> bool:
        cfg = self.g.cfg
        preds = cfg.preds[b]
        if len(preds) <= 1:
            return False
        lp = cfg.loop_of.get(b)
        if lp is not None and lp.header is b and len(lp.entering) == 1 and len(lp.latches) == 1:
            return False
        return True

    def _token_type(self, b: Block) -> Attribute:
        return i8 if len(self.g.cfg.preds[b]) < 128 else i32

    def forward(self) -> None:
        g = self.g
        cfg = g.cfg
        g.F[cfg.entry] = g.g_entry
        for b in cfg.rpo[1:]:
            fb = Block(arg_types=[a.type for a in b.args])
            for a, fa in zip(b.args, fb.args, strict=True):
                g.values[a] = fa
                if a.name_hint:
                    fa.name_hint = a.name_hint
            for a in b.args:
                if a in g.info.shadowed:
                    g.shadows[a] = fb.insert_arg(a.type, len(fb.args))
            if self._needs_token(b):
                self.token[b] = fb.insert_arg(self._token_type(b), len(fb.args))
            lp = cfg.loop_of.get(b)
            if lp is not None and lp.header is b:
                self.iv[lp] = fb.insert_arg(i64, len(fb.args))
                self.iv[lp].name_hint = "iv"
            g.F[b] = fb
        for b in cfg.rpo:
            if isinstance(b.last_op, ext.InvokeOp) and any(
                not u.operation.has_trait(IsTerminator) for r in b.last_op.results for u in r.uses
            ):  # (terminators are copied after every block's body: their results come too late)
                g.fail(b.last_op, "the result of an `invoke` (a call that may throw a C++ exception) is used; "
                                  "exception handling is not supported in reverse mode",
                       ["compile with -fno-exceptions, or declare the called functions noexcept"])  # fmt: skip
        for b in cfg.rpo:
            g.e = LLVMEmitter(Builder(InsertPoint.at_end(g.F[b])), g.module)
            g.fwd_block = b
            for op in list(b.ops)[:-1]:
                self._forward_op(op)
        g.fwd_block = None
        for b in cfg.rpo:
            self._forward_terminator(b)
        for b, tok in self.token.items():
            g.caching.register(("token", b), tok, b)

    def _forward_op(self, op: Operation) -> None:
        g = self.g
        rule = rule_for(op)
        if rule is None and needs_rule(op) and any(v in g.info.varied or v in g.info.shadowed
                                                   for v in (*op.operands, *op.results)):  # fmt: skip
            g.fail(op, f"no derivative rule for '{op.name}'",
                   ["this operation takes or makes values that carry derivatives; mark them enzyme_const, "
                    "or keep the operation out of the differentiated code"])  # fmt: skip
        if rule is None or not rule.emits_primal:
            g.copy(op)
        if rule is not None and rule.augment is not None:
            rule.augment(g, op)
            return
        if any(g.shadowed(r) for r in op.results):
            g.fail(op, "this instruction produces a pointer to active memory, which is not supported here",
                   ["calls returning pointers and pointer arithmetic through integers are not supported yet"])  # fmt: skip

    def _forward_terminator(self, b: Block) -> None:
        g = self.g
        term = b.last_op
        assert term is not None
        builder = Builder(InsertPoint.at_end(g.F[b]))
        g.e = LLVMEmitter(builder, g.module)
        if isinstance(term, xllvm.ReturnOp):
            if g.split:
                g.tape.augmented_return(b, term, builder)
                return
            # Returning from inside loops: the reverse sweep starts in their current iteration.
            for lp in g.cfg.loops_of(b):
                builder.insert(ext.StoreOp(self.iv[lp], self.riv_slot(lp)))
            builder.insert(xllvm.BrOp(self.rblock(b)))
            return
        if isinstance(term, xllvm.UnreachableOp):
            builder.insert(xllvm.UnreachableOp())
            return
        if not isinstance(term, xllvm.BrOp | xllvm.CondBrOp | ext.SwitchOp):
            g.fail(term, f"'{term.name}' is not supported in differentiated code",
                   ["exception handling (invoke/landingpad) cannot be differentiated"])  # fmt: skip
        edges = []
        for dest, args in ext.successor_operands(term):
            edges.append(self._forward_edge(b, dest, args))
        if isinstance(term, xllvm.BrOp):
            builder.insert(xllvm.BrOp(edges[0][0], *edges[0][1]))
        elif isinstance(term, xllvm.CondBrOp):
            (td, ta), (fd, fa) = edges
            builder.insert(xllvm.CondBrOp(g.fwd(term.cond), td, ta, fd, fa))
        else:
            assert isinstance(term, ext.SwitchOp)
            cases = [(v, d, a) for (v, _, _), (d, a) in zip(term.cases(), edges[1:], strict=True)]
            builder.insert(ext.SwitchOp(g.fwd(term.value), edges[0][0], edges[0][1], cases))

    def _forward_edge(self, b: Block, dest: Block, args: Sequence[SSAValue]) -> tuple[Block, list[SSAValue]]:
        g = self.g
        cfg = g.cfg
        e = g.e
        values = [g.fwd(a) for a in args]
        values += [g.fwd_shadow(a) for a, da in zip(args, dest.args, strict=True) if da in g.info.shadowed]
        if dest in self.token:
            k = cfg.preds[dest].index(b)
            values.append(e.insert(xllvm.ConstantOp(IntegerAttr(k, self._token_type(dest)), self._token_type(dest))))
        lp = cfg.loop_of.get(dest)
        if lp is not None and lp.header is dest:
            if b in lp.blocks:
                values.append(self._iv_next(b, lp))
            else:
                values.append(e.i64(0))
        exited = cfg.exited_loops(b, dest)
        if not exited:
            return g.F[dest], values
        # Leaving loops: remember how many iterations each ran (its counter's last value).
        edge = Block()
        self.exit_blocks.append(edge)
        eb = Builder(InsertPoint.at_end(edge))
        for lp in exited:
            self.exit_edges.setdefault(lp, []).append(edge)
            eb.insert(ad.CachePushOp(g.caching.limit_cache(lp).init.res, self.iv[lp]))
        eb.insert(xllvm.BrOp(g.F[dest], *values))
        return edge, []

    def _iv_next(self, b: Block, lp: Loop) -> SSAValue:
        key = (b, lp)
        if key not in self.iv_next:
            e = self.g.e
            one = e.i64(1)
            self.iv_next[key] = e.insert(xllvm.AddOp(self.iv[lp], one))  # type: ignore[arg-type]
        return self.iv_next[key]

    # ---- reverse sweep --------------------------------------------------------------------

    def rblock(self, b: Block) -> Block:
        """The reverse-sweep block of primal block `b`."""
        g = self.g
        if b not in g.R:
            g.R[b] = Block()
        return g.R[b]

    def reverse(self) -> None:
        for b in reversed(self.g.cfg.rpo):
            rb = self.rblock(b)
            self.reverse_blocks.append(rb)
            self._reverse_block(b, rb)
        if self.g.split:
            self.g.tape.reverse_entry()

    def _reverse_block(self, b: Block, rb: Block) -> None:
        g = self.g
        g.at(b, rb)
        term = b.last_op
        if isinstance(term, xllvm.ReturnOp) and term.arg is not None and g.seed is not None:
            g.accumulate(term.arg, g.seed)
        for op in reversed(list(b.ops)[:-1]):
            self._reverse_op(op)
        if b is g.cfg.entry:
            self._return_gradient()
            return
        d_args = [g.adjoint(a) for a in b.args]
        preds = g.cfg.preds[b]
        edges = {p: Block() for p in preds}
        e = g.e
        lp = g.cfg.loop_of.get(b)
        if len(preds) == 1:
            e.insert(xllvm.BrOp(edges[preds[0]]))
        elif b not in self.token:
            assert lp is not None and lp.header is b
            riv = e.insert(xllvm.LoadOp(self.riv_slot(lp), i64))
            more = e.insert(ext.ICmpOp(riv, e.i64(0), "ne"))
            e.insert(xllvm.CondBrOp(more, edges[lp.latches[0]], [], edges[lp.entering[0]], []))
        else:
            tok = g.caching.peek(("token", b))
            cases = [(k, edges[p], []) for k, p in enumerate(preds) if k > 0]
            e.insert(ext.SwitchOp(tok, edges[preds[0]], [], cases))
        for p, edge in edges.items():
            self._edge_block(b, p, edge, d_args)

    def _reverse_op(self, op: Operation) -> None:
        g = self.g
        rule = rule_for(op)
        if rule is not None and rule.reverse is not None:
            rule.reverse(g, op)
            return
        if any(g.active(r) for r in op.results):
            g.fail(op, f"no derivative rule for '{op.name}'",
                   ["rewrite this computation with supported operations, or mark the values it uses enzyme_const"])  # fmt: skip

    def _edge_block(self, b: Block, p: Block, edge: Block, d_args: list[SSAValue | None]) -> None:
        """Reverse of the edge p -> b: loop counters, then the phi adjoints flow to p's values."""
        g = self.g
        self.reverse_blocks.append(edge)
        g.at(p, edge)
        e = g.e
        cfg = g.cfg
        if cfg.is_back_edge(p, b):
            lp = cfg.loop_of[b]
            assert lp is not None
            while lp.header is not b:
                lp = lp.parent  # type: ignore[assignment]
            slot = self.riv_slot(lp)
            riv = e.insert(xllvm.LoadOp(slot, i64))
            e.insert(ext.StoreOp(e.insert(xllvm.SubOp(riv, e.i64(1))), slot))  # type: ignore[arg-type]
        if not cfg.is_back_edge(p, b) and (entered := cfg.loop_of.get(b)) is not None and entered.header is b:
            self.entry_edges.setdefault(entered, []).append(edge)
        for lp in cfg.exited_loops(p, b):
            cache = g.caching.limit_cache(lp).handle
            limit = e.insert(ad.CachePeekOp(cache))
            e.insert(ad.CachePopOp(cache))
            e.insert(ext.StoreOp(limit, self.riv_slot(lp)))
        incoming = cfg.incoming(b, p)
        for v, d in zip(incoming, d_args, strict=True):
            if d is not None:
                g.accumulate(v, d)
        e.insert(xllvm.BrOp(self.rblock(p)))

    def _return_gradient(self) -> None:
        g = self.g
        g.add_partials()
        e = g.e
        grads = [g.adjoint(a) or e.zero(a.type) for a in g.active_args]
        if not grads:
            e.insert(xllvm.ReturnOp())
        elif len(grads) == 1:
            e.insert(xllvm.ReturnOp(grads[0]))
        else:
            st = ad.derivative_result_type([gr.type for gr in grads])
            acc = e.insert(xllvm.UndefOp(st))
            for i, gr in enumerate(grads):
                acc = e.insert(xllvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, gr))
            e.insert(xllvm.ReturnOp(acc))

    def riv_slot(self, lp: Loop) -> SSAValue:
        """The stack slot of `lp`'s reverse counter (made in the reverse entry)."""
        slot = self.riv_slots.get(lp)
        if slot is None:
            one = xllvm.ConstantOp(IntegerAttr(1, i64), i64)
            alloca = xllvm.AllocaOp.create(operands=[one.result], result_types=[ext.LLVMPointerType()], properties={"elem_type": i64})
            alloca.res.name_hint = "riv"
            self.g.rev_entry_ops += [one, alloca]
            self.riv_slots[lp] = slot = alloca.res
        return slot
