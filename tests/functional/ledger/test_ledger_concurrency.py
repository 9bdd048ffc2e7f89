"""Concurrent turns of one user against the moto server over HTTP, with real threads.

Every writer loads the same snapshot and stages its batch before any of them commits (a
barrier), which is the worst case for the commit protocol. The invariant: nothing valid is
lost, a batch that no longer applies is rejected clearly, and the stored documents equal
the committed batches applied in SOME serial order.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import permutations
from typing import Any

import pytest
from ledger_support import Turns, add, remove, replace, seed_memory

from agent_memory.domain import (
    ErrorCode,
    MemoryValidationError,
    Operation,
    Snapshot,
    apply_operations,
    parse_tool_arguments,
)
from agent_memory.ledger import DEFAULT_RETRY_POLICY, MemoryOutcome
from agent_memory.repository import LedgerRepository, MemoryRepository

K_WRITERS = 12
VALIDATION_CODES = {str(code) for code in ErrorCode}


@pytest.fixture
def turns(memory_repository: MemoryRepository, ledger_repository: LedgerRepository) -> Turns:
    # The production retry policy: the deadline, not a small count, bounds the replays.
    return Turns(memory_repository, ledger_repository, policy=DEFAULT_RETRY_POLICY)


def race(turns: Turns, user_id: str, batches: Sequence[dict[str, Any]]) -> list[MemoryOutcome]:
    """Run one turn per batch in parallel; all stage before any commits."""
    barrier = threading.Barrier(len(batches))

    def writer(index: int) -> MemoryOutcome:
        ledger = turns.begin(user_id, f"{user_id}-turn-{index}")
        result = ledger.call_tool(batches[index])
        assert result["success"], result
        barrier.wait(timeout=30)
        return ledger.commit()

    with ThreadPoolExecutor(max_workers=len(batches)) as pool:
        return list(pool.map(writer, range(len(batches))))


def some_serial_order(
    initial: Snapshot, committed: Sequence[Sequence[Operation]], stored: Snapshot
) -> bool:
    """Whether applying the committed batches in some order to ``initial`` gives ``stored``."""
    for order in permutations(committed):
        snapshot = initial
        try:
            for batch in order:
                snapshot = apply_operations(snapshot, batch)
        except MemoryValidationError:
            continue
        if snapshot == stored:
            return True
    return False


def figures(label: str, outcomes: Sequence[MemoryOutcome]) -> str:
    commits = sum(o.status == "committed" for o in outcomes)
    conflicts = sum(o.status == "conflict" for o in outcomes)
    replays = sum(o.replays for o in outcomes)
    retries = sum(o.retries for o in outcomes)
    return (
        f"\n{label}: writers={len(outcomes)} commits={commits} conflicts={conflicts} "
        f"replays={replays} same-request retries={retries} "
        f"max replays of one turn={max(o.replays for o in outcomes)}"
    )


def test_k_writers_adding_distinct_facts_all_land(
    turns: Turns, memory_repository: MemoryRepository
) -> None:
    # GIVEN K turns of one user, each staging a distinct fact on the same (empty) snapshot
    facts = [f"Fact number {i:02d} for the race." for i in range(K_WRITERS)]
    # WHEN they all commit at once
    outcomes = race(turns, "user-k", [add("memory", fact) for fact in facts])
    # THEN every one commits and every fact is stored exactly once
    print(figures("K writers, distinct adds", outcomes))
    assert [o.status for o in outcomes] == ["committed"] * K_WRITERS
    stored = memory_repository.load("user-k").snapshot.memory
    assert sorted(stored) == sorted(facts)
    assert sum(o.replays for o in outcomes) >= K_WRITERS - 1  # they really contended


def test_racing_replace_and_remove_on_the_same_entry(
    turns: Turns, memory_repository: MemoryRepository, ledger_repository: LedgerRepository
) -> None:
    all_outcomes: list[MemoryOutcome] = []
    for round_ in range(4):
        user_id = f"user-race-{round_}"
        # GIVEN an entry that one turn replaces while another removes it (and a third
        # changes an unrelated entry)
        seed_memory(
            memory_repository, ledger_repository, user_id, memory=["Editor: vim.", "Shell: zsh."]
        )
        initial = memory_repository.load(user_id).snapshot
        batches = [
            replace("memory", "Editor:", "Editor: emacs."),
            remove("memory", "Editor:"),
            replace("memory", "Shell: zsh.", "Shell: fish."),
        ]
        # WHEN they commit concurrently
        outcomes = race(turns, user_id, batches)
        all_outcomes.extend(outcomes)
        # THEN each is committed or rejected with a clear validation reason...
        for outcome in outcomes:
            assert outcome.status in ("committed", "conflict")
            if outcome.status == "conflict":
                assert outcome.reason in VALIDATION_CODES
        # ...the unrelated change always survives, and the stored documents equal the
        # committed batches applied in some serial order
        assert outcomes[2].status == "committed"
        committed = [
            parse_tool_arguments(batch)
            for batch, outcome in zip(batches, outcomes, strict=True)
            if outcome.status == "committed"
        ]
        stored = memory_repository.load(user_id).snapshot
        assert some_serial_order(initial, committed, stored), (outcomes, stored)
        assert "Shell: fish." in stored.memory
    print(figures("replace/remove race (4 rounds)", all_outcomes))


def random_batch(rng: random.Random, index: int, pool: Sequence[str]) -> dict[str, Any]:
    action = rng.choice(["add", "add", "replace", "remove"])
    entry = rng.choice(pool)
    if action == "add":
        return add("memory", f"Added by writer {index}.")
    if action == "replace":
        return replace("memory", entry, f"Rewritten by writer {index}.")
    return remove("memory", entry)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_concurrent_batches_are_serializable(
    turns: Turns,
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    seed: int,
) -> None:
    # GIVEN a few entries and writers with random add/replace/remove batches
    rng = random.Random(seed)
    pool = ["Alpha entry.", "Beta entry."]
    user_id = f"user-random-{seed}"
    seed_memory(memory_repository, ledger_repository, user_id, memory=pool)
    initial = memory_repository.load(user_id).snapshot
    batches = [random_batch(rng, i, pool) for i in range(6)]
    # WHEN they commit concurrently
    outcomes = race(turns, user_id, batches)
    # THEN no valid change is lost and the result is some serial order of the commits
    print(figures(f"random batches (seed {seed})", outcomes))
    assert all(o.status in ("committed", "conflict") for o in outcomes)
    committed = [
        parse_tool_arguments(batch)
        for batch, outcome in zip(batches, outcomes, strict=True)
        if outcome.status == "committed"
    ]
    stored = memory_repository.load(user_id).snapshot
    assert some_serial_order(initial, committed, stored)
    for batch, outcome in zip(batches, outcomes, strict=True):
        if batch["operations"][0]["action"] == "add":
            assert outcome.status == "committed"


def test_writers_of_different_users_never_replay(
    turns: Turns, memory_repository: MemoryRepository
) -> None:
    # GIVEN K turns of K different users
    def writer(index: int) -> MemoryOutcome:
        ledger = turns.begin(f"user-solo-{index}", f"solo-{index}")
        ledger.call_tool(add("memory", f"Solo fact {index}."))
        return ledger.commit()

    run: Callable[[int], MemoryOutcome] = writer
    # WHEN they commit concurrently
    with ThreadPoolExecutor(max_workers=K_WRITERS) as pool:
        outcomes = list(pool.map(run, range(K_WRITERS)))
    # THEN none of them contends with another
    assert [o.status for o in outcomes] == ["committed"] * K_WRITERS
    assert sum(o.replays + o.retries for o in outcomes) == 0
    for index in range(K_WRITERS):
        stored = memory_repository.load(f"user-solo-{index}").snapshot.memory
        assert stored == (f"Solo fact {index}.",)
