"""The run's own record of what it asked and what the API answered (thread-safe).

It is the checker's only source of truth about outcomes: which turns the API said it
committed, which it said it did not, and which it left unknown (no answer, or a 5xx that
does not say whether anything was saved). It also keeps, per user, the facts the API has
confirmed committed and nobody has targeted yet: the only facts a later ``replace`` or
``remove`` may target, so that every fact is targeted at most once and only after its own
turn completed. That is what makes the oracle exact without knowing the commit order of
concurrent turns.

User control follows the same rule: an ``undo`` reverts one committed ``add`` turn whose
facts it claims (all of them, so nobody else targets them), and in ``approve`` mode an
``approve`` or ``reject`` turn decides one pending proposal, which no other turn decides.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from agent_memory.domain import LIMITS
from agent_memory_tools.loadtest.facts import Store

Outcome = Literal["pending", "committed", "not_committed", "unknown"]
DELIMITER_CHARS = 3  # "\n§\n" between entries

# Turn kinds whose batch can never commit, whatever the timing.
NEVER_COMMITS = frozenset({"invalid", "fail", "read", "disconnect"})


@dataclass
class Fact:
    fid: str
    user: int
    target: Store
    content: str
    added_by: str  # the key of the turn whose batch adds it
    claimed_by: str | None = None  # the key of the one turn that replaces, removes or undoes it
    decided_by: str | None = None  # approve mode: the turn that approves or rejects it


@dataclass
class TurnRecord:
    key: str
    user: int
    user_id: str
    turn: int
    planned_kind: str
    kind: str
    variant: str
    turn_id: str
    message: str
    operations: list[dict[str, Any]] = field(default_factory=list)
    adds: list[str] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    approves: list[str] = field(default_factory=list)  # facts of the proposal it approves
    # A user-control request instead of a chat turn: (method, path, body).
    request: tuple[str, str, dict[str, Any] | None] | None = None
    acts_on: str | None = None  # the turn whose commit or proposal it undoes or decides
    sleep_seconds: float = 0.0
    # Extra fields of the request body beside ``message`` (the identity-in-body variant).
    body_extra: dict[str, Any] = field(default_factory=dict)
    cancel_after: float | None = None
    # What happened (seconds are relative to the start of the run).
    started: float | None = None
    finished: float | None = None
    latency_ms: float | None = None
    http_status: int | None = None
    status: str | None = None
    reason: str | None = None
    error_code: str | None = None
    outcome: Outcome = "pending"
    requests: dict[str, int] | None = None
    # CPU: the invocation's in its worker (in-process), and the load test's own process
    # (the driver and, in-process, the moto server) when the turn finished (cumulative).
    cpu_ms: float | None = None
    host_cpu_s: float | None = None
    retry_count: int | None = None
    replay_count: int | None = None
    cancel_http_status: int | None = None
    cancel_answer: str | None = None
    commit_id: str | None = None
    proposal_id: str | None = None
    # Streamed turns (--stream): from the chat frame to the first delta, and whether the
    # deltas concatenated were the reply of the done frame.
    first_delta_ms: float | None = None
    deltas_match: bool | None = None

    @property
    def replays(self) -> int | None:
        """Replays of the commit: the turn record's ``replay_count`` when it has one, else
        its reloads (each reads the documents with one ``Query``; a turn's only other
        ``Query`` is its initial load; a replay riding on the failed answer reads nothing)."""
        if self.replay_count is not None:
            return self.replay_count
        if self.requests is None:
            return None
        return max(self.requests.get("Query", 0) - 1, 0)

    @property
    def retries(self) -> int | None:
        """Resends of the same transaction (re-attempts that were not replays)."""
        replays = self.replays
        if self.retry_count is None or replays is None:
            return None
        return max(self.retry_count - replays, 0)

    def as_dict(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data.pop("message")
        data["replays"] = self.replays
        data["retries"] = self.retries
        return data


class RunRecord:
    def __init__(self, run_id: str, users: int) -> None:
        self.run_id = run_id
        self.users = users
        self._lock = threading.Lock()
        self.turns: dict[str, TurnRecord] = {}
        self.facts: dict[str, Fact] = {}
        self._facts_of: dict[int, list[str]] = {user: [] for user in range(users)}
        self._claimable: dict[int, list[str]] = {user: [] for user in range(users)}
        self.baseline: dict[int, dict[str, list[str]]] = {}
        self.approve_mode: frozenset[int] = frozenset()
        # Committed add turns whose facts nobody targets yet (undo), pending proposals.
        self._undoable: dict[int, list[str]] = {user: [] for user in range(users)}
        self._pending: dict[int, list[str]] = {user: [] for user in range(users)}
        self._status_counts: Counter[str] = Counter()

    # -- dispatch side ---------------------------------------------------------------------

    def register(self, turn: TurnRecord, facts: list[Fact]) -> None:
        with self._lock:
            self.turns[turn.key] = turn
            for fact in facts:
                self.facts[fact.fid] = fact
                self._facts_of[fact.user].append(fact.fid)

    def claim(
        self, user: int, by: str, rng: random.Random, target: Store | None = None
    ) -> Fact | None:
        """Reserve one confirmed-committed, untargeted fact of ``user`` for turn ``by``."""
        with self._lock:
            pool = [
                fid
                for fid in self._claimable[user]
                if target is None or self.facts[fid].target == target
            ]
            if not pool:
                return None
            fid = rng.choice(pool)
            self._claimable[user].remove(fid)
            fact = self.facts[fid]
            fact.claimed_by = by
            return fact

    def claim_commit(self, user: int, by: str, rng: random.Random) -> TurnRecord | None:
        """Reserve a committed add turn, and all of its facts, for the undo ``by``."""
        with self._lock:
            claimable = set(self._claimable[user])
            pool = [
                key
                for key in self._undoable[user]
                if all(fid in claimable for fid in self.turns[key].adds)
            ]
            if not pool:
                return None
            key = rng.choice(pool)
            self._undoable[user].remove(key)
            adder = self.turns[key]
            for fid in adder.adds:
                self._claimable[user].remove(fid)
                self.facts[fid].claimed_by = by
            return adder

    def claim_proposal(self, user: int, by: str, rng: random.Random) -> TurnRecord | None:
        """Reserve a pending proposal for the approve or reject turn ``by``."""
        with self._lock:
            if not self._pending[user]:
                return None
            key = rng.choice(self._pending[user])
            self._pending[user].remove(key)
            proposer = self.turns[key]
            for fid in proposer.adds:
                self.facts[fid].decided_by = by
            return proposer

    def estimated_chars(self, user: int, target: Store) -> int:
        """A pessimistic size of the store: every fact that is or may become present."""
        with self._lock:
            total = 0
            for fid in self._facts_of[user]:
                fact = self.facts[fid]
                if fact.target != target or not self._may_be_present(fact):
                    continue
                total += len(fact.content) + DELIMITER_CHARS
            return total

    def has_room(self, user: int, target: Store, extra: int, share: float) -> bool:
        return (
            self.estimated_chars(user, target) + extra + DELIMITER_CHARS <= share * LIMITS[target]
        )

    def _may_be_present(self, fact: Fact) -> bool:
        adder = self.turns[fact.added_by]
        if adder.status == "proposed":  # present once approved, unless rejected
            decider = self.turns[fact.decided_by] if fact.decided_by else None
            return decider is None or (
                decider.kind == "approve" and decider.outcome != "not_committed"
            )
        if adder.kind in NEVER_COMMITS or adder.outcome == "not_committed":
            return False
        if fact.claimed_by is None:
            return True
        return self.turns[fact.claimed_by].outcome != "committed"

    # -- result side -----------------------------------------------------------------------

    def start(self, key: str, at: float) -> None:
        with self._lock:
            self.turns[key].started = at

    def finish(self, key: str, at: float, **results: Any) -> None:
        with self._lock:
            turn = self.turns[key]
            for name, value in results.items():
                setattr(turn, name, value)
            turn.finished = at
            self._status_counts[turn.status or "?"] += 1
            if turn.outcome == "committed":
                self._claimable[turn.user].extend(
                    fid for fid in turn.adds if self.facts[fid].claimed_by is None
                )
                if turn.kind == "add" and turn.commit_id and turn.adds:
                    self._undoable[turn.user].append(turn.key)
            if turn.status == "proposed" and turn.proposal_id and turn.adds:
                self._pending[turn.user].append(turn.key)

    def cancel_answered(self, key: str, http_status: int, answer: str) -> None:
        with self._lock:
            turn = self.turns[key]
            turn.cancel_http_status = http_status
            turn.cancel_answer = answer

    # -- reading -----------------------------------------------------------------------------

    def finished_turns(self) -> list[TurnRecord]:
        with self._lock:
            return [turn for turn in self.turns.values() if turn.finished is not None]

    def status_counts(self) -> Counter[str]:
        with self._lock:
            return Counter(self._status_counts)
