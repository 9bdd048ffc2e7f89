"""The guardrail adapter against botocore's own service model (Stubber checks every request
and response shape): pass, intervention, errors and throttles; no content in the logs."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import botocore.session
import pytest
from botocore.stub import Stubber

from agent_memory.guardrail import (
    GUARDRAIL_BLOCKED,
    GUARDRAIL_UNAVAILABLE,
    BedrockGuardrail,
    guardrail_from_environment,
)

USAGE = {
    "topicPolicyUnits": 1,
    "contentPolicyUnits": 1,
    "wordPolicyUnits": 0,
    "sensitiveInformationPolicyUnits": 0,
    "sensitiveInformationPolicyFreeUnits": 0,
    "contextualGroundingPolicyUnits": 0,
}
TEXTS = ("User prefers tea.", "Secret plan: wire the money to account 42.")


@pytest.fixture
def stubbed() -> Iterator[tuple[BedrockGuardrail, Stubber]]:
    client = botocore.session.get_session().create_client(
        "bedrock-runtime",
        region_name="eu-west-1",
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
    )
    with Stubber(client) as stubber:
        yield BedrockGuardrail(client, identifier="gr1abc", version="3"), stubber
        stubber.assert_no_pending_responses()


def _expected() -> dict[str, object]:
    return {
        "guardrailIdentifier": "gr1abc",
        "guardrailVersion": "3",
        "source": "INPUT",
        "content": [{"text": {"text": text}} for text in TEXTS],
    }


def test_a_batch_the_guardrail_lets_through_is_accepted(
    stubbed: tuple[BedrockGuardrail, Stubber],
) -> None:
    guardrail, stubber = stubbed
    stubber.add_response(
        "apply_guardrail",
        {"usage": USAGE, "action": "NONE", "outputs": [], "assessments": []},
        _expected(),
    )
    assert guardrail.review(TEXTS) is None


def test_an_intervention_blocks_the_batch_and_logs_no_content(
    stubbed: tuple[BedrockGuardrail, Stubber], caplog: pytest.LogCaptureFixture
) -> None:
    guardrail, stubber = stubbed
    stubber.add_response(
        "apply_guardrail",
        {
            "usage": USAGE,
            "action": "GUARDRAIL_INTERVENED",
            "outputs": [{"text": "Sorry, this content is blocked."}],
            "assessments": [],
        },
        _expected(),
    )
    with caplog.at_level(logging.DEBUG):
        assert guardrail.review(TEXTS) == GUARDRAIL_BLOCKED
    assert "wire the money" not in caplog.text
    assert "Sorry" not in caplog.text


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("ThrottlingException", 429),
        ("ServiceUnavailableException", 503),
        ("AccessDeniedException", 403),
        ("ResourceNotFoundException", 404),
        ("InternalServerException", 500),
    ],
)
def test_errors_and_throttles_close_the_write(
    stubbed: tuple[BedrockGuardrail, Stubber], code: str, status: int
) -> None:
    guardrail, stubber = stubbed
    stubber.add_client_error(
        "apply_guardrail",
        service_error_code=code,
        service_message="details",
        http_status_code=status,
        expected_params=_expected(),
    )
    assert guardrail.review(TEXTS) == GUARDRAIL_UNAVAILABLE


def test_nothing_to_write_needs_no_call(stubbed: tuple[BedrockGuardrail, Stubber]) -> None:
    guardrail, _ = stubbed
    assert guardrail.review(()) is None  # the stubber would fail on an unexpected call


def test_the_guardrail_is_off_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GUARDRAIL_ID", raising=False)
    assert guardrail_from_environment() is None
    monkeypatch.setenv("GUARDRAIL_ID", "gr1abc")
    monkeypatch.setenv("GUARDRAIL_VERSION", "")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    assert isinstance(guardrail_from_environment(), BedrockGuardrail)
