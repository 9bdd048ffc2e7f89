"""The deadline bounds the commit (issue 12, item 4): no DynamoDB attempt may start that
could end after it, even when DynamoDB never answers."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ledger_support import FAST_POLICY, add, now_ms

from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import (
    ATTEMPT_TIMEOUTS,
    AttemptTimeouts,
    LedgerRepository,
    MemoryRepository,
    attempt_timeouts_within,
    new_client,
)

DUMMY = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}


@pytest.fixture
def black_hole() -> Iterator[str]:
    """An endpoint that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    server.close()


@given(st.floats(min_value=0.0, max_value=60.0))
def test_the_chosen_attempt_always_ends_within_the_budget(budget_s: float) -> None:
    timeouts = attempt_timeouts_within(budget_s)
    if timeouts is None:
        assert budget_s < min(t.total_s for t in ATTEMPT_TIMEOUTS)
    else:
        assert timeouts.total_s <= budget_s
        assert all(t.total_s <= timeouts.total_s or t.total_s > budget_s for t in ATTEMPT_TIMEOUTS)


def test_a_commit_to_a_dynamodb_that_never_answers_ends_by_the_deadline(
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    black_hole: str,
) -> None:
    # GIVEN a turn that loaded and staged normally, whose commit goes to a DynamoDB that
    # accepts the connection and never answers, with 1.2 s left before its deadline
    chosen: list[AttemptTimeouts] = []

    def transactions(timeouts: AttemptTimeouts) -> Any:
        chosen.append(timeouts)
        return new_client(
            region="us-east-1",
            endpoint_url=black_hole,
            transactions=True,
            credentials=DUMMY,
            timeouts=timeouts,
        )

    hanging = MemoryRepository(
        dynamodb_client, memory_repository.table_name, transaction_client=transactions
    )
    deadline = now_ms() + 1_200
    ledger = TurnUnitOfWork.begin(
        "u",
        str(uuid.uuid4()),
        deadline,
        memory_repo=hanging,
        ledger_repo=ledger_repository,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=now_ms, policy=FAST_POLICY),
    )
    assert ledger.call_tool(add("memory", "A fact."))["success"]

    # WHEN it commits
    outcome = ledger.commit()
    finished = now_ms()

    # THEN it stopped by the deadline (not after botocore's 2 s + 5 s), every attempt was
    # sized to the time left, and it does not claim a commit
    assert finished <= deadline + 500, finished - deadline
    assert chosen
    assert all(t.total_s <= 1.2 for t in chosen)
    assert outcome.status in ("expired", "error")
    assert memory_repository.load("u").snapshot.memory == ()


def test_no_attempt_starts_when_none_could_end_in_time(
    memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> None:
    # GIVEN a staged turn with less time left than the shortest attempt
    sent: list[object] = []

    def transactions(timeouts: AttemptTimeouts) -> Any:
        sent.append(timeouts)
        raise AssertionError("no client may be asked for")

    repo = MemoryRepository(
        memory_repository._client,
        memory_repository.table_name,
        transaction_client=transactions,
    )
    deadline = now_ms() + 1_000
    ledger = TurnUnitOfWork.begin(
        "u",
        str(uuid.uuid4()),
        deadline,
        memory_repo=repo,
        ledger_repo=ledger_repository,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=now_ms, policy=FAST_POLICY.__class__(attempt_budget_ms=0.0)),
    )
    assert ledger.call_tool(add("memory", "A fact."))["success"]
    time.sleep(max(deadline - now_ms() - 200, 0) / 1000)  # less than the shortest (300 ms)

    # WHEN it commits
    outcome = ledger.commit()

    # THEN nothing was sent and the turn ended without committing
    assert sent == []
    assert (outcome.status, outcome.reason) == ("expired", "deadline_passed")
