"""DynamoDB adapters: the memory documents, the turn ledger, the tables and the clients."""

from __future__ import annotations

from agent_memory.repository.clients import (
    ENV_ENDPOINT_URL,
    ENV_MEMORY_TABLE,
    ENV_REGION,
    ENV_TURN_LEDGER_TABLE,
    TableNames,
    client_config,
    get_client,
    get_transaction_client,
    new_client,
    reset_clients,
    translate_error,
)
from agent_memory.repository.exceptions import (
    AlreadyCommittedError,
    ConfigurationError,
    CorruptDocumentError,
    MemoryUnavailableError,
    RepositoryError,
    RetryableError,
    TransactionCancelledError,
    TransportError,
    TurnExistsError,
    UnknownSchemaVersionError,
)
from agent_memory.repository.ledger_repository import (
    LEDGER_TTL_S,
    OPEN_SHARDS,
    OPEN_TURNS_INDEX,
    CancelResult,
    LedgerRecord,
    LedgerRepository,
    TurnStatus,
    open_shard,
)
from agent_memory.repository.memory_repository import (
    DocumentState,
    LoadedMemory,
    MemoryRepository,
    new_revision,
)
from agent_memory.repository.migrations import (
    CURRENT_SCHEMA_VERSION,
    MIGRATIONS,
    MigrationError,
    migrate,
)
from agent_memory.repository.request_counter import RequestCounter

__all__ = [
    "CURRENT_SCHEMA_VERSION",
    "ENV_ENDPOINT_URL",
    "ENV_MEMORY_TABLE",
    "ENV_REGION",
    "ENV_TURN_LEDGER_TABLE",
    "LEDGER_TTL_S",
    "MIGRATIONS",
    "OPEN_SHARDS",
    "OPEN_TURNS_INDEX",
    "AlreadyCommittedError",
    "CancelResult",
    "ConfigurationError",
    "CorruptDocumentError",
    "DocumentState",
    "LedgerRecord",
    "LedgerRepository",
    "LoadedMemory",
    "MemoryRepository",
    "MemoryUnavailableError",
    "MigrationError",
    "RepositoryError",
    "RequestCounter",
    "RetryableError",
    "TableNames",
    "TransactionCancelledError",
    "TransportError",
    "TurnExistsError",
    "TurnStatus",
    "UnknownSchemaVersionError",
    "client_config",
    "get_client",
    "get_transaction_client",
    "migrate",
    "new_client",
    "new_revision",
    "open_shard",
    "reset_clients",
    "translate_error",
]
