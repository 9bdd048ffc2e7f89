"""``agent-memory token``: a dev token the running local stack accepts, or a clear refusal.

The stack trusts the key of the checkout it was started from. From that checkout (or with
``AGENT_MEMORY_DEV_ISSUER_DIR``) the token is minted with the same key, stack running or
not. From anywhere else there is no key to use, and making a new one would only get 403s:
the running stack is asked instead (its ``POST /dev/token``, loopback only), and when no
stack answers the command says so and creates nothing.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from agent_memory_tools.dev_auth.dev_issuer import ENV_DEV_ISSUER_DIR, DevIssuer, repository_root

DEFAULT_STACK_URL = "http://127.0.0.1:3000"
ENV_STACK_URL = "AGENT_MEMORY_URL"
DEV_TOKEN_PATH = "/dev/token"
_TIMEOUT_SECONDS = 10.0


class TokenUnavailableError(Exception):
    """No token can be made that the stack would accept; the message says what to do."""


def checkout_key_dir() -> Path | None:
    """The dev issuer's key folder when it is known: ``$AGENT_MEMORY_DEV_ISSUER_DIR``, or the
    checkout the working directory is in; None elsewhere (no key is guessed or created)."""
    configured = os.environ.get(ENV_DEV_ISSUER_DIR, "").strip()
    if configured:
        return Path(configured)
    root = repository_root(Path.cwd())
    return None if root is None else root / ".local" / "dev-issuer"


def dev_token(user: str, *, ttl_seconds: int, url: str | None = None) -> str:
    """A token for ``user``: from the stack at ``url`` when one is named (or
    ``$AGENT_MEMORY_URL``), else with this checkout's key, else from the stack at the
    default address."""
    named = url or os.environ.get(ENV_STACK_URL, "").strip() or None
    if named is not None:
        return token_from_stack(named, user, ttl_seconds=ttl_seconds)
    key_dir = checkout_key_dir()
    if key_dir is not None:
        return DevIssuer(key_dir).mint(user, ttl_seconds=ttl_seconds)
    try:
        return token_from_stack(DEFAULT_STACK_URL, user, ttl_seconds=ttl_seconds)
    except TokenUnavailableError as error:
        raise TokenUnavailableError(
            f"{error} This folder is not an agent-memory checkout, so there is no dev key"
            " here either (none was created: a new key would only get 403s). Run the command"
            " in the checkout that runs `make run`, pass --url with the address the stack"
            f" printed, or set {ENV_DEV_ISSUER_DIR} to the key folder its banner shows."
        ) from None


def token_from_stack(url: str, user: str, *, ttl_seconds: int) -> str:
    """Ask the local stack at ``url`` to sign a token with its own dev issuer."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise TokenUnavailableError(f"--url must be an http(s) address, got {url!r}.")
    endpoint = url.rstrip("/") + DEV_TOKEN_PATH
    body = json.dumps({"user": user, "ttl_seconds": ttl_seconds}).encode("utf-8")
    request = urllib.request.Request(  # noqa: S310 (the scheme is checked above)
        endpoint, data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_SECONDS) as response:  # noqa: S310
            answer = json.loads(response.read())
    except urllib.error.HTTPError as error:
        if error.code in (404, 405):
            raise TokenUnavailableError(
                f"The server at {url} offers no dev sign-in: it is not the local stack, or"
                " the stack listens beyond loopback (then mint the token in its checkout)."
            ) from None
        raise TokenUnavailableError(
            f"The local stack at {url} refused: {_message(error)}"
        ) from None
    except (urllib.error.URLError, OSError, ValueError):
        raise TokenUnavailableError(f"No local stack answers at {url}.") from None
    token = answer.get("token") if isinstance(answer, dict) else None
    if not isinstance(token, str) or not token:
        raise TokenUnavailableError(f"The server at {url} did not answer with a token.")
    return token


def _message(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read())["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return f"HTTP {error.code}"
