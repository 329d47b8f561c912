"""What a rule may ask of the differentiation engine, and what a rule is.

A rule never decides how the engine keeps its books: how a primal value reaches the reverse
sweep (used as it is, recomputed, or cached), where adjoints live, how a called function is
differentiated.  It asks, through the context it is given, for exactly what it needs.

`OpRule` bundles an op's behaviour in the three places the engine visits it:

* `augment` -- the forward sweep of reverse mode: after the engine copied the op, give its
  pointer results shadows (and mirror writes of pointers into shadow memory);
* `reverse` -- the reverse sweep: add the op's adjoint contributions;
* `tangent` -- forward mode: after the engine copied the op, set its results' tangents.

`emits_primal` says that the hooks emit the op themselves instead of the engine's copy (a call
replaced by a call of a derivative function, debug records left out).  `recomputable` says
that the reverse sweep may repeat the op rather than cache its results (it has no effect and
gives the same results from the same operands, as a thread's number does).  An op without a rule is
copied, needs nothing in the reverse sweep, and is an error wherever a result of it would need
a derivative or a shadow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

from xdsl.ir import Attribute, Operation, SSAValue

if TYPE_CHECKING:
    from xenzyme.rules.emitter import LLVMEmitter


class _Common(Protocol):
    e: LLVMEmitter
    """Builds at the current point of the derivative function."""

    def fail(self, op: Operation, message: str, notes: Sequence[str] = ()) -> NoReturn:
        """Stop with an error about `op`, naming the function being differentiated."""
        ...

    def active(self, v: SSAValue) -> bool:
        """Whether value `v` carries a derivative."""
        ...

    def shadowed(self, v: SSAValue) -> bool:
        """Whether pointer `v` has a shadow: memory behind it may hold derivatives."""
        ...


class AugmentContext(_Common, Protocol):
    """The forward sweep of reverse mode, where the op's copy was just emitted."""

    def fwd(self, v: SSAValue) -> SSAValue:
        """The forward-sweep copy of primal value `v`."""
        ...

    def fwd_shadow(self, p: SSAValue) -> SSAValue:
        """The forward-sweep shadow of primal pointer `p` (an inactive pointer is its own)."""
        ...

    def set_shadow(self, p: SSAValue, shadow: SSAValue) -> None:
        """Record the forward-sweep shadow of the primal pointer result `p`."""
        ...

    def copy(self, op: Operation) -> Operation:
        """Emit the op's forward-sweep copy (for rules that `emits_primal`)."""
        ...

    def save(self, key: object, value: SSAValue) -> None:
        """Keep a forward-sweep value for the reverse sweep (`ReverseContext.restore`)."""
        ...

    def stack_slot(self, t: Attribute, key: object = None) -> SSAValue:
        """A stack slot of type `t` in the entry of the function being built (the same slot for
        the same `key`, in each function: the forward and reverse ones of split mode)."""
        ...

    def team_memory(self) -> SSAValue | None:
        """In code run by every thread of a team (a parallel region's derivative): memory the
        team shares while the region runs, for collective operations; None elsewhere."""
        ...


class ReverseContext(_Common, Protocol):
    """The reverse sweep, at the op's place in it."""

    def get(self, v: SSAValue) -> SSAValue:
        """The primal value `v` as it was in the forward sweep, usable here."""
        ...

    def shadow(self, p: SSAValue) -> SSAValue:
        """The shadow of primal pointer `p`, usable here."""
        ...

    def adjoint(self, v: SSAValue) -> SSAValue | None:
        """Take the adjoint accumulated for result `v` (None if `v` is inactive)."""
        ...

    def accumulate(self, v: SSAValue, delta: SSAValue) -> None:
        """Add `delta` to the adjoint of primal value `v` (ignored if inactive)."""
        ...

    def accumulate_memory(self, shadow_ptr: SSAValue, delta: SSAValue, alignment: int | None = None,
                          primal: SSAValue | None = None) -> None:
        """Add `delta` to shadow memory at `shadow_ptr` (aligned like the primal access; `primal`,
        the primal pointer, lets the engine see whether other threads may add there too)."""
        ...

    def restore(self, key: object) -> SSAValue:
        """The value the forward sweep kept under `key` (`AugmentContext.save`)."""
        ...

    def shared(self, p: SSAValue) -> bool:
        """Whether other threads of a team may add into the shadow of what `p` points to too
        (additions there must be atomic)."""
        ...

    def stack_slot(self, t: Attribute, key: object = None) -> SSAValue:
        """A stack slot in the entry of the function being built (see AugmentContext)."""
        ...

    def team_memory(self) -> SSAValue | None:
        """See AugmentContext.team_memory."""
        ...


class ForwardContext(_Common, Protocol):
    """Forward mode, where the op's copy was just emitted."""

    width: int
    """Directions computed at once: each active value has `width` tangents."""

    def get(self, v: SSAValue) -> SSAValue:
        """The primal value `v`, as computed in the derivative function."""
        ...

    def tangent(self, v: SSAValue) -> list[SSAValue]:
        """The `width` tangents of `v` (zeros when `v` is inactive; the shadows of a pointer)."""
        ...

    def set_tangent(self, v: SSAValue, tangents: Sequence[SSAValue]) -> None:
        """Record the tangents of the result `v`."""
        ...


ReverseRule = Callable[[ReverseContext, Operation], None]
AugmentRule = Callable[[AugmentContext, Operation], None]
ForwardRule = Callable[[ForwardContext, Operation], None]


@dataclass(frozen=True)
class OpRule:
    """An op's derivative in both modes (see the module docstring); None: the default."""

    reverse: ReverseRule | None = None
    augment: AugmentRule | None = None
    tangent: ForwardRule | None = None
    emits_primal: bool = False
    recomputable: bool = False

    def merged(self, other: OpRule) -> OpRule:
        """This rule with the hooks `other` has and this one lacks."""
        pick: Callable[[Any, Any], Any] = lambda a, b: a if a is not None else b  # noqa: E731
        return OpRule(pick(self.reverse, other.reverse), pick(self.augment, other.augment),
                      pick(self.tangent, other.tangent), self.emits_primal or other.emits_primal,
                      self.recomputable or other.recomputable)  # fmt: skip
