"""The local stack behind ``make run``: simulated API Gateway events, the real handlers.

``serve()`` runs it in the foreground; ``LocalStack`` is the same stack as an object (start,
close). ``events`` builds the payload-v2 events that API Gateway would send, ``functions``
loads the real ``functions/*/app.py``.
"""

from __future__ import annotations

from agent_memory_tools.local.banner import READY_PREFIX
from agent_memory_tools.local.environment import LOCAL_TABLES, function_environment
from agent_memory_tools.local.exceptions import (
    FunctionCrashedError,
    FunctionInitError,
    FunctionTimeoutError,
    InvocationError,
    LocalStackError,
    PoolClosedError,
    StartupError,
    ThrottledError,
)
from agent_memory_tools.local.gateway import GatewayRequest, GatewayResponse, LocalGateway
from agent_memory_tools.local.stack import LocalStack, StackOptions, serve

__all__ = [
    "LOCAL_TABLES",
    "READY_PREFIX",
    "FunctionCrashedError",
    "FunctionInitError",
    "FunctionTimeoutError",
    "GatewayRequest",
    "GatewayResponse",
    "InvocationError",
    "LocalGateway",
    "LocalStack",
    "LocalStackError",
    "PoolClosedError",
    "StackOptions",
    "StartupError",
    "ThrottledError",
    "function_environment",
    "serve",
]
