"""The Python API: load (paths, text, bitcode, each language), run_pipeline, to_llvm_ir,
to_object, compile; and its errors, which are XenzymeErrors with a message and a location.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import llvmlite.binding as llb
import numpy as np
import pytest
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp

import xenzyme as xz
from xenzyme.dialects import llvm_ext as ext

needs_clang = pytest.mark.skipif(
    shutil.which("clang-19") is None, reason="clang-19 is not installed (run `make setup`)"
)

LL = """\
define double @cube(double %x) {
  %sq = fmul double %x, %x
  %c = fmul double %sq, %x
  ret double %c
}
"""

MLIR = """\
llvm.func @add1(%x: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %y = llvm.add %x, %one : i32
  llvm.return %y : i32
}
"""

C = """\
static int square(int x) { return x * x; }
int sum_squares(int n) {
  int s = 0;
  for (int i = 1; i <= n; i++) s += square(i);
  return s;
}
"""

CXX = """\
#include <vector>
#include <numeric>
extern "C" double mean(const double *x, int n) {
  std::vector<double> v(x, x + n);
  return std::accumulate(v.begin(), v.end(), 0.0) / n;
}
"""


def functions(module: ModuleOp) -> dict[str, xllvm.FuncOp]:
    return {op.sym_name.data: op for op in module.ops if isinstance(op, xllvm.FuncOp)}


def op_names(fn: xllvm.FuncOp) -> list[str]:
    return [op.name for op in fn.walk() if op is not fn]


# ---------------------------------------------------------------------------------------------
# load
# ---------------------------------------------------------------------------------------------


def test_load_llvm_text() -> None:
    module = xz.load(LL)
    cube = functions(module)["cube"]
    assert op_names(cube) == ["llvm.fmul", "llvm.fmul", "llvm.return"]
    assert [str(t) for t in cube.function_type.inputs.data] == ["f64"]


def test_load_paths_of_each_kind(tmp_path: Path) -> None:
    (tmp_path / "m.ll").write_text(LL)
    (tmp_path / "m.mlir").write_text(MLIR)
    assert "cube" in functions(xz.load(tmp_path / "m.ll"))
    assert "cube" in functions(xz.load(str(tmp_path / "m.ll")))
    add1 = functions(xz.load(tmp_path / "m.mlir"))["add1"]
    assert op_names(add1) == ["llvm.mlir.constant", "llvm.add", "llvm.return"]


def test_load_bitcode_path_and_bytes(tmp_path: Path) -> None:
    xz.load(LL)  # sets LLVM up
    bitcode = llb.parse_assembly(LL).as_bitcode()
    (tmp_path / "m.bc").write_bytes(bitcode)
    for module in (xz.load(tmp_path / "m.bc"), xz.load(bitcode)):
        assert op_names(functions(module)["cube"]) == ["llvm.fmul", "llvm.fmul", "llvm.return"]


def test_load_mlir_text() -> None:
    module = xz.load(MLIR)
    assert isinstance(module.body.block.first_op, xllvm.FuncOp)
    assert xz.compile(module).add1(41) == 42


@needs_clang
def test_load_c_and_cxx(tmp_path: Path) -> None:
    module = xz.load(C, language="c")
    assert xz.compile(module).sum_squares(4) == 1 + 4 + 9 + 16
    src = tmp_path / "mean.cpp"
    src.write_text(CXX)
    import numpy as np

    lib = xz.compile(xz.load(src))
    assert lib.mean(np.array([1.0, 2.0, 6.0]), 3) == 3.0


@needs_clang
def test_clang_flags_choose_the_level() -> None:
    o0 = functions(xz.load(C, language="c", clang_flags=["-O0"]))
    o2 = functions(xz.load(C, language="c"))
    assert "square" in o0 and "square" not in o2  # inlined and removed at -O2
    assert "llvm.alloca" in op_names(o0["sum_squares"])
    assert "llvm.alloca" not in op_names(o2["sum_squares"])


def test_language_is_guessed_or_given() -> None:
    assert "cube" in functions(xz.load(LL, language="llvm"))
    assert "add1" in functions(xz.load(MLIR, language="mlir"))
    with pytest.raises(xz.XenzymeError, match="unknown language 'cobol'"):
        xz.load(LL, language="cobol")


C_WITH_DEFINES = """\
#include <math.h>
#define N 3
#define SQ(x) ((x) * (x))
/* define double @f( in a comment, and a declare_ function: still C */
static double declare_sum(const double *x) { double s = 0; for (int i = 0; i < N; i++) s += SQ(x[i]); return s; }
double define_norm(const double *x) { return sqrt(declare_sum(x)); }
"""

LL_AS_CLANG_PRINTS = """\
; ModuleID = 'prog.c'
source_filename = "prog.c"
target triple = "x86_64-pc-linux-gnu"

; Function Attrs: nounwind
define dso_local double @twice(double noundef %0) #0 {
  %2 = fmul double %0, 2.000000e+00
  ret double %2
}

attributes #0 = { nounwind }
"""


@pytest.mark.parametrize(
    ("text", "language"),
    [
        (C_WITH_DEFINES, "c"),
        ("#pragma once\nint f(int x) { return x; }\n", "c"),
        ("int g;\nint f(void) { return g; }\n", "c"),
        ('// declare @f(\nint printf(const char *, ...);\nint f(void) { return printf("define x @y(\\n"); }\n', "c"),
        (CXX, "c++"),
        ("#include <cmath>\ndouble f(double x) { return std::sin(x); }\n", "c++"),
        ("template <typename T> T twice(T x) { return x + x; }\n", "c++"),
        ('#define K 2\nextern "C" int f(int x) { return K * x; }\n', "c++"),
        ("namespace a { int f(); }\n", "c++"),
        (LL, "llvm"),
        (LL_AS_CLANG_PRINTS, "llvm"),
        ("@g = global i32 0\n", "llvm"),
        ("declare double @sin(double)\n", "llvm"),
        (MLIR, "mlir"),
        ("builtin.module {\n}\n", "mlir"),
        ('"builtin.module"() ({\n}) : () -> ()\n', "mlir"),
        ("// a comment\n#map = affine_map<(d0) -> (d0)>\nfunc.func @f() {\n  func.return\n}\n", "mlir"),
        ("module {\n  llvm.func @f()\n}\n", "mlir"),
    ],
)
def test_guess_language(text: str, language: str) -> None:
    from xenzyme.frontend.language import guess_language

    assert guess_language(text) == language


@needs_clang
def test_c_text_with_preprocessor_lines_is_c() -> None:
    """C text holding `#define` was taken for LLVM IR (it contains "define ") and failed to parse."""
    import numpy as np

    lib = xz.compile(C_WITH_DEFINES)
    assert lib.define_norm(np.array([3.0, 4.0, 12.0])) == 13.0
    assert "twice" in functions(xz.load(LL_AS_CLANG_PRINTS))
    g = xz.gradient(C_WITH_DEFINES, "define_norm", ["dup"])
    x, dx = np.array([3.0, 4.0, 12.0]), np.zeros(3)
    g(x, dx)
    np.testing.assert_allclose(dx, x / 13.0, rtol=1e-15)


def test_a_file_name_says_the_language() -> None:
    assert "cube" in functions(xz.load(LL, filename="cube.ll"))
    with pytest.raises(xz.XenzymeError, match="prog.mlir:1:"):
        xz.load(LL, filename="prog.mlir")  # xDSL text it is not


def test_nul_bytes_are_not_llvm_ir(tmp_path: Path) -> None:
    """LLVM's parser stops at a NUL: binary garbage was read as an empty module."""
    with pytest.raises(xz.XenzymeError) as info:
        xz.load("define void @f() {\n  ret void\n}\n\0garbage", language="llvm", filename="x.ll")
    err = info.value
    assert err.message == "the input is not LLVM IR text: it contains a NUL byte"
    assert (err.location.file, err.location.line, err.location.column) == ("x.ll", 4, 1)
    garbage = tmp_path / "garbage.ll"
    garbage.write_bytes(b"\0\x8f\xff\x01binary")
    with pytest.raises(xz.XenzymeError, match=r"garbage.ll:1:1: the input is not LLVM IR text"):
        xz.load(garbage)
    with pytest.raises(xz.XenzymeError, match=r"the input is not LLVM IR text"):
        xz.load(b"\0\x01\x02")


# ---------------------------------------------------------------------------------------------
# errors: XenzymeError with a message and a location
# ---------------------------------------------------------------------------------------------


def test_missing_file() -> None:
    with pytest.raises(xz.XenzymeError, match="cannot read 'nowhere/x.ll': no such file"):
        xz.load("nowhere/x.ll")


def test_malformed_ir_has_llvm_message_and_position() -> None:
    with pytest.raises(xz.XenzymeError) as info:
        xz.load("define i32 @f(i32 %x) {\n  %y = add i32 %x, %nope\n  ret i32 %y\n}\n", filename="bad.ll")
    err = info.value
    assert err.message == "use of undefined value '%nope'"
    assert (err.location.file, err.location.line, err.location.column) == ("bad.ll", 2, 20)
    assert str(err).startswith("xenzyme: error: bad.ll:2:20: use of undefined value")


def test_unsupported_construct_names_construct_and_line() -> None:
    text = "define void @f(ptr %p) {\nentry:\n  indirectbr ptr %p, [label %a]\na:\n  ret void\n}\n"
    with pytest.raises(xz.XenzymeError) as info:
        xz.load(text, filename="jump.ll")
    err = info.value
    assert "instruction 'indirectbr' is not supported" in err.message
    assert "in function @f" in err.message
    assert (err.location.line, err.location.column) == (3, 3)


def test_invalid_mlir_is_a_xenzyme_error() -> None:
    with pytest.raises(xz.XenzymeError) as info:
        xz.load("llvm.func @f( {", language="mlir", filename="bad.mlir")
    assert info.value.message == "Expected argument or type"
    assert (info.value.location.file, info.value.location.line, info.value.location.column) == ("bad.mlir", 1, 15)
    with pytest.raises(xz.XenzymeError, match="does not verify"):
        xz.load('llvm.func @f(%a: i32) {\n  %0 = "llvm.icmp"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> i32\n  llvm.return\n}\n', language="mlir")


@needs_clang
def test_c_compile_error() -> None:
    with pytest.raises(xz.XenzymeError, match="clang failed on .*expected expression"):
        xz.load("int f(void) { return 1 + ; }", language="c")


# ---------------------------------------------------------------------------------------------
# run_pipeline, to_llvm_ir, to_object
# ---------------------------------------------------------------------------------------------


def test_run_pipeline_optimises_in_place() -> None:
    module = xz.load(
        "define i32 @f() {\n  %a = add i32 20, 1\n  %b = mul i32 %a, 2\n  ret i32 %b\n}\n"
    )
    returned = xz.run_pipeline(module, "llvm-opt{level=2}")
    assert returned is module
    f = functions(module)["f"]
    const = f.body.block.first_op
    assert isinstance(const, xllvm.ConstantOp) and const.value.value.data == 42
    assert op_names(f) == ["llvm.mlir.constant", "llvm.return"]


def test_run_pipeline_with_xdsl_passes() -> None:
    module = xz.load(MLIR)
    xz.run_pipeline(module, "canonicalize,cse,dce")
    assert xz.compile(module).add1(1) == 2


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("no-such-pass", "unknown pass 'no-such-pass'"),
        ("llvm-opt{bogus=1}", "has no option 'bogus'"),
        ("llvm-opt{level=9}", "level must be 0, 1, 2 or 3"),
        ("llvm-opt{level", "malformed pass pipeline"),
    ],
)
def test_run_pipeline_errors(pipeline: str, message: str) -> None:
    with pytest.raises(xz.XenzymeError, match=message):
        xz.run_pipeline(xz.load(LL), pipeline)


def test_to_llvm_ir_round_trip() -> None:
    text = xz.to_llvm_ir(xz.load(LL))
    assert "define double @cube(double %x)" in text
    assert "%c = fmul double %sq, %x" in text
    again = functions(xz.load(text))["cube"]
    assert op_names(again) == ["llvm.fmul", "llvm.fmul", "llvm.return"]


def test_to_llvm_ir_of_a_module_built_in_python() -> None:
    from xdsl.builder import Builder
    from xdsl.dialects.builtin import f64
    from xdsl.ir import Block, Region
    from xdsl.rewriter import InsertPoint

    entry = Block(arg_types=[f64])
    b = Builder(InsertPoint.at_end(entry))
    y = b.insert(xllvm.FMulOp(entry.args[0], entry.args[0])).res
    b.insert(xllvm.ReturnOp(y))
    fn = xllvm.FuncOp(
        "sq", ext.LLVMFunctionType([f64], f64), linkage=xllvm.LinkageAttr("external"), body=Region([entry])
    )
    module = ModuleOp([fn])
    text = xz.to_llvm_ir(module)
    assert "define double @sq(double %arg0)" in text
    assert xz.compile(module).sq(1.5) == 2.25


def test_to_object_writes_an_elf_file(tmp_path: Path) -> None:
    data = xz.to_object(xz.load(LL), tmp_path / "cube.o")
    assert data[:4] == b"\x7fELF"
    assert (tmp_path / "cube.o").read_bytes() == data
    assert data[4] == 2  # 64-bit
    assert b"cube" in data  # the symbol table names the function


# ---------------------------------------------------------------------------------------------
# compile: a program written for Enzyme
# ---------------------------------------------------------------------------------------------


@needs_clang
def test_compile_runs_the_derivative_requests_of_the_readme_program(capfd) -> None:
    """README's C program, loaded and compiled as README's Python section does: `compile`
    differentiates its `__enzyme_autodiff` call (the JIT could not resolve it before)."""
    import ctypes
    import re

    import numpy as np

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    program = re.search(r"```c\n(.*?)```", readme, re.S).group(1)
    assert "__enzyme_autodiff" in program
    module = xz.load(program)
    lib = xz.compile(module)
    x = np.array([0.1, 0.2, 0.3])
    assert lib.loss(x, 3) == pytest.approx(float(np.sum(np.sin(x) * x)), rel=1e-15)
    assert lib.main() == 0
    ctypes.CDLL(None).fflush(None)
    printed = [float(v) for v in capfd.readouterr().out.split()]
    np.testing.assert_allclose(printed, np.cos(x) * x + np.sin(x), atol=5e-7)  # printed with %f
    assert xz.api.has_derivative_requests(module)  # compile worked on a copy
    grad = xz.gradient(program, "loss", ["dup", "const"])  # the program's own request is run too
    dx = np.zeros(3)
    grad(x, dx, 3)
    np.testing.assert_allclose(dx, np.cos(x) * x + np.sin(x), rtol=1e-14)


@needs_clang
def test_instruction_text_prints_llvm_syntax() -> None:
    """Messages about an instruction show it as the user's LLVM IR does (not as xDSL text)."""
    from xenzyme.backend.llvm_export import instruction_text

    for flags in (["-O2", "-g0"], ["-O2"]):  # without and with debug locations
        module = xz.load("double f(double x, double y) { return x / y; }", language="c", clang_flags=flags)
        fn = functions(module)["f"]
        texts = [instruction_text(op) for op in fn.walk() if op is not fn and not isinstance(op, ext.DbgRecordOp)]
        assert texts == ["%div = fdiv double %x, %y", "ret double %div"]
    assert instruction_text(module) is None


_PAIR = """
llvm.func @f(%p: !llvm.ptr, %n: i64) -> f64 {
  %u = llvm.mlir.undef : !llvm.struct<(!llvm.ptr, i64)>
  %s = llvm.insertvalue %p, %u[0] : !llvm.struct<(!llvm.ptr, i64)>
  %t = llvm.insertvalue %n, %s[1] : !llvm.struct<(!llvm.ptr, i64)>
  %q = llvm.extractvalue %t[0] : !llvm.struct<(!llvm.ptr, i64)>
  %m = llvm.extractvalue %t[1] : !llvm.struct<(!llvm.ptr, i64)>
  %last = llvm.getelementptr %q[%m] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  %v = llvm.load %q : !llvm.ptr -> f64
  %w = llvm.load %last : !llvm.ptr -> f64
  %r = llvm.fmul %v, %w : f64
  llvm.return %r : f64
}
"""


@pytest.mark.parametrize("preopt", [0, 2])
def test_pointer_taken_back_from_a_pair(preopt: int) -> None:
    """A pointer put into a {ptr, len} pair and taken out again (unoptimised code's fat pointers)
    keeps its shadow: d(a0 * a1)/da = (a1, a0)."""
    g = xz.gradient(xz.load(_PAIR, language="mlir"), "f", ["dup", "const"], preopt=preopt, cache=False)
    a, da = np.array([3.0, 5.0]), np.zeros(2)
    g(a, da, 1)
    assert da.tolist() == [5.0, 3.0]
