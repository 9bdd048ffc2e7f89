"""POST /eval/chat: memory-free chat for evaluation traffic (AWS_IAM auth, no table access).

Its agent is built without the memory tool and without any repository: nothing here can
read or write memory, whatever the request says.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.http import ChatRequest, ChatResponse, build_resolver
from agent_memory.service import chat_response, eval_service, run_chat_turn
from agent_memory.telemetry import logger, metrics
from agent_memory.telemetry.tracing import tracer

app = build_resolver()


@app.post("/eval/chat", summary="Memory-free chat for evaluation traffic (AWS_IAM)")
def eval_chat(body: ChatRequest) -> ChatResponse:
    result = run_chat_turn(
        eval_service(),
        user_id=None,
        request=body,
        idempotency_key=None,
        remaining_ms=app.lambda_context.get_remaining_time_in_millis(),
    )
    return chat_response(result)


@logger.inject_lambda_context(
    correlation_id_path=correlation_paths.API_GATEWAY_HTTP, log_event=False
)
@tracer.capture_lambda_handler(capture_response=False, capture_error=False)
@metrics.log_metrics
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
