"""Idempotent retries of POST /chat (DESIGN.md "The turn protocol", step 2), through the
real chat handler, with Powertools' idempotency records in moto (the template's table)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from handler_support import Api, Reply, new_turn_id

from agent_memory.models import ModelError
from agent_memory.models.rules import RulesModel

REMEMBER = "remember: my phone is a Pixel"


class ModelCalls:
    """Counts the rules model's calls; ``fail_once_at`` makes that call (1-based, counted
    over the whole test) raise a model error, once."""

    def __init__(self) -> None:
        self.count = 0
        self.fail_once_at: int | None = None


@pytest.fixture
def model_calls(monkeypatch: pytest.MonkeyPatch) -> ModelCalls:
    calls = ModelCalls()
    complete = RulesModel.complete

    def counting(self: RulesModel, **kwargs: Any) -> Any:
        calls.count += 1
        if calls.fail_once_at == calls.count:
            calls.fail_once_at = None
            raise ModelError("injected outage", code="ServiceUnavailable", retryable=True)
        return complete(self, **kwargs)

    monkeypatch.setattr(RulesModel, "complete", counting)
    return calls


def idempotency_items(api: Api) -> list[dict[str, Any]]:
    table = api.tables.idempotency
    return list(api.client.scan(TableName=table, ConsistentRead=True).get("Items", []))


def ledger_status(api: Api, turn_id: str) -> str:
    [item] = [item for item in api.items("ledger") if item["turn_id"]["S"] == turn_id]
    return str(item["status"]["S"])


def test_the_same_key_and_body_replay_the_first_response_without_running_the_model(
    api: Api, model_calls: ModelCalls
) -> None:
    # GIVEN a turn that committed a fact under an Idempotency-Key
    turn_id = new_turn_id()
    first = api.chat(REMEMBER, turn_id=turn_id)
    assert first.memory["status"] == "committed"
    calls_of_the_turn = model_calls.count

    # WHEN the phone, which lost that answer, sends the very same request again
    retry = api.chat(REMEMBER, turn_id=turn_id)

    # THEN it gets the first response (status and body), marked as replayed, and the model
    # never ran again: memory holds the fact once
    assert retry.status == first.status == 200
    assert retry.body == first.body
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert model_calls.count == calls_of_the_turn
    assert api.memory()["memory"] == ["my phone is a Pixel"]
    assert ledger_status(api, turn_id) == "committed"


def test_a_retry_while_the_first_attempt_runs_is_409_turn_in_progress(
    api: Api, model_calls: ModelCalls
) -> None:
    # GIVEN a first attempt that is still running (the model takes its time)
    turn_id = new_turn_id()
    message = f"{REMEMBER}\nsimulate: sleep 1.5"
    replies: list[Reply] = []
    first = threading.Thread(target=lambda: replies.append(api.chat(message, turn_id=turn_id)))
    first.start()
    _wait_for(lambda: bool(idempotency_items(api)))

    # WHEN the client retries meanwhile
    retry = api.chat(message, turn_id=turn_id)
    first.join()

    # THEN the retry is told the turn is still running, and the first attempt commits once
    assert retry.status == 409
    assert retry.body["error"]["code"] == "turn_in_progress"
    assert replies[0].memory["status"] == "committed"
    # AND a retry after it finished gets its response
    later = api.chat(message, turn_id=turn_id)
    assert later.headers.get("Idempotent-Replayed") == "true"
    assert later.body == replies[0].body
    assert api.memory()["memory"] == ["my phone is a Pixel"]


def test_the_same_key_with_another_body_is_422_and_runs_nothing(
    api: Api, model_calls: ModelCalls
) -> None:
    # GIVEN a committed turn
    turn_id = new_turn_id()
    assert api.chat(REMEMBER, turn_id=turn_id).memory["status"] == "committed"
    calls_of_the_turn = model_calls.count

    # WHEN the same key comes with another message
    reused = api.chat("remember: my phone is an iPhone", turn_id=turn_id)

    # THEN it is refused, without echoing anything, and nothing ran or changed
    assert reused.status == 422
    assert reused.body["error"]["code"] == "idempotency_key_reused"
    assert "iPhone" not in reused.body["error"]["message"]
    assert model_calls.count == calls_of_the_turn
    assert api.memory()["memory"] == ["my phone is a Pixel"]


def test_a_retry_after_a_5xx_runs_as_a_new_attempt_and_commits_exactly_once(
    api: Api, model_calls: ModelCalls
) -> None:
    # GIVEN a first attempt that staged the fact, then failed at the model (a 502)
    turn_id = new_turn_id()
    model_calls.fail_once_at = 2  # call 1 stages the write, call 2 would answer
    failed = api.chat(REMEMBER, turn_id=turn_id)
    assert failed.status == 502
    assert ledger_status(api, turn_id) == "discarded"
    assert api.memory()["memory"] == []

    # WHEN the client retries the same request
    retry = api.chat(REMEMBER, turn_id=turn_id)

    # THEN the model runs again and this attempt of the same turn commits
    assert retry.status == 200
    assert "Idempotent-Replayed" not in retry.headers
    assert retry.body["turn_id"] == turn_id
    assert retry.memory["status"] == "committed"
    assert model_calls.count == 4
    assert ledger_status(api, turn_id) == "committed"
    # AND a further retry replays that success: the fact is there once
    again = api.chat(REMEMBER, turn_id=turn_id)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.body == retry.body
    assert model_calls.count == 4
    assert api.memory()["memory"] == ["my phone is a Pixel"]


def test_two_users_with_the_same_key_never_meet(api: Api, model_calls: ModelCalls) -> None:
    # GIVEN alice's committed turn under a key
    turn_id = new_turn_id()
    alice = api.chat(REMEMBER, turn_id=turn_id, user="alice")

    # WHEN bob sends another message with the same key, then the same message
    bob = api.chat("remember: bob likes tea", turn_id=turn_id, user="bob")

    # THEN bob's turn runs as his own: no replay of alice's answer, no 422
    assert alice.memory["status"] == "committed"
    assert bob.status == 200
    assert "Idempotent-Replayed" not in bob.headers
    assert bob.memory["status"] == "committed"
    assert api.memory("alice")["memory"] == ["my phone is a Pixel"]
    assert api.memory("bob")["memory"] == ["bob likes tea"]
    assert len(idempotency_items(api)) == 2


def test_without_a_key_every_request_is_a_new_turn(api: Api, model_calls: ModelCalls) -> None:
    first = api.chat("hello")
    second = api.chat("hello")

    assert first.body["turn_id"] != second.body["turn_id"]
    assert "Idempotent-Replayed" not in second.headers
    assert model_calls.count == 2
    assert idempotency_items(api) == []


def test_stored_responses_expire_after_an_hour_and_name_no_user(api: Api) -> None:
    # WHEN a turn with a key answers
    turn_id = new_turn_id()
    before = int(time.time())
    api.chat(REMEMBER, turn_id=turn_id, user="alice")

    # THEN its record expires by TTL an hour later, and its key is a hash (no user id,
    # no turn id in the clear)
    [item] = idempotency_items(api)
    assert item["status"]["S"] == "COMPLETED"
    assert before + 3600 <= int(item["expiration"]["N"]) <= int(time.time()) + 3600
    assert "alice" not in item["id"]["S"]
    assert turn_id not in item["id"]["S"]


def test_a_failed_attempt_releases_its_key(api: Api, model_calls: ModelCalls) -> None:
    model_calls.fail_once_at = 1
    failed = api.chat("hello", turn_id=new_turn_id())

    assert failed.status == 502
    assert idempotency_items(api) == []


def _wait_for(condition: Any, timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    raise AssertionError("the condition never held")


def _failing(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("injected: the idempotency table cannot be reached")


def _calls_of_one_turn(api: Api, model_calls: ModelCalls) -> int:
    """How many model calls a one-fact turn makes (a keyless turn of another fact)."""
    before = model_calls.count
    assert api.chat("remember: my laptop is a ThinkPad").memory["status"] == "committed"
    return model_calls.count - before


def test_an_unreachable_idempotency_store_runs_the_turn_as_without_a_key(
    api: Api, model_calls: ModelCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN an idempotency table that cannot take the in-progress record
    from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

    monkeypatch.setattr(DynamoDBPersistenceLayer, "_put_record", _failing)
    one_turn = _calls_of_one_turn(api, model_calls)

    # WHEN a keyed turn comes in
    turn_id = new_turn_id()
    before = model_calls.count
    reply = api.chat(REMEMBER, turn_id=turn_id)

    # THEN it runs once and commits (the ledger still allows one commit), not a 5xx
    assert reply.status == 200
    assert reply.memory["status"] == "committed"
    assert model_calls.count - before == one_turn
    assert api.memory()["memory"] == ["my laptop is a ThinkPad", "my phone is a Pixel"]
    assert idempotency_items(api) == []


def test_a_response_the_store_could_not_keep_is_still_answered_once(
    api: Api, model_calls: ModelCalls, monkeypatch: pytest.MonkeyPatch
) -> None:
    # GIVEN an idempotency table that takes the claim but fails to store the response
    from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

    monkeypatch.setattr(DynamoDBPersistenceLayer, "_update_record", _failing)
    one_turn = _calls_of_one_turn(api, model_calls)

    # WHEN a keyed turn comes in
    turn_id = new_turn_id()
    before = model_calls.count
    reply = api.chat(REMEMBER, turn_id=turn_id)

    # THEN the turn's own answer comes back (it committed), and the model ran only once:
    # failing to store the answer never runs the turn a second time
    assert reply.status == 200
    assert reply.memory["status"] == "committed"
    assert "Idempotent-Replayed" not in reply.headers
    assert model_calls.count - before == one_turn
    assert api.memory()["memory"] == ["my laptop is a ThinkPad", "my phone is a Pixel"]
