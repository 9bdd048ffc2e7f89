"""The load test's user-control turns: undo, approve and reject, and their exact oracle
(undone facts gone, approved facts present once, rejected never)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from loadtest_support import RecordBuilder, documents, holding

from agent_memory_tools.cli.main import main
from agent_memory_tools.loadtest.checker import Check, check_run
from agent_memory_tools.loadtest.record import Fact, Outcome, TurnRecord


def failed(checks: list[Check]) -> dict[str, list[str]]:
    return {check.name: check.violations for check in checks if not check.passed}


def decide(run: RecordBuilder, proposer: TurnRecord, kind: str, outcome: Outcome) -> TurnRecord:
    """An approve or reject turn of ``proposer``'s proposal."""
    status = f"{kind}d" if outcome == "committed" else "409 proposal_conflict"
    turn = run.turn(proposer.user, kind, outcome, status=status)
    turn.request = ("POST", f"/memory/proposals/p/{kind}", None)
    turn.acts_on = proposer.key
    for fid in proposer.adds:
        run.record.facts[fid].decided_by = turn.key
    if kind == "approve":
        turn.approves = list(proposer.adds)
    return turn


def approve_mode_run() -> tuple[RecordBuilder, Fact, Fact, Fact, Fact]:
    # User 1 runs in approve mode: four proposals; one approved, one rejected, one whose
    # approval was refused (409), one never decided.
    run = RecordBuilder()
    run.record.approve_mode = frozenset({1})
    proposals = [
        run.turn(1, "add", "not_committed", status="proposed", adds=[("memory", f"P{i}.")])
        for i in range(4)
    ]
    decide(run, proposals[0], "approve", "committed")
    decide(run, proposals[1], "reject", "committed")
    decide(run, proposals[2], "approve", "not_committed")
    approved, rejected, refused, pending = (run.fact(p) for p in proposals)
    return run, approved, rejected, refused, pending


def test_undo_approve_and_reject_pass_when_memory_matches() -> None:
    # GIVEN an auto user's add and its committed undo, and approve-mode decisions
    run, approved, *_ = approve_mode_run()
    added = run.turn(0, "add", "committed", adds=[("memory", "Undone."), ("user", "Too.")])
    run.turn(
        0, "undo", "committed", status="undone", claims=[run.fact(added, 1), run.fact(added, 2)]
    )
    # WHEN memory holds the approved fact only
    checks = check_run(run.record, {0: documents({}), 1: documents(holding(approved))})
    # THEN every check passes
    assert failed(checks) == {}


def test_an_undone_fact_that_is_still_there_is_reported() -> None:
    run = RecordBuilder()
    added = run.turn(0, "add", "committed", adds=[("memory", "Undone.")])
    run.turn(0, "undo", "committed", status="undone", claims=[run.fact(added)])

    checks = check_run(run.record, {0: documents(holding(run.fact(added))), 1: documents({})})

    [violation] = failed(checks)["nothing_from_uncommitted_turns"]
    assert "undid it" in violation


@pytest.mark.parametrize("which", ["rejected", "refused", "pending"])
def test_a_proposal_that_was_not_approved_must_never_be_stored(which: str) -> None:
    run, approved, rejected, refused, pending = approve_mode_run()
    leaked = {"rejected": rejected, "refused": refused, "pending": pending}[which]

    checks = check_run(run.record, {0: documents({}), 1: documents(holding(approved, leaked))})

    assert list(failed(checks)) == ["nothing_from_uncommitted_turns"]


def test_an_approved_fact_must_be_present_exactly_once() -> None:
    run, approved, *_ = approve_mode_run()

    missing = check_run(run.record, {0: documents({}), 1: documents({})})
    twice = check_run(run.record, {0: documents({}), 1: documents(holding(approved, approved))})

    assert list(failed(missing)) == ["committed_facts_present_once"]
    assert "approved its proposal" in failed(missing)["committed_facts_present_once"][0]
    assert "appears 2 times" in failed(twice)["committed_facts_present_once"][0]


def test_an_approve_mode_turn_that_commits_breaks_the_contract() -> None:
    run = RecordBuilder()
    run.record.approve_mode = frozenset({0})
    added = run.turn(0, "add", "committed", adds=[("memory", "Saved directly.")])

    checks = check_run(run.record, {0: documents(holding(run.fact(added))), 1: documents({})})

    assert list(failed(checks)) == ["answers_match_the_contract"]


@pytest.mark.slow
def test_a_run_with_undo_approve_and_reject_turns_passes_its_exact_oracle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN the real handlers in worker processes against moto, and a mix of adds, undos,
    # approvals and rejections (users 3 and 7 run in approve mode)
    code = main(
        [
            "loadtest",
            "--users", "8",
            "--turns", "10",
            "--concurrency", "8",
            "--seed", "5",
            "--mix", "only:add=4,undo=3,approve=3,reject=2,read=1",
            "--report-dir", str(tmp_path),
        ]
    )  # fmt: skip
    out, _ = capsys.readouterr()
    # THEN every check passes, and each kind of user-control turn really ran
    assert code == 0, out
    (path,) = tmp_path.glob("loadtest-*.json")
    report = json.loads(path.read_text(encoding="utf-8"))
    by_kind = report["summary"]["by_kind"]
    assert by_kind["undo"]["outcomes"].get("undone", 0) > 0
    assert by_kind["approve"]["outcomes"].get("approved", 0) > 0
    assert by_kind["reject"]["outcomes"].get("rejected", 0) > 0
    assert by_kind["add"]["outcomes"].get("proposed", 0) > 0
    requests = report["summary"]["dynamodb_requests_per_turn"]["by_kind"]
    assert {"add", "undo", "approve", "reject"} <= set(requests)
    assert "requests/turn" in out
