"""The optional guardrail on every path that writes memory (issue 11): an undo and a
proposal approval meet the same reviewer as a PATCH, and a refusal commits nothing and
answers exactly as a PATCH does (422, the guardrail's code, the same message). On moto."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from ledger_support import Turns, add, now_ms, remove, replace, seed_memory

from agent_memory.http.statuses import status_for
from agent_memory.repository import LedgerRepository, MemoryRepository
from agent_memory.service import TurnSettings, UserControlService
from agent_memory.service.exceptions import ServiceError
from agent_memory.service.memory import MemoryService

USER = "guarded"


class Reviewer:
    """Records what it was asked and answers with a fixed code (None accepts)."""

    def __init__(self, code: str | None) -> None:
        self.code = code
        self.seen: list[tuple[str, ...]] = []

    def __call__(self, texts: Sequence[str]) -> str | None:
        self.seen.append(tuple(texts))
        return self.code


def services(
    memory: MemoryRepository, ledger: LedgerRepository, review: Reviewer
) -> tuple[UserControlService, MemoryService]:
    common: dict[str, Any] = {
        "memory_repository": memory,
        "ledger_repository": ledger,
        "memory_enabled": lambda: True,
        "settings": TurnSettings.from_env({}),
        "clock_ms": now_ms,
        "batch_review": review,
    }
    return UserControlService(**common), MemoryService(**common)


def api_error(call: Callable[[], Any]) -> tuple[int | None, str, str]:
    """The service's error as the API answers it: (HTTP status, code, message)."""
    with pytest.raises(ServiceError) as raised:
        call()
    return status_for(raised.value.code), raised.value.code, raised.value.message


def history_sources(memory: MemoryRepository, user: str) -> list[str]:
    records, _ = memory.control.history_page(user, limit=50, after=None, now_ms=now_ms())
    return [record.source for record in records]


def committed(turns: Turns, user: str, call: dict[str, Any]) -> str:
    ledger = turns.begin(user, str(uuid.uuid4()))
    assert ledger.call_tool(call)["success"]
    outcome = ledger.commit()
    assert outcome.commit_id is not None
    return outcome.commit_id


@pytest.mark.parametrize("code", ["guardrail_blocked", "guardrail_unavailable"])
def test_a_refused_undo_commits_nothing_and_answers_as_a_patch_does(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository, code: str
) -> None:
    # GIVEN a fact a chat turn removed, and a guardrail that refuses every text
    user = f"{USER}-undo-{code}"
    seed_memory(memory_repository, ledger_repository, user, memory=["Deploys on Fridays."])
    turns = Turns(memory_repository, ledger_repository)
    commit_id = committed(turns, user, remove("memory", "Fridays"))
    reviewer = Reviewer(code)
    control, memory_service = services(memory_repository, ledger_repository, reviewer)
    before = history_sources(memory_repository, user)

    # WHEN the user undoes the removal (which would write the fact back), and PATCHes the
    # same text
    undo_error = api_error(lambda: control.undo(user, commit_id, remaining_ms=20_000))
    patch = [{"target": "memory", "action": "add", "content": "Deploys on Fridays."}]
    patch_error = api_error(lambda: memory_service.edit(user, patch, remaining_ms=20_000))

    # THEN the reviewer saw the restored text; both answer the same 422 with the code and a
    # message that quotes nothing; memory and its history are unchanged
    assert reviewer.seen == [("Deploys on Fridays.",), ("Deploys on Fridays.",)]
    assert undo_error == patch_error
    assert undo_error[:2] == (422, code)
    assert "Fridays" not in undo_error[2]
    assert memory_repository.load(user).snapshot.memory == ()
    assert history_sources(memory_repository, user) == before


def test_a_refused_approval_commits_nothing_and_keeps_the_proposal(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> None:
    # GIVEN a pending proposal (approve mode) and a guardrail that intervenes
    user = f"{USER}-approval"
    seed_memory(memory_repository, ledger_repository, user, memory=["Editor: vim."])
    memory_repository.control.set_write_mode(user, "approve")
    turns = Turns(memory_repository, ledger_repository)
    proposing = turns.begin(user, str(uuid.uuid4()))
    assert proposing.call_tool(replace("memory", "vim", "Editor: nano."))["success"]
    proposal_id = proposing.commit().proposal_id
    assert proposal_id is not None
    reviewer = Reviewer("guardrail_blocked")
    control, memory_service = services(memory_repository, ledger_repository, reviewer)
    memory_repository.control.set_write_mode(user, "auto")
    patch = [{"target": "memory", "action": "replace", "match": "vim", "content": "Editor: nano."}]
    patch_error = api_error(lambda: memory_service.edit(user, patch, remaining_ms=20_000))
    before = history_sources(memory_repository, user)

    # WHEN the user approves it
    approval_error = api_error(lambda: control.approve(user, proposal_id, remaining_ms=20_000))

    # THEN the same answer as the PATCH of that text, nothing committed, and the proposal
    # is still there for the user to reject
    assert approval_error == patch_error
    assert approval_error[:2] == (422, "guardrail_blocked")
    assert reviewer.seen[-1] == ("Editor: nano.",)
    assert memory_repository.load(user).snapshot.memory == ("Editor: vim.",)
    assert history_sources(memory_repository, user) == before
    assert [p.proposal_id for p in memory_repository.control.proposals(user, now_ms())] == [
        proposal_id
    ]


def test_an_accepting_guardrail_lets_undo_and_approval_commit(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> None:
    # GIVEN a reviewer that accepts, a commit to undo and a proposal to approve
    user = f"{USER}-accepted"
    turns = Turns(memory_repository, ledger_repository)
    commit_id = committed(turns, user, add("memory", "Uses SAM."))
    reviewer = Reviewer(None)
    control, _ = services(memory_repository, ledger_repository, reviewer)

    # WHEN the user undoes an add (which writes no text back)
    control.undo(user, commit_id, remaining_ms=20_000)
    memory_repository.control.set_write_mode(user, "approve")
    proposing = turns.begin(user, str(uuid.uuid4()))
    assert proposing.call_tool(add("memory", "Uses CDK."))["success"]
    proposal_id = proposing.commit().proposal_id
    assert proposal_id is not None
    loaded = control.approve(user, proposal_id, remaining_ms=20_000)

    # THEN only the approval's text was reviewed, and both committed
    assert reviewer.seen == [("Uses CDK.",)]
    assert loaded.snapshot.memory == ("Uses CDK.",)
    assert history_sources(memory_repository, user)[:2] == ["approval", "undo"]
