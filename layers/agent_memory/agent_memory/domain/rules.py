"""The memory rules: the one pure function that decides whether a batch of operations
becomes the next snapshot.

A batch is ordered and each operation sees the result of the previous one. Capacity is
checked once, after the whole batch, so a full store can be consolidated and extended in a
single batch. Any violation raises MemoryValidationError and, the snapshot being immutable,
nothing changes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from agent_memory.domain.exceptions import (
    CapacityExceededError,
    ErrorCode,
    MemoryValidationError,
    ThreatDetectedError,
)
from agent_memory.domain.model import (
    ACTIONS,
    LIMITS,
    MAX_OPERATIONS,
    TARGETS,
    Action,
    Operation,
    Snapshot,
    Target,
    normalize_text,
)
from agent_memory.domain.threats import THREAT_REASONS, scan, scan_document
from agent_memory.domain.threats.folding import fold_pattern, skeleton

# The tags that delimit the memory block in the prompt, in any case or spacing; also
# without the closing bracket, which a model would still read as the tag. Compared on the
# skeleton, so a look-alike letter or a leetspeak digit does not make a new tag.
_RESERVED_TAG = re.compile(fold_pattern(r"<\s*/?\s*persistent[\s_-]*memory[\s_-]*data\b"))
# The block's section headers: an entry that starts a line with one could fake a section.
_RESERVED_HEADER = re.compile(
    fold_pattern(r"^\s*(?:user\s+profile|agent\s+memory|memory\s+unavailable)\s*\["),
    re.MULTILINE,
)
_LINE_BREAKS_ALLOWED = frozenset({"\n", "\t"})
# Cc: C0/C1 controls; Cs: lone surrogates (not encodable); Zl/Zp: line and paragraph
# separators, which render as line breaks the delimiter rules do not see.
_CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


@dataclass(frozen=True)
class _Checked:
    """An operation that passed every check that needs no snapshot, with normalised text."""

    target: Target
    action: Action
    match: str | None
    content: str | None


def apply_operations(snapshot: Snapshot, operations: Sequence[Operation]) -> Snapshot:
    """Apply an ordered batch to a snapshot and return the new snapshot, or raise."""
    checked = _check_batch(operations)
    stores: dict[Target, list[str]] = {target: list(snapshot.entries(target)) for target in TARGETS}
    for index, operation in enumerate(checked):
        _apply_one(stores[operation.target], operation, index)
    updated = Snapshot(user=tuple(stores["user"]), memory=tuple(stores["memory"]))
    _check_capacity(snapshot, updated)
    _check_document(snapshot, updated)
    return updated


def validate_operations(operations: Sequence[Operation]) -> None:
    """Every check that needs no snapshot: batch size, targets, actions, field contracts,
    and the content rules (including the threat scan) of each entry to be written."""
    _check_batch(operations)


def validate_entry(
    text: str, target: Target, *, operation_index: int | None = None, stored: bool = False
) -> str:
    """Normalise an entry and check it can be stored in ``target``; returns the normal form.
    ``stored``: an entry already in memory, read back (``threats.scan`` says what differs)."""
    entry = normalize_text(text)
    where = "" if operation_index is None else f"operations[{operation_index}]: "
    if not entry:
        raise _error(ErrorCode.EMPTY_ENTRY, f"{where}The entry is empty.", operation_index, target)
    limit = LIMITS[target]
    if len(entry) > limit:
        raise _error(
            ErrorCode.ENTRY_TOO_LONG,
            f"{where}The entry has {len(entry)} characters; one {target} entry can hold at "
            f"most {limit}. Write a shorter, self-contained fact.",
            operation_index,
            target,
        )
    if any(line.strip() == "§" for line in entry.split("\n")):
        raise _error(
            ErrorCode.DELIMITER_IN_ENTRY,
            f"{where}The entry contains the entry delimiter (a line holding only '§'). "
            "Store one fact per entry.",
            operation_index,
            target,
        )
    if any(_is_forbidden_control(char) for char in entry):
        raise _error(
            ErrorCode.CONTROL_CHARACTER,
            f"{where}The entry contains a control character; only newline and tab are allowed.",
            operation_index,
            target,
        )
    folded = skeleton(entry)
    if _RESERVED_TAG.search(folded) or _RESERVED_HEADER.search(folded):
        raise _error(
            ErrorCode.RESERVED_TAG,
            f"{where}The entry contains a reserved marker of the memory block "
            "(the persistent_memory_data tag or a section header).",
            operation_index,
            target,
        )
    finding = scan(entry, stored=stored)
    if finding is not None:
        raise ThreatDetectedError(
            finding.category,
            THREAT_REASONS[finding.category],
            operation_index=operation_index,
            target=target,
        )
    return entry


def _check_batch(operations: Sequence[Operation]) -> tuple[_Checked, ...]:
    if not operations:
        raise MemoryValidationError(
            ErrorCode.NO_OPERATIONS, "The batch holds no operations; send at least one."
        )
    if len(operations) > MAX_OPERATIONS:
        raise MemoryValidationError(
            ErrorCode.TOO_MANY_OPERATIONS,
            f"The batch holds {len(operations)} operations; at most {MAX_OPERATIONS} are allowed.",
        )
    return tuple(_check_operation(operation, index) for index, operation in enumerate(operations))


def _check_operation(operation: Operation, index: int) -> _Checked:
    where = f"operations[{index}]"
    if operation.target not in TARGETS:
        raise _error(
            ErrorCode.UNKNOWN_TARGET,
            f"{where}: Unknown target; use 'user' or 'memory'.",
            index,
            None,
        )
    target = operation.target
    if operation.action not in ACTIONS:
        raise _error(
            ErrorCode.UNKNOWN_ACTION,
            f"{where}: Unknown action; use 'add', 'replace' or 'remove'.",
            index,
            target,
        )
    action = operation.action
    _check_fields(operation, action, index, target)

    match = None
    if operation.match is not None:
        match = normalize_text(operation.match)
        if not match:
            raise _error(
                ErrorCode.INVALID_FIELDS,
                f"{where}: {action} needs a non-empty match.",
                index,
                target,
            )
    content = None
    if operation.content is not None:
        content = validate_entry(operation.content, target, operation_index=index)
    return _Checked(target=target, action=action, match=match, content=content)


_FIELD_CONTRACTS: dict[Action, str] = {
    "add": "add needs content and no match (send match as null)",
    "replace": "replace needs match (text found in exactly one entry) and the complete new "
    "entry as content",
    "remove": "remove needs match (text found in exactly one entry) and no content (send "
    "content as null)",
}


def _check_fields(operation: Operation, action: Action, index: int, target: Target) -> None:
    has_match = operation.match is not None
    has_content = operation.content is not None
    valid = {
        "add": has_content and not has_match,
        "replace": has_content and has_match,
        "remove": has_match and not has_content,
    }[action]
    if not valid:
        raise _error(
            ErrorCode.INVALID_FIELDS,
            f"operations[{index}]: {_FIELD_CONTRACTS[action]}.",
            index,
            target,
        )


def _apply_one(entries: list[str], operation: _Checked, index: int) -> None:
    if operation.action == "add":
        assert operation.content is not None
        # An exact duplicate is a no-op, so a retried or replayed batch adds nothing twice.
        if operation.content not in entries:
            entries.append(operation.content)
        return
    assert operation.match is not None
    position = _find_entry(entries, operation.match, index, operation.target)
    if operation.action == "remove":
        del entries[position]
        return
    assert operation.content is not None
    if operation.content != entries[position] and operation.content in entries:
        raise _error(
            ErrorCode.DUPLICATE_ENTRY,
            f"operations[{index}]: The new content is identical to another entry of the "
            f"{operation.target} store; remove this entry instead.",
            index,
            operation.target,
        )
    entries[position] = operation.content


def _find_entry(entries: list[str], match: str, index: int, target: Target) -> int:
    # A match equal to a whole entry selects it even when it is also part of other entries;
    # otherwise "Python" could never address the entry "Python" next to "Python 3.13".
    if match in entries:
        return entries.index(match)
    positions = [position for position, entry in enumerate(entries) if match in entry]
    if len(positions) == 1:
        return positions[0]
    if not positions:
        raise _error(
            ErrorCode.NO_MATCH,
            f"operations[{index}]: No entry of the {target} store contains the match text. "
            "Copy the text from one current entry.",
            index,
            target,
        )
    raise _error(
        ErrorCode.AMBIGUOUS_MATCH,
        f"operations[{index}]: The match text occurs in {len(positions)} entries of the "
        f"{target} store; use a longer match that occurs in exactly one entry.",
        index,
        target,
    )


def _check_capacity(before: Snapshot, after: Snapshot) -> None:
    for target in TARGETS:
        chars, limit = after.chars(target), LIMITS[target]
        # A document stored over its limit (e.g. written before a limit change) may shrink
        # step by step, but no batch may make it grow.
        if chars > limit and chars > before.chars(target):
            raise CapacityExceededError(target, chars, limit)


def _check_document(before: Snapshot, after: Snapshot) -> None:
    """The entries read together, as the model reads the block: an instruction split across
    entries (or across turns) is refused. A document that already failed before the batch
    (say, under rules added since) does not block unrelated edits; its entries are withheld
    from the prompt instead (``prompt.withheld_entries``)."""
    finding = scan_document(document_entries(after))
    if finding is None or scan_document(document_entries(before)) is not None:
        return
    raise ThreatDetectedError(
        finding.category, THREAT_REASONS[finding.category], operation_index=None, target=None
    )


def document_entries(snapshot: Snapshot) -> tuple[str, ...]:
    """Every entry of both stores, in the order the prompt shows them."""
    return tuple(entry for target in TARGETS for entry in snapshot.entries(target))


def _is_forbidden_control(char: str) -> bool:
    return char not in _LINE_BREAKS_ALLOWED and unicodedata.category(char) in _CONTROL_CATEGORIES


def _error(
    code: ErrorCode, message: str, index: int | None, target: str | None
) -> MemoryValidationError:
    return MemoryValidationError(code, message, operation_index=index, target=target)
