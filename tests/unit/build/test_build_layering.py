"""The runtime (the layer and the functions) never imports the tools package.

The build test checks the built layer itself; this one reads the sources, so a forbidden
import fails the fast suite too, before any ``sam build``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import agent_memory
import agent_memory_tools

RUNTIME = Path(agent_memory.__file__).parent
TOOLS = Path(agent_memory_tools.__file__).parent
ROOT = RUNTIME.parents[2]
RUNTIME_SOURCES = sorted(RUNTIME.rglob("*.py")) + sorted((ROOT / "functions").glob("*/app.py"))


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_two_packages_live_apart() -> None:
    assert RUNTIME == ROOT / "layers" / "agent_memory" / "agent_memory"
    assert TOOLS == ROOT / "tools" / "agent_memory_tools"
    assert {path.name for path in TOOLS.iterdir()} >= {"local", "loadtest", "cli", "operations"}
    assert not {path.name for path in RUNTIME.iterdir()} & {"local", "loadtest", "cli"}


@pytest.mark.parametrize("module", RUNTIME_SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_runtime_code_never_imports_a_tool_module(module: Path) -> None:
    # GIVEN the imports of one runtime module (the layer's package or a function's handler)
    imports = imported_modules(module)

    # THEN none of them is the tools package
    assert not {name for name in imports if name.split(".")[0] == "agent_memory_tools"}
