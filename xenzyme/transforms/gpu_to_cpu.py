"""The CPU lowering of the gpu layer (`lower-gpu{target=cpu}`): kernels become host functions.

A kernel `@k(params...)` becomes these functions:

    i32 @k(i32 grid_x, i32 grid_y, i32 grid_z, i32 block_x, i32 block_y, i32 block_z,
           i64 shared_bytes, params...)
        runs every block of the grid (`b in 0 .. grid_x*grid_y*grid_z`, x fastest) on a team
        of libomp threads (`k.grid`, the blocks handed out one at a time), and returns the OR
        of the blocks' status: 0, or 1 if in some block a barrier was reached by only some of
        its threads (CUDA leaves that undefined; here it is detected and reported).  All six
        dimensions must be at least 1; `shared_bytes` is the launch's dynamic shared memory.
    internal i32 @"k.block"(i32 block_id_x, y, z, i32 grid_x, y, z, i32 block_x, y, z,
                            i64 shared_bytes, params...)
        runs one block.  Blocks share nothing but device memory.
    internal i32 @"k.block.alone"(the same)
        the same for a team of one host thread (one block after the other, nothing beside
        them), where atomic updates of memory are plain loads and stores: the atomics with
        which derivatives add adjoints that other blocks may add at the same address (a
        stencil's neighbours) are most of a gradient's time otherwise, an atomic addition of a
        float being a compare-and-swap loop on the CPU.  Made only for a block with atomics.

Within a block, the kernel body is split into *phases* at its barriers: a phase starts at the
kernel's entry or just after a barrier, and runs until the next barrier or a return.  Each
phase is a loop nest over the block's threads (z, y, x; x fastest) around a copy of the code of
that phase, so that all threads finish one phase before any starts the next -- what the
barrier demands.  Every thread ends a phase at the same barrier (the barrier must be in
control flow that is the same for the whole block, checked by `analysis.divergence` when
compiling, and at run time: a thread that ends elsewhere sets the status 1), and the next
phase starts after it.  A barrier in a loop makes the phase from that barrier round the loop
back to it run once per trip: the loop is interchanged with the thread loop, which is legal
because every thread makes the same number of trips.

A value computed in one phase and used in another (live at the start of a phase) is either
recomputed where it is used, when it is cheap and depends only on thread and block ids,
kernel arguments and constants (`i = blockIdx.x * blockDim.x + threadIdx.x`), or kept per
thread: an array of one slot per thread of the block, written where the value is computed and
read where it is used.  A local variable (`alloca`) whose address is used in more than one
phase gets one copy per thread; otherwise one copy serves all threads in turn.

Shared memory is one buffer per block: the kernel's static `__shared__` arrays at fixed offsets,
then the dynamic (`extern __shared__`) memory, `shared_bytes` long.  Atomics stay atomic.  The
host function clears the shadows of device globals that a kernel asking for derivatives uses
before its grid runs (xenzyme/transforms/gpu_globals.py).

Before that, functions that read thread ids, wait at barriers or use shared memory are inlined
into the kernels that call them (a recursive one is an error), and what is left of them is
removed; address spaces are erased (the CPU has one); libdevice math becomes libm
(`gpu_math.libdevice_to_libm`); the NVPTX triple, data layout and target attributes are
dropped, so that the module is compiled for the host.
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
from xdsl.builder import Builder
from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from xenzyme.analysis.callgraph import direct_callee, symbol_users
from xenzyme.analysis.cfg import constant_int, successors
from xenzyme.analysis.divergence import Divergence, check_barriers, underlying_alloca
from xenzyme.analysis.types import size_align
from xenzyme.diagnostics import SourceLocation, XenzymeError
from xenzyme.dialects import gpu
from xenzyme.dialects import llvm_ext as ext
from xenzyme.dialects import par
from xenzyme.rules.emitter import ensure_declaration
from xenzyme.transforms.gpu_combine import combine_helper_cpu, flush_helper_cpu, owned_add_helper
from xenzyme.transforms.gpu_globals import drop_marks, zero_in_host, zeroed_at_launch
from xenzyme.transforms.gpu_math import call_op, libdevice_to_libm
from xenzyme.transforms.gpu_shared import shared_arrays, strided_loop
from xenzyme.transforms.inlining import inline_call
from xenzyme.transforms.reverse_diff import location_of

HOST_PARAMS = 7
"""The host function's parameters before the kernel's own: grid x/y/z, block x/y/z, shared bytes."""

BLOCK_PARAMS = 10
"""The block function's parameters before the kernel's own: block id, grid and block sizes
(x/y/z each), shared bytes."""

SHARED_ALIGN = 16

_START = 0
"""Phase number of the kernel's entry; phase k >= 1 starts after barrier k."""
_RETURNED = -1
"""A thread's exit code when it returned."""
_NONE = -2
"""The exit code before any thread of the phase has run."""

_LEAVES = (xllvm.ConstantOp, xllvm.ZeroOp, xllvm.UndefOp, ext.PoisonOp, xllvm.AddressOfOp, *gpu.ID_OPS)
_RECOMPUTABLE = (
    xllvm.AddOp, xllvm.SubOp, xllvm.MulOp, xllvm.AndOp, xllvm.OrOp, xllvm.XOrOp, xllvm.ShlOp,
    xllvm.LShrOp, xllvm.AShrOp, xllvm.UDivOp, xllvm.SDivOp, xllvm.URemOp, xllvm.SRemOp,
    xllvm.TruncOp, xllvm.ZExtOp, xllvm.SExtOp, xllvm.SIToFPOp, ext.UIToFPOp, xllvm.FPExtOp,
    xllvm.FPTruncOp, xllvm.BitcastOp, ext.AddrSpaceCastOp, ext.ICmpOp, ext.FCmpOp, ext.GEPOp,
    ext.SelectOp, xllvm.FAddOp, xllvm.FSubOp, xllvm.FMulOp, xllvm.FNegOp,
)  # fmt: skip
"""Ops recomputed in a later phase rather than kept per thread, when their operands are too."""
_RECOMPUTE_DEPTH = 6
POOL_PREFIX = "xenzyme.pool."
"""Globals holding a buffer that a derivative's cache takes when it starts and gives back when it
returns (lower-autodiff's pool slots): one for all threads would serve one thread of a block and
make the others allocate afresh in every block, so each thread of a block gets its own slot,
kept by each host thread from block to block of a launch."""
_DROPPED = ("llvm.intr.lifetime.start", "llvm.intr.lifetime.end", "llvm.dbg_record")


def _const(b: Builder, v: int, t: Attribute) -> SSAValue:
    return b.insert(xllvm.ConstantOp(IntegerAttr(v, t), t)).results[0]


def _fail(module: ModuleOp, op: Operation | None, message: str, notes: Sequence[str] = ()) -> XenzymeError:
    src = module.attributes.get("llvm.source_filename")
    name = src.data if isinstance(src, StringAttr) else None
    where = (location_of(op, name) if op is not None else None) or SourceLocation(name)
    return XenzymeError(message, where, list(notes))


# ---------------------------------------------------------------------------------------------
# Module-wide preparation
# ---------------------------------------------------------------------------------------------


def retarget_to_host(module: ModuleOp) -> None:
    """Drop what ties the module to NVPTX: triple, data layout, target CPU and features."""
    for key in ("llvm.target_triple", "llvm.data_layout"):
        module.attributes.pop(key, None)
    for fn in module.ops:
        if not isinstance(fn, xllvm.FuncOp) or fn.passthrough is None:
            continue
        kept = [
            a for a in fn.passthrough.data
            if not (isinstance(a, ArrayAttr) and isinstance(k := a.data[0], StringAttr)
                    and k.data in ("target-cpu", "target-features", "uniform-work-group-size"))
        ]  # fmt: skip
        fn.properties["passthrough"] = ArrayAttr(kept)


def check_no_nvvm(module: ModuleOp) -> None:
    from xenzyme.transforms.raise_nvvm import intrinsic_name, is_nvvm

    for op in module.walk():
        if is_nvvm(op):
            raise _fail(module, op, f"the GPU intrinsic @{intrinsic_name(op)} has no CPU lowering",
                        ["warp-level intrinsics (shuffles, votes, __syncthreads_count, ...) cannot run on the CPU; "
                         "run raise-nvvm first for the ones that can"])  # fmt: skip


def gpu_functions(module: ModuleOp) -> set[str]:
    """Functions that read thread ids, wait at barriers or use shared memory, or call one."""
    shared = {g.sym_name.data for g in module.ops if gpu.is_shared(g)}
    fns = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp) and f.body.blocks}
    graph = nx.DiGraph()
    using: set[str] = set()
    for name, f in fns.items():
        graph.add_node(name)
        for op in f.walk():
            if isinstance(op, (*gpu.ID_OPS, gpu.BarrierOp, *gpu.ADD_OPS)) or (
                isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in shared
            ):
                using.add(name)
            if (c := direct_callee(op)) in fns:
                graph.add_edge(c, name)  # callee -> caller
    out = set(using)
    for name in using:
        out |= nx.descendants(graph, name)
    return out


def inline_gpu_functions(module: ModuleOp) -> None:
    """Inline every call of a gpu function (`gpu_functions`) into the kernels; remove the gpu
    functions that are no kernel and are left without users."""
    using = gpu_functions(module)
    fns = {f.sym_name.data: f for f in module.ops if isinstance(f, xllvm.FuncOp)}
    graph = nx.DiGraph([(n, c) for n in using for op in fns[n].walk() if (c := direct_callee(op)) in using])
    for cycle in nx.simple_cycles(graph):
        name = cycle[0]
        raise _fail(module, None, f"@{name} reads thread ids, waits at a barrier or uses shared memory, and is "
                                  "recursive: it cannot be inlined into the kernel for the CPU",
                    ["rewrite the recursion as a loop"])  # fmt: skip
    for k in gpu.kernels(module):
        while True:
            calls = [op for op in k.walk() if isinstance(op, xllvm.CallOp) and direct_callee(op) in using]
            if not calls:
                break
            for call in calls:
                callee = fns[direct_callee(call)]  # type: ignore[index]
                if gpu.is_kernel(callee):
                    raise _fail(module, call, f"a kernel calls the kernel @{callee.sym_name.data}")
                if call.var_callee_type is not None:
                    raise _fail(module, call, f"the variadic device function @{callee.sym_name.data} cannot run on the CPU")
                inline_call(call, callee)
        for op in k.walk():
            if isinstance(op, ext.InvokeOp) and op.callee is not None and op.callee.string_value() in using:
                raise _fail(module, op, "exceptions are not supported in device code")
    left = {n for n in using if not gpu.is_kernel(fns[n])}
    while left:  # what is left of them: gone once nothing calls it (callers first)
        dead = {n for n in left if not symbol_users(module, n)}
        if not dead:
            name = min(left)
            raise _fail(module, symbol_users(module, name)[0],
                        f"@{name} reads thread ids, waits at a barrier or uses shared memory, and is used other "
                        "than by a direct call from a kernel: it cannot run on the CPU",
                        ["call it directly from the kernel"])  # fmt: skip
        for name in dead:
            for op in list(module.walk()):
                if isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() == name:
                    op.detach()  # unused (symbol_users found none): a leftover of raise-enzyme-calls
                    op.erase()
            fns[name].detach()
            fns[name].erase()
        left -= dead


def erase_address_spaces(module: ModuleOp) -> None:
    """One address space on the CPU: every pointer becomes `!llvm.ptr`, casts between address
    spaces disappear, globals move to address space 0."""
    generic = ext.LLVMPointerType()

    def is_spaced(t: Attribute) -> bool:
        return isinstance(t, ext.LLVMPointerType) and isinstance(t.addr_space, IntAttr) and t.addr_space.data != 0

    for op in module.ops:
        if isinstance(op, xllvm.GlobalOp) and gpu.address_space(op) != 0:
            op.properties["addr_space"] = IntegerAttr(0, 32)
        if isinstance(op, xllvm.FuncOp):
            ft = op.function_type
            ins = [generic if is_spaced(t) else t for t in ft.inputs.data]
            out = generic if is_spaced(ft.output) else ft.output
            if list(ins) != list(ft.inputs.data) or out != ft.output:
                op.properties["function_type"] = ext.LLVMFunctionType(ins, out, ft.is_variadic)
    for op in list(module.walk()):
        for r in list(op.results):
            if is_spaced(r.type):
                Rewriter.replace_value_with_new_type(r, generic)
        for region in op.regions:
            for block in region.blocks:
                for a in list(block.args):
                    if is_spaced(a.type):
                        Rewriter.replace_value_with_new_type(a, generic)
    for op in list(module.walk()):
        if isinstance(op, ext.AddrSpaceCastOp) and op.arg.type == op.result.type:
            op.result.replace_all_uses_with(op.arg)
            op.detach()
            op.erase()


def scopeless_fences(module: ModuleOp) -> None:
    """`fence syncscope("block")` and the like: the CPU's fences have no GPU scopes."""
    for op in module.walk():
        if isinstance(op, ext.FenceOp) and op.syncscope is not None and op.syncscope.data != "singlethread":
            del op.properties["syncscope"]


# ---------------------------------------------------------------------------------------------
# Shared memory
# ---------------------------------------------------------------------------------------------


def shared_layout(module: ModuleOp, kernel: xllvm.FuncOp) -> tuple[dict[str, int], int]:
    """Offsets of the shared arrays `kernel` uses (with the functions it calls) in its block's
    buffer, and the bytes of static shared memory (where dynamic shared memory starts).  The
    dynamic arrays' offsets are those of the launch's own dynamic memory (offset `static`);
    copies of it (`gpu.dynamic_copy`) follow at multiples of its size, known at launch."""
    offsets: dict[str, int] = {}
    end = 0
    used = shared_arrays(module, kernel)
    for g in used:
        if gpu.is_dynamic_shared(g):
            continue
        n = g.sym_name.data
        sa = size_align(g.global_type)
        if sa is None:
            raise _fail(module, None, f"the shared array @{n} has no size")
        size, align = sa
        if g.alignment is not None:
            align = max(align, g.alignment.value.data)
        end = -(-end // align) * align
        offsets[n] = end
        end += size
    static = -(-end // SHARED_ALIGN) * SHARED_ALIGN
    for g in used:
        if gpu.is_dynamic_shared(g):
            offsets[g.sym_name.data] = static
    return offsets, static


# ---------------------------------------------------------------------------------------------
# One kernel
# ---------------------------------------------------------------------------------------------


class KernelLowering:
    """The host and block functions of one kernel (see the module docstring)."""

    def __init__(self, module: ModuleOp, kernel: xllvm.FuncOp, zeroed: Sequence[xllvm.GlobalOp] = ()):
        self.module = module
        self.zeroed = list(zeroed)  # shadows of globals cleared as each launch starts
        self.k = kernel
        self.name = kernel.sym_name.data
        self.entry = kernel.body.blocks.first
        self.resume: list[Block] = [self.entry]  # phase k starts at resume[k]
        self.barrier_exit: dict[Block, int] = {}  # block ending with a barrier -> phase after it

    # ---- analysis of the kernel ------------------------------------------------------------

    def prepare(self) -> None:
        for op in list(self.k.walk()):
            if op.name in _DROPPED:
                op.detach()
                op.erase()
        self._split_at_barriers()
        d = Divergence.of(self.k, self.module)
        bad = check_barriers(d)
        if bad is not None:
            raise _fail(self.module, bad, f"__syncthreads() in @{self.name} is in control flow that differs between "
                                          "the threads of a block (it depends on threadIdx or on per-thread data)",
                        ["every thread of a block must reach the same barriers: move the barrier out of the "
                         "branch or loop, or make its condition the same for the whole block"])  # fmt: skip
        self.live_in = self._liveness()
        self.crossing: set[SSAValue] = set()
        for r in self.resume[1:]:
            self.crossing |= self.live_in[r]
        self.recomputed = {v for v in self.crossing if self._recomputable(v, 0)}
        self.kept = self.crossing - self.recomputed
        self.allocas = [op for op in self.k.walk() if isinstance(op, xllvm.AllocaOp)]
        for a in self.allocas:
            if constant_int(a.size) is None:
                raise _fail(self.module, a, f"@{self.name} allocates stack memory of a size known only at run time, "
                                            "which the CPU lowering does not support", ["use a fixed-size array"])  # fmt: skip
        self.per_thread = {a for a in self.allocas if self._alloca_per_thread(a)}
        pools = {op.global_name.string_value() for op in self.k.walk() if isinstance(op, xllvm.AddressOfOp)}
        globals_ = {g.sym_name.data for g in self.module.ops if isinstance(g, xllvm.GlobalOp)}
        self.pools = {n: k for k, n in enumerate(sorted(n for n in pools & globals_ if n.startswith(POOL_PREFIX)))}
        shared = {g.sym_name.data for g in self.module.ops if gpu.is_shared(g)}
        self.block_local_atomics = {op for op in self.k.walk() if isinstance(op, ext.AtomicRMWOp)
                                    and op.bin_op.data in _PLAIN_RMW and _in_shared(op.operands[0], shared)}  # fmt: skip

    def _split_at_barriers(self) -> None:
        region = self.k.body
        for block in list(region.blocks):
            op = block.first_op
            while op is not None:
                nxt = op.next_op
                if isinstance(op, gpu.BarrierOp):
                    rest = Block()
                    region.insert_block_after(rest, block)
                    after = nxt
                    while after is not None:
                        n2 = after.next_op
                        after.detach()
                        rest.add_op(after)
                        after = n2
                    block.add_op(xllvm.BrOp(rest))
                    self.resume.append(rest)
                    self.barrier_exit[block] = len(self.resume) - 1
                    block = rest
                    nxt = rest.first_op
                op = nxt

    def _liveness(self) -> dict[Block, set[SSAValue]]:
        blocks = list(self.k.body.blocks)
        params = set(self.entry.args)
        use: dict[Block, set[SSAValue]] = {}
        defs: dict[Block, set[SSAValue]] = {}
        for b in blocks:
            d: set[SSAValue] = set(b.args)
            u: set[SSAValue] = set()
            for op in b.ops:
                for o in op.operands:
                    if o not in d and o not in params:
                        u.add(o)
                d.update(op.results)
            use[b], defs[b] = u, d
        live: dict[Block, set[SSAValue]] = {b: set() for b in blocks}
        changed = True
        while changed:
            changed = False
            for b in reversed(blocks):
                out: set[SSAValue] = set()
                for s in successors(b):
                    out |= live[s] - set(s.args)
                new = use[b] | (out - defs[b])
                if new != live[b]:
                    live[b] = new
                    changed = True
        return live

    def _recomputable(self, v: SSAValue, depth: int) -> bool:
        if isinstance(v, BlockArgument):
            return v.block is self.entry
        op = v.owner
        if isinstance(op, (*_LEAVES, xllvm.AllocaOp)):
            return True
        if isinstance(op, _RECOMPUTABLE) and depth < _RECOMPUTE_DEPTH:
            return all(self._recomputable(o, depth + 1) for o in op.operands)
        return False

    def _alloca_per_thread(self, a: xllvm.AllocaOp) -> bool:
        if len(self.resume) == 1:
            return False
        if any(underlying_alloca(v) is a for v in self.crossing):
            return True
        return _address_escapes(a.res)

    # ---- the block function ------------------------------------------------------------------

    def build(self) -> list[xllvm.FuncOp]:
        """The block function (and its variant for a team of one, if it has atomics), the grid
        function and the host function, callees first."""
        params = list(self.k.function_type.inputs.data)
        extra = [ext.LLVMPointerType()] if self.pools else []  # the block's threads' pool slots
        entry = Block(arg_types=[i32] * 9 + [i64] + params + extra)
        _name(entry.args[:BLOCK_PARAMS], BLOCK_PARAM_NAMES)
        _name(entry.args[BLOCK_PARAMS : BLOCK_PARAMS + len(params)], [a.name_hint for a in self.entry.args])
        self.kb_entry = entry
        self.region = Region([entry])
        self.block_ids = list(entry.args[0:3])
        self.grid = list(entry.args[3:6])
        self.dims = list(entry.args[6:9])
        self.shared_bytes = entry.args[9]
        self.params = list(entry.args[BLOCK_PARAMS : BLOCK_PARAMS + len(params)])
        self.pool_slots = entry.args[-1] if self.pools else None
        if self.pool_slots is not None:
            self.pool_slots.name_hint = "pools"
        b = Builder(InsertPoint.at_end(entry))
        wide = [b.insert(xllvm.ZExtOp(d, i64)).results[0] for d in self.dims]
        n = b.insert(xllvm.MulOp(b.insert(xllvm.MulOp(wide[0], wide[1])).results[0], wide[2])).results[0]
        self.nthreads = n
        self._shared(b)
        self.slots = {v: self._array(b, v.type, n, f"{v.name_hint or 'v'}.slot") for v in self.kept}
        self.alloca_of: dict[Operation, SSAValue] = {}
        for a in self.allocas:
            count = _const(b, constant_int(a.size), i64)  # type: ignore[arg-type]
            if a in self.per_thread:
                count = b.insert(xllvm.MulOp(count, n)).results[0]
            self.alloca_of[a] = b.insert(xllvm.AllocaOp(count, a.elem_type, _alignment(a))).results[0]
        self.combine_slots: dict[Operation, tuple[SSAValue, SSAValue]] = {}
        for op in self.k.walk():
            if isinstance(op, gpu.CombinedAddOp):
                slot = self._array(b, ext.LLVMPointerType(), _const(b, 1, i64), "combined.at")
                b.insert(ext.StoreOp(b.insert(xllvm.ZeroOp.create(result_types=[ext.LLVMPointerType()])).results[0], slot))
                self.combine_slots[op] = (slot, self._array(b, op.value.type, _const(b, 1, i64), "combined.sum"))
        self.tracking = len(self.resume) > 1
        self.done_blocks: list[Block] = []  # where each phase's thread loops end
        if self.tracking:
            self.code_slot = self._array(b, i32, _const(b, 1, i64), "exit.slot")
            self.bad_slot = self._array(b, i1, _const(b, 1, i64), "diverged.slot")
            b.insert(ext.StoreOp(_const(b, 0, i1), self.bad_slot))
        phases = [self._phase(k) for k in range(len(self.resume))]
        if self.tracking:
            dispatch = Block(arg_types=[i32])
            dispatch.args[0].name_hint = "phase"
            self.region.add_block(dispatch)
            Builder(InsertPoint.at_end(dispatch)).insert(
                ext.SwitchOp(dispatch.args[0], phases[0], [], [(k, phases[k], []) for k in range(1, len(phases))])
            )
            self.dispatch = dispatch
            b.insert(xllvm.BrOp(dispatch, _const(b, _START, i32)))
        else:
            b.insert(xllvm.BrOp(phases[0]))
        block_fn = xllvm.FuncOp(
            f"{self.name}.block",
            ext.LLVMFunctionType([i32] * 9 + [i64] + params + extra, i32),
            linkage=xllvm.LinkageAttr("internal"),
            body=self.region,
        )
        block_fn.properties["passthrough"] = ArrayAttr([StringAttr("nounwind")])
        _copy_arg_attrs(self.k, block_fn, BLOCK_PARAMS, len(extra))
        self._finish_tracking()
        serial_fn = _serial_variant(block_fn)
        host, grid_fn = self._host(block_fn, serial_fn, params)
        return [f for f in (block_fn, serial_fn, grid_fn, host) if f is not None]

    def _array(self, b: Builder, t: Attribute, count: SSAValue, name: str | None = None) -> SSAValue:
        sa = size_align(t)
        align = sa[1] if sa is not None else 16
        v = b.insert(xllvm.AllocaOp(count, t, align)).results[0]
        v.name_hint = name
        return v

    def _shared(self, b: Builder) -> None:
        """The block's shared memory: one buffer, [static arrays | dynamic memory | its copies];
        zeroed arrays and the copies cleared."""
        offsets, static = shared_layout(self.module, self.k)
        self.shared_of: dict[str, SSAValue] = {}
        if not offsets:
            return
        arrays = {g.sym_name.data: g for g in shared_arrays(self.module, self.k)}
        copies = max((gpu.dynamic_copy(g) for g in arrays.values() if gpu.is_dynamic_shared(g)), default=0)
        dynamic = b.insert(xllvm.MulOp(self.shared_bytes, _const(b, 1 + copies, i64))).results[0] if copies \
            else self.shared_bytes
        total = b.insert(xllvm.AddOp(dynamic, _const(b, static, i64))).results[0]
        buf = b.insert(xllvm.AllocaOp(total, i8, SHARED_ALIGN)).results[0]
        buf.name_hint = "shared"
        self.shared_buffer = buf
        for name, off in offsets.items():
            at = b.insert(ext.GEPOp(buf, [off], i8)).results[0]
            g = arrays[name]
            if gpu.is_dynamic_shared(g) and (k := gpu.dynamic_copy(g)):
                offset = b.insert(xllvm.MulOp(self.shared_bytes, _const(b, k, i64))).results[0]
                at = b.insert(ext.GEPOp(at, [ext.GEP_USE_SSA_VAL], i8, [offset])).results[0]
            elif gpu.is_zeroed_shared(g):
                size, _ = size_align(g.global_type) or (0, 1)
                b.insert(ext.MemsetOp([at, _const(b, 0, i8), _const(b, size, i64)]))
            self.shared_of[name] = at
        if copies:
            start = b.insert(ext.GEPOp(buf, [ext.GEP_USE_SSA_VAL], i8,
                                       [b.insert(xllvm.AddOp(self.shared_bytes, _const(b, static, i64))).results[0]])).results[0]  # fmt: skip
            b.insert(ext.MemsetOp([start, _const(b, 0, i8), b.insert(xllvm.MulOp(self.shared_bytes, _const(b, copies, i64))).results[0]]))

    def _phase(self, k: int) -> Block:
        """The loop nest over the block's threads running phase `k`; its first block."""
        region = self.region
        start = Block()
        zl, yl, xl = Block(arg_types=[i32]), Block(arg_types=[i32]), Block(arg_types=[i32])
        latch, ynext, znext, done = Block(arg_types=[i32]), Block(), Block(), Block()
        for blk in (start, zl, yl, xl):
            region.add_block(blk)
        sb = Builder(InsertPoint.at_end(start))
        if self.tracking:
            sb.insert(ext.StoreOp(_const(sb, _NONE, i32), self.code_slot))
        sb.insert(xllvm.BrOp(zl, _const(sb, 0, i32)))
        zb = Builder(InsertPoint.at_end(zl))
        zb.insert(xllvm.BrOp(yl, _const(zb, 0, i32)))
        yb = Builder(InsertPoint.at_end(yl))
        yb.insert(xllvm.BrOp(xl, _const(yb, 0, i32)))
        tz, ty, tx = zl.args[0], yl.args[0], xl.args[0]
        xb = Builder(InsertPoint.at_end(xl))
        lin = xb.insert(xllvm.MulOp(xb.insert(xllvm.MulOp(tz, self.dims[1])).results[0], self.dims[0])).results[0]
        lin = xb.insert(xllvm.AddOp(lin, xb.insert(xllvm.MulOp(ty, self.dims[0])).results[0])).results[0]
        lin = xb.insert(xllvm.AddOp(lin, tx)).results[0]
        self.t = xb.insert(xllvm.ZExtOp(lin, i64)).results[0]
        self.tids = [tx, ty, tz]
        _name([tx, ty, tz, self.t, latch.args[0]], ["tx", "ty", "tz", "thread", "exit"])
        first = self._copy_phase(k, latch)
        xb.insert(xllvm.BrOp(first))
        for blk in (latch, ynext, znext, done):
            region.add_block(blk)
        lb = Builder(InsertPoint.at_end(latch))
        if self.tracking:
            self._track(lb, latch.args[0])
        for blk, iv, dim, again, nxt in ((latch, tx, self.dims[0], xl, ynext), (ynext, ty, self.dims[1], yl, znext),
                                         (znext, tz, self.dims[2], zl, done)):  # fmt: skip
            bb = Builder(InsertPoint.at_end(blk))
            inc = bb.insert(xllvm.AddOp(iv, _const(bb, 1, i32))).results[0]
            more = bb.insert(ext.ICmpOp(inc, dim, "ult")).results[0]
            bb.insert(xllvm.CondBrOp(more, again, [inc], nxt, []))
        db = Builder(InsertPoint.at_end(done))
        for op, (slot, total) in self.combine_slots.items():  # the phase's sums, into memory
            db.insert(call_op(flush_helper_cpu(self.module, op.value.type), [slot, total], None))  # type: ignore[attr-defined]
        if not self.tracking:
            db.insert(xllvm.ReturnOp(_const(db, 0, i32)))
        self.done_blocks.append(done)
        return start

    def _track(self, b: Builder, code: SSAValue) -> None:
        """Record the thread's exit code; a code other than the earlier threads' is an error."""
        prev = b.insert(xllvm.LoadOp(self.code_slot, i32)).results[0]
        some = b.insert(ext.ICmpOp(prev, _const(b, _NONE, i32), "ne")).results[0]
        other = b.insert(ext.ICmpOp(prev, code, "ne")).results[0]
        mismatch = b.insert(xllvm.AndOp(some, other)).results[0]
        old = b.insert(xllvm.LoadOp(self.bad_slot, i1)).results[0]
        b.insert(ext.StoreOp(b.insert(xllvm.OrOp(old, mismatch)).results[0], self.bad_slot))
        b.insert(ext.StoreOp(code, self.code_slot))

    def _finish_tracking(self) -> None:
        """After a phase: stop with status 1 on a mismatch, return 0 when all threads returned,
        else run the phase after the barrier they reached."""
        if not self.tracking:
            return
        for done in self.done_blocks:
            b = Builder(InsertPoint.at_end(done))
            bad = b.insert(xllvm.LoadOp(self.bad_slot, i1)).results[0]
            fail, go = Block(), Block()
            self.region.add_block(fail)
            self.region.add_block(go)
            b.insert(xllvm.CondBrOp(bad, fail, [], go, []))
            fb = Builder(InsertPoint.at_end(fail))
            fb.insert(xllvm.ReturnOp(_const(fb, 1, i32)))
            gb = Builder(InsertPoint.at_end(go))
            code = gb.insert(xllvm.LoadOp(self.code_slot, i32)).results[0]
            returned = gb.insert(ext.ICmpOp(code, _const(gb, _RETURNED, i32), "eq")).results[0]
            ret = Block()
            self.region.add_block(ret)
            gb.insert(xllvm.CondBrOp(returned, ret, [], self.dispatch, [code]))
            rb = Builder(InsertPoint.at_end(ret))
            rb.insert(xllvm.ReturnOp(_const(rb, 0, i32)))

    # ---- copying one phase --------------------------------------------------------------------

    def _phase_blocks(self, k: int) -> list[Block]:
        """The kernel's blocks phase `k` runs (from its start to the barriers ending it), in
        reverse post-order, so that definitions are copied before their uses."""
        order: list[Block] = []
        seen = {self.resume[k]}
        stack = [(self.resume[k], iter(self._phase_successors(self.resume[k])))]
        while stack:
            block, succ = stack[-1]
            nxt = next(succ, None)
            if nxt is None:
                stack.pop()
                order.append(block)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(self._phase_successors(nxt))))
        return list(reversed(order))

    def _phase_successors(self, b: Block) -> list[Block]:
        return [] if b in self.barrier_exit else successors(b)

    def _copy_phase(self, k: int, latch: Block) -> Block:
        blocks = self._phase_blocks(k)
        self.vmap: dict[SSAValue, SSAValue] = {}
        bmap: dict[Block, Block] = {}
        for ob in blocks:
            nb = Block(arg_types=[a.type for a in ob.args] if ob is not self.entry else [])  # (params: _get)
            self.region.add_block(nb)
            bmap[ob] = nb
            for oa, na in zip(ob.args, nb.args, strict=False):
                self.vmap[oa] = na
        for ob in blocks:
            nb = bmap[ob]
            b = Builder(InsertPoint.at_end(nb))
            for a in ob.args:
                if a in self.kept:
                    self._store_slot(b, a, self.vmap[a])
            for op in ob.ops:
                self._copy_op(op, b, bmap, latch, ob)
        return bmap[self.resume[k]]

    def _copy_op(self, op: Operation, b: Builder, bmap: dict[Block, Block], latch: Block, ob: Block) -> None:
        if isinstance(op, gpu.BarrierOp):
            return  # the phase ends at the branch after it
        if op is ob.last_op and ob in self.barrier_exit:
            code = _const(b, self.barrier_exit[ob], i32)
            code.name_hint = f"barrier{self.barrier_exit[ob]}"
            b.insert(xllvm.BrOp(latch, code))
            return
        if isinstance(op, xllvm.ReturnOp):
            code = _const(b, _RETURNED, i32)
            code.name_hint = "returned"
            b.insert(xllvm.BrOp(latch, code))
            return
        if isinstance(op, (*gpu.ID_OPS, xllvm.AllocaOp)) or self._shared_address(op) is not None or self._pool(op):
            self.vmap[op.results[0]] = self._leaf(op, b)
            return
        mapping = {o: self._get(o, b) for o in op.operands}
        if isinstance(op, gpu.CombinedAddOp):
            slot, total = self.combine_slots[op]
            helper = combine_helper_cpu(self.module, op.value.type)
            b.insert(call_op(helper, [slot, total, mapping[op.ptr], mapping[op.value]], None))
            return
        if op in self.block_local_atomics:
            assert isinstance(op, ext.AtomicRMWOp)
            self.vmap[op.results[0]] = old = _plain_rmw(b, op, mapping[op.operands[0]], mapping[op.operands[1]])
            if op.results[0] in self.kept:
                self._store_slot(b, op.results[0], old)
            return
        new = op.clone(value_mapper=mapping, block_mapper=bmap)
        b.insert(new)
        for old, res in zip(op.results, new.results, strict=True):
            self.vmap[old] = res
            if old in self.kept:
                self._store_slot(b, old, res)

    def _get(self, v: SSAValue, b: Builder) -> SSAValue:
        """`v` (of the kernel) at the copy's insertion point."""
        if isinstance(v, BlockArgument) and v.block is self.entry:
            return self.params[v.index]
        if v in self.kept:
            ptr = b.insert(ext.GEPOp(self.slots[v], [ext.GEP_USE_SSA_VAL], v.type, [self.t])).results[0]
            return b.insert(xllvm.LoadOp(ptr, v.type)).results[0]
        if v in self.recomputed:
            return self._recompute(v, b)
        if v in self.vmap:
            return self.vmap[v]
        if isinstance(v.owner, Operation) and isinstance(v.owner, (*_LEAVES, xllvm.AllocaOp)):
            return self._recompute(v, b)
        raise AssertionError(f"lower-gpu: {v} is used where it is not available")

    def _recompute(self, v: SSAValue, b: Builder) -> SSAValue:
        if isinstance(v, BlockArgument):
            return self.params[v.index]
        op = v.owner
        assert isinstance(op, Operation)
        if isinstance(op, (*gpu.ID_OPS, xllvm.AllocaOp)) or self._shared_address(op) is not None or self._pool(op):
            return self._leaf(op, b)
        mapping = {o: self._recompute(o, b) for o in op.operands}
        new = op.clone(value_mapper=mapping)
        b.insert(new)
        return new.results[v.index]

    def _pool(self, op: Operation) -> bool:
        return isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in self.pools

    def _shared_address(self, op: Operation) -> str | None:
        if isinstance(op, xllvm.AddressOfOp) and (n := op.global_name.string_value()) in self.shared_of:
            return n
        return None

    def _leaf(self, op: Operation, b: Builder) -> SSAValue:
        """Thread and block ids and sizes, local variables and shared arrays, in this phase."""
        if isinstance(op, gpu._IdOp):
            table = {gpu.ThreadIdOp: self.tids, gpu.BlockIdOp: self.block_ids, gpu.BlockDimOp: self.dims,
                     gpu.GridDimOp: self.grid}  # fmt: skip
            v = table[type(op)][op.axis]
            t = op.result.type
            if t == i32:
                return v
            if isinstance(t, IntegerType) and t.width.data > 32:
                return b.insert(xllvm.ZExtOp(v, t)).results[0]
            raise _fail(self.module, op, f"'{op.name}' of type {t} cannot be lowered (use i32 or i64)")
        if isinstance(op, xllvm.AllocaOp):
            base = self.alloca_of[op]
            if op not in self.per_thread:
                return base
            count = _const(b, constant_int(op.size), i64)  # type: ignore[arg-type]
            idx = b.insert(xllvm.MulOp(self.t, count)).results[0]
            return b.insert(ext.GEPOp(base, [ext.GEP_USE_SSA_VAL], op.elem_type, [idx])).results[0]
        if self._pool(op):
            assert isinstance(op, xllvm.AddressOfOp) and self.pool_slots is not None
            k = self.pools[op.global_name.string_value()]
            idx = b.insert(xllvm.AddOp(b.insert(xllvm.MulOp(self.t, _const(b, len(self.pools), i64))).results[0],
                                       _const(b, k, i64))).results[0]  # fmt: skip
            return b.insert(ext.GEPOp(self.pool_slots, [ext.GEP_USE_SSA_VAL], ext.LLVMPointerType(), [idx])).results[0]
        name = self._shared_address(op)
        assert name is not None
        return self.shared_of[name]

    def _store_slot(self, b: Builder, orig: SSAValue, value: SSAValue) -> None:
        ptr = b.insert(ext.GEPOp(self.slots[orig], [ext.GEP_USE_SSA_VAL], orig.type, [self.t])).results[0]
        b.insert(ext.StoreOp(value, ptr))

    # ---- the host function --------------------------------------------------------------------

    def _host(self, block_fn: xllvm.FuncOp, serial_fn: xllvm.FuncOp | None,
              params: list[Attribute]) -> tuple[xllvm.FuncOp, xllvm.FuncOp]:  # fmt: skip
        """The host function, and the function each thread of its team runs (`k.grid`)."""
        grid_fn = self._grid(block_fn, serial_fn, params)
        entry = Block(arg_types=[i32] * 6 + [i64] + params)
        _name(entry.args[:HOST_PARAMS], HOST_PARAM_NAMES)
        _name(entry.args[HOST_PARAMS:], [a.name_hint for a in self.entry.args])
        many, one, done = Block(), Block(), Block()
        region = Region([entry, many, one, done])
        b = Builder(InsertPoint.at_end(entry))
        status = b.insert(xllvm.AllocaOp(_const(b, 1, i64), i32, 4)).results[0]
        status.name_hint = "status"
        b.insert(ext.StoreOp(_const(b, 0, i32), status))
        zero_in_host(b, self.zeroed)
        g = [b.insert(xllvm.ZExtOp(d, i64)).results[0] for d in entry.args[0:3]]
        n = b.insert(xllvm.MulOp(b.insert(xllvm.MulOp(g[0], g[1])).results[0], g[2])).results[0]
        b.insert(xllvm.CondBrOp(b.insert(ext.ICmpOp(n, _const(b, 1, i64), "ugt")).results[0], many, [], one, []))
        args = [status, *entry.args]
        for blk, serial in ((many, False), (one, True)):
            bb = Builder(InsertPoint.at_end(blk))
            bb.insert(par.ParallelOp(grid_fn.sym_name.data, args, serial=serial))
            bb.insert(xllvm.BrOp(done))
        db = Builder(InsertPoint.at_end(done))
        db.insert(xllvm.ReturnOp(db.insert(xllvm.LoadOp(status, i32)).results[0]))
        host = xllvm.FuncOp(
            self.name, ext.LLVMFunctionType([i32] * 6 + [i64] + params, i32), linkage=xllvm.LinkageAttr("external"),
            body=region,
        )  # fmt: skip
        host.properties["passthrough"] = ArrayAttr([StringAttr("nounwind")])
        _copy_arg_attrs(self.k, host, HOST_PARAMS)
        return host, grid_fn

    def _grid(self, block_fn: xllvm.FuncOp, serial_fn: xllvm.FuncOp | None, params: list[Attribute]) -> xllvm.FuncOp:
        """`k.grid(gtid, btid, status, grid, block, shared, params...)`, run by a team: the
        blocks handed out one at a time (a dynamic schedule); a block's status 1 is OR-ed into
        `*status`.  A team of one runs `serial_fn` where there is one (nothing runs beside it)."""
        ptr = ext.LLVMPointerType()
        entry = Block(arg_types=[ptr, ptr, ptr, *[i32] * 6, i64, *params])
        _name(entry.args[3 : 3 + HOST_PARAMS], HOST_PARAM_NAMES)
        status, grid, dims, shared, kparams = entry.args[2], entry.args[3:6], entry.args[6:9], entry.args[9], entry.args[10:]
        next_chunk, chunk, loop, bad, cont, exit_ = (Block(), Block(), Block(arg_types=[i64]), Block(), Block(), Block())
        region = Region([entry, next_chunk, chunk, loop, bad, cont, exit_])
        b = Builder(InsertPoint.at_end(entry))
        slots = None
        if self.pools:  # each block thread's pool slots, kept from block to block (freed below)
            d = [b.insert(xllvm.ZExtOp(v, i64)).results[0] for v in dims]
            count = b.insert(xllvm.MulOp(b.insert(xllvm.MulOp(b.insert(xllvm.MulOp(d[0], d[1])).results[0], d[2])).results[0],
                                         _const(b, len(self.pools), i64))).results[0]  # fmt: skip
            ensure_declaration(self.module, "calloc", ext.LLVMFunctionType([i64, i64], ptr))
            slots = b.insert(call_op("calloc", [count, _const(b, 8, i64)], ptr)).results[0]
            slots.name_hint = "pools"
        alone = None
        if serial_fn is not None:
            team = b.insert(par.NumThreadsOp()).results[0]
            alone = b.insert(ext.ICmpOp(team, _const(b, 1, i32), "eq")).results[0]
            alone.name_hint = "alone"
        g = [b.insert(xllvm.ZExtOp(d, i64)).results[0] for d in grid]
        gxy = b.insert(xllvm.MulOp(g[0], g[1])).results[0]
        last = b.insert(xllvm.SubOp(b.insert(xllvm.MulOp(gxy, g[2])).results[0], _const(b, 1, i64))).results[0]
        one = _const(b, 1, i64)
        b.insert(par.DispatchInitOp(_const(b, 0, i64), last, one, one, "dynamic"))
        b.insert(xllvm.BrOp(next_chunk))
        nb = Builder(InsertPoint.at_end(next_chunk))
        got = nb.insert(par.DispatchNextOp(i64))
        more, lb, ub = got.results[0], got.results[1], got.results[2]
        nb.insert(xllvm.CondBrOp(more, chunk, [], exit_, []))
        Builder(InsertPoint.at_end(chunk)).insert(xllvm.BrOp(loop, lb))
        lb_ = Builder(InsertPoint.at_end(loop))
        idx = loop.args[0]
        bx = lb_.insert(xllvm.URemOp(idx, g[0])).results[0]
        by = lb_.insert(xllvm.URemOp(lb_.insert(xllvm.UDivOp(idx, g[0])).results[0], g[1])).results[0]
        bz = lb_.insert(xllvm.UDivOp(idx, gxy)).results[0]
        ids = [lb_.insert(xllvm.TruncOp(v, i32)).results[0] for v in (bx, by, bz)]
        block_args = [*ids, *grid, *dims, shared, *kparams, *([slots] if slots is not None else [])]
        if serial_fn is not None:
            assert alone is not None
            run_serial, run_shared, ran = Block(), Block(), Block(arg_types=[i32])
            for blk in (run_serial, run_shared, ran):
                region.insert_block_after(blk, loop)
            lb_.insert(xllvm.CondBrOp(alone, run_serial, [], run_shared, []))
            for blk, fn in ((run_serial, serial_fn), (run_shared, block_fn)):
                rb = Builder(InsertPoint.at_end(blk))
                rb.insert(xllvm.BrOp(ran, rb.insert(call_op(fn.sym_name.data, block_args, i32)).results[0]))
            lb_ = Builder(InsertPoint.at_end(ran))
            s = ran.args[0]
        else:
            s = lb_.insert(call_op(block_fn.sym_name.data, block_args, i32)).results[0]
        lb_.insert(xllvm.CondBrOp(lb_.insert(ext.ICmpOp(s, _const(lb_, 0, i32), "ne")).results[0], bad, [], cont, []))
        bb = Builder(InsertPoint.at_end(bad))
        bb.insert(ext.AtomicRMWOp("or", status, _const(bb, 1, i32), "monotonic"))
        bb.insert(xllvm.BrOp(cont))
        cb = Builder(InsertPoint.at_end(cont))
        nxt = cb.insert(xllvm.AddOp(idx, _const(cb, 1, i64))).results[0]
        cb.insert(xllvm.CondBrOp(cb.insert(ext.ICmpOp(idx, ub, "ult")).results[0], loop, [nxt], next_chunk, []))
        eb = Builder(InsertPoint.at_end(exit_))
        eb.insert(par.DispatchFiniOp())
        if slots is not None:  # the buffers the slots hold, and the slots
            ensure_declaration(self.module, "free", ext.LLVMFunctionType([ptr], ext.LLVMVoidType()))
            done = strided_loop(region, eb, _const(eb, 0, i64), count, _const(eb, 1, i64), lambda fb, k: fb.insert(
                call_op("free", [fb.insert(xllvm.LoadOp(fb.insert(ext.GEPOp(slots, [ext.GEP_USE_SSA_VAL], ptr, [k])).results[0],
                                                         ptr)).results[0]], None)))  # fmt: skip
            eb = Builder(InsertPoint.at_end(done))
            eb.insert(call_op("free", [slots], None))
        eb.insert(xllvm.ReturnOp())
        fn = xllvm.FuncOp(f"{self.name}.grid", ext.LLVMFunctionType(list(entry.arg_types), ext.LLVMVoidType()),
                          linkage=xllvm.LinkageAttr("internal"), body=region)  # fmt: skip
        fn.properties["passthrough"] = ArrayAttr([StringAttr("nounwind")])
        return fn


HOST_PARAM_NAMES = ("grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "shared_bytes")
BLOCK_PARAM_NAMES = ("bid_x", "bid_y", "bid_z", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z",
                     "shared_bytes")  # fmt: skip


def _name(values: Sequence[SSAValue], names: Sequence[str | None]) -> None:
    for v, n in zip(values, names, strict=True):
        v.name_hint = n


def _alignment(a: xllvm.AllocaOp) -> int:
    if a.alignment is not None:
        return a.alignment.value.data
    sa = size_align(a.elem_type)
    return sa[1] if sa is not None else 16


_PLAIN_RMW = {
    "fadd": xllvm.FAddOp, "fsub": xllvm.FSubOp, "add": xllvm.AddOp, "sub": xllvm.SubOp, "and": xllvm.AndOp,
    "or": xllvm.OrOp, "xor": xllvm.XOrOp, "xchg": None,
}  # fmt: skip
"""Atomic updates of shared memory that become plain loads and stores on the CPU, where a block's
threads run one after the other on one host thread."""


def _in_shared(p: SSAValue, shared: set[str]) -> bool:
    """Whether the address `p` is in a shared array (through address arithmetic and casts)."""
    op = p.owner
    while isinstance(op, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp):
        op = op.operands[0].owner
    return isinstance(op, xllvm.AddressOfOp) and op.global_name.string_value() in shared


def _plain_rmw(b: Builder, op: ext.AtomicRMWOp, ptr: SSAValue, value: SSAValue) -> SSAValue:
    """`atomicrmw` as a load and a store; the old value."""
    old = b.insert(xllvm.LoadOp(ptr, value.type)).results[0]
    kind = _PLAIN_RMW[op.bin_op.data]
    new = value if kind is None else b.insert(kind(old, value)).results[0]
    b.insert(ext.StoreOp(new, ptr))
    return old


def _serial_variant(block_fn: xllvm.FuncOp) -> xllvm.FuncOp | None:
    """`block_fn` for a team of one host thread, which runs every block of the grid one after
    the other: its atomic updates of memory plain loads and stores, as nothing runs beside it
    (the atomics that derivatives add adjoints with are most of a gradient's cost otherwise);
    None when it has none."""
    if not any(isinstance(op, ext.AtomicRMWOp) and op.bin_op.data in _PLAIN_RMW for op in block_fn.walk()):
        return None
    fn = block_fn.clone()
    fn.properties["sym_name"] = StringAttr(f"{block_fn.sym_name.data}.alone")
    for op in list(fn.walk()):
        if isinstance(op, ext.AtomicRMWOp) and op.bin_op.data in _PLAIN_RMW:
            b = Builder(InsertPoint.before(op))
            old = _plain_rmw(b, op, op.operands[0], op.operands[1])
            op.results[0].replace_all_uses_with(old)
            op.detach()
            op.erase()
    return fn


def _address_escapes(p: SSAValue) -> bool:
    """Whether the address `p` (of a local variable) goes anywhere but the loads and stores
    through it and the address arithmetic on it."""
    for use in p.uses:
        user = use.operation
        if isinstance(user, ext.GEPOp | xllvm.BitcastOp | ext.AddrSpaceCastOp):
            if _address_escapes(user.results[0]):
                return True
        elif isinstance(user, xllvm.LoadOp) or (isinstance(user, ext.StoreOp) and use.index == 1):
            continue
        elif user.name in _DROPPED:
            continue
        else:
            return True
    return False


def _copy_arg_attrs(src: xllvm.FuncOp, dst: xllvm.FuncOp, skip: int, after: int = 0) -> None:
    """The kernel's parameter attributes (noalias, readonly, ...) on `dst`'s kernel parameters
    (`skip` parameters before them, `after` after them)."""
    attrs = src.arg_attrs
    if attrs is None:
        return
    keep = ("llvm.noalias", "llvm.readonly", "llvm.writeonly", "llvm.noundef", "llvm.nonnull")
    mine = [DictionaryAttr({k: v for k, v in d.data.items() if k in keep}) for d in attrs.data]  # type: ignore[union-attr]
    dst.properties["arg_attrs"] = ArrayAttr([DictionaryAttr({})] * skip + mine + [DictionaryAttr({})] * after)


def lower_to_cpu(module: ModuleOp) -> None:
    check_no_nvvm(module)
    for op in list(module.walk()):  # (its helper reads the block's sizes: inlined below)
        if isinstance(op, gpu.OwnedAddOp):
            Builder(InsertPoint.before(op)).insert(call_op(owned_add_helper(module, op.value.type), [op.ptr, op.value], None))
            op.detach()
            op.erase()
    zeroed = {k.sym_name.data: zeroed_at_launch(module, k) for k in gpu.kernels(module)}
    drop_marks(module)
    inline_gpu_functions(module)
    for k in gpu.kernels(module):
        lowering = KernelLowering(module, k, zeroed[k.sym_name.data])
        lowering.prepare()
        for fn in lowering.build():
            module.body.block.insert_op_before(fn, k)
        k.detach()
        k.erase(safe_erase=False)
    for op in list(module.ops):
        if gpu.is_shared(op) and not symbol_users(module, op.sym_name.data):  # type: ignore[attr-defined]
            op.detach()
            op.erase()
    for op in module.walk():
        if isinstance(op, (*gpu.ID_OPS, gpu.BarrierOp, *gpu.ADD_OPS)):
            raise _fail(module, op, f"'{op.name}' outside a kernel cannot run on the CPU")
    erase_address_spaces(module)
    scopeless_fences(module)
    libdevice_to_libm(module)
    retarget_to_host(module)


__all__ = ["BLOCK_PARAMS", "HOST_PARAMS", "KernelLowering", "lower_to_cpu", "shared_layout"]
