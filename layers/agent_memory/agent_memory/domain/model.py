"""The memory model: two bounded documents of entries, and the operations that edit them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal

Target = Literal["user", "memory"]
Action = Literal["add", "replace", "remove"]

TARGETS: tuple[Target, ...] = ("user", "memory")
ACTIONS: tuple[Action, ...] = ("add", "replace", "remove")

LIMITS: Mapping[Target, int] = MappingProxyType({"user": 1_375, "memory": 2_200})
DELIMITER = "\n§\n"
MAX_OPERATIONS = 20


def normalize_text(text: str) -> str:
    """Normalise line endings to LF and strip outer whitespace (before anything is counted)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


def render_document(entries: Iterable[str]) -> str:
    """The stored form of a store: what is persisted is exactly what is counted."""
    return DELIMITER.join(entries)


def parse_document(content: str) -> tuple[str, ...]:
    return tuple(content.split(DELIMITER)) if content else ()


@dataclass(frozen=True)
class Usage:
    target: Target
    chars: int
    limit: int

    @property
    def percent(self) -> int:
        return self.chars * 100 // self.limit


@dataclass(frozen=True)
class Snapshot:
    """Both stores of one user at one moment; immutable, so a failed batch cannot touch it."""

    user: tuple[str, ...] = ()
    memory: tuple[str, ...] = ()

    @classmethod
    def from_documents(cls, user: str = "", memory: str = "") -> Snapshot:
        return cls(user=parse_document(user), memory=parse_document(memory))

    @property
    def is_empty(self) -> bool:
        return not self.user and not self.memory

    def entries(self, target: Target) -> tuple[str, ...]:
        if target == "user":
            return self.user
        if target == "memory":
            return self.memory
        raise ValueError("unknown memory target")

    def document(self, target: Target) -> str:
        return render_document(self.entries(target))

    def chars(self, target: Target) -> int:
        return len(self.document(target))

    def usage(self, target: Target) -> Usage:
        return Usage(target=target, chars=self.chars(target), limit=LIMITS[target])

    def replace_entries(self, target: Target, entries: Iterable[str]) -> Snapshot:
        if target not in TARGETS:
            raise ValueError("unknown memory target")
        return replace(self, **{target: tuple(entries)})


@dataclass(frozen=True)
class Operation:
    """One proposed edit. Fields are plain strings: it is built from untrusted input and
    only the rules decide whether it is valid."""

    target: str
    action: str
    match: str | None = None
    content: str | None = None
