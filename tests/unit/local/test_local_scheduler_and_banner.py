"""The cleanup schedule and the startup banner."""

from __future__ import annotations

import threading
from pathlib import Path

from local_fakes import FakeFunctions

from agent_memory_tools.local.banner import READY_PREFIX, BannerFacts, banner, client_url
from agent_memory_tools.local.exceptions import FunctionCrashedError
from agent_memory_tools.local.scheduler import CleanupSchedule


def test_the_schedule_invokes_cleanup_with_the_scheduled_event_until_closed() -> None:
    # GIVEN a cleanup that expires one turn per run
    runs = threading.Semaphore(0)

    def cleanup(event: dict[str, object], watch: object) -> dict[str, int]:
        runs.release()
        return {"expired": 1}

    functions = FakeFunctions(cleanup=cleanup)
    lines: list[str] = []

    # WHEN the schedule runs for two intervals
    schedule = CleanupSchedule(functions, interval=0.02, log=lines.append).start()
    assert runs.acquire(timeout=2)
    assert runs.acquire(timeout=2)
    schedule.close()
    count = len(functions.calls)

    # THEN each run got EventBridge's event, results were logged, and closing stopped it
    assert all(event["detail-type"] == "Scheduled Event" for _, event in functions.calls)
    assert "cleanup: expired 1 overdue turn(s)" in lines
    assert len(functions.calls) == count


def test_a_failed_run_is_one_log_line_and_nothing_when_nothing_expired() -> None:
    lines: list[str] = []
    failing = CleanupSchedule(
        FakeFunctions(cleanup=lambda event, watch: FunctionCrashedError("cleanup raised KeyError")),
        interval=60,
        log=lines.append,
    )
    quiet = CleanupSchedule(
        FakeFunctions(cleanup=lambda event, watch: {"expired": 0}), interval=60, log=lines.append
    )

    failing.run_once()
    quiet.run_once()

    assert lines == ["cleanup failed: FunctionCrashedError: cleanup raised KeyError"]


def test_the_banner_has_the_console_url_flag_model_example_and_the_ready_line_last() -> None:
    text = banner(
        BannerFacts(
            url="http://127.0.0.1:3000",
            memory_enabled=False,
            model="rules",
            dynamodb_url="http://127.0.0.1:1",
            jwks_url="http://127.0.0.1:2/.well-known/jwks.json",
            key_dir=Path(".local/dev-issuer"),
            cleanup_interval=60,
            exposed=True,
        )
    )

    assert "console   http://127.0.0.1:3000/ " in text
    assert "GET /turns/{turn_id}" in text
    assert "memory    off" in text
    assert "model     rules" in text
    assert "token alice)" in text
    assert "curl -s http://127.0.0.1:3000/chat" in text
    assert "remember:" in text
    assert "WARNING" in text
    assert text.splitlines()[-1].startswith(f"{READY_PREFIX}http://127.0.0.1:3000")


def test_a_wildcard_bind_is_called_through_loopback() -> None:
    assert client_url("0.0.0.0", 3000) == "http://127.0.0.1:3000"
    assert client_url("::1", 8080) == "http://[::1]:8080"
