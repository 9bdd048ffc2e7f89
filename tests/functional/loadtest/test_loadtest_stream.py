"""`agent-memory loadtest --stream`: chat turns streamed through the real WebSocket function
(its frames posted with the real boto3 client to the load test's management API), clients
that drop mid-stream, and the same exact oracle: a dropped turn must commit nothing."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from test_loadtest_run import edit_store, read_report

from agent_memory_tools.cli.main import main
from agent_memory_tools.loadtest.config import LoadTestConfig, Mix
from agent_memory_tools.loadtest.facts import user_id
from agent_memory_tools.loadtest.record import RunRecord
from agent_memory_tools.loadtest.session import run_load_test
from agent_memory_tools.loadtest.targets.dynamodb import MotoTables
from agent_memory_tools.loadtest.targets.inprocess import InProcessTarget
from agent_memory_tools.loadtest.targets.management import (
    DROP_AFTER_STARTED,
    DROP_MID_STREAM,
    ManagementServer,
)
from agent_memory_tools.local.functions import project_root

pytestmark = pytest.mark.slow


def test_a_streamed_run_drops_clients_mid_stream_and_they_commit_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN streamed turns: adds, reads, and turns whose client drops mid-stream
    # WHEN a short streamed load runs
    code = main(
        [
            "loadtest", "--stream",
            "--users", "3",
            "--turns", "8",
            "--concurrency", "4",
            "--seed", "3",
            "--mix", "only:add=3,read=1,disconnect=3",
            "--no-progress",
            "--report-dir", str(tmp_path),
        ]
    )  # fmt: skip

    # THEN every check passed, with the streaming figures printed beside HTTP's
    out = capsys.readouterr().out
    assert code == 0, out
    assert "first delta     p50" in out
    assert "streamed/HTTP" in out
    report = read_report(tmp_path)
    assert all(check["passed"] for check in report["checks"])
    streaming = report["summary"]["streaming"]
    assert streaming["streamed_turns"] == 24
    assert streaming["deltas_not_the_reply"] == 0
    assert streaming["http"]["turns_per_second"] > 0
    # AND every dropped turn answered as dropped, both ways of dropping ran, and the
    # others committed with deltas that were their reply
    turns = report["turns"]
    dropped = [t for t in turns if t["kind"] == "disconnect"]
    assert dropped
    assert {t["status"] for t in dropped} == {"disconnected"}
    assert {t["variant"] for t in dropped} == {"after_started", "mid_stream"}
    adds = [t for t in turns if t["kind"] == "add"]
    assert {t["status"] for t in adds} == {"committed"}
    assert all(t["deltas_match"] is True and t["first_delta_ms"] > 0 for t in adds)
    # AND a streamed turn costs what POST /chat costs: 1 read-only, 3 writing
    requests = report["summary"]["dynamodb_requests_per_turn"]
    assert requests["read_only_turns"] == 1.0
    assert requests["committed_turns_without_re_attempts"] == 3.0


def test_a_dropped_turns_fact_planted_in_the_store_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN a streamed run whose store gets, behind the API's back, the fact of a turn whose
    # client dropped mid-stream
    run_id = "lt" + uuid.uuid4().hex[:6]
    config = LoadTestConfig(
        users=2,
        turns=4,
        concurrency=2,
        seed=9,
        mix=Mix({"add": 1, "disconnect": 2}),
        report_dir=tmp_path,
        progress=False,
        run_id=run_id,
        stream=True,
    )
    target = InProcessTarget(
        tables=MotoTables(project_root() / "template.yaml", run_id),
        environments=4,
        root=project_root(),
        warm_user=f"{run_id}-warmup",
        stream=True,
    )
    planted: list[str] = []

    def tamper(target: Any, record: RunRecord) -> None:
        turn = next(t for t in record.turns.values() if t.kind == "disconnect")
        fact = record.facts[turn.adds[0]]
        client, names = target.table_client(), target.table_names
        edit_store(client, names.memory, user_id(run_id, fact.user), "memory", append=fact.content)
        planted.append(fact.fid)

    # WHEN the load test checks
    result = run_load_test(config, target, before_check=tamper)

    # THEN it fails, naming the dropped turn's fact
    capsys.readouterr()
    assert result.exit_code == 1
    failing = {check.name: check.violations for check in result.checks if not check.passed}
    assert set(failing) == {"nothing_from_uncommitted_turns"}
    assert any(planted[0] in violation for violation in failing["nothing_from_uncommitted_turns"])
    assert json.loads(result.report_path.read_text())["passed"] is False


def test_disconnect_turns_need_stream(capsys: pytest.CaptureFixture[str]) -> None:
    # WHEN disconnect turns are asked for without --stream, or --stream with an HTTP target
    plain = main(["loadtest", "--mix", "disconnect=5", "--no-progress"])
    over_http = main(["loadtest", "--stream", "--url", "http://127.0.0.1:9", "--no-progress"])

    # THEN both are refused with a clear message
    err = capsys.readouterr().err
    assert plain != 0
    assert over_http != 0
    assert "add --stream" in err
    assert "--stream runs in-process" in err


@pytest.mark.parametrize(
    ("drop", "gone_after"),
    [(DROP_AFTER_STARTED, "started"), (DROP_MID_STREAM, "delta"), (None, None)],
)
def test_a_dropping_client_is_gone_from_the_frame_it_drops_at(
    drop: str | None, gone_after: str | None
) -> None:
    dropped: list[str] = []
    server = ManagementServer(on_drop=dropped.append)
    try:
        server.open("c1=", drop)
        answers = [
            (kind, server.post("c1=", f'{{"type": "{kind}", "text": "w "}}'.encode()))
            for kind in ("started", "delta", "delta")
        ]
        check = server.check("c1=")
    finally:
        server.shutdown()

    if gone_after is None:
        assert [status for _, status in answers] == [200, 200, 200]
        assert (check, dropped) == (200, [])
        return
    first_gone = [kind for kind, _ in answers].index(gone_after) + 1
    assert [status for _, status in answers] == [200] * first_gone + [410] * (3 - first_gone)
    assert (check, dropped) == (410, ["c1="])
