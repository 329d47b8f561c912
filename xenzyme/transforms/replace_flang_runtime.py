"""`replace-flang-runtime`: flang's runtime calls in differentiated code become calls of
xenzyme's own definitions of the same functions, loops over the array descriptors that the
engine differentiates like any code.

At -O0 flang-19 does whole-array work through its runtime library: `y = y0 + h * k` builds a
temporary and copies it with `_FortranAAssign`, and `sum`, `dot_product`, `maxval`, `minval`,
`product` are `_FortranASumReal8` and friends.  The library is compiled C++ without derivatives;
its functions' meaning is simple, so in the functions derivative requests reach each call of one
is replaced by a call of a definition written here in LLVM IR:

    _FortranAAssign(to, from, file, line)          -> xenzyme.flang.Assign
    _FortranASumReal8(x, file, line, dim, mask)     -> xenzyme.flang.SumReal8     (and Real4,
    _FortranAProductReal8, _FortranAMaxvalReal8,       Product, Maxval, Minval)
    _FortranAMinvalReal8
    _FortranADotProductReal8(x, y, file, line)      -> xenzyme.flang.DotProductReal8 (Real4)

Descriptors (flang's `Fortran::runtime::Descriptor`, C's `CFI_cdesc_t`): the base address at
byte 0, the element size at 8, the rank at 20 (i8), the type code at 21, then per dimension the
lower bound, the extent and the byte stride (24 bytes each) from byte 24.  Elements are visited
in array element order (the first subscript fastest), with their byte strides.

Each definition does the common case itself -- elements of type real(8) or real(4), `to`
allocated with the shape of `from` and not overlapping it, reductions over the whole array
without a mask -- and otherwise calls the runtime function it replaces, which a derivative
cannot follow: in differentiated code such a call stops the program with a message
(rules/fortran_runtime.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.passes import ModulePass

from xenzyme.analysis.callgraph import reachable
from xenzyme.dialects import autodiff as ad
from xenzyme.frontend.llvm_import import import_llvm_ir

_REQUESTS = (ad.AutodiffOp, ad.FwdDiffOp, ad.AugmentOp, ad.ReverseOp, ad.AugmentSizeOp)

_TYPES = {"Real8": ("double", 28), "Real4": ("float", 27)}
"""Runtime suffix -> (LLVM element type, CFI type code)."""

# The element loop shared by the definitions: %total elements of descriptor %x, each at
# %base + offset, the offset of element %k computed from the extents and byte strides.
_OFFSET = """
{k}.off:
  %{k}.d = phi i64 [ 0, %{k}.start ], [ %{k}.d1, %{k}.dim ]
  %{k}.rem = phi i64 [ %{k}, %{k}.start ], [ %{k}.rem1, %{k}.dim ]
  %{k}.acc = phi i64 [ 0, %{k}.start ], [ %{k}.acc1, %{k}.dim ]
  %{k}.more = icmp ult i64 %{k}.d, %rank
  br i1 %{k}.more, label %{k}.dim, label %{k}.done
{k}.dim:
  %{k}.ep = getelementptr i8, ptr %{x}, i64 32
  %{k}.epd = getelementptr [3 x i64], ptr %{k}.ep, i64 %{k}.d
  %{k}.e = load i64, ptr %{k}.epd
  %{k}.sp = getelementptr i64, ptr %{k}.epd, i64 1
  %{k}.s = load i64, ptr %{k}.sp
  %{k}.idx = urem i64 %{k}.rem, %{k}.e
  %{k}.rem1 = udiv i64 %{k}.rem, %{k}.e
  %{k}.m = mul i64 %{k}.idx, %{k}.s
  %{k}.acc1 = add i64 %{k}.acc, %{k}.m
  %{k}.d1 = add i64 %{k}.d, 1
  br label %{k}.off
"""


def _total(x: str) -> str:
    """Blocks computing %rank and %total (the number of elements) of descriptor %x, ending in
    a branch to %counted."""
    return f"""
  %rank.p = getelementptr i8, ptr %{x}, i64 20
  %rank8 = load i8, ptr %rank.p
  %rank = zext i8 %rank8 to i64
  br label %count
count:
  %cd = phi i64 [ 0, %entry ], [ %cd1, %count.dim ]
  %total = phi i64 [ 1, %entry ], [ %total1, %count.dim ]
  %cmore = icmp ult i64 %cd, %rank
  br i1 %cmore, label %count.dim, label %counted
count.dim:
  %cep = getelementptr i8, ptr %{x}, i64 32
  %cepd = getelementptr [3 x i64], ptr %cep, i64 %cd
  %ce = load i64, ptr %cepd
  %total1 = mul i64 %total, %ce
  %cd1 = add i64 %cd, 1
  br label %count
"""


def _type_check(x: str, code: int, ok: str, fallback: str) -> str:
    return f"""
  %{x}.tp = getelementptr i8, ptr %{x}, i64 21
  %{x}.t = load i8, ptr %{x}.tp
  %{x}.tok = icmp eq i8 %{x}.t, {code}
  %{x}.base = load ptr, ptr %{x}
  br i1 %{x}.tok, label %{ok}, label %{fallback}
"""


def _reduction(name: str, suffix: str, op: str) -> str:
    """Sum, Product, Maxval, Minval over the whole array (dim 0, no mask)."""
    t, code = _TYPES[suffix]
    init = {"Sum": "0.0", "Product": "1.0",
            "Maxval": "0xFFEFFFFFFFFFFFFF" if t == "double" else "0xC7EFFFFFE0000000",
            "Minval": "0x7FEFFFFFFFFFFFFF" if t == "double" else "0x47EFFFFFE0000000"}[op]  # fmt: skip
    combine = {
        "Sum": f"%acc1 = fadd {t} %acc, %v",
        "Product": f"%acc1 = fmul {t} %acc, %v",
        "Maxval": f"%gt = fcmp ogt {t} %v, %acc\n  %acc1 = select i1 %gt, {t} %v, {t} %acc",
        "Minval": f"%lt = fcmp olt {t} %v, %acc\n  %acc1 = select i1 %lt, {t} %v, {t} %acc",
    }[op]
    runtime = f"_FortranA{op}{suffix}"
    return f"""
declare {t} @{runtime}(ptr, ptr, i32, i32, ptr)

define internal {t} @{name}(ptr %x, ptr %file, i32 %line, i32 %dim, ptr %mask) {{
entry:{_total("x")}
counted:
  %whole = icmp eq i32 %dim, 0
  %nomask = icmp eq ptr %mask, null
  %plain = and i1 %whole, %nomask
  br i1 %plain, label %typed, label %fallback
typed:{_type_check("x", code, "loop", "fallback")}
loop:
  %k = phi i64 [ 0, %typed ], [ %k1, %k.done ]
  %acc = phi {t} [ {init}, %typed ], [ %acc1, %k.done ]
  %kmore = icmp ult i64 %k, %total
  br i1 %kmore, label %k.start, label %exit
k.start:
  br label %k.off
{_OFFSET.format(k="k", x="x")}
k.done:
  %p = getelementptr i8, ptr %x.base, i64 %k.acc
  %v = load {t}, ptr %p
  {combine}
  %k1 = add i64 %k, 1
  br label %loop
exit:
  ret {t} %acc
fallback:
  %r = call {t} @{runtime}(ptr %x, ptr %file, i32 %line, i32 %dim, ptr %mask)
  ret {t} %r
}}
"""


def _dot_product(name: str, suffix: str) -> str:
    t, code = _TYPES[suffix]
    runtime = f"_FortranADotProduct{suffix}"
    return f"""
declare {t} @{runtime}(ptr, ptr, ptr, i32)

define internal {t} @{name}(ptr %x, ptr %y, ptr %file, i32 %line) {{
entry:
  %xr.p = getelementptr i8, ptr %x, i64 20
  %xr = load i8, ptr %xr.p
  %yr.p = getelementptr i8, ptr %y, i64 20
  %yr = load i8, ptr %yr.p
  %xr1 = icmp eq i8 %xr, 1
  %yr1 = icmp eq i8 %yr, 1
  %both1 = and i1 %xr1, %yr1
  br i1 %both1, label %xtyped, label %fallback
xtyped:{_type_check("x", code, "ytyped", "fallback")}
ytyped:{_type_check("y", code, "shape", "fallback")}
shape:
  %xe.p = getelementptr i8, ptr %x, i64 32
  %xe = load i64, ptr %xe.p
  %xs.p = getelementptr i8, ptr %x, i64 40
  %xs = load i64, ptr %xs.p
  %ye.p = getelementptr i8, ptr %y, i64 32
  %ye = load i64, ptr %ye.p
  %ys.p = getelementptr i8, ptr %y, i64 40
  %ys = load i64, ptr %ys.p
  %same = icmp eq i64 %xe, %ye
  br i1 %same, label %loop, label %fallback
loop:
  %k = phi i64 [ 0, %shape ], [ %k1, %body ]
  %acc = phi {t} [ 0.0, %shape ], [ %acc1, %body ]
  %more = icmp ult i64 %k, %xe
  br i1 %more, label %body, label %exit
body:
  %xo = mul i64 %k, %xs
  %yo = mul i64 %k, %ys
  %xp = getelementptr i8, ptr %x.base, i64 %xo
  %yp = getelementptr i8, ptr %y.base, i64 %yo
  %xv = load {t}, ptr %xp
  %yv = load {t}, ptr %yp
  %m = fmul {t} %xv, %yv
  %acc1 = fadd {t} %acc, %m
  %k1 = add i64 %k, 1
  br label %loop
exit:
  ret {t} %acc
fallback:
  %r = call {t} @{runtime}(ptr %x, ptr %y, ptr %file, i32 %line)
  ret {t} %r
}}
"""


def _assign(name: str) -> str:
    """to = from for arrays of real(8) or real(4) of the same shape, `to` allocated, with
    positive strides and no overlap; the runtime otherwise."""
    return f"""
declare {{}} @_FortranAAssign(ptr, ptr, ptr, i32)

define internal {{}} @{name}(ptr %to, ptr %from, ptr %file, i32 %line) {{
entry:
  %tbase = load ptr, ptr %to
  %fbase = load ptr, ptr %from
  %tr.p = getelementptr i8, ptr %to, i64 20
  %tr = load i8, ptr %tr.p
  %fr.p = getelementptr i8, ptr %from, i64 20
  %fr = load i8, ptr %fr.p
  %tt.p = getelementptr i8, ptr %to, i64 21
  %tt = load i8, ptr %tt.p
  %ft.p = getelementptr i8, ptr %from, i64 21
  %ft = load i8, ptr %ft.p
  %rank = zext i8 %tr to i64
  %tnull = icmp eq ptr %tbase, null
  %samerank = icmp eq i8 %tr, %fr
  %sametype = icmp eq i8 %tt, %ft
  %isdouble = icmp eq i8 %tt, {_TYPES["Real8"][1]}
  %isfloat = icmp eq i8 %tt, {_TYPES["Real4"][1]}
  %real = or i1 %isdouble, %isfloat
  %ok1 = and i1 %samerank, %sametype
  %ok2 = and i1 %ok1, %real
  %tok = xor i1 %tnull, true
  %ok = and i1 %ok2, %tok
  br i1 %ok, label %shape, label %fallback
shape:
  %sd = phi i64 [ 0, %entry ], [ %sd1, %shape.next ]
  %total = phi i64 [ 1, %entry ], [ %total1, %shape.next ]
  %tspan = phi i64 [ 0, %entry ], [ %tspan1, %shape.next ]
  %fspan = phi i64 [ 0, %entry ], [ %fspan1, %shape.next ]
  %smore = icmp ult i64 %sd, %rank
  br i1 %smore, label %shape.dim, label %overlap
shape.dim:
  %tep = getelementptr i8, ptr %to, i64 32
  %tepd = getelementptr [3 x i64], ptr %tep, i64 %sd
  %te = load i64, ptr %tepd
  %tsp = getelementptr i64, ptr %tepd, i64 1
  %ts = load i64, ptr %tsp
  %fep = getelementptr i8, ptr %from, i64 32
  %fepd = getelementptr [3 x i64], ptr %fep, i64 %sd
  %fe = load i64, ptr %fepd
  %fsp = getelementptr i64, ptr %fepd, i64 1
  %fs = load i64, ptr %fsp
  %sameext = icmp eq i64 %te, %fe
  %tpos = icmp sgt i64 %ts, 0
  %fpos = icmp sgt i64 %fs, 0
  %pos = and i1 %tpos, %fpos
  %dimok = and i1 %sameext, %pos
  %total1 = mul i64 %total, %te
  %te1 = add i64 %te, -1
  %tst = mul i64 %te1, %ts
  %tspan1 = add i64 %tspan, %tst
  %fst = mul i64 %te1, %fs
  %fspan1 = add i64 %fspan, %fst
  br i1 %dimok, label %shape.next, label %fallback
shape.next:
  %sd1 = add i64 %sd, 1
  br label %shape
overlap:
  %esize.p = getelementptr i8, ptr %to, i64 8
  %esize = load i64, ptr %esize.p
  %tend.o = add i64 %tspan, %esize
  %fend.o = add i64 %fspan, %esize
  %tend = getelementptr i8, ptr %tbase, i64 %tend.o
  %fend = getelementptr i8, ptr %fbase, i64 %fend.o
  %same = icmp eq ptr %tbase, %fbase
  %before = icmp ule ptr %tend, %fbase
  %after = icmp ule ptr %fend, %tbase
  %apart = or i1 %before, %after
  %fine = or i1 %apart, %same
  br i1 %fine, label %loop, label %fallback
loop:
  %k = phi i64 [ 0, %overlap ], [ %k1, %k.done.d ], [ %k1, %k.done.f ]
  %kmore = icmp ult i64 %k, %total
  br i1 %kmore, label %k.start, label %exit
k.start:
  br label %k.off
{_OFFSET.format(k="k", x="to")}
k.done:
  br label %kf.start
kf.start:
  br label %kf.off
{_OFFSET.format(k="kf", x="from").replace("%kf, %kf.start", "%k, %kf.start")}
kf.done:
  %tp = getelementptr i8, ptr %tbase, i64 %k.acc
  %fp = getelementptr i8, ptr %fbase, i64 %kf.acc
  %k1 = add i64 %k, 1
  br i1 %isdouble, label %k.done.d, label %k.done.f
k.done.d:
  %vd = load double, ptr %fp
  store double %vd, ptr %tp
  br label %loop
k.done.f:
  %vf = load float, ptr %fp
  store float %vf, ptr %tp
  br label %loop
exit:
  ret {{}} zeroinitializer
fallback:
  %r = call {{}} @_FortranAAssign(ptr %to, ptr %from, ptr %file, i32 %line)
  ret {{}} %r
}}
"""


DEFINITIONS: dict[str, tuple[str, str]] = {"_FortranAAssign": ("xenzyme.flang.Assign", "assign")}
"""Runtime function -> (xenzyme's definition, what kind)."""
for _s in _TYPES:
    for _op in ("Sum", "Product", "Maxval", "Minval"):
        DEFINITIONS[f"_FortranA{_op}{_s}"] = (f"xenzyme.flang.{_op}{_s}", f"reduction {_op} {_s}")
    DEFINITIONS[f"_FortranADotProduct{_s}"] = (f"xenzyme.flang.DotProduct{_s}", f"dot {_s}")


def _definition(name: str, kind: str) -> str:
    words = kind.split()
    if words[0] == "assign":
        return _assign(name)
    if words[0] == "reduction":
        return _reduction(name, words[2], words[1])
    return _dot_product(name, words[1])


def replace_flang_runtime(module: ModuleOp) -> None:
    """Redirect the runtime calls of the functions derivative requests reach."""
    roots = [op.callee.string_value() for op in module.walk() if isinstance(op, _REQUESTS)]
    functions = {f.sym_name.data for f in module.ops if isinstance(f, xllvm.FuncOp)}
    needed: dict[str, str] = {}
    for fn in reachable(module, roots):
        for op in fn.walk():
            if isinstance(op, xllvm.CallOp) and op.callee is not None:
                target = DEFINITIONS.get(op.callee.string_value())
                if target is None:
                    continue
                op.properties["callee"] = SymbolRefAttr(target[0])
                needed[target[0]] = target[1]
    for name, kind in needed.items():
        if name in functions:
            continue
        for op in list(import_llvm_ir(_definition(name, kind), "<xenzyme flang runtime>").ops):
            if isinstance(op, xllvm.FuncOp) and op.sym_name.data in functions:
                continue  # (the runtime declaration the module has already)
            op.detach()
            module.body.block.add_op(op)
            if isinstance(op, xllvm.FuncOp):
                functions.add(op.sym_name.data)


@dataclass(frozen=True)
class ReplaceFlangRuntimePass(ModulePass):
    """flang's array runtime calls that derivative requests reach -> xenzyme's definitions of
    them as loops over descriptors (see the module docstring)."""

    name = "replace-flang-runtime"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        replace_flang_runtime(op)
