"""Idempotent retries of ``POST /chat`` (DESIGN.md "The turn protocol", step 2).

A phone that lost its answer sends the same request again with the same ``Idempotency-Key``.
Powertools' idempotency utility (``DynamoDBPersistenceLayer`` over ``IdempotencyTable``)
decides what the retry gets:

- the first attempt answered: its response, replayed (``replayed=True``); the model does not
  run again;
- the first attempt is still running: ``TurnInProgressError``;
- the key came with a different body: ``IdempotencyKeyReusedError``;
- the first attempt failed (it raised: a 5xx, a cancelled turn's 409): Powertools released
  the key, so the retry runs as a new attempt of the same turn. The ledger lets it take over
  a failed attempt's ``discarded`` or ``expired`` item (``LedgerRepository.open_turn``), never
  a ``cancelled`` one: a turn the user cancelled commits nothing, whichever attempt runs.

The key is the pair (user, turn id), hashed: two users with the same key never meet. The
validated payload is the request body. Stored responses expire after ``RESPONSE_TTL_S``.
When the table cannot be reached the turn runs as if no key had been sent: the ledger still
lets it commit at most once. Without ``IDEMPOTENCY_TABLE_NAME`` (the memory-free and the
streamed routes) nothing here runs.

Powertools' idempotency package is imported on the first request that carries a key, so a
chat cold start without one does not pay for it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Logger

from agent_memory.repository import ENV_IDEMPOTENCY_TABLE, get_client
from agent_memory.service.exceptions import IdempotencyKeyReusedError, TurnInProgressError

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

logger = Logger(service="agent-memory", child=True)

RESPONSE_TTL_S = 3600
# Stable across function names and stages, so a key means the same in every deployment.
KEY_PREFIX = "chat"

Body = dict[str, Any]


@dataclass(frozen=True)
class Answer:
    """A chat response body, and whether it is a stored one replayed to a retry."""

    body: Body
    replayed: bool = False


@dataclass
class _Attempt:
    """What the one attempt of this request did (``None``: it did not run)."""

    body: Body | None = None
    error: BaseException | None = None


class ChatRetries:
    """The process-wide idempotency store of the chat function (configuration only)."""

    def __init__(
        self,
        table_name: str,
        *,
        client: Callable[[], DynamoDBClient] = get_client,
        ttl_s: int = RESPONSE_TTL_S,
    ) -> None:
        self._table_name = table_name
        self._client = client
        self._ttl_s = ttl_s
        self._store: Any = None

    @classmethod
    def from_env(cls) -> ChatRetries:
        return cls(os.environ.get(ENV_IDEMPOTENCY_TABLE, "").strip())

    @property
    def enabled(self) -> bool:
        return bool(self._table_name)

    def answer(
        self,
        *,
        user_id: str,
        turn_id: str,
        request: Body,
        lambda_context: Any,
        attempt: Callable[[], Body],
    ) -> Answer:
        """The response to this request: a replay, or ``attempt()`` run once."""
        from aws_lambda_powertools.utilities.idempotency import (
            IdempotencyConfig,
            idempotent_function,
        )
        from aws_lambda_powertools.utilities.idempotency.exceptions import (
            IdempotencyAlreadyInProgressError,
            IdempotencyInconsistentStateError,
            IdempotencyPersistenceLayerError,
            IdempotencyValidationError,
        )

        ran = _Attempt()
        replayed = False

        def on_replay(response: Any, idempotent_data: Any) -> Any:
            nonlocal replayed
            replayed = True
            return response

        def first_attempt(retry: Body) -> Body:
            try:
                ran.body = attempt()
            except BaseException as error:
                ran.error = error
                raise
            return ran.body

        config = IdempotencyConfig(
            event_key_jmespath="[user_id, turn_id]",
            payload_validation_jmespath="request",
            expires_after_seconds=self._ttl_s,
            hash_function="sha256",
            response_hook=on_replay,
        )
        if lambda_context is not None:
            # A record of an attempt the runtime killed is free again when its time is up.
            config.register_lambda_context(lambda_context)
        guarded = idempotent_function(
            first_attempt,
            data_keyword_argument="retry",
            persistence_store=self._persistence(),
            config=config,
            key_prefix=KEY_PREFIX,
        )
        try:
            body = guarded(retry={"user_id": user_id, "turn_id": turn_id, "request": request})
        except IdempotencyValidationError:
            raise IdempotencyKeyReusedError() from None
        except (IdempotencyAlreadyInProgressError, IdempotencyInconsistentStateError):
            raise TurnInProgressError() from None
        except IdempotencyPersistenceLayerError as error:
            # The type only: Powertools' message names the hashed key.
            logger.warning(
                "idempotency store failed",
                extra={"error_type": type(error.__cause__ or error).__name__},
            )
            if ran.error is not None:
                raise ran.error from None
            if ran.body is not None:
                return Answer(ran.body)  # it ran; only storing its response failed
            return Answer(attempt())  # the store is unreachable: run as without a key
        if replayed:
            logger.info("chat retry replayed")  # no key, no body: the request id correlates
        return Answer(body, replayed=replayed)

    def _persistence(self) -> Any:
        if self._store is None:
            from aws_lambda_powertools.utilities.idempotency import DynamoDBPersistenceLayer

            self._store = DynamoDBPersistenceLayer(
                table_name=self._table_name, boto3_client=self._client()
            )
        return self._store
