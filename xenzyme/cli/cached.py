"""`xenzyme-opt` answered from the derivative cache, before xDSL or LLVM is imported.

A command line that only names an input file, `-p`, `-t obj` or `-t llvm` (with their
options), `-o` and the compilers' flags is *cacheable*: its output is a function of the program
the frontend makes of the input, the pipeline, the target and the compiler itself
(xenzyme/cache.py says what the keys hold).  The driver (xenzyme/cli/driver.py) stores the
output of every cacheable run; `answer` looks it up first, reading the input file (LLVM IR,
xDSL text) or, for C and C++, checking the manifest of clang's last compile of it (so that a
hit runs neither clang nor xDSL).  Anything else -- another option, `--no-cache`, input from
stdin, derivative rules from `--load-rules` -- goes to the driver uncached, and so does every
miss: the driver then reports errors exactly as without a cache.
"""

from __future__ import annotations

import os
import sys
import warnings

from xenzyme.cache import CacheWarning, compiler_identity, default_cache, digest, key, native_host, source_manifest_key

CACHED_TARGETS = ("obj", "llvm")
C_SUFFIXES = ("c", "cpp", "cc", "cxx", "cu")
_VALUED = {"-p": "passes", "--passes": "passes", "-t": "target", "--target": "target", "-o": "output",
           "--output-file": "output"}  # fmt: skip
_REPEATED = {"--clang-arg": "clang", "--flang-arg": "flang", "--rustc-arg": "rustc"}


class Request:
    """A cacheable command line."""

    def __init__(self, input: str, passes: str, target: str, output: str | None, flags: dict[str, list[str]]):  # noqa: A002
        self.input = input
        self.passes = passes
        self.target = target
        self.output = output
        self.flags = flags

    @property
    def suffix(self) -> str:
        return self.input.rsplit(".", 1)[-1] if "." in os.path.basename(self.input) else ""

    @property
    def target_name(self) -> str:
        return self.target.split("{", 1)[0].strip()

    def key(self, program: str) -> str:
        """The key of this command's output, for the program whose digest is `program`."""
        host = native_host() if "native" in self.target else None
        return key("xenzyme-opt", compiler_identity(), self.suffix, os.path.abspath(self.input), program,
                   self.passes.strip(), self.target.strip(), self.flags, host)  # fmt: skip

    def manifest_key(self, source: str) -> str:
        """The key of the manifest of clang's compile of `source` (the input's text)."""
        from xenzyme.frontend.clang import find_clang, language_of

        return source_manifest_key("clang", find_clang(), source, self.input, self.flags["clang"],
                                   language_of(self.input))  # fmt: skip


def parse(argv: list[str]) -> Request | None:
    """The request, when `argv` is a cacheable command line (as argparse reads it); else None."""
    values: dict[str, str] = {}
    flags: dict[str, list[str]] = {"clang": [], "flang": [], "rustc": []}
    inputs: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if not a.startswith("-") or a == "-":
            inputs.append(a)
            continue
        name, eq, value = a.partition("=") if a.startswith("--") else (a[:2], "", a[2:])
        if name in _VALUED or name in _REPEATED:
            if not (eq or value):
                if i >= len(argv) or argv[i].startswith("-"):
                    return None  # argparse's error, or a value it would not take: the driver's
                value = argv[i]
                i += 1
            if name in _VALUED:
                values[_VALUED[name]] = value
            else:
                flags[_REPEATED[name]].append(value)
            continue
        return None  # an option a cached answer would not honour
    if len(inputs) != 1 or inputs[0] == "-":
        return None
    req = Request(inputs[0], values.get("passes", ""), values.get("target", "mlir"), values.get("output"), flags)
    return req if req.target_name in CACHED_TARGETS else None


def answer(argv: list[str]) -> int | None:
    """Write the cached output of `argv` and return 0, or None when the driver must run."""
    req = parse(argv)
    if req is None:
        return None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CacheWarning)
        cache = default_cache()
        usable = cache.usable()
    if not usable:
        for w in caught:
            print(f"xenzyme-opt: warning: {w.message}", file=sys.stderr)
        return None
    try:
        with open(req.input, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if req.suffix in ("ll", "bc", "mlir"):
        program = digest(data)
    elif req.suffix in C_SUFFIXES:
        text = data.decode("utf-8", "replace")
        found = cache.lookup_source(req.manifest_key(text))
        if found is None:
            return None
        program = found
    else:
        return None  # Fortran and Rust: the driver runs their compiler, then looks
    entry = cache.get(req.key(program))
    if entry is None:
        return None
    return 0 if write_output(req, entry.payload) else None


def write_output(req: Request, payload: bytes) -> bool:
    """Write a result where `-o` says (stdout by default); False if it cannot be written (the
    driver then reports why)."""
    try:
        if req.output is None:
            sys.stdout.buffer.write(payload)
            sys.stdout.buffer.flush()
        else:
            with open(req.output, "wb") as f:
                f.write(payload)
    except OSError:
        return False
    return True
