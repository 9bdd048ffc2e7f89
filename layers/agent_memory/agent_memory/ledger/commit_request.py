"""What a commit is asked to commit: the turn's staged batch and what to record with it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agent_memory.domain import Operation, Snapshot, Source
from agent_memory.repository import LoadedMemory, NewTurn


@dataclass(frozen=True)
class CommitRecord:
    """What the commit records beside the documents.

    ``source`` goes into the history record and the entries' provenance. ``propose``: the
    batch becomes a proposal instead of changing the documents (``approve`` mode).
    ``proposal_id``: the proposal this commit approves (deleted in the same transaction).
    ``replay`` re-applies the batch on a reloaded snapshot (default: the memory rules on
    ``operations``; an undo passes its strict inverse).
    """

    source: Source = "chat"
    propose: bool = False
    proposal_id: str | None = None
    replay: Callable[[Snapshot], Snapshot] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class CommitRequest:
    """A turn's staged batch: ``staged`` is ``operations`` applied to ``loaded.snapshot``."""

    user_id: str
    turn_id: str
    deadline_ms: int
    loaded: LoadedMemory
    operations: tuple[Operation, ...]
    staged: Snapshot
    record: CommitRecord = CommitRecord()
    # The turn never opened its ledger item: the commit transaction creates it.
    new_turn: NewTurn | None = None
    # The attempt that opened (or creates) the ledger item: the commit lands only while the
    # item is that attempt's (a retry of a failed attempt takes the item over).
    opener: str = ""


def operation_counts(operations: Sequence[Operation]) -> dict[str, dict[str, int]]:
    """Operations by target and action (numbers only: what the ledger item may hold)."""
    counts: Counter[tuple[str, str]] = Counter(
        (str(operation.target), str(operation.action)) for operation in operations
    )
    by_target: dict[str, dict[str, int]] = {}
    for (target, action), n in counts.items():
        by_target.setdefault(target, {})[action] = n
    return by_target
