"""History, undo, write modes and proposals through the real handlers (DESIGN.md "User
control"), on moto over HTTP."""

from __future__ import annotations

from typing import Any

import pytest
from handler_support import Api, new_turn_id

OTHER = "bob"


def present(value: Any) -> Any:
    """A JSON body without its null fields (optional fields may come as null)."""
    if isinstance(value, dict):
        return {k: present(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [present(v) for v in value]
    return value


def history(api: Api, user: str = "alice", **query: Any) -> dict[str, Any]:
    path = "/memory/history"
    if query:
        path += "?" + "&".join(f"{name}={value}" for name, value in query.items())
    reply = api.call("GET", path, user=user)
    assert reply.status == 200, reply.body
    return dict(present(reply.body))


def undo(api: Api, commit_id: str, user: str = "alice") -> Any:
    return api.call("POST", "/memory/undo", user=user, body={"commit_id": commit_id})


def set_mode(api: Api, mode: str, user: str = "alice") -> Any:
    return api.call("PUT", "/memory/settings", user=user, body={"write_mode": mode})


def records(api: Api, prefix: str) -> list[dict[str, Any]]:
    return [i for i in api.items("memory") if i["memory_type"]["S"].startswith(prefix)]


# -- history and provenance ---------------------------------------------------------------------


def test_each_commit_is_recorded_with_its_source_and_entry_changes(api: Api) -> None:
    # GIVEN a chat turn that saves a fact and a user's edit that replaces it
    turn = api.chat("remember: Deploys on Fridays.").body
    api.call(
        "PATCH",
        "/memory",
        body={
            "operations": [
                {"target": "memory", "action": "replace", "match": "Fridays", "content": "Never."}
            ]
        },
    )
    # WHEN the user reads the history
    items = history(api)["items"]
    # THEN newest first: the edit (no turn), then the chat turn, each with what changed
    assert [item["source"] for item in items] == ["edit", "chat"]
    assert items[0]["changes"] == [
        {
            "target": "memory",
            "action": "replace",
            "before": "Deploys on Fridays.",
            "after": "Never.",
        }
    ]
    assert "turn_id" not in items[0]
    assert items[1]["turn_id"] == turn["turn_id"]
    assert items[1]["commit_id"] == turn["memory"]["commit_id"]
    assert items[1]["changes"] == [
        {"target": "memory", "action": "add", "after": "Deploys on Fridays."}
    ]


def test_provenance_says_who_last_wrote_each_entry(api: Api) -> None:
    # GIVEN two facts from a chat turn, one of them replaced by the user
    turn = api.chat("remember: Uses SAM.\nremember: Editor: vim.").body
    api.call(
        "PATCH",
        "/memory",
        body={
            "operations": [
                {
                    "target": "memory",
                    "action": "replace",
                    "match": "vim",
                    "content": "Editor: nano.",
                }
            ]
        },
    )
    # WHEN the user reads memory
    document = api.call("GET", "/memory").body["memory"]
    # THEN provenance is aligned with the entries
    assert document["entries"] == ["Uses SAM.", "Editor: nano."]
    assert [(p["source"], p.get("turn_id")) for p in document["provenance"]] == [
        ("chat", turn["turn_id"]),
        ("edit", None),
    ]


def test_history_pages_with_a_cursor_and_rejects_a_bad_one(api: Api) -> None:
    # GIVEN three commits
    for fact in ("One.", "Two.", "Three."):
        api.chat(f"remember: {fact}")
    # WHEN the history is read two at a time
    first = history(api, limit=2)
    second = history(api, limit=2, cursor=first["next_cursor"])
    # THEN all three come, newest first, without repeats
    facts = [item["changes"][0]["after"] for item in first["items"] + second["items"]]
    assert facts == ["Three.", "Two.", "One."]
    assert second.get("next_cursor") is None
    assert api.call("GET", "/memory/history?cursor=not-a-cursor").status == 400
    assert api.call("GET", "/memory/history?limit=0").status == 422
    assert api.call("GET", "/memory/history?limit=51").status == 422


def test_a_read_only_turn_records_nothing(api: Api) -> None:
    api.chat("Just chatting.")
    assert history(api)["items"] == []
    assert records(api, "~") == []


def test_delete_history_erases_the_history_and_keeps_memory(api: Api) -> None:
    # GIVEN a saved fact with its history
    api.chat("remember: Uses SAM.")
    # WHEN the user erases the history
    reply = api.call("DELETE", "/memory/history")
    # THEN the history is gone, memory is not
    assert reply.status == 204
    assert history(api)["items"] == []
    assert api.memory()["memory"] == ["Uses SAM."]


# -- undo ---------------------------------------------------------------------------------------


def test_undo_reverts_a_commit_as_a_new_commit(api: Api) -> None:
    # GIVEN a kept fact and a turn that replaced it and added another
    api.chat("remember: Editor: vim.")
    turn = api.chat("update: vim => Editor: nano.\nremember: Likes tea.").body
    # WHEN the user undoes that turn
    reply = undo(api, turn["memory"]["commit_id"])
    # THEN memory is as before the turn; the undo is recorded (source undo, inverse changes)
    assert reply.status == 200
    assert reply.body["memory"]["entries"] == ["Editor: vim."]
    assert reply.body["memory"]["provenance"][0]["source"] == "undo"
    latest = history(api)["items"][0]
    assert latest["source"] == "undo"
    assert sorted(c["action"] for c in latest["changes"]) == ["remove", "replace"]


def test_undoing_twice_is_a_conflict_and_changes_nothing(api: Api) -> None:
    commit_id = api.chat("remember: Uses SAM.").body["memory"]["commit_id"]
    assert undo(api, commit_id).status == 200
    before = api.items("memory")

    reply = undo(api, commit_id)

    assert reply.status == 409
    assert reply.body["error"]["code"] == "undo_conflict"
    assert api.items("memory") == before


def test_undo_conflicts_when_a_touched_entry_changed_since(api: Api) -> None:
    # GIVEN a saved fact that the user has edited since
    commit_id = api.chat("remember: Editor: vim.").body["memory"]["commit_id"]
    api.call(
        "PATCH",
        "/memory",
        body={
            "operations": [
                {"target": "memory", "action": "replace", "match": "vim", "content": "Editor: vi."}
            ]
        },
    )
    before = api.items("memory")
    # WHEN the first commit is undone
    reply = undo(api, commit_id)
    # THEN 409 and nothing changed, nothing recorded
    assert reply.status == 409
    assert reply.body["error"]["code"] == "undo_conflict"
    assert api.items("memory") == before


@pytest.mark.parametrize("user", ["alice", OTHER])
def test_an_unknown_or_foreign_commit_is_not_found(api: Api, user: str) -> None:
    # GIVEN alice's commit
    commit_id = api.chat("remember: Uses SAM.").body["memory"]["commit_id"]
    unknown = new_turn_id()
    # WHEN bob undoes alice's commit, or alice an id that never existed
    reply = undo(api, commit_id if user == OTHER else unknown, user=user)
    # THEN the same 404 either way, and alice's memory is untouched
    assert reply.status == 404
    assert reply.body["error"]["code"] == "commit_not_found"
    assert api.memory()["memory"] == ["Uses SAM."]


def test_a_malformed_commit_id_is_a_400(api: Api) -> None:
    assert undo(api, "../settings").status == 400
    assert undo(api, "../settings").body["error"]["code"] == "invalid_commit_id"


def test_undo_after_forget_is_not_found(api: Api) -> None:
    # GIVEN a commit, then a forget
    commit_id = api.chat("remember: Uses SAM.").body["memory"]["commit_id"]
    assert api.call("DELETE", "/memory").status == 204
    # WHEN the user undoes the commit
    reply = undo(api, commit_id)
    # THEN nothing of it is left to undo: 404, and memory stays empty
    assert reply.status == 404
    assert api.memory() == {"user": [], "memory": []}


# -- write modes --------------------------------------------------------------------------------


def test_write_mode_defaults_to_auto_and_rejects_values_outside_the_enum(api: Api) -> None:
    assert api.call("GET", "/memory/settings").body == {"write_mode": "auto"}
    reply = set_mode(api, "sometimes")
    assert reply.status == 422
    assert "sometimes" not in str(reply.body)
    assert api.call("GET", "/memory/settings").body == {"write_mode": "auto"}


def test_setting_the_write_mode_keeps_the_other_settings(api: Api) -> None:
    # GIVEN a settings item that holds another attribute (the forget generation)
    api.client.put_item(
        TableName=api.tables.memory,
        Item={
            "user_id": {"S": "alice"},
            "memory_type": {"S": "settings"},
            "forget_generation": {"S": "g1"},
        },
    )
    # WHEN the user sets a write mode
    assert set_mode(api, "approve").body == {"write_mode": "approve"}
    # THEN only the write mode changed
    [item] = records(api, "settings")
    assert item["forget_generation"] == {"S": "g1"}
    assert item["write_mode"] == {"S": "approve"}


def test_read_only_mode_offers_no_tool_and_saves_nothing(api: Api) -> None:
    # GIVEN a stored fact and read-only mode
    api.chat("remember: Uses SAM.")
    set_mode(api, "read_only")
    # WHEN the model tries to save another
    reply = api.chat("remember: Likes tea.")
    # THEN the turn answers, its outcome is read_only, memory unchanged (the rules model says
    # memory is off when it is offered no tool)
    assert reply.status == 200
    assert reply.memory["status"] == "read_only"
    assert "off" in reply.body["reply"].lower()
    assert api.memory()["memory"] == ["Uses SAM."]
    # AND the user's own edits still apply
    patch = api.call(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "user", "action": "add", "content": "Ada."}]},
    )
    assert patch.status == 200


def test_approve_mode_turns_a_batch_into_a_proposal(api: Api) -> None:
    # GIVEN approve mode
    set_mode(api, "approve")
    # WHEN a turn saves a fact
    reply = api.chat("remember: Uses SAM.")
    # THEN it is proposed, not committed: memory unchanged, one pending proposal
    assert reply.memory["status"] == "proposed"
    assert "approve" in reply.body["reply"]  # the reply claims no save
    proposal_id = reply.memory["proposal_id"]
    assert api.memory()["memory"] == []
    [proposal] = present(api.call("GET", "/memory/proposals").body["items"])
    assert proposal["proposal_id"] == proposal_id
    assert proposal["turn_id"] == reply.body["turn_id"]
    assert proposal["operations"] == [{"target": "memory", "action": "add", "content": "Uses SAM."}]
    assert 0 <= 7 * 24 * 3600 * 1000 - (proposal["expires_at"] - proposal["created_at"]) < 1000
    # WHEN the user approves it
    approved = api.call("POST", f"/memory/proposals/{proposal_id}/approve")
    # THEN it applies once, is recorded as an approval, and is no longer pending
    assert approved.status == 200
    assert approved.body["memory"]["entries"] == ["Uses SAM."]
    assert approved.body["memory"]["provenance"][0]["source"] == "approval"
    assert history(api)["items"][0]["source"] == "approval"
    assert api.call("GET", "/memory/proposals").body["items"] == []
    # AND approving it again is a 404: never a second apply
    again = api.call("POST", f"/memory/proposals/{proposal_id}/approve")
    assert again.status == 404
    assert api.memory()["memory"] == ["Uses SAM."]


def test_a_rejected_proposal_is_never_applied(api: Api) -> None:
    set_mode(api, "approve")
    proposal_id = api.chat("remember: Uses SAM.").memory["proposal_id"]

    assert api.call("POST", f"/memory/proposals/{proposal_id}/reject").status == 204

    assert api.call("POST", f"/memory/proposals/{proposal_id}/approve").status == 404
    assert api.call("POST", f"/memory/proposals/{proposal_id}/reject").status == 404
    assert api.memory()["memory"] == []


def test_a_proposal_that_no_longer_applies_is_a_conflict_and_stays(api: Api) -> None:
    # GIVEN a proposal to replace a fact, and the user removing that fact meanwhile
    api.chat("remember: Editor: vim.")
    set_mode(api, "approve")
    proposal_id = api.chat("update: vim => Editor: nano.").memory["proposal_id"]
    api.call(
        "PATCH",
        "/memory",
        body={"operations": [{"target": "memory", "action": "remove", "match": "vim"}]},
    )
    # WHEN the user approves it
    reply = api.call("POST", f"/memory/proposals/{proposal_id}/approve")
    # THEN 409, nothing changed, and the proposal is still there to reject
    assert reply.status == 409
    assert reply.body["error"]["code"] == "proposal_conflict"
    assert api.memory()["memory"] == []
    assert len(api.call("GET", "/memory/proposals").body["items"]) == 1


def test_an_expired_proposal_is_not_found(api: Api) -> None:
    # GIVEN a proposal whose 7 days have passed (DynamoDB's TTL has not deleted it yet)
    set_mode(api, "approve")
    proposal_id = api.chat("remember: Uses SAM.").memory["proposal_id"]
    api.client.update_item(
        TableName=api.tables.memory,
        Key={"user_id": {"S": "alice"}, "memory_type": {"S": f"~proposal#{proposal_id}"}},
        UpdateExpression="SET expires_at = :past",
        ExpressionAttributeValues={":past": {"N": "1"}},
    )
    # THEN it is neither listed nor approvable
    assert api.call("GET", "/memory/proposals").body["items"] == []
    assert api.call("POST", f"/memory/proposals/{proposal_id}/approve").status == 404


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_foreign_unknown_and_malformed_proposal_ids(api: Api, action: str) -> None:
    set_mode(api, "approve")
    proposal_id = api.chat("remember: Uses SAM.").memory["proposal_id"]

    foreign = api.call("POST", f"/memory/proposals/{proposal_id}/{action}", user=OTHER)
    unknown = api.call("POST", f"/memory/proposals/{new_turn_id()}/{action}")
    malformed = api.call("POST", f"/memory/proposals/not-an-id/{action}")

    assert (foreign.status, unknown.status, malformed.status) == (404, 404, 400)
    assert foreign.body == unknown.body
    assert malformed.body["error"]["code"] == "invalid_proposal_id"
    assert len(api.call("GET", "/memory/proposals").body["items"]) == 1


# -- forget -------------------------------------------------------------------------------------


def test_forget_removes_documents_history_and_proposals_but_keeps_the_mode(api: Api) -> None:
    # GIVEN a fact with history, then a pending proposal
    api.chat("remember: Uses SAM.")
    set_mode(api, "approve")
    api.chat("remember: Likes tea.")
    assert records(api, "~history#")
    assert records(api, "~proposal#")
    # WHEN the user forgets everything
    assert api.call("DELETE", "/memory").status == 204
    # THEN documents, history and proposals are gone; the write mode stays
    assert api.memory() == {"user": [], "memory": []}
    assert records(api, "~") == []
    assert api.call("GET", "/memory/settings").body == {"write_mode": "approve"}
