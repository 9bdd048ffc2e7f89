"""Readers for the benign sources: facts about people, commit subjects, documentation lines."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections.abc import Iterable, Iterator

from .common import BENIGN, Item, Snapshot, clip, normalise

csv.field_size_limit(10_000_000)


def persona_chat(snapshot: Snapshot) -> Iterator[Item]:
    """Persona facts ("I love to bake cookies.") and short persona profiles."""
    profiles: set[frozenset[str]] = set()
    for path in ("data/Synthetic-Persona-Chat_valid.csv", "data/Synthetic-Persona-Chat_test.csv"):
        for row in csv.DictReader(io.StringIO(snapshot.show(path))):
            facts = [line.strip() for line in row["user 1 personas"].splitlines() if line.strip()]
            for fact in facts:
                yield Item(fact, BENIGN, snapshot.source(path))
            # A profile as one entry, as a memory store often keeps it; the same persona
            # recurs across conversations in another order, so keep each set of facts once.
            if len(facts) >= 3 and frozenset(facts) not in profiles:
                profiles.add(frozenset(facts))
                yield Item(" ".join(facts), BENIGN, snapshot.source(path))


def locomo(snapshot: Snapshot) -> Iterator[Item]:
    """LoCoMo session observations and events: third-person facts about two speakers."""
    path = "data/locomo10.zip"
    archive = zipfile.ZipFile(io.BytesIO(snapshot.show_bytes(path)))
    for name in sorted(archive.namelist()):
        if not name.endswith(".json"):
            continue
        conversation = json.loads(archive.read(name))
        for key, value in conversation.items():
            if key.endswith("_observation"):
                for notes in value.values():
                    for note in notes:
                        yield Item(note[0], BENIGN, snapshot.source(f"{path}:{name}"))
            elif key.startswith("events_session_"):
                for speaker, events in value.items():
                    if speaker != "date":
                        for event in events:
                            yield Item(event, BENIGN, snapshot.source(f"{path}:{name}"))


_SUBJECT_NOISE = re.compile(r"^(Merge |Bump |Revert \"|Update \S+\.md$|WIP|v?\d+\.\d+)")


def commit_subjects(snapshot: Snapshot) -> Iterator[Item]:
    """Commit subject lines, the kind of project note an agent keeps about recent work."""
    for subject in snapshot.commit_subjects():
        subject = subject.strip()
        if 15 <= len(subject) <= 200 and not _SUBJECT_NOISE.match(subject):
            yield Item(subject, BENIGN, snapshot.source("git log subjects"))


_FENCE = re.compile(r"^\s*(```|~~~)")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_HTML = re.compile(r"<[^>]+>")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_COMMAND = re.compile(
    r"^\s*\$?\s*((?:pip|npm|pnpm|uv|poetry|make|git|docker|kubectl|aws|"
    r"curl|python3?|pytest|go|cargo|brew|export|cd)\s[^\n]{3,120})$"
)
# Documentation sometimes quotes an attack to explain it; such lines are not benign.
_QUOTED_ATTACK = re.compile(
    r"ignore (all |the )?(previous|prior|above)|disregard (all |your |previous)|"
    r"you are now|do anything now|\bDAN\b|jailbroken|developer mode|system prompt:|"
    r"reveal (your|the) (system|hidden)|<\|im_start\|>|\[INST\]|pretend (you|to be)|"
    r"no (restrictions|filters|limits)|unfiltered|uncensored|never refuses?|jailbr|"
    r"override (this|your|their) (behaviou?r|training|instructions)|for all (models|llms)",
    re.IGNORECASE,
)


def _prose_units(markdown: str) -> Iterator[str]:
    """Bullets and sentences of a Markdown file, with code, tables and headings left out.

    A bullet (with its wrapped continuation lines) is one unit when short; a paragraph is
    split into sentences."""
    in_code = False
    block: list[str] = []
    is_bullet = False

    def flush() -> Iterator[str]:
        text = " ".join(block)
        block.clear()
        if not text:
            return
        if is_bullet and len(text) <= 400:
            yield text
        else:
            yield from _SENTENCE_SPLIT.split(text)

    for raw in _FRONT_MATTER.sub("", markdown, count=1).splitlines():
        if _FENCE.match(raw):
            in_code = not in_code
            yield from flush()
            continue
        if in_code:
            continue
        line = _HTML.sub("", _LINK.sub(r"\1", raw)).strip()
        if not line or line.startswith(("#", "|", ">", "---", "{", "import ", "export ")):
            yield from flush()
            continue
        if _BULLET.match(line):
            yield from flush()
            is_bullet = True
            line = _BULLET.sub("", line)
        elif not block:
            is_bullet = False
        block.append(line)
    yield from flush()


_CODE_BLOCK = re.compile(r"^\s*```[ \t]*([\w+-]*)[^\n]*\n(.*?)^\s*```", re.DOTALL | re.MULTILINE)
_SNIPPET_LANGUAGES = {
    "",
    "python",
    "py",
    "js",
    "javascript",
    "ts",
    "typescript",
    "bash",
    "sh",
    "shell",
    "console",
    "json",
    "yaml",
    "yml",
    "toml",
    "rust",
    "go",
    "sql",
    "ini",
    "dockerfile",
    "makefile",
}
# Code that a memory store should refuse even in a how-to: downloads piped to a shell,
# reverse shells, destructive deletes, markup that runs script.
_UNSAFE_CODE = re.compile(
    r"\|\s*(ba|z)?sh\b|/dev/tcp|nc\s+-e|rm\s+-rf\s+[/~]|<script|onerror=|javascript:|"
    r"base64\s+-d|eval\(|os\.system|subprocess|chmod\s+777",
    re.IGNORECASE,
)


def _code_units(markdown: str, snippets: bool) -> Iterator[str]:
    """One-line shell commands from code blocks and, when asked, whole short blocks."""
    for language, body in _CODE_BLOCK.findall(markdown):
        body = body.strip("\n")
        if not body.strip() or _UNSAFE_CODE.search(body) or _QUOTED_ATTACK.search(body):
            continue
        lines = body.splitlines()
        for line in lines:
            command = _COMMAND.match(line)
            if command:
                yield command.group(1).strip()
        short = 2 <= len(lines) <= 8 and 30 <= len(body) <= 500
        if snippets and short and language.lower() in _SNIPPET_LANGUAGES:
            yield body


# A line that is only a quotation is usually an example of what an attacker types.
_WHOLLY_QUOTED = re.compile(r"^[`'\"“][^`'\"”]*[`'\"”]\.?$")
_CHECKBOX = re.compile(r"^\[[ xX]\]\s*|^\d+(\.\d+)+\s+")
_CODE_LIKE = re.compile(r"[{};]\s*$|=>|\)\s*\{|^\w+\(|^[a-z_]+\s*=|^\[`")


def _usable(unit: str) -> bool:
    words = normalise(unit).split()
    letters = sum(ch.isalpha() for ch in unit)
    return (
        4 <= len(words) <= 120
        and letters >= 0.55 * len(unit)
        and (unit[0].isupper() or unit[0] in "`'\"")
        and not _CODE_LIKE.search(unit)
        and not _QUOTED_ATTACK.search(unit)
        and not unit.endswith((":", ","))
        and not _WHOLLY_QUOTED.match(unit)
    )


def markdown_lines(
    snapshot: Snapshot, paths: Iterable[str], snippets: bool = False
) -> Iterator[Item]:
    """Sentences and bullets of Markdown files, their one-line commands, and (when
    ``snippets``) their short code blocks."""
    for path in paths:
        markdown = snapshot.show(path)
        for unit in _prose_units(markdown):
            unit = re.sub(r"\s+", " ", unit.replace("**", "").replace("__", "")).strip()
            unit = _CHECKBOX.sub("", unit)
            text = clip(unit)
            if text and _usable(text):
                yield Item(text, BENIGN, snapshot.source(path))
        for code in _code_units(markdown, snippets):
            yield Item(code, BENIGN, snapshot.source(path))


def paths_matching(snapshot: Snapshot, pattern: str, exclude: str = r"$^") -> list[str]:
    wanted, unwanted = re.compile(pattern), re.compile(exclude)
    return [p for p in snapshot.paths() if wanted.search(p) and not unwanted.search(p)]


_EXAMPLE_MEMORY = re.compile(r'(?:"content"|"memory"|\badd)\s*[:(]\s*"([^"\\]{15,300})"')


def example_memories(snapshot: Snapshot) -> Iterator[Item]:
    """Example memories and user messages quoted in a memory library's docs and tests."""
    pattern = r'("content"|"memory"|add)[[:space:]]*[:(][[:space:]]*"[^"\\]{15,300}"'
    for line in snapshot.grep(pattern, "*.py", "*.md", "*.mdx", "*.ts"):
        match = _EXAMPLE_MEMORY.search(line.split(":", 1)[-1] if line.startswith("HEAD:") else line)
        if match and _usable(match.group(1)):
            yield Item(match.group(1), BENIGN, snapshot.source("docs and tests (example memories)"))
