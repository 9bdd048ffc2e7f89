"""Build a run's record by hand, and its final documents, for the checker's tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from agent_memory.domain import DELIMITER, LIMITS
from agent_memory_tools.loadtest.facts import Store, fact_id, user_id
from agent_memory_tools.loadtest.record import Fact, Outcome, RunRecord, TurnRecord
from agent_memory_tools.loadtest.runner import Documents, DocumentsRead

RUN = "ltcafe01"


class RecordBuilder:
    """Turns and facts of a run, with the outcomes the API is supposed to have answered."""

    def __init__(self, users: int = 2) -> None:
        self.record = RunRecord(RUN, users)
        self._turn_of_user: dict[int, int] = {}

    def turn(
        self,
        user: int,
        kind: str,
        outcome: Outcome,
        *,
        status: str | None = None,
        adds: Iterable[tuple[Store, str]] = (),
        claims: Iterable[Fact] = (),
        cancel_answer: str | None = None,
    ) -> TurnRecord:
        index = self._turn_of_user.get(user, 0)
        self._turn_of_user[user] = index + 1
        key = f"u{user}-t{index}"
        facts = [
            Fact(
                fid=fact_id(RUN, user, index, n),
                user=user,
                target=store,
                content=f"{text} {fact_id(RUN, user, index, n)}",
                added_by=key,
            )
            for n, (store, text) in enumerate(adds, start=1)
        ]
        turn = TurnRecord(
            key=key,
            user=user,
            user_id=user_id(RUN, user),
            turn=index,
            planned_kind=kind,
            kind=kind,
            variant="",
            turn_id=f"00000000-0000-4000-8000-{index:012d}",
            message="",
            adds=[fact.fid for fact in facts],
            claims=[fact.fid for fact in claims],
            cancel_after=0.25 if kind == "cancel" else None,
            cancel_answer=cancel_answer,
        )
        for fact in claims:
            fact.claimed_by = key
        self.record.register(turn, facts)
        default_status = {"committed": "committed", "not_committed": "unchanged"}
        self.record.finish(
            key,
            0.1,
            outcome=outcome,
            status=status or default_status.get(outcome, "no answer"),
            http_status=200 if outcome != "unknown" else 0,
            latency_ms=10.0,
        )
        return turn

    def fact(self, turn: TurnRecord, n: int = 1) -> Fact:
        return self.record.facts[turn.adds[n - 1]]


def documents(stores: Mapping[str, list[str]]) -> DocumentsRead:
    entries = {store: list(stores.get(store, [])) for store in ("user", "memory")}
    return DocumentsRead(
        Documents(
            entries=entries,
            chars={store: len(DELIMITER.join(items)) for store, items in entries.items()},
            limits=dict(LIMITS),
        )
    )


def holding(*facts: Fact) -> dict[str, list[str]]:
    stores: dict[str, list[str]] = {"user": [], "memory": []}
    for fact in facts:
        stores[fact.target].append(fact.content)
    return stores
