"""Which turn a unit of work serves (``TurnSpec``) and where its ledger item stands
(``LedgerItemState``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from agent_memory.domain import Source


class LedgerItemState(enum.Enum):
    """Where the turn's ledger item stands; ``ENDED`` once the turn has its outcome."""

    NOT_STAGED = "not_staged"  # nothing staged: no item, nothing to commit
    DEFERRED = "deferred"  # staged; the commit creates the item unless the timer opens it
    OPEN = "open"  # the item is open: the commit moves it to committed
    REFUSED = "refused"  # the item could not be created: the turn cannot commit
    ENDED = "ended"  # committed or discarded: the outcome is final


@dataclass(frozen=True)
class TurnSpec:
    """Which turn: its user and id, its deadline, who writes (``source``) and, for a streamed
    turn, its WebSocket connection (recorded on the ledger item for its ``$disconnect``)."""

    user_id: str
    turn_id: str
    deadline_ms: int
    source: Source = "chat"
    connection_id: str = ""

    @property
    def defers_open(self) -> bool:
        """A chat turn over HTTP may defer its ledger open; a streamed turn's $disconnect
        finds it by its item, and a user's edit commits at once anyway."""
        return self.source == "chat" and not self.connection_id
