"""Derivative rules registered from Python (`xenzyme.derivative`, `xenzyme.load_rules`): used by
reverse mode (`xenzyme.gradient`) and forward mode (`xenzyme.tangent`, plain and vector) for
calls to an external function (libm's Bessel function j0, linked into the JIT) and to functions
the program defines (the rule wins over their bodies); checked against finite differences and
closed forms; and the errors of a rule that does not fit.
"""

from __future__ import annotations

import ctypes
import shutil
from collections.abc import Iterator

import pytest

import xenzyme as xz
from xenzyme.rules import ONE, Partial, times
from xenzyme.rules.registry import RULES, unregister

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed (run `make setup`)")

SRC = r"""
#include <math.h>
double j0(double);                                   /* external: libm */
double sigmoid(double x) { return 1 / (1 + exp(-x)); }
__attribute__((noinline)) double softplus(double x) { return log1p(exp(x)); }
__attribute__((noinline)) double clamp01(double x) { return x < 0 ? 0 : x > 1 ? 1 : x; }
__attribute__((noinline)) double wsum(double a, double b) { return 2 * a + b; }

double bessel(double x, double a) { return j0(a * x) * x; }
double soft(double x) { return softplus(3 * x) * x; }
double ste(double x) { return clamp01(2 * x) + x * x; }
double two(double a, double b) { return wsum(a * b, b) * a; }
"""

_libm = ctypes.CDLL("libm.so.6")
for _f in (_libm.j0, _libm.j1):
    _f.restype = ctypes.c_double
    _f.argtypes = [ctypes.c_double]


def j0(x: float) -> float:
    return _libm.j0(x)


def j1(x: float) -> float:
    return _libm.j1(x)


@pytest.fixture
def rules() -> Iterator[None]:
    """Rules registered by a test are forgotten after it."""
    before = dict(RULES)
    yield
    RULES.clear()
    RULES.update(before)


def register_j0() -> None:
    @xz.derivative("j0", arity=1)
    def j0_partials(e, x, y):  # d/dx j0 = -j1
        return [lambda: Partial(factor=e.call("j1", x[0]()), negate=True)]


def register_softplus() -> None:
    @xz.derivative("softplus", arity=1)
    def softplus_partials(e, x, y):  # d/dx softplus = sigmoid, the program's own function
        return [lambda: times(e.call("sigmoid", x[0]()))]


def register_clamp_straight_through() -> None:
    @xz.derivative("clamp01", arity=1)
    def clamp_partials(e, x, y):  # deliberately not clamp's derivative: the rule must win
        return [lambda: ONE]


def fd(f, x: float, h: float = 1e-6) -> float:
    return (f(x + h) - f(x - h)) / (2 * h)


def test_external_function_reverse_and_forward(rules: None) -> None:
    register_j0()
    x, a = 1.3, 0.7
    g = xz.gradient(SRC, "bessel", ["active", "active"])
    dx, da = g(x, a)
    assert dx == pytest.approx(fd(lambda t: j0(a * t) * t, x), rel=1e-7)
    assert da == pytest.approx(fd(lambda t: j0(t * x) * x, a), rel=1e-7)
    assert dx == pytest.approx(j0(a * x) - a * x * j1(a * x), rel=1e-12)
    t = xz.tangent(SRC, "bessel", ["dup", "const"])
    assert t(x, 1.0, a) == pytest.approx(dx, rel=1e-12)


def test_vector_forward_mode(rules: None) -> None:
    register_j0()
    x, a = 0.4, 2.1
    t = xz.tangent(SRC, "bessel", ["dup", "dup"], width=2)
    dx, da = t(x, 1.0, 0.0, a, 0.0, 1.0)
    assert dx == pytest.approx(fd(lambda s: j0(a * s) * s, x), rel=1e-7)
    assert da == pytest.approx(fd(lambda s: j0(s * x) * x, a), rel=1e-7)


def test_defined_function_rule_calls_program_function(rules: None) -> None:
    register_softplus()
    import math

    def soft(x: float) -> float:
        return math.log1p(math.exp(3 * x)) * x

    for x in (-0.8, 0.25, 1.5):
        want = fd(soft, x)
        assert xz.gradient(SRC, "soft", ["active"])(x) == pytest.approx(want, rel=1e-7)
        assert xz.tangent(SRC, "soft", ["dup"])(x, 1.0) == pytest.approx(want, rel=1e-7)


def test_rule_wins_over_the_body(rules: None) -> None:
    """clamp01(2x) with x = 0.9 is flat (derivative 0); the straight-through rule says 2."""
    x = 0.9
    assert xz.gradient(SRC, "ste", ["active"])(x) == pytest.approx(2 * x, rel=1e-12)
    register_clamp_straight_through()
    assert xz.gradient(SRC, "ste", ["active"])(x) == pytest.approx(2 + 2 * x, rel=1e-12)
    assert xz.tangent(SRC, "ste", ["dup"])(x, 1.0) == pytest.approx(2 + 2 * x, rel=1e-12)
    unregister("clamp01")
    assert xz.gradient(SRC, "ste", ["active"])(x) == pytest.approx(2 * x, rel=1e-12)


def test_two_arguments_and_no_dependence(rules: None) -> None:
    """A rule with None for an argument: the result does not depend on it (as the rule says)."""

    @xz.derivative("wsum", arity=2)
    def wsum_partials(e, x, y):
        return [lambda: e.const(2.0, x[0]()), None]

    a, b = 0.6, -1.4
    da, db = xz.gradient(SRC, "two", ["active", "active"])(a, b)
    # two = wsum(ab, b) a, with d wsum/d(first) = 2 and d wsum/d(second) taken as 0
    assert da == pytest.approx(2 * b * a + (2 * a * b + b), rel=1e-12)
    assert db == pytest.approx(2 * a * a, rel=1e-12)
    assert xz.tangent(SRC, "two", ["dup", "const"])(a, 1.0, b) == pytest.approx(da, rel=1e-12)


def test_load_rules_file(rules: None, tmp_path) -> None:
    path = tmp_path / "my_rules.py"
    path.write_text(
        "import xenzyme\nfrom xenzyme.rules import Partial\n\n"
        '@xenzyme.derivative("j0", arity=1)\n'
        "def j0_partials(e, x, y):\n"
        '    return [lambda: Partial(factor=e.call("j1", x[0]()), negate=True)]\n'
    )
    assert xz.load_rules(path) == ["j0"]
    x, a = 2.0, 0.5
    dx, _ = xz.gradient(SRC, "bessel", ["active", "active"])(x, a)
    assert dx == pytest.approx(j0(a * x) - a * x * j1(a * x), rel=1e-12)


def test_wrong_arity_is_an_error_in_both_modes(rules: None) -> None:
    @xz.derivative("j0", arity=2)
    def j0_partials(e, x, y):
        return [None, None]

    for build in (lambda: xz.gradient(SRC, "bessel", ["active", "active"]),
                  lambda: xz.tangent(SRC, "bessel", ["dup", "const"])):  # fmt: skip
        with pytest.raises(xz.XenzymeError) as err:
            build()
        assert "the derivative rule registered for @j0 takes 2 arguments, but this call passes 1" in err.value.message
        assert any("arity=1" in n for n in err.value.notes)


def test_broken_rule_is_an_error(rules: None) -> None:
    @xz.derivative("j0", arity=1)
    def too_many(e, x, y):
        return [None, None]

    with pytest.raises(xz.XenzymeError, match="returned 2 item"):
        xz.gradient(SRC, "bessel", ["active", "const"])

    @xz.derivative("j0", arity=1)
    def raises(e, x, y):
        return [lambda: 1 / 0]

    with pytest.raises(xz.XenzymeError, match="rule registered for @j0 failed: ZeroDivisionError"):
        xz.tangent(SRC, "bessel", ["dup", "const"])

    @xz.derivative("j0", arity=1)
    def not_a_value(e, x, y):
        return [lambda: 2.0]

    with pytest.raises(xz.XenzymeError, match="is float; it must be a Partial or an SSA value"):
        xz.gradient(SRC, "bessel", ["active", "const"])


@pytest.mark.parametrize(
    ("name", "arity", "rule", "message"),
    [
        ("j0", 0, lambda e, x, y: [], "arity must be a positive integer, got 0"),
        ("j0", "1", lambda e, x, y: [], "arity must be a positive integer, got '1'"),
        ("", 1, lambda e, x, y: [], "must be a symbol name"),
        ("j0", 1, "not a function", "must be a function partials"),
        ("j0", 1, lambda e, x: [], "must take three arguments (e, x, y)"),
    ],
)
def test_bad_registration(rules: None, name, arity, rule, message) -> None:
    with pytest.raises(xz.XenzymeError) as err:
        xz.derivative(name, arity=arity)(rule)
    assert message in err.value.message
    assert "j0" not in RULES


def test_load_rules_errors(tmp_path) -> None:
    with pytest.raises(xz.XenzymeError, match="cannot read rules file .*: no such file"):
        xz.load_rules(tmp_path / "missing.py")
    bad = tmp_path / "bad.py"
    bad.write_text("import xenzyme\n\nxenzyme.derivative('j0', arity=-1)\n")
    with pytest.raises(xz.XenzymeError) as err:
        xz.load_rules(bad)
    assert err.value.location is not None and err.value.location.line == 3
