"""``agent-memory loadtest``: simulated API Gateway load on the real handlers, then a check
that memory stayed correct (``checker``), with a JSON report and a PNG chart.

plan (seeded kinds) -> scenario (the turn's ``memory_update:`` message, at dispatch) ->
runner (C in flight, cancels, final read) -> record (what the API answered) -> checker ->
stats / report / chart. ``targets`` holds the in-process and the HTTP targets.

Only the light modules are imported here: the load test's worker processes import this
package before their environment is set.
"""

from __future__ import annotations

from agent_memory_tools.loadtest.config import DEFAULT_MIX, KINDS, LoadTestConfig, Mix, parse_mix
from agent_memory_tools.loadtest.exceptions import ConfigError, LoadTestError, TargetError

__all__ = [
    "DEFAULT_MIX",
    "KINDS",
    "ConfigError",
    "LoadTestConfig",
    "LoadTestError",
    "Mix",
    "TargetError",
    "parse_mix",
]
