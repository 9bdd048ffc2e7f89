"""The one place the API handlers get their Powertools instrumentation.

Every flag that could copy a request or a response into telemetry is set here, explicitly,
so an environment variable (POWERTOOLS_LOGGER_LOG_EVENT, POWERTOOLS_TRACER_CAPTURE_*) cannot
turn it on, and no handler can forget one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.telemetry import tracing
from agent_memory.telemetry.powertools import logger, metrics

LambdaHandler = Callable[[dict[str, Any], LambdaContext], dict[str, Any]]


def private_api_handler(app: APIGatewayHttpResolver) -> LambdaHandler:
    """The Lambda handler of an HTTP API function: resolve the event, log, trace, flush
    metrics, and record neither the event, the response nor an exception's text."""

    @logger.inject_lambda_context(
        correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False
    )
    # Looked up at decoration time (the cold start): the Tracer current for this process.
    @tracing.tracer.capture_lambda_handler(capture_response=False, capture_error=False)
    @metrics.log_metrics
    def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        return app.resolve(event, context)

    handler: LambdaHandler = lambda_handler  # the decorators are untyped
    return handler
