"""One list of retryable AWS codes, read alike by the DynamoDB adapters, the commit's
classification and the Bedrock provider."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from agent_memory.ledger.retry import Action, classify_cancellation
from agent_memory.models.bedrock import from_client_error
from agent_memory.repository import RetryableError, translate_error
from agent_memory.retryable import (
    BEDROCK_RETRYABLE_ERRORS,
    DYNAMODB_RETRYABLE_CANCELLATION_REASONS,
    DYNAMODB_RETRYABLE_ERRORS,
)


def client_error(code: str, status: int = 400) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": "m"}, "ResponseMetadata": {"HTTPStatusCode": status}},
        "Operation",
    )


@pytest.mark.parametrize("code", sorted(DYNAMODB_RETRYABLE_ERRORS))
def test_a_listed_dynamodb_error_is_a_retryable_repository_error(code: str) -> None:
    assert isinstance(translate_error(client_error(code)), RetryableError)


@pytest.mark.parametrize("reason", sorted(DYNAMODB_RETRYABLE_CANCELLATION_REASONS))
def test_a_listed_cancellation_reason_resends_the_same_transaction(reason: str) -> None:
    # GIVEN a transaction of two documents and the ledger, one document throttled
    classified = classify_cancellation([reason, "None", "None"], ledger_index=2)
    # THEN the same request goes again
    assert classified.action is Action.RETRY_SAME


@pytest.mark.parametrize("code", sorted(BEDROCK_RETRYABLE_ERRORS))
def test_a_listed_bedrock_error_is_a_retryable_model_error(code: str) -> None:
    assert from_client_error(client_error(code)).retryable


def test_an_unlisted_code_is_retried_nowhere() -> None:
    # GIVEN a validation failure, which no retry can fix
    code = "ValidationException"
    assert not isinstance(translate_error(client_error(code)), RetryableError)
    assert classify_cancellation([code, "None"], ledger_index=1).action is Action.FAIL
    assert not from_client_error(client_error(code)).retryable
