"""The service layer: one chat turn, the user's own memory API, the cleanup, wired once."""

from __future__ import annotations

from agent_memory.service.chat import ChatResult, ChatService, ChatTurn
from agent_memory.service.cleanup import LedgerCleanup
from agent_memory.service.composition import (
    chat_service,
    eval_service,
    ledger_cleanup,
    memory_service,
    reset_services,
)
from agent_memory.service.exceptions import (
    ConfigurationError,
    MemoryEditRejectedError,
    TurnFailedError,
)
from agent_memory.service.memory import MemoryService
from agent_memory.service.requests import (
    chat_response,
    documents_response,
    parse_turn_id,
    run_chat_turn,
    turn_id_from_header,
)
from agent_memory.service.settings import TurnSettings

__all__ = [
    "ChatResult",
    "ChatService",
    "ChatTurn",
    "ConfigurationError",
    "LedgerCleanup",
    "MemoryEditRejectedError",
    "MemoryService",
    "TurnFailedError",
    "TurnSettings",
    "chat_response",
    "chat_service",
    "documents_response",
    "eval_service",
    "ledger_cleanup",
    "memory_service",
    "parse_turn_id",
    "reset_services",
    "run_chat_turn",
    "turn_id_from_header",
]
