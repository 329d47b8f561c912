"""`xenzyme-opt`'s driver: xDSL's opt driver with xenzyme's dialects, passes, frontends and
targets (the command starts in xenzyme/cli/xenzyme_opt.py, which answers from the derivative
cache when it can).

    xenzyme-opt prog.ll                      # import, print the llvm dialect (xDSL text)
    xenzyme-opt prog.c -p enzyme -t obj -o prog.o
    xenzyme-opt prog.ll -p 'llvm-opt{level=3}' -t llvm

Frontends by file extension: `.ll` / `.bc` (LLVM IR), `.mlir` (xDSL text; also stdin),
`.c` / `.cpp` / `.cc` / `.cxx` / `.cu` (through clang-19, -O2 unless `--clang-arg` says otherwise;
CUDA as device code, see xenzyme/frontend/clang.py), `.f90` / `.f` / ... (flang-new-19,
`--flang-arg`) and `.rs` (rustc, `--rustc-arg`); see xenzyme/frontend/fortran.py and rust.py
for the flags each compiler gets.
Targets: `mlir` (default), `llvm` (LLVM IR text), `obj` (a native object; `obj{cpu=native}`),
`ptx{arch=sm_90}` (PTX of CUDA device code) and `cubin{arch=sm_90}` (assembled by ptxas).

`--load-rules FILE` runs a Python file registering derivative rules for functions of the
program (`@xenzyme.derivative`, xenzyme/rules/registry.py) before any pass.

Without `-p` no pass runs.  Errors in the input or in a pass are printed as
`xenzyme-opt: error: FILE:LINE:COL: what` with `note:` lines, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import os
import re
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import BytesIO, StringIO
from typing import IO, ClassVar, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.printer import Printer
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError, VerifyException
from xdsl.utils.target import Target
from xdsl.xdsl_opt_main import xDSLOptMain

from xenzyme.diagnostics import SourceLocation, XenzymeError

PROG = "xenzyme-opt"
_LLVM_FRONTENDS = ("ll", "bc")
_C_FRONTENDS = ("c", "cpp", "cc", "cxx", "cu")
_FORTRAN_FRONTENDS = ("f90", "f95", "f03", "f08", "f", "for", "F90", "F")
_RUST_FRONTENDS = ("rs",)
_SOURCE_FRONTENDS = _C_FRONTENDS + _FORTRAN_FRONTENDS + _RUST_FRONTENDS


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """`-t llvm`: the module as LLVM IR text (LLVM 22 syntax), verified by LLVM."""

    name = "llvm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from xenzyme.backend.llvm_export import export_module
        from xenzyme.backend.native import check_llvm_ir

        text = export_module(module)
        check_llvm_ir(text)
        output.write(text)


@dataclass(frozen=True)
class ObjectTarget(Target):
    """`-t obj`: a position-independent object file for the host (generic CPU unless cpu=native)."""

    name = "obj"
    cpu: str = "generic"
    opt: int = 2

    def __post_init__(self) -> None:
        if self.opt not in (0, 1, 2, 3):
            raise XenzymeError(f"obj: opt must be 0, 1, 2 or 3 (got {self.opt})")

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        raise AssertionError("object output is written as bytes by XenzymeOptMain")

    def emit_bytes(self, module: ModuleOp, optimize: int = 0) -> bytes:
        """The object; `optimize`: LLVM's -O level to run first, in the same step (the last
        `llvm-opt` of the pipeline, whose output then needs no import)."""
        from xenzyme.backend.llvm_export import export_module
        from xenzyme.backend.native import object_code

        return object_code(export_module(module), cpu=self.cpu, opt=self.opt, level=optimize)


@dataclass(frozen=True)
class PTXTarget(Target):
    """`-t ptx{arch=sm_90}`: PTX of an NVPTX module (CUDA device code), libdevice linked."""

    name = "ptx"
    arch: str = "sm_90"
    opt: int = 2

    def __post_init__(self) -> None:
        from xenzyme.backend.ptx import check_arch

        check_arch(self.arch)
        if self.opt not in (0, 1, 2, 3):
            raise XenzymeError(f"{self.name}: opt must be 0, 1, 2 or 3 (got {self.opt})")

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        from xenzyme.backend.ptx import module_ptx
        from xenzyme.transforms.lower_gpu import prepare_for_ptx

        prepare_for_ptx(module)
        output.write(module_ptx(module, self.arch, self.opt))


@dataclass(frozen=True)
class CubinTarget(PTXTarget):
    """`-t cubin{arch=sm_90}`: the PTX assembled by the CUDA toolkit's ptxas (bytes)."""

    name = "cubin"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        raise AssertionError("cubin output is written as bytes by XenzymeOptMain")

    def emit_bytes(self, module: ModuleOp, optimize: int = 0) -> bytes:
        from xenzyme.backend.ptx import assemble_cubin, module_ptx
        from xenzyme.transforms.lower_gpu import prepare_for_ptx

        prepare_for_ptx(module)
        return assemble_cubin(module_ptx(module, self.arch, self.opt), self.arch)


_BINARY_TARGETS = {"obj": ObjectTarget, "cubin": CubinTarget}


class XenzymeOptMain(xDSLOptMain):
    """xDSL's driver, with xenzyme's dialects, passes, frontends and targets, and the derivative
    cache: a cacheable command line (xenzyme/cli/cached.py) looks its result up once the
    frontend has made the program (before it is imported into xDSL), and stores it when it is
    computed."""

    version_format: ClassVar[str] = "xenzyme-opt (xenzyme 0.1.0, xdsl {xdsl_version})"

    def __init__(self, description: str, args: Sequence[str]):
        from xenzyme.cli.cached import parse

        self.request = parse(list(args))
        """The command line as a cacheable request, or None (the cache is not used)."""
        self.cache_key: str | None = None
        self.cached: bytes | None = None
        self.final_opt = 0
        """The level of the pipeline's last LLVM optimisation when `-t obj` runs it (see
        `defer_final_optimisation`)."""
        super().__init__(description=description, args=args)

    # ---- the derivative cache ---------------------------------------------------------------

    def _cache(self):
        if self.request is None or self.args.no_cache:
            return None
        from xenzyme.cache import default_cache
        from xenzyme.rules.registry import RULES

        if RULES:
            return None  # rules from Python: what they do is not in any key
        cache = default_cache()
        return cache if cache.usable() else None

    def found_in_cache(self, program: str | bytes) -> bool:
        """Whether the output for this program (the frontend's LLVM IR, or the input's bytes) is
        cached; if so it is kept for `output_resulting_program`, and nothing else runs."""
        from xenzyme.cache import digest

        cache = self._cache()
        if cache is None:
            return False
        assert self.request is not None
        self.cache_key = self.request.key(digest(program))
        entry = cache.get(self.cache_key)
        if entry is None:
            return False
        self.cached = entry.payload
        return True

    def _store(self, data: bytes) -> None:
        cache = self._cache()
        if cache is not None and self.cache_key is not None:
            cache.put(self.cache_key, {"kind": "xenzyme-opt", "target": self.args.target}, data)

    def apply_passes(self, prog: ModuleOp) -> None:
        if self.cached is None:
            super().apply_passes(prog)

    def register_all_dialects(self) -> None:
        from xenzyme.dialects import register_dialects

        register_dialects(self.ctx)

    def register_all_passes(self) -> None:
        from xenzyme.transforms import get_available_passes

        for name, factory in get_available_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        """xDSL's own targets (without looking for plugins: that reads every installed
        package's metadata, a tenth of a small compile) and xenzyme's."""
        from xdsl.targets import get_all_targets

        self.available_targets.update(get_all_targets())
        self.available_targets["llvm"] = lambda: LLVMIRTarget
        self.available_targets["obj"] = lambda: ObjectTarget
        self.available_targets["ptx"] = lambda: PTXTarget
        self.available_targets["cubin"] = lambda: CubinTarget

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def llvm_ir(io: IO[bytes]) -> ModuleOp:
            from xenzyme.frontend.llvm_import import import_llvm_ir

            data = io.read()
            if self.found_in_cache(data):
                return ModuleOp([])
            return import_llvm_ir(data if data[:2] == b"BC" else data.decode("utf-8", "replace"), self.get_input_name())

        def c_source(io: IO[bytes]) -> ModuleOp:
            from xenzyme.frontend.clang import compile_to_llvm_ir
            from xenzyme.frontend.llvm_import import import_llvm_ir

            name = self.get_input_name()
            source = io.read().decode("utf-8", "replace")
            cache = self._cache()
            read: list[str] | None = [] if cache is not None else None
            text = compile_to_llvm_ir(source, name, self.args.clang_arg, read=read)
            if cache is not None and read is not None and self.request is not None:
                from xenzyme.cache import digest, uses_time_macros

                if not uses_time_macros(source):
                    cache.record_source(self.request.manifest_key(source), read, digest(text))
            if self.found_in_cache(text):
                return ModuleOp([])
            return import_llvm_ir(text, name)

        def fortran_source(io: IO[bytes]) -> ModuleOp:
            from xenzyme.frontend.fortran import compile_fortran
            from xenzyme.frontend.toolchain import import_compiled

            name = self.get_input_name()
            bitcode = compile_fortran(io.read().decode("utf-8", "replace"), name, self.args.flang_arg)
            return ModuleOp([]) if self.found_in_cache(bitcode) else import_compiled(bitcode, name)

        def rust_source(io: IO[bytes]) -> ModuleOp:
            from xenzyme.frontend.rust import compile_rust
            from xenzyme.frontend.toolchain import import_compiled

            name = self.get_input_name()
            bitcode = compile_rust(io.read().decode("utf-8", "replace"), name, self.args.rustc_arg)
            return ModuleOp([]) if self.found_in_cache(bitcode) else import_compiled(bitcode, name)

        def xdsl_text(io: IO[bytes]) -> ModuleOp:
            data = io.read()
            if self.found_in_cache(data):
                return ModuleOp([])
            from xenzyme.frontend.mlir_text import LocatingParser  # (op positions for error messages)

            parser = LocatingParser(self.ctx, data.decode("utf-8", "replace"), self.get_input_name())
            return parser.parse_module(not self.args.no_implicit_module)

        for ext in _LLVM_FRONTENDS:
            self.available_frontends[ext] = llvm_ir
        for ext in _C_FRONTENDS:
            self.available_frontends[ext] = c_source
        for ext in _FORTRAN_FRONTENDS:
            self.available_frontends[ext] = fortran_source
        for ext in _RUST_FRONTENDS:
            self.available_frontends[ext] = rust_source
        self.available_frontends["mlir"] = xdsl_text

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        _report_bad_targets(arg_parser)
        arg_parser.add_argument(
            "--clang-arg",
            action="append",
            default=[],
            metavar="FLAG",
            help="flag for clang when the input is C/C++ (repeatable; default -O2)",
        )
        arg_parser.add_argument(
            "--flang-arg",
            action="append",
            default=[],
            metavar="FLAG",
            help="flag for flang-new-19 when the input is Fortran (repeatable; default -O2)",
        )
        arg_parser.add_argument(
            "--rustc-arg",
            action="append",
            default=[],
            metavar="FLAG",
            help="flag for rustc when the input is Rust, e.g. --rustc-arg=-Copt-level=0 (repeatable; "
            "default -Copt-level=2 -Cpanic=abort)",
        )
        arg_parser.add_argument(
            "--load-rules",
            action="append",
            default=[],
            metavar="FILE",
            help="a Python file registering derivative rules with @xenzyme.derivative (repeatable)",
        )
        arg_parser.add_argument(
            "--no-cache",
            action="store_true",
            help="neither read nor write the derivative cache ($XENZYME_CACHE_DIR, else $XDG_CACHE_HOME/xenzyme)",
        )

    def setup_pipeline(self) -> None:
        """As xDSL's, but LLVM IR input is not re-verified before the first pass, nor the
        result after the last one when LLVM reads it next (`-t llvm`, `obj`, `ptx`, `cubin`).

        LLVM verifies what it reads, and xDSL's verifier costs seconds on large modules (about
        20 us an op: a tenth of the whole compile of a benchmark's gradient).
        """
        from xenzyme.rules.registry import load_rules

        for path in self.args.load_rules:
            load_rules(path)
        start = time.perf_counter()
        to_llvm = parse_spec(self.args.target).name in ("llvm", "obj", "ptx", "cubin")

        def callback(previous: ModulePass | None, module: ModuleOp, nxt: ModulePass | None) -> None:
            nonlocal start
            if self.args.time_passes and previous is not None:
                print(f"Pass {previous.name} took {time.perf_counter() - start} seconds")
            llvm_verifies = (previous is None and self._input_is_llvm()) or (
                previous is not None and nxt is None and to_llvm
            )
            if not self.args.disable_verify and not llvm_verifies:
                module.verify()
            if previous and nxt and self.args.print_between_passes:
                print(f"IR after {previous.name}:")
                Printer(stream=sys.stdout).print_op(module)
                print("\n\n\n")
            if self.args.time_passes and nxt is not None:
                start = time.perf_counter()

        check_target(self.args.target, self.available_targets)
        check_pipeline(self.args.passes, self.available_passes)
        self.pipeline = PassPipeline.parse_spec(self.available_passes, self.args.passes, callback)
        self.defer_final_optimisation()

    def defer_final_optimisation(self) -> None:
        """For `-t obj`, a pipeline ending in LLVM's optimiser (`enzyme`, `llvm-opt`) hands the
        module to LLVM once: the last optimisation runs where the object is emitted, instead of
        optimising, reading LLVM's output back into xDSL and printing it out again."""
        from xenzyme.transforms.enzyme import EnzymePass
        from xenzyme.transforms.llvm_opt import LLVMOptPass

        if parse_spec(self.args.target).name != "obj" or not self.pipeline.passes:
            return
        last = self.pipeline.passes[-1]
        if isinstance(last, EnzymePass) and last.postopt:
            self.final_opt, last = last.postopt, dataclasses.replace(last, postopt=0)
        elif isinstance(last, LLVMOptPass) and last.level and not last.strip_optnone:
            self.final_opt, last = last.level, None
        else:
            return
        passes = (*self.pipeline.passes[:-1], *([last] if last is not None else []))
        self.pipeline = dataclasses.replace(self.pipeline, passes=passes)

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        """As xDSL's, but an empty input is an error rather than an empty module (or, for
        xDSL text, "Could not parse entire input!")."""
        chunks, ext = super().prepare_input()
        if len(chunks) == 1 and not self.args.split_input_file:
            stream, offset = chunks[0]
            data = stream.read()
            stream.close()
            if not data.strip():
                raise XenzymeError(
                    "the input is empty",
                    SourceLocation(self.args.input_file or "<stdin>"),
                    ["give LLVM IR (.ll, .bc), xDSL text (.mlir), or C, C++, Fortran or Rust source"],
                )
            chunks = [(BytesIO(data), offset)]
        return chunks, ext

    def _input_is_llvm(self) -> bool:
        name = self.args.input_file or ""
        ext = self.args.frontend or name.rsplit(".", 1)[-1]
        return ext in _LLVM_FRONTENDS + _SOURCE_FRONTENDS

    def prepare_output(self) -> IO[str]:
        if parse_spec(self.args.target).name in _BINARY_TARGETS:
            return StringIO()  # bytes are written by output_resulting_program
        return super().prepare_output()

    def output_resulting_program(self, prog: ModuleOp) -> str:
        spec = parse_spec(self.args.target)
        if spec.name not in _BINARY_TARGETS:
            if self.cached is not None:
                return self.cached.decode("utf-8")
            text = super().output_resulting_program(prog)
            self._store(text.encode("utf-8"))
            return text
        if self.cached is not None:
            data = self.cached
        else:
            data = _BINARY_TARGETS[spec.name].from_spec(spec).emit_bytes(prog, self.final_opt)
            self._store(data)
        if self.args.output_file is None:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            with open(self.args.output_file, "wb") as f:
                f.write(data)
        return ""


def _report_bad_targets(arg_parser: argparse.ArgumentParser) -> None:
    """An unknown `-t` is bad input (status 1 and our message), not a malformed command line."""
    usage_error = arg_parser.error

    def error(message: str) -> NoReturn:
        if message.startswith("argument -t/--target: invalid choice"):
            m = re.search(r"invalid choice: '([^']*)'", message)
            raise XenzymeError(
                f"unknown target '{m.group(1) if m else message}'",
                notes=["available targets include llvm (LLVM IR), obj (a native object), ptx, cubin and mlir"],
            )
        usage_error(message)

    arg_parser.error = error  # type: ignore[method-assign]


def _fail(message: str, notes: Sequence[str] = ()) -> int:
    print(XenzymeError(message, notes=tuple(notes)).format(PROG), file=sys.stderr)
    return 1


def check_pipeline(pipeline: str, passes: dict[str, Callable[[], type[ModulePass]]]) -> None:
    """Check a `-p` pipeline before anything runs; a mistake is a `XenzymeError` that says what.

    xDSL's own messages name neither the pass nor the option at fault.
    """
    try:
        specs = list(parse_pipeline(pipeline))
    except ArgSpecParseError as e:
        lines = [ln for ln in str(e).splitlines() if ln.strip()]
        m = re.search(r"pass-pipeline:\d+:(\d+)", str(e))
        where = f" at column {m.group(1)}" if m else ""
        reason = lines[-1].strip() if lines else "syntax error"
        raise XenzymeError(
            f"malformed pass pipeline{where}: {reason[:1].lower() + reason[1:]}",
            notes=[f"in '{pipeline}'", "passes are written name{option=value ...}, separated by commas"],
        ) from None
    for spec in specs:
        _check_pass(spec, passes)


def _check_pass(spec: ArgSpec, passes: dict[str, Callable[[], type[ModulePass]]]) -> None:
    factory = passes.get(spec.name)
    if factory is None:
        close = difflib.get_close_matches(spec.name, passes, n=3)
        raise XenzymeError(
            f"unknown pass '{spec.name}'",
            notes=[f"did you mean {' or '.join(repr(c) for c in close)}?"] if close else [],
        )
    cls = factory()
    options = [f.name for f in dataclasses.fields(cls) if f.init and f.name != "name"]
    for key in spec.parameters:
        if key.replace("-", "_") not in options:
            known = ", ".join(o.replace("_", "-") for o in options) or "none"
            raise XenzymeError(f"pass '{spec.name}' has no option '{key}' (its options: {known})")
    for key, value in spec.parameters.items():
        try:
            cls.from_spec(ArgSpec(spec.name, {key: value}))
        except XenzymeError:
            raise
        except (ValueError, TypeError) as e:
            if "requires argument" in str(e):
                continue  # another option is missing: the whole spec is checked below
            shown = ",".join(str(v) for v in value)
            raise XenzymeError(
                f"pass '{spec.name}': bad value '{shown}' for option '{key}'",
                notes=[_value_hint(str(e))],
            ) from None
    try:
        cls.from_spec(spec)
    except XenzymeError:
        raise
    except (ValueError, TypeError) as e:
        raise XenzymeError(f"pass '{spec.name}': {e}") from None


def _value_hint(message: str) -> str:
    if m := re.search(r"expected (.*)$", message):
        expected = re.sub(r"<class '(\w+)'>", r"\1", m.group(1)).removesuffix(" | None")
        return "expected " + ("one word" if expected == "str" else expected)
    return message


def check_target(target: str, targets: dict[str, Callable[[], object]]) -> None:
    """Check `-t` and its options before anything runs."""
    try:
        spec = parse_spec(target)
    except ArgSpecParseError as e:
        reason = [ln for ln in str(e).splitlines() if ln.strip()][-1].strip()
        raise XenzymeError(f"malformed target '{target}': {reason}") from None
    if spec.name not in targets:
        raise XenzymeError(
            f"unknown target '{spec.name}'",
            notes=[f"available targets: {', '.join(sorted(targets))}"],
        )
    factory = targets[spec.name]
    cls = factory()
    if isinstance(cls, type) and issubclass(cls, Target):
        options = [f.name for f in dataclasses.fields(cls) if f.init and f.name != "name"]
        for key in spec.parameters:
            if key.replace("-", "_") not in options:
                known = ", ".join(o.replace("_", "-") for o in options) or "none"
                raise XenzymeError(f"target '{spec.name}' has no option '{key}' (its options: {known})")
        try:
            cls.from_spec(spec)
        except XenzymeError:
            raise
        except (ValueError, TypeError) as e:
            raise XenzymeError(f"target '{spec.name}': {e}") from None


def run(args: Sequence[str]) -> int:
    """Run xenzyme-opt on the command line `args`; every failure caused by the input is one
    `error:` line and status 1.

    Python's cycle collector is off for the run: a compile builds millions of objects and
    leaves little cyclic garbage, and the collector would scan the growing heap again and
    again -- a quarter of the CPU time of differentiating a large function, for 2-10 % more
    memory at the peak."""
    import warnings

    from xenzyme.cache import CacheWarning
    from xenzyme.llvm_binding import paused_gc

    def show(message, category, filename, lineno, file=None, line=None) -> None:  # noqa: ANN001
        if issubclass(category, CacheWarning):
            print(f"{PROG}: warning: {message}", file=sys.stderr)
        else:
            _show(message, category, filename, lineno, file, line)

    _show, warnings.showwarning = warnings.showwarning, show
    with paused_gc():
        try:
            return _main(list(args))
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            return 1
        finally:
            warnings.showwarning = _show


def _main(args: list[str]) -> int:
    try:
        tool = XenzymeOptMain(description="xenzyme optimizer driver: import, differentiate, lower, emit", args=args)
    except XenzymeError as e:
        print(e.format(PROG), file=sys.stderr)
        return 1
    except ArgSpecParseError as e:  # a BaseException in xDSL
        return _fail(f"invalid pass pipeline: {str(e).strip().splitlines()[-1].strip()}")
    except ValueError as e:
        return _fail(_pipeline_message(str(e)), ["`xenzyme-opt --help` lists the options; passes are written name{opt=value ...}"])
    except Exception as e:  # noqa: BLE001 -- nothing may end in a traceback
        return _internal_error(e)
    try:
        tool.run()
    except XenzymeError as e:
        print(e.in_file(tool.args.input_file or "<stdin>").format(PROG), file=sys.stderr)
        return 1
    except OSError as e:
        return _fail(_file_message(e, tool.args.output_file))
    except UnicodeDecodeError as e:
        return _fail(f"the input is not UTF-8 text: {e.reason} at byte {e.start}")
    except ParseError as e:
        return _parse_error(e)
    except (VerifyException, DiagnosticException) as e:
        return _verify_error(e)
    except ValueError as e:
        if str(e).startswith(("Unrecognized passes", "Unrecognized file extension")):
            return _fail(_pipeline_message(str(e)))
        return _internal_error(e)  # not about the command line: a bug
    except Exception as e:  # noqa: BLE001 -- nothing may end in a traceback
        return _internal_error(e)
    return 0


def _file_message(e: OSError, output_file: str | None) -> str:
    if e.filename is None:
        return f"I/O error: {e}"
    verb = "write" if output_file is not None and e.filename == output_file else "read"
    reason = "no such file or directory" if isinstance(e, FileNotFoundError) else e.strerror
    return f"cannot {verb} '{e.filename}': {reason}"


def _parse_error(e: ParseError) -> int:
    """xDSL's parse error as `FILE:LINE:COL: message`, the source line and caret as notes."""
    where = e.span.get_location()
    context = str(e).rstrip("\n").split("\n")[1:3]
    return _fail(f"{where.file}:{where.line}:{where.col}: {e.msg}", [ln for ln in context if ln.strip()])


def _verify_error(e: Exception) -> int:
    """The first verifier message, and the op it is about (xDSL prints the whole module)."""
    text = str(e).strip()
    lines = text.splitlines()
    message = lines[0] if lines else type(e).__name__
    if message.endswith(":") and len(lines) > 1:
        message += " " + lines[1].strip()
    notes: list[str] = []
    for i, line in enumerate(lines):
        if line.lstrip().startswith("^^^") and i > 0:
            notes.append("in: " + lines[i - 1].strip()[:200])
            break
    return _fail(f"the IR does not verify: {message}", notes)


def _internal_error(e: BaseException) -> int:
    """A bug, not bad input: one line, and the traceback only when asked for."""
    if os.environ.get("XENZYME_TRACEBACK"):
        traceback.print_exception(e)
    return _fail(
        f"internal error: {type(e).__name__}: {e}",
        ["please report this with the input; XENZYME_TRACEBACK=1 shows where it happened"],
    )


def _pipeline_message(msg: str) -> str:
    if msg.startswith("Unrecognized passes"):
        return "unknown pass: " + msg.split(":", 1)[1].strip()
    if msg.startswith("Unrecognized file extension"):
        return msg.lower() + " (use .ll, .bc, .mlir, .c, .cpp, .f90, .f, .rs, or -f FRONTEND)"
    return msg
