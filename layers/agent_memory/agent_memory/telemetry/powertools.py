"""The process-wide Powertools objects, configured so that no memory reaches telemetry.

- Logger: structured JSON; the event is never logged (``log_event`` stays off).
- Metrics: one namespace; dimensions are the service and the outcome, never a user id.
- Tracer: patches botocore only (DynamoDB and Bedrock subsegments), never records handler
  responses or exceptions (both can quote memory). When tracing is disabled (outside Lambda,
  or ``POWERTOOLS_TRACE_DISABLED=true``) Powertools does not import the X-Ray SDK at all.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer

SERVICE = "agent-memory"
NAMESPACE = "AgentMemory"

logger = Logger(service=SERVICE, log_uncaught_exceptions=False)
metrics = Metrics(namespace=NAMESPACE, service=SERVICE)
tracer = Tracer(service=SERVICE, patch_modules=("botocore",))

# Passed to tracer.capture_lambda_handler / capture_method everywhere.
TRACE_OPTIONS: dict[str, bool] = {"capture_response": False, "capture_error": False}
