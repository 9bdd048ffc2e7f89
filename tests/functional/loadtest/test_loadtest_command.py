"""`agent-memory loadtest` says clearly what is wrong and exits non-zero."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent_memory_tools.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--token-command", "get-token"], "--token-command needs --url."),
        (["--users", "0"], "--users must be a whole number from 1 to 100000, got 0."),
        (["--mix", "teleport=1"], "Unknown turn kind(s) in --mix: teleport."),
        (["--url", "ftp://example.com"], "--url must be an http(s) base URL"),
        (["--url", "http://127.0.0.1:1", "--table-prefix", "x"], "are for the in-process"),
        (["--table-prefix", "a b"], "--table-prefix: letters, digits"),
        (["--duration-limit", "0"], "--duration-limit must be a positive number"),
    ],
)
def test_bad_options_are_refused_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # WHEN the load test is started with a bad option
    code = main(["loadtest", *argv])

    # THEN it exits 1 with one line naming the problem
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("agent-memory loadtest: ")
    assert message in err


def test_an_unreachable_url_is_reported_before_any_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN nothing listening on the URL
    monkeypatch.setenv("AGENT_MEMORY_DEV_ISSUER_DIR", str(tmp_path / "issuer"))

    # WHEN the load test targets it
    code = main(
        ["loadtest", "--url", "http://127.0.0.1:1", "--users", "1", "--report-dir", str(tmp_path)]
    )

    # THEN it stops at the first read with the reason, and writes no report
    err = capsys.readouterr().err
    assert code == 1
    assert "Cannot read the memory of" in err
    assert "no answer (ConnectionRefusedError" in err
    assert not list(tmp_path.glob("loadtest-*.json"))
