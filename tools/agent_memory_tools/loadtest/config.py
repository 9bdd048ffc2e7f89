"""What to run: users, turns, concurrency, the seed and the mix of turn kinds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from urllib.parse import urlsplit

from agent_memory_tools.loadtest.exceptions import ConfigError

KINDS = (
    "read",
    "add",
    "replace",
    "remove",
    "invalid",
    "cancel",
    "fail",
    "undo",
    "approve",
    "reject",
    "disconnect",
)
"""Turn kinds, in the order the summary lists them."""

DEFAULT_MIX: Mapping[str, int] = MappingProxyType(
    {
        "read": 15,
        "add": 35,
        "replace": 12,
        "remove": 10,
        "invalid": 10,
        "cancel": 9,
        "fail": 9,
        "undo": 6,
        "approve": 6,
        "reject": 3,
        "disconnect": 0,
    }
)
# With --stream, unless --mix says otherwise: streamed turns whose client drops mid-stream.
STREAM_DISCONNECT_WEIGHT = 9
# With approve or reject turns in the mix, every APPROVE_EVERY-th user runs in the
# ``approve`` write mode: its chat turns propose, its approve and reject turns decide.
APPROVE_EVERY = 4
USER_CONTROL_KINDS = frozenset({"undo", "approve", "reject"})
MAX_USERS = 100_000
MAX_TURNS_PER_USER = 100_000
MAX_CONCURRENCY = 512


@dataclass(frozen=True)
class Mix:
    """Relative weights of the turn kinds (any non-negative numbers; zero turns a kind off)."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))

    def __post_init__(self) -> None:
        unknown = sorted(set(self.weights) - set(KINDS))
        if unknown:
            raise ConfigError(f"Unknown turn kind(s) in --mix: {', '.join(unknown)}.")
        if any(weight < 0 for weight in self.weights.values()):
            raise ConfigError("--mix weights must not be negative.")
        if sum(self.weights.values()) <= 0:
            raise ConfigError("--mix needs at least one kind with a positive weight.")

    def weight(self, kind: str) -> float:
        return float(self.weights.get(kind, 0))

    def as_dict(self) -> dict[str, float]:
        return {kind: self.weight(kind) for kind in KINDS}

    def describe(self) -> str:
        total = sum(self.weights.values())
        return ", ".join(
            f"{kind} {100 * self.weight(kind) / total:.0f}%" for kind in KINDS if self.weight(kind)
        )


def parse_mix(text: str) -> Mix:
    """``read=15,add=35,...``: kinds left out keep their default weight unless ``only:`` leads
    (``only:add=1,remove=1`` runs adds and removes only)."""
    text = text.strip()
    only = text.startswith("only:")
    if only:
        text = text[len("only:") :]
    weights: dict[str, float] = {} if only else dict(DEFAULT_MIX)
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        kind, equals, value = part.partition("=")
        if not equals:
            raise ConfigError(f"--mix expects KIND=WEIGHT pairs, got {part!r}.")
        try:
            weights[kind.strip()] = float(value)
        except ValueError:
            raise ConfigError(f"--mix weight of {kind.strip()!r} is not a number.") from None
    return Mix(weights)


@dataclass(frozen=True)
class LoadTestConfig:
    users: int
    turns: int
    concurrency: int
    seed: int
    mix: Mix = field(default_factory=Mix)
    url: str | None = None
    report_dir: Path = Path("reports/loadtest")
    duration_limit: float | None = None
    progress: bool = True
    keep_data: bool = False
    run_id: str = ""
    # Chat turns streamed over the WebSocket function instead of POST /chat.
    stream: bool = False

    def __post_init__(self) -> None:
        if self.mix.weight("disconnect") > 0 and not self.stream:
            raise ConfigError("disconnect turns are streamed turns: add --stream.")
        _check_range("--users", self.users, 1, MAX_USERS)
        _check_range("--turns", self.turns, 1, MAX_TURNS_PER_USER)
        _check_range("--concurrency", self.concurrency, 1, MAX_CONCURRENCY)
        if self.duration_limit is not None and not self.duration_limit > 0:
            raise ConfigError("--duration-limit must be a positive number of seconds.")
        if self.url is not None:
            parts = urlsplit(self.url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ConfigError(f"--url must be an http(s) base URL, got {self.url!r}.")
        if self.run_id and not (self.run_id.isascii() and self.run_id.isalnum()):
            raise ConfigError("The run id must be ASCII letters and digits only.")

    @property
    def total_turns(self) -> int:
        return self.users * self.turns

    @property
    def same_user_in_flight(self) -> int:
        """How many turns of one user are dispatched back to back, so that they race."""
        return max(2, -(-self.concurrency // self.users))


def _check_range(option: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ConfigError(f"{option} must be a whole number from {low} to {high}, got {value}.")
