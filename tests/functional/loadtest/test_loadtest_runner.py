"""The driver against a scripted target: concurrency, the duration limit, the report, and
a failing check when the answers contradict the documents (no processes, no moto)."""

from __future__ import annotations

import io
import json
import threading
import time
from pathlib import Path
from typing import Any

from agent_memory_tools.loadtest.config import LoadTestConfig, parse_mix
from agent_memory_tools.loadtest.session import run_load_test
from agent_memory_tools.loadtest.targets.api import ApiAnswer, ApiRequest

EMPTY = {"entries": [], "chars": 0}


class ScriptedTarget:
    """Answers every chat turn `unchanged` after ``delay`` seconds; memory stays empty
    unless ``lie`` makes it claim every write committed (while storing nothing)."""

    name = "scripted"
    measures_requests = False

    def __init__(self, delay: float = 0.0, *, lie: bool = False) -> None:
        self.delay = delay
        self.lie = lie
        self.in_flight = 0
        self.most_in_flight = 0
        self.lock = threading.Lock()
        self.closed = False

    def start(self) -> None:
        pass

    def describe(self) -> dict[str, Any]:
        return {"kind": self.name}

    def token_for(self, user_id: str) -> str:
        return f"token-of-{user_id}"

    def send(self, request: ApiRequest) -> ApiAnswer:
        if request.method == "GET":
            body = {"user": {**EMPTY, "limit": 1375}, "memory": {**EMPTY, "limit": 2200}}
            return ApiAnswer(200, body, 1.0)
        if request.path != "/chat":
            return ApiAnswer(200, {"status": "cancelled"}, 1.0)
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        time.sleep(self.delay)
        with self.lock:
            self.in_flight -= 1
        message = str(request.body["message"]) if request.body else ""
        status = "committed" if self.lie and "memory_update" in message else "unchanged"
        memory = {"status": status, "operations": 0, "user": {}, "memory": {}}
        return ApiAnswer(200, {"turn_id": "t", "reply": "ok", "memory": memory}, 5.0)

    def close(self) -> None:
        self.closed = True


def config(tmp_path: Path, **overrides: Any) -> LoadTestConfig:
    values: dict[str, Any] = {
        "users": 3,
        "turns": 4,
        "concurrency": 4,
        "seed": 1,
        "report_dir": tmp_path,
        "run_id": "ltfake01",
    }
    values.update(overrides)
    return LoadTestConfig(**values)


def test_at_most_c_turns_are_in_flight_and_the_report_is_written(tmp_path: Path) -> None:
    # GIVEN a target that takes 20 ms per turn
    target = ScriptedTarget(delay=0.02)
    out, err = io.StringIO(), io.StringIO()

    # WHEN 12 read-only turns run with 4 in flight
    result = run_load_test(config(tmp_path, mix=parse_mix("only:read=1")), target, out=out, err=err)

    # THEN never more than 4 were in flight, all were answered, the checks pass
    assert 2 <= target.most_in_flight <= 4
    assert result.passed
    assert result.report["summary"]["turns"] == 12
    assert result.report["summary"]["outcomes"] == {"unchanged": 12}
    assert "retries, replays and DynamoDB requests are not visible" in out.getvalue()
    assert "loadtest [" in err.getvalue()
    assert json.loads(result.report_path.read_text(encoding="utf-8"))["passed"] is True
    assert target.closed


def test_the_duration_limit_stops_dispatching_and_still_checks(tmp_path: Path) -> None:
    # GIVEN 300 turns of 50 ms each, 2 in flight: about 7.5 s of load
    target = ScriptedTarget(delay=0.05)

    # WHEN the duration is limited to 0.3 s
    started = time.monotonic()
    result = run_load_test(
        config(
            tmp_path,
            users=2,
            turns=150,
            concurrency=2,
            duration_limit=0.3,
            mix=parse_mix("only:read=1"),
            progress=False,
        ),
        target,
        out=io.StringIO(),
        err=io.StringIO(),
    )

    # THEN it stops early, says so, and the turns it ran are checked
    summary = result.report["summary"]
    assert time.monotonic() - started < 5
    assert summary["stopped_early"] is True
    assert 0 < summary["turns"] < 300
    assert result.passed


def test_answers_that_contradict_the_documents_fail_the_run(tmp_path: Path) -> None:
    # GIVEN a target that answers `committed` to every write but stores nothing
    target = ScriptedTarget(lie=True)
    out = io.StringIO()

    # WHEN the load test runs adds against it
    result = run_load_test(
        config(tmp_path, mix=parse_mix("only:add=1"), progress=False),
        target,
        out=out,
        err=io.StringIO(),
    )

    # THEN the committed facts are reported missing and the exit code is 1
    assert result.exit_code == 1
    assert [c.name for c in result.checks if not c.passed] == ["committed_facts_present_once"]
    assert "FAILED: committed_facts_present_once" in out.getvalue()
