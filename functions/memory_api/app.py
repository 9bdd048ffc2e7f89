"""The user's own memory: GET/PATCH/DELETE /memory and POST /turns/{turn_id}/cancel."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from agent_memory.http import (
    MemoryDocumentsResponse,
    PatchMemoryRequest,
    authenticated_subject,
    build_resolver,
)
from agent_memory.http.contract import CancelResponse
from agent_memory.service import documents_response, memory_service, parse_turn_id
from agent_memory.telemetry.entrypoint import private_api_handler

app = build_resolver()


@app.get("/memory", summary="The caller's two memory documents")
def get_memory() -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    return documents_response(memory_service().documents(user_id))


@app.patch(
    "/memory",
    summary="Edit memory with the tool's exact contract (one batch, all or nothing)",
)
def patch_memory(body: PatchMemoryRequest) -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    operations = [operation.model_dump() for operation in body.operations]
    remaining_ms = app.lambda_context.get_remaining_time_in_millis()
    return documents_response(memory_service().edit(user_id, operations, remaining_ms=remaining_ms))


@app.delete("/memory", status_code=204, summary="Forget everything: both documents are deleted")
def delete_memory() -> Response[str]:
    user_id = authenticated_subject(app)
    memory_service().forget(user_id)
    return Response(status_code=204, body="")


@app.post(
    "/turns/<turn_id>/cancel",
    summary="Cancel a turn: it can then never commit (409 if it already has)",
)
def cancel_turn(turn_id: str) -> CancelResponse:
    user_id = authenticated_subject(app)
    turn = parse_turn_id(turn_id)
    status = memory_service().cancel_turn(user_id, turn)
    return CancelResponse(turn_id=turn, status=status)


lambda_handler = private_api_handler(app)
