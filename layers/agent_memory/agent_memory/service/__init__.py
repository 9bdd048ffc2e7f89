"""The service layer: one chat turn, the user's own memory API, the cleanup, wired once.

Names are imported on first use, so a handler pays only for what it touches: the cleanup
function loads the ledger repository, not the agent loop and the model providers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_memory.service.chat import ChatResult, ChatService, ChatTurn, DeltaSink
    from agent_memory.service.cleanup import LedgerCleanup
    from agent_memory.service.composition import (
        chat_retries,
        chat_service,
        connection_fence,
        eval_service,
        ledger_cleanup,
        memory_service,
        reset_services,
        user_control_service,
    )
    from agent_memory.service.documents import documents_response
    from agent_memory.service.exceptions import (
        ClientDisconnectedError,
        ConfigurationError,
        IdempotencyKeyReusedError,
        MemoryEditRejectedError,
        ServiceError,
        ServiceErrorCode,
        TurnFailedError,
        TurnInProgressError,
    )
    from agent_memory.service.memory import MemoryService
    from agent_memory.service.requests import answer_chat, chat_response, run_chat_turn
    from agent_memory.service.retries import Answer, ChatRetries
    from agent_memory.service.settings import TurnSettings
    from agent_memory.service.streaming import (
        ConnectionFence,
        ConnectionSink,
        cancel_streamed_turn,
        refuse_unknown_action,
        stream_chat_turn,
    )
    from agent_memory.service.turn_ids import parse_turn_id, turn_id_from_header
    from agent_memory.service.user_control import HistoryPage, UserControlService

_EXPORTS: dict[str, str] = {
    "Answer": "agent_memory.service.retries",
    "ChatResult": "agent_memory.service.chat",
    "ChatRetries": "agent_memory.service.retries",
    "ChatService": "agent_memory.service.chat",
    "ChatTurn": "agent_memory.service.chat",
    "ClientDisconnectedError": "agent_memory.service.exceptions",
    "ConnectionFence": "agent_memory.service.streaming",
    "ConnectionSink": "agent_memory.service.streaming",
    "DeltaSink": "agent_memory.service.chat",
    "ConfigurationError": "agent_memory.service.exceptions",
    "HistoryPage": "agent_memory.service.user_control",
    "IdempotencyKeyReusedError": "agent_memory.service.exceptions",
    "LedgerCleanup": "agent_memory.service.cleanup",
    "MemoryEditRejectedError": "agent_memory.service.exceptions",
    "MemoryService": "agent_memory.service.memory",
    "ServiceError": "agent_memory.service.exceptions",
    "ServiceErrorCode": "agent_memory.service.exceptions",
    "TurnFailedError": "agent_memory.service.exceptions",
    "TurnInProgressError": "agent_memory.service.exceptions",
    "TurnSettings": "agent_memory.service.settings",
    "UserControlService": "agent_memory.service.user_control",
    "answer_chat": "agent_memory.service.requests",
    "chat_response": "agent_memory.service.requests",
    "chat_retries": "agent_memory.service.composition",
    "cancel_streamed_turn": "agent_memory.service.streaming",
    "chat_service": "agent_memory.service.composition",
    "connection_fence": "agent_memory.service.composition",
    "documents_response": "agent_memory.service.documents",
    "eval_service": "agent_memory.service.composition",
    "ledger_cleanup": "agent_memory.service.composition",
    "memory_service": "agent_memory.service.composition",
    "parse_turn_id": "agent_memory.service.turn_ids",
    "refuse_unknown_action": "agent_memory.service.streaming",
    "reset_services": "agent_memory.service.composition",
    "run_chat_turn": "agent_memory.service.requests",
    "stream_chat_turn": "agent_memory.service.streaming",
    "turn_id_from_header": "agent_memory.service.turn_ids",
    "user_control_service": "agent_memory.service.composition",
}

__all__ = [
    "Answer",
    "ChatResult",
    "ChatRetries",
    "ChatService",
    "ChatTurn",
    "ClientDisconnectedError",
    "ConfigurationError",
    "ConnectionFence",
    "ConnectionSink",
    "DeltaSink",
    "HistoryPage",
    "IdempotencyKeyReusedError",
    "LedgerCleanup",
    "MemoryEditRejectedError",
    "MemoryService",
    "ServiceError",
    "ServiceErrorCode",
    "TurnFailedError",
    "TurnInProgressError",
    "TurnSettings",
    "UserControlService",
    "answer_chat",
    "cancel_streamed_turn",
    "chat_response",
    "chat_retries",
    "chat_service",
    "connection_fence",
    "documents_response",
    "eval_service",
    "ledger_cleanup",
    "memory_service",
    "parse_turn_id",
    "refuse_unknown_action",
    "reset_services",
    "run_chat_turn",
    "stream_chat_turn",
    "turn_id_from_header",
    "user_control_service",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
