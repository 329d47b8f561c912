"""The derivative cache: compiled derivatives kept on disk, so that compiling the same program
again -- in a new process, `xz.gradient` or `xenzyme-opt` -- costs a file read.

    xenzyme-opt prog.c -p enzyme -t obj -o prog.o      # second time: read from the cache
    g = xz.gradient("model.c", "loss")                 # likewise, in a new Python process
    xenzyme-opt ... --no-cache;  xz.gradient(..., cache=False)      # neither read nor written

What an entry is keyed by: everything that determines it -- the program as the frontend made it
(the LLVM IR from clang, flang or rustc, or the input file's bytes), the pipeline and its
options (or the function, activities and levels of `xz.gradient`), the target (with the host's
CPU and features for native code), and xenzyme's version together with a digest of its own
source files and the versions of xDSL and llvmlite, so that a changed compiler never reads
what an older one wrote.  Derivatives that depend on derivative rules registered from Python
(`@xz.derivative`, `--load-rules`) are not cached: what a Python function does cannot be
keyed.

C and C++ sources are keyed by clang's output without running clang each time, the way
ccache's direct mode does it: a *manifest*, keyed by the source text, its name, the flags,
the working directory and the compiler binary, lists the files the compilation read (from
clang's `-MD` dependency file) with a digest of each, and the digest of the IR clang made.
When every listed file still has its digest, the IR's digest is known without compiling.

Where: `$XENZYME_CACHE_DIR`, else `$XDG_CACHE_HOME/xenzyme`, else `~/.cache/xenzyme`.  Its size
is bounded (`$XENZYME_CACHE_SIZE` bytes, with an optional K, M or G suffix; 1G by default) by
evicting the least recently used entries (a hit refreshes an entry's modification time).

Entries are native code that will run, so:

* the directory is created private to the user (mode 0700); a directory owned by another
  user, or writable by the group or by others, is not used, and a warning says why;
* an entry is one file: a magic number, the SHA-256 of the rest, and the rest (its metadata as
  JSON, then the payload).  It is loaded only when the recorded digest matches what was read
  and it names its own key: a truncated or corrupt entry is deleted and rebuilt, never loaded;
* writers write a temporary file in the directory and rename it over the entry (atomic), so a
  reader sees a whole entry or none, and concurrent writers of one entry each leave a whole one.

This module imports only the standard library: `xenzyme-opt` answers from the cache before
xDSL or LLVM are loaded.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import stat
import sys
import time
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

ENV_DIR = "XENZYME_CACHE_DIR"
ENV_SIZE = "XENZYME_CACHE_SIZE"
DEFAULT_MAX_BYTES = 1 << 30
FORMAT = 1
"""The entry format's version: part of every key."""

_MAGIC = b"XZCACHE\x01"
_SUFFIX = ".xzc"
_HEADER = len(_MAGIC) + 32 + 4
_STALE_TEMP_S = 3600.0
"""A temporary file older than this was left by a writer that died: eviction removes it."""


class CacheWarning(UserWarning):
    """Why the derivative cache is not used (its directory is unsafe or cannot be created)."""


class Entry(NamedTuple):
    meta: dict[str, Any]
    payload: bytes


def default_directory() -> Path:
    """`$XENZYME_CACHE_DIR`, else `$XDG_CACHE_HOME/xenzyme`, else `~/.cache/xenzyme`."""
    if d := os.environ.get(ENV_DIR):
        return Path(d).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG specification: a relative path is invalid and is ignored.
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "xenzyme"


def _size_from_env() -> int:
    text = os.environ.get(ENV_SIZE, "").strip()
    if not text:
        return DEFAULT_MAX_BYTES
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1].lower(), 1)
    try:
        return max(0, int(float(text[:-1] if scale > 1 else text) * scale))
    except ValueError:
        warnings.warn(f"{ENV_SIZE}={text!r} is not a size (bytes, or a number with K, M or G): using 1G",
                      CacheWarning, stacklevel=3)  # fmt: skip
        return DEFAULT_MAX_BYTES


def key(*parts: Any) -> str:
    """The key of an entry: a SHA-256 of `parts` (JSON values) and the entry format."""
    text = json.dumps([FORMAT, *parts], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def digest(data: str | bytes) -> str:
    """The SHA-256 of a program's text or bytes (what keys name a program by)."""
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


class Cache:
    """The cache in one directory (by default `default_directory()`)."""

    def __init__(self, directory: str | os.PathLike[str] | None = None, max_bytes: int | None = None):
        self.directory = Path(directory) if directory is not None else default_directory()
        self.max_bytes = max_bytes if max_bytes is not None else _size_from_env()
        self._usable: bool | None = None

    # ---- the directory ----------------------------------------------------------------------

    def usable(self) -> bool:
        """Whether the directory is there (created, mode 0700, on first use) and safe; warns
        once when it is not."""
        if self._usable is None:
            reason = self._check()
            if reason:
                warnings.warn(f"the derivative cache in '{self.directory}' is not used: {reason}",
                              CacheWarning, stacklevel=3)  # fmt: skip
            self._usable = not reason
        return self._usable

    def _check(self) -> str:
        d = self.directory
        try:
            d.mkdir(mode=0o700, parents=True, exist_ok=True)
            st = d.stat()
        except OSError as e:
            return f"it cannot be created ({e.strerror or e})"
        if not stat.S_ISDIR(st.st_mode):
            return "it is not a directory"
        uid = getattr(os, "getuid", lambda: None)()
        if uid is not None and st.st_uid != uid:
            return (f"it belongs to another user (uid {st.st_uid}); compiled code in it could have been "
                    f"written by anyone who can write there; set {ENV_DIR} to a directory of your own")
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return (f"it is writable by other users (mode {stat.S_IMODE(st.st_mode):o}); run `chmod 700 {d}` "
                    f"or set {ENV_DIR} to a private directory")
        return ""

    def _path(self, k: str) -> Path:
        if len(k) != 64 or any(c not in "0123456789abcdef" for c in k):
            raise ValueError(f"not a cache key: {k!r}")
        return self.directory / (k + _SUFFIX)

    # ---- reading ----------------------------------------------------------------------------

    def get(self, k: str) -> Entry | None:
        """The entry of key `k`, or None.  A corrupt entry is deleted (and reported as absent)."""
        if not self.usable():
            return None
        path = self._path(k)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            uid = getattr(os, "getuid", lambda: None)()
            if not stat.S_ISREG(st.st_mode) or (uid is not None and st.st_uid != uid) or st.st_mode & 0o022:
                return None  # not written by this user through this module: never loaded
            data = f.read()
        entry = _decode(data, k)
        if entry is None:
            _unlink(path)
            return None
        try:
            os.utime(path)  # most recently used
        except OSError:
            pass
        return entry

    # ---- writing ----------------------------------------------------------------------------

    def put(self, k: str, meta: dict[str, Any], payload: bytes) -> bool:
        """Store an entry (atomically: a temporary file renamed over it); then evict the least
        recently used entries beyond the size bound.  Failures to write are not errors."""
        if not self.usable():
            return False
        data = _encode(k, meta, payload)
        if len(data) > self.max_bytes:
            return False
        path = self._path(k)
        tmp = self.directory / f".tmp-{k[:16]}-{os.getpid()}-{os.urandom(4).hex()}"
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError:
            _unlink(tmp)
            return False
        self.evict(keep=path)
        return True

    def evict(self, keep: Path | None = None) -> None:
        """Delete the least recently used entries until the total is within the bound, and the
        temporary files writers that died left behind."""
        entries: list[tuple[float, int, str]] = []
        now = time.time()
        try:
            with os.scandir(self.directory) as it:
                for e in it:
                    try:
                        st = e.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if e.name.endswith(_SUFFIX):
                        entries.append((st.st_mtime, st.st_size, e.path))
                    elif e.name.startswith(".tmp-") and now - st.st_mtime > _STALE_TEMP_S:
                        _unlink(Path(e.path))
        except OSError:
            return
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.max_bytes:
                break
            if keep is not None and path == str(keep):
                continue
            _unlink(Path(path))
            total -= size

    def total_bytes(self) -> int:
        try:
            with os.scandir(self.directory) as it:
                return sum(e.stat(follow_symlinks=False).st_size for e in it if e.name.endswith(_SUFFIX))
        except OSError:
            return 0

    # ---- C sources without running clang (direct mode) --------------------------------------

    def lookup_source(self, k: str) -> str | None:
        """The digest of the IR a compiler made from a source, if the manifest `k` recorded
        and every file that compilation read is unchanged."""
        entry = self.get(k)
        if entry is None or entry.meta.get("kind") != "manifest":
            return None
        try:
            record = json.loads(entry.payload)
            for path, want in record["files"]:
                if _file_digest(path) != want:
                    return None
            return str(record["ir"])
        except (ValueError, KeyError, TypeError):
            return None

    def record_source(self, k: str, files: Iterable[str], ir_digest: str) -> None:
        """Record manifest `k`: the files a compilation read (their digests now) and the digest
        of the IR it made.  Nothing is recorded when a file cannot be read."""
        listed = []
        for path in sorted(set(files)):
            try:
                with open(path, "rb") as f:
                    data = f.read()
            except OSError:
                return
            if uses_time_macros(data):
                return  # its IR changes with the clock
            listed.append([path, digest(data)])
        payload = json.dumps({"files": listed, "ir": ir_digest}).encode()
        self.put(k, {"kind": "manifest"}, payload)


_CACHES: dict[Path, Cache] = {}


def default_cache() -> Cache:
    """The cache in `default_directory()`, one instance per directory and process (its checks
    and warnings happen once)."""
    d = default_directory()
    if d not in _CACHES:
        _CACHES[d] = Cache(d)
    return _CACHES[d]


@functools.cache
def native_host() -> list[str]:
    """This machine as LLVM sees it (triple, CPU, features): part of the key of code compiled
    for the host CPU."""
    import llvmlite.binding as llb

    return [llb.get_process_triple(), llb.get_host_cpu_name(), llb.get_host_cpu_features().flatten()]


def _encode(k: str, meta: dict[str, Any], payload: bytes) -> bytes:
    head = json.dumps({**meta, "key": k}, sort_keys=True).encode()
    body = len(head).to_bytes(4, "big") + head + payload
    return _MAGIC + hashlib.sha256(body).digest() + body


def _decode(data: bytes, k: str) -> Entry | None:
    if len(data) < _HEADER or data[: len(_MAGIC)] != _MAGIC:
        return None
    body = data[len(_MAGIC) + 32 :]
    if hashlib.sha256(body).digest() != data[len(_MAGIC) : len(_MAGIC) + 32]:
        return None
    n = int.from_bytes(body[:4], "big")
    try:
        meta = json.loads(body[4 : 4 + n])
    except ValueError:
        return None
    if not isinstance(meta, dict) or meta.get("key") != k:
        return None
    return Entry(meta, body[4 + n :])


def _unlink(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def _file_digest(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


# ---------------------------------------------------------------------------------------------
# What every key includes
# ---------------------------------------------------------------------------------------------


@functools.cache
def compiler_identity() -> dict[str, str]:
    """xenzyme's version and the state of its own files, the versions of xDSL and llvmlite
    (whose LLVM is built in), and the platform: what makes two processes compile alike.

    A file's state is its path, size and modification time (as a compiler binary's is for
    ccache): editing, installing or checking out any file of the package changes it, and
    reading the files' 1 MB to hash them would be most of a cached compile."""
    from xenzyme import __version__

    package = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = os.path.join(dirpath, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            h.update(f"{os.path.relpath(path, package)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return {
        "xenzyme": __version__,
        "files": h.hexdigest(),
        "xdsl": _dist_version("xdsl"),
        "llvmlite": _dist_version("llvmlite"),
        "platform": f"{sys.platform}-{os.uname().machine if hasattr(os, 'uname') else ''}",
    }


def _dist_version(name: str) -> str:
    """An installed distribution's version, from its `dist-info` folder beside the package
    (`importlib.metadata` costs more to import than a warm compile may take)."""
    import importlib.util

    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin:
        site = Path(spec.origin).resolve().parent.parent
        try:
            found = sorted(p for p in os.listdir(site) if p.startswith(name + "-") and p.endswith(".dist-info"))
        except OSError:
            found = []
        if found:
            return found[-1][len(name) + 1 : -len(".dist-info")]
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def source_manifest_key(tool: str, compiler: str, source: str | bytes, filename: str, flags: Sequence[str],
                        language: str) -> str:  # fmt: skip
    """The key of the manifest of compiling `source` (named `filename`) with `compiler` and
    `flags`: the source, its name and folder, the working directory, the compiler binary, and
    the environment variables that add include paths."""
    try:
        st = os.stat(compiler)
        binary = [os.path.realpath(compiler), st.st_size, st.st_mtime_ns]
    except OSError:
        binary = [compiler]
    env = {v: os.environ[v] for v in ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "SOURCE_DATE_EPOCH")
           if v in os.environ}  # fmt: skip
    return key("manifest", tool, compiler_identity(), binary, digest(source), os.path.abspath(filename),
               os.getcwd(), list(flags), language, env)  # fmt: skip


def uses_time_macros(source: str | bytes) -> bool:
    """Whether C source text (or a header) names `__DATE__`, `__TIME__` or `__TIMESTAMP__`: its
    IR changes with the clock, so no manifest stands for it."""
    data = source.encode() if isinstance(source, str) else source
    return any(m in data for m in (b"__DATE__", b"__TIME__", b"__TIMESTAMP__"))
