"""The composition root: the process-wide services, each built once, behind a lock.

They hold configuration, clients and models only: nothing of any request. ``reset_services``
forgets them (tests and the local stack, after changing the environment).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from agent_memory.repository.clients import reset_clients
from agent_memory.repository.ledger_repository import LedgerRepository
from agent_memory.service.cleanup import LedgerCleanup
from agent_memory.service.memory_flag import memory_enabled
from agent_memory.service.settings import TurnSettings, wall_clock_ms

if TYPE_CHECKING:
    from agent_memory.domain import BatchReview
    from agent_memory.ledger.config import LedgerConfig
    from agent_memory.repository.memory_repository import MemoryRepository
    from agent_memory.service.chat import ChatService
    from agent_memory.service.memory import MemoryService
    from agent_memory.service.retries import ChatRetries
    from agent_memory.service.streaming import ConnectionFence
    from agent_memory.service.user_control import UserControlService

# The chat and memory services (agent loop, models, tool schema) and the memory documents'
# repository (with it the domain) are imported inside their builders: the cleanup function
# never loads them, which keeps its cold start small.

T = TypeVar("T")

_lock = threading.Lock()
_services: dict[str, object] = {}


def _singleton(name: str, build: Callable[[], T]) -> T:
    service = _services.get(name)
    if service is None:
        with _lock:
            service = _services.get(name)
            if service is None:
                service = build()
                _services[name] = service
    return service  # type: ignore[return-value]


def _memory_repository() -> MemoryRepository:
    from agent_memory.repository.memory_repository import MemoryRepository

    return MemoryRepository.from_env()


def _build_chat(*, with_memory: bool) -> ChatService:
    from agent_memory.models.factory import ModelSettings, build_fallback_model, build_model
    from agent_memory.service.chat import ChatService

    model_settings = ModelSettings.from_env()
    return ChatService(
        model=build_model(model_settings.provider, model_settings),
        fallback=build_fallback_model(model_settings.provider, model_settings),
        memory_repository=_memory_repository() if with_memory else None,
        ledger_repository=LedgerRepository.from_env() if with_memory else None,
        memory_enabled=memory_enabled if with_memory else (lambda: False),
        settings=TurnSettings.from_env(),
        batch_review=_batch_review() if with_memory else None,
        ledger_config=ledger_config(),
    )


def chat_service() -> ChatService:
    """The authenticated chat: memory tool registered while the flag is on."""
    return _singleton("chat", lambda: _build_chat(with_memory=True))


def chat_retries() -> ChatRetries:
    """The chat function's idempotency store (disabled without ``IDEMPOTENCY_TABLE_NAME``)."""
    from agent_memory.service.retries import ChatRetries

    return _singleton("chat_retries", ChatRetries.from_env)


def eval_service() -> ChatService:
    """Memory-free chat: no repository, no tool, whatever the flag says."""
    return _singleton("eval", lambda: _build_chat(with_memory=False))


def memory_service() -> MemoryService:
    from agent_memory.service.memory import MemoryService

    return _singleton(
        "memory",
        lambda: MemoryService(
            memory_repository=_memory_repository(),
            ledger_repository=LedgerRepository.from_env(),
            memory_enabled=memory_enabled,
            settings=TurnSettings.from_env(),
            clock_ms=wall_clock_ms,
            batch_review=_batch_review(),
            ledger_config=ledger_config(),
        ),
    )


def user_control_service() -> UserControlService:
    from agent_memory.service.user_control import UserControlService

    return _singleton(
        "user_control",
        lambda: UserControlService(
            memory_repository=_memory_repository(),
            ledger_repository=LedgerRepository.from_env(),
            memory_enabled=memory_enabled,
            settings=TurnSettings.from_env(),
            clock_ms=wall_clock_ms,
            batch_review=_batch_review(),
            ledger_config=ledger_config(),
        ),
    )


def ledger_config() -> LedgerConfig:
    """How every unit of work of this process behaves: the wall clock, the default retry
    policy, and a chat turn's ledger open deferred by ``CHAT_OPEN_DELAY_MS`` (a user's edit
    and a streamed turn open at once whatever it says; see ``agent_memory.ledger``)."""
    # Imported here: the cleanup function, which builds none, must not load the unit of work.
    from agent_memory.ledger.config import CHAT_OPEN_DELAY_MS, LedgerConfig

    return LedgerConfig(clock_ms=wall_clock_ms, open_delay_ms=CHAT_OPEN_DELAY_MS)


def _batch_review() -> BatchReview | None:
    """The optional guardrail's review of each staged batch (GUARDRAIL_ID set), else None."""
    from agent_memory.guardrail import guardrail_from_environment

    guardrail = guardrail_from_environment()
    return None if guardrail is None else guardrail.review


def ledger_cleanup() -> LedgerCleanup:
    return _singleton(
        "cleanup",
        lambda: LedgerCleanup(
            ledger_repository=LedgerRepository.from_env(), clock_ms=wall_clock_ms
        ),
    )


def connection_fence() -> ConnectionFence:
    from agent_memory.service.streaming import ConnectionFence

    return _singleton(
        "connection_fence",
        lambda: ConnectionFence(
            ledger_repository=LedgerRepository.from_env(), clock_ms=wall_clock_ms
        ),
    )


def reset_services() -> None:
    with _lock:
        _services.clear()
    reset_clients()
