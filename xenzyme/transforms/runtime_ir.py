"""Small runtimes written in C, compiled by clang-19 to LLVM IR files beside this one and
copied into the modules that call them, as the modules' own internal functions: a gradient
needs no library at link time, and each module keeps its own copy (objects linked together
do not clash)."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection

from xdsl.dialects import llvm as xllvm
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation


def symbol(op: Operation) -> str | None:
    sym = op.properties.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else None


@functools.cache
def runtime_text(path: str) -> str:
    """The runtime as internal functions: without its metadata (TBAA, loop hints: the module's
    numbering differs) and without clang's choice of target CPU."""
    with open(path) as f:
        lines = [ln for ln in f.read().splitlines() if not ln.startswith("!")]
    text = "\n".join(re.sub(r", ![\w.]+ !\d+", "", ln) for ln in lines) + "\n"
    text = re.sub(r'"(target-cpu|target-features|tune-cpu)"="[^"]*"', "", text)
    return text.replace("define dso_local", "define internal")


def link_runtime(module: ModuleOp, path: str, sentinel: str, program_globals: Collection[str] = ()) -> None:
    """Copy the definitions of the runtime at `path` into `module`, unless `module` defines
    `sentinel` (one of them) already.  The module's declarations of the runtime's functions are
    replaced; of `program_globals`, the runtime's weak globals, a program's own definition is
    kept and a declaration replaced."""
    from xenzyme.frontend.llvm_import import import_llvm_ir

    present = {symbol(o): o for o in module.ops}
    done = present.get(sentinel)
    if isinstance(done, xllvm.FuncOp) and done.body.blocks:
        return
    rt = import_llvm_ir(runtime_text(path), path)
    for o in list(rt.ops):
        s = symbol(o)
        old = present.get(s)
        if old is not None:
            if isinstance(old, xllvm.FuncOp) and not old.body.blocks:
                old.detach()
                old.erase()
            elif (isinstance(old, xllvm.GlobalOp) and s in program_globals and not getattr(old, "body", None)
                  and getattr(old, "value", None) is None):  # fmt: skip
                old.detach()
                old.erase()
            else:
                continue
        o.detach()
        module.body.block.add_op(o)
