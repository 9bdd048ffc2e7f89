"""POST /chat through the real handler: the turn protocol's invariants, end to end."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from typing import Any

import pytest
from handler_support import Api, cold_start_with, new_turn_id

from agent_memory.models import Message, ModelResponse, RulesModel, ToolSpec
from agent_memory.repository import MemoryRepository, RepositoryError
from agent_memory.service import chat_service


def test_a_remembered_fact_is_committed_and_shown(api: Api) -> None:
    # GIVEN an authenticated user with empty memory
    # WHEN a turn asks the model to remember two facts
    reply = api.chat("remember: The project uses Python 3.13.\nabout me: Prefers short answers.")

    # THEN the turn commits both and the documents hold them
    assert reply.status == 200
    assert reply.memory["status"] == "committed"
    assert reply.memory["operations"] == 2
    assert reply.memory["memory"] == {"chars": len("The project uses Python 3.13."), "limit": 2200}
    assert api.memory() == {
        "user": ["Prefers short answers."],
        "memory": ["The project uses Python 3.13."],
    }


def test_a_read_only_turn_is_unchanged(api: Api) -> None:
    reply = api.chat("hello there")
    assert reply.status == 200
    assert reply.memory["status"] == "unchanged"
    assert api.items("ledger") == []


@pytest.mark.parametrize(
    "attempt",
    [
        {"body_extra": {"user_id": "bob"}},
        {"body_extra": {"sub": "bob"}},
    ],
)
def test_the_body_cannot_choose_the_owner(api: Api, attempt: dict[str, Any]) -> None:
    # GIVEN a request body that names another user
    reply = api.call(
        "POST", "/chat", user="alice", body={"message": "remember: mine", **attempt["body_extra"]}
    )

    # THEN the request is rejected and nothing is written for anyone
    assert reply.status == 422
    assert reply.body["error"]["code"] == "invalid_request"
    assert api.items("memory") == []


def test_headers_cannot_choose_the_owner(api: Api) -> None:
    # WHEN a client adds identity-looking headers
    reply = api.call(
        "POST",
        "/chat",
        user="alice",
        body={"message": "remember: fact of alice"},
        headers={"X-User-Id": "bob", "X-Amz-User": "bob"},
    )
    # THEN the authorizer's sub still owns the write
    assert reply.memory["status"] == "committed"
    assert api.memory("alice")["memory"] == ["fact of alice"]
    assert api.memory("bob")["memory"] == []


def test_the_tool_rejects_an_identity_argument(api: Api) -> None:
    # GIVEN a model that tries to pass a user id to the tool
    arguments = {
        "user_id": "bob",
        "operations": [{"target": "memory", "action": "add", "content": "planted"}],
    }
    reply = api.chat("memory_update: " + json.dumps(arguments), user="alice")

    # THEN the call is rejected by the tool's schema and nothing is written anywhere
    assert reply.status == 200
    assert reply.memory["status"] == "unchanged"
    assert api.items("memory") == []


def test_a_failed_turn_commits_nothing(api: Api) -> None:
    # WHEN the model fails after staging a fact
    reply = api.chat("remember: staged then lost\nsimulate: fail")

    # THEN the client gets a clear error, memory is untouched, the ledger says discarded
    assert reply.status == 502
    assert reply.body["error"]["code"] == "model_error"
    assert api.memory()["memory"] == []
    [ledger] = api.items("ledger")
    assert ledger["status"]["S"] == "discarded"


def test_a_turn_cancelled_while_running_commits_nothing(api: Api) -> None:
    # GIVEN a slow turn that has staged a fact
    turn_id = new_turn_id()
    replies: list[Any] = []
    worker = threading.Thread(
        target=lambda: replies.append(
            api.chat("remember: never saved\nsimulate: sleep 1.5", turn_id=turn_id)
        )
    )
    worker.start()

    # WHEN the user cancels it while the model is still working
    _wait_for_ledger(api, turn_id)
    cancelled = api.cancel(turn_id)
    worker.join()

    # THEN the cancel succeeds, the turn reports cancelled and nothing is stored
    assert cancelled.status == 200
    assert cancelled.body == {"turn_id": turn_id, "status": "cancelled"}
    assert replies[0].status == 200
    assert replies[0].memory["status"] == "cancelled"
    assert api.memory()["memory"] == []


def test_a_turn_cancelled_before_it_started_commits_nothing(api: Api) -> None:
    turn_id = new_turn_id()
    assert api.cancel(turn_id).status == 200

    reply = api.chat("remember: too late", turn_id=turn_id)

    assert reply.memory["status"] == "cancelled"
    assert api.memory()["memory"] == []


def test_a_read_failure_disables_writes(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    # GIVEN memory that cannot be read this turn
    def failing_load(self: MemoryRepository, user_id: str) -> Any:
        raise RepositoryError("ProvisionedThroughputExceededException")

    monkeypatch.setattr(MemoryRepository, "load", failing_load)

    # WHEN the model tries to remember something
    reply = api.chat("remember: written over unknown state")

    # THEN the turn still answers, says memory is unavailable, and writes nothing
    assert reply.status == 200
    assert reply.memory["status"] == "unavailable"
    monkeypatch.undo()
    assert api.items("memory") == []
    assert api.items("ledger") == []


def test_the_fallback_model_never_runs_after_a_staged_write(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a fallback model configured
    cold_start_with(monkeypatch, FALLBACK_MODEL_ID="rules-fallback")

    # WHEN the primary fails after staging a write
    reply = api.chat("remember: staged by the primary\nsimulate: fail")

    # THEN the turn fails instead of letting the fallback answer over the staged write
    assert reply.status == 502
    assert api.memory()["memory"] == []


def test_a_non_uuid_idempotency_key_is_rejected(api: Api) -> None:
    reply = api.chat("remember: x", turn_id="not-a-uuid")
    assert reply.status == 400
    assert reply.body["error"]["code"] == "invalid_idempotency_key"
    assert api.items("ledger") == []


def test_a_retried_turn_adds_nothing_twice(api: Api) -> None:
    turn_id = new_turn_id()
    first = api.chat("remember: once only", turn_id=turn_id)
    second = api.chat("remember: once only", turn_id=turn_id)

    # The retry replays the first answer (test_chat_retries.py has the whole protocol)
    assert first.memory["status"] == "committed"
    assert second.body == first.body
    assert second.headers.get("Idempotent-Replayed") == "true"
    assert api.memory()["memory"] == ["once only"]


def test_without_the_idempotency_table_a_retry_still_commits_nothing_twice(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a chat function deployed without its idempotency table
    cold_start_with(monkeypatch, IDEMPOTENCY_TABLE_NAME=None)
    turn_id = new_turn_id()
    first = api.chat("remember: once only", turn_id=turn_id)
    second = api.chat("remember: once only", turn_id=turn_id)

    # THEN the ledger alone refuses the second commit of a completed turn
    assert first.memory["status"] == "committed"
    assert second.memory["status"] == "conflict"
    assert second.memory["reason"] == "turn_id_reused"
    assert api.memory()["memory"] == ["once only"]


@pytest.mark.parametrize(
    ("body", "headers", "status", "code"),
    [
        ("{not json", None, 400, "invalid_json"),
        (json.dumps({"message": ""}), None, 422, "invalid_request"),
        (json.dumps({"message": "x" * 16_001}), None, 422, "invalid_request"),
        (
            json.dumps({"message": "x", "history": [{"role": "user", "content": "y"}] * 41}),
            None,
            422,
            "invalid_request",
        ),
        (
            json.dumps({"message": "x", "history": [{"role": "system", "content": "y"}]}),
            None,
            422,
            "invalid_request",
        ),
        (
            json.dumps({"message": "x"}),
            {"content-type": "text/plain"},
            415,
            "unsupported_media_type",
        ),
        (json.dumps({"message": "x" * (1_048_577)}), None, 413, "body_too_large"),
    ],
)
def test_bad_input_gets_a_clear_4xx_and_leaves_nothing(
    api: Api, body: str, headers: dict[str, str] | None, status: int, code: str
) -> None:
    reply = api.call("POST", "/chat", raw_body=body, headers=headers)
    assert reply.status == status
    assert reply.body["error"]["code"] == code
    assert api.items("memory") == []
    assert api.items("ledger") == []


def test_a_missing_identity_is_401(api: Api) -> None:
    reply = api.chat("remember: x", user=None)
    assert reply.status == 401
    assert reply.body["error"]["code"] == "unauthenticated"


def test_the_memory_flag_off_reads_and_writes_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN stored memory, then the flag turned off
    api.chat("remember: survives the rollback")
    monkeypatch.setenv("MEMORY_ENABLED", "false")
    before = api.items("memory")

    # WHEN a turn asks to remember and forget
    reply = api.chat("remember: not while off\nforget: survives")

    # THEN nothing is read or written, and turning the flag back on finds the data intact
    assert reply.memory["status"] == "disabled"
    assert api.items("memory") == before
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    assert api.memory()["memory"] == ["survives the rollback"]


class _PromptSpy:
    """Wraps the rules model and records the system prompt each turn saw."""

    name = "spy"

    def __init__(self) -> None:
        self.inner = RulesModel()
        self.prompts: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        first = messages[-1]
        key = getattr(first, "text", "")
        with self.lock:
            self.prompts.setdefault(key.split("\n")[0], []).append(system)
        return self.inner.complete(
            system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
        )


def test_request_context_never_leaks_between_concurrent_users(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN two users with their own facts, and a model that records every prompt
    api.chat("remember: alice-secret-fact", user="alice")
    api.chat("remember: bob-secret-fact", user="bob")
    spy = _PromptSpy()
    monkeypatch.setattr(chat_service(), "_model", spy)

    # WHEN both chat at the same time on the same warm container, several times
    def turns(user: str) -> None:
        for index in range(4):
            api.chat(f"turn {user} {index}\nsimulate: sleep 0.05", user=user)

    threads = [threading.Thread(target=turns, args=(user,)) for user in ("alice", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # THEN each prompt held its own user's memory only
    for key, prompts in spy.prompts.items():
        user = key.split()[1]
        other = "bob" if user == "alice" else "alice"
        for prompt in prompts:
            assert f"{user}-secret-fact" in prompt
            assert f"{other}-secret-fact" not in prompt
    assert len(spy.prompts) == 8


def _wait_for_ledger(api: Api, turn_id: str) -> None:
    import time

    for _ in range(200):
        if any(item["turn_id"]["S"] == turn_id for item in api.items("ledger")):
            return
        time.sleep(0.01)
    raise AssertionError("the turn never opened its ledger")


class _ToolSpy:
    """Records, for every model call, the tools offered and the memory scope in force."""

    name = "tool-spy"

    def __init__(self) -> None:
        self.inner = RulesModel()
        self.calls: list[tuple[tuple[str, ...], Any]] = []

    def complete(
        self,
        *,
        system: str,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        budget_seconds: float | None = None,
    ) -> ModelResponse:
        from agent_memory.ledger import current_memory_request

        self.calls.append((tuple(tool.name for tool in tools), current_memory_request.get()))
        return self.inner.complete(
            system=system, messages=messages, tools=tools, budget_seconds=budget_seconds
        )


def test_the_memory_tool_is_offered_only_to_authenticated_turns_with_the_flag_on(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_memory.service import eval_service

    # GIVEN spies on the authenticated and the evaluation chat
    chat_spy, eval_spy = _ToolSpy(), _ToolSpy()
    monkeypatch.setattr(chat_service(), "_model", chat_spy)
    monkeypatch.setattr(eval_service(), "_model", eval_spy)

    # WHEN a turn runs with the flag on, then off, and on the eval route
    api.chat("hello", user="alice")
    monkeypatch.setenv("MEMORY_ENABLED", "false")
    api.chat("hello again", user="alice")
    monkeypatch.setenv("MEMORY_ENABLED", "true")
    api.call("POST", "/eval/chat", user=None, body={"message": "hello"})

    # THEN only the first saw memory_update, inside alice's request scope
    (on_tools, on_scope), (off_tools, off_scope) = chat_spy.calls
    assert on_tools == ("memory_update",)
    assert (on_scope.user_id, on_scope.writes_enabled) == ("alice", True)
    assert (off_tools, off_scope) == ((), None)
    assert eval_spy.calls == [((), None)]


def test_the_fallback_answers_when_the_primary_fails_before_staging(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    cold_start_with(monkeypatch, FALLBACK_MODEL_ID="rules-fallback")
    # WHEN the primary fails on a turn that staged nothing, then remembers on the fallback
    reply = api.chat("simulate: fail\nremember: said to the fallback")

    # THEN the fallback (which ignores simulate:) answered and its write committed
    assert reply.status == 200
    assert reply.memory["status"] == "committed"
    assert api.memory()["memory"] == ["said to the fallback"]


def test_a_turn_that_runs_out_of_time_is_a_json_504_and_commits_nothing(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN a 1.6 s turn budget (1.5 s of it is the safety margin)
    cold_start_with(monkeypatch, TURN_DEADLINE_SECONDS="1.6")

    # WHEN the model stages a fact, then is too slow
    reply = api.chat("remember: too late\nsimulate: sleep 0.3\nremember: also late")

    # THEN the client gets the turn_timeout error and nothing is stored
    assert reply.status == 504
    assert reply.body["error"]["code"] == "turn_timeout"
    assert api.memory()["memory"] == []
    [ledger] = api.items("ledger")
    assert ledger["status"]["S"] == "discarded"
