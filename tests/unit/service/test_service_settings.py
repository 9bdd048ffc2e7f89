"""The turn's deadline (DESIGN.md step 2) and the settings it comes from."""

from __future__ import annotations

import pytest

from agent_memory.service import ConfigurationError, TurnSettings
from agent_memory.service.settings import env_flag


def test_the_deadline_is_the_turn_budget_minus_the_margin_when_lambda_has_more_time() -> None:
    settings = TurnSettings(turn_deadline_ms=25_000, safety_margin_ms=1_500)
    assert settings.deadline_ms(now_ms=1_000, remaining_ms=29_000) == 1_000 + 23_500


def test_the_deadline_follows_the_lambdas_remaining_time_when_it_is_shorter() -> None:
    # GIVEN a Lambda with 9 s left and a 25 s turn budget
    settings = TurnSettings(turn_deadline_ms=25_000, safety_margin_ms=1_500)
    # THEN the turn must end 1.5 s before the Lambda does
    assert settings.deadline_ms(now_ms=1_000, remaining_ms=9_000) == 1_000 + 7_500


def test_the_deadline_is_never_in_the_past_of_now() -> None:
    settings = TurnSettings(safety_margin_ms=1_500)
    assert settings.deadline_ms(now_ms=1_000, remaining_ms=500) == 1_000


def test_settings_come_from_the_template_variables() -> None:
    settings = TurnSettings.from_env({"TURN_DEADLINE_SECONDS": "12", "MAX_MODEL_CALLS": "4"})
    assert (settings.turn_deadline_ms, settings.max_model_calls) == (12_000, 4)


@pytest.mark.parametrize(
    "env",
    [{"TURN_DEADLINE_SECONDS": "soon"}, {"TURN_DEADLINE_SECONDS": "0"}, {"MAX_MODEL_CALLS": "-1"}],
)
def test_bad_settings_are_refused(env: dict[str, str]) -> None:
    with pytest.raises(ConfigurationError):
        TurnSettings.from_env(env)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("true", True),
        ("TRUE", True),
        ("1", True),
        ("on", True),
        ("false", False),
        ("0", False),
        ("", False),
        (None, False),
    ],
)
def test_flags_parse_the_usual_spellings(value: str | None, expected: bool) -> None:
    assert env_flag(value) is expected


def test_a_misspelt_flag_is_an_error_not_a_silent_off() -> None:
    with pytest.raises(ConfigurationError):
        env_flag("ture")
