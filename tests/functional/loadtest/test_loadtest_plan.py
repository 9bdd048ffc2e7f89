"""The seeded plan and the composition of turns: reproducible, racing, and sound for the
oracle (targets only confirmed-committed facts, never twice; stores kept below capacity)."""

from __future__ import annotations

import json
import random

import pytest

from agent_memory_tools.loadtest.config import DEFAULT_MIX, LoadTestConfig, parse_mix
from agent_memory_tools.loadtest.exceptions import ConfigError
from agent_memory_tools.loadtest.facts import fact_id, fact_ids_in
from agent_memory_tools.loadtest.plan import INVALID_VARIANTS, PlannedTurn, build_plan
from agent_memory_tools.loadtest.record import RunRecord
from agent_memory_tools.loadtest.scenario import Composer

RUN = "ltbeef02"


def config(**overrides: object) -> LoadTestConfig:
    values: dict[str, object] = {"users": 4, "turns": 12, "concurrency": 8, "seed": 42}
    values.update(overrides)
    return LoadTestConfig(run_id=RUN, **values)  # type: ignore[arg-type]


def memory_update(message: str) -> dict[str, object]:
    line = next(line for line in message.splitlines() if line.startswith("memory_update: "))
    arguments = json.loads(line.removeprefix("memory_update: "))
    assert isinstance(arguments, dict)
    return arguments


def test_the_same_seed_gives_the_same_plan_and_another_seed_another() -> None:
    assert build_plan(config()) == build_plan(config())
    assert build_plan(config()).order != build_plan(config(seed=43)).order


def test_a_users_turns_are_dispatched_back_to_back_so_they_race() -> None:
    # GIVEN 4 users and 8 turns in flight: 2 of each user at a time
    plan = build_plan(config())

    # THEN the order holds every turn once, in bursts of 2 turns of one user, in turn order
    assert sorted((t.user, t.turn) for t in plan.order) == [
        (u, t) for u in range(4) for t in range(12)
    ]
    bursts = [plan.order[i : i + 2] for i in range(0, len(plan.order), 2)]
    assert all(a.user == b.user and b.turn == a.turn + 1 for a, b in bursts)


def test_mix_weights_parse_and_bad_ones_are_refused() -> None:
    assert parse_mix("add=50").weight("add") == 50
    assert parse_mix("add=50").weight("read") == DEFAULT_MIX["read"]
    assert parse_mix("only:add=1,remove=1").as_dict()["read"] == 0
    with pytest.raises(ConfigError, match="Unknown turn kind"):
        parse_mix("teleport=1")
    with pytest.raises(ConfigError, match="KIND=WEIGHT"):
        parse_mix("add")
    with pytest.raises(ConfigError, match="at least one kind"):
        parse_mix("only:add=0")


def test_fact_ids_are_unique_substrings_and_parse_back() -> None:
    ids = {fact_id(RUN, u, t, n) for u in range(12) for t in range(12) for n in range(1, 12)}
    assert len(ids) == 12 * 12 * 11
    # the brackets keep f1 from matching f10
    assert fact_id(RUN, 1, 1, 1) not in fact_id(RUN, 1, 1, 10)
    (ref,) = fact_ids_in(f"Note {fact_id(RUN, 3, 17, 2)} here.")
    assert (ref.run, ref.user, ref.turn, ref.n) == (RUN, 3, 17, 2)


def test_a_remove_targets_only_a_fact_whose_turn_answered_committed() -> None:
    # GIVEN one user whose first add has not answered yet
    record = RunRecord(RUN, 1)
    composer = Composer(record, seed=1)
    add = composer.compose(PlannedTurn(0, 0, "add", "memory"))

    # WHEN a remove is composed now, it cannot target the pending fact: it becomes an add
    early = composer.compose(PlannedTurn(0, 1, "remove", ""))
    assert early.kind == "add"

    # WHEN the first add answers committed, the next remove targets its fact, once
    record.finish(add.key, 0.1, outcome="committed", status="committed")
    remove = composer.compose(PlannedTurn(0, 2, "remove", ""))
    again = composer.compose(PlannedTurn(0, 3, "remove", ""))

    assert remove.kind == "remove"
    assert remove.claims == add.adds
    assert memory_update(remove.message) == {
        "operations": [{"target": "memory", "action": "remove", "match": add.adds[0]}]
    }
    assert record.facts[add.adds[0]].claimed_by == remove.key
    assert again.claims == []


def test_an_add_into_a_nearly_full_store_removes_a_fact_instead() -> None:
    # GIVEN a user whose memory store already holds committed facts near 60% of its limit
    record = RunRecord(RUN, 1)
    composer = Composer(record, seed=2)
    for turn in range(22):
        add = composer.compose(PlannedTurn(0, turn, "add", "memory"))
        if add.kind != "add":
            break
        record.finish(add.key, 0.1, outcome="committed", status="committed")

    # THEN the composer stopped adding before the limit and made room instead
    assert add.kind == "remove"
    assert record.estimated_chars(0, "memory") <= 0.6 * 2200


@pytest.mark.parametrize("variant", INVALID_VARIANTS)
def test_an_invalid_batch_starts_with_a_valid_add_that_must_never_be_stored(variant: str) -> None:
    record = RunRecord(RUN, 2)
    turn = Composer(record, seed=3).compose(PlannedTurn(0, 0, "invalid", variant))

    arguments = memory_update(turn.message)
    operations = arguments["operations"]
    assert isinstance(operations, list)
    assert operations[0]["action"] == "add"
    assert turn.adds
    assert turn.adds[0] in operations[0]["content"]
    if variant == "identity_field":
        assert arguments["user_id"] == f"{RUN}-u1"
    # The identity variants name the other user: in the tool's arguments or the request body.
    assert turn.body_extra == ({"user_id": f"{RUN}-u1"} if variant == "identity_body" else {})


def test_cancel_and_fail_turns_carry_their_simulate_directive() -> None:
    record = RunRecord(RUN, 1)
    composer = Composer(record, seed=4)
    cancel = composer.compose(PlannedTurn(0, 0, "cancel", "memory"))
    fail = composer.compose(PlannedTurn(0, 1, "fail", "user"))

    assert cancel.message.splitlines()[-1] == "simulate: sleep 1.0"
    assert cancel.cancel_after is not None
    assert cancel.cancel_after < 1.0
    assert fail.message.splitlines()[-1] == "simulate: fail"
    assert record.facts[fail.adds[0]].target == "user"


def test_config_refuses_numbers_out_of_range() -> None:
    with pytest.raises(ConfigError, match="--users"):
        config(users=0)
    with pytest.raises(ConfigError, match="--concurrency"):
        config(concurrency=0)
    with pytest.raises(ConfigError, match="--url"):
        config(url="ftp://example.com")


def test_random_streams_do_not_depend_on_dispatch_interleaving() -> None:
    # The composer's stream is per user: composing user 1 in between does not change user 0.
    first, second = RunRecord(RUN, 2), RunRecord(RUN, 2)
    a, b = Composer(first, seed=9), Composer(second, seed=9)
    one = a.compose(PlannedTurn(0, 0, "add", "memory"))
    b.compose(PlannedTurn(1, 0, "add", "user"))
    two = b.compose(PlannedTurn(0, 0, "add", "memory"))
    assert one.message == two.message
    assert random.Random(1).random() == random.Random(1).random()
