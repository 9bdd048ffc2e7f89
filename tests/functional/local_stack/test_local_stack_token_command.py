"""``agent-memory token`` from another folder: a token the running stack accepts, or a clear
refusal that creates no key (issue 12, item 14)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import jwt
import pytest
from stack_support import RunningStack

from agent_memory_tools.cli.main import main
from agent_memory_tools.dev_auth import stack_token

pytestmark = pytest.mark.slow

TOKEN_COMMAND = [sys.executable, "-m", "agent_memory_tools.cli.main", "token"]


def _outside_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("AGENT_MEMORY_DEV_ISSUER_DIR", "AGENT_MEMORY_URL")
    }
    return {**env, **extra}


def _closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_from_another_folder_the_running_stack_signs_the_token(
    stack: RunningStack, tmp_path: Path
) -> None:
    # GIVEN a folder that is not a checkout, and the stack's address (as its banner prints it)
    # WHEN `agent-memory token carol --url ...` runs there
    minted = subprocess.run(
        [*TOKEN_COMMAND, "carol", "--url", stack.url, "--ttl", "600"],
        cwd=tmp_path,
        env=_outside_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )

    # THEN the token is for carol, lives 600 s, and the stack accepts it; no key was made here
    assert minted.returncode == 0, minted.stderr
    token = minted.stdout.strip()
    claims = jwt.decode(token, options={"verify_signature": False})
    assert claims["sub"] == "carol"
    assert claims["exp"] - claims["iat"] == 600
    assert stack.request("GET", "/memory", token=token).status == 200
    assert list(tmp_path.iterdir()) == []


def test_outside_a_checkout_the_default_stack_is_asked(
    stack: RunningStack,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # GIVEN a folder that is not a checkout, and a stack at the default address
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AGENT_MEMORY_DEV_ISSUER_DIR", raising=False)
    monkeypatch.delenv("AGENT_MEMORY_URL", raising=False)
    monkeypatch.setattr(stack_token, "DEFAULT_STACK_URL", stack.url)

    # WHEN the command runs with no --url
    assert main(["token", "carol"]) == 0

    # THEN the stack signed it (it accepts it), and no key was created in this folder
    token = capsys.readouterr().out.strip()
    assert stack.request("GET", "/memory", token=token).status == 200
    assert not (tmp_path / ".local").exists()


def test_with_no_stack_to_ask_it_says_so_and_creates_no_key(tmp_path: Path) -> None:
    # GIVEN a folder that is not a checkout and no stack at the address it would ask
    # WHEN the command runs there
    refused = subprocess.run(
        [*TOKEN_COMMAND, "carol"],
        cwd=tmp_path,
        env=_outside_env(AGENT_MEMORY_URL=_closed_port_url()),
        capture_output=True,
        text=True,
        timeout=60,
    )

    # THEN it exits 1 with one clear line, no traceback, no token and no key
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert "No local stack answers at http://127.0.0.1:" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert list(tmp_path.iterdir()) == []


def test_outside_a_checkout_without_a_stack_the_refusal_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # GIVEN a folder that is not a checkout, and nothing listening at the default address
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AGENT_MEMORY_DEV_ISSUER_DIR", raising=False)
    monkeypatch.delenv("AGENT_MEMORY_URL", raising=False)
    monkeypatch.setattr(stack_token, "DEFAULT_STACK_URL", _closed_port_url())

    # WHEN the command runs
    assert main(["token", "carol"]) == 1

    # THEN it explains why there is no key here and the three ways out, and made no key
    error = capsys.readouterr().err
    assert "not an agent-memory checkout" in error
    assert "--url" in error
    assert "AGENT_MEMORY_DEV_ISSUER_DIR" in error
    assert not (tmp_path / ".local").exists()
