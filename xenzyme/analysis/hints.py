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

Reading them is an analysis: passes ask `Hints.of(module)` and decide what to do (the rewrite
that keeps the hinted functions from being inlined is `transforms.llvm_opt.keep_hinted_calls`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

REGISTER_GRADIENT = "__enzyme_register_gradient"
REGISTER_DERIVATIVE = "__enzyme_register_derivative"
FUNCTION_LIKE = "__enzyme_function_like"
INACTIVE_FN = "__enzyme_inactivefn"


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


@dataclass
class Hints:
    gradients: dict[str, CustomGradient] = field(default_factory=dict)
    derivatives: dict[str, CustomDerivative] = field(default_factory=dict)
    like: dict[str, str] = field(default_factory=dict)
    """Function -> the libm function whose derivative it has."""
    inactive: set[str] = field(default_factory=set)

    @property
    def functions(self) -> set[str]:
        """Every function a hint is about (they must stay calls: not inlined)."""
        return set(self.gradients) | set(self.derivatives) | set(self.like) | self.inactive

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
        return hints


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
