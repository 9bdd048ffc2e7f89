"""The local stack over HTTP: memory across turns, user isolation by every route, tokens."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import jwt
import pytest
from stack_support import REPO_ROOT, Reply, RunningStack, new_turn_id

from agent_memory_tools.dev_auth import DevIssuer

pytestmark = pytest.mark.slow


def test_remember_persists_across_turns_and_the_user_can_correct_and_forget_it(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN two turns that each remember a fact
    first = stack.chat(alice, "remember: I deploy with SAM")
    second = stack.chat(alice, "hello\nremember: my editor is Helix")

    # THEN both committed and GET /memory shows both, in order
    assert (first.status, first.body["memory"]["status"]) == (200, "committed"), first
    assert (second.status, second.body["memory"]["status"]) == (200, "committed"), second
    assert stack.memory(alice)["memory"] == ["I deploy with SAM", "my editor is Helix"]

    # WHEN the user corrects one entry with PATCH
    corrected = stack.request(
        "PATCH",
        "/memory",
        token=alice,
        json_body={
            "operations": [
                {
                    "target": "memory",
                    "action": "replace",
                    "match": "Helix",
                    "content": "my editor is Neovim",
                }
            ]
        },
    )
    # THEN the documents come back corrected
    assert corrected.status == 200, corrected
    assert corrected.body["memory"]["entries"] == ["I deploy with SAM", "my editor is Neovim"]

    # WHEN the user forgets everything
    forgotten = stack.request("DELETE", "/memory", token=alice)
    # THEN 204 and both documents are empty
    assert forgotten.status == 204
    assert stack.memory(alice) == {"user": [], "memory": []}


def test_user_b_never_sees_or_changes_user_a_memory_by_any_route(
    stack: RunningStack, alice: str, bob: str
) -> None:
    # GIVEN A's memory and A's user id
    assert stack.chat(alice, "remember: alice secret fact").body["memory"]["status"] == "committed"
    alice_sub = _subject(alice)
    tricks = {"X-User-Id": alice_sub, "X-Amzn-Oidc-Identity": alice_sub}

    # WHEN B reads, also claiming to be A by header and query string
    as_b = stack.request("GET", f"/memory?user_id={alice_sub}", token=bob, headers=tricks)
    # THEN B sees its own (empty) memory
    assert as_b.status == 200
    assert as_b.body["memory"]["entries"] == []
    assert as_b.body["user"]["entries"] == []

    # WHEN B tries to remove or replace A's entry
    removal = stack.request(
        "PATCH",
        "/memory",
        token=bob,
        headers=tricks,
        json_body={
            "operations": [{"target": "memory", "action": "remove", "match": "alice secret"}]
        },
    )
    # THEN it finds nothing to change (B's memory has no such entry)
    assert removal.status == 422, removal

    # WHEN B smuggles an owner into the bodies
    smuggled_patch = stack.request(
        "PATCH",
        "/memory",
        token=bob,
        json_body={
            "user_id": alice_sub,
            "operations": [{"target": "memory", "action": "add", "content": "x"}],
        },
    )
    smuggled_chat = stack.request(
        "POST",
        "/chat",
        token=bob,
        json_body={"message": "remember: injected", "user_id": alice_sub},
    )
    # THEN the contract refuses unknown fields
    assert smuggled_patch.status == 422
    assert smuggled_chat.status == 422

    # WHEN B chats and forgets while claiming A's identity in headers
    written = stack.chat(bob, "remember: written by bob", **tricks)
    deleted = stack.request("DELETE", "/memory", token=bob, headers=tricks)
    # THEN B's write went to B's memory and B's delete removed only B's memory
    assert written.body["memory"]["status"] == "committed"
    assert deleted.status == 204
    assert stack.memory(bob)["memory"] == []
    assert stack.memory(alice)["memory"] == ["alice secret fact"]


def test_user_b_cannot_cancel_user_a_turn(stack: RunningStack, alice: str, bob: str) -> None:
    # GIVEN a slow turn of A with a known turn id
    turn_id = new_turn_id()
    replies: list[Reply] = []
    worker = threading.Thread(
        target=lambda: replies.append(
            stack.chat(alice, "remember: alice keeps this\nsimulate: sleep 1.5", turn_id=turn_id)
        )
    )
    worker.start()
    try:
        # WHEN B cancels A's turn id while it runs
        stack.cancel(bob, turn_id)
    finally:
        worker.join(timeout=20)

    # THEN A's turn commits anyway: B only ever touched B's own ledger
    (reply,) = replies
    assert (reply.status, reply.body["memory"]["status"]) == (200, "committed"), reply
    assert stack.memory(alice)["memory"] == ["alice keeps this"]
    assert stack.cancel(alice, turn_id).status == 409  # committed: A's own cancel is too late


def test_missing_token_is_401_and_a_forged_or_expired_token_is_403(
    stack: RunningStack, issuer: DevIssuer, tmp_path: Path
) -> None:
    # GIVEN a token signed by another key (same issuer and audience), and others that are bad
    forger = DevIssuer(tmp_path / "forger")
    bad_tokens = {
        "forged": forger.mint("alice"),
        "expired": issuer.mint("alice", exp=1_000_000_000),
        "garbage": "not-a-jwt",
    }

    # WHEN each calls a user route
    missing = stack.request("GET", "/memory")
    empty = stack.request("GET", "/memory", headers={"Authorization": ""})
    denied = {
        name: stack.request("GET", "/memory", token=token) for name, token in bad_tokens.items()
    }
    wrong_scheme = stack.request(
        "GET", "/memory", headers={"Authorization": f"Basic {issuer.mint('alice')}"}
    )

    # THEN no token is 401, a bad one 403, with exactly the bodies API Gateway sends
    assert (missing.status, missing.body) == (401, {"message": "Unauthorized"})
    assert empty.status == 401
    assert {name: reply.status for name, reply in denied.items()} == dict.fromkeys(bad_tokens, 403)
    assert all(reply.body == {"message": "Forbidden"} for reply in denied.values()), denied
    assert wrong_scheme.status == 403


def test_eval_route_needs_no_token_locally_and_never_touches_memory(
    stack: RunningStack, alice: str
) -> None:
    # GIVEN the memory-free evaluation route (AWS_IAM in the cloud, open locally)
    # WHEN it is asked to remember something
    reply = stack.request("POST", "/eval/chat", json_body={"message": "remember: eval fact"})

    # THEN it answers without memory
    assert reply.status == 200, reply
    assert reply.body["memory"]["status"] == "disabled"
    assert stack.memory(alice)["memory"] == []


def test_the_banner_token_command_mints_a_token_the_stack_accepts(
    stack: RunningStack, issuer_dir: Path
) -> None:
    # GIVEN the command the banner tells a newcomer to run
    minted = subprocess.run(
        [sys.executable, "-m", "agent_memory_tools.cli.main", "token", "newcomer"],
        cwd=REPO_ROOT,
        env={**_env_without_issuer_dir(), "AGENT_MEMORY_DEV_ISSUER_DIR": str(issuer_dir)},
        capture_output=True,
        text=True,
        check=True,
    )

    # WHEN its output is used as a bearer token
    reply = stack.request("GET", "/memory", token=minted.stdout.strip())

    # THEN the stack accepts it
    assert reply.status == 200, reply
    assert "TOKEN=$(" in stack.log()
    assert "token alice)" in stack.log()


def _subject(token: str) -> str:
    return str(jwt.decode(token, options={"verify_signature": False})["sub"])


def _env_without_issuer_dir() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "AGENT_MEMORY_DEV_ISSUER_DIR"}
