"""Lambda authorizers: the HTTP API's (payload format 2.0, simple responses) and the
WebSocket API's ``$connect`` (REQUEST, IAM policy response), with one verifier.

Allows a valid bearer token with ``{"sub": <subject>}`` as the only context: that subject is
the memory owner, and nothing else ever decides it. Everything else is denied; API Gateway
then answers 403 (it answers 401 itself when the Authorization header is missing).
Nothing of the token is ever logged: a denial logs its reason code only.

On ``$connect`` the token comes from the ``bearer.<JWT>`` subprotocol (browsers cannot set
headers on a WebSocket); a token in the query string is refused. API Gateway answers 401
itself when ``Sec-WebSocket-Protocol`` is missing and 403 on a Deny policy.
"""

from __future__ import annotations

import threading
from typing import Any

from aws_lambda_powertools import Logger
from aws_lambda_powertools.utilities.data_classes.api_gateway_authorizer_event import (
    APIGatewayAuthorizerEventV2,
    APIGatewayAuthorizerResponseV2,
)
from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.auth import (
    AuthConfigurationError,
    AuthSettings,
    InvalidTokenError,
    TokenVerifier,
    refuse_token_in_query,
    token_from_authorization_header,
    token_from_subprotocols,
)
from agent_memory.telemetry import count_authorizer_denial

logger = Logger()

# Built once per container and reused, so the issuer's keys stay cached across invocations.
# It holds settings and public keys only, never request data.
_verifier: TokenVerifier | None = None
_verifier_lock = threading.Lock()


def get_verifier() -> TokenVerifier:
    global _verifier
    verifier = _verifier
    if verifier is None:
        with _verifier_lock:
            if _verifier is None:
                _verifier = TokenVerifier(AuthSettings.from_env())
            verifier = _verifier
    return verifier


def authorize(event: dict[str, Any]) -> dict[str, Any]:
    """The authorizer's decision for one payload-v2 event (the local stack calls this)."""
    try:
        token = token_from_authorization_header(_authorization_header(event))
        identity = get_verifier().verify(token)
    except InvalidTokenError as error:
        return _deny(error.reason)
    except AuthConfigurationError:
        logger.error("Authorizer misconfigured", extra={"reason": "misconfigured"})
        return _deny("misconfigured")
    except Exception as error:
        # Fail closed. The type name only: an exception's message could quote the input.
        logger.error("Authorizer failed", extra={"error_type": type(error).__name__})
        return _deny("internal_error")
    return APIGatewayAuthorizerResponseV2(
        authorize=True, context={"sub": identity.subject}
    ).asdict()


@logger.inject_lambda_context(log_event=False, clear_state=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    # One entry point for both APIs (the local stack invokes it so): API Gateway builds the
    # event, and only a WebSocket $connect event has a methodArn and no payload version.
    if isinstance(event, dict) and "methodArn" in event and event.get("version") != "2.0":
        return authorize_websocket(event)
    return authorize(event)


def authorize_websocket(event: dict[str, Any]) -> dict[str, Any]:
    """The ``$connect`` authorizer's decision (a REQUEST event; the local stack calls this)."""
    method_arn = event.get("methodArn") if isinstance(event, dict) else None
    if not isinstance(method_arn, str) or not method_arn:
        return _websocket_policy("Deny", "unknown", "*", reason="malformed_event")
    try:
        refuse_token_in_query(_string_map(event.get("queryStringParameters")))
        header = _string_map(event.get("headers")).get("sec-websocket-protocol")
        identity = get_verifier().verify(token_from_subprotocols(header))
    except InvalidTokenError as error:
        return _websocket_policy("Deny", "unknown", method_arn, reason=error.reason)
    except AuthConfigurationError:
        logger.error("Authorizer misconfigured", extra={"reason": "misconfigured"})
        return _websocket_policy("Deny", "unknown", method_arn, reason="misconfigured")
    except Exception as error:
        logger.error("Authorizer failed", extra={"error_type": type(error).__name__})
        return _websocket_policy("Deny", "unknown", method_arn, reason="internal_error")
    return _websocket_policy("Allow", identity.subject, method_arn)


@logger.inject_lambda_context(log_event=False, clear_state=True)
def websocket_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return authorize_websocket(event)


def _websocket_policy(
    effect: str, principal: str, method_arn: str, *, reason: str | None = None
) -> dict[str, Any]:
    """An IAM policy response: WebSocket APIs take no simple responses. ``sub`` in the
    context reaches every later route of the connection as ``requestContext.authorizer``."""
    if reason is not None:
        logger.info("Authorization denied", extra={"reason": reason})
        count_authorizer_denial()
    response: dict[str, Any] = {
        "principalId": principal,
        "policyDocument": {
            "Version": "2012-10-17",
            "Statement": [
                {"Action": "execute-api:Invoke", "Effect": effect, "Resource": method_arn}
            ],
        },
    }
    if effect == "Allow":
        response["context"] = {"sub": principal}
    return response


def _string_map(value: object) -> dict[str, str]:
    """Header or query maps with lower-case names; anything else is empty."""
    if not isinstance(value, dict):
        return {}
    return {str(k).lower(): v for k, v in value.items() if isinstance(v, str)}


def _authorization_header(event: dict[str, Any]) -> str | None:
    if not isinstance(event, dict) or not isinstance(event.get("headers"), dict):
        return None
    value = APIGatewayAuthorizerEventV2(event).headers.get("authorization")
    return value if isinstance(value, str) else None


def _deny(reason: str) -> dict[str, Any]:
    logger.info("Authorization denied", extra={"reason": reason})
    count_authorizer_denial()  # one count per denial; the reason stays in the log
    return APIGatewayAuthorizerResponseV2(authorize=False).asdict()
