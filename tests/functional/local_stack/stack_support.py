"""Start the local stack as a subprocess (what `make run` runs) and talk to it over HTTP only."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from agent_memory_tools.local.banner import READY_PREFIX

REPO_ROOT = Path(__file__).resolve().parents[3]
STARTUP_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 15.0
_URL = re.compile(r"http://127\.0\.0\.1:(\d+)")


@dataclass(frozen=True)
class Reply:
    status: int
    headers: Mapping[str, str]
    body: Any

    @property
    def error_code(self) -> str | None:
        error = self.body.get("error") if isinstance(self.body, dict) else None
        return error.get("code") if isinstance(error, dict) else None


@dataclass
class RunningStack:
    process: subprocess.Popen[bytes]
    log_path: Path
    url: str
    ports: list[int] = field(default_factory=list)  # the API's, moto's and the JWKS server's
    ready_at: float = field(default_factory=time.monotonic)

    @property
    def host(self) -> str:
        return str(urlsplit(self.url).hostname)

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def environment_pids(self) -> list[int]:
        """The stack's child processes (its Lambda execution environments), from /proc."""
        return children_of(self.process.pid)

    def stop(self, signum: int = signal.SIGINT) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            raise

    # --- HTTP ----------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        *,
        token: str | None = None,
        json_body: Any = None,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 20.0,
    ) -> Reply:
        all_headers = dict(headers or {})
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        if json_body is not None:
            body = json.dumps(json_body).encode("utf-8")
            all_headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=all_headers)
            response = connection.getresponse()
            raw = response.read()
            parsed = json.loads(raw) if raw else None
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, parsed)
        finally:
            connection.close()

    def chat(
        self, token: str, message: str, *, turn_id: str | None = None, **headers: str
    ) -> Reply:
        all_headers = dict(headers)
        if turn_id is not None:
            all_headers["Idempotency-Key"] = turn_id
        return self.request(
            "POST", "/chat", token=token, json_body={"message": message}, headers=all_headers
        )

    def memory(self, token: str) -> dict[str, list[str]]:
        reply = self.request("GET", "/memory", token=token)
        assert reply.status == 200, reply
        return {target: list(reply.body[target]["entries"]) for target in ("user", "memory")}

    def cancel(self, token: str, turn_id: str) -> Reply:
        return self.request("POST", f"/turns/{turn_id}/cancel", token=token)

    def raw_connection(self) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=10)


def start_stack(
    tmp_path: Path, issuer_dir: Path, *, extra_env: Mapping[str, str] | None = None
) -> RunningStack:
    """``agent-memory serve --port 0`` in its own process group; returns once it is ready."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "MODEL_PROVIDER",
            "MEMORY_ENABLED",
            "AWS_PROFILE",
            "LOG_LEVEL",
            "POWERTOOLS_LOG_LEVEL",
        }
    }
    env.update({"AGENT_MEMORY_DEV_ISSUER_DIR": str(issuer_dir), "PYTHONUNBUFFERED": "1"})
    env.update(extra_env or {})
    log_path = tmp_path / f"stack-{uuid.uuid4().hex[:8]}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "agent_memory_tools.cli.main",
                "serve",
                "--port",
                "0",
                "--cleanup-interval",
                "1",
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a test's SIGKILL of the group can never miss a child
        )
    deadline = time.monotonic() + STARTUP_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        text = log_path.read_text(encoding="utf-8", errors="replace")
        ready = [line for line in text.splitlines() if line.startswith(READY_PREFIX)]
        if ready:
            url = ready[0][len(READY_PREFIX) :].split()[0]
            ports = [int(port) for port in _URL.findall(text)]
            return RunningStack(process, log_path, url, sorted(set(ports)))
        if process.poll() is not None:
            raise AssertionError(f"the stack exited with {process.returncode}:\n{text}")
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    raise AssertionError(
        f"the stack was not ready within {STARTUP_TIMEOUT_SECONDS} s:\n{log_path.read_text()}"
    )


def children_of(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name (field 2) may hold spaces: fields after the last ")" are plain.
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid:
            children.append(int(entry.name))
    return children


def is_running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] != "Z"


def port_is_free(port: int) -> bool:
    """A new server can listen on it (as the next `make run` would: closed connections may
    linger in TIME_WAIT, which SO_REUSEADDR allows; a listener still there does not)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
            probe.listen()
        except OSError:
            return False
    return True


def raw_request(
    method: str, path: str, *, token: str, body: bytes, extra: Mapping[str, str] | None = None
) -> bytes:
    lines = [
        f"{method} {path} HTTP/1.1",
        "Host: 127.0.0.1",
        f"Authorization: Bearer {token}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        *(f"{name}: {value}" for name, value in (extra or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body


def read_status(connection: socket.socket) -> int:
    """The status code of the first response on a raw connection."""
    data = b""
    while b"\r\n" not in data:
        chunk = connection.recv(4096)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1])


def new_turn_id() -> str:
    return str(uuid.uuid4())


def wait_for(condition: Any, timeout: float, interval: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return bool(condition())
