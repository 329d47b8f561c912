"""The packages of xenzyme depend on each other one way only (DESIGN.md, "Layout"):

    frontend -> dialects <- analysis <- rules <- transforms -> backend

with the small modules at the root (`diagnostics`, `llvm_text`, `llvm_binding`) below all of
them and the user-facing modules (`api`, `cuda`, `cli`) above.  `cache` (the derivative cache)
imports nothing of xenzyme: the command line reads it before anything else is loaded.  An import against the arrows,
even one inside a function, is a circle waiting to happen: this test fails on it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "xenzyme"
BASE = {"diagnostics", "llvm_text", "llvm_binding"}
ALLOWED: dict[str, set[str]] = {
    "dialects": set(),
    "frontend": {"dialects"},
    "analysis": {"dialects"},
    "rules": {"analysis", "dialects"},
    "backend": {"dialects", "analysis"},
    "transforms": {"rules", "analysis", "dialects", "backend", "frontend"},
    "diagnostics": set(),
    "llvm_text": {"diagnostics", "dialects"},
    "llvm_binding": set(),
    "cache": set(),
}
"""What each layer may import besides itself (and the base modules, below everything)."""


def _imports(path: Path) -> set[str]:
    """The xenzyme layers a file imports, at any depth of the file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "xenzyme" and len(parts) > 1:
                out.add(parts[1])
    return out


def _layer_files() -> list[tuple[str, Path]]:
    files = []
    for layer in ALLOWED:
        target = PACKAGE / layer
        paths = sorted(target.rglob("*.py")) if target.is_dir() else [target.with_suffix(".py")]
        files += [(layer, p) for p in paths]
    return files


@pytest.mark.parametrize(("layer", "path"), _layer_files(), ids=lambda v: str(v).split("xenzyme/")[-1])
def test_imports_follow_the_layers(layer: str, path: Path) -> None:
    base = BASE - {layer}
    allowed = ALLOWED[layer] | {layer} | (base if layer not in BASE else ALLOWED[layer])
    wrong = _imports(path) - allowed
    assert not wrong, f"{path.relative_to(PACKAGE.parent)} imports {sorted(wrong)}; {layer} may import {sorted(allowed - {layer})}"


def test_every_package_is_placed() -> None:
    """A new package or root module gets a place in the layers (or is user-facing)."""
    user_facing = {"api", "cuda", "cli", "tools", "__init__"}
    present = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
    assert present - user_facing <= set(ALLOWED), sorted(present - user_facing - set(ALLOWED))
