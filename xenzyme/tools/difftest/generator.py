"""Random C programs in the shapes users write, one per seed.

A program is a function `double pK_f(double *x, int n, double s)` -- the array `x` and the
scalar `s` carry derivatives, `n` is its length -- with the helper functions, struct type and
tables it uses, every name prefixed `pK_` so that many programs share one file.  Each is well
defined C for the inputs the checker gives it (n = `Program.n`, values in [-1.5, 1.5]): indices
stay in bounds, every value read was written, heap memory is freed, and every math function
gets arguments in its domain, so the function is finite and smooth except where a branch, a
rounding or a min/max switches.

What a program may contain is drawn per program (`FEATURES`), so that shapes mix: loops (fixed,
by `n`, triangular, data-dependent), branches and switches, local and heap arrays (malloc,
calloc, realloc), in-place updates of `x`, pointer walks and casts, memcpy, structs (by pointer
and by value), calls of helpers that are not inlined (scalar, pointer, recursive), function
pointers (constant and mutable tables, a pointer passed to a helper), libm, integer/float mixes
(truncation, rounding, integer counters, data-dependent trip counts), single precision, a
double's bits moved through integers, complex numbers (C99's products, quotients and
<complex.h> functions), and doubles moved as bytes by a generic `void *` helper.

Everything is decided by `random.Random(seed)`: the same seed gives the same program.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FEATURES = {
    "loops": 0.8, "branches": 0.6, "local_arrays": 0.5, "heap": 0.35, "inplace": 0.3, "pointers": 0.3,
    "memcpy": 0.2, "structs": 0.3, "calls": 0.5, "pointer_calls": 0.25, "recursion": 0.12, "fnptr": 0.25,
    "libm": 0.85, "intmix": 0.35, "while": 0.2, "switch": 0.15, "float": 0.15, "bits": 0.1,
    "early_return": 0.15, "globals": 0.15, "pointer_arrays": 0.2, "aliasing": 0.15, "memset": 0.15,
    "aos": 0.15, "argmax": 0.15, "matrix": 0.15, "growth": 0.1, "pick_pointer": 0.12, "continue": 0.15,
    "make_buffer": 0.15, "bits_call": 0.08,
}  # fmt: skip
"""Feature -> probability that a program may use it."""

LATER_FEATURES = {"complex": 0.1, "byte_moves": 0.1}
"""Features added later, drawn from a random stream of their own: a program without them is the
program its seed always gave."""

N_MIN = 3
"""Every program is called with n >= N_MIN: constant indices into x stay below it."""


@dataclass
class Program:
    seed: int
    key: str
    """The prefix of every name of the program (`p<seed>_`)."""
    n: int
    features: set[str]
    helpers: list[str] = field(default_factory=list)
    """C definitions before the function, in order."""
    body: str = ""
    single_precision: bool = False
    """Float arithmetic inside: finite differences need a wider step and tolerance."""
    x0: list[float] = field(default_factory=list)
    s0: float = 0.0
    v: list[float] = field(default_factory=list)
    """The direction of the forward-mode check (for x; `vs` for s)."""
    vs: float = 0.0

    @property
    def function(self) -> str:
        return f"{self.key}f"

    def source(self) -> str:
        """The program's C definitions: helpers, then the function."""
        return "\n".join([f"/* program {self.seed}: {' '.join(sorted(self.features))} */", *self.helpers,
                          self.body, ""])  # fmt: skip


@dataclass
class _Array:
    name: str
    length: int | None
    """Elements (None: the dynamic length, `count`)."""
    elem: str = "double"
    count: str = "n"


@dataclass
class _Scope:
    dvars: list[str] = field(default_factory=list)
    ivars: list[str] = field(default_factory=list)
    arrays: list[_Array] = field(default_factory=list)
    loops: list[tuple[str, int | None]] = field(default_factory=list)
    """Loop variables in scope and their bounds (None: n)."""
    structs: list[str] = field(default_factory=list)

    def copy(self) -> _Scope:
        return _Scope(list(self.dvars), list(self.ivars), list(self.arrays), list(self.loops), list(self.structs))


PRELUDE = """#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static inline double dt_soft(double v) { return v / sqrt(1.0 + v * v); }
static inline double dt_ratio(double v) { return v / (1.0 + fabs(v)); }
static inline double dt_log1sq(double v) { return log(1.0 + v * v); }
static inline double dt_sqrt1sq(double v) { return sqrt(1.0 + v * v); }
static inline double dt_pow1sq(double v) { return pow(1.2 + v * v, 0.75); }
static inline double dt_log1psq(double v) { return log1p(v * v); }
"""
"""What every file of programs starts with: headers, and small functions the programs share."""

_UNARY_SAFE = [
    "sin({})", "cos({})", "tanh({})", "atan({})", "erf({})", "exp(0.5 * tanh({}))", "dt_log1sq({})",
    "dt_sqrt1sq({})", "dt_log1psq({})", "cbrt(2.5 + sin({}))", "expm1(0.5 * sin({}))",
    "dt_pow1sq({})", "pow({}, 2.0)", "asinh({})", "exp2(0.3 * sin({}))", "cosh(0.5 * tanh({}))",
    "sinh(0.7 * tanh({}))", "log2(3.0 + cos({}))", "log10(3.0 + sin({}))", "acos(0.9 * tanh({}))",
    "asin(0.8 * sin({}))", "atanh(0.7 * tanh({}))", "tan(0.6 * tanh({}))", "__builtin_powi({}, 3)",
]  # fmt: skip
"""Smooth libm forms that stay finite for any finite argument."""

_KINKS = ["fabs({})", "floor({})", "ceil({})", "round({})", "trunc({})", "fmod({}, 1.3)", "rint({})"]
"""Forms with kinks or steps (piecewise smooth)."""

_BINARY = ["fmax({0}, {1})", "fmin({0}, {1})", "hypot({0}, {1})", "atan2({0}, 1.5 + ({1}) * ({1}))",
           "copysign({0}, {1})", "fma({0}, {1}, 0.25)"]  # fmt: skip

_BOUNDS = ["tanh({})", "sin({})", "atan({})", "erf({})", "dt_ratio({})", "dt_soft({})", "(0.5 * tanh({}) + 0.25)"]
"""Forms that keep an assigned value within [-1.6, 1.6], so that values stay far from overflow
however the statements compound."""


class _Generator:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.seed = seed
        self.key = f"p{seed}_"
        self.features = {f for f, p in FEATURES.items() if self.rng.random() < p}
        later = random.Random(f"{seed}:later")
        self.features |= {f for f, p in LATER_FEATURES.items() if later.random() < p}
        self.helpers: list[str] = []
        self.names = 0
        self.frees: list[str] = []
        self.single = False
        self.scalar_helpers: list[str] = []
        self.table: str | None = None
        self.struct_defined = False
        self.budget = self.rng.randint(6, 14)
        self.in_helper = 0
        """Inside a helper's body: no calls, so that helpers do not nest without end."""
        """Statements left for the function (nested ones included)."""

    # ---- names, features --------------------------------------------------------------------

    def fresh(self, stem: str) -> str:
        self.names += 1
        return f"{stem}{self.names}"

    def has(self, feature: str) -> bool:
        return feature in self.features

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def bounded(self, e: str) -> str:
        return self.rng.choice(_BOUNDS).format(e)

    def const(self, lo: float = -2.0, hi: float = 2.0) -> str:
        v = self.rng.uniform(lo, hi)
        return f"{v:.3f}" if v >= 0 else f"({v:.3f})"

    # ---- expressions ------------------------------------------------------------------------

    def index(self, arr: _Array, sc: _Scope) -> str:
        """An index into `arr` that is in bounds."""
        fitting = [v for v, b in sc.loops if (b is None and arr.length is None) or
                   (b is not None and (arr.length is None and b <= N_MIN or arr.length is not None and b <= arr.length))]  # fmt: skip
        if fitting and self.chance(0.7):
            return self.rng.choice(fitting)
        length = arr.count if arr.length is None else str(arr.length)
        if sc.loops and self.chance(0.6):
            v, _ = self.rng.choice(sc.loops)
            return f"({v} + {self.rng.randint(1, 3)}) % {length}"
        limit = N_MIN if arr.length is None else arr.length
        return str(self.rng.randrange(limit))

    def atom(self, sc: _Scope) -> str:
        choices: list[str] = ["const"]
        if sc.dvars:
            choices += ["dvar"] * 4
        if sc.arrays:
            choices += ["array"] * 3
        if sc.loops:
            choices.append("loopvar")
        if sc.ivars:
            choices.append("ivar")
        if sc.structs:
            choices.append("struct")
        kind = self.rng.choice(choices)
        if kind == "dvar":
            return self.rng.choice(sc.dvars)
        if kind == "array":
            arr = self.rng.choice(sc.arrays)
            e = f"{arr.name}[{self.index(arr, sc)}]"
            return f"(double){e}" if arr.elem == "float" else e
        if kind == "loopvar":
            return f"(0.25 * {self.rng.choice(sc.loops)[0]})"
        if kind == "ivar":
            return f"(0.5 * {self.rng.choice(sc.ivars)})"
        if kind == "struct":
            s = self.rng.choice(sc.structs)
            return self.rng.choice([f"{s}.a", f"{s}.v[{self.rng.randrange(3)}]", f"({s}.a * {s}.k)"])
        return self.const()

    def expr(self, sc: _Scope, depth: int = 2) -> str:
        if depth <= 0 or self.chance(0.25):
            return self.atom(sc)
        r = self.rng.random()
        a = lambda: self.expr(sc, depth - 1)  # noqa: E731
        if r < 0.30:
            op = self.rng.choice(["+", "-", "*", "*", "+"])
            return f"({a()} {op} {a()})"
        if r < 0.37:
            return f"({a()} / (1.5 + {a()} * {a()}))" if self.chance(0.5) else f"({a()} / (2.0 + sin({a()})))"
        if r < 0.55 and self.has("libm"):
            return self.rng.choice(_UNARY_SAFE).format(a())
        if r < 0.60 and self.has("libm"):
            return self.rng.choice(_BINARY).format(a(), a())
        if r < 0.64 and self.has("libm"):
            return f"({self.rng.choice(_KINKS).format(a())} * {self.const(0.2, 1.0)})"
        if r < 0.70 and self.has("branches"):
            return f"({a()} > {a()} ? {a()} : {a()})"
        if r < 0.76 and self.has("intmix"):
            b = lambda: self.bounded(a())  # noqa: E731
            return self.rng.choice([f"((double)(int)({b()} * 2.0) * {a()})", f"((double)lround({b()} * 3.0) + {a()})",
                                    f"({a()} * (double)(1 + ((int)({b()} * 3.0 + 5.0) & 3)))"])  # fmt: skip
        if r < 0.79 and self.has("float"):
            self.single = True
            return f"(double)((float)({a()}) * {self.const(0.5, 1.5)}f)"
        if r < 0.86 and self.has("calls") and not self.in_helper:
            return f"{self.scalar_helper()}({a()}, {a()})"
        if r < 0.90 and self.has("fnptr") and not self.in_helper:
            return self.pointer_call(sc, a(), a())
        if r < 0.92 and self.has("recursion") and not self.in_helper:
            return f"{self.recursive_helper()}({a()}, {self.rng.randint(1, 4)})"
        return f"({a()} + {a()})"

    def cond(self, sc: _Scope) -> str:
        r = self.rng.random()
        if r < 0.6 or not (sc.ivars or sc.loops):
            return f"{self.expr(sc, 1)} {self.rng.choice(['<', '>', '<=', '>='])} {self.expr(sc, 1)}"
        if sc.loops and (r < 0.8 or not sc.ivars):
            return f"{self.rng.choice(sc.loops)[0]} % {self.rng.randint(2, 3)} == 0"
        return f"({self.rng.choice(sc.ivars)} & 1)"

    # ---- helpers ----------------------------------------------------------------------------

    def attr(self) -> str:
        return "__attribute__((noinline)) " if self.chance(0.65) else ""

    def scalar_helper(self, new: bool = False) -> str:
        if not new and self.scalar_helpers and (len(self.scalar_helpers) >= 3 or self.chance(0.5)):
            return self.rng.choice(self.scalar_helpers)
        name = self.key + self.fresh("h")
        self.in_helper += 1
        sc = _Scope(dvars=["a", "b"])
        lines = []
        for _ in range(self.rng.randint(0, 2)):
            v = self.fresh("t")
            lines.append(f"  double {v} = {self.expr(sc, 2)};")
            sc.dvars.append(v)
        lines.append(f"  return {self.expr(sc, 2)};")
        self.in_helper -= 1
        self.helpers.append(f"static {self.attr()}double {name}(double a, double b) {{\n" + "\n".join(lines) + "\n}")
        self.scalar_helpers.append(name)
        return name

    def recursive_helper(self) -> str:
        name = self.key + self.fresh("rec")
        step = self.rng.choice(["sin({r}) * a + 0.5", "0.5 * {r} + a * a * 0.25", "tanh({r} + a)"])
        r = f"{name}(a * 0.9, d - 1)"
        self.helpers.append(f"static {self.attr()}double {name}(double a, int d) {{\n"
                            f"  if (d <= 0) return a;\n  return {step.format(r=r)};\n}}")  # fmt: skip
        return name

    def pointer_call(self, sc: _Scope, a: str, b: str) -> str:
        """A call through a function pointer: a table (constant or not) indexed by an integer, or
        a helper given the function."""
        if self.table is None:
            fns = [self.scalar_helper(new=True) for _ in range(self.rng.randint(2, 3))]
            const = "const " if self.chance(0.5) else ""
            self.table = self.key + "tab"
            self.table_size = len(fns)
            self.helpers.append(f"static double (*{const}{self.table}[{len(fns)}])(double, double) = {{{', '.join(fns)}}};")
            apply = self.key + "apply"
            self.helpers.append(f"static __attribute__((noinline)) double {apply}(double (*g)(double, double), double a, double b) {{\n"
                                f"  return g(a, b) + 0.5 * g(b, a);\n}}")  # fmt: skip
        idx = self.rng.choice(sc.loops)[0] if sc.loops and self.chance(0.5) else str(self.rng.randrange(self.table_size))
        pick = f"{self.table}[({idx}) % {self.table_size}]"
        if self.chance(0.35):
            return f"{self.key}apply({pick}, {a}, {b})"
        return f"{pick}({a}, {b})"

    def pointer_helper(self) -> str:
        """`void h(double *p, int m, double c)`: an in-place update of m elements."""
        name = self.key + self.fresh("u")
        self.in_helper += 1
        sc = _Scope(dvars=["c"], arrays=[_Array("p", None, count="m")], loops=[("i", None)])
        body = f"p[i] = {self.bounded(self.expr(sc, 2))};" if self.chance(0.6) else f"p[i] += {self.bounded(self.expr(sc, 2))};"
        self.in_helper -= 1
        self.helpers.append(f"static {self.attr()}void {name}(double *p, int m, double c) {{\n"
                            f"  for (int i = 0; i < m; i++) {body}\n}}")  # fmt: skip
        return name

    def reduce_helper(self) -> str:
        """`double h(const double *p, int m)`: a reduction."""
        name = self.key + self.fresh("r")
        self.in_helper += 1
        sc = _Scope(dvars=["acc"], arrays=[_Array("p", None, count="m")], loops=[("i", None)])
        step = self.bounded(self.expr(sc, 2))
        self.in_helper -= 1
        self.helpers.append(f"static {self.attr()}double {name}(const double *p, int m) {{\n  double acc = 0;\n"
                            f"  for (int i = 0; i < m; i++) acc = acc * 0.5 + {step};\n  return acc;\n}}")  # fmt: skip
        return name

    def struct_type(self) -> str:
        name = f"struct {self.key}S"
        if not self.struct_defined:
            self.struct_defined = True
            self.helpers.append(f"{name} {{ double a; int k; double v[3]; }};")
        return name

    # ---- statements -------------------------------------------------------------------------

    def block(self, sc: _Scope, depth: int, count: int) -> list[str]:
        out: list[str] = []
        for _ in range(count):
            if self.budget <= 0:
                break
            self.budget -= 1
            out += self.statement(sc, depth)
        return out

    def assign_target(self, sc: _Scope) -> str | None:
        if sc.dvars and (not sc.arrays or self.chance(0.7)):
            return self.rng.choice(sc.dvars)
        writable = [a for a in sc.arrays if a.name != "x" or self.has("inplace")]
        if writable:
            arr = self.rng.choice(writable)
            return f"{arr.name}[{self.index(arr, sc)}]"
        return None

    def statement(self, sc: _Scope, depth: int) -> list[str]:
        kinds = ["decl", "assign", "assign"]
        if depth < 3:
            if self.has("loops"):
                kinds += ["for", "for"]
            if self.has("branches"):
                kinds.append("if")
            if self.has("while"):
                kinds.append("while")
            if self.has("switch") and sc.ivars:
                kinds.append("switch")
        if depth == 0:
            for feature in ("local_arrays", "heap", "structs", "memcpy", "pointers", "intmix", "bits", "early_return",
                            "globals", "pointer_arrays", "aliasing", "memset", "aos", "argmax", "matrix", "growth",
                            "pick_pointer", "make_buffer", "bits_call", "complex", "byte_moves"):  # fmt: skip
                if self.has(feature):
                    kinds.append(feature)
            if self.has("calls"):
                kinds.append("call")
            if self.has("pointer_calls"):
                kinds.append("pointer_call")
        kind = self.rng.choice(kinds)
        return getattr(self, f"st_{kind}")(sc, depth)

    def st_decl(self, sc: _Scope, depth: int) -> list[str]:
        v = self.fresh("d")
        line = f"double {v} = {self.bounded(self.expr(sc))};"
        sc.dvars.append(v)
        return [line]

    def st_assign(self, sc: _Scope, depth: int) -> list[str]:
        target = self.assign_target(sc)
        if target is None:
            return self.st_decl(sc, depth)
        op = self.rng.choice(["=", "+=", "+=", "-=", "*="])
        e = self.expr(sc)
        if op == "*=":
            e = f"(0.5 + 0.5 * tanh({e}))"
        elif op == "=":
            e = self.bounded(e)
        else:
            e = f"0.3 * {self.bounded(e)}"
        return [f"{target} {op} {e};"]

    def st_for(self, sc: _Scope, depth: int) -> list[str]:
        v = self.fresh("i")
        inner = sc.copy()
        r = self.rng.random()
        if r < 0.45:
            head, bound = f"for (int {v} = 0; {v} < n; {v}++)", None
        elif r < 0.7 or not sc.loops:
            m = self.rng.randint(2, 6)
            head, bound = f"for (int {v} = 0; {v} < {m}; {v}++)", m
        else:
            outer, ob = self.rng.choice(sc.loops)
            head, bound = f"for (int {v} = 0; {v} <= {outer}; {v}++)", ob
            if self.chance(0.5):
                head = f"for (int {v} = {outer}; {v} >= 0; {v}--)"
        inner.loops.append((v, bound))
        skip = f"if ({self.cond(inner)}) continue;" if self.has("continue") and self.chance(0.3) else None
        body = self.block(inner, depth + 1, self.rng.randint(1, 3))
        if self.chance(0.15) and inner.dvars:
            body.append(f"if ({self.cond(inner)}) break;")
        elif skip is not None:
            body.insert(0, skip)
        return [head + " {", *("  " + b for b in body), "}"]

    def st_if(self, sc: _Scope, depth: int) -> list[str]:
        then = self.block(sc.copy(), depth + 1, self.rng.randint(1, 2))
        out = [f"if ({self.cond(sc)}) {{", *("  " + b for b in then), "}"]
        if self.chance(0.5):
            other = self.block(sc.copy(), depth + 1, self.rng.randint(1, 2))
            out[-1] = "} else {"
            out += [*("  " + b for b in other), "}"]
        return out

    def st_while(self, sc: _Scope, depth: int) -> list[str]:
        """A data-dependent trip count, bounded."""
        c, acc = self.fresh("it"), self.fresh("w")
        inner = sc.copy()
        inner.dvars.append(acc)
        inner.ivars.append(c)
        start = self.expr(sc, 1)
        step = f"  {acc} += 0.3 + 0.2 * tanh({self.expr(inner, 1)}) * 0.5;"
        body = self.block(inner, depth + 1, self.rng.randint(0, 2))
        return [f"double {acc} = {start};", f"int {c} = 0;",
                f"while ({acc} < {self.const(0.5, 3.0)} && {c} < 8) {{", step, *("  " + b for b in body),
                f"  {c}++;", "}"] + self._keep(sc, acc)  # fmt: skip

    def _keep(self, sc: _Scope, v: str) -> list[str]:
        sc.dvars.append(v)
        return []

    def st_switch(self, sc: _Scope, depth: int) -> list[str]:
        k = self.rng.choice(sc.ivars)
        out = [f"switch ({k} & 3) {{"]
        for case in range(self.rng.randint(2, 4)):
            out.append(f"case {case}:")
            out += ["  " + b for b in self.block(sc.copy(), depth + 1, 1)]
            out.append("  break;")
        out += ["default:", "  break;", "}"]
        return out

    def st_local_arrays(self, sc: _Scope, depth: int) -> list[str]:
        m = self.rng.randint(3, 6)
        name, i = self.fresh("a"), self.fresh("i")
        elem = "float" if self.has("float") and self.chance(0.3) else "double"
        if elem == "float":
            self.single = True
        inner = sc.copy()
        inner.loops.append((i, m))
        fill = self.bounded(self.expr(inner, 2))
        sc.arrays.append(_Array(name, m, elem))
        return [f"{elem} {name}[{m}];", f"for (int {i} = 0; {i} < {m}; {i}++) {name}[{i}] = {fill};"]

    def st_heap(self, sc: _Scope, depth: int) -> list[str]:
        m = self.rng.randint(3, 6)
        name, i = self.fresh("hp"), self.fresh("i")
        inner = sc.copy()
        inner.loops.append((i, m))
        r = self.rng.random()
        out: list[str]
        if r < 0.5:
            out = [f"double *{name} = (double *)malloc({m} * sizeof(double));",
                   f"for (int {i} = 0; {i} < {m}; {i}++) {name}[{i}] = {self.bounded(self.expr(inner, 2))};"]  # fmt: skip
        elif r < 0.8:
            out = [f"double *{name} = (double *)calloc({m}, sizeof(double));",
                   f"for (int {i} = 0; {i} < {m}; {i}++) {name}[{i}] += {self.bounded(self.expr(inner, 2))};"]  # fmt: skip
        else:  # grown with realloc: the old part is kept, the new part filled
            half = max(1, m // 2)
            out = [f"double *{name} = (double *)malloc({half} * sizeof(double));",
                   f"for (int {i} = 0; {i} < {half}; {i}++) {name}[{i}] = {self.bounded(self.expr(inner, 2))};",
                   f"{name} = (double *)realloc({name}, {m} * sizeof(double));",
                   f"for (int {i} = {half}; {i} < {m}; {i}++) {name}[{i}] = {self.bounded(self.expr(inner, 2))} * {name}[{i} - 1];"]  # fmt: skip
        sc.arrays.append(_Array(name, m))
        self.frees.append(name)
        return out

    def st_structs(self, sc: _Scope, depth: int) -> list[str]:
        st = self.struct_type()
        name = self.fresh("st")
        out = [f"{st} {name};", f"{name}.a = {self.bounded(self.expr(sc, 2))};", f"{name}.k = {self.rng.randint(1, 4)};"]
        for j in range(3):
            out.append(f"{name}.v[{j}] = {self.bounded(self.expr(sc, 1))};")
        sc.structs.append(name)
        r = self.rng.random()
        if r < 0.4:
            upd = self.key + self.fresh("su")
            self.in_helper += 1
            fsc = _Scope(dvars=["s->a", "c"], arrays=[_Array("s->v", 3)])
            e1, e2 = self.bounded(self.expr(fsc, 2)), self.bounded(self.expr(fsc, 2))
            self.in_helper -= 1
            self.helpers.append(f"static {self.attr()}void {upd}({st} *s, double c) {{\n"
                                f"  s->v[{self.rng.randrange(3)}] += {e1};\n  s->a = {e2} * s->k;\n}}")  # fmt: skip
            out.append(f"{upd}(&{name}, {self.expr(sc, 1)});")
        elif r < 0.7:
            by = self.key + self.fresh("sv")
            self.in_helper += 1
            fsc = _Scope(dvars=["s.a", "s.v[0]", "s.v[1]", "s.v[2]"])
            e = self.expr(fsc, 2)
            self.in_helper -= 1
            self.helpers.append(f"static {self.attr()}double {by}({st} s) {{\n  return {e} * s.k;\n}}")
            v = self.fresh("d")
            out.append(f"double {v} = {by}({name});")
            sc.dvars.append(v)
        else:
            copy = self.fresh("st")
            out += [f"{st} {copy} = {name};", f"{copy}.v[1] *= {copy}.a;"]
            sc.structs.append(copy)
        return out

    def st_memcpy(self, sc: _Scope, depth: int) -> list[str]:
        m = self.rng.randint(3, 5)
        name = self.fresh("mc")
        src = [a for a in sc.arrays if a.elem == "double" and (a.length is None or a.length >= N_MIN)]
        arr = self.rng.choice(src) if src else _Array("x", None)
        count = N_MIN if arr.length is None else min(arr.length, m)
        out = [f"double {name}[{m}] = {{0}};", f"memcpy({name}, {arr.name}, {count} * sizeof(double));"]
        sc.arrays.append(_Array(name, m))
        return out

    def st_pointers(self, sc: _Scope, depth: int) -> list[str]:
        """A pointer into an array, moved along and read with offsets, or a reinterpreting cast."""
        cands = [a for a in sc.arrays if a.elem == "double" and (a.length is None or a.length >= N_MIN)] or [_Array("x", None)]
        arr = self.rng.choice(cands)
        p = self.fresh("q")
        v = self.fresh("d")
        if self.chance(0.5):
            out = [f"const double *{p} = {arr.name} + 1;",
                   f"double {v} = {self.bounded(f'{p}[0] * {p}[1] + {p}[-1] * {self.expr(sc, 1)}')};"]  # fmt: skip
        else:
            out = [f"const char *{p} = (const char *){arr.name};",
                   f"double {v} = {self.bounded(f'*(const double *)({p} + {self.rng.randrange(N_MIN)} * sizeof(double)) * {self.expr(sc, 1)}')};"]  # fmt: skip
        sc.dvars.append(v)
        return out

    def st_intmix(self, sc: _Scope, depth: int) -> list[str]:
        k = self.fresh("k")
        out = [f"int {k} = (int)({self.bounded(self.expr(sc, 1))} * 3.0 + 10.0);"]
        sc.ivars.append(k)
        if self.has("loops") and self.chance(0.5):
            i, acc = self.fresh("i"), self.fresh("d")
            inner = sc.copy()
            inner.loops.append((i, 3))
            out += [f"double {acc} = 0;", f"for (int {i} = 0; {i} < ({k} & 3); {i}++) {acc} += {self.bounded(self.expr(inner, 2))};"]
            sc.dvars.append(acc)
        return out

    def st_bits(self, sc: _Scope, depth: int) -> list[str]:
        """A double's bits through an integer: a union, or memcpy into a uint64_t and back."""
        v, u = self.fresh("d"), self.fresh("u")
        e = self.bounded(self.expr(sc, 1))
        if self.chance(0.5):
            return [f"union {{ double d; unsigned long long u; }} {u};", f"{u}.d = {e};",
                    f"double {v} = {u}.d * {self.bounded(self.expr(sc, 1))};"] + self._keep(sc, v)  # fmt: skip
        b = self.fresh("b")
        return [f"double {b} = {e};", f"unsigned long long {u};", f"memcpy(&{u}, &{b}, sizeof {u});",
                f"double {v};", f"memcpy(&{v}, &{u}, sizeof {v});"] + self._keep(sc, v)  # fmt: skip

    def st_complex(self, sc: _Scope, depth: int) -> list[str]:
        """Complex numbers built from the program's values: products (clang's fast formula with
        __muldc3 behind it), quotients (__divdc3) and <complex.h>'s functions, their arguments
        kept off the branch cuts and the results bounded, in double or float precision."""
        z, w, v = self.fresh("z"), self.fresh("w"), self.fresh("d")
        single = self.chance(0.25)
        if single:
            self.single = True
        t, f = ("float complex", "f") if single else ("double complex", "")
        b = lambda: self.bounded(self.expr(sc, 1))  # noqa: E731
        small = f"{z} / (1.0{f} + cabs{f}({z}))"  # |small| < 1
        steps = [
            f"{z} = {z} * {w} + {self.const()};",
            f"{z} = {z} / (2.5{f} + 0.3{f} * {w} / (1.0{f} + cabs{f}({w})));",
            f"{z} = cexp{f}(0.5{f} * {small});",
            f"{z} = csin{f}(0.5{f} * {small}) + ccos{f}(0.3{f} * {w});",
            f"{z} = csqrt{f}({small} * {small} + 4.0{f});",
            f"{z} = clog{f}(3.0{f} + {small});",
            f"{z} = cpow{f}(2.0{f} + {small}, 0.5{f} + 0.25{f} * I);",
            f"{z} = catan{f}(0.5{f} * {small}) * {w};",
            f"{z} = ctanh{f}({small}) - conj{f}({w}) * {z};",
        ]
        out = [f"{t} {z} = {b()} + I * {b()};", f"{t} {w} = {b()} + I * {b()};"]
        out += self.rng.sample(steps, self.rng.randint(2, 4))
        read = self.rng.choice([f"creal{f}({z}) * 0.7 + cimag{f}({z})", f"cabs{f}({z} + 2.0{f})",
                                f"carg{f}({z} + 3.0{f})", f"creal{f}({z} * conj{f}({w}))"])  # fmt: skip
        out.append(f"double {v} = {self.bounded(f'(double)({read})')};")
        return out + self._keep(sc, v)

    def st_byte_moves(self, sc: _Scope, depth: int) -> list[str]:
        """A local array of doubles sorted or reversed by a generic swap that moves bytes
        (memcpy through a char buffer, in a helper that may not be inlined), called with typed
        addresses or with byte offsets."""
        swap = f"{self.key}swap"
        if not any(h.startswith(f"static void {swap}") or f" {swap}(" in h.split("{")[0] for h in self.helpers):
            self.helpers.append(f"{self.attr()}static void {swap}(void *a, void *b, size_t size) {{\n"
                                "  char tmp[32];\n  memcpy(tmp, a, size);\n  memcpy(a, b, size);\n  memcpy(b, tmp, size);\n}")  # fmt: skip
        m = self.rng.randint(3, 6)
        t, i, j = self.fresh("a"), self.fresh("i"), self.fresh("j")
        inner = sc.copy()
        inner.loops.append((i, m))
        out = [f"double {t}[{m}];", f"for (int {i} = 0; {i} < {m}; {i}++) {t}[{i}] = {self.bounded(self.expr(inner, 2))};"]
        typed = self.chance(0.5)
        at = (lambda k: f"&{t}[{k}]") if typed else (lambda k: f"(char *){t} + ({k}) * sizeof(double)")  # noqa: E731
        if self.chance(0.6):
            cmp = self.rng.choice([">", "<"])
            out.append(f"for (int {i} = 0; {i} < {m}; {i}++) for (int {j} = 0; {j} + 1 < {m} - {i}; {j}++) "
                       f"if ({t}[{j}] {cmp} {t}[{j} + 1]) {swap}({at(j)}, {at(f'{j} + 1')}, sizeof(double));")  # fmt: skip
        else:
            out.append(f"for (int {i} = 0, {j} = {m} - 1; {i} < {j}; {i}++, {j}--) {swap}({at(i)}, {at(j)}, sizeof(double));")
        sc.arrays.append(_Array(t, m))
        return out

    def st_call(self, sc: _Scope, depth: int) -> list[str]:
        arrays = [a for a in sc.arrays if a.elem == "double" and (a.name != "x" or self.has("inplace"))]
        if arrays and self.chance(0.6):
            arr = self.rng.choice(arrays)
            length = "n" if arr.length is None else str(arr.length)
            if self.chance(0.5):
                return [f"{self.pointer_helper()}({arr.name}, {length}, {self.expr(sc, 1)});"]
            v = self.fresh("d")
            sc.dvars.append(v)
            return [f"double {v} = {self.bounded(f'{self.reduce_helper()}({arr.name}, {length})')};"]
        v = self.fresh("d")
        line = f"double {v} = {self.bounded(f'{self.scalar_helper()}({self.expr(sc, 1)}, {self.expr(sc, 1)})')};"
        sc.dvars.append(v)
        return [line]

    def st_pointer_call(self, sc: _Scope, depth: int) -> list[str]:
        v = self.fresh("d")
        line = f"double {v} = {self.bounded(f'{self.reduce_helper()}(x, n) * {self.expr(sc, 1)}')};"
        sc.dvars.append(v)
        return [line]

    def double_arrays(self, sc: _Scope, writable: bool = False) -> list[_Array]:
        return [a for a in sc.arrays if a.elem == "double" and (a.length is None or a.length >= N_MIN)
                and (not writable or a.name != "x" or self.has("inplace"))]  # fmt: skip

    def st_early_return(self, sc: _Scope, depth: int) -> list[str]:
        """A return from the middle of the function (heap memory freed first)."""
        frees = [f"free({h});" for h in self.frees]
        rv = self.fresh("rv")
        return [f"if ({self.cond(sc)}) {{", f"  double {rv} = {self.expr(sc, 2)};", *("  " + f for f in frees),
                f"  return {rv};", "}"]  # fmt: skip

    def st_globals(self, sc: _Scope, depth: int) -> list[str]:
        """A mutable global buffer, written before it is read (each call writes it again)."""
        g, i = self.key + self.fresh("g"), self.fresh("i")
        m = self.rng.randint(3, 5)
        self.helpers.append(f"static double {g}[{m}];")
        inner = sc.copy()
        inner.loops.append((i, m))
        sc.arrays.append(_Array(g, m))
        return [f"for (int {i} = 0; {i} < {m}; {i}++) {g}[{i}] = {self.bounded(self.expr(inner, 2))};"]

    def st_pointer_arrays(self, sc: _Scope, depth: int) -> list[str]:
        """Pointers kept in memory: an array of row pointers, or a struct holding a heap array."""
        arrs = self.double_arrays(sc)
        if len(arrs) < 2 or self.chance(0.4):
            m, _, i = 4, self.fresh("hb"), self.fresh("i")  # (the name keeps the numbering)
            inner = sc.copy()
            inner.loops.append((i, m))
            bt = f"struct {self.key}{self.fresh('B')}"
            self.helpers.append(f"{bt} {{ double *data; int len; double w; }};")
            box = self.fresh("bx")
            out = [f"{bt} {box};", f"{box}.len = {m};", f"{box}.w = {self.bounded(self.expr(sc, 1))};",
                   f"{box}.data = (double *)malloc({m} * sizeof(double));",
                   f"for (int {i} = 0; {i} < {m}; {i}++) {box}.data[{i}] = {box}.w * {self.bounded(self.expr(inner, 1))};"]  # fmt: skip
            self.frees.append(f"{box}.data")
            sc.arrays.append(_Array(f"{box}.data", m))
            return out
        a, b = self.rng.sample(arrs, 2)
        rows, v, i = self.fresh("rows"), self.fresh("d"), self.fresh("i")
        sc.dvars.append(v)
        return [f"double *{rows}[2] = {{{a.name}, {b.name}}};", f"double {v} = 0;",
                f"for (int {i} = 0; {i} < {N_MIN}; {i}++) {v} += {rows}[{i} % 2][{i}] * {rows}[({i} + 1) % 2][{i}];",
                f"{v} = {self.bounded(v)};"]  # fmt: skip

    def st_aliasing(self, sc: _Scope, depth: int) -> list[str]:
        """A helper writing one array from another, called with overlapping arguments."""
        arrs = self.double_arrays(sc, writable=True)
        if not arrs:
            return self.st_decl(sc, depth)
        arr = self.rng.choice(arrs)
        name = self.key + self.fresh("mv")
        self.helpers.append(f"static {self.attr()}void {name}(double *dst, const double *src, int m, double c) {{\n"
                            f"  for (int i = 0; i < m; i++) dst[i] = {self.rng.choice(['sin', 'tanh', 'atan'])}(src[i] * c + dst[i]);\n}}")  # fmt: skip
        shift = self.rng.choice(["0", "1"])
        return [f"{name}({arr.name} + {shift}, {arr.name}, {N_MIN - 1}, {self.expr(sc, 1)});"]

    def st_memset(self, sc: _Scope, depth: int) -> list[str]:
        arrs = [a for a in self.double_arrays(sc, writable=True) if a.name != "x"]
        if not arrs:
            return self.st_decl(sc, depth)
        arr = self.rng.choice(arrs)
        if self.chance(0.5):
            return [f"memset({arr.name}, 0, 2 * sizeof(double));"]
        return [f"memmove({arr.name} + 1, {arr.name}, 2 * sizeof(double));"]

    def st_aos(self, sc: _Scope, depth: int) -> list[str]:
        """An array of structs, filled and combined field by field."""
        st = self.struct_type()
        name, i, v = self.fresh("ar"), self.fresh("i"), self.fresh("d")
        m = self.rng.randint(2, 4)
        inner = sc.copy()
        inner.loops.append((i, m))
        sc.dvars.append(v)
        return [f"{st} {name}[{m}];",
                f"for (int {i} = 0; {i} < {m}; {i}++) {{ {name}[{i}].a = {self.bounded(self.expr(inner, 1))}; "
                f"{name}[{i}].k = {i} + 1; for (int j = 0; j < 3; j++) {name}[{i}].v[j] = {name}[{i}].a * j; }}",
                f"double {v} = 0;",
                f"for (int {i} = 0; {i} < {m}; {i}++) {v} += {name}[{i}].a * {name}[({i} + 1) % {m}].v[{i} % 3] / {name}[{i}].k;",
                f"{v} = {self.bounded(v)};"]  # fmt: skip

    def st_argmax(self, sc: _Scope, depth: int) -> list[str]:
        arr = self.rng.choice(self.double_arrays(sc) or [_Array("x", None)])
        length = "n" if arr.length is None else str(arr.length)
        best, i, v = self.fresh("best"), self.fresh("i"), self.fresh("d")
        cmp = self.rng.choice([">", "<"])
        out = [f"int {best} = 0;", f"for (int {i} = 1; {i} < {length}; {i}++) if ({arr.name}[{i}] {cmp} {arr.name}[{best}]) {best} = {i};",
               f"double {v} = {self.bounded(f'{arr.name}[{best}] * {self.expr(sc, 1)}')};"]  # fmt: skip
        sc.ivars.append(best)
        sc.dvars.append(v)
        return out

    def st_matrix(self, sc: _Scope, depth: int) -> list[str]:
        """A small matrix from the inputs, and a matrix-vector product."""
        m, mat, out, i, j = 3, self.fresh("mat"), self.fresh("mv"), self.fresh("i"), self.fresh("j")
        inner = sc.copy()
        inner.loops += [(i, m), (j, m)]
        sc.arrays.append(_Array(out, m))
        return [f"double {mat}[{m}][{m}], {out}[{m}];",
                f"for (int {i} = 0; {i} < {m}; {i}++) for (int {j} = 0; {j} < {m}; {j}++) {mat}[{i}][{j}] = {self.bounded(self.expr(inner, 1))};",
                f"for (int {i} = 0; {i} < {m}; {i}++) {{ {out}[{i}] = 0; for (int {j} = 0; {j} < {m}; {j}++) {out}[{i}] += {mat}[{i}][{j}] * x[{j}]; }}"]  # fmt: skip

    def st_growth(self, sc: _Scope, depth: int) -> list[str]:
        """A buffer grown with realloc while it is filled (a vector's push)."""
        buf, cap, len_, i = self.fresh("vec"), self.fresh("cap"), self.fresh("len"), self.fresh("i")
        inner = sc.copy()
        inner.loops.append((i, None))
        self.frees.append(buf)
        sc.arrays.append(_Array(buf, N_MIN))
        return [f"int {cap} = 1, {len_} = 0;", f"double *{buf} = (double *)malloc(sizeof(double));",
                f"for (int {i} = 0; {i} < n; {i}++) {{",
                f"  if ({len_} == {cap}) {{ {cap} *= 2; {buf} = (double *)realloc({buf}, {cap} * sizeof(double)); }}",
                f"  {buf}[{len_}++] = {self.bounded(self.expr(inner, 2))};", "}"]  # fmt: skip

    def st_pick_pointer(self, sc: _Scope, depth: int) -> list[str]:
        """A helper returning one of two pointers it is given."""
        arrs = self.double_arrays(sc)
        if len(arrs) < 2:
            return self.st_decl(sc, depth)
        a, b = self.rng.sample(arrs, 2)
        name, q, v = self.key + self.fresh("pick"), self.fresh("q"), self.fresh("d")
        if not any(h.startswith(f"static double *{self.key}pick") for h in self.helpers):
            pass
        self.helpers.append(f"static {self.attr()}const double *{name}(const double *a, const double *b, double c) {{\n"
                            "  return c > 0 ? a : b + 1;\n}")  # fmt: skip
        out = [f"const double *{q} = {name}({a.name}, {b.name}, {self.expr(sc, 1)});",
               f"double {v} = {self.bounded(f'{q}[0] * {q}[1]')};"]  # fmt: skip
        sc.dvars.append(v)
        return out

    def st_make_buffer(self, sc: _Scope, depth: int) -> list[str]:
        """A helper that allocates a buffer, fills it from its arguments and returns it."""
        name, buf = self.key + self.fresh("mk"), self.fresh("hb")
        m = self.rng.randint(3, 5)
        self.in_helper += 1
        hsc = _Scope(dvars=["a", "b"], loops=[("i", m)])
        fill = self.bounded(self.expr(hsc, 2))
        self.in_helper -= 1
        alloc = "calloc(m, sizeof(double))" if self.chance(0.3) else "malloc(m * sizeof(double))"
        self.helpers.append(f"static {self.attr()}double *{name}(double a, double b, int m) {{\n"
                            f"  double *p = (double *){alloc};\n  for (int i = 0; i < m; i++) p[i] = {fill};\n"
                            "  return p;\n}")  # fmt: skip
        out = [f"double *{buf} = {name}({self.expr(sc, 1)}, {self.expr(sc, 1)}, {m});"]
        self.frees.append(buf)
        sc.arrays.append(_Array(buf, m))
        return out

    def st_bits_call(self, sc: _Scope, depth: int) -> list[str]:
        """A double handed to a helper as the bits of an integer, which the helper stores into a
        buffer of integers that the caller reads as doubles."""
        name, buf, u, b = self.key + self.fresh("bs"), self.fresh("hb"), self.fresh("u"), self.fresh("b")
        self.helpers.append(f"static __attribute__((noinline)) unsigned long long *{name}(unsigned long long bits, "
                            "unsigned long long k) {\n"
                            "  unsigned long long *d = (unsigned long long *)malloc(3 * sizeof(unsigned long long));\n"
                            "  double f;\n  memcpy(&f, &bits, sizeof f);\n  *(double *)d = f;\n"
                            "  d[1] = k;\n  *(double *)&d[2] = f * 0.5;\n  return d;\n}")  # fmt: skip
        v = self.fresh("d")
        out = [f"double {b} = {self.bounded(self.expr(sc, 1))};", f"unsigned long long {u};",
               f"memcpy(&{u}, &{b}, sizeof {u});", f"unsigned long long *{buf} = {name}({u}, 7);",
               f"double {v} = ((double *){buf})[0] * ((double *){buf})[2];", f"free({buf});"]  # fmt: skip
        sc.dvars.append(v)
        return out

    # ---- the program ------------------------------------------------------------------------

    def program(self) -> Program:
        rng = self.rng
        n = rng.randint(N_MIN, 6)
        sc = _Scope(dvars=["s"], arrays=[_Array("x", None)])
        lines = self.block(sc, 0, 40)
        terms = [self.expr(sc, 1) for _ in range(rng.randint(1, 2))]
        terms += sc.dvars[1:][-6:]  # (values computed and not used would leave nothing to check)
        for arr in sc.arrays[1:]:
            terms.append(f"{arr.name}[{rng.randrange(arr.length or N_MIN)}]")
        result = " + ".join(terms)
        if self.has("inplace") and self.chance(0.5):
            result += " + x[0] * x[1]"
        lines.append(f"double r = {result};")
        lines += [f"free({h});" for h in self.frees]
        lines.append("return r;")
        body = f"static double {self.key}f(double *x, int n, double s) {{\n" + "\n".join("  " + ln for ln in lines) + "\n}"
        x0 = [round(rng.uniform(-1.5, 1.5), 4) for _ in range(n)]
        v = [round(rng.uniform(-1.0, 1.0), 3) for _ in range(n)]
        return Program(self.seed, self.key, n, self.features, self.helpers, body, self.single, x0,
                       round(rng.uniform(-1.5, 1.5), 4), v, round(rng.uniform(-1.0, 1.0), 3))  # fmt: skip


def generate(seed: int) -> Program:
    """The program of `seed`."""
    return _Generator(seed).program()
