"""The seeded plan: what kind of turn each user's t-th turn is, and the order of dispatch.

Everything here follows from the seed alone. What a ``replace`` or ``remove`` targets is
decided later, at dispatch, from the facts the API has confirmed committed by then
(``scenario``): that part depends on timing, not on the seed.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from agent_memory_tools.loadtest.config import KINDS, LoadTestConfig

INVALID_VARIANTS = (
    "unknown_action",
    "no_match",
    "identity_field",
    "delimiter",
    "oversize",
    "identity_body",
)
ADD_SHAPES = ("memory", "user", "both")
# Where a streamed turn's client drops: while the turn sleeps after staging (so that
# $disconnect fences it), or right after the first delta (its later posts fail).
DISCONNECT_VARIANTS = ("after_started", "mid_stream")


@dataclass(frozen=True)
class PlannedTurn:
    user: int
    turn: int
    kind: str
    variant: str  # the add's store(s), the invalid batch's flaw, or "" when none applies

    @property
    def key(self) -> str:
        return f"u{self.user}-t{self.turn}"


@dataclass(frozen=True)
class Plan:
    turns: tuple[tuple[PlannedTurn, ...], ...]  # by user, in turn order
    order: tuple[PlannedTurn, ...]  # the dispatch order: a user's turns come in bursts

    def kinds(self) -> dict[str, int]:
        counts = dict.fromkeys(KINDS, 0)
        for turn in self.order:
            counts[turn.kind] += 1
        return counts


def user_rng(seed: int, user: int, purpose: str) -> random.Random:
    """An independent, reproducible stream per user and purpose."""
    return random.Random(f"{seed}:{user}:{purpose}")


def build_plan(config: LoadTestConfig) -> Plan:
    kinds = [kind for kind in KINDS if config.mix.weight(kind) > 0]
    weights = [config.mix.weight(kind) for kind in kinds]
    per_user: list[tuple[PlannedTurn, ...]] = []
    for user in range(config.users):
        rng = user_rng(config.seed, user, "plan")
        turns = []
        for index in range(config.turns):
            kind = rng.choices(kinds, weights)[0]
            turns.append(PlannedTurn(user, index, kind, _variant(kind, rng)))
        per_user.append(tuple(turns))
    return Plan(turns=tuple(per_user), order=tuple(_bursts(config, per_user)))


def _variant(kind: str, rng: random.Random) -> str:
    if kind == "invalid":
        return rng.choice(INVALID_VARIANTS)
    if kind == "add":
        return rng.choices(ADD_SHAPES, (5, 3, 2))[0]
    if kind in ("cancel", "fail"):
        return rng.choice(("memory", "user"))
    if kind == "disconnect":
        return rng.choice(DISCONNECT_VARIANTS)
    return ""


def _bursts(config: LoadTestConfig, per_user: list[tuple[PlannedTurn, ...]]) -> list[PlannedTurn]:
    """Users in a shuffled rotation, each contributing ``same_user_in_flight`` consecutive
    turns per visit: dispatched back to back, those turns are in flight together."""
    rng = random.Random(f"{config.seed}:order")
    queues = [deque(turns) for turns in per_user]
    burst = config.same_user_in_flight
    order: list[PlannedTurn] = []
    while True:
        users = [user for user, queue in enumerate(queues) if queue]
        if not users:
            return order
        rng.shuffle(users)
        for user in users:
            queue = queues[user]
            for _ in range(min(burst, len(queue))):
                order.append(queue.popleft())
