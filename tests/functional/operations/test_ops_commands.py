"""``agent-memory probe`` and ``agent-memory export`` as an operator runs them: options,
output, exit status, and where the content goes (stdout only)."""

from __future__ import annotations

import json
import logging
import uuid
from typing import Any

import boto3
import pytest
from botocore.stub import Stubber
from operations_support import snapshot_tables

from agent_memory.ledger import CancelFlag, LedgerConfig, TurnUnitOfWork
from agent_memory.repository import LedgerRepository, MemoryRepository, TableNames
from agent_memory_tools.cli.main import main
from agent_memory_tools.operations import TargetError, new_run_id, probe_user_id, table_names
from agent_memory_tools.operations.probe import wall_clock_ms

SENTINEL = "zq-sentinel-7741-never-logged"


def table_options(names: TableNames) -> list[str]:
    return ["--memory-table", names.memory, "--ledger-table", names.turn_ledger]


def commit_turn(
    memory: MemoryRepository, ledger: LedgerRepository, user: str, *operations: dict[str, Any]
) -> str:
    turn_id = str(uuid.uuid4())
    turn = TurnUnitOfWork.begin(
        user,
        turn_id,
        wall_clock_ms() + 20_000,
        memory_repo=memory,
        ledger_repo=ledger,
        cancel_flag=CancelFlag(),
        config=LedgerConfig(clock_ms=wall_clock_ms),
    )
    assert turn.call_tool({"operations": list(operations)})["success"]
    assert turn.commit().status == "committed"
    return turn_id


def add(target: str, content: str) -> dict[str, Any]:
    return {"target": target, "action": "add", "content": content, "match": None}


# -- probe -------------------------------------------------------------------------------


def test_probe_from_the_environment_passes_and_prints_each_step(
    dynamodb_env: TableNames, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN the Lambda environment naming the tables (as in `make run` or a deployed shell)
    # WHEN the operator runs the probe with no table options
    status = main(["probe"])
    # THEN it passes, one ✓ line per step, the last one the cleanup
    out = capsys.readouterr().out
    assert status == 0, out
    lines = [line for line in out.splitlines() if line.startswith("  ")]
    assert len(lines) == 8
    assert all(line.startswith("  ✓ ") and line.endswith(" ms)") for line in lines)
    assert "cleanup" in lines[-1]
    assert out.rstrip().splitlines()[-1].startswith("probe passed (8 steps")


def test_probe_json_report_with_explicit_tables(
    moto_endpoint: str,
    table_names: TableNames,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GIVEN credentials in the environment but no table names
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    # WHEN the probe runs with --json and explicit tables
    status = main(["probe", "--json", *table_options(table_names), "--endpoint-url", moto_endpoint])
    # THEN stdout is exactly one JSON report
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert report["ok"] is True
    assert report["clean"] is True
    assert report["leftovers"] == []
    assert [step["ok"] for step in report["steps"]] == [True] * 8


def test_probe_of_a_missing_table_fails_and_leaves_nothing(
    dynamodb_env: TableNames,
    dynamodb_client: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN a ledger table name that does not exist
    before = snapshot_tables(dynamodb_client, dynamodb_env)
    options = ["--memory-table", dynamodb_env.memory, "--ledger-table", "no-such-ledger"]
    # WHEN the probe runs
    status = main(["probe", "--json", *options])
    # THEN it exits 1, says which step failed and why, and left nothing in the memory table
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert status == 1
    failed = [step for step in report["steps"] if not step["ok"]]
    assert [step["step"].split(":")[0] for step in failed] == ["insert"]
    assert "ledger_unavailable" in failed[0]["detail"]
    assert report["clean"] is True
    assert "left nothing behind" in captured.err
    assert snapshot_tables(dynamodb_client, dynamodb_env) == before


def test_probe_cleanup_removes_a_killed_runs_items_and_refuses_other_ids(
    dynamodb_env: TableNames,
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    dynamodb_client: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN a probe run that was killed after its first commit
    run_id = new_run_id()
    commit_turn(memory_repository, ledger_repository, probe_user_id(run_id), add("user", "P."))
    # WHEN the operator asks for the cleanup of a user id, then of that run
    refused = main(["probe", "--cleanup", "alice"])
    refused_err = capsys.readouterr().err
    status = main(["probe", "--cleanup", run_id])
    # THEN a real-looking id is refused, and the run's items are gone
    assert refused == 1
    assert "not a probe run id" in refused_err
    assert status == 0
    assert snapshot_tables(dynamodb_client, dynamodb_env) == {"memory": [], "ledger": []}


@pytest.mark.parametrize(
    "options",
    [
        ["--memory-table", "m"],
        ["--ledger-table", "l"],
        ["--memory-table", "m", "--ledger-table", "l", "--stack", "s"],
    ],
    ids=["memory-only", "ledger-only", "tables-and-stack"],
)
def test_probe_refuses_ambiguous_table_options(
    options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # WHEN the tables are half given, or given twice THEN one clear line and exit 1
    assert main(["probe", *options]) == 1
    err = capsys.readouterr().err
    assert err.startswith("agent-memory probe: ")
    assert len(err.strip().splitlines()) == 1


def test_table_names_from_a_stacks_outputs() -> None:
    # GIVEN a CloudFormation stack with the template's outputs (and one without them)
    client = boto3.session.Session().client("cloudformation", region_name="us-east-1")
    stubber = Stubber(client)
    outputs = [
        {"OutputKey": "ApiUrl", "OutputValue": "https://x"},
        {"OutputKey": "MemoryTableName", "OutputValue": "prod-memory"},
        {"OutputKey": "TurnLedgerTableName", "OutputValue": "prod-ledger"},
    ]
    stack = {
        "StackName": "s",
        "CreationTime": "2026-01-01T00:00:00Z",
        "StackStatus": "UPDATE_COMPLETE",
    }
    stubber.add_response(
        "describe_stacks", {"Stacks": [{**stack, "Outputs": outputs}]}, {"StackName": "s"}
    )
    stubber.add_response("describe_stacks", {"Stacks": [stack]}, {"StackName": "bare"})
    stubber.add_client_error(
        "describe_stacks", "ValidationError", "Stack with id gone does not exist"
    )
    with stubber:
        # WHEN the names are resolved from --stack
        names = table_names(
            memory_table=None, ledger_table=None, stack="s", cloudformation=lambda: client
        )
        # THEN they are the outputs; a stack without them or a missing stack is a clear error
        assert names == TableNames(memory="prod-memory", turn_ledger="prod-ledger")
        with pytest.raises(TargetError, match="no output"):
            table_names(
                memory_table=None, ledger_table=None, stack="bare", cloudformation=lambda: client
            )
        with pytest.raises(TargetError, match="does not exist"):
            table_names(
                memory_table=None, ledger_table=None, stack="gone", cloudformation=lambda: client
            )


# -- export ------------------------------------------------------------------------------


def test_export_prints_both_documents_and_ledger_metadata_on_stdout_only(
    dynamodb_env: TableNames,
    memory_repository: MemoryRepository,
    ledger_repository: LedgerRepository,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    # GIVEN alice's two documents, a committed and a cancelled turn; bob's memory
    commit_turn(
        memory_repository,
        ledger_repository,
        "alice",
        add("user", f"Alice {SENTINEL}."),
        add("memory", "Project uses Python."),
    )
    ledger_repository.cancel("alice", str(uuid.uuid4()), wall_clock_ms())
    commit_turn(memory_repository, ledger_repository, "bob", add("memory", "Bob fact."))

    # WHEN the operator exports alice, with the ledger records, every logger at DEBUG
    caplog.set_level(logging.DEBUG)
    status = main(["export", "alice", "--ledger-items"])

    # THEN stdout holds her documents and her ledger's metadata, and nothing of bob
    captured = capsys.readouterr()
    exported = json.loads(captured.out)
    assert status == 0
    assert exported["user_id"] == "alice"
    assert exported["documents"]["user"]["entries"] == [f"Alice {SENTINEL}."]
    assert exported["documents"]["memory"]["entries"] == ["Project uses Python."]
    assert exported["documents"]["memory"]["limit"] == 2200
    assert exported["documents"]["user"]["provenance"][0]["source"] == "chat"
    assert exported["settings"] == {"write_mode": "auto"}
    [record] = exported["history"]
    assert {change["after"] for change in record["changes"]} == {
        f"Alice {SENTINEL}.",
        "Project uses Python.",
    }
    assert exported["proposals"] == []
    assert exported["ledger"]["items"] == 2
    assert exported["ledger"]["by_status"] == {"cancelled": 1, "committed": 1}
    assert {record["status"] for record in exported["ledger"]["records"]} == {
        "cancelled",
        "committed",
    }
    assert "Bob" not in captured.out
    # AND the content went nowhere else: not stderr, not a log record
    assert SENTINEL not in captured.err
    assert all(SENTINEL not in record.getMessage() for record in caplog.records)
    assert all(
        SENTINEL not in json.dumps(record.__dict__, default=str) for record in caplog.records
    )


def test_export_of_an_unknown_user_is_empty_and_counts_no_ledger_item(
    dynamodb_env: TableNames, capsys: pytest.CaptureFixture[str]
) -> None:
    # WHEN a user with nothing stored is exported
    status = main(["export", "nobody"])
    exported = json.loads(capsys.readouterr().out)
    # THEN both documents are reported missing and the ledger count is 0
    assert status == 0
    assert exported["documents"]["user"]["exists"] is False
    assert exported["documents"]["memory"]["exists"] is False
    assert (exported["history"], exported["proposals"]) == ([], [])
    assert exported["ledger"]["items"] == 0
    assert "records" not in exported["ledger"]


def test_export_failure_is_one_line_without_content(
    dynamodb_env: TableNames, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN a table that does not exist
    # WHEN the export runs against it THEN it exits 1 with the DynamoDB code only
    status = main(["export", "alice", "--memory-table", "gone", "--ledger-table", "gone-too"])
    captured = capsys.readouterr()
    assert status == 1
    assert captured.out == ""
    assert "ResourceNotFoundException" in captured.err


def test_every_public_name_of_the_package_resolves() -> None:
    import agent_memory_tools.operations as operations

    for name in operations.__all__:
        assert getattr(operations, name) is not None, name
