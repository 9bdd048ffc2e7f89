"""Every minute: expire open turn ledgers that ran past their deadline (they can never commit)."""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.service.composition import ledger_cleanup
from agent_memory.telemetry import logger, metrics
from agent_memory.telemetry.tracing import tracer


@logger.inject_lambda_context(log_event=False)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    expired = ledger_cleanup().expire_overdue_turns()
    metrics.add_metric(name="ExpiredTurns", unit=MetricUnit.Count, value=expired)
    logger.info("expired overdue turns", extra={"expired": expired})
    return {"expired": expired}
