"""Traceable facts: every entry the load test writes carries a unique id in brackets.

``[<run>-u<user>-t<turn>-f<n>]`` says which run, user, turn and position wrote it, so the
checker can tell from a stored document alone whose fact an entry is. The brackets make the
id a substring of exactly one entry (``u1-t1-f1`` alone would also match ``u1-t1-f10``),
which is what ``replace`` and ``remove`` need of their ``match``.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass
from typing import Literal

Store = Literal["user", "memory"]

FACT_ID = re.compile(r"\[(?P<run>[a-z0-9]+)-u(?P<user>\d+)-t(?P<turn>\d+)-f(?P<n>\d+)\]")

_TOPICS = (
    "the build cache",
    "the staging database",
    "the deploy window",
    "code review",
    "the test suite",
    "error budgets",
    "the release train",
    "on-call handover",
)
_PREFERENCES = (
    "short answers",
    "type hints",
    "plain SQL",
    "small commits",
    "dark mode",
    "metric units",
    "examples first",
    "British spelling",
)


def new_run_id() -> str:
    return "lt" + secrets.token_hex(3)


def user_id(run_id: str, user: int) -> str:
    """The subject of a load-test user (unique per run, so a run starts from empty memory)."""
    return f"{run_id}-u{user}"


def fact_id(run_id: str, user: int, turn: int, n: int) -> str:
    return f"[{run_id}-u{user}-t{turn}-f{n}]"


@dataclass(frozen=True)
class FactRef:
    run: str
    user: int
    turn: int
    n: int

    @property
    def text(self) -> str:
        return fact_id(self.run, self.user, self.turn, self.n)


def fact_ids_in(entry: str) -> list[FactRef]:
    return [
        FactRef(m["run"], int(m["user"]), int(m["turn"]), int(m["n"]))
        for m in FACT_ID.finditer(entry)
    ]


def fact_content(fid: str, target: Store, rng: random.Random) -> str:
    """An ordinary-looking entry of about 50 to 70 characters holding ``fid``."""
    if target == "user":
        return f"Prefers {rng.choice(_PREFERENCES)} {fid}."
    number = rng.randrange(2, 99)
    return f"Project note {fid}: {rng.choice(_TOPICS)} takes {number} minutes."
