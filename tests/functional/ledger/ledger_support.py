"""Helpers of the ledger functional tests: fault injection around a real client, turns."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError, ReadTimeoutError

from agent_memory.ledger import CancelFlag, LedgerConfig, RetryPolicy, TurnUnitOfWork
from agent_memory.repository import LedgerRepository, MemoryRepository


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def far_deadline(seconds: float = 60.0) -> int:
    return now_ms() + int(seconds * 1000)


def client_error(code: str, operation: str = "TransactWriteItems", **fields: Any) -> ClientError:
    response: dict[str, Any] = {
        "Error": {"Code": code, "Message": f"injected {code}"},
        "ResponseMetadata": {"HTTPStatusCode": 400},
        **fields,
    }
    return ClientError(response, operation)  # type: ignore[arg-type]


def cancelled(*codes: str) -> ClientError:
    """A ``TransactionCanceledException`` with one reason per item, as DynamoDB sends it."""
    return client_error(
        "TransactionCanceledException",
        CancellationReasons=[{"Code": code} for code in codes],
    )


# A fault is a callable (real_call, kwargs) -> response; it may call through or raise.
Fault = Callable[[Callable[..., Any], dict[str, Any]], Any]


def fail_before(error_factory: Callable[[dict[str, Any]], Exception]) -> Fault:
    """The request never reaches DynamoDB: raise instead of sending."""

    def fault(real: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        raise error_factory(kwargs)

    return fault


def conflict_on_ledger_item() -> Fault:
    """``TransactionConflict`` reported on every item's position (the last is the ledger)."""
    return fail_before(
        lambda kwargs: cancelled(
            *(["None"] * (len(kwargs["TransactItems"]) - 1)), "TransactionConflict"
        )
    )


def throttled(code: str = "ProvisionedThroughputExceededException") -> Fault:
    return fail_before(lambda kwargs: client_error(code))


def timeout_after_applied() -> Fault:
    """The request IS applied by the server, then the answer is lost (read timeout)."""

    def fault(real: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        real(**kwargs)
        raise ReadTimeoutError(endpoint_url="http://injected")

    return fault


@dataclass
class FaultyClient:
    """A thin wrapper around a real botocore client: ``transact_write_items`` consumes the
    planned faults in order (then behaves normally); every call is recorded."""

    real: Any
    faults: list[Fault] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    before_call: Callable[[dict[str, Any]], None] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def transact_write_items(self, **kwargs: Any) -> Any:
        with self._lock:
            self.calls.append(kwargs)
            fault = self.faults.pop(0) if self.faults else None
        if self.before_call is not None:
            self.before_call(kwargs)
        if fault is None:
            return self.real.transact_write_items(**kwargs)
        return fault(self.real.transact_write_items, kwargs)

    @property
    def tokens(self) -> list[str]:
        return [call["ClientRequestToken"] for call in self.calls]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


FAST_POLICY = RetryPolicy(
    same_request_base_ms=1.0,
    same_request_cap_ms=5.0,
    replay_base_ms=2.0,
    replay_cap_ms=50.0,
)


@dataclass
class Turns:
    """Starts turns for one pair of tables with injectable parts."""

    memory_repo: MemoryRepository
    ledger_repo: LedgerRepository
    policy: RetryPolicy = FAST_POLICY
    clock_ms: Callable[[], int] = now_ms

    def begin(
        self,
        user_id: str,
        turn_id: str,
        *,
        deadline_ms: int | None = None,
        cancel_flag: CancelFlag | None = None,
        writes_enabled: bool = True,
        memory_repo: MemoryRepository | None = None,
        sleep: Callable[[float], None] = time.sleep,
        open_delay_ms: float | None = None,
        connection_id: str = "",
    ) -> TurnUnitOfWork:
        return TurnUnitOfWork.begin(
            user_id,
            turn_id,
            deadline_ms if deadline_ms is not None else far_deadline(),
            memory_repo=memory_repo or self.memory_repo,
            ledger_repo=self.ledger_repo,
            cancel_flag=cancel_flag or CancelFlag(),
            writes_enabled=writes_enabled,
            connection_id=connection_id,
            config=LedgerConfig(
                clock_ms=self.clock_ms, sleep=sleep, policy=self.policy, open_delay_ms=open_delay_ms
            ),
        )


def add(target: str, content: str) -> dict[str, Any]:
    return {"operations": [{"target": target, "action": "add", "content": content}]}


def replace(target: str, match: str, content: str) -> dict[str, Any]:
    return {
        "operations": [{"target": target, "action": "replace", "match": match, "content": content}]
    }


def remove(target: str, match: str) -> dict[str, Any]:
    return {"operations": [{"target": target, "action": "remove", "match": match}]}


def operations(*ops: dict[str, Any]) -> dict[str, Any]:
    return {"operations": [op for batch in ops for op in batch["operations"]]}


def seed_memory(
    memory_repo: MemoryRepository,
    ledger_repo: LedgerRepository,
    user_id: str,
    *,
    user: Sequence[str] = (),
    memory: Sequence[str] = (),
) -> None:
    """Store documents through a normal committed turn."""
    turns = Turns(memory_repo, ledger_repo)
    ledger = turns.begin(user_id, f"seed-{uuid.uuid4()}")
    batch = [{"target": "user", "action": "add", "content": c} for c in user] + [
        {"target": "memory", "action": "add", "content": c} for c in memory
    ]
    result = ledger.call_tool({"operations": batch})
    assert result["success"], result
    assert ledger.commit().status == "committed"
