"""Errors of the operator tools. Messages name tables, stacks and steps, never memory content."""

from __future__ import annotations


class OperationsError(Exception):
    """An operator command cannot run as asked (its message says what to fix)."""


class TargetError(OperationsError):
    """The tables to work on cannot be determined or reached."""


class NotAProbeUserError(OperationsError):
    """A cleanup was asked for a user id outside the probe namespace (refused: it could be a
    real user's)."""
