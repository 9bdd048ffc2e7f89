"""Operator tools: the readiness probe, the data-subject export, the probe namespace.

``probe_command`` and ``export_command`` are the ``agent-memory probe`` and ``export``
subcommands. The public names below load on first use, so building the CLI's parser (which
imports this package) stays free of boto3.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agent_memory_tools.operations.exceptions import (
    NotAProbeUserError,
    OperationsError,
    TargetError,
)

if TYPE_CHECKING:
    from agent_memory_tools.operations.cleanup import ProbeCleaner
    from agent_memory_tools.operations.export import LedgerMetadata, export_user
    from agent_memory_tools.operations.namespace import (
        PROBE_PREFIX,
        is_probe_user_id,
        new_run_id,
        probe_user_id,
    )
    from agent_memory_tools.operations.probe import ProbeReport, ReadinessProbe, StepResult
    from agent_memory_tools.operations.target import TableAccess, connect, table_names

_LAZY = {
    "ProbeCleaner": "cleanup",
    "LedgerMetadata": "export",
    "export_user": "export",
    "PROBE_PREFIX": "namespace",
    "is_probe_user_id": "namespace",
    "new_run_id": "namespace",
    "probe_user_id": "namespace",
    "ProbeReport": "probe",
    "ReadinessProbe": "probe",
    "StepResult": "probe",
    "TableAccess": "target",
    "connect": "target",
    "table_names": "target",
}

__all__ = [
    "PROBE_PREFIX",
    "LedgerMetadata",
    "NotAProbeUserError",
    "OperationsError",
    "ProbeCleaner",
    "ProbeReport",
    "ReadinessProbe",
    "StepResult",
    "TableAccess",
    "TargetError",
    "connect",
    "export_user",
    "is_probe_user_id",
    "new_run_id",
    "probe_user_id",
    "table_names",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
