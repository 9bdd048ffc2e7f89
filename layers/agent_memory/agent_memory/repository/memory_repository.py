"""The memory documents in ``MemoryTable``: load, conditional writes, delete, export.

One item per (user, target): ``content`` is the rendered document (what is stored is
exactly what is counted), ``revision`` a fresh random token on every write (never a counter:
a counter that restarts after a delete would allow an ABA lost update), ``schema_version``,
``created_at`` and ``updated_at`` (epoch milliseconds), and ``provenance`` (schema v3: who
last wrote each entry, aligned with the entries). A missing item is an empty document.

The load reads the documents and the user's ``settings`` item in ONE Query whose key range
leaves out the history and the proposals (``user_control``), so it stays bounded.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from botocore.exceptions import BotoCoreError, ClientError

from agent_memory.domain import (
    LIMITS,
    TARGETS,
    UNKNOWN_SOURCE,
    Provenance,
    Snapshot,
    Target,
    carry_provenance,
    parse_document,
    render_document,
)
from agent_memory.repository import migrations
from agent_memory.repository.attributes import number_attribute, string_attribute
from agent_memory.repository.clients import (
    AttemptTimeouts,
    TableNames,
    attempt_timeouts_within,
    get_client,
    get_transaction_client,
    translate_error,
)
from agent_memory.repository.exceptions import (
    CorruptDocumentError,
    DeadlineTooCloseError,
    MemoryUnavailableError,
    TransactionCancelledError,
    UnknownSchemaVersionError,
)
from agent_memory.repository.migrations import MigrationError
from agent_memory.repository.user_control import (
    DEFAULT_WRITE_MODE,
    LOAD_RANGE,
    SETTINGS_KEY,
    HistoryRecord,
    Proposal,
    UserControlRepository,
    WriteMode,
    history_retention_days,
    read_write_mode,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import (
        AttributeValueTypeDef,
        TransactWriteItemTypeDef,
    )

    # A fixed client (tests), or single-attempt clients by timeouts (production).
    ClientOrFactory = DynamoDBClient | Callable[[AttemptTimeouts], DynamoDBClient]


# The per-user control item (sort key ``settings``) beside the two documents. Its
# ``forget_generation`` is a random token every DELETE /memory replaces; every commit
# carries a ConditionCheck that it still equals what the turn's load saw (the forget fence).
# Its ``write_mode`` is the user's (``user_control``).
SETTINGS_TYPE = SETTINGS_KEY
FORGET_GENERATION = "forget_generation"


def new_revision() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class DocumentState:
    """What the load saw of one stored document (all ``None`` when the item was missing)."""

    target: Target
    revision: str | None = None
    schema_version: int | None = None
    created_at: int | None = None
    updated_at: int | None = None

    @property
    def exists(self) -> bool:
        return self.revision is not None


@dataclass(frozen=True)
class LoadedMemory:
    """A consistent read of both documents: the snapshot, each document's metadata and the
    user's forget generation (``None`` when memory was never forgotten)."""

    user_id: str
    snapshot: Snapshot
    documents: Mapping[str, DocumentState] = field(default_factory=dict)
    forget_generation: str | None = None
    # Who last wrote each entry, aligned with ``snapshot``'s entries, by target.
    provenance: Mapping[str, tuple[Provenance, ...]] = field(default_factory=dict)
    write_mode: WriteMode = DEFAULT_WRITE_MODE

    def document(self, target: Target) -> DocumentState:
        return self.documents.get(target) or DocumentState(target)

    def entry_provenance(self, target: Target) -> tuple[Provenance, ...]:
        return self.provenance.get(target, ())


class MemoryRepository:
    """DynamoDB adapter of the two memory documents of each user."""

    def __init__(
        self,
        client: DynamoDBClient,
        table_name: str,
        *,
        transaction_client: ClientOrFactory | None = None,
        history_retention_days: int | None = None,
    ) -> None:
        self._client = client
        self._table = table_name
        self._transaction_clients: ClientOrFactory = transaction_client or client
        self.control = UserControlRepository(
            client,
            table_name,
            retention_days=history_retention_days or _retention_from_env(),
        )

    @classmethod
    def from_env(cls, names: TableNames | None = None) -> MemoryRepository:
        table_names = names or TableNames.from_env()
        return cls(get_client(), table_names.memory, transaction_client=get_transaction_client)

    @property
    def table_name(self) -> str:
        return self._table

    def bounded_client(self, budget_s: float | None) -> DynamoDBClient:
        """A single-attempt client whose request ends within ``budget_s`` seconds (``None``:
        no limit). Raises ``DeadlineTooCloseError`` when no request could."""
        timeouts = attempt_timeouts_within(budget_s)
        if timeouts is None:
            raise DeadlineTooCloseError
        source = self._transaction_clients
        return source(timeouts) if callable(source) else source

    # -- reads ---------------------------------------------------------------------------

    def load(self, user_id: str, *, budget_s: float | None = None) -> LoadedMemory:
        """Both documents in ONE strongly consistent request (a Query on the partition);
        with ``budget_s``, one attempt that ends within it (a commit's reload).

        Raises ``MemoryUnavailableError`` (``UnknownSchemaVersionError`` for a document
        newer than this code) and never returns an empty snapshot after a failed read.
        """
        if budget_s is None:
            items = self._query_partition(user_id)
        else:
            try:
                client = self.bounded_client(budget_s)
            except DeadlineTooCloseError as error:
                raise MemoryUnavailableError(error.code) from None
            items = self._query_partition(user_id, client)
        snapshot = Snapshot()
        documents: dict[str, DocumentState] = {}
        forget_generation: str | None = None
        provenance: dict[str, tuple[Provenance, ...]] = {}
        write_mode: WriteMode = DEFAULT_WRITE_MODE
        for item in items:
            if string_attribute(item, "memory_type") == SETTINGS_TYPE:
                forget_generation = string_attribute(item, FORGET_GENERATION)
                write_mode = read_write_mode(item)
                continue
            target = _target(item)
            if target is None:
                continue
            state, entries = _read_document(target, item)
            documents[target] = state
            provenance[target] = _read_provenance(item, state, entries)
            snapshot = snapshot.replace_entries(target, entries)
        return LoadedMemory(
            user_id=user_id,
            snapshot=snapshot,
            documents=documents,
            forget_generation=forget_generation,
            provenance=provenance,
            write_mode=write_mode,
        )

    def export(self, user_id: str, *, now_ms: int | None = None) -> dict[str, Any]:
        """An operator's export of one user's memory (data-subject requests): the documents
        with their provenance, the settings, the history and the pending proposals.

        A document of an unknown schema version is exported raw (``content``) rather than
        refused: the export must be complete.
        """
        documents: dict[str, Any] = {
            name: {"exists": False, "entries": [], "chars": 0, "limit": LIMITS[name]}
            for name in TARGETS
        }
        for item in self._query_partition(user_id):
            target = _target(item)
            if target is None:
                continue
            document: dict[str, Any] = {
                "exists": True,
                "limit": LIMITS[target],
                "schema_version": number_attribute(item, "schema_version"),
                "created_at": number_attribute(item, "created_at"),
                "updated_at": number_attribute(item, "updated_at"),
            }
            try:
                state, entries = _read_document(target, item)
            except MemoryUnavailableError:
                document["content"] = string_attribute(item, "content")
                document["entries"] = None
                document["chars"] = len(string_attribute(item, "content") or "")
            else:
                document["entries"] = list(entries)
                document["chars"] = len(render_document(entries))
                document["provenance"] = [
                    p.to_dict() for p in _read_provenance(item, state, entries)
                ]
            documents[target] = document
        now = now_ms if now_ms is not None else int(time.time() * 1000)
        return {"user_id": user_id, "documents": documents, **self.control.export(user_id, now)}

    # -- writes --------------------------------------------------------------------------

    def document_writes(
        self,
        user_id: str,
        loaded: LoadedMemory,
        updated: Snapshot,
        now_ms: int,
        *,
        stamp: Provenance | None = None,
    ) -> list[TransactWriteItemTypeDef]:
        """The conditional Put/Delete of each CHANGED document, for one transaction.

        Each write is conditional on the revision the load saw (or on the item still being
        absent), so a document changed, deleted or re-created since then fails the
        transaction instead of being overwritten. ``stamp`` is the provenance of the entries
        this commit writes; the others keep theirs. A failed condition returns the document as
        it is now (``ALL_OLD``), so a replay needs no second read.
        """
        provenance = carry_provenance(
            loaded.snapshot,
            loaded.provenance,
            updated,
            stamp or Provenance(source=UNKNOWN_SOURCE, updated_at=now_ms),
        )
        writes: list[TransactWriteItemTypeDef] = []
        for target in TARGETS:
            entries = tuple(updated.entries(target))
            if entries == tuple(loaded.snapshot.entries(target)):
                continue
            state = loaded.document(target)
            key: dict[str, AttributeValueTypeDef] = {
                "user_id": {"S": user_id},
                "memory_type": {"S": target},
            }
            if not entries:
                if state.revision is not None:
                    writes.append(
                        {
                            "Delete": {
                                "TableName": self._table,
                                "Key": key,
                                "ConditionExpression": "#revision = :seen",
                                "ExpressionAttributeNames": {"#revision": "revision"},
                                "ExpressionAttributeValues": {":seen": {"S": state.revision}},
                                "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                            }
                        }
                    )
                continue
            item: dict[str, AttributeValueTypeDef] = {
                **key,
                "content": {"S": render_document(entries)},
                "revision": {"S": new_revision()},
                "schema_version": {"N": str(migrations.CURRENT_SCHEMA_VERSION)},
                "created_at": {"N": str(state.created_at or now_ms)},
                "updated_at": {"N": str(now_ms)},
                "provenance": {"S": json.dumps([p.to_dict() for p in provenance[target]])},
            }
            if state.revision is None:
                writes.append(
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": item,
                            "ConditionExpression": "attribute_not_exists(#user_id)",
                            "ExpressionAttributeNames": {"#user_id": "user_id"},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    }
                )
            else:
                writes.append(
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": item,
                            "ConditionExpression": "#revision = :seen",
                            "ExpressionAttributeNames": {"#revision": "revision"},
                            "ExpressionAttributeValues": {":seen": {"S": state.revision}},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
                        }
                    }
                )
        return writes

    def forget_fence(self, user_id: str, seen_generation: str | None) -> TransactWriteItemTypeDef:
        """The commit's ConditionCheck that no DELETE /memory happened since the load: the
        forget generation is still the one the load saw (or still absent)."""
        check: dict[str, Any] = {
            "TableName": self._table,
            "Key": _settings_key(user_id),
            "ExpressionAttributeNames": {"#generation": FORGET_GENERATION},
        }
        if seen_generation is None:
            check["ConditionExpression"] = "attribute_not_exists(#generation)"
        else:
            check["ConditionExpression"] = "#generation = :seen"
            check["ExpressionAttributeValues"] = {":seen": {"S": seen_generation}}
        return {"ConditionCheck": check}  # type: ignore[typeddict-item]

    def history_write(self, user_id: str, record: HistoryRecord) -> TransactWriteItemTypeDef:
        return self.control.history_write(user_id, record)

    def proposal_write(self, user_id: str, proposal: Proposal) -> TransactWriteItemTypeDef:
        return self.control.proposal_write(user_id, proposal)

    def consume_proposal_write(
        self, user_id: str, proposal_id: str, now_ms: int
    ) -> TransactWriteItemTypeDef:
        return self.control.consume_proposal_write(user_id, proposal_id, now_ms)

    def loaded_after_cancellation(
        self,
        loaded: LoadedMemory,
        sent: Sequence[TransactWriteItemTypeDef],
        error: TransactionCancelledError,
    ) -> LoadedMemory | None:
        """The documents as the cancelled transaction ``sent`` found them, from its answer
        (``None``: it does not say, read again). See ``cancellation_answer``."""
        from agent_memory.repository.cancellation_answer import documents_from_answer

        return documents_from_answer(self._table, loaded, sent, error)

    def transact_write(
        self,
        items: Sequence[TransactWriteItemTypeDef],
        *,
        token: str,
        budget_s: float | None = None,
    ) -> None:
        """Send ONE ``TransactWriteItems`` attempt (no SDK retries: the caller owns them)
        that ends within ``budget_s`` seconds (``None``: the longest timeouts).

        ``token`` is the ``ClientRequestToken``: the caller reuses it only to resend the very
        same request. Raises ``DeadlineTooCloseError`` (nothing sent),
        ``TransactionCancelledError`` (with the per-item reasons), ``RetryableError``,
        ``TransportError`` (ambiguous) or ``RepositoryError``.
        """
        client = self.bounded_client(budget_s)
        try:
            client.transact_write_items(TransactItems=list(items), ClientRequestToken=token)
        except (ClientError, BotoCoreError) as error:
            raise translate_error(error) from error

    def delete_all(self, user_id: str) -> None:
        """Forget both documents, the history and the proposals, and fence every turn that
        loaded before (``DELETE /memory``); the settings item keeps the write mode.

        The settings item gets a new forget generation (its other attributes stay), so any
        commit built on an earlier load fails its ConditionCheck. That Update and the
        documents' deletes go in ONE transaction with the first history and proposal
        deletes (one Query lists those first), the rest in transactions of up to a hundred.
        A transaction rather than ``BatchWriteItem``: a batch may come back half done
        (``UnprocessedItems``), the transaction does all or nothing. A resend only draws
        another generation, which fences the same turns, and unconditional deletes are
        idempotent: a forget that failed half way is finished by the client's retry.
        """
        items: list[TransactWriteItemTypeDef] = [
            {
                "Delete": {
                    "TableName": self._table,
                    "Key": {"user_id": {"S": user_id}, "memory_type": {"S": target}},
                }
            }
            for target in TARGETS
        ]
        items.append(
            {
                "Update": {
                    "TableName": self._table,
                    "Key": _settings_key(user_id),
                    "UpdateExpression": "SET #generation = :new",
                    "ExpressionAttributeNames": {"#generation": FORGET_GENERATION},
                    "ExpressionAttributeValues": {":new": {"S": new_revision()}},
                }
            }
        )
        self.control.delete_records(user_id, leading=items)

    # -- helpers -------------------------------------------------------------------------

    def _query_partition(
        self, user_id: str, client: DynamoDBClient | None = None
    ) -> list[dict[str, Any]]:
        try:
            response = (client or self._client).query(
                TableName=self._table,
                KeyConditionExpression=(
                    "#user_id = :user_id AND memory_type BETWEEN :first AND :last"
                ),
                ExpressionAttributeNames={"#user_id": "user_id"},
                ExpressionAttributeValues={
                    ":user_id": {"S": user_id},
                    ":first": {"S": LOAD_RANGE[0]},
                    ":last": {"S": LOAD_RANGE[1]},
                },
                ConsistentRead=True,
            )
        except (ClientError, BotoCoreError) as error:
            raise MemoryUnavailableError(translate_error(error).code) from error
        # Two small documents and the settings item always fit in one page (1 MB).
        return [dict(item) for item in response.get("Items", [])]


def _settings_key(user_id: str) -> dict[str, AttributeValueTypeDef]:
    return {"user_id": {"S": user_id}, "memory_type": {"S": SETTINGS_TYPE}}


def _target(item: Mapping[str, Any]) -> Target | None:
    name = string_attribute(item, "memory_type")
    for target in TARGETS:
        if name == target:
            return target
    return None


def _read_document(
    target: Target, item: Mapping[str, Any]
) -> tuple[DocumentState, tuple[str, ...]]:
    version = number_attribute(item, "schema_version")
    if version is None or not migrations.is_known(version):
        raise UnknownSchemaVersionError(target, version)
    content = string_attribute(item, "content")
    revision = string_attribute(item, "revision")
    if content is None or revision is None:
        raise CorruptDocumentError(target)
    try:
        content = migrations.migrate(content, version)
    except MigrationError as error:
        raise UnknownSchemaVersionError(target, version) from error
    try:
        entries = tuple(parse_document(content))
    except Exception as error:
        raise CorruptDocumentError(target) from error
    state = DocumentState(
        target=target,
        revision=revision,
        schema_version=version,
        created_at=number_attribute(item, "created_at"),
        updated_at=number_attribute(item, "updated_at"),
    )
    return state, entries


def _read_provenance(
    item: Mapping[str, Any], state: DocumentState, entries: Sequence[str]
) -> tuple[Provenance, ...]:
    """The entries' provenance; ``unknown`` (at the document's time) for a document written
    before schema v3, or when the stored list does not line up with the entries."""
    stored: list[Provenance] = []
    if (state.schema_version or 0) >= migrations.PROVENANCE_SCHEMA_VERSION:
        try:
            data = json.loads(string_attribute(item, "provenance") or "[]")
            stored = [Provenance.from_dict(entry) for entry in data]
        except (ValueError, TypeError, AttributeError):
            stored = []
    if len(stored) == len(entries):
        return tuple(stored)
    legacy = Provenance(source=UNKNOWN_SOURCE, updated_at=state.updated_at or 0)
    return (legacy,) * len(entries)


def _retention_from_env() -> int:
    return history_retention_days()
    return None
