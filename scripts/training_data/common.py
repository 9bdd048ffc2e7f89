"""Shared pieces: the item type, text clean-up, git access to bare snapshots."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

MAX_CHARS = 2200
BENIGN = "benign"

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
_WORDS = re.compile(r"[a-z0-9]+")
_ANY_SCRIPT_WORDS = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Item:
    text: str
    label: str
    source: str

    def as_json(self) -> dict[str, str]:
        return {"text": self.text, "label": self.label, "source": self.source}


def normalise(text: str) -> str:
    """The key two items share when they are the same text up to case and punctuation."""
    return " ".join(_WORDS.findall(text.lower()))


def normalise_any_script(text: str) -> str:
    """``normalise`` for texts outside English: the words of every script, not only a-z."""
    return " ".join(_ANY_SCRIPT_WORDS.findall(text.lower()))


def clip(text: str, limit: int = MAX_CHARS) -> str | None:
    """The text cut at its last sentence end within the limit, or None if there is none."""
    text = text.strip()
    if len(text) <= limit:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, limit)]
    if not ends or ends[-1] < limit // 3:
        return None
    return text[: ends[-1]].strip()


class Snapshot:
    """A fetched repository: a bare git directory read at HEAD."""

    def __init__(self, mirror: Path, owner_repo: str, licence: str) -> None:
        self.name = owner_repo
        self.licence = licence
        self.git_dir = mirror / owner_repo.replace("/", "+") / "repo"

    def source(self, path: str) -> str:
        return f"{self.name} {path} [{self.licence}]"

    def exists(self) -> bool:
        return self.git_dir.is_dir()

    def _git(self, *args: str) -> bytes:
        command = ["git", "--git-dir", str(self.git_dir), *args]
        return subprocess.run(command, check=True, capture_output=True).stdout  # noqa: S603

    def show(self, path: str) -> str:
        return self._git("show", f"HEAD:{path}").decode("utf-8", errors="replace")

    def show_bytes(self, path: str) -> bytes:
        return self._git("show", f"HEAD:{path}")

    def paths(self) -> list[str]:
        return self._git("ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()

    def commit_subjects(self) -> list[str]:
        return self._git("log", "--no-merges", "--format=%s").decode(errors="replace").splitlines()

    def grep(self, pattern: str, *pathspecs: str) -> list[str]:
        """Lines of HEAD's files that match an extended regular expression."""
        command = ["git", "--git-dir", str(self.git_dir), "grep", "-h", "-E", "-o", pattern, "HEAD"]
        result = subprocess.run(  # noqa: S603
            [*command, "--", *pathspecs], capture_output=True, check=False
        )
        return result.stdout.decode("utf-8", errors="replace").splitlines()


def shingles(text: str, size: int = 5, key: Callable[[str], str] = normalise) -> set[str]:
    words = key(text).split()
    return {" ".join(words[i : i + size]) for i in range(max(1, len(words) - size + 1))}


class NearDuplicates:
    """Texts that are near duplicates of a reference set: 5-word shingles with a Jaccard
    overlap of 0.6 or more, or one holding 80% of the other's (the held-out filter's test,
    applied here to the scanner corpus so that no text is counted twice; the classifier
    trains on the corpus too, so its corpus figures are in-sample)."""

    def __init__(self, texts: list[str], key: Callable[[str], str] = normalise) -> None:
        self._key = key
        self._sets = [shingles(text, key=key) for text in texts]
        self._index: dict[str, list[int]] = {}
        for number, grams in enumerate(self._sets):
            for gram in grams:
                self._index.setdefault(gram, []).append(number)

    def matches(self, text: str) -> bool:
        grams = shingles(text, key=self._key)
        shared: dict[int, int] = {}
        for gram in grams:
            for number in self._index.get(gram, ()):
                shared[number] = shared.get(number, 0) + 1
        for number, count in shared.items():
            other = self._sets[number]
            if count / len(grams | other) >= 0.6 or count / min(len(grams), len(other)) >= 0.8:
                return True
        return False
