from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from agent_memory.domain import (
    MAX_FAILED_TOOL_CALLS,
    MEMORY_UPDATE_TOOL_NAME,
    WITHHELD_PLACEHOLDER,
    MemoryToolSession,
    MemoryValidationError,
    Operation,
    Snapshot,
    apply_operations,
    failure_result,
    memory_update_json_schema,
    parse_tool_arguments,
    stop_result,
    success_result,
    unavailable_result,
)

# The seed's "parameters", verbatim. The top level also forbids extra properties, as the
# pydantic model does: the tool accepts no argument besides "operations" (no user_id).
SEED_PARAMETERS = json.loads(
    """
{
    "type": "object",
    "properties": {
      "operations": {
        "type": "array",
        "minItems": 1,
        "maxItems": 20,
        "items": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "target": {"enum": ["user", "memory"]},
            "action": {"enum": ["add", "replace", "remove"]},
            "match": {"type": ["string", "null"]},
            "content": {"type": ["string", "null"]}
          },
          "required": ["target", "action"]
        }
      }
    },
    "required": ["operations"]
}
"""
)

SENTINEL = "QSENTINELQ"


def add(content: str, target: str = "memory") -> dict[str, Any]:
    return {"target": target, "action": "add", "content": content}


def invalid_arguments(raw: object) -> MemoryValidationError:
    with pytest.raises(MemoryValidationError) as caught:
        parse_tool_arguments(raw)
    assert caught.value.code == "invalid_arguments"
    return caught.value


# --- schema ------------------------------------------------------------------------------


def test_the_schema_is_the_seeds() -> None:
    assert MEMORY_UPDATE_TOOL_NAME == "memory_update"
    assert memory_update_json_schema() == {**SEED_PARAMETERS, "additionalProperties": False}


def test_the_schema_has_no_identity_field_anywhere() -> None:
    # GIVEN the schema as the model sees it
    text = json.dumps(memory_update_json_schema()).lower()

    # THEN no identity-like field, and nothing provider-specific, appears
    for forbidden in ("user_id", "userid", "owner", "identity", "subject", "$defs", "title"):
        assert forbidden not in text


# --- parsing -----------------------------------------------------------------------------


def test_arguments_parse_from_a_dict_or_a_json_string() -> None:
    # GIVEN the same arguments as a provider might send them
    arguments = {"operations": [add("fact"), {"target": "user", "action": "remove", "match": "x"}]}
    expected = [
        Operation(target="memory", action="add", content="fact"),
        Operation(target="user", action="remove", match="x"),
    ]

    # WHEN / THEN dict, JSON text and bytes give the same operations
    assert parse_tool_arguments(arguments) == expected
    assert parse_tool_arguments(json.dumps(arguments)) == expected
    assert parse_tool_arguments(json.dumps(arguments).encode()) == expected


@pytest.mark.parametrize(
    "raw",
    [
        {"operations": [add("fact")], "user_id": "someone-else"},
        {"operations": [{**add("fact"), "user_id": "someone-else"}]},
        {"operations": [{**add("fact"), "owner": "x"}]},
    ],
    ids=["top-level", "in-operation", "any-extra-key"],
)
def test_an_identity_can_never_be_passed(raw: object) -> None:
    error = invalid_arguments(raw)
    assert "unexpected field" in error.message
    assert "someone-else" not in error.message


@pytest.mark.parametrize(
    ("raw", "phrase"),
    [
        ("{not json", "not valid JSON"),
        ([add("fact")], "must be an object"),
        ({}, "operations is required"),
        ({"operations": []}, "1 to 20"),
        ({"operations": [add(f"f{i}") for i in range(21)]}, "1 to 20"),
        ({"operations": add("fact")}, "must be a list"),
        ({"operations": [{"action": "add", "content": "x"}]}, "operations[0].target is required"),
        ({"operations": [add("x", target="admin")]}, "'user' or 'memory'"),
        ({"operations": [{**add("x"), "action": "append"}]}, "operations[0].action must be"),
        ({"operations": [{**add("x"), "content": 42}]}, "string or null"),
        (None, "must be an object"),
    ],
)
def test_schema_violations_are_rejected_clearly(raw: object, phrase: str) -> None:
    assert phrase in invalid_arguments(raw).message


def test_parse_errors_never_quote_values_or_keys() -> None:
    # GIVEN bad arguments whose values and unknown keys carry a sentinel
    raw = {
        "operations": [
            {"target": SENTINEL, "action": SENTINEL, "content": 7, SENTINEL: SENTINEL},
        ],
        SENTINEL: SENTINEL,
    }

    # WHEN / THEN
    assert SENTINEL not in invalid_arguments(raw).message
    assert SENTINEL not in invalid_arguments(json.dumps(raw)[:-3]).message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["operations", "target", "action", "match", "content", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)


@given(raw=json_values)
def test_any_json_value_parses_or_is_rejected_as_invalid_arguments(raw: object) -> None:
    try:
        outcome: object = parse_tool_arguments(raw)
    except MemoryValidationError as error:
        outcome = error.code
    assert outcome == "invalid_arguments" or (
        isinstance(outcome, list) and all(isinstance(item, Operation) for item in outcome)
    )


# --- results -----------------------------------------------------------------------------


def test_success_reports_the_new_usage_of_both_stores() -> None:
    result = success_result(Snapshot(user=("abc",)))
    assert result["success"] is True
    assert result["usage"] == {
        "user": {"chars": 3, "limit": 1375, "percent": 0},
        "memory": {"chars": 0, "limit": 2200, "percent": 0},
    }
    json.dumps(result)


def test_failure_shows_the_current_entries_of_the_target_store() -> None:
    # GIVEN a snapshot with one entry the scanner rejects today
    snapshot = Snapshot(user=("Likes tea.",), memory=("fact", "token=hunter22"))
    error = MemoryValidationError("no_match", "operations[0]: No entry ...", target="memory")

    # WHEN the failure result is built
    result = failure_result(error, snapshot)

    # THEN it carries the code, message and the memory entries (withheld where unsafe)
    assert result["success"] is False
    assert result["error"] == {"code": "no_match", "message": "operations[0]: No entry ..."}
    assert result["current_entries"] == {"memory": ["fact", WITHHELD_PLACEHOLDER]}
    json.dumps(result)


def test_failure_without_a_known_target_shows_both_stores() -> None:
    error = MemoryValidationError("invalid_arguments", "Invalid memory_update arguments")
    result = failure_result(error, Snapshot(user=("u",), memory=("m",)))
    assert result["current_entries"] == {"user": ["u"], "memory": ["m"]}


def test_stop_and_unavailable_results_say_what_to_do() -> None:
    assert "Do not call it again this turn" in stop_result()["error"]["message"]
    assert "nothing was saved" in unavailable_result()["error"]["message"]


# --- the per-turn session ----------------------------------------------------------------


def test_successful_calls_stage_in_order_on_the_staged_snapshot() -> None:
    # GIVEN a session on a snapshot
    base = Snapshot(memory=("old",))
    session = MemoryToolSession(base, writes_enabled=True)

    # WHEN two calls succeed, the second building on the first
    first = session.call({"operations": [add("new")]})
    second = session.call(
        json.dumps({"operations": [{"target": "memory", "action": "remove", "match": "new"}]})
    )

    # THEN each reports success and its own operations; the session holds the staged view
    assert (first.ok, second.ok) == (True, True)
    assert first.operations == (Operation(target="memory", action="add", content="new"),)
    assert session.snapshot == Snapshot(memory=("old",))
    assert session.staged_operations == first.operations + second.operations
    assert session.base_snapshot is base
    # and the staged batch replays to the same result, as the commit will do
    assert apply_operations(base, session.staged_operations) == session.snapshot


def test_a_failed_call_changes_nothing_and_counts_down() -> None:
    # GIVEN a session with one staged call
    session = MemoryToolSession(Snapshot(), writes_enabled=True)
    session.call({"operations": [add("kept")]})

    # WHEN a call fails
    outcome = session.call({"operations": [add("fine"), add("x\x00")]})

    # THEN nothing of it is staged, and the model is told what is left
    assert not outcome.ok
    assert outcome.error_code == "control_character"
    assert outcome.operations == ()
    assert outcome.result["attempts_left"] == MAX_FAILED_TOOL_CALLS - 1
    assert outcome.result["current_entries"] == {"memory": ["kept"]}
    assert session.snapshot == Snapshot(memory=("kept",))
    assert session.failed_calls == 1


def test_after_three_failures_the_tool_tells_the_model_to_stop() -> None:
    # GIVEN a session
    session = MemoryToolSession(Snapshot(), writes_enabled=True)

    # WHEN three calls fail
    outcomes = [session.call({"operations": []}) for _ in range(MAX_FAILED_TOOL_CALLS)]

    # THEN the third says so, and every later call (even a valid one) gets the stop result
    assert outcomes[-1].result["attempts_left"] == 0
    assert "Do not call memory_update again" in outcomes[-1].result["instruction"]
    later = session.call({"operations": [add("valid")]})
    assert (later.ok, later.error_code, later.result) == (False, "too_many_failures", stop_result())
    assert session.staged_operations == ()


def test_writes_disabled_returns_the_no_write_result() -> None:
    # GIVEN a turn whose memory read failed
    session = MemoryToolSession(Snapshot(), writes_enabled=False)

    # WHEN the model calls the tool
    outcome = session.call({"operations": [add("fact")]})

    # THEN nothing is staged and the model learns memory is unavailable
    assert (outcome.ok, outcome.error_code) == (False, "memory_unavailable")
    assert outcome.result == unavailable_result()
    assert session.staged_operations == ()


def test_disabling_writes_mid_turn_discards_what_was_staged() -> None:
    session = MemoryToolSession(Snapshot(), writes_enabled=True)
    session.call({"operations": [add("fact")]})

    session.disable_writes()

    assert (session.writes_enabled, session.staged_operations) == (False, ())
    assert session.snapshot == Snapshot()
    assert session.call({"operations": [add("fact")]}).error_code == "memory_unavailable"


def test_one_turn_stages_at_most_twenty_operations() -> None:
    # GIVEN a turn that already staged 15 operations
    session = MemoryToolSession(Snapshot(), writes_enabled=True)
    assert session.call({"operations": [add(f"f{i}") for i in range(15)]}).ok

    # WHEN a call would take it past 20
    outcome = session.call({"operations": [add(f"g{i}") for i in range(6)]})

    # THEN it is refused whole, so the commit can always replay the turn as one batch
    assert outcome.error_code == "too_many_operations"
    assert len(session.staged_operations) == 15
    assert session.call({"operations": [add(f"g{i}") for i in range(5)]}).ok


_words = st.sampled_from(["tea", "tea time", "vim", "ruff", "x" * 600, "Oslo", "Bergen"])
_targets = st.sampled_from(["user", "memory"])
_operation_arguments = st.one_of(
    st.fixed_dictionaries({"target": _targets, "action": st.just("add"), "content": _words}),
    st.fixed_dictionaries(
        {"target": _targets, "action": st.just("replace"), "match": _words, "content": _words}
    ),
    st.fixed_dictionaries({"target": _targets, "action": st.just("remove"), "match": _words}),
)


@settings(max_examples=300)
@given(
    base_entries=st.lists(_words, unique=True, max_size=3),
    calls=st.lists(st.lists(_operation_arguments, min_size=1, max_size=8), max_size=6),
)
def test_the_staged_operations_replay_as_one_batch_to_the_staged_snapshot(
    base_entries: list[str], calls: list[list[dict[str, str]]]
) -> None:
    # GIVEN a session and any sequence of tool calls, some failing
    base = Snapshot(user=tuple(base_entries), memory=tuple(base_entries))
    session = MemoryToolSession(base, writes_enabled=True)
    for operations in calls:
        session.call({"operations": operations})

    event(f"failed calls: {session.failed_calls}, staged: {bool(session.staged_operations)}")

    # WHEN the turn's staged operations are replayed as one batch on the same snapshot
    # THEN they give exactly the staged view (what the commit relies on)
    if session.staged_operations:
        assert apply_operations(base, session.staged_operations) == session.snapshot
    else:
        assert session.snapshot == base
