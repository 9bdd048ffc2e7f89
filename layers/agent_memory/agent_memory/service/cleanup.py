"""The scheduled cleanup: open turns past their deadline become ``expired``.

A turn whose Lambda died or hung can then never commit, and its ledger item leaves the
sparse index of open turns.
"""

from __future__ import annotations

from collections.abc import Callable

from agent_memory.repository import LedgerRepository


class LedgerCleanup:
    def __init__(self, *, ledger_repository: LedgerRepository, clock_ms: Callable[[], int]) -> None:
        self._ledger = ledger_repository
        self._clock_ms = clock_ms

    def expire_overdue_turns(self) -> int:
        return self._ledger.expire_overdue(self._clock_ms())
