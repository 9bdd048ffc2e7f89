"""POST /eval/chat: memory-free chat for evaluation traffic (AWS_IAM auth, no table access).

Its agent is built without the memory tool and without any repository: nothing here can
read or write memory, whatever the request says.
"""

from __future__ import annotations

from agent_memory.http import ChatRequest, ChatResponse, build_resolver
from agent_memory.service import chat_response, eval_service, run_chat_turn
from agent_memory.telemetry.entrypoint import private_api_handler

app = build_resolver()


@app.post(
    "/eval/chat",
    summary="Memory-free chat for evaluation traffic (AWS_IAM)",
    operation_id="eval_chat",
    tags=["evaluation"],
)
def eval_chat(body: ChatRequest) -> ChatResponse:
    result = run_chat_turn(
        eval_service(),
        user_id=None,
        request=body,
        turn_id=None,
        remaining_ms=app.lambda_context.get_remaining_time_in_millis(),
    )
    return chat_response(result)


lambda_handler = private_api_handler(app)
