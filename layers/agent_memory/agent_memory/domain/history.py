"""History, undo and provenance rules (DESIGN.md "User control: history, undo, write modes").

Pure functions over snapshots: what a commit changed (an entry-level diff of the documents
as committed, so a replayed batch records what really changed), how to undo it on the latest
documents, and who last wrote each entry.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from agent_memory.domain.exceptions import MemoryValidationError
from agent_memory.domain.model import TARGETS, Operation, Snapshot, Target
from agent_memory.domain.rules import apply_operations

Source = Literal["chat", "edit", "undo", "approval"]
SOURCES: tuple[Source, ...] = ("chat", "edit", "undo", "approval")
# Entries written before provenance was recorded (schema version < 3).
UNKNOWN_SOURCE = "unknown"

UNDO_CONFLICT = "undo_conflict"


@dataclass(frozen=True)
class Change:
    """One entry-level change: ``add`` (after), ``remove`` (before) or ``replace`` (both)."""

    target: Target
    action: Literal["add", "replace", "remove"]
    before: str | None = None
    after: str | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"target": self.target, "action": self.action}
        if self.before is not None:
            body["before"] = self.before
        if self.after is not None:
            body["after"] = self.after
        return body

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Change:
        target, action = data.get("target"), data.get("action")
        if target not in TARGETS or action not in ("add", "replace", "remove"):
            raise ValueError("not a change record")
        before, after = data.get("before"), data.get("after")
        return cls(
            target=target,
            action=action,
            before=before if isinstance(before, str) else None,
            after=after if isinstance(after, str) else None,
        )


@dataclass(frozen=True)
class Provenance:
    """Who last wrote one entry: the commit's source, its turn, and when."""

    source: str
    updated_at: int
    turn_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"source": self.source, "updated_at": self.updated_at}
        if self.turn_id is not None:
            body["turn_id"] = self.turn_id
        return body

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Provenance:
        source, updated_at, turn_id = (
            data.get("source"),
            data.get("updated_at"),
            data.get("turn_id"),
        )
        if not isinstance(source, str) or not isinstance(updated_at, int):
            raise ValueError("not a provenance record")
        return cls(
            source=source,
            updated_at=updated_at,
            turn_id=turn_id if isinstance(turn_id, str) else None,
        )


def diff_snapshots(before: Snapshot, after: Snapshot) -> tuple[Change, ...]:
    """The entry-level changes from ``before`` to ``after``, target by target.

    An entry in both is unchanged wherever it stands (the order of entries carries no fact).
    A replaced entry keeps its position (the rules replace in place), so an entry that left
    and another that arrived at the same place are one ``replace``.
    """
    changes: list[Change] = []
    for target in TARGETS:
        old, new = before.entries(target), after.entries(target)
        gone, arrived = set(old) - set(new), set(new) - set(old)
        matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            removed = [entry for entry in old[i1:i2] if entry in gone]
            added = [entry for entry in new[j1:j2] if entry in arrived]
            paired = min(len(removed), len(added)) if tag == "replace" else 0
            for index in range(paired):
                changes.append(Change(target, "replace", removed[index], added[index]))
            changes.extend(Change(target, "remove", before=text) for text in removed[paired:])
            changes.extend(Change(target, "add", after=text) for text in added[paired:])
    return tuple(changes)


def undo_changes(latest: Snapshot, changes: Sequence[Change]) -> Snapshot:
    """Apply the inverse of ``changes`` to ``latest`` through the memory rules.

    Strict: every entry the commit left behind must still be there exactly, and an entry it
    removed must not be back; otherwise ``MemoryValidationError(undo_conflict)`` and nothing
    changes. The inverse operations address whole entries, so a match can never slip onto
    another entry that merely contains the text.
    """
    operations: list[Operation] = []
    for change in reversed(changes):
        entries = latest.entries(change.target)
        if change.action == "add":
            _require(change.after in entries)
            operations.append(Operation(change.target, "remove", match=change.after))
        elif change.action == "remove":
            _require(change.before not in entries)
            operations.append(Operation(change.target, "add", content=change.before))
        else:
            _require(change.after in entries and change.before not in entries)
            operations.append(
                Operation(change.target, "replace", match=change.after, content=change.before)
            )
    if not operations:
        return latest
    return apply_operations(latest, operations)


def undo_texts(changes: Sequence[Change]) -> tuple[str, ...]:
    """The texts an undo of ``changes`` writes back (what the commit removed or replaced),
    for the reviewer that sees every text written to memory."""
    return tuple(
        change.before
        for change in reversed(changes)
        if change.action != "add" and change.before is not None
    )


def carry_provenance(
    before: Snapshot,
    provenance: Mapping[str, Sequence[Provenance]],
    after: Snapshot,
    stamp: Provenance,
) -> dict[str, tuple[Provenance, ...]]:
    """Provenance of ``after``'s entries: an entry that was already there keeps its own, a
    new (or replaced) entry gets ``stamp``."""
    carried: dict[str, tuple[Provenance, ...]] = {}
    for target in TARGETS:
        known = dict(zip(before.entries(target), provenance.get(target, ()), strict=False))
        carried[target] = tuple(known.get(entry, stamp) for entry in after.entries(target))
    return carried


def _require(condition: bool) -> None:
    if not condition:
        raise MemoryValidationError(
            UNDO_CONFLICT,
            "An entry this commit touched has changed since; nothing was undone.",
        )
