"""Symbolic execution (xenzyme/analysis/symbolic.py): what small pieces of code store, and the
binary operation an expression computes -- the forms clang's combiners take at -O0 and -O2."""

from __future__ import annotations

import pytest
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from xenzyme.analysis.symbolic import Executor, binary_kind, merge
from xenzyme.api import context

COMBINE = """
llvm.func @f(%s: !llvm.ptr, %p: !llvm.ptr) {{
  %a = llvm.load %s : !llvm.ptr -> {t}
  %b = llvm.load %p : !llvm.ptr -> {t}
  {body}
  llvm.br ^done
^done:
  llvm.return
}}
"""


def _stores(text: str):
    module = Parser(context(), text).parse_module()
    assert isinstance(module, ModuleOp)
    fn = next(op for op in module.ops if isinstance(op, xllvm.FuncOp))
    blocks = list(fn.body.blocks)
    ex = Executor()
    paths = ex.explore(blocks[0], stop_blocks=(blocks[-1],))
    assert paths is not None
    s, p = fn.body.blocks.first.args  # type: ignore[union-attr]
    (loc, (_, t)), *_ = paths[0].memory.items()
    value = merge(paths, lambda q: q.memory[loc][0], t)
    shared, private = ("load", ("addr", ("leaf", s), 0), t), ("load", ("addr", ("leaf", p), 0), t)
    return value, shared, private


@pytest.mark.parametrize(
    ("t", "body", "kind"),
    [
        ("f64", "%r = llvm.fadd %a, %b : f64\n  llvm.store %r, %s : f64, !llvm.ptr", "add"),
        ("f64", "%r = llvm.fadd %b, %a : f64\n  llvm.store %r, %s : f64, !llvm.ptr", "add"),
        ("f32", "%r = llvm.fmul %a, %b : f32\n  llvm.store %r, %s : f32, !llvm.ptr", "mul"),
        ("i64", "%r = llvm.xor %b, %a : i64\n  llvm.store %r, %s : i64, !llvm.ptr", "xor"),
        ("f64", '%c = llvm.fcmp "ogt" %a, %b : f64\n  %r = llvm.select %c, %a, %b : i1, f64\n'
                "  llvm.store %r, %s : f64, !llvm.ptr", "max"),
        ("f64", '%c = llvm.fcmp "olt" %b, %a : f64\n  %r = llvm.select %c, %a, %b : i1, f64\n'
                "  llvm.store %r, %s : f64, !llvm.ptr", "max"),
        ("f64", '%c = llvm.fcmp "olt" %a, %b : f64\n  %r = llvm.select %c, %a, %b : i1, f64\n'
                "  llvm.store %r, %s : f64, !llvm.ptr", "min"),
        ("i32", '%c = llvm.icmp "ugt" %a, %b : i32\n  %r = llvm.select %c, %a, %b : i1, i32\n'
                "  llvm.store %r, %s : i32, !llvm.ptr", "umax"),
        ("i32", '%c = llvm.icmp "slt" %b, %a : i32\n  %r = llvm.select %c, %b, %a : i1, i32\n'
                "  llvm.store %r, %s : i32, !llvm.ptr", "min"),
        ("f64", "%r = llvm.intr.maxnum(%a, %b) : (f64, f64) -> f64\n  llvm.store %r, %s : f64, !llvm.ptr", "max"),
        # -O0: `a > b ? a : b` as branches and a phi, through memory
        ("f64", '%c = llvm.fcmp "ogt" %a, %b : f64\n  llvm.cond_br %c, ^t, ^e\n^t:\n'
                "  %x = llvm.load %s : !llvm.ptr -> f64\n  llvm.br ^j(%x : f64)\n^e:\n"
                "  %y = llvm.load %p : !llvm.ptr -> f64\n  llvm.br ^j(%y : f64)\n^j(%r: f64):\n"
                "  llvm.store %r, %s : f64, !llvm.ptr", "max"),
        # not combiners: the shared value on the wrong side, an extra operation, equality
        ("f64", "%r = llvm.fsub %b, %a : f64\n  llvm.store %r, %s : f64, !llvm.ptr", None),
        ("f64", "%m = llvm.fmul %a, %b : f64\n  %r = llvm.fadd %m, %b : f64\n"
                "  llvm.store %r, %s : f64, !llvm.ptr", None),
        ("f64", '%c = llvm.fcmp "oeq" %a, %b : f64\n  %r = llvm.select %c, %a, %b : i1, f64\n'
                "  llvm.store %r, %s : f64, !llvm.ptr", None),
        ("f64", '%c = llvm.fcmp "ogt" %a, %b : f64\n  %r = llvm.select %c, %a, %a : i1, f64\n'
                "  llvm.store %r, %s : f64, !llvm.ptr", None),
    ],
)
def test_binary_kind(t: str, body: str, kind: str | None) -> None:
    value, shared, private = _stores(COMBINE.format(t=t, body=body))
    assert binary_kind(value, shared, private) == kind


def test_sub_and_div_keep_their_order() -> None:
    value, shared, private = _stores(COMBINE.format(t="f64", body="%r = llvm.fdiv %a, %b : f64\n"
                                                                "  llvm.store %r, %s : f64, !llvm.ptr"))
    assert binary_kind(value, shared, private) == "div"
    assert binary_kind(value, private, shared) is None


def test_unknown_code_is_not_understood() -> None:
    """A call, or a loop whose exit does not fold, stops the execution: nothing is recognised."""
    text = """
llvm.func @g(f64) -> f64
llvm.func @f(%s: !llvm.ptr, %n: i32) {
  %a = llvm.load %s : !llvm.ptr -> f64
  %r = llvm.call @g(%a) : (f64) -> f64
  llvm.store %r, %s : f64, !llvm.ptr
  llvm.br ^done
^done:
  llvm.return
}
"""
    module = Parser(context(), text).parse_module()
    fn = [op for op in module.ops if isinstance(op, xllvm.FuncOp)][1]
    blocks = list(fn.body.blocks)
    assert Executor().explore(blocks[0], stop_blocks=(blocks[-1],)) is None
    loop = """
llvm.func @f(%s: !llvm.ptr, %n: i32) {
  %z = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^h(%z : i32)
^h(%i: i32):
  %c = llvm.icmp "slt" %i, %n : i32
  %j = llvm.add %i, %one : i32
  llvm.cond_br %c, ^h(%j : i32), ^done
^done:
  llvm.return
}
"""
    module = Parser(context(), loop).parse_module()
    fn = next(op for op in module.ops if isinstance(op, xllvm.FuncOp))
    blocks = list(fn.body.blocks)
    assert Executor().explore(blocks[0], stop_blocks=(blocks[-1],)) is None
