"""The `par` dialect: OpenMP parallel regions at the level of the `llvm` dialect.

clang compiles `#pragma omp` into calls to the OpenMP runtime (libomp's `__kmpc_*` entry
points): the body of a parallel region becomes an *outlined function* that `__kmpc_fork_call`
runs on a team of threads, and a worksharing loop becomes an ordinary CFG loop whose bounds come
from `__kmpc_for_static_init_*` or `__kmpc_dispatch_next_*`, written into stack slots through
pointers.  `raise-openmp` replaces these calls by the ops below, one for one, keeping what each
call carried and nothing opaque: SSA values instead of runtime-written memory, the combiner of a
reduction instead of a generated reduction function, an explicit thread id and team size.
`lower-par` turns them back into libomp calls (or, with `serial=true`, into plain sequential
code).  The derivative rules of the parallel layer are written against these ops.

    par.parallel @f.omp_outlined(%n, %x) : (!llvm.ptr, !llvm.ptr)
    par.parallel @f.omp_outlined(%n, %x) num_threads(%c3 : i32) proc_bind(close) : (!llvm.ptr, !llvm.ptr)
    par.parallel @f.omp_outlined(%n, %x) serial : (!llvm.ptr, !llvm.ptr)   // if(...) was false

Runs `@f.omp_outlined` on a team (in the caller; the outlined function keeps clang's signature
`(ptr gtid, ptr btid, captured...)` and the op's operands are the captured values only: the
lowering supplies the thread-id pointers).  A region outlined from an `scf.parallel`
(convert-scf-parallel-to-par) is a `func.func` with the same parameters until `lower-structured`
lowers it, and takes memrefs and indices until then.  `serial`: the region runs on the encountering
thread alone, a team of one (clang's `if(...)` clause, `__kmpc_serialized_parallel`).

The rest sit where clang put the runtime calls: in the outlined function, or in any function it
calls (orphaned worksharing constructs).

    %tid = par.thread_num : i32                 // omp_get_thread_num()
    %n = par.num_threads : i32                  // omp_get_num_threads()
    "omp.barrier"() : () -> ()                  // __kmpc_barrier (xDSL's op)
    "omp.flush"() : () -> ()                    // __kmpc_flush (xDSL's op)

    %lb, %ub, %stride, %last = par.static_init static %lb0 to %ub0 step %incr chunk %chunk : i32
    par.static_fini

The calling thread's share of the inclusive iteration range `%lb0..%ub0` of a statically
scheduled loop (`__kmpc_for_static_init_{4,4u,8,8u}`): `schedule(static)` gives one block
`%lb..%ub`; `static_chunked` gives the first chunk, the next ones being `%stride` further on.
`%last` says whether the thread runs the loop's last iteration (for `lastprivate`).  Options:
`unsigned` (an unsigned induction variable), `monotonic` / `nonmonotonic` (schedule modifiers).

    par.dispatch_init dynamic nonmonotonic %lb to %ub step %incr chunk %chunk : i32
    %more, %lb, %ub, %stride, %last = par.dispatch_next : i32
    par.dispatch_fini

Dynamically scheduled loops (`dynamic`, `guided`, `runtime`, `auto`, and the chunked static
schedule when it comes through the dispatcher): each `dispatch_next` hands out the next chunk
while `%more` is true; the other results are meaningful only then.

    par.reduce add %shared, %private count 8 nowait : f64

`shared[k] = shared[k] <kind> private[k]` for k < count, atomically with respect to the team;
the private copy is only read.  Kinds: `add`, `mul`, `max`, `min` (`max`: `s > p ? s : p`, as
clang's combiner), and on integers `umax`, `umin`, `and`, `or`, `xor`.  Without `nowait` the
reduction is blocking: no thread continues before every thread's contribution is in `shared`
(`__kmpc_reduce` + `__kmpc_end_reduce`).  One op per reduction variable; an array section
`reduction(+:h[0:8])` has `count 8`.

    par.critical_begin @".gomp_critical_user_.var"     // __kmpc_critical, the lock global kept
    par.critical_end @".gomp_critical_user_.var"
    %first = par.single_begin                           // __kmpc_single: true on one thread
    par.single_end
    %is_master = par.master_begin                       // __kmpc_master: true on thread 0
    par.master_end
    par.atomic_update mul %p, %v monotonic : f64        // *p = *p * v, atomically

`atomicrmw` stays the `llvm` dialect's op; `atomic_update` is what clang writes as a
compare-exchange loop on the bits of a float because `atomicrmw` cannot express it (`mul`,
`div`, `max`, `min`; `add`/`sub` when a loop was used all the same).

Why not xDSL's `omp` ops for all of this.  xDSL (like MLIR) models OpenMP with region ops:
`omp.parallel { omp.wsloop { omp.loop_nest (%i) = (%lb) to (%ub) step (%s) { ... } } }`, with
reductions declared by symbol (`omp.declare_reduction`).  At the `llvm` level the body of a
parallel region is already a separate function, and a worksharing loop is a CFG loop whose shape
clang's optimiser has changed (vectorised, unrolled, rotated, with prologues) -- raising it back
into `omp.loop_nest` is loop restructuring that does not always succeed, and the lowering would
have to outline it again.  `omp.wsloop` also has no guided or runtime schedule, and there is no
`omp.critical` or `omp.atomic` in xDSL.  Mirroring the runtime protocol keeps the raise and the
lowering exact, and gives the derivative rules what they need as SSA values: each thread's
bounds (to re-run the same iterations in reverse), the combiner of each reduction, the thread
id.  Where an xDSL op means exactly what the runtime call does and carries nothing more --
`omp.barrier`, `omp.flush` -- it is used as is.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import FuncOp, GlobalOp, LLVMPointerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue, TypeAttribute
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, SymbolTable
from xdsl.utils.exceptions import VerifyException

STATIC_SCHEDULES = ("static", "static_chunked")
DISPATCH_SCHEDULES = ("static_chunked", "static", "dynamic", "guided", "runtime", "auto")
SCHEDULE_MODIFIERS = ("monotonic", "nonmonotonic")
PROC_BINDS = ("false", "true", "master", "close", "spread")
"""The `proc_bind` clause's kinds, in libomp's numbering (0..4)."""

LOCAL_SLOT = "xenzyme.local_slot"
"""Argument attribute of an outlined function's parameter: it points to a stack slot of the
caller that no other pointer of the region reaches (a shared local variable of the function
that forks the region; `raise-openmp` proves it).  Not exported to LLVM IR."""

FLOAT_REDUCE_KINDS = ("add", "mul", "max", "min")
INT_REDUCE_KINDS = ("add", "mul", "max", "min", "umax", "umin", "and", "or", "xor")
ATOMIC_UPDATE_KINDS = ("add", "sub", "mul", "div", "max", "min")
ATOMIC_ORDERINGS = ("monotonic", "acquire", "release", "acq_rel", "seq_cst")

_PTR = LLVMPointerType()


def _is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


def _is_index_type(t: Attribute) -> bool:
    return t in (i32, i64)


def _keyword(parser: Parser, options: Sequence[str], what: str) -> str:
    word = parser.parse_optional_keyword_in(tuple(options))
    if word is None:
        parser.raise_error(f"expected {what} (one of {', '.join(options)})")
    return word


def _check_word(value: str, options: Sequence[str], what: str) -> None:
    if value not in options:
        raise VerifyException(f"unknown {what} '{value}' (expected one of {', '.join(options)})")


# ---------------------------------------------------------------------------------------------
# Parallel regions
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """Run `callee` on a team of threads (see the module docstring).

    `par.parallel @outlined(%a, %b) [num_threads(%n : i32)] [proc_bind(close)] [serial] : (types)`
    """

    name = "par.parallel"

    callee = prop_def(SymbolRefAttr)
    args = var_operand_def()
    num_threads = opt_operand_def(IntegerType)
    proc_bind = opt_prop_def(StringAttr)
    serial = opt_prop_def(UnitAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        callee: str | SymbolRefAttr,
        args: Sequence[SSAValue | Operation],
        num_threads: SSAValue | Operation | None = None,
        proc_bind: str | None = None,
        serial: bool = False,
    ):
        if isinstance(callee, str):
            callee = SymbolRefAttr(callee)
        super().__init__(
            operands=[args, [num_threads] if num_threads is not None else []],
            properties={
                "callee": callee,
                "proc_bind": StringAttr(proc_bind) if proc_bind is not None else None,
                "serial": UnitAttr() if serial else None,
            },
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.callee)
        printer.print_string("(")
        printer.print_list(self.args, printer.print_ssa_value)
        printer.print_string(")")
        if self.num_threads is not None:
            printer.print_string(" num_threads(")
            printer.print_ssa_value(self.num_threads)
            printer.print_string(" : ")
            printer.print_attribute(self.num_threads.type)
            printer.print_string(")")
        if self.proc_bind is not None:
            printer.print_string(f" proc_bind({self.proc_bind.data})")
        if self.serial is not None:
            printer.print_string(" serial")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_string("(")
        printer.print_list([a.type for a in self.args], printer.print_attribute)
        printer.print_string(")")

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        callee = parser.parse_symbol_name().data
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        nthreads = None
        if parser.parse_optional_keyword("num_threads") is not None:
            parser.parse_punctuation("(")
            n = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            nthreads = parser.resolve_operand(n, parser.parse_type())
            parser.parse_punctuation(")")
        bind = None
        if parser.parse_optional_keyword("proc_bind") is not None:
            parser.parse_punctuation("(")
            bind = _keyword(parser, PROC_BINDS, "a proc_bind kind")
            parser.parse_punctuation(")")
        serial = parser.parse_optional_keyword("serial") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        args = parser.resolve_operands(names, types, parser.pos)
        op = cls(callee, args, nthreads, bind, serial)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        if self.num_threads is not None and self.num_threads.type != i32:
            raise VerifyException(f"num_threads must be an i32, got {self.num_threads.type}")
        if self.serial is not None and self.num_threads is not None:
            raise VerifyException("a serial region runs on one thread: it takes no num_threads")
        if self.proc_bind is not None:
            _check_word(self.proc_bind.data, PROC_BINDS, "proc_bind kind")
        fn = SymbolTable.lookup_symbol(self, self.callee)
        if fn is None:
            return  # resolved where the module is complete
        if not isinstance(fn, FuncOp | func.FuncOp):  # (func.func: outlined from an scf.parallel)
            raise VerifyException(f"'{self.callee}' is not an llvm.func")
        params = fn.function_type.inputs.data
        if len(params) < 2 or any(not isinstance(p, LLVMPointerType) for p in params[:2]):
            raise VerifyException(
                f"@{self.callee.string_value()} is not an outlined parallel region: it must take "
                "(ptr global_tid, ptr bound_tid, captured...)"
            )
        if len(params) - 2 != len(self.args):
            raise VerifyException(
                f"@{self.callee.string_value()} takes {len(params) - 2} captured values, {len(self.args)} given"
            )
        for i, (a, p) in enumerate(zip(self.args, params[2:], strict=True)):
            if a.type != p:
                raise VerifyException(f"captured value {i} has type {a.type}, the region expects {p}")


@irdl_op_definition
class ThreadNumOp(IRDLOperation):
    """`%tid = par.thread_num : i32`: the calling thread's number in its team (0 outside a
    parallel region), `omp_get_thread_num()`."""

    name = "par.thread_num"

    res = result_def(i32)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])


@irdl_op_definition
class NumThreadsOp(IRDLOperation):
    """`%n = par.num_threads : i32`: the size of the calling thread's team (1 outside a parallel
    region), `omp_get_num_threads()`."""

    name = "par.num_threads"

    res = result_def(i32)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self):
        super().__init__(result_types=[i32])


# ---------------------------------------------------------------------------------------------
# Worksharing loops
# ---------------------------------------------------------------------------------------------


def _print_schedule(printer: Printer, op: Operation) -> None:
    printer.print_string(f" {op.schedule.data}")  # type: ignore[attr-defined]
    if op.modifier is not None:  # type: ignore[attr-defined]
        printer.print_string(f" {op.modifier.data}")  # type: ignore[attr-defined]
    if op.is_unsigned is not None:  # type: ignore[attr-defined]
        printer.print_string(" unsigned")


def _parse_schedule(parser: Parser, schedules: Sequence[str]) -> tuple[str, str | None, bool]:
    schedule = _keyword(parser, schedules, "a schedule")
    modifier = parser.parse_optional_keyword_in(SCHEDULE_MODIFIERS)
    unsigned = parser.parse_optional_keyword("unsigned") is not None
    return schedule, modifier, unsigned


def _print_bounds(printer: Printer, lb: SSAValue, ub: SSAValue, incr: SSAValue, chunk: SSAValue) -> None:
    printer.print_string(" ")
    printer.print_ssa_value(lb)
    printer.print_string(" to ")
    printer.print_ssa_value(ub)
    printer.print_string(" step ")
    printer.print_ssa_value(incr)
    printer.print_string(" chunk ")
    printer.print_ssa_value(chunk)


def _parse_bounds(parser: Parser) -> list:
    names = [parser.parse_unresolved_operand()]
    for word in ("to", "step", "chunk"):
        parser.parse_keyword(word)
        names.append(parser.parse_unresolved_operand())
    return names


def _schedule_props(schedule: str, modifier: str | None, unsigned: bool) -> dict[str, Attribute | None]:
    return {
        "schedule": StringAttr(schedule),
        "modifier": StringAttr(modifier) if modifier is not None else None,
        "is_unsigned": UnitAttr() if unsigned else None,
    }


def _verify_loop(op: Operation, schedules: Sequence[str], values: Sequence[SSAValue]) -> None:
    _check_word(op.schedule.data, schedules, "schedule")  # type: ignore[attr-defined]
    if op.modifier is not None:  # type: ignore[attr-defined]
        _check_word(op.modifier.data, SCHEDULE_MODIFIERS, "schedule modifier")  # type: ignore[attr-defined]
    t = values[0].type
    if not _is_index_type(t):
        raise VerifyException(f"loop bounds must be i32 or i64, got {t}")
    for v in values[1:]:
        if v.type != t:
            raise VerifyException(f"loop bounds, step and chunk must have one type, got {t} and {v.type}")


@irdl_op_definition
class StaticInitOp(IRDLOperation):
    """The calling thread's part of a statically scheduled loop (see the module docstring).

    `%lb, %ub, %stride, %last = par.static_init static %lb0 to %ub0 step %incr chunk %chunk : i32`
    """

    name = "par.static_init"

    lower = operand_def(IntegerType)
    upper = operand_def(IntegerType)
    incr = operand_def(IntegerType)
    chunk = operand_def(IntegerType)
    schedule = prop_def(StringAttr)
    modifier = opt_prop_def(StringAttr)
    is_unsigned = opt_prop_def(UnitAttr)
    lb = result_def(IntegerType)
    ub = result_def(IntegerType)
    stride = result_def(IntegerType)
    last = result_def(i1)

    def __init__(
        self,
        lower: SSAValue | Operation,
        upper: SSAValue | Operation,
        incr: SSAValue | Operation,
        chunk: SSAValue | Operation,
        schedule: str = "static",
        modifier: str | None = None,
        unsigned: bool = False,
    ):
        t = SSAValue.get(lower).type
        super().__init__(
            operands=[lower, upper, incr, chunk],
            result_types=[t, t, t, i1],
            properties=_schedule_props(schedule, modifier, unsigned),
        )

    def print(self, printer: Printer) -> None:
        _print_schedule(printer, self)
        _print_bounds(printer, self.lower, self.upper, self.incr, self.chunk)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lower.type)

    @classmethod
    def parse(cls, parser: Parser) -> StaticInitOp:
        schedule, modifier, unsigned = _parse_schedule(parser, STATIC_SCHEDULES)
        names = _parse_bounds(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(*parser.resolve_operands(names, [t] * 4, parser.pos), schedule, modifier, unsigned)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        _verify_loop(self, STATIC_SCHEDULES, self.operands)
        t = self.lower.type
        if (self.lb.type, self.ub.type, self.stride.type) != (t, t, t):
            raise VerifyException(f"results lb, ub and stride must have the bounds' type {t}")


@irdl_op_definition
class StaticFiniOp(IRDLOperation):
    """`par.static_fini`: the end of a statically scheduled loop (`__kmpc_for_static_fini`)."""

    name = "par.static_fini"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class DispatchInitOp(IRDLOperation):
    """Start a dynamically scheduled loop over the inclusive range `%lb..%ub`.

    `par.dispatch_init dynamic nonmonotonic %lb to %ub step %incr chunk %chunk : i32`
    """

    name = "par.dispatch_init"

    lower = operand_def(IntegerType)
    upper = operand_def(IntegerType)
    incr = operand_def(IntegerType)
    chunk = operand_def(IntegerType)
    schedule = prop_def(StringAttr)
    modifier = opt_prop_def(StringAttr)
    is_unsigned = opt_prop_def(UnitAttr)

    def __init__(
        self,
        lower: SSAValue | Operation,
        upper: SSAValue | Operation,
        incr: SSAValue | Operation,
        chunk: SSAValue | Operation,
        schedule: str = "dynamic",
        modifier: str | None = None,
        unsigned: bool = False,
    ):
        super().__init__(operands=[lower, upper, incr, chunk], properties=_schedule_props(schedule, modifier, unsigned))

    def print(self, printer: Printer) -> None:
        _print_schedule(printer, self)
        _print_bounds(printer, self.lower, self.upper, self.incr, self.chunk)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lower.type)

    @classmethod
    def parse(cls, parser: Parser) -> DispatchInitOp:
        schedule, modifier, unsigned = _parse_schedule(parser, DISPATCH_SCHEDULES)
        names = _parse_bounds(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(*parser.resolve_operands(names, [t] * 4, parser.pos), schedule, modifier, unsigned)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        _verify_loop(self, DISPATCH_SCHEDULES, self.operands)


@irdl_op_definition
class DispatchNextOp(IRDLOperation):
    """The next chunk of a dynamically scheduled loop: `%more` is false when none is left.

    `%more, %lb, %ub, %stride, %last = par.dispatch_next [unsigned] : i32`
    """

    name = "par.dispatch_next"

    is_unsigned = opt_prop_def(UnitAttr)
    more = result_def(i1)
    lb = result_def(IntegerType)
    ub = result_def(IntegerType)
    stride = result_def(IntegerType)
    last = result_def(i1)

    def __init__(self, t: Attribute, unsigned: bool = False):
        super().__init__(result_types=[i1, t, t, t, i1], properties={"is_unsigned": UnitAttr() if unsigned else None})

    def print(self, printer: Printer) -> None:
        if self.is_unsigned is not None:
            printer.print_string(" unsigned")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lb.type)

    @classmethod
    def parse(cls, parser: Parser) -> DispatchNextOp:
        unsigned = parser.parse_optional_keyword("unsigned") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        op = cls(parser.parse_type(), unsigned)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = self.lb.type
        if not _is_index_type(t):
            raise VerifyException(f"loop bounds must be i32 or i64, got {t}")
        if (self.ub.type, self.stride.type) != (t, t):
            raise VerifyException("results lb, ub and stride must have one type")


@irdl_op_definition
class DispatchFiniOp(IRDLOperation):
    """`par.dispatch_fini`: the end of a dynamically scheduled loop (`__kmpc_dispatch_deinit`)."""

    name = "par.dispatch_fini"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


# ---------------------------------------------------------------------------------------------
# Reductions and atomics
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`shared[k] = shared[k] <kind> private[k]` for k < count, atomically for the team.

    `par.reduce add %shared, %private [count 8] [nowait] : f64`
    """

    name = "par.reduce"

    shared = operand_def(LLVMPointerType)
    private = operand_def(LLVMPointerType)
    kind = prop_def(StringAttr)
    count = prop_def(IntegerAttr, default_value=IntegerAttr(1, i64))
    nowait = opt_prop_def(UnitAttr)
    element_type = prop_def(TypeAttribute)

    def __init__(
        self,
        kind: str,
        shared: SSAValue | Operation,
        private: SSAValue | Operation,
        element_type: Attribute,
        count: int = 1,
        nowait: bool = False,
    ):
        super().__init__(
            operands=[shared, private],
            properties={
                "kind": StringAttr(kind),
                "count": IntegerAttr(count, i64),
                "nowait": UnitAttr() if nowait else None,
                "element_type": element_type,
            },
        )

    @property
    def elements(self) -> int:
        return self.count.value.data

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        printer.print_ssa_value(self.shared)
        printer.print_string(", ")
        printer.print_ssa_value(self.private)
        if self.elements != 1:
            printer.print_string(f" count {self.elements}")
        if self.nowait is not None:
            printer.print_string(" nowait")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.element_type)

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        kind = _keyword(parser, INT_REDUCE_KINDS, "a reduction kind")
        s = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        p = parser.parse_unresolved_operand()
        count = 1
        if parser.parse_optional_keyword("count") is not None:
            count = parser.parse_integer(allow_boolean=False, allow_negative=True)
        nowait = parser.parse_optional_keyword("nowait") is not None
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(kind, parser.resolve_operand(s, _PTR), parser.resolve_operand(p, _PTR), t, count, nowait)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        t = self.element_type
        if _is_float(t):
            _check_word(self.kind.data, FLOAT_REDUCE_KINDS, "floating-point reduction kind")
        elif isinstance(t, IntegerType) and t.width.data in (8, 16, 32, 64):
            _check_word(self.kind.data, INT_REDUCE_KINDS, "integer reduction kind")
        else:
            raise VerifyException(f"reduction elements must be f32, f64 or i8..i64, got {t}")
        if self.elements < 1:
            raise VerifyException(f"count must be at least 1, got {self.elements}")


@irdl_op_definition
class AtomicUpdateOp(IRDLOperation):
    """`*ptr = *ptr <kind> value`, atomically: `par.atomic_update mul %p, %v monotonic : f64`."""

    name = "par.atomic_update"

    ptr = operand_def(LLVMPointerType)
    value = operand_def()
    kind = prop_def(StringAttr)
    ordering = prop_def(StringAttr, default_value=StringAttr("monotonic"))

    def __init__(self, kind: str, ptr: SSAValue | Operation, value: SSAValue | Operation, ordering: str = "monotonic"):
        super().__init__(
            operands=[ptr, value], properties={"kind": StringAttr(kind), "ordering": StringAttr(ordering)}
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.kind.data} ")
        printer.print_ssa_value(self.ptr)
        printer.print_string(", ")
        printer.print_ssa_value(self.value)
        printer.print_string(f" {self.ordering.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)

    @classmethod
    def parse(cls, parser: Parser) -> AtomicUpdateOp:
        kind = _keyword(parser, ATOMIC_UPDATE_KINDS, "an atomic update kind")
        p = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        v = parser.parse_unresolved_operand()
        ordering = _keyword(parser, ATOMIC_ORDERINGS, "an atomic ordering")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        t = parser.parse_type()
        op = cls(kind, parser.resolve_operand(p, _PTR), parser.resolve_operand(v, t), ordering)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        _check_word(self.kind.data, ATOMIC_UPDATE_KINDS, "atomic update kind")
        _check_word(self.ordering.data, ATOMIC_ORDERINGS, "atomic ordering")
        if not _is_float(self.value.type):
            raise VerifyException(f"atomic updates are on f32 or f64, got {self.value.type}")


# ---------------------------------------------------------------------------------------------
# Synchronisation: critical, single, master
# ---------------------------------------------------------------------------------------------


class _CriticalOp(IRDLOperation):
    lock = prop_def(SymbolRefAttr)

    def __init__(self, lock: str | SymbolRefAttr):
        super().__init__(properties={"lock": SymbolRefAttr(lock) if isinstance(lock, str) else lock})

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.lock)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser):
        lock = parser.parse_symbol_name().data
        attrs = parser.parse_optional_attr_dict()
        op = cls(lock)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        g = SymbolTable.lookup_symbol(self, self.lock)
        if g is not None and not isinstance(g, GlobalOp):
            raise VerifyException(f"the lock '{self.lock}' must be an llvm.mlir.global")


@irdl_op_definition
class CriticalBeginOp(_CriticalOp):
    """`par.critical_begin @lock`: wait for the lock named by the global `@lock` (one per
    critical section name; `__kmpc_critical`)."""

    name = "par.critical_begin"


@irdl_op_definition
class CriticalEndOp(_CriticalOp):
    """`par.critical_end @lock`: release it (`__kmpc_end_critical`)."""

    name = "par.critical_end"


@irdl_op_definition
class SingleBeginOp(IRDLOperation):
    """`%first = par.single_begin`: true on the one thread that runs a `single` block
    (`__kmpc_single`); the others skip it (the barrier after it is a separate op)."""

    name = "par.single_begin"

    first = result_def(i1)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i1])


@irdl_op_definition
class SingleEndOp(IRDLOperation):
    """`par.single_end`: the end of the `single` block, on the thread that ran it."""

    name = "par.single_end"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


@irdl_op_definition
class MasterBeginOp(IRDLOperation):
    """`%is_master = par.master_begin`: true on thread 0 of the team (`__kmpc_master`)."""

    name = "par.master_begin"

    is_master = result_def(i1)
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[i1])


@irdl_op_definition
class MasterEndOp(IRDLOperation):
    """`par.master_end`: the end of the `master` block, on thread 0."""

    name = "par.master_end"
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__()


PAR = Dialect(
    "par",
    [
        ParallelOp, ThreadNumOp, NumThreadsOp,
        StaticInitOp, StaticFiniOp, DispatchInitOp, DispatchNextOp, DispatchFiniOp,
        ReduceOp, AtomicUpdateOp,
        CriticalBeginOp, CriticalEndOp, SingleBeginOp, SingleEndOp, MasterBeginOp, MasterEndOp,
    ],  # fmt: skip
    [],
)
