"""How the unit of work and the commit protocol behave, in one object (as Powertools'
``IdempotencyConfig`` bundles its utility's knobs): the clock, the sleep and the jitter source
(injected so tests can pin them), the retry policy, the request tokens and the ledger open's
delay. The runtime's is built in ``service/composition.py``."""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from agent_memory.ledger.retry import DEFAULT_RETRY_POLICY, RetryPolicy

# What the chat service defers a chat turn's ledger open by (see ``ledger.deferred_open``).
CHAT_OPEN_DELAY_MS = 500.0


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def new_request_token() -> str:
    return secrets.token_hex(16)


@dataclass(frozen=True)
class LedgerConfig:
    """``open_delay_ms``: a chat turn over HTTP that ends within this time of its first
    staged operation creates its ledger item in the commit transaction (``None``: open it at
    the first staged operation, DESIGN.md step 6 as written)."""

    clock_ms: Callable[[], int] = wall_clock_ms
    sleep: Callable[[float], None] = time.sleep
    rand: Callable[[], float] = random.random
    policy: RetryPolicy = DEFAULT_RETRY_POLICY
    new_token: Callable[[], str] = new_request_token
    open_delay_ms: float | None = None
