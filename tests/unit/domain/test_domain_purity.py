"""The domain stays pure: no AWS SDK, no I/O, no clock, no randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import agent_memory.domain

DOMAIN = Path(agent_memory.domain.__file__).parent
MODULES = sorted(DOMAIN.rglob("*.py"))

FORBIDDEN = {
    "boto3",
    "botocore",
    "aioboto3",
    "aws_lambda_powertools",
    "socket",
    "os",
    "time",
    "random",
    "secrets",
    "uuid",
    "datetime",
    "pathlib",
    "io",
    "subprocess",
    "shutil",
    "tempfile",
    "urllib",
    "http",
    "requests",
    "httpx",
    "asyncio",
    "threading",
    "logging",
    "sqlite3",
}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


ROOT_ERRORS = "agent_memory.exceptions"


def test_the_package_error_roots_the_domain_derives_from_import_nothing() -> None:
    # GIVEN the module of AgentMemoryError, which the domain's errors derive from
    module = DOMAIN.parent / "exceptions.py"

    # THEN it imports nothing at all, so the domain stays as pure through it
    assert imported_modules(module) <= {"__future__"}


def test_the_domain_has_modules() -> None:
    assert {path.relative_to(DOMAIN).as_posix() for path in MODULES} >= {
        "model.py",
        "rules.py",
        "tool.py",
        "threats/scanner.py",
        "threats/rules/poisoning.py",
    }


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.relative_to(DOMAIN).as_posix())
def test_a_domain_module_imports_nothing_impure(module: Path) -> None:
    # GIVEN the imports of one domain module
    imports = imported_modules(module)

    # THEN none is an I/O, clock, randomness or AWS module
    assert not {name for name in imports if name.split(".")[0] in FORBIDDEN}
    # AND the only first-party imports are the domain itself and the package's error roots
    assert all(
        name.startswith("agent_memory.domain") or name == ROOT_ERRORS
        for name in imports
        if name.startswith("agent_memory")
    )
    # AND pydantic is confined to the tool contract
    if module.name != "tool.py":
        assert not {name for name in imports if name.split(".")[0] == "pydantic"}
