"""Schema versions of the stored memory documents and the registry of migrations.

``MIGRATIONS[v]`` turns the ``content`` of a version-``v`` document into the content of
version ``v + 1``. A document older than ``CURRENT_SCHEMA_VERSION`` is migrated in memory when
it is loaded; it is written back (at the current version) only inside a normal commit that
changes it. A document newer than this code is never migrated and never overwritten.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

Migration = Callable[[str], str]

CURRENT_SCHEMA_VERSION = 1

# version -> migration to version + 1 (none yet: version 1 is the first).
MIGRATIONS: Mapping[int, Migration] = MappingProxyType({})


class MigrationError(Exception):
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
