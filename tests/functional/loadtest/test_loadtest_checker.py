"""The checker's oracle on hand-made records: it passes a consistent state and names each
kind of violation (lost, duplicated, resurrected, foreign, oversized, partial)."""

from __future__ import annotations

from loadtest_support import RUN, RecordBuilder, documents, holding

from agent_memory_tools.loadtest.checker import Check, check_run
from agent_memory_tools.loadtest.facts import fact_id


def failed(checks: list[Check]) -> dict[str, list[str]]:
    return {check.name: check.violations for check in checks if not check.passed}


def test_a_consistent_state_passes_every_check() -> None:
    # GIVEN two committed adds, a committed remove of the first, a committed replace of the
    # second, and turns that did not commit (invalid, failed, cancelled)
    run = RecordBuilder()
    first = run.turn(0, "add", "committed", adds=[("memory", "Uses Python.")])
    second = run.turn(0, "add", "committed", adds=[("user", "Likes tea.")])
    run.turn(0, "remove", "committed", claims=[run.fact(first)])
    replacement = run.turn(
        0, "replace", "committed", adds=[("user", "Likes coffee.")], claims=[run.fact(second)]
    )
    run.turn(0, "invalid", "not_committed", adds=[("memory", "Never stored.")])
    run.turn(0, "fail", "not_committed", status="502 model_error", adds=[("memory", "Nope.")])
    run.turn(
        0,
        "cancel",
        "not_committed",
        status="cancelled",
        adds=[("memory", "Cancelled.")],
        cancel_answer="cancelled",
    )
    run.turn(1, "read", "not_committed")

    # WHEN the final documents hold exactly what committed
    checks = check_run(
        run.record,
        {0: documents(holding(run.fact(replacement))), 1: documents({})},
    )

    # THEN every check passes
    assert failed(checks) == {}


def test_a_lost_committed_fact_is_reported() -> None:
    # GIVEN two committed adds of one user
    run = RecordBuilder()
    kept = run.turn(0, "add", "committed", adds=[("memory", "Kept.")])
    lost = run.turn(0, "add", "committed", adds=[("memory", "Lost.")])

    # WHEN only one of them is stored (a lost update)
    checks = check_run(run.record, {0: documents(holding(run.fact(kept))), 1: documents({})})

    # THEN the check says which fact is missing and which turn committed it
    violations = failed(checks)
    assert list(violations) == ["committed_facts_present_once"]
    assert violations["committed_facts_present_once"] == [
        f"u0: {run.fact(lost).fid} is missing (committed by turn u0-t1 (add))"
    ]


def test_a_duplicated_or_misplaced_fact_is_reported() -> None:
    run = RecordBuilder()
    twice = run.turn(0, "add", "committed", adds=[("memory", "Twice.")])
    moved = run.turn(0, "add", "committed", adds=[("memory", "Moved.")])
    stores = holding(run.fact(twice), run.fact(twice))
    stores["user"].append(run.fact(moved).content)

    violations = failed(check_run(run.record, {0: documents(stores), 1: documents({})}))

    assert violations["committed_facts_present_once"] == [
        f"u0: {run.fact(twice).fid} appears 2 times (committed by turn u0-t0 (add))",
        f"u0: {run.fact(moved).fid} is in `user`, it was written to `memory`",
    ]


def test_facts_of_turns_that_did_not_commit_must_be_absent() -> None:
    # GIVEN an invalid batch, and a committed fact that a committed turn removed
    run = RecordBuilder()
    invalid = run.turn(0, "invalid", "not_committed", adds=[("memory", "Rejected.")])
    removed = run.turn(0, "add", "committed", adds=[("memory", "Removed later.")])
    run.turn(0, "remove", "committed", claims=[run.fact(removed)])

    # WHEN both are still stored
    stores = holding(run.fact(invalid), run.fact(removed))
    violations = failed(check_run(run.record, {0: documents(stores), 1: documents({})}))

    # THEN both are reported with the turn that decided their fate
    assert violations["nothing_from_uncommitted_turns"] == [
        f"u0: {run.fact(invalid).fid} is present although its turn u0-t0 (invalid)"
        " answered unchanged",
        f"u0: {run.fact(removed).fid} is present although turn u0-t2 (remove)"
        " committed and removed it",
    ]


def test_another_users_fact_and_unknown_entries_are_foreign() -> None:
    run = RecordBuilder()
    theirs = run.turn(1, "add", "committed", adds=[("memory", "Bob's fact.")])
    stores = holding(run.fact(theirs))
    invented = f"Planted {fact_id(RUN, 0, 99, 1)}"

    violations = failed(
        check_run(
            run.record,
            {
                0: documents({"memory": [run.fact(theirs).content, invented, "No id at all."]}),
                1: documents(stores),
            },
        )
    )

    assert violations["no_foreign_entries"] == [
        f"u0: `memory` holds {run.fact(theirs).fid}, a fact of user u1",
        f"u0: `memory` holds {fact_id(RUN, 0, 99, 1)}, which no turn wrote",
        "u0: `memory` holds an entry this run did not write: 'No id at all.'",
    ]


def test_a_document_over_its_limit_is_reported() -> None:
    run = RecordBuilder()
    oversized = documents({"user": ["x" * 1376]})

    violations = failed(check_run(run.record, {0: oversized, 1: documents({})}))

    assert "u0: `user` holds 1376 characters, over its limit 1375" in violations["within_limits"]


def test_a_turn_without_a_known_outcome_may_have_applied_all_or_nothing() -> None:
    # GIVEN a committed fact and a replace of it that got no answer
    run = RecordBuilder()
    old = run.turn(0, "add", "committed", adds=[("memory", "Old.")])
    replace = run.turn(0, "replace", "unknown", adds=[("memory", "New.")], claims=[run.fact(old)])
    old_fact, new_fact = run.fact(old), run.fact(replace)

    # WHEN the replace applied, or did not, or applied half
    applied = check_run(run.record, {0: documents(holding(new_fact)), 1: documents({})})
    not_applied = check_run(run.record, {0: documents(holding(old_fact)), 1: documents({})})
    half = check_run(run.record, {0: documents(holding(old_fact, new_fact)), 1: documents({})})

    # THEN either whole state passes, the half state is a violation
    assert failed(applied) == {}
    assert failed(not_applied) == {}
    assert list(failed(half)) == ["unknown_turns_all_or_nothing"]


def test_a_commit_after_an_acknowledged_cancel_breaks_the_contract() -> None:
    run = RecordBuilder()
    cancelled = run.turn(
        0, "cancel", "committed", adds=[("memory", "Late.")], cancel_answer="cancelled"
    )

    violations = failed(
        check_run(run.record, {0: documents(holding(run.fact(cancelled))), 1: documents({})})
    )

    assert violations["answers_match_the_contract"] == [
        "u0: turn u0-t0 (cancel) committed after its cancel was acknowledged (cancelled)"
    ]


def test_a_run_where_nothing_committed_is_not_a_pass() -> None:
    # GIVEN writing turns that all answered "disabled" (memory off on the target)
    run = RecordBuilder()
    run.turn(0, "add", "not_committed", status="disabled", adds=[("memory", "Off.")])

    violations = failed(check_run(run.record, {0: documents({}), 1: documents({})}))

    assert list(violations) == ["load_was_served"]
    assert "is memory enabled" in violations["load_was_served"][0]


def test_a_conflict_answer_breaks_the_contract() -> None:
    # GIVEN an add that answered conflict (a broken replay shows up as nothing else)
    run = RecordBuilder()
    run.turn(0, "add", "committed", adds=[("memory", "Kept.")])
    conflicted = run.turn(0, "add", "not_committed", status="conflict", adds=[("memory", "X.")])
    conflicted.reason = "no_match"

    # WHEN the documents hold what committed
    violations = failed(
        check_run(
            run.record,
            {0: documents(holding(run.fact(run.record.turns["u0-t0"]))), 1: documents({})},
        )
    )

    # THEN the contract names the turn: the scenario never makes a conflict legitimate
    assert violations["answers_match_the_contract"] == [
        "u0: add turn u0-t1 (add) answered conflict (no_match): a replay that should have"
        " applied did not"
    ]
