"""History, undo, write modes and proposals through the traced handlers: their bodies carry
memory content to the user, and none of it reaches a log line, a metric or a trace."""

from __future__ import annotations

from telemetry_support import (
    ARG,
    MEM,
    MSG,
    Capture,
    TracedApi,
    memory_update,
)

ADD_SENTINEL = {"target": "memory", "action": "add", "content": f"Codename is {ARG}"}


def test_history_undo_and_proposals_leave_no_content_in_telemetry(
    traced_api: TracedApi, capture: Capture
) -> None:
    # GIVEN stored sentinels and a chat commit that wrote another
    traced_api.seed()
    committed = traced_api.chat(f"{MSG}\n{memory_update(ADD_SENTINEL)}")
    commit_id = committed.memory["commit_id"]

    # WHEN the user reads the history, undoes the commit, undoes it again (a conflict),
    # switches to approve mode, gets a proposal, lists, approves one and rejects another
    history = traced_api.call("GET", "/memory/history")
    undone = traced_api.call("POST", "/memory/undo", body={"commit_id": commit_id})
    conflict = traced_api.call("POST", "/memory/undo", body={"commit_id": commit_id})
    traced_api.call("PUT", "/memory/settings", body={"write_mode": "approve"})
    first = traced_api.chat(f"{MSG}\n{memory_update(ADD_SENTINEL)}").memory["proposal_id"]
    second = traced_api.chat(
        memory_update({"target": "memory", "action": "remove", "match": MEM})
    ).memory["proposal_id"]
    proposals = traced_api.call("GET", "/memory/proposals")
    approved = traced_api.call("POST", f"/memory/proposals/{first}/approve")
    rejected = traced_api.call("POST", f"/memory/proposals/{second}/reject")
    memory = traced_api.call("GET", "/memory")
    forgotten = traced_api.call("DELETE", "/memory/history")

    # THEN the user got the content back (so there was content to leak) ...
    assert ARG in str(history.body)
    assert (undone.status, conflict.status) == (200, 409)
    assert ARG in str(proposals.body)
    assert MEM in str(proposals.body)
    assert approved.status == 200
    assert ARG in str(approved.body)
    assert (rejected.status, forgotten.status) == (204, 204)
    assert memory.body["memory"]["provenance"][-1]["source"] == "approval"
    # ... and no channel holds any sentinel
    assert capture.leaks() == []
