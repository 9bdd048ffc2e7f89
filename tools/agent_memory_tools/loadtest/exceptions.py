"""Errors of the load test. Each is reported as one clear line and a non-zero exit."""

from __future__ import annotations


class LoadTestError(Exception):
    """Base of the load test's errors: the message says what is wrong and what to do."""


class ConfigError(LoadTestError):
    """The options do not make a runnable load test (bad mix, bad numbers, bad URL)."""


class TargetError(LoadTestError):
    """The target cannot be started or reached (tables, workers, URL, tokens)."""
