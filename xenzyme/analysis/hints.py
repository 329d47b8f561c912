"""What a program says about its own functions' derivatives, in Enzyme's C conventions.

Globals whose names start with these prefixes hold function addresses (the attribute forms
need a clang that knows them; these survive plain clang):

    void *__enzyme_register_gradient_NAME[] = {fn, augment, gradient};
        // augment(args) -> void *tape            (fn returns void)
        //               -> {void *tape; T result} (fn returns T)
        // gradient(args, [T differet,] void *tape) -> derivatives of the float arguments
        // (args: fn's arguments, each pointer followed by its shadow)
    void *__enzyme_register_derivative_NAME[] = {fn, derivative};   // forward mode
        // derivative(args) -> {T result; T tangent} (fn returns T), or void
        // (args: fn's arguments, each float or pointer followed by its tangent or shadow)
    void *__enzyme_function_like[] = {fn, "log1p"};   // differentiate fn as libm's log1p
    void *__enzyme_inactivefn[] = {fn, ...};          // fn has no derivative
    void *__enzyme_allocation_like[4] = {alloc, (void *)SIZE, (void *)"-1,2", release};
        // alloc returns fresh memory of as many bytes as its argument SIZE says (0-based);
        // release frees it, called with the arguments the string lists in order: -1 for the
        // pointer alloc returned, k for alloc's argument k

Reading them is an analysis: passes ask `Hints.of(module)` and decide what to do (the rewrite
that keeps the hinted functions from being inlined is `transforms.llvm_opt.keep_hinted_calls`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation

REGISTER_GRADIENT = "__enzyme_register_gradient"
REGISTER_DERIVATIVE = "__enzyme_register_derivative"
FUNCTION_LIKE = "__enzyme_function_like"
INACTIVE_FN = "__enzyme_inactivefn"
ALLOCATION_LIKE = "__enzyme_allocation_like"


@dataclass(frozen=True)
class CustomGradient:
    """A user's augmented forward function and gradient for `function`."""

    function: str
    augment: str
    gradient: str
    declared_in: str
    """The global that registers them (for error messages)."""


@dataclass(frozen=True)
class CustomDerivative:
    """A user's forward-mode derivative of `function`."""

    function: str
    derivative: str
    declared_in: str


@dataclass(frozen=True)
class CustomAllocator:
    """A function the program says allocates (`__enzyme_allocation_like`), and its release."""

    function: str
    size_arg: int
    deallocator: str
    dealloc_args: tuple[int, ...]
    """What `deallocator` is called with, in order: -1 the pointer, k the allocation's argument k."""
    declared_in: str


@dataclass
class Hints:
    gradients: dict[str, CustomGradient] = field(default_factory=dict)
    derivatives: dict[str, CustomDerivative] = field(default_factory=dict)
    like: dict[str, str] = field(default_factory=dict)
    """Function -> the libm function whose derivative it has."""
    inactive: set[str] = field(default_factory=set)
    allocators: dict[str, CustomAllocator] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)
    """(global, what is wrong with it): registrations that cannot be read."""

    @property
    def functions(self) -> set[str]:
        """Every function a hint is about (they must stay calls: not inlined)."""
        allocation = set(self.allocators) | {a.deallocator for a in self.allocators.values()}
        return set(self.gradients) | set(self.derivatives) | set(self.like) | self.inactive | allocation

    @property
    def deallocators(self) -> dict[str, CustomAllocator]:
        """The release functions of custom allocators, by name."""
        return {a.deallocator: a for a in self.allocators.values()}

    @staticmethod
    def of(module: ModuleOp) -> Hints:
        hints = Hints()
        strings = {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.GlobalOp)}
        for g in strings.values():
            name = g.sym_name.data
            if not name.startswith(("__enzyme_", "_enzyme_")):
                continue
            symbols = _addresses(g)
            if name.startswith(REGISTER_GRADIENT) and len(symbols) == 3:
                fn, aug, grad = symbols
                hints.gradients[fn] = CustomGradient(fn, aug, grad, name)
            elif name.startswith(REGISTER_DERIVATIVE) and len(symbols) == 2:
                hints.derivatives[symbols[0]] = CustomDerivative(symbols[0], symbols[1], name)
            elif name.startswith(FUNCTION_LIKE) and len(symbols) == 2:
                text = _string(strings.get(symbols[1]))
                if text is not None:
                    hints.like[symbols[0]] = text
            elif name.startswith(INACTIVE_FN):
                hints.inactive.update(symbols)
            elif name.startswith(ALLOCATION_LIKE):
                _allocation_like(hints, g, strings)
        return hints


def _allocation_like(hints: Hints, g: xllvm.GlobalOp, strings: dict[str, xllvm.GlobalOp]) -> None:
    """`{alloc, (void *)SIZE, "dealloc args", release}`: read, or a problem recorded."""
    name = g.sym_name.data
    fields = _fields(g)
    alloc, size, which, release = (fields.get(i) for i in range(4))
    if not isinstance(alloc, xllvm.AddressOfOp) or not isinstance(release, xllvm.AddressOfOp):
        hints.problems.append((name, "its first and last entries must be functions (the allocator and its release)"))
        return
    index = _integer(size)
    if index is None:
        hints.problems.append((name, "its second entry must be the index of the size argument, (void *)N"))
        return
    text = _string(strings.get(which.global_name.string_value())) if isinstance(which, xllvm.AddressOfOp) else None
    try:
        args = tuple(int(t) for t in text.split(",")) if text is not None else None
    except ValueError:
        args = None
    if not args or -1 not in args:
        hints.problems.append((name, "its third entry must be a string of the release function's arguments, "
                                     "\"-1\" for the allocated pointer and k for the allocator's argument k (\"-1\", \"2,-1\")"))  # fmt: skip
        return
    fn = alloc.global_name.string_value()
    hints.allocators[fn] = CustomAllocator(fn, index, release.global_name.string_value(), args, name)


def _fields(g: xllvm.GlobalOp) -> dict[int, Operation]:
    """The ops giving each element of an array initialiser (an `insertvalue` chain)."""
    out: dict[int, Operation] = {}
    if not g.body.blocks:
        return out
    for op in g.body.block.ops:
        if isinstance(op, xllvm.InsertValueOp):
            pos = tuple(op.position.get_values())
            value = op.value.owner
            if len(pos) == 1 and isinstance(value, Operation):
                out[pos[0]] = value
    return out


def _integer(op: Operation | None) -> int | None:
    """The integer a pointer-sized initialiser entry holds: `(void *)N` or null."""
    if isinstance(op, xllvm.ZeroOp):
        return 0
    if isinstance(op, xllvm.IntToPtrOp):
        c = op.operands[0].owner
        if isinstance(c, xllvm.ConstantOp) and isinstance(c.value, IntegerAttr):
            return c.value.value.data
    return None


def _addresses(g: xllvm.GlobalOp) -> list[str]:
    """The symbols an array-of-pointers initialiser holds, in order."""
    if not g.body.blocks:
        return []
    out: list[str] = []
    for op in g.body.block.ops:
        if isinstance(op, xllvm.AddressOfOp):
            out.append(op.global_name.string_value())
    return out


def _string(g: Operation | None) -> str | None:
    """The text of a C string constant (`c"log1p\\00"`)."""
    value = g.properties.get("value") if isinstance(g, xllvm.GlobalOp) else None
    if isinstance(value, StringAttr):
        return value.data.rstrip("\x00")
    return None
