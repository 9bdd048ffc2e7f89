"""The commit protocol's control flow with scripted stores, a fake clock and a fake sleep:
deterministic checks of backoff, deadline, tokens, cancellation and settling."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from agent_memory.domain import Operation, Snapshot, apply_operations
from agent_memory.ledger import (
    CancelFlag,
    CommitRecord,
    CommitRequest,
    LedgerConfig,
    MemoryOutcome,
    RetryPolicy,
    commit_turn,
)
from agent_memory.repository import (
    DocumentState,
    LedgerRecord,
    LoadedMemory,
    MemoryUnavailableError,
    RepositoryError,
    RetryableError,
    TransactionCancelledError,
    TransportError,
)

USER, TURN = "u", "t"
START = 1_000_000
# Reasons per item: the document, the history record, the forget fence, the ledger.
MEMORY_FAILED = TransactionCancelledError(("ConditionalCheckFailed", "None", "None", "None"))
FENCE_FAILED = TransactionCancelledError(
    ("ConditionalCheckFailed", "None", "ConditionalCheckFailed", "None")
)
LEDGER_FAILED = TransactionCancelledError(("None", "None", "None", "ConditionalCheckFailed"))
CONFLICT = TransactionCancelledError(("None", "None", "None", "TransactionConflict"))


@dataclass
class Clock:
    now: int = START
    sleeps: list[float] = field(default_factory=list)

    def __call__(self) -> int:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += int(seconds * 1000)


@dataclass
class ScriptedMemory:
    """Loads return ``snapshots`` in turn; each send takes the next scripted result."""

    snapshot: Snapshot
    script: list[BaseException | None] = field(default_factory=list)
    clock: Clock | None = None
    send_ms: int = 5
    loads: int = 0
    sent: list[tuple[list[Any], str]] = field(default_factory=list)
    reload_error: Exception | None = None
    answers: list[LoadedMemory | None] = field(default_factory=list)

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        if self.reload_error is not None:
            raise self.reload_error
        self.loads += 1
        return LoadedMemory(
            user_id,
            self.snapshot,
            {"memory": DocumentState("memory", revision=f"r{self.loads}")},
        )

    def document_writes(
        self, user_id: str, loaded: LoadedMemory, updated: Snapshot, now_ms: int, **_: Any
    ) -> list[Any]:
        if updated == loaded.snapshot:
            return []
        return [{"Put": {"seen": loaded.document("memory").revision, "entries": updated.memory}}]

    def forget_fence(self, user_id: str, seen_generation: str | None) -> dict[str, Any]:
        return {"ConditionCheck": {"seen": seen_generation}}

    def history_write(self, user_id: str, record: Any) -> Any:
        return {"Put": {"history": record.commit_id}}

    def proposal_write(self, user_id: str, proposal: Any) -> Any:
        return {"Put": {"proposal": proposal.proposal_id}}

    def consume_proposal_write(self, user_id: str, proposal_id: str, now_ms: int) -> Any:
        return {"Delete": {"proposal": proposal_id}}

    def loaded_after_cancellation(
        self, loaded: LoadedMemory, sent: Sequence[Any], error: TransactionCancelledError
    ) -> LoadedMemory | None:
        """What a failed attempt's answer says (``answers`` in turn; None: reload)."""
        return self.answers.pop(0) if self.answers else None

    def transact_write(
        self, items: Sequence[Any], *, token: str, budget_s: float | None = None
    ) -> None:
        self.sent.append((list(items), token))
        if self.clock is not None:
            self.clock.now += self.send_ms
        result = self.script.pop(0) if self.script else None
        if result is not None:
            raise result


@dataclass
class ScriptedLedger:
    record: LedgerRecord | None = None
    discard_result: bool = True
    discards: int = 0
    reads: int = 0

    def open_turn(self, user_id: str, turn_id: str, deadline_ms: int, now_ms: int) -> None:
        raise AssertionError("not used by the protocol")

    def get(self, user_id: str, turn_id: str) -> LedgerRecord | None:
        self.reads += 1
        return self.record

    def commit_item(
        self, user_id: str, turn_id: str, token: str, now_ms: int, counts: Any, **_: Any
    ) -> dict[str, Any]:
        return {"Update": {"token": token, "now": now_ms, "counts": counts}}

    def discard(self, user_id: str, turn_id: str, now_ms: int, **_: Any) -> bool:
        self.discards += 1
        return self.discard_result


ADD = (Operation(target="memory", action="add", content="New fact."),)


def run(
    memory: ScriptedMemory,
    ledger: ScriptedLedger,
    clock: Clock,
    *,
    deadline_ms: int = START + 10_000,
    operations: tuple[Operation, ...] = ADD,
    policy: RetryPolicy | None = None,
    cancel_flag: CancelFlag | None = None,
    rand: float = 0.5,
) -> MemoryOutcome:
    loaded = memory.load(USER)
    memory.loads = 0
    request = CommitRequest(
        user_id=USER,
        turn_id=TURN,
        deadline_ms=deadline_ms,
        loaded=loaded,
        operations=operations,
        staged=apply_operations(loaded.snapshot, operations),
    )
    memory.clock = clock
    return commit_turn(
        request,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=cancel_flag or CancelFlag(),
        config=LedgerConfig(
            clock_ms=clock, sleep=clock.sleep, rand=lambda: rand, policy=policy or RetryPolicy()
        ),
    )


def committed_record(token: str) -> LedgerRecord:
    return LedgerRecord(user_id=USER, turn_id=TURN, status="committed", commit_token=token)


def test_first_attempt_commits_with_counts() -> None:
    memory, ledger, clock = ScriptedMemory(Snapshot()), ScriptedLedger(), Clock()
    outcome = run(memory, ledger, clock)
    assert outcome.status == "committed"
    assert (outcome.retries, outcome.replays, outcome.requests) == (0, 0, 1)
    ((items, token),) = memory.sent
    assert items[-1]["Update"]["token"] == token
    assert items[-1]["Update"]["counts"] == {"memory": {"add": 1}}
    assert outcome.memory.chars == len("New fact.")


def test_same_request_retries_reuse_the_token_with_growing_backoff() -> None:
    # GIVEN conflict, throttling and a transport error before a success
    memory = ScriptedMemory(
        Snapshot(), script=[CONFLICT, RetryableError("ThrottlingException"), TransportError("x")]
    )
    ledger, clock = ScriptedLedger(), Clock()
    # WHEN the protocol runs with no jitter (rand = 0: half of each ceiling)
    outcome = run(memory, ledger, clock, rand=0.0)
    # THEN one token for all four attempts; delays 10, 20, 40 ms; committed
    assert outcome.status == "committed"
    assert outcome.retries == 3
    assert len({token for _, token in memory.sent}) == 1
    assert memory.sent[0][0] == memory.sent[3][0]
    assert clock.sleeps == [0.01, 0.02, 0.04]


def test_replays_are_bounded_by_the_deadline_not_a_small_count() -> None:
    # GIVEN a document that changes before every attempt, and one second left
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED] * 1000)
    ledger, clock = ScriptedLedger(), Clock()
    # WHEN the protocol runs
    outcome = run(memory, ledger, clock, deadline_ms=START + 1_000)
    # THEN it replays for as long as the deadline allows, then stops without committing
    assert outcome.status == "expired"
    assert outcome.reason == "deadline_passed"
    assert outcome.replays >= 5
    assert memory.loads == outcome.replays
    assert clock.now <= START + 1_000
    assert ledger.discards == 1
    # Each replay is a new request with a new token.
    tokens = [token for _, token in memory.sent]
    assert len(set(tokens)) == len(tokens)


def test_replay_backoff_is_exponential_with_full_jitter_after_the_immediate_ones() -> None:
    policy = RetryPolicy(replay_base_ms=10, replay_cap_ms=80, immediate_replays=2)
    assert [policy.replay_delay_ms(n, lambda: 0.999) for n in range(1, 8)] == pytest.approx(
        [0.0, 0.0, 9.99, 19.98, 39.96, 79.92, 79.92]
    )
    assert policy.replay_delay_ms(5, lambda: 0.0) == 0.0


def test_a_replay_after_another_writer_committed_does_not_sleep() -> None:
    # GIVEN a document changed by another writer (progress was made) on the first attempt
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED])
    ledger, clock = ScriptedLedger(), Clock()

    # WHEN the commit replays
    outcome = run(memory, ledger, clock)

    # THEN the second attempt went at once: no backoff before it
    assert (outcome.status, outcome.replays) == ("committed", 1)
    assert clock.sleeps == []


def test_a_replay_rides_on_the_failed_attempts_answer_without_a_reload() -> None:
    # GIVEN a failed attempt whose answer carries the document as another writer left it
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED])
    theirs = LoadedMemory(
        USER,
        Snapshot(memory=("Their fact.",)),
        {"memory": DocumentState("memory", revision="theirs")},
    )
    memory.answers = [theirs]
    ledger, clock = ScriptedLedger(), Clock()

    # WHEN the commit replays
    outcome = run(memory, ledger, clock)

    # THEN no second read: the replay applied the batch on the answer, conditioned on its
    # revision, and committed both facts
    assert (outcome.status, outcome.replays, memory.loads) == ("committed", 1, 0)
    replayed = memory.sent[1][0][0]["Put"]
    assert replayed == {"seen": "theirs", "entries": ("Their fact.", "New fact.")}
    assert outcome.requests == 2


def test_max_replays_is_a_safety_net() -> None:
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED] * 10)
    ledger, clock = ScriptedLedger(), Clock()
    outcome = run(memory, ledger, clock, policy=RetryPolicy(max_replays=3))
    assert (outcome.status, outcome.reason, outcome.replays) == ("conflict", "too_many_replays", 3)


def test_replay_that_no_longer_applies_is_a_conflict() -> None:
    # GIVEN a batch replacing an entry that a concurrent turn removed
    memory = ScriptedMemory(Snapshot(memory=("Editor: vim.",)), script=[MEMORY_FAILED])
    ops = (Operation(target="memory", action="replace", match="Editor", content="Editor: nano."),)
    ledger, clock = ScriptedLedger(), Clock()

    def removed_meanwhile(user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        return LoadedMemory(user_id, Snapshot(), {})

    loaded = memory.load(USER)
    request = CommitRequest(
        USER, TURN, START + 10_000, loaded, ops, apply_operations(loaded.snapshot, ops)
    )
    memory.load = removed_meanwhile  # type: ignore[method-assign]
    outcome = commit_turn(
        request,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=clock, sleep=clock.sleep),
    )
    # THEN conflict with the validation code, ledger discarded, one send only
    assert (outcome.status, outcome.reason) == ("conflict", "no_match")
    assert len(memory.sent) == 1
    assert ledger.discards == 1


def test_failed_reload_is_unavailable() -> None:
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED])
    ledger, clock = ScriptedLedger(), Clock()
    loaded = memory.load(USER)
    memory.reload_error = MemoryUnavailableError("unknown_schema_version")
    request = CommitRequest(
        USER, TURN, START + 10_000, loaded, ADD, apply_operations(loaded.snapshot, ADD)
    )
    outcome = commit_turn(
        request,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=clock, sleep=clock.sleep),
    )
    assert (outcome.status, outcome.reason) == ("unavailable", "unknown_schema_version")


def test_ambiguous_attempt_that_landed_is_not_replayed() -> None:
    # GIVEN an attempt whose answer was lost; the resend then fails on the document AND
    # the ledger says committed with our token
    memory = ScriptedMemory(Snapshot(), script=[TransportError("ReadTimeoutError"), MEMORY_FAILED])
    ledger, clock = ScriptedLedger(), Clock()
    outcome_holder: list[MemoryOutcome] = []

    def get_committed(user_id: str, turn_id: str) -> LedgerRecord:
        return committed_record(memory.sent[0][1])

    ledger.get = get_committed  # type: ignore[method-assign]
    outcome_holder.append(run(memory, ledger, clock))
    # THEN success without a replay
    (outcome,) = outcome_holder
    assert outcome.status == "committed"
    assert outcome.replays == 0
    assert memory.loads == 0


@pytest.mark.parametrize(
    ("record", "status", "reason"),
    [
        (committed_record("someone-else"), "conflict", "turn_id_reused"),
        (LedgerRecord(USER, TURN, "cancelled"), "cancelled", "turn_cancelled"),
        (LedgerRecord(USER, TURN, "expired"), "expired", "turn_expired"),
        (LedgerRecord(USER, TURN, "discarded"), "cancelled", "turn_discarded"),
        (LedgerRecord(USER, TURN, "open", deadline_ms=START), "expired", "deadline_passed"),
        (None, "error", "ledger_missing"),
    ],
)
def test_ledger_condition_failure_is_settled_by_reading_the_ledger(
    record: LedgerRecord | None, status: str, reason: str
) -> None:
    memory = ScriptedMemory(Snapshot(), script=[LEDGER_FAILED])
    ledger, clock = ScriptedLedger(record=record, discard_result=False), Clock()
    outcome = run(memory, ledger, clock)
    assert (outcome.status, outcome.reason) == (status, reason)
    assert len(memory.sent) == 1
    assert outcome.user.chars == 0


def test_ledger_check_recognises_our_own_token() -> None:
    memory = ScriptedMemory(Snapshot(), script=[LEDGER_FAILED])
    ledger, clock = ScriptedLedger(), Clock()

    def get(user_id: str, turn_id: str) -> LedgerRecord:
        return committed_record(memory.sent[0][1])

    ledger.get = get  # type: ignore[method-assign]
    assert run(memory, ledger, clock).status == "committed"


def test_cancel_flag_during_backoff_stops_before_the_next_send() -> None:
    # GIVEN a conflict, and a client that goes away during the backoff
    memory = ScriptedMemory(Snapshot(), script=[CONFLICT])
    ledger, clock, flag = ScriptedLedger(), Clock(), CancelFlag()
    sleep = clock.sleep

    def sleep_then_cancel(seconds: float) -> None:
        sleep(seconds)
        flag.cancel()

    clock.sleep = sleep_then_cancel  # type: ignore[method-assign]
    outcome = run(memory, ledger, clock, cancel_flag=flag)
    # THEN cancelled, no second attempt, the ledger discarded
    assert (outcome.status, outcome.reason) == ("cancelled", "cancel_flag")
    assert len(memory.sent) == 1
    assert ledger.discards == 1


def test_giving_up_finds_a_late_commit_of_ours() -> None:
    # GIVEN attempts that all time out, one of which did land after all
    memory = ScriptedMemory(Snapshot(), script=[TransportError("ReadTimeoutError")] * 10)
    ledger, clock = ScriptedLedger(discard_result=False), Clock()

    def get(user_id: str, turn_id: str) -> LedgerRecord:
        return committed_record(memory.sent[0][1])

    ledger.get = get  # type: ignore[method-assign]
    # WHEN the protocol gives up and tries to fence the ledger
    outcome = run(memory, ledger, clock)
    # THEN the fence fails because the turn committed: the outcome says so
    assert outcome.status == "committed"
    assert len(memory.sent) == 4


def test_validation_and_unknown_errors_are_not_retried() -> None:
    for error in (
        RepositoryError("ValidationException"),
        TransactionCancelledError(("ValidationError", "None", "None", "None")),
    ):
        memory = ScriptedMemory(Snapshot(), script=[error])
        ledger, clock = ScriptedLedger(), Clock()
        outcome = run(memory, ledger, clock)
        assert outcome.status == "error"
        assert outcome.reason in ("ValidationException", "ValidationError")
        assert len(memory.sent) == 1
        assert clock.sleeps == []


def test_no_time_left_sends_nothing() -> None:
    memory, ledger, clock = ScriptedMemory(Snapshot()), ScriptedLedger(), Clock()
    outcome = run(memory, ledger, clock, deadline_ms=START + 10)
    assert outcome.status == "expired"
    assert memory.sent == []


class _LedgerUnreachable(ScriptedLedger):
    def get(self, *args: Any) -> Any:
        raise RepositoryError("RequestTimeout")

    def discard(self, *args: Any, **_: Any) -> bool:
        raise RepositoryError("RequestTimeout")


def test_an_ambiguous_commit_that_cannot_be_settled_is_reported_as_unknown() -> None:
    # GIVEN a first attempt whose answer was lost, then a network that stays down for the
    # retries, the ledger read and the discard
    memory = ScriptedMemory(Snapshot(), script=[TransportError("ReadTimeoutError")] * 4)

    # WHEN the protocol gives up
    outcome = run(memory, _LedgerUnreachable(), Clock())

    # THEN it does not claim "not saved": the first attempt may have landed
    assert outcome.status == "error"
    assert outcome.reason == "outcome_unknown"


def test_a_failed_forget_fence_ends_the_turn_without_a_replay() -> None:
    # GIVEN a commit whose documents AND forget fence fail (DELETE /memory since the load)
    memory = ScriptedMemory(Snapshot(), script=[FENCE_FAILED])
    ledger, clock = ScriptedLedger(), Clock()
    # WHEN the protocol runs
    outcome = run(memory, ledger, clock)
    # THEN it commits nothing, never replays onto the emptied documents, says why
    assert (outcome.status, outcome.reason) == ("cancelled", "memory_forgotten")
    assert outcome.replays == 0
    assert memory.loads == 0
    assert len(memory.sent) == 1
    assert ledger.discards == 1
    assert outcome.committed_snapshot is None


def test_every_attempt_carries_the_fence_of_the_first_load() -> None:
    # GIVEN a document that changed once (a concurrent turn), then a success
    memory = ScriptedMemory(Snapshot(), script=[MEMORY_FAILED])
    ledger, clock = ScriptedLedger(), Clock()
    # WHEN the protocol replays
    outcome = run(memory, ledger, clock)
    # THEN both attempts carry the fence the first load saw, just before the ledger item
    assert outcome.status == "committed"
    assert [items[-2] for items, _ in memory.sent] == [{"ConditionCheck": {"seen": None}}] * 2


@dataclass
class ForgottenOnReload(ScriptedMemory):
    """Reloads (once the protocol runs) see a new forget generation: a DELETE ran."""

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        loaded = super().load(user_id)
        return LoadedMemory(
            user_id,
            loaded.snapshot,
            loaded.documents,
            forget_generation="new" if self.clock is not None else None,
        )


def test_a_replay_that_reloads_after_a_forget_stops_there() -> None:
    # GIVEN a document conflict, and a reload that sees a forget generation the first load
    # did not
    memory = ForgottenOnReload(Snapshot(), script=[MEMORY_FAILED])
    ledger, clock = ScriptedLedger(), Clock()
    # WHEN the protocol reloads to replay
    outcome = run(memory, ledger, clock)
    # THEN it does not send the batch again (it would pass a fence built from the reload)
    assert (outcome.status, outcome.reason) == ("cancelled", "memory_forgotten")
    assert len(memory.sent) == 1


def _request(memory: ScriptedMemory, record: CommitRecord) -> CommitRequest:
    loaded = memory.load(USER)
    memory.loads = 0
    return CommitRequest(
        USER, TURN, START + 10_000, loaded, ADD, apply_operations(loaded.snapshot, ADD), record
    )


def test_an_approval_whose_proposal_is_gone_stops_without_a_replay() -> None:
    # GIVEN an approval commit whose proposal Delete fails its condition (approved meanwhile):
    # items are the document, the history record, the proposal Delete, the fence, the ledger
    gone = TransactionCancelledError(
        ("ConditionalCheckFailed", "None", "ConditionalCheckFailed", "None", "None")
    )
    memory, ledger, clock = ScriptedMemory(Snapshot(), script=[gone]), ScriptedLedger(), Clock()
    request = _request(memory, CommitRecord(source="approval", proposal_id="p1"))
    # WHEN it commits
    outcome = commit_turn(
        request,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=clock, sleep=clock.sleep),
    )
    # THEN it ends at once (no reload, no second apply), the ledger discarded
    assert (outcome.status, outcome.reason) == ("conflict", "proposal_missing")
    assert memory.loads == 0
    assert len(memory.sent) == 1
    assert memory.sent[0][0][2] == {"Delete": {"proposal": "p1"}}
    assert ledger.discards == 1


def test_approve_mode_commits_a_proposal_and_no_document() -> None:
    memory, ledger, clock = ScriptedMemory(Snapshot()), ScriptedLedger(), Clock()
    outcome = commit_turn(
        _request(memory, CommitRecord(propose=True)),
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=clock, sleep=clock.sleep),
    )
    [(items, _)] = memory.sent
    assert outcome.status == "proposed"
    assert outcome.proposal_id is not None
    assert outcome.commit_id is None
    assert items[0] == {"Put": {"proposal": outcome.proposal_id}}
    assert len(items) == 3  # the proposal, the forget fence, the ledger
    assert outcome.memory.chars == 0  # the documents did not change


def test_a_commit_that_changed_nothing_has_no_commit_id() -> None:
    # GIVEN a batch whose add is already stored (a replayed duplicate)
    memory, ledger, clock = (
        ScriptedMemory(Snapshot(memory=("New fact.",))),
        ScriptedLedger(),
        Clock(),
    )
    outcome = run(memory, ledger, clock)
    [(items, _)] = memory.sent
    assert outcome.status == "committed"
    assert outcome.commit_id is None
    assert len(items) == 2  # the fence and the ledger update: nothing to record
