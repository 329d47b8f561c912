"""What xenzyme knows of the OpenMP runtime's interface (libomp, as clang-19 calls it).

Shared by `raise-openmp` (runtime calls -> `par` ops) and `lower-par` (back).  Numbers are
libomp's (kmp.h): schedule kinds (`sched_type`), schedule modifiers, `proc_bind` kinds, and the
`ident_t` flags clang puts on each call.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, i32, i64

SCHEDULES = {33: "static_chunked", 34: "static", 35: "dynamic", 36: "guided", 37: "runtime", 38: "auto"}
"""kmp_sch_static_chunked .. kmp_sch_auto."""
SCHEDULE_NUMBERS = {v: k for k, v in SCHEDULES.items()}
MODIFIERS = {1 << 29: "monotonic", 1 << 30: "nonmonotonic"}
MODIFIER_NUMBERS = {v: k for k, v in MODIFIERS.items()}
ORDERED_SCHEDULES = range(65, 71)
"""kmp_ord_static_chunked .. kmp_ord_auto: loops with an `ordered` clause."""
DISTRIBUTE_SCHEDULES = (91, 92)

IDENT_KMPC = 2
IDENT_BARRIER_EXPLICIT = 0x20
IDENT_WORK_LOOP = 0x200
IDENT_ATOMIC_REDUCE = 0x10

_VARIANTS = {"4": (i32, False), "4u": (i32, True), "8": (i64, False), "8u": (i64, True)}
"""Suffix of a loop entry point -> (type of the induction variable, unsigned)."""
STATIC_INIT = {f"__kmpc_for_static_init_{k}": v for k, v in _VARIANTS.items()}
DISPATCH_INIT = {f"__kmpc_dispatch_init_{k}": v for k, v in _VARIANTS.items()}
DISPATCH_NEXT = {f"__kmpc_dispatch_next_{k}": v for k, v in _VARIANTS.items()}


def static_init_name(t: IntegerType, unsigned: bool) -> str:
    return f"__kmpc_for_static_init_{4 if t == i32 else 8}{'u' if unsigned else ''}"


def dispatch_name(kind: str, t: IntegerType, unsigned: bool) -> str:
    return f"__kmpc_dispatch_{kind}_{4 if t == i32 else 8}{'u' if unsigned else ''}"


def decode_schedule(value: int, known: dict[int, str] = SCHEDULES) -> tuple[str, str | None] | None:
    """(schedule, modifier) of a runtime schedule number, or None when not supported."""
    modifier = None
    for bit, name in MODIFIERS.items():
        if value & bit:
            if modifier is not None:
                return None
            modifier, value = name, value & ~bit
    if value not in known:
        return None
    return known[value], modifier


def encode_schedule(schedule: str, modifier: str | None) -> int:
    return SCHEDULE_NUMBERS[schedule] | (MODIFIER_NUMBERS[modifier] if modifier else 0)


RAISED = {
    "__kmpc_fork_call", "__kmpc_push_num_threads", "__kmpc_push_proc_bind", "__kmpc_serialized_parallel",
    "__kmpc_end_serialized_parallel", *STATIC_INIT, "__kmpc_for_static_fini", *DISPATCH_INIT, *DISPATCH_NEXT,
    "__kmpc_dispatch_deinit", "__kmpc_reduce", "__kmpc_reduce_nowait", "__kmpc_end_reduce",
    "__kmpc_end_reduce_nowait", "__kmpc_barrier", "__kmpc_critical", "__kmpc_end_critical", "__kmpc_single",
    "__kmpc_end_single", "__kmpc_master", "__kmpc_end_master", "__kmpc_flush", "omp_get_thread_num",
    "omp_get_num_threads", "__kmpc_global_thread_num",
}  # fmt: skip
"""The runtime functions whose calls `raise-openmp` replaces by ops."""

CONSTRUCTS = (
    ("__kmpc_omp_taskwait", "taskwait"),
    ("__kmpc_omp_taskyield", "taskyield"),
    ("__kmpc_omp_task", "task"),
    ("__kmpc_taskgroup", "taskgroup"),
    ("__kmpc_end_taskgroup", "taskgroup"),
    ("__kmpc_taskloop", "taskloop"),
    ("__kmpc_task_reduction", "task reduction"),
    ("__kmpc_fork_teams", "teams"),
    ("__kmpc_push_num_teams", "teams"),
    ("__kmpc_distribute_static_init", "distribute"),
    ("__tgt_", "target"),
    ("__kmpc_ordered", "ordered"),
    ("__kmpc_end_ordered", "ordered"),
    ("__kmpc_doacross", "ordered depend"),
    ("__kmpc_dispatch_fini", "ordered"),
    ("__kmpc_cancel", "cancel"),
    ("__kmpc_cancellationpoint", "cancellation point"),
    ("__kmpc_copyprivate", "single copyprivate"),
    ("__kmpc_masked", "masked"),
    ("__kmpc_end_masked", "masked"),
    ("__kmpc_critical_with_hint", "critical hint"),
    ("__kmpc_threadprivate", "threadprivate"),
    ("__kmpc_push_num_threads", "num_threads"),
    ("__kmpc_push_proc_bind", "proc_bind"),
    ("__kmpc_fork_call", "parallel"),
    ("__kmpc_serialized_parallel", "parallel if(...)"),
    ("__kmpc_end_serialized_parallel", "parallel if(...)"),
    ("__kmpc_for_static_init", "for"),
    ("__kmpc_dispatch", "for schedule(dynamic)"),
    ("__kmpc_reduce", "reduction"),
    ("__kmpc_end_reduce", "reduction"),
    ("__kmpc_critical", "critical"),
    ("__kmpc_end_critical", "critical"),
    ("__kmpc_single", "single"),
    ("__kmpc_end_single", "single"),
    ("__kmpc_master", "master"),
    ("__kmpc_end_master", "master"),
    ("__kmpc_", "OpenMP runtime call"),
)
"""(name prefix, construct) for naming what a runtime call left in a function implements; the
first prefix that matches wins."""


NAMED_FAILURES = ("ordered", "distribute")
"""Reasons a loop's runtime call is not raised that are constructs of their own."""


def construct_of(callee: str) -> str:
    for prefix, construct in CONSTRUCTS:
        if callee.startswith(prefix):
            return construct
    return "OpenMP runtime call"


def is_runtime_call(callee: str) -> bool:
    """Calls that belong to an OpenMP construct (the API, omp_*, is ordinary library code)."""
    return callee.startswith(("__kmpc_", "__tgt_")) and callee != "__kmpc_global_thread_num"
