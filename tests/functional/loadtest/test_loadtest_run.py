"""`agent-memory loadtest` end to end: a short in-process run passes its checks and writes
its report; planted violations fail it; the HTTP target drives the local stack."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from agent_memory.domain import DELIMITER
from agent_memory.repository import CURRENT_SCHEMA_VERSION
from agent_memory_tools.cli.main import main
from agent_memory_tools.loadtest.checker import expectation
from agent_memory_tools.loadtest.config import LoadTestConfig
from agent_memory_tools.loadtest.facts import fact_id, user_id
from agent_memory_tools.loadtest.record import RunRecord
from agent_memory_tools.loadtest.session import run_load_test
from agent_memory_tools.loadtest.targets.dynamodb import MotoTables
from agent_memory_tools.loadtest.targets.inprocess import InProcessTarget
from agent_memory_tools.local.functions import project_root

pytestmark = pytest.mark.slow

CHECKS = [
    "documents_readable",
    "committed_facts_present_once",
    "nothing_from_uncommitted_turns",
    "no_foreign_entries",
    "within_limits",
    "unknown_turns_all_or_nothing",
    "answers_match_the_contract",
    "load_was_served",
    "no_content_in_logs",
]


def read_report(directory: Path) -> dict[str, Any]:
    (path,) = directory.glob("loadtest-*.json")
    report = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(report, dict)
    return report


def test_a_short_in_process_run_passes_every_check_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN the real handlers in worker processes against a moto server
    # WHEN a short load runs: 4 users x 6 turns, 8 in flight (2 turns per user racing)
    code = main(
        [
            "loadtest",
            "--users", "4",
            "--turns", "6",
            "--concurrency", "8",
            "--seed", "7",
            "--report-dir", str(tmp_path),
        ]
    )  # fmt: skip

    # THEN it exits 0, with a progress bar on stderr and the summary on stdout
    out, err = capsys.readouterr()
    assert code == 0, out
    assert "loadtest [" in err
    assert "result          PASSED" in out
    assert "turns/s" in out
    assert "p99" in out
    assert "per tenth       turns/s" in out
    assert "peak memory     load test" in out

    # AND the JSON report holds the figures, every check passed, every turn answered
    report = read_report(tmp_path)
    assert report["passed"] is True
    assert [check["name"] for check in report["checks"]] == CHECKS
    assert all(check["passed"] for check in report["checks"])
    summary = report["summary"]
    assert summary["turns"] == 24
    assert summary["outcomes"]["committed"] > 0
    assert {"p50", "p95", "p99"} <= set(summary["latency_ms"])
    assert summary["commit"]["re_attempts"] == (
        summary["commit"]["retries"] + summary["commit"]["replays"]
    )
    # one Query loads memory; a commit is one transaction, which creates the ledger item of
    # a turn as short as the rules model's (a turn that a busy machine held past the ledger's
    # open delay opens it beforehand: 3, hence the tolerance)
    assert summary["dynamodb_requests_per_turn"]["read_only_turns"] == 1.0
    committed = summary["dynamodb_requests_per_turn"]["committed_turns_without_re_attempts"]
    assert committed == pytest.approx(2.0, abs=0.25)
    assert report["target"]["kind"] == "in-process"
    assert all(turn["outcome"] != "pending" for turn in report["turns"])
    assert len(summary["tenths"]) == 10
    assert sum(part["turns"] for part in summary["tenths"]) == 24
    assert 0 < summary["peak_rss_mb"]["worker"] < summary["peak_rss_mb"]["load_test"] * 10

    # AND a PNG chart beside it
    chart = tmp_path / report["chart"]
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_planted_violations_fail_the_check_and_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN a short run whose stored documents are tampered with behind the API's back,
    # after the load and before the check: a fact of user u1 planted into u0's memory, and
    # a committed fact of u1 deleted (a lost update); and a fact's content leaked into a
    # worker's log
    run_id = "lt" + uuid.uuid4().hex[:6]
    config = LoadTestConfig(
        users=2,
        turns=6,
        concurrency=4,
        seed=5,
        report_dir=tmp_path,
        progress=False,
        run_id=run_id,
    )
    target = InProcessTarget(
        tables=MotoTables(project_root() / "template.yaml", run_id),
        environments=6,
        root=project_root(),
        warm_user=f"{run_id}-warmup",
    )
    planted = fact_id(run_id, 1, 0, 9)
    deleted: list[str] = []

    def tamper(target: Any, record: RunRecord) -> None:
        client, names = target.table_client(), target.table_names
        edit_store(client, names.memory, user_id(run_id, 0), "memory", append=f"Planted {planted}.")
        victim = next(
            fact
            for fact in record.facts.values()
            if fact.user == 1 and expectation(fact, record).state == "present"
        )
        edit_store(client, names.memory, user_id(run_id, 1), victim.target, drop=victim.fid)
        deleted.append(victim.fid)
        with target.worker_logs()[0].open("a", encoding="utf-8") as log:
            log.write(f'{{"message": "debug", "entry": "{victim.content}"}}\n')

    # WHEN the load test checks
    result = run_load_test(config, target, before_check=tamper)

    # THEN it fails, naming both checks and both facts
    out = capsys.readouterr().out
    assert result.exit_code == 1
    failing = {check.name: check.violations for check in result.checks if not check.passed}
    assert set(failing) == {
        "no_foreign_entries",
        "committed_facts_present_once",
        "no_content_in_logs",
    }
    assert deleted[0] in failing["no_content_in_logs"][0]
    assert f"u0: `memory` holds {planted}, a fact of user u1" in failing["no_foreign_entries"]
    assert any(
        deleted[0] in v and "is missing" in v for v in failing["committed_facts_present_once"]
    )
    assert "FAILED: committed_facts_present_once, no_foreign_entries, no_content_in_logs" in out
    assert read_report(tmp_path)["passed"] is False


def edit_store(
    client: Any, table: str, user: str, store: str, *, append: str = "", drop: str = ""
) -> None:
    """Rewrite one stored document directly (no ledger, no condition)."""
    key = {"user_id": {"S": user}, "memory_type": {"S": store}}
    item = client.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
    entries = item["content"]["S"].split(DELIMITER) if item else []
    entries = [entry for entry in entries if not drop or drop not in entry]
    if append:
        entries.append(append)
    client.put_item(
        TableName=table,
        Item={
            **key,
            "content": {"S": DELIMITER.join(entries)},
            "revision": {"S": uuid.uuid4().hex},
            "schema_version": {"N": str(CURRENT_SCHEMA_VERSION)},
            "created_at": {"N": "1"},
            "updated_at": {"N": "1"},
        },
    )


def test_the_http_target_drives_the_local_stack_and_forgets_its_users(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from agent_memory_tools.dev_auth import DevIssuer
    from agent_memory_tools.local.stack import LocalStack, StackOptions

    # GIVEN the local stack (what `make run` serves) trusting a dev issuer in a temp folder
    monkeypatch.setenv("AGENT_MEMORY_DEV_ISSUER_DIR", str(tmp_path / "issuer"))
    for name in ("MODEL_PROVIDER", "MEMORY_ENABLED", "DYNAMODB_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    run_id = "lt" + uuid.uuid4().hex[:6]
    with LocalStack(StackOptions(port=0)) as stack:
        # WHEN the load test runs against its URL
        code = main(
            [
                "loadtest",
                "--url", stack.url,
                "--users", "2",
                "--turns", "5",
                "--concurrency", "4",
                "--seed", "3",
                "--report-dir", str(tmp_path / "reports"),
                "--run-id", run_id,
            ]
        )  # fmt: skip
        out = capsys.readouterr().out

        # THEN it passes, over HTTP
        assert code == 0, out
        report = read_report(tmp_path / "reports")
        assert report["target"]["kind"] == "http"
        assert report["summary"]["commit"] is None
        assert report["summary"]["outcomes"]["committed"] > 0

        # AND the run's users are forgotten afterwards
        import http.client

        token = DevIssuer().mint(user_id(run_id, 0))
        host, port = stack.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", "/memory", headers={"Authorization": f"Bearer {token}"})
        body = json.loads(connection.getresponse().read())
        connection.close()
        assert body["user"]["entries"] == []
        assert body["memory"]["entries"] == []


def test_the_command_module_imports_nothing_heavy_until_it_runs() -> None:
    # GIVEN the loadtest command module and its arguments (what `agent-memory --help` loads)
    probe = (
        "import argparse, sys; from agent_memory_tools.loadtest import command;"
        "command.add_arguments(argparse.ArgumentParser());"
        "print(sorted(m for m in ('boto3', 'moto', 'matplotlib', 'multiprocessing.pool')"
        " if m in sys.modules))"
    )
    # WHEN they are imported, THEN neither boto3, moto nor matplotlib is loaded
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
