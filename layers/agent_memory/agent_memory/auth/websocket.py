"""The bearer token of a WebSocket handshake.

A browser cannot set headers on a WebSocket, so the client offers two subprotocols in
``Sec-WebSocket-Protocol``: ``agent-memory.v1`` and ``bearer.<JWT>`` (the Kubernetes trick).
The server selects ``agent-memory.v1``; the token never comes back in the response. A token
in the query string is refused: query strings land in access logs and browser history.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from agent_memory.auth.exceptions import (
    MalformedTokenError,
    MissingSubprotocolError,
    MissingTokenError,
    TokenInQueryStringError,
)
from agent_memory.auth.verifier import MAX_TOKEN_LENGTH

SUBPROTOCOL = "agent-memory.v1"
BEARER_SUBPROTOCOL_PREFIX = "bearer."

# Query parameter names that would carry a credential, and values shaped like a JWT.
_TOKEN_PARAMETER_NAMES = frozenset(
    {"token", "access_token", "id_token", "jwt", "auth", "authorization", "bearer"}
)
_JWT_SHAPE = re.compile(r"[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")


def offered_subprotocols(header: str | None) -> list[str]:
    """The subprotocols a ``Sec-WebSocket-Protocol`` header offers, in order."""
    if not header:
        return []
    return [part.strip() for part in header.split(",") if part.strip()]


def token_from_subprotocols(header: str | None) -> str:
    """The JWT of the ``bearer.<JWT>`` subprotocol offered beside ``agent-memory.v1``.

    Raises ``MissingTokenError`` (no bearer subprotocol), ``MissingSubprotocolError``
    (``agent-memory.v1`` not offered) or ``MalformedTokenError`` (several tokens, too long).
    """
    offered = offered_subprotocols(header)
    tokens = [p[len(BEARER_SUBPROTOCOL_PREFIX) :] for p in offered if _is_bearer(p)]
    if not tokens:
        raise MissingTokenError()
    if len(tokens) > 1 or not tokens[0] or len(tokens[0]) > MAX_TOKEN_LENGTH:
        raise MalformedTokenError()
    if SUBPROTOCOL not in offered:
        raise MissingSubprotocolError()
    return tokens[0]


def refuse_token_in_query(parameters: Mapping[str, str] | None) -> None:
    """Raise ``TokenInQueryStringError`` when the query string carries something that looks
    like a credential (by name or by shape); other parameters are left alone."""
    for name, value in (parameters or {}).items():
        if name.strip().lower() in _TOKEN_PARAMETER_NAMES:
            raise TokenInQueryStringError()
        if isinstance(value, str) and _JWT_SHAPE.search(value):
            raise TokenInQueryStringError()


def _is_bearer(subprotocol: str) -> bool:
    return subprotocol.lower().startswith(BEARER_SUBPROTOCOL_PREFIX)
