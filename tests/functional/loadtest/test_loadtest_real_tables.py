"""The in-process target against "real" tables: existing ones named by the environment, or
ones it creates from the template under a prefix and deletes afterwards. A moto server
stands in for DynamoDB here (DYNAMODB_ENDPOINT_URL); against AWS the same code uses the
ambient credentials."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from agent_memory.repository import (
    ENV_ENDPOINT_URL,
    ENV_MEMORY_TABLE,
    ENV_REGION,
    ENV_TURN_LEDGER_TABLE,
    TableNames,
)
from agent_memory_tools.cli.main import main

pytestmark = pytest.mark.slow

LOAD = ["--users", "2", "--turns", "4", "--concurrency", "4", "--seed", "2", "--no-progress"]


def report_in(directory: Path) -> dict[str, Any]:
    (path,) = directory.glob("loadtest-*.json")
    report = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(report, dict)
    return report


def test_existing_tables_from_the_environment_are_used_and_kept(
    dynamodb_env: TableNames, scan_table: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN existing tables named by MEMORY_TABLE_NAME / TURN_LEDGER_TABLE_NAME
    # WHEN the load test runs against them
    code = main(["loadtest", "--tables-from-env", *LOAD, "--report-dir", str(tmp_path)])

    # THEN it passes, says which tables it used, and forgets its users' memory afterwards
    assert code == 0, capsys.readouterr().out
    report = report_in(tmp_path)
    assert report["target"]["dynamodb"] == {
        "kind": "aws",
        "tables": [dynamodb_env.memory, dynamodb_env.turn_ledger],
        "created_by_run": False,
    }
    assert report["summary"]["outcomes"]["committed"] > 0
    # (only each user's settings item, a forget generation and no content, stays)
    assert {item["memory_type"]["S"] for item in scan_table(dynamodb_env.memory)} <= {"settings"}
    # the turn ledgers stay (they hold no content and expire by TTL)
    assert scan_table(dynamodb_env.turn_ledger)


def test_a_table_prefix_creates_the_tables_and_deletes_them_afterwards(
    moto_endpoint: str,
    dynamodb_client: Any,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN a DynamoDB endpoint with no tables of the prefix
    monkeypatch.setenv(ENV_ENDPOINT_URL, moto_endpoint)
    monkeypatch.setenv(ENV_REGION, "us-east-1")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    for name in (ENV_MEMORY_TABLE, ENV_TURN_LEDGER_TABLE, "AWS_PROFILE", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    prefix = f"lt-{uuid.uuid4().hex[:8]}"

    # WHEN the load test runs with --table-prefix
    code = main(["loadtest", "--table-prefix", prefix, *LOAD, "--report-dir", str(tmp_path)])

    # THEN it created both tables from the template, passed, and deleted them
    assert code == 0, capsys.readouterr().out
    assert report_in(tmp_path)["target"]["dynamodb"]["created_by_run"] is True
    remaining = dynamodb_client.list_tables()["TableNames"]
    assert not [name for name in remaining if name.startswith(prefix)]


def test_tables_from_env_without_the_names_says_which_are_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(ENV_MEMORY_TABLE, raising=False)
    monkeypatch.delenv(ENV_TURN_LEDGER_TABLE, raising=False)

    code = main(["loadtest", "--tables-from-env"])

    assert code == 1
    assert "--tables-from-env: missing environment variable(s): MEMORY_TABLE_NAME" in (
        capsys.readouterr().err
    )
