"""Schema versions of the stored memory documents and the registry of migrations.

``MIGRATIONS[v]`` turns the ``content`` of a version-``v`` document into the content of
version ``v + 1``. A document older than ``CURRENT_SCHEMA_VERSION`` is migrated in memory when
it is loaded; it is written back (at the current version) only inside a normal commit that
changes it, so a read-only turn never writes it. A document newer than this code is never
migrated and never overwritten: memory is unavailable for that turn.

Versions:

1. ``content`` is the entries joined by ``DELIMITER``, as written.
2. ``content`` is *canonical*: every entry in the domain's normal form (LF line endings, no
   outer whitespace), no empty entry, no exact duplicate, and entries separated by exactly
   ``DELIMITER``, i.e. split on every line the domain treats as a delimiter (a line holding
   only ``§``). The domain's rules assume this: they count and compare normalised text, find
   whole entries by equality, and treat an exact duplicate as already present. Documents
   written through ``apply_operations`` are already canonical, so for them v1 -> v2 changes
   nothing; a v1 document from elsewhere (a Hermes-style ``MEMORY.md`` import with CRLF line
   endings, a hand edit in the console) is repaired on its next commit instead of being
   counted and matched wrongly forever.
3. The item also holds ``provenance``: a JSON list aligned with the entries, one
   ``{"source", "turn_id"?, "updated_at"}`` per entry (who last wrote it). ``content`` is
   unchanged (v2 -> v3 is the identity on it). A document older than v3 has no provenance:
   its entries read as source ``unknown`` with the document's ``updated_at``
   (``legacy_provenance``), and it gains real provenance on its next commit, like any
   migration: a read never rewrites it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from agent_memory.domain import normalize_text, render_document
from agent_memory.exceptions import AgentMemoryError

Migration = Callable[[str], str]

CURRENT_SCHEMA_VERSION = 3
# The first version whose items carry ``provenance``.
PROVENANCE_SCHEMA_VERSION = 3

_DELIMITER_LINE = "§"


def canonicalise_v1(content: str) -> str:
    """v1 -> v2: the canonical rendering of a document's entries (idempotent)."""
    lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    entries: list[str] = []
    current: list[str] = []
    for line in [*lines, _DELIMITER_LINE]:
        if line.strip() != _DELIMITER_LINE:
            current.append(line)
            continue
        entry = normalize_text("\n".join(current))
        current = []
        if entry and entry not in entries:
            entries.append(entry)
    return render_document(entries)


def unchanged_content(content: str) -> str:
    """v2 -> v3: the content stays as it is (v3 adds the ``provenance`` attribute)."""
    return content


# version -> migration to version + 1.
MIGRATIONS: Mapping[int, Migration] = MappingProxyType({1: canonicalise_v1, 2: unchanged_content})


class MigrationError(AgentMemoryError):
    """No path from a stored version to the current one."""

    def __init__(self, version: int) -> None:
        super().__init__(f"no migration from schema_version {version}")
        self.version = version


def is_known(version: int) -> bool:
    return 1 <= version <= CURRENT_SCHEMA_VERSION


def migrate(
    content: str,
    version: int,
    *,
    current: int | None = None,
    migrations: Mapping[int, Migration] | None = None,
) -> str:
    """The content of a version-``version`` document brought to version ``current``
    (default: this module's registry, read at call time)."""
    target = CURRENT_SCHEMA_VERSION if current is None else current
    registry = MIGRATIONS if migrations is None else migrations
    if version > target or version < 1:
        raise MigrationError(version)
    for step in range(version, target):
        migration = registry.get(step)
        if migration is None:
            raise MigrationError(step)
        content = migration(content)
    return content
