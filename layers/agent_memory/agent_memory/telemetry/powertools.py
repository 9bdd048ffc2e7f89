"""The process-wide Powertools Logger and Metrics, configured so that no memory reaches them.

- Logger: structured JSON; handlers pass ``log_event=False`` explicitly, so no environment
  variable (``POWERTOOLS_LOGGER_LOG_EVENT``) can switch event logging on.
- Metrics: one namespace; dimensions are the service and short codes, never a user id.
- Framework loggers (botocore, Powertools' own, the X-Ray SDK...) are pinned to WARNING and
  lose exception text: their DEBUG output copies request parameters, so a log-level change
  must never turn them on (see ``framework_logs``).

The Tracer lives in ``agent_memory.telemetry.tracing``: importing it decides whether the X-Ray
SDK is loaded at all, so only the traced functions import it.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics

from agent_memory.telemetry.framework_logs import ExceptionTextFilter, quiet_framework_logs

SERVICE = "agent-memory"
NAMESPACE = "AgentMemory"

logger = Logger(service=SERVICE, log_uncaught_exceptions=False)
# Our own records (and those of child loggers) never carry a traceback either.
logger.registered_handler.addFilter(ExceptionTextFilter())
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)

quiet_framework_logs()
