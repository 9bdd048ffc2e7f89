"""The memory_update tool: its schema, argument parsing, results, and per-turn session.

The model only proposes. Arguments are untrusted: they are parsed strictly (no extra keys,
so no identity field can ever be smuggled in), validated by the rules, and only staged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agent_memory.domain.exceptions import ErrorCode, MemoryValidationError
from agent_memory.domain.model import (
    MAX_OPERATIONS,
    TARGETS,
    Operation,
    Snapshot,
    Target,
    normalize_text,
)
from agent_memory.domain.prompt import entries_for_prompt
from agent_memory.domain.rules import apply_operations

ToolResult = dict[str, Any]

MEMORY_UPDATE_TOOL_NAME = "memory_update"
MEMORY_UPDATE_DESCRIPTION = (
    "Add, replace or remove entries of the user's persistent memory. Target 'user' is the "
    "user profile (who the user is, preferences, expertise, communication style); target "
    "'memory' is agent memory (project facts, environment, conventions, lessons). "
    "add: content, no match. replace: match (text found in exactly one entry, or a whole "
    "entry) and the complete new entry as content. remove: match, no content. Operations "
    "apply in order and capacity is checked after all of them, so consolidate and add in one "
    "call when a store is full. Never store secrets. Changes are saved when the turn completes."
)
MAX_FAILED_TOOL_CALLS = 3

_OPERATION_FIELDS = ("target", "action", "match", "content")


class OperationArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    target: Literal["user", "memory"]
    action: Literal["add", "replace", "remove"]
    match: str | None = None
    content: str | None = None


class MemoryUpdateArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    operations: list[OperationArguments] = Field(min_length=1, max_length=MAX_OPERATIONS)


def memory_update_json_schema() -> dict[str, Any]:
    """The tool's parameters schema, generated from the models and reduced to the plain
    shape every provider accepts: items inlined, no titles or defaults, and nullable strings
    as ``{"type": ["string", "null"]}``."""
    schema = MemoryUpdateArguments.model_json_schema()
    definitions = schema.pop("$defs", {})
    simplified = _simplify(schema, definitions)
    assert isinstance(simplified, dict)
    return simplified


def _simplify(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_simplify(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _simplify(definitions[node["$ref"].rsplit("/", 1)[-1]], definitions)
    if "anyOf" in node and all(set(option) == {"type"} for option in node["anyOf"]):
        node = {**node, "type": [option["type"] for option in node["anyOf"]]}
        del node["anyOf"]
    simplified = {
        key: _simplify(value, definitions)
        for key, value in node.items()
        if key not in ("title", "default")
    }
    if "enum" in simplified:
        simplified.pop("type", None)
    return simplified


def parse_tool_arguments(raw: object) -> list[Operation]:
    """Tool arguments (a dict, or a JSON string as some providers send) to operations."""
    if isinstance(raw, str | bytes):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            raise MemoryValidationError(
                ErrorCode.INVALID_ARGUMENTS,
                "Invalid memory_update arguments: they are not valid JSON.",
            ) from None
    try:
        arguments = MemoryUpdateArguments.model_validate(raw)
    except ValidationError as error:
        raise MemoryValidationError(
            ErrorCode.INVALID_ARGUMENTS,
            "Invalid memory_update arguments: "
            + "; ".join(_describe(detail) for detail in error.errors()[:3])
            + ". Nothing was changed.",
        ) from None
    return [
        Operation(target=item.target, action=item.action, match=item.match, content=item.content)
        for item in arguments.operations
    ]


def _describe(detail: Any) -> str:
    """One validation problem in words, naming the field but never quoting a value (or an
    unexpected key, which is model-chosen text too)."""
    kind: str = detail["type"]
    location: tuple[str | int, ...] = tuple(detail["loc"])
    if kind == "extra_forbidden":
        parent = _path(location[:-1])
        allowed = ", ".join(_OPERATION_FIELDS) if parent else "operations"
        return f"unexpected field in {parent or 'the arguments'} (allowed: {allowed})"
    path = _path(location) or "the arguments"
    if kind == "missing":
        return f"{path} is required"
    if kind == "literal_error":
        return f"{path} must be {detail['ctx']['expected']}"
    if kind in ("too_short", "too_long"):
        return f"{path} must hold 1 to {MAX_OPERATIONS} operations"
    if kind == "string_type":
        return f"{path} must be a string or null"
    if kind == "list_type":
        return f"{path} must be a list"
    if kind in ("model_type", "dict_type", "model_attributes_type"):
        return f"{path} must be an object"
    return f"{path} is invalid"


def _path(location: Sequence[str | int]) -> str:
    path = ""
    for part in location:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else part)
    return path


def usage_summary(snapshot: Snapshot) -> dict[str, dict[str, int]]:
    summary: dict[str, dict[str, int]] = {}
    for target in TARGETS:
        usage = snapshot.usage(target)
        summary[target] = {"chars": usage.chars, "limit": usage.limit, "percent": usage.percent}
    return summary


def success_result(snapshot: Snapshot) -> ToolResult:
    return {
        "success": True,
        "message": "Memory updated; the change is saved when this turn completes.",
        "usage": usage_summary(snapshot),
    }


def failure_result(error: MemoryValidationError, snapshot: Snapshot) -> ToolResult:
    """The error plus the current entries of the store concerned (both when unknown), so the
    model can consolidate. Entries that fail the current rules are withheld, as in the prompt."""
    targets: tuple[Target, ...] = TARGETS
    if error.target in TARGETS:
        targets = (error.target,)
    return {
        "success": False,
        "error": {"code": str(error.code), "message": error.message},
        "current_entries": {
            target: entries
            for target, entries in entries_for_prompt(snapshot).items()
            if target in targets
        },
        "usage": usage_summary(snapshot),
    }


def stop_result() -> ToolResult:
    return {
        "success": False,
        "error": {
            "code": "too_many_failures",
            "message": (
                f"memory_update failed {MAX_FAILED_TOOL_CALLS} times in this turn. Do not call "
                "it again this turn; answer the user without changing memory."
            ),
        },
    }


def unavailable_result() -> ToolResult:
    return {
        "success": False,
        "error": {
            "code": "memory_unavailable",
            "message": (
                "Memory is unavailable this turn, so nothing was saved. Do not call "
                "memory_update again this turn."
            ),
        },
    }


@dataclass(frozen=True)
class ToolCallResult:
    result: ToolResult
    ok: bool
    operations: tuple[Operation, ...] = ()
    error_code: str | None = None


# A reviewer of the texts one call would write: None to accept, else a machine code
# (``guardrail_blocked``, ``guardrail_unavailable``). Injected by the ledger; the domain
# itself does no I/O.
BatchReview = Callable[[Sequence[str]], str | None]

_REVIEW_MESSAGES = {
    ErrorCode.GUARDRAIL_BLOCKED: (
        "The batch was rejected by the content guardrail (category: guardrail_blocked). "
        "Nothing was changed. Do not try to store this content."
    ),
    ErrorCode.GUARDRAIL_UNAVAILABLE: (
        "The content guardrail could not check the batch, so nothing was saved. Continue "
        "the conversation without saving; memory can be updated in a later turn."
    ),
}


def check_review(review: BatchReview, texts: Sequence[str]) -> None:
    """Ask the reviewer about the texts a change would write (none: nothing to ask);
    raises MemoryValidationError with its code when it refuses them. Used for the model's
    calls, the user's edits, undos and approvals alike, so every path that writes memory
    meets the same reviewer with the same answer."""
    if not texts:
        return
    code = review(texts)
    if code is not None:
        error_code = ErrorCode(code) if code in _REVIEW_MESSAGES else ErrorCode.GUARDRAIL_BLOCKED
        raise MemoryValidationError(error_code, _REVIEW_MESSAGES[error_code])


def _check_operations_review(review: BatchReview, operations: Sequence[Operation]) -> None:
    check_review(
        review,
        tuple(
            normalize_text(operation.content)
            for operation in operations
            if operation.content is not None
        ),
    )


class MemoryToolSession:
    """The memory tool for one turn: a pure state machine over a staged snapshot.

    Every successful call is applied to the staged snapshot and its operations appended to
    ``staged_operations``; a failed call changes nothing. After MAX_FAILED_TOOL_CALLS failures
    every further call returns the stop result. The turn's staged operations never exceed
    MAX_OPERATIONS, so the commit can replay them as one batch on the latest snapshot.
    """

    def __init__(self, snapshot: Snapshot, *, writes_enabled: bool) -> None:
        self._base_snapshot = snapshot
        self._snapshot = snapshot
        self._writes_enabled = writes_enabled
        self._staged: tuple[Operation, ...] = ()
        self._failed_calls = 0

    @property
    def base_snapshot(self) -> Snapshot:
        return self._base_snapshot

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    @property
    def staged_operations(self) -> tuple[Operation, ...]:
        return self._staged

    @property
    def failed_calls(self) -> int:
        return self._failed_calls

    @property
    def writes_enabled(self) -> bool:
        return self._writes_enabled

    def disable_writes(self) -> None:
        """Turn writes off for the rest of the turn and discard everything staged."""
        self._writes_enabled = False
        self._snapshot = self._base_snapshot
        self._staged = ()

    def call(self, raw_arguments: object, *, review: BatchReview | None = None) -> ToolCallResult:
        """Validate and stage one call. ``review``, when given, sees the texts the call would
        write after the rules passed them and may refuse them by returning an error code
        (the optional guardrail); a refused call stages nothing."""
        if self._failed_calls >= MAX_FAILED_TOOL_CALLS:
            return ToolCallResult(result=stop_result(), ok=False, error_code="too_many_failures")
        if not self._writes_enabled:
            self._failed_calls += 1
            return ToolCallResult(
                result=unavailable_result(), ok=False, error_code="memory_unavailable"
            )
        try:
            operations = tuple(parse_tool_arguments(raw_arguments))
            self._check_turn_budget(operations)
            updated = apply_operations(self._snapshot, operations)
            if review is not None:
                _check_operations_review(review, operations)
        except MemoryValidationError as error:
            self._failed_calls += 1
            result = failure_result(error, self._snapshot)
            result["attempts_left"] = MAX_FAILED_TOOL_CALLS - self._failed_calls
            if not result["attempts_left"]:
                result["instruction"] = "Do not call memory_update again this turn."
            return ToolCallResult(result=result, ok=False, error_code=str(error.code))
        self._snapshot = updated
        self._staged += operations
        return ToolCallResult(result=success_result(updated), ok=True, operations=operations)

    def _check_turn_budget(self, operations: tuple[Operation, ...]) -> None:
        staged = len(self._staged)
        if staged + len(operations) > MAX_OPERATIONS:
            raise MemoryValidationError(
                ErrorCode.TOO_MANY_OPERATIONS,
                f"This turn already staged {staged} operations and one turn can stage at most "
                f"{MAX_OPERATIONS}; this call was not applied.",
            )
