"""Where a turn's cancel flag comes from.

In Lambda nothing can cancel a running invocation, so each request gets a fresh flag. The
local server binds its own flag (set when the client disconnects) around the handler call,
and the service picks it up here: the flag reaches the database work without passing through
the handler's signature.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from agent_memory.ledger import CancelFlag

_bound_flag: ContextVar[CancelFlag | None] = ContextVar("bound_cancel_flag", default=None)


@contextmanager
def bind_cancel_flag(flag: CancelFlag) -> Iterator[CancelFlag]:
    token = _bound_flag.set(flag)
    try:
        yield flag
    finally:
        _bound_flag.reset(token)


def cancel_flag_for_request() -> CancelFlag:
    return _bound_flag.get() or CancelFlag()
