"""Errors of the local stack. ``StartupError`` is what ``agent-memory serve`` reports as one
clear line; the others describe one failed invocation and become a JSON 5xx, never a trace."""

from __future__ import annotations


class LocalStackError(Exception):
    """Base of the local stack's errors."""


class StartupError(LocalStackError):
    """The stack cannot start (port in use, bad configuration, a function that fails to load)."""


class InvocationError(LocalStackError):
    """An invocation produced no usable response."""


class FunctionInitError(InvocationError):
    """The function's code failed to load in its execution environment (Lambda's init error)."""


class FunctionCrashedError(InvocationError):
    """The handler raised, returned something unusable, or its environment died."""


class FunctionTimeoutError(InvocationError):
    """The handler ran past the function's configured timeout; its environment was stopped."""


class ThrottledError(InvocationError):
    """Every execution environment of the function stayed busy until the request gave up."""


class PoolClosedError(InvocationError):
    """The stack is shutting down."""
