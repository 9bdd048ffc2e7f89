"""The error codes the OpenAPI document lists are exactly the codes the code can emit.

The codes are read from the sources (every ``ApiError`` and ``ServiceError`` and their
subclasses, with the ``ServiceErrorCode`` members they name, the error builders of the
resolver and of the local gateway), so a new code that is not in
``ApiErrorCode`` fails here, and so does a listed code that nothing emits any more.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

from agent_memory.domain import ErrorCode
from agent_memory.http.contract import ERROR_CODES, ApiErrorCode
from agent_memory.http.openapi import merged_openapi
from agent_memory.ledger import MemoryOutcome
from agent_memory.ledger.outcome import (
    OUTCOME_REASONS,
    STORAGE_ERROR,
    OutcomeReason,
    OutcomeStatus,
)
from agent_memory.service.exceptions import ServiceErrorCode
from agent_memory_tools.local.functions import function_module, project_root

ROOT = project_root()
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
ERROR_BUILDERS = {"error_response", "_raw_error", "coded_response"}
# How the services name their codes: ``ServiceErrorCode.X`` (imported as ``Code`` too).
CODE_ENUMS = {"ServiceErrorCode", "Code"}


def _sources() -> list[Path]:
    return [
        *sorted((ROOT / "layers" / "agent_memory" / "agent_memory").rglob("*.py")),
        *sorted((ROOT / "functions").glob("*/app.py")),
        # The local gateway answers for API Gateway (throttles, timeouts, unknown methods).
        ROOT / "tools" / "agent_memory_tools" / "local" / "gateway.py",
        ROOT / "tools" / "agent_memory_tools" / "local" / "front.py",
    ]


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _literals(node: ast.expr) -> set[str]:
    """The code literals an argument can evaluate to: ``"x"``, ``a or "x"``, ``str(...)``,
    ``d.get(key, "x")``, ``"x" if c else "y"``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} if SNAKE.match(node.value) else set()
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in CODE_ENUMS
    ):
        return {ServiceErrorCode[node.attr].value}
    if isinstance(node, ast.BoolOp):
        return set().union(*(_literals(value) for value in node.values))
    if isinstance(node, ast.IfExp):
        return _literals(node.body) | _literals(node.orelse)
    if isinstance(node, ast.Call) and _name(node.func) == "str" and node.args:
        return _literals(node.args[0])
    if isinstance(node, ast.Call) and _name(node.func) == "get" and len(node.args) == 2:
        return _literals(node.args[1])
    return set()


def _emitted_codes() -> Iterator[tuple[str, str]]:
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in _sources()]
    family = _classes_under("ApiError", trees) | _classes_under("ServiceError", trees)
    for path, tree in zip(_sources(), trees, strict=True):
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in family | ERROR_BUILDERS:
                codes = [*node.args, *(k.value for k in node.keywords if k.arg == "code")]
                for argument in codes:
                    yield from ((code, where) for code in _literals(argument))
            if isinstance(node, ast.ClassDef) and node.name in family:
                for statement in ast.walk(node):
                    if isinstance(statement, ast.Assign) and "code" in map(
                        _name, statement.targets
                    ):
                        yield from ((code, where) for code in _literals(statement.value))
                    if isinstance(statement, ast.Call) and _name(statement.func) == "__init__":
                        for argument in statement.args:
                            yield from ((code, where) for code in _literals(argument))
            # (code, message) tables, such as the edit's failures
            if (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 2
                and isinstance(node.elts[0], ast.Attribute)
            ):
                yield from ((code, where) for code in _literals(node.elts[0]))


def test_every_error_code_the_code_emits_is_listed_and_nothing_else() -> None:
    # GIVEN the codes read from every place the API builds an error body
    emitted: dict[str, set[str]] = {}
    for code, where in _emitted_codes():
        emitted.setdefault(code, set()).add(where)

    # WHEN they are compared with ApiErrorCode (the enum the OpenAPI document publishes)
    listed = set(get_args(ApiErrorCode))

    # THEN both sets are equal: add a new code to ApiErrorCode, drop one nothing emits
    unlisted = {code: sorted(emitted[code]) for code in sorted(set(emitted) - listed)}
    assert not unlisted, f"codes missing from ApiErrorCode: {unlisted}"
    assert not listed - set(emitted), (
        f"ApiErrorCode lists codes nothing emits: {listed - set(emitted)}"
    )
    assert len(emitted) > 20  # the scan itself found the codes


def test_the_document_publishes_the_api_codes_and_the_memory_rules_codes_as_one_enum() -> None:
    # WHEN the document is generated
    document = merged_openapi(function_module(n).app for n in ("chat", "memory_api", "eval"))

    # THEN ErrorDetail.code is the enum of every API code and every memory-rule code (422)
    schemas = document["components"]["schemas"]
    code = schemas["ErrorDetail"]["properties"]["code"]
    assert code == {"$ref": "#/components/schemas/ErrorCode"}
    enum = schemas["ErrorCode"]["enum"]
    assert enum == list(ERROR_CODES) == sorted(set(get_args(ApiErrorCode)) | set(ErrorCode))


def _classes_under(root: str, trees: list[ast.Module]) -> set[str]:
    family = {root}
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    while True:
        grown = family | {c.name for c in classes if any(_name(b) in family for b in c.bases)}
        if grown == family:
            return family
        family = grown


REASON_GIVERS = {"_give_up", "discard", "_outcome", "_plain_outcome", "disabled"}


def _given_reasons() -> Iterator[tuple[str, str]]:
    """Reason literals in the ledger, the service and the repositories: ``reason=`` and
    ``reason = ...``, the outcome builders' arguments, ``(status, reason)`` pairs, and the
    codes of the errors whose code becomes a reason (repository errors, failed turns)."""
    package = ROOT / "layers" / "agent_memory" / "agent_memory"
    paths = [
        path
        for name in ("ledger", "service", "repository")
        for path in sorted((package / name).glob("*.py"))
    ]
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in paths]
    statuses = set(get_args(OutcomeStatus))
    coded = _classes_under("RepositoryError", trees) | _classes_under("TurnFailedError", trees)
    for path, tree in zip(paths, trees, strict=True):
        where = str(path.relative_to(ROOT))
        candidates: list[ast.expr] = []
        # Literal["cancelled", "discarded"] is a type, not a (status, reason) pair.
        types = {id(n.slice) for n in ast.walk(tree) if isinstance(n, ast.Subscript)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                candidates += [k.value for k in node.keywords if k.arg == "reason"]
                if _name(node.func) in REASON_GIVERS | coded:
                    candidates += node.args
            if isinstance(node, ast.Tuple) and len(node.elts) == 2 and id(node) not in types:
                first = node.elts[0]
                if isinstance(first, ast.Constant) and first.value in statuses:
                    candidates.append(node.elts[1])
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if {"reason", "stop"} & set(map(_name, targets)):
                    candidates.append(node.value)
            if isinstance(node, ast.FunctionDef):
                arguments = [*node.args.args, *node.args.kwonlyargs]
                defaults = [
                    *[None] * (len(node.args.args) - len(node.args.defaults)),
                    *node.args.defaults,
                    *node.args.kw_defaults,
                ]
                candidates += [
                    d for a, d in zip(arguments, defaults, strict=True) if a.arg == "reason" and d
                ]
            if isinstance(node, ast.ClassDef) and node.name in coded:
                for call in ast.walk(node):
                    if isinstance(call, ast.Call) and _name(call.func) == "__init__" and call.args:
                        candidates.append(call.args[0])
                    if isinstance(call, ast.Assign) and "code" in map(_name, call.targets):
                        candidates.append(call.value)
        for candidate in candidates:
            yield from ((r, where) for r in _literals(candidate) if r not in statuses)


def test_every_outcome_reason_the_code_gives_is_listed_and_nothing_else() -> None:
    # GIVEN the reason codes read from the ledger, the service and the repositories
    given: dict[str, set[str]] = {}
    for reason, where in _given_reasons():
        given.setdefault(reason, set()).add(where)

    # WHEN they are compared with OutcomeReason (published as the OpenAPI enum)
    listed = set(get_args(OutcomeReason))

    # THEN both sets are equal
    unlisted = {reason: sorted(given[reason]) for reason in sorted(set(given) - listed)}
    assert not unlisted, f"reasons missing from OutcomeReason: {unlisted}"
    assert not listed - set(given), (
        f"OutcomeReason lists reasons given nowhere: {listed - set(given)}"
    )
    assert len(given) > 15


def test_a_client_sees_only_listed_reasons_and_storage_codes_collapse() -> None:
    # GIVEN outcomes whose reasons are ours, a memory rule's, and DynamoDB's own code
    ours = MemoryOutcome.of("cancelled", None, reason="memory_forgotten")
    rule = MemoryOutcome.of("conflict", None, reason=str(ErrorCode.NO_MATCH))
    storage = MemoryOutcome.of("error", None, reason="ProvisionedThroughputExceededException")

    # WHEN they are rendered for the client
    bodies = [outcome.to_dict()["reason"] for outcome in (ours, rule, storage)]

    # THEN ours and the rule's stay, DynamoDB's becomes storage_error (logs keep the code)
    assert bodies == ["memory_forgotten", "no_match", STORAGE_ERROR]
    assert storage.metrics()["reason"] == "ProvisionedThroughputExceededException"
    assert set(bodies) <= set(OUTCOME_REASONS)
    document = merged_openapi(function_module(n).app for n in ("chat", "memory_api", "eval"))
    assert document["components"]["schemas"]["OutcomeReason"]["enum"] == list(OUTCOME_REASONS)
