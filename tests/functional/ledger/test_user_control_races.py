"""Undo and approval racing other commits of the same user, with real threads against the
moto server. Each racer has loaded memory before any of them commits (a barrier after the
load), the worst case for compare-and-swap. The invariants: nothing is applied twice, no
update is lost, and a loser changes nothing and says so."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from ledger_support import Turns, add, now_ms, replace, seed_memory

from agent_memory.repository import LedgerRepository, LoadedMemory, MemoryRepository
from agent_memory.service import TurnSettings, UserControlService
from agent_memory.service.exceptions import ServiceError
from agent_memory.service.memory import MemoryService

USER = "racer"
ROUNDS = 4


class LoadBarrier:
    """A memory repository whose FIRST load per thread waits for the other racers."""

    def __init__(self, real: MemoryRepository, parties: int) -> None:
        self._real = real
        self._barrier = threading.Barrier(parties)
        self._waited = threading.local()

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        loaded = self._real.load(user_id, budget_s=budget_s)
        if not getattr(self._waited, "done", False):
            self._waited.done = True
            self._barrier.wait(timeout=30)
        return loaded

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def services(memory: Any, ledger: LedgerRepository) -> tuple[UserControlService, MemoryService]:
    common: dict[str, Any] = {
        "memory_repository": memory,
        "ledger_repository": ledger,
        "memory_enabled": lambda: True,
        "settings": TurnSettings.from_env({}),
        "clock_ms": now_ms,
    }
    return UserControlService(**common), MemoryService(**common)


def outcome_of(call: Callable[[], Any]) -> str:
    """``ok`` or the service error's code."""
    try:
        call()
    except ServiceError as error:
        return error.code
    return "ok"


def stored(memory_repository: MemoryRepository, user: str = USER) -> tuple[str, ...]:
    return memory_repository.load(user).snapshot.memory


def history_sources(memory_repository: MemoryRepository, user: str = USER) -> list[str]:
    records, _ = memory_repository.control.history_page(user, limit=50, after=None, now_ms=now_ms())
    return [record.source for record in records]


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_undo_racing_a_chat_turn_on_the_same_entry_never_loses_or_doubles(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository, round_: int
) -> None:
    # GIVEN a committed fact, an undo of it, and a chat turn replacing that same fact, both
    # having loaded memory before either commits
    user = f"{USER}-{round_}"
    turns = Turns(memory_repository, ledger_repository)
    first = turns.begin(user, str(uuid.uuid4()))
    assert first.call_tool(add("memory", "Editor: vim."))["success"]
    commit_id = first.commit().commit_id
    assert commit_id is not None
    racing = LoadBarrier(memory_repository, 2)
    control, _ = services(racing, ledger_repository)

    def chat_turn() -> str:
        ledger = turns.begin(user, str(uuid.uuid4()), memory_repo=racing)  # type: ignore[arg-type]
        assert ledger.call_tool(replace("memory", "vim", "Editor: nano."))["success"]
        return ledger.commit().status

    def undo() -> str:
        return outcome_of(lambda: control.undo(user, commit_id, remaining_ms=20_000))

    # WHEN they race
    with ThreadPoolExecutor(max_workers=2) as pool:
        chat_future, undo_future = pool.submit(chat_turn), pool.submit(undo)
        chat, undone = chat_future.result(), undo_future.result()

    # THEN exactly one of them took effect: the undo (the replace then no longer applies)
    # or the replace (the undo then conflicts); memory shows only the winner's result
    memory = stored(memory_repository, user)
    assert (chat, undone) in {("committed", "undo_conflict"), ("conflict", "ok")}
    if undone == "ok":
        assert memory == ()
        assert history_sources(memory_repository, user) == ["undo", "chat"]
    else:
        assert memory == ("Editor: nano.",)
        assert history_sources(memory_repository, user) == ["chat", "chat"]


def test_an_undo_racing_a_chat_turn_on_other_entries_replays_and_both_apply(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> None:
    # GIVEN a fact to undo and a chat turn that adds an unrelated fact, both loaded
    turns = Turns(memory_repository, ledger_repository)
    first = turns.begin(USER, str(uuid.uuid4()))
    assert first.call_tool(add("memory", "Uses SAM."))["success"]
    commit_id = first.commit().commit_id
    assert commit_id is not None
    racing = LoadBarrier(memory_repository, 2)
    control, _ = services(racing, ledger_repository)

    def chat_turn() -> str:
        ledger = turns.begin(USER, str(uuid.uuid4()), memory_repo=racing)  # type: ignore[arg-type]
        assert ledger.call_tool(add("memory", "Likes tea."))["success"]
        return ledger.commit().status

    # WHEN they race
    with ThreadPoolExecutor(max_workers=2) as pool:
        chat = pool.submit(chat_turn)
        undone = pool.submit(
            lambda: outcome_of(lambda: control.undo(USER, commit_id, remaining_ms=20_000))
        )
        results = (chat.result(), undone.result())

    # THEN both apply (the loser replays on the winner's documents): no update is lost
    assert results == ("committed", "ok")
    assert stored(memory_repository) == ("Likes tea.",)


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_an_approval_racing_a_patch_of_the_same_entry_applies_one_or_the_other(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository, round_: int
) -> None:
    # GIVEN a fact, a proposal to replace it, and a user's PATCH removing it, both loaded
    user = f"{USER}-{round_}"
    seed_memory(memory_repository, ledger_repository, user, memory=["Editor: vim."])
    memory_repository.control.set_write_mode(user, "approve")
    turns = Turns(memory_repository, ledger_repository)
    proposing = turns.begin(user, str(uuid.uuid4()))
    assert proposing.call_tool(replace("memory", "vim", "Editor: nano."))["success"]
    proposal_id = proposing.commit().proposal_id
    assert proposal_id is not None
    racing = LoadBarrier(memory_repository, 2)
    control, memory_service = services(racing, ledger_repository)
    patch = [{"target": "memory", "action": "remove", "match": "Editor: vim."}]

    # WHEN the approval and the PATCH race
    with ThreadPoolExecutor(max_workers=2) as pool:
        approval = pool.submit(
            lambda: outcome_of(lambda: control.approve(user, proposal_id, remaining_ms=20_000))
        )
        edit = pool.submit(lambda: outcome_of(lambda: memory_service.edit(user, patch)))
        results = (approval.result(), edit.result())

    # THEN one applies and the other refuses with nothing changed
    memory = stored(memory_repository, user)
    assert results in {("ok", "conflict"), ("proposal_conflict", "ok")}
    if results[0] == "ok":
        assert memory == ("Editor: nano.",)
        assert memory_repository.control.proposals(user, now_ms()) == []
    else:
        assert memory == ()
        # A proposal that no longer applies stays until the user rejects it (or it expires).
        assert len(memory_repository.control.proposals(user, now_ms())) == 1


@pytest.mark.parametrize("approvers", [2, 4])
def test_a_proposal_approved_concurrently_applies_exactly_once(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository, approvers: int
) -> None:
    # GIVEN a proposal to add a fact, approved by several clients at once, all loaded
    user = f"{USER}-{approvers}"
    memory_repository.control.set_write_mode(user, "approve")
    turns = Turns(memory_repository, ledger_repository)
    proposing = turns.begin(user, str(uuid.uuid4()))
    assert proposing.call_tool(add("memory", "Uses SAM."))["success"]
    proposal_id = proposing.commit().proposal_id
    assert proposal_id is not None
    control, _ = services(LoadBarrier(memory_repository, approvers), ledger_repository)

    # WHEN they race
    with ThreadPoolExecutor(max_workers=approvers) as pool:
        results = list(
            pool.map(
                lambda _: outcome_of(
                    lambda: control.approve(user, proposal_id, remaining_ms=20_000)
                ),
                range(approvers),
            )
        )

    # THEN one approval applied it; the others found it gone (404) or conflicted (409),
    # and the fact is stored once, recorded once
    assert results.count("ok") == 1
    assert set(results) - {"ok"} <= {"proposal_not_found", "proposal_conflict"}
    assert stored(memory_repository, user) == ("Uses SAM.",)
    assert history_sources(memory_repository, user) == ["approval"]
    assert memory_repository.control.proposals(user, now_ms()) == []
