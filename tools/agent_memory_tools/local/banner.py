"""What ``make run`` prints once the stack is up."""

from __future__ import annotations

import ipaddress
import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

READY_PREFIX = "agent-memory: ready at "
EXAMPLE_MESSAGE = "remember: I prefer short answers"


@dataclass(frozen=True)
class BannerFacts:
    url: str
    memory_enabled: bool
    model: str
    dynamodb_url: str
    jwks_url: str
    key_dir: Path
    cleanup_interval: float
    exposed: bool  # listening beyond loopback


def client_url(host: str, port: int) -> str:
    """The URL to call: a wildcard bind is reached through loopback."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host  # noqa: S104
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def model_description(env: Mapping[str, str]) -> str:
    provider = env.get("MODEL_PROVIDER", "rules")
    if provider == "bedrock":
        return f"bedrock {env.get('MODEL_ID', '')} in {env.get('AWS_REGION', '')}".strip()
    if provider == "openai":
        return f"openai {env.get('OPENAI_MODEL', '')} at {env.get('OPENAI_BASE_URL', '')}"
    return "rules (deterministic, offline; MODEL_PROVIDER=bedrock or openai for a real model)"


def token_command(cwd: Path | None = None) -> str:
    """How to run ``agent-memory`` from here: the console script beside this interpreter."""
    script = Path(sys.executable).parent / "agent-memory"
    if not script.exists():
        return f"{shlex.quote(sys.executable)} -m agent_memory_tools.cli.main"
    here = cwd or Path.cwd()
    try:
        relative = script.relative_to(here)
    except ValueError:
        return shlex.quote(str(script))
    # A command with no slash would be looked up on PATH instead.
    return shlex.quote(str(relative) if len(relative.parts) > 1 else f".{os.sep}{relative}")


def banner(facts: BannerFacts) -> str:
    body = shlex.quote(f'{{"message": "{EXAMPLE_MESSAGE}"}}')
    lines = [
        "agent-memory local stack",
        f"  console   {facts.url}/ (the web console: sign in as any name)",
        f"  API       {facts.url}",
        "            POST /chat, GET|PATCH|DELETE /memory, GET /turns/{turn_id},",
        "            POST /turns/{turn_id}/cancel, /memory/history, /memory/undo,",
        "            /memory/settings, /memory/proposals, POST /eval/chat (docs/openapi.json)",
        f"  stream    ws{facts.url.removeprefix('http')}/ws (subprotocols agent-memory.v1 and"
        " bearer.<token>)",
        f"  memory    {'on' if facts.memory_enabled else 'off'} (MEMORY_ENABLED)",
        f"  model     {facts.model}",
        f"  DynamoDB  moto at {facts.dynamodb_url} (in memory: gone when this stops)",
        f"  tokens    local dev issuer (keys in {facts.key_dir}), JWKS at {facts.jwks_url}",
        f"  cleanup   every {facts.cleanup_interval:g} s",
        "  note      POST /eval/chat has AWS_IAM auth in the cloud; here it needs no token.",
        "            Handler logs show at LOG_LEVEL=WARNING; LOG_LEVEL=INFO shows every turn.",
    ]
    if facts.exposed:
        lines.append(
            "  WARNING   listening beyond this machine: /eval/chat is open to anyone who can"
            " reach it."
        )
    lines += [
        "",
        "Try it from another terminal:",
        f"  TOKEN=$({token_command()} token alice)",
        f'  curl -s {facts.url}/chat -H "Authorization: Bearer $TOKEN" \\',
        f"       -H 'Content-Type: application/json' -d {body}",
        f'  curl -s {facts.url}/memory -H "Authorization: Bearer $TOKEN"',
        "",
        f"{READY_PREFIX}{facts.url} (Ctrl-C stops everything)",
    ]
    return "\n".join(lines)
