"""DynamoDB adapters: the memory documents, the turn ledger, the tables and the clients.

Names are imported on first use, so a function loads only the adapters it touches: the
cleanup function loads the ledger's, not the memory documents' (and with them the domain).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_memory.repository.clients import (
        ATTEMPT_TIMEOUTS,
        ENV_ENDPOINT_URL,
        ENV_IDEMPOTENCY_TABLE,
        ENV_MEMORY_TABLE,
        ENV_REGION,
        ENV_TURN_LEDGER_TABLE,
        AttemptTimeouts,
        TableNames,
        attempt_timeouts_within,
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
        DeadlineTooCloseError,
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
        NewTurn,
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
    from agent_memory.repository.user_control import (
        DEFAULT_WRITE_MODE,
        PROPOSAL_TTL_S,
        WRITE_MODES,
        HistoryRecord,
        Proposal,
        UserControlRepository,
        WriteMode,
        history_body,
        new_time_ordered_id,
        proposal_body,
    )

_MODULES: dict[str, tuple[str, ...]] = {
    "agent_memory.repository.clients": (
        "ATTEMPT_TIMEOUTS",
        "ENV_ENDPOINT_URL",
        "ENV_IDEMPOTENCY_TABLE",
        "ENV_MEMORY_TABLE",
        "ENV_REGION",
        "ENV_TURN_LEDGER_TABLE",
        "AttemptTimeouts",
        "TableNames",
        "attempt_timeouts_within",
        "client_config",
        "get_client",
        "get_transaction_client",
        "new_client",
        "reset_clients",
        "translate_error",
    ),
    "agent_memory.repository.exceptions": (
        "AlreadyCommittedError",
        "ConfigurationError",
        "CorruptDocumentError",
        "DeadlineTooCloseError",
        "MemoryUnavailableError",
        "RepositoryError",
        "RetryableError",
        "TransactionCancelledError",
        "TransportError",
        "TurnExistsError",
        "UnknownSchemaVersionError",
    ),
    "agent_memory.repository.ledger_repository": (
        "LEDGER_TTL_S",
        "OPEN_SHARDS",
        "OPEN_TURNS_INDEX",
        "CancelResult",
        "LedgerRecord",
        "LedgerRepository",
        "NewTurn",
        "TurnStatus",
        "open_shard",
    ),
    "agent_memory.repository.memory_repository": (
        "DocumentState",
        "LoadedMemory",
        "MemoryRepository",
        "new_revision",
    ),
    "agent_memory.repository.migrations": (
        "CURRENT_SCHEMA_VERSION",
        "MIGRATIONS",
        "MigrationError",
        "migrate",
    ),
    "agent_memory.repository.request_counter": ("RequestCounter",),
    "agent_memory.repository.user_control": (
        "DEFAULT_WRITE_MODE",
        "PROPOSAL_TTL_S",
        "WRITE_MODES",
        "HistoryRecord",
        "Proposal",
        "UserControlRepository",
        "WriteMode",
        "history_body",
        "new_time_ordered_id",
        "proposal_body",
    ),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}

__all__ = [
    "ATTEMPT_TIMEOUTS",
    "CURRENT_SCHEMA_VERSION",
    "DEFAULT_WRITE_MODE",
    "ENV_ENDPOINT_URL",
    "ENV_IDEMPOTENCY_TABLE",
    "ENV_MEMORY_TABLE",
    "ENV_REGION",
    "ENV_TURN_LEDGER_TABLE",
    "LEDGER_TTL_S",
    "MIGRATIONS",
    "OPEN_SHARDS",
    "OPEN_TURNS_INDEX",
    "PROPOSAL_TTL_S",
    "WRITE_MODES",
    "AlreadyCommittedError",
    "AttemptTimeouts",
    "CancelResult",
    "ConfigurationError",
    "CorruptDocumentError",
    "DeadlineTooCloseError",
    "DocumentState",
    "HistoryRecord",
    "LedgerRecord",
    "LedgerRepository",
    "LoadedMemory",
    "MemoryRepository",
    "MemoryUnavailableError",
    "MigrationError",
    "NewTurn",
    "Proposal",
    "RepositoryError",
    "RequestCounter",
    "RetryableError",
    "TableNames",
    "TransactionCancelledError",
    "TransportError",
    "TurnExistsError",
    "TurnStatus",
    "UnknownSchemaVersionError",
    "UserControlRepository",
    "WriteMode",
    "attempt_timeouts_within",
    "client_config",
    "get_client",
    "get_transaction_client",
    "history_body",
    "migrate",
    "new_client",
    "new_revision",
    "new_time_ordered_id",
    "open_shard",
    "proposal_body",
    "reset_clients",
    "translate_error",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # found once: later lookups skip this function
    return value
