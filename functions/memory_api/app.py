"""The user's own memory: GET/PATCH/DELETE /memory, its history, undo, write mode and
proposals, POST /turns/{turn_id}/cancel and GET /turns/{turn_id}."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from agent_memory.http import (
    MemoryDocumentsResponse,
    PatchMemoryRequest,
    authenticated_subject,
    build_resolver,
)
from agent_memory.http.contract import (
    DEFAULT_HISTORY_PAGE,
    MAX_HISTORY_PAGE,
    CancelResponse,
    HistoryResponse,
    ProposalsResponse,
    TurnStatusResponse,
    UndoRequest,
    WriteModeSettings,
)
from agent_memory.repository import history_body, proposal_body
from agent_memory.service import (
    documents_response,
    memory_service,
    parse_turn_id,
    user_control_service,
)
from agent_memory.telemetry.entrypoint import private_api_handler

app = build_resolver()


@app.get(
    "/memory",
    summary="The caller's two memory documents, with each entry's provenance",
    operation_id="get_memory",
    tags=["memory"],
)
def get_memory() -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    return documents_response(memory_service().documents(user_id))


@app.patch(
    "/memory",
    operation_id="patch_memory",
    tags=["memory"],
    summary="Edit memory with the tool's exact contract (one batch, all or nothing)",
)
def patch_memory(body: PatchMemoryRequest) -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    operations = [operation.model_dump() for operation in body.operations]
    remaining_ms = app.lambda_context.get_remaining_time_in_millis()
    return documents_response(memory_service().edit(user_id, operations, remaining_ms=remaining_ms))


@app.delete(
    "/memory",
    status_code=204,
    operation_id="delete_memory",
    tags=["memory"],
    summary="Forget everything: both documents, their history and pending proposals",
)
def delete_memory() -> Response[str]:
    user_id = authenticated_subject(app)
    memory_service().forget(user_id)
    return Response(status_code=204, body="")


@app.get(
    "/memory/history",
    summary="The caller's commits, newest first",
    operation_id="get_history",
    tags=["history"],
)
def get_history(
    limit: Annotated[int, Query(ge=1, le=MAX_HISTORY_PAGE)] = DEFAULT_HISTORY_PAGE,
    cursor: Annotated[str | None, Query(max_length=64)] = None,
) -> HistoryResponse:
    user_id = authenticated_subject(app)
    page = user_control_service().history(user_id, limit=limit, cursor=cursor)
    return HistoryResponse.model_validate(
        {
            "items": [history_body(record) for record in page.records],
            "next_cursor": page.next_cursor,
        }
    )


@app.delete(
    "/memory/history",
    status_code=204,
    summary="Erase the history, keep the memory",
    operation_id="delete_history",
    tags=["history"],
)
def delete_history() -> Response[str]:
    user_id = authenticated_subject(app)
    user_control_service().delete_history(user_id)
    return Response(status_code=204, body="")


@app.post(
    "/memory/undo",
    summary="Undo a commit on the latest memory, as a new commit",
    operation_id="undo_commit",
    tags=["history"],
)
def undo(body: UndoRequest) -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    remaining_ms = app.lambda_context.get_remaining_time_in_millis()
    loaded = user_control_service().undo(user_id, body.commit_id, remaining_ms=remaining_ms)
    return documents_response(loaded)


@app.get(
    "/memory/settings",
    summary="The caller's write mode",
    operation_id="get_settings",
    tags=["settings"],
)
def get_settings() -> WriteModeSettings:
    user_id = authenticated_subject(app)
    return WriteModeSettings(write_mode=user_control_service().write_mode(user_id))


@app.put(
    "/memory/settings",
    summary="Set the write mode: auto, approve or read_only",
    operation_id="put_settings",
    tags=["settings"],
)
def put_settings(body: WriteModeSettings) -> WriteModeSettings:
    user_id = authenticated_subject(app)
    return WriteModeSettings(
        write_mode=user_control_service().set_write_mode(user_id, body.write_mode)
    )


@app.get(
    "/memory/proposals",
    summary="Pending proposals of turns that ran in approve mode",
    operation_id="get_proposals",
    tags=["proposals"],
)
def get_proposals() -> ProposalsResponse:
    user_id = authenticated_subject(app)
    proposals = user_control_service().proposals(user_id)
    return ProposalsResponse.model_validate({"items": [proposal_body(p) for p in proposals]})


@app.post(
    "/memory/proposals/<proposal_id>/approve",
    operation_id="approve_proposal",
    tags=["proposals"],
    summary="Apply a proposal to the latest memory (409 when it no longer applies)",
)
def approve_proposal(proposal_id: str) -> MemoryDocumentsResponse:
    user_id = authenticated_subject(app)
    remaining_ms = app.lambda_context.get_remaining_time_in_millis()
    loaded = user_control_service().approve(user_id, proposal_id, remaining_ms=remaining_ms)
    return documents_response(loaded)


@app.post(
    "/memory/proposals/<proposal_id>/reject",
    status_code=204,
    summary="Drop a proposal",
    operation_id="reject_proposal",
    tags=["proposals"],
)
def reject_proposal(proposal_id: str) -> Response[str]:
    user_id = authenticated_subject(app)
    user_control_service().reject(user_id, proposal_id)
    return Response(status_code=204, body="")


@app.post(
    "/turns/<turn_id>/cancel",
    operation_id="cancel_turn",
    tags=["turns"],
    summary="Cancel a turn: it can then never commit (409 if it already has)",
)
def cancel_turn(turn_id: str) -> CancelResponse:
    user_id = authenticated_subject(app)
    turn = parse_turn_id(turn_id)
    status = memory_service().cancel_turn(user_id, turn)
    return CancelResponse(turn_id=turn, status=status)


@app.get(
    "/turns/<turn_id>",
    operation_id="get_turn",
    tags=["turns"],
    summary="What became of a turn's memory writes (for a client that lost the answer)",
    description="The turn ledger's status. 404 when the turn staged nothing or is not yours, "
    "and while a short turn is still within half a second of its first write (its ledger item "
    "is created with its commit).",
)
def get_turn(turn_id: str) -> TurnStatusResponse:
    user_id = authenticated_subject(app)
    turn = parse_turn_id(turn_id)
    return TurnStatusResponse(turn_id=turn, status=memory_service().turn_status(user_id, turn))


lambda_handler = private_api_handler(app)
