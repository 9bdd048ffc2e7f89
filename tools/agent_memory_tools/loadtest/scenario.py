"""Turn a planned turn into the message the rules model will act on, at dispatch time.

Every memory write goes through one ``memory_update: {json}`` directive, so the load test
drives the real tool with exactly the arguments it chose (hostile ones included).
A ``replace`` or ``remove`` targets a fact the API has already confirmed committed and no
other turn targets (``RunRecord.claim``); when there is none yet it becomes an ``add``.
An ``add`` that would take a store past ``CAPACITY_SHARE`` of its limit (counting every
fact that may still commit) removes one of that store's facts instead, so long runs keep
exercising every kind rather than filling up and rejecting everything.

User control: an ``undo`` reverts a committed ``add`` turn of an ``auto`` user whose facts
nobody targets yet (``POST /memory/undo`` with the commit id it answered); an ``approve``
or ``reject`` decides a pending proposal of an ``approve``-mode user. Without such a target
they become an ``add``; ``approve``-mode users send no ``replace``, ``remove`` or ``undo``
(their facts are only proposals until approved), ``auto`` users no ``approve``/``reject``.
"""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable, Sequence
from typing import Any

from agent_memory_tools.loadtest.facts import Store, fact_content, fact_id, user_id
from agent_memory_tools.loadtest.plan import PlannedTurn, user_rng
from agent_memory_tools.loadtest.record import Fact, RunRecord, TurnRecord

CANCEL_SLEEP_SECONDS = 1.0
CANCEL_AFTER_SECONDS = 0.25
CAPACITY_SHARE = 0.6
FACT_SIZE = 80  # about the largest fact_content() entry
OVERSIZE_WORDS = 400  # about 2,400 characters: more than either store holds


class Composer:
    """Used by the dispatching thread only (one random stream per user)."""

    def __init__(self, record: RunRecord, seed: int) -> None:
        self._record = record
        self._seed = seed
        self._rngs: dict[int, random.Random] = {}

    def compose(self, planned: PlannedTurn) -> TurnRecord:
        rng = self._rngs.setdefault(planned.user, user_rng(self._seed, planned.user, "compose"))
        builder = _Builder(self._record, planned, rng)
        turn, facts = builder.build()
        self._record.register(turn, facts)
        return turn


class _Builder:
    def __init__(self, record: RunRecord, planned: PlannedTurn, rng: random.Random) -> None:
        self.record = record
        self.planned = planned
        self.rng = rng
        self.facts: list[Fact] = []
        self.claims: list[str] = []
        self.approves: list[str] = []
        self._request: tuple[tuple[str, str, dict[str, Any] | None] | None, str | None] = (
            None,
            None,
        )

    @property
    def key(self) -> str:
        return self.planned.key

    def build(self) -> tuple[TurnRecord, list[Fact]]:
        kind, payload, sleep, fail = self._choose(self.planned.kind)
        body_extra: dict[str, Any] = {}
        if kind == "invalid" and self.planned.variant == "identity_body":
            # Another user's id in the request body: the owner is the token's subject, so
            # the API must refuse the body (or ignore the field), never write for that user.
            body_extra["user_id"] = self._other_user()
        lines = [f"Load test turn {self.key}."]
        if payload is not None:
            lines.append("memory_update: " + json.dumps(payload, ensure_ascii=False))
        if sleep:
            lines.append(f"simulate: sleep {sleep}")
        if fail:
            lines.append("simulate: fail")
        if payload is None:
            lines.append("Just saying hello; nothing to remember.")
        request, acts_on = self._request
        turn = TurnRecord(
            key=self.key,
            user=self.planned.user,
            user_id=user_id(self.record.run_id, self.planned.user),
            turn=self.planned.turn,
            planned_kind=self.planned.kind,
            kind=kind,
            variant=self.planned.variant,
            turn_id=str(uuid.uuid4()),
            message="\n".join(lines),
            operations=list(payload["operations"]) if payload else [],
            adds=[fact.fid for fact in self.facts],
            claims=list(self.claims),
            approves=list(self.approves),
            request=request,
            acts_on=acts_on,
            sleep_seconds=sleep,
            body_extra=body_extra,
            cancel_after=CANCEL_AFTER_SECONDS if kind == "cancel" else None,
        )
        return turn, self.facts

    def _choose(self, kind: str) -> tuple[str, dict[str, Any] | None, float, bool]:
        """(the kind actually sent, the tool arguments, seconds to sleep, whether to fail)."""
        approving = self.planned.user in self.record.approve_mode
        if kind in ("replace", "remove", "undo") and approving:
            return self._add(("memory",))
        if kind in ("approve", "reject"):
            if not approving:
                return self._add(("memory",))
            return self._decide(kind)
        if kind == "undo":
            return self._undo()
        if kind in ("replace", "remove"):
            claimed = self.record.claim(self.planned.user, self.key, self.rng)
            if claimed is None:
                return self._add(("memory",))
            self.claims.append(claimed.fid)
            if kind == "remove":
                return "remove", _batch(_remove(claimed)), 0.0, False
            new = self._fact(claimed.target)
            operation = {
                "target": claimed.target,
                "action": "replace",
                "match": _match(claimed),
                "content": new.content,
            }
            return "replace", _batch(operation), 0.0, False
        if kind == "add":
            shape = self.planned.variant
            targets: tuple[Store, ...] = ("memory",)
            if shape in ("user", "both"):
                targets = ("user", "memory") if shape == "both" else ("user",)
            return self._add(targets)
        if kind == "invalid":
            return "invalid", self._invalid(self.planned.variant), 0.0, False
        if kind == "disconnect":
            # One fact that must never be stored: the client drops before the commit.
            payload = _batch(_add(self._fact("memory")))
            sleep = CANCEL_SLEEP_SECONDS if self.planned.variant == "after_started" else 0.0
            return "disconnect", payload, sleep, False
        if kind in ("cancel", "fail"):
            target: Store = "user" if self.planned.variant == "user" else "memory"
            payload = _batch(_add(self._fact(target)))
            if kind == "cancel":
                return "cancel", payload, CANCEL_SLEEP_SECONDS, False
            return "fail", payload, 0.0, True
        return "read", None, 0.0, False

    def _undo(self) -> tuple[str, dict[str, Any] | None, float, bool]:
        adder = self.record.claim_commit(self.planned.user, self.key, self.rng)
        if adder is None or adder.commit_id is None:
            return self._add(("memory",))
        self.claims.extend(adder.adds)
        self._request = (("POST", "/memory/undo", {"commit_id": adder.commit_id}), adder.key)
        return "undo", None, 0.0, False

    def _decide(self, kind: str) -> tuple[str, dict[str, Any] | None, float, bool]:
        proposer = self.record.claim_proposal(self.planned.user, self.key, self.rng)
        if proposer is None or proposer.proposal_id is None:
            return self._add(("memory",))
        if kind == "approve":
            self.approves.extend(proposer.adds)
        path = f"/memory/proposals/{proposer.proposal_id}/{kind}"
        self._request = (("POST", path, None), proposer.key)
        return kind, None, 0.0, False

    def _add(self, targets: Sequence[Store]) -> tuple[str, dict[str, Any] | None, float, bool]:
        operations = []
        for target in targets:
            if self.record.has_room(self.planned.user, target, FACT_SIZE, CAPACITY_SHARE):
                operations.append(_add(self._fact(target)))
        if operations:
            return "add", {"operations": operations}, 0.0, False
        for target in targets:  # full: make room instead
            claimed = self.record.claim(self.planned.user, self.key, self.rng, target)
            if claimed is not None:
                self.claims.append(claimed.fid)
                return "remove", _batch(_remove(claimed)), 0.0, False
        return "read", None, 0.0, False

    def _invalid(self, variant: str) -> dict[str, Any]:
        """A batch the tool must reject whole: its first operation is a valid add whose fact
        must therefore never be stored."""
        valid = _add(self._fact("memory"))
        if variant == "unknown_action":
            flawed: dict[str, Any] = {"target": "memory", "action": "explode", "content": "x"}
        elif variant == "no_match":
            flawed = {"target": "memory", "action": "remove", "match": f"[{self.key}-missing]"}
        elif variant == "identity_field":
            return {"operations": [valid], "user_id": self._other_user()}
        elif variant == "identity_body":
            return {"operations": [valid]}  # the flaw is in the request body
        elif variant == "delimiter":
            second = self._fact("memory", lambda fid: f"Two {fid}\n§\nin one entry")
            flawed = _add(second)
        else:  # oversize
            words = " ".join(["lorem"] * OVERSIZE_WORDS)
            flawed = _add(self._fact("memory", lambda fid: f"Oversize {fid} {words}"))
        return {"operations": [valid, flawed]}

    def _other_user(self) -> str:
        return user_id(self.record.run_id, (self.planned.user + 1) % self.record.users)

    def _fact(self, target: Store, content: Callable[[str], str] | None = None) -> Fact:
        n = len(self.facts) + 1
        fid = fact_id(self.record.run_id, self.planned.user, self.planned.turn, n)
        fact = Fact(
            fid=fid,
            user=self.planned.user,
            target=target,
            content=content(fid) if content else fact_content(fid, target, self.rng),
            added_by=self.key,
        )
        self.facts.append(fact)
        return fact


def _batch(operation: dict[str, Any]) -> dict[str, Any]:
    return {"operations": [operation]}


def _add(fact: Fact) -> dict[str, Any]:
    return {"target": fact.target, "action": "add", "content": fact.content}


def _remove(fact: Fact) -> dict[str, Any]:
    return {"target": fact.target, "action": "remove", "match": _match(fact)}


def _match(fact: Fact) -> str:
    return fact.fid  # the bracketed id: a substring of exactly one entry
